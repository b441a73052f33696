-- Notifications: written in the same transaction as what caused them (a comment, a mention, a
-- listen, a like). A post's or a person's notifications go with them (cascades). The block rule
-- is applied when they are read, so a later block hides what came before it too.
CREATE TABLE notifications (
    id BIGINT PRIMARY KEY NOT NULL,
    recipient_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    sender_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('mention', 'comment', 'listening', 'other')),
    post_id BIGINT REFERENCES posts (id) ON DELETE CASCADE,
    excerpt TEXT,
    created_at TIMESTAMP NOT NULL,
    is_read BOOLEAN NOT NULL DEFAULT 0
);
-- A person's notifications, newest first.
CREATE INDEX notifications_recipient_idx ON notifications (recipient_id, id);
-- The unread badge counts only these.
CREATE INDEX notifications_unread_idx ON notifications (recipient_id, id) WHERE NOT is_read;
-- A sender's notifications (account deletion; "started listening" only once).
CREATE INDEX notifications_sender_idx ON notifications (sender_id, recipient_id);
-- A post's notifications (post deletion; "liked your post" only once).
CREATE INDEX notifications_post_idx ON notifications (post_id, sender_id);
