DELETE FROM notifications WHERE kind = 'repost';
CREATE TABLE notifications_old (
    id BIGINT PRIMARY KEY NOT NULL,
    recipient_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    sender_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('mention', 'comment', 'listening', 'other')),
    post_id BIGINT REFERENCES posts (id) ON DELETE CASCADE,
    excerpt TEXT,
    created_at TIMESTAMP NOT NULL,
    is_read BOOLEAN NOT NULL DEFAULT 0,
    comment_id BIGINT REFERENCES comments (id) ON DELETE CASCADE
);
INSERT INTO notifications_old SELECT id, recipient_id, sender_id, kind, post_id, excerpt, created_at, is_read, comment_id
    FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_old RENAME TO notifications;
CREATE INDEX notifications_recipient_idx ON notifications (recipient_id, id);
CREATE INDEX notifications_unread_idx ON notifications (recipient_id, id) WHERE NOT is_read;
CREATE INDEX notifications_sender_idx ON notifications (sender_id, recipient_id);
CREATE INDEX notifications_post_idx ON notifications (post_id, sender_id);
CREATE INDEX notifications_comment_idx ON notifications (comment_id);
ALTER TABLE posts DROP COLUMN reposts_count;
DROP TABLE reposts;
