-- Accounts, sessions, e-mail verification, sign-in throttling and OIDC hand-offs.
CREATE TABLE users (
    id BIGINT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    login TEXT NOT NULL,
    email TEXT,
    password_hash TEXT,
    description TEXT,
    avatar_url TEXT,
    tag_id TEXT,
    is_admin BOOLEAN NOT NULL DEFAULT FALSE,
    email_verified BOOLEAN NOT NULL DEFAULT FALSE,
    google_sub TEXT,
    created_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX users_login_key ON users (login);
CREATE UNIQUE INDEX users_email_key ON users (email);
CREATE UNIQUE INDEX users_google_sub_key ON users (google_sub);

CREATE TABLE sessions (
    id BIGINT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

CREATE TABLE email_verification_tokens (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX email_verification_tokens_user_id_idx ON email_verification_tokens (user_id);
CREATE INDEX email_verification_tokens_expires_at_idx ON email_verification_tokens (expires_at);

CREATE TABLE throttle_buckets (
    key TEXT PRIMARY KEY NOT NULL,
    window_start TIMESTAMP NOT NULL,
    hits BIGINT NOT NULL
);
CREATE INDEX throttle_buckets_window_start_idx ON throttle_buckets (window_start);

CREATE TABLE oidc_logins (
    state TEXT PRIMARY KEY NOT NULL,
    pkce_verifier TEXT NOT NULL,
    nonce TEXT NOT NULL,
    return_to TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX oidc_logins_created_at_idx ON oidc_logins (created_at);
