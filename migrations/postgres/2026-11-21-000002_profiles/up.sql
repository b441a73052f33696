-- Profiles: role tags, counters kept on the user row, listening, blocks, user search.
CREATE TABLE tags (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    color TEXT NOT NULL
);
INSERT INTO tags (id, name, color) VALUES
    ('146fb41a-2f3e-48c7-bef9-01de0279dfd7', 'Listener', '#FFFFFF'),
    ('b361c6f9-9425-4548-8c07-cb408140c304', 'Musician', '#6D01D0'),
    ('5ee121a6-b467-4ead-b3f7-00e1ce6097d5', 'Learner', '#000C9C');

ALTER TABLE users ADD COLUMN posts_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN listeners_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN listened_to_count BIGINT NOT NULL DEFAULT 0;

CREATE TABLE listens (
    listener_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    listened_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (listener_id, listened_id)
);
CREATE INDEX listens_listened_id_idx ON listens (listened_id, listener_id);

CREATE TABLE blocks (
    blocker_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    blocked_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (blocker_id, blocked_id)
);
CREATE INDEX blocks_blocked_id_idx ON blocks (blocked_id, blocker_id);

-- Search: trigram indexes answer substring matches of 3+ characters (case-insensitive through
-- lower()); pattern-ops b-trees answer the prefix matches of shorter queries.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX users_name_trgm_idx ON users USING gin (lower(name) gin_trgm_ops);
CREATE INDEX users_login_trgm_idx ON users USING gin (login gin_trgm_ops);
CREATE INDEX users_name_prefix_idx ON users (lower(name) text_pattern_ops);
CREATE INDEX users_login_prefix_idx ON users (login text_pattern_ops);
