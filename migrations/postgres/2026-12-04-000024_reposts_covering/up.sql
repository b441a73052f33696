-- A person's reposts newest first, with the post each passes on, from the index alone: reading
-- a viewer's marks (their likes and reposts, `posts::memory`) visited one table row per repost
-- (issue 30: the most read statement of a cold viewer's first page).
DROP INDEX reposts_user_idx;
CREATE INDEX reposts_user_idx ON reposts (user_id, id, post_id);
