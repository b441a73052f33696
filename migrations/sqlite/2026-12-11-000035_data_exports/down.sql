DROP INDEX comments_user_post_idx;
CREATE INDEX comments_user_id_idx ON comments (user_id, post_id);
DROP TABLE data_exports;
