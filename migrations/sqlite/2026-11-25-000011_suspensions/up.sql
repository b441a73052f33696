-- An admin may suspend an account: while the row is there its sessions are gone, it cannot sign
-- in, and what it wrote is hidden from everyone (feeds, profiles, post pages, comments, search,
-- notifications). Lifting the suspension deletes the row and everything shows again: nothing
-- is deleted. The audit log keeps both, with the reason.
CREATE TABLE suspensions (
    id BIGINT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    admin_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    admin_login TEXT NOT NULL,
    reason TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
-- One suspension an account; every list that hides suspended people probes this index.
CREATE UNIQUE INDEX suspensions_user_idx ON suspensions (user_id);
-- Account deletion sets this to null.
CREATE INDEX suspensions_admin_idx ON suspensions (admin_id);

-- The audit log says suspend and lift_suspension, and keeps the reason an admin gave
-- (`detail`). SQLite cannot change a CHECK: the table is made again (nothing refers to it).
CREATE TABLE admin_actions_new (
    id BIGINT PRIMARY KEY NOT NULL,
    admin_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    admin_login TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN (
        'delete_post', 'delete_comment', 'ignore', 'grant_admin', 'revoke_admin', 'suspend', 'lift_suspension'
    )),
    report_id BIGINT REFERENCES reports (id) ON DELETE CASCADE,
    post_id BIGINT,
    subject_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL,
    comment_id BIGINT,
    detail TEXT
);
INSERT INTO admin_actions_new (id, admin_id, admin_login, action, report_id, post_id, subject_id, created_at, comment_id)
    SELECT id, admin_id, admin_login, action, report_id, post_id, subject_id, created_at, comment_id FROM admin_actions;
DROP TABLE admin_actions;
ALTER TABLE admin_actions_new RENAME TO admin_actions;
CREATE INDEX admin_actions_report_idx ON admin_actions (report_id, id);
CREATE INDEX admin_actions_admin_idx ON admin_actions (admin_id);
CREATE INDEX admin_actions_subject_idx ON admin_actions (subject_id);
