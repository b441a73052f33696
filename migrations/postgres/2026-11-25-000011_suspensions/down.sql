DROP TABLE suspensions;
DELETE FROM admin_actions WHERE action IN ('suspend', 'lift_suspension');
ALTER TABLE admin_actions DROP CONSTRAINT admin_actions_action_check;
ALTER TABLE admin_actions ADD CONSTRAINT admin_actions_action_check
    CHECK (action IN ('delete_post', 'delete_comment', 'ignore', 'grant_admin', 'revoke_admin'));
ALTER TABLE admin_actions DROP COLUMN detail;
