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

-- A new kind of notification, "reposted your post". SQLite cannot change a CHECK: the table is
-- made again (nothing refers to it).
CREATE TABLE notifications_new (
    id BIGINT PRIMARY KEY NOT NULL,
    recipient_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    sender_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('mention', 'comment', 'listening', 'other', 'repost')),
    post_id BIGINT REFERENCES posts (id) ON DELETE CASCADE,
    excerpt TEXT,
    created_at TIMESTAMP NOT NULL,
    is_read BOOLEAN NOT NULL DEFAULT 0,
    comment_id BIGINT REFERENCES comments (id) ON DELETE CASCADE
);
INSERT INTO notifications_new (id, recipient_id, sender_id, kind, post_id, excerpt, created_at, is_read, comment_id)
    SELECT id, recipient_id, sender_id, kind, post_id, excerpt, created_at, is_read, comment_id FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_new RENAME TO notifications;
CREATE INDEX notifications_recipient_idx ON notifications (recipient_id, id);
CREATE INDEX notifications_unread_idx ON notifications (recipient_id, id) WHERE NOT is_read;
CREATE INDEX notifications_sender_idx ON notifications (sender_id, recipient_id);
CREATE INDEX notifications_post_idx ON notifications (post_id, sender_id);
CREATE INDEX notifications_comment_idx ON notifications (comment_id);
