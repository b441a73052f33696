-- Web Push (issue 36, `notifications::push`): each device a person turned notifications on for,
-- by the push service's endpoint its browser gave (unique: one browser profile belongs to one
-- account at a time), the keys its payloads are encrypted to (RFC 8291: the P-256 public key and
-- the 16-byte auth secret, base64url), which kinds it is told of, and the session that turned
-- it on: signing out, or any end of that session, removes it.
CREATE TABLE push_devices (
    id BIGINT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_id BIGINT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    endpoint TEXT NOT NULL,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    name TEXT NOT NULL,
    mentions BOOLEAN NOT NULL,
    comments BOOLEAN NOT NULL,
    listens BOOLEAN NOT NULL,
    likes BOOLEAN NOT NULL,
    reposts BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL,
    last_sent_at TIMESTAMP
);
CREATE UNIQUE INDEX push_devices_endpoint_key ON push_devices (endpoint);
CREATE INDEX push_devices_user_idx ON push_devices (user_id, id);
CREATE INDEX push_devices_session_idx ON push_devices (session_id);
-- Keys the server makes once and every process shares, sealed with the sealing key (the VAPID
-- key that signs Web Push requests: its public half is in every device's subscription, so it
-- must outlive processes and restores, as the devices do).
CREATE TABLE server_secrets (
    name TEXT PRIMARY KEY NOT NULL,
    sealed TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
