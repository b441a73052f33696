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

-- The audit log says suspend and lift_suspension, and keeps the reason an admin gave.
ALTER TABLE admin_actions ADD COLUMN detail TEXT;
ALTER TABLE admin_actions DROP CONSTRAINT admin_actions_action_check;
ALTER TABLE admin_actions ADD CONSTRAINT admin_actions_action_check CHECK (action IN (
    'delete_post', 'delete_comment', 'ignore', 'grant_admin', 'revoke_admin', 'suspend', 'lift_suspension'
));
