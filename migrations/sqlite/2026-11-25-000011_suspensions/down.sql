-- Suspensions are lifted by going; the audit log forgets them and their reasons. SQLite cannot
-- change a CHECK: the table is made again as migration 000010 left it.
DROP TABLE suspensions;
CREATE TABLE admin_actions_old (
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
INSERT INTO admin_actions_old (id, admin_id, admin_login, action, report_id, post_id, subject_id, created_at, comment_id)
    SELECT id, admin_id, admin_login, action, report_id, post_id, subject_id, created_at, comment_id FROM admin_actions
    WHERE action NOT IN ('suspend', 'lift_suspension');
DROP TABLE admin_actions;
ALTER TABLE admin_actions_old RENAME TO admin_actions;
CREATE INDEX admin_actions_report_idx ON admin_actions (report_id, id);
CREATE INDEX admin_actions_admin_idx ON admin_actions (admin_id);
CREATE INDEX admin_actions_subject_idx ON admin_actions (subject_id);
