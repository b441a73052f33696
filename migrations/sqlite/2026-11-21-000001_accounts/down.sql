DROP TABLE oidc_logins;
DROP TABLE throttle_buckets;
DROP TABLE email_verification_tokens;
DROP TABLE sessions;
DROP TABLE users;
