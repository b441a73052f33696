DROP TABLE password_reset_tokens;
ALTER TABLE sessions DROP COLUMN last_seen_at;
ALTER TABLE sessions DROP COLUMN user_agent;
