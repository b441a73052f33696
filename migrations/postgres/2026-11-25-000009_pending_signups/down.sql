-- An unverified account gets back the password of its newest pending sign-up.
UPDATE users SET password_hash = (
    SELECT t.password_hash FROM email_verification_tokens t WHERE t.user_id = users.id
    ORDER BY t.created_at DESC LIMIT 1
) WHERE NOT email_verified;
ALTER TABLE email_verification_tokens DROP COLUMN password_hash;
ALTER TABLE email_verification_tokens DROP COLUMN name;
