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

-- The audit log names the comment a moderator deleted. SQLite cannot change a CHECK: the table
-- is made again with the new action and column (nothing refers to admin_actions).
CREATE TABLE admin_actions_new (
    id BIGINT PRIMARY KEY NOT NULL,
    admin_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    admin_login TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('delete_post', 'delete_comment', 'ignore', 'grant_admin', 'revoke_admin')),
    report_id BIGINT REFERENCES reports (id) ON DELETE CASCADE,
    post_id BIGINT,
    subject_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL,
    comment_id BIGINT
);
INSERT INTO admin_actions_new (id, admin_id, admin_login, action, report_id, post_id, subject_id, created_at)
    SELECT id, admin_id, admin_login, action, report_id, post_id, subject_id, created_at FROM admin_actions;
DROP TABLE admin_actions;
ALTER TABLE admin_actions_new RENAME TO admin_actions;
CREATE INDEX admin_actions_report_idx ON admin_actions (report_id, id);
CREATE INDEX admin_actions_admin_idx ON admin_actions (admin_id);
CREATE INDEX admin_actions_subject_idx ON admin_actions (subject_id);
