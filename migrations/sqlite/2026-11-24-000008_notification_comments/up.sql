-- A notification about a comment (a comment on one's post, a mention in it) names the comment,
-- so the notification goes when the comment does: deleting a comment leaves nothing quoting it.
ALTER TABLE notifications ADD COLUMN comment_id BIGINT REFERENCES comments (id) ON DELETE CASCADE;
-- The cascade finds a comment's notifications by this.
CREATE INDEX notifications_comment_idx ON notifications (comment_id);
