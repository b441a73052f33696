-- Who signs up first no longer keeps the account. Every sign-up of an unverified address keeps
-- its own pending name and password beside its own e-mailed link (only the link's SHA-256 is
-- stored); the link that is opened makes *its* name and password the account's, and the other
-- pending links of the address go. The account row of an unverified address holds no password
-- (nothing proved it belongs to the owner) and no admin role.
ALTER TABLE email_verification_tokens ADD COLUMN name TEXT;
ALTER TABLE email_verification_tokens ADD COLUMN password_hash TEXT;
-- A link sent before now stands for the password and name the account row held.
UPDATE email_verification_tokens t SET name = u.name, password_hash = u.password_hash
    FROM users u WHERE u.id = t.user_id AND NOT u.email_verified;
DELETE FROM email_verification_tokens WHERE name IS NULL OR password_hash IS NULL;
ALTER TABLE email_verification_tokens ALTER COLUMN name SET NOT NULL;
ALTER TABLE email_verification_tokens ALTER COLUMN password_hash SET NOT NULL;

UPDATE users SET password_hash = NULL WHERE NOT email_verified;
UPDATE users SET is_admin = FALSE WHERE NOT email_verified;
