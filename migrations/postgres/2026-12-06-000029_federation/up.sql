-- Federation (issue 33; docs/federation.md): people of other servers, as SelfSound knows them.
--
-- A person of another server who follows, likes or replies is a row of `users` (no e-mail, no
-- password: nobody signs in as them) with a row here saying where they live. Their login is
-- their handle, `name@their.server`, which no local login can take (local logins have no `@`).
-- So listens, likes, reposts, comments, blocks and notifications need nothing new to include
-- them.
CREATE TABLE federation_actors (
    user_id BIGINT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The actor's ActivityPub id (its URL).
    ap_id TEXT NOT NULL,
    -- Their server's host, lowercased (domain blocks).
    domain TEXT NOT NULL,
    inbox TEXT NOT NULL,
    shared_inbox TEXT,
    public_key_pem TEXT NOT NULL,
    -- Their profile page on their server.
    url TEXT,
    fetched_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX federation_actors_ap_id_key ON federation_actors (ap_id);
CREATE INDEX federation_actors_domain_idx ON federation_actors (domain);

-- Each local person's key pair for HTTP signatures, made the first time another server needs
-- it. The private key never leaves the server (docs/security.md).
CREATE TABLE actor_keys (
    user_id BIGINT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    public_key_pem TEXT NOT NULL,
    private_key_pem TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

-- Activities received, by id: each is acted on once however often it arrives.
CREATE TABLE federation_received (
    activity_id TEXT PRIMARY KEY NOT NULL,
    received_at TIMESTAMP NOT NULL
);
CREATE INDEX federation_received_at_idx ON federation_received (received_at);

-- Replies from other servers, kept as comments here, by their object's id there: an Update or
-- Delete of the reply finds its comment, and a reply to a reply finds the post.
CREATE TABLE federation_objects (
    ap_id TEXT PRIMARY KEY NOT NULL,
    comment_id BIGINT NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE
);
CREATE INDEX federation_objects_comment_idx ON federation_objects (comment_id);

-- Servers an admin blocked: nothing more is taken from them (their inboxes' activities are
-- refused), and their people's accounts here went with the block. A block names a host and
-- every host under it.
CREATE TABLE blocked_domains (
    domain TEXT PRIMARY KEY NOT NULL,
    admin_login TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
