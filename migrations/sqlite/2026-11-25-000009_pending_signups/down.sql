-- An unverified account gets back the password of its newest pending sign-up.
UPDATE users SET password_hash = (
    SELECT t.password_hash FROM email_verification_tokens t WHERE t.user_id = users.id
    ORDER BY t.created_at DESC LIMIT 1
) WHERE NOT email_verified;
CREATE TABLE email_verification_tokens_old (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
INSERT INTO email_verification_tokens_old SELECT token_hash, user_id, created_at, expires_at FROM email_verification_tokens;
DROP TABLE email_verification_tokens;
ALTER TABLE email_verification_tokens_old RENAME TO email_verification_tokens;
CREATE INDEX email_verification_tokens_user_id_idx ON email_verification_tokens (user_id);
CREATE INDEX email_verification_tokens_expires_at_idx ON email_verification_tokens (expires_at);
