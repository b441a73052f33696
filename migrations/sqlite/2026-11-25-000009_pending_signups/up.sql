-- Who signs up first no longer keeps the account. Every sign-up of an unverified address keeps
-- its own pending name and password beside its own e-mailed link (only the link's SHA-256 is
-- stored); the link that is opened makes *its* name and password the account's, and the other
-- pending links of the address go. The account row of an unverified address holds no password
-- (nothing proved it belongs to the owner) and no admin role.
CREATE TABLE email_verification_tokens_new (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
-- A link sent before now stands for the password and name the account row held.
INSERT INTO email_verification_tokens_new (token_hash, user_id, name, password_hash, created_at, expires_at)
    SELECT t.token_hash, t.user_id, u.name, u.password_hash, t.created_at, t.expires_at
    FROM email_verification_tokens t JOIN users u ON u.id = t.user_id
    WHERE NOT u.email_verified AND u.password_hash IS NOT NULL;
DROP TABLE email_verification_tokens;
ALTER TABLE email_verification_tokens_new RENAME TO email_verification_tokens;
CREATE INDEX email_verification_tokens_user_id_idx ON email_verification_tokens (user_id);
CREATE INDEX email_verification_tokens_expires_at_idx ON email_verification_tokens (expires_at);

UPDATE users SET password_hash = NULL WHERE NOT email_verified;
UPDATE users SET is_admin = 0 WHERE NOT email_verified;
