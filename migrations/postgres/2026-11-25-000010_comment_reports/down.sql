DELETE FROM admin_actions WHERE action = 'delete_comment';
ALTER TABLE admin_actions DROP CONSTRAINT admin_actions_action_check;
ALTER TABLE admin_actions ADD CONSTRAINT admin_actions_action_check
    CHECK (action IN ('delete_post', 'ignore', 'grant_admin', 'revoke_admin'));
ALTER TABLE admin_actions DROP COLUMN comment_id;

DELETE FROM reports WHERE comment_id IS NOT NULL;
DROP INDEX reports_comment_author_idx;
DROP INDEX reports_pending_item_idx;
DROP INDEX reports_comment_open_once_idx;
DROP INDEX reports_open_once_idx;
CREATE UNIQUE INDEX reports_open_once_idx ON reports (post_id, reporter_id) WHERE status = 'pending';
ALTER TABLE reports DROP COLUMN comment_author_id;
ALTER TABLE reports DROP COLUMN comment_id;
