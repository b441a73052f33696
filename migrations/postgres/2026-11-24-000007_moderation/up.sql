-- Reports of posts, and the audit log of what admins did. A report outlives the post it names
-- (the post may be deleted by the decision itself), so it keeps the post's id, type and author
-- as they were, without a foreign key to the post.
CREATE TABLE reports (
    id BIGINT PRIMARY KEY NOT NULL,
    post_id BIGINT NOT NULL,
    post_kind TEXT NOT NULL,
    post_author_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    reporter_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    reason TEXT NOT NULL CHECK (reason IN ('Spam', 'Harassment', 'Hate speech', 'Other')),
    description TEXT,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'deleted', 'ignored')),
    created_at TIMESTAMP NOT NULL,
    resolved_at TIMESTAMP
);
-- The complaints list: pending first, newest first within each status.
CREATE INDEX reports_status_idx ON reports (status, id);
-- One open report per reporter and post; also finds a post's open reports.
CREATE UNIQUE INDEX reports_open_once_idx ON reports (post_id, reporter_id) WHERE status = 'pending';
-- Account deletion sets these to null.
CREATE INDEX reports_reporter_idx ON reports (reporter_id);
CREATE INDEX reports_post_author_idx ON reports (post_author_id);

-- Who did what, when, to which report and post. The admin's login is kept as it was, so the
-- log still says who after their account is gone.
CREATE TABLE admin_actions (
    id BIGINT PRIMARY KEY NOT NULL,
    admin_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    admin_login TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('delete_post', 'ignore', 'grant_admin', 'revoke_admin')),
    report_id BIGINT REFERENCES reports (id) ON DELETE CASCADE,
    post_id BIGINT,
    subject_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX admin_actions_report_idx ON admin_actions (report_id, id);
CREATE INDEX admin_actions_admin_idx ON admin_actions (admin_id);
CREATE INDEX admin_actions_subject_idx ON admin_actions (subject_id);
