DROP INDEX notifications_comment_idx;
ALTER TABLE notifications DROP COLUMN comment_id;
