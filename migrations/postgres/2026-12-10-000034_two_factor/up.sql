-- Two-factor sign-in (issue 36). An account's TOTP secret (RFC 6238), sealed with the server's
-- sealing key (ChaCha20-Poly1305, the account's id bound in: a sealed secret copied to another
-- row does not open); `enabled_at` is null while a set-up waits for its first code. `last_step`
-- is the newest 30-second step a code was accepted for: a code works once.
CREATE TABLE two_factor (
    user_id BIGINT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    secret_sealed TEXT NOT NULL,
    enabled_at TIMESTAMP,
    last_step BIGINT NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL
);
-- The ten recovery codes shown once when two-factor sign-in is turned on, by their SHA-256
-- (each holds 60 random bits); a code used is deleted.
CREATE TABLE recovery_codes (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    PRIMARY KEY (user_id, code_hash)
);
