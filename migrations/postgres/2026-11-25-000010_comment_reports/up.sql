-- Comments can be reported and deleted by moderators. A report of a comment keeps the post it
-- is on (post_id, post_kind, post_author_id as for a post report), and the comment's id and
-- author as they were: like a post report, it outlives what it names, so no foreign key to the
-- comment. The comment's text is not copied: a deleted comment is gone for moderators too.
ALTER TABLE reports ADD COLUMN comment_id BIGINT;
ALTER TABLE reports ADD COLUMN comment_author_id BIGINT REFERENCES users (id) ON DELETE SET NULL;
-- One open report per reporter and item: a post (no comment), or a comment.
DROP INDEX reports_open_once_idx;
CREATE UNIQUE INDEX reports_open_once_idx ON reports (post_id, reporter_id)
    WHERE status = 'pending' AND comment_id IS NULL;
CREATE UNIQUE INDEX reports_comment_open_once_idx ON reports (comment_id, reporter_id)
    WHERE status = 'pending' AND comment_id IS NOT NULL;
-- Pending complaints by the item they name: the grouped list, and every open report on a post
-- (its comments' included) when the post is deleted.
CREATE INDEX reports_pending_item_idx ON reports (post_id, comment_id) WHERE status = 'pending';
-- Account deletion sets this to null.
CREATE INDEX reports_comment_author_idx ON reports (comment_author_id);

-- The audit log names the comment a moderator deleted.
ALTER TABLE admin_actions ADD COLUMN comment_id BIGINT;
ALTER TABLE admin_actions DROP CONSTRAINT admin_actions_action_check;
ALTER TABLE admin_actions ADD CONSTRAINT admin_actions_action_check
    CHECK (action IN ('delete_post', 'delete_comment', 'ignore', 'grant_admin', 'revoke_admin'));
