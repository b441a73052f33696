DELETE FROM notifications WHERE kind = 'repost';
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('mention', 'comment', 'listening', 'other'));
ALTER TABLE posts DROP COLUMN reposts_count;
DROP TABLE reposts;
