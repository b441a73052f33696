DROP INDEX reposts_user_idx;
CREATE INDEX reposts_user_idx ON reposts (user_id, id);
