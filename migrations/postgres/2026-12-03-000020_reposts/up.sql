-- Reposts (issue 31): a person passes someone's post on to their listeners, once. The id is
-- made as a post's is (time-ordered, the same space), so that a repost takes its place in the
-- Listened to feed among posts by its id. A post keeps its count, as it does its likes.
CREATE TABLE reposts (
    id BIGINT PRIMARY KEY NOT NULL,
    post_id BIGINT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL
);
-- Once per person and post; a person's reposts newest first (Listened to, their flags).
CREATE UNIQUE INDEX reposts_user_post_idx ON reposts (user_id, post_id);
CREATE INDEX reposts_user_idx ON reposts (user_id, id);
-- A post's reposts, newest first: whether a newer one stands (one place in a feed).
CREATE INDEX reposts_post_idx ON reposts (post_id, id);
ALTER TABLE posts ADD COLUMN reposts_count BIGINT NOT NULL DEFAULT 0;

-- A new kind of notification, "reposted your post".
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('mention', 'comment', 'listening', 'other', 'repost'));
