-- Passkeys (issue 36, `auth::passkeys`): each WebAuthn credential a person added, by its
-- credential id (base64url, unique: one authenticator's key belongs to one account), with what
-- webauthn-rs keeps of it (`passkey`: the public key and its signature counter, JSON; nothing in
-- it signs anything), the name the person gave it and when it was last used.
CREATE TABLE passkeys (
    id BIGINT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    credential_id TEXT NOT NULL,
    passkey TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP
);
CREATE INDEX passkeys_user_idx ON passkeys (user_id, id);
CREATE UNIQUE INDEX passkeys_credential_id_key ON passkeys (credential_id);
-- A registration or sign-in begun and not yet finished: its challenge and what it expects
-- (webauthn-rs's state, JSON), for any process to finish once, within five minutes. A
-- registration names its account; a sign-in does not (the passkey says whose it is).
CREATE TABLE passkey_ceremonies (
    id BIGINT PRIMARY KEY NOT NULL,
    user_id BIGINT REFERENCES users (id) ON DELETE CASCADE,
    state TEXT NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX passkey_ceremonies_expiry_idx ON passkey_ceremonies (expires_at);
