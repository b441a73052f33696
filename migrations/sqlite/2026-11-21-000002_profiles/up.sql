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

-- Search: a trigram full-text index over name and login for substrings of 3+ characters
-- (case-insensitive), kept in step with users by triggers; the FTS rowid is the user id.
-- Shorter queries are prefix searches on the login index and on lower(name).
CREATE VIRTUAL TABLE users_search USING fts5 (name, login, tokenize = 'trigram');
INSERT INTO users_search (rowid, name, login) SELECT id, name, login FROM users;
CREATE TRIGGER users_search_insert AFTER INSERT ON users BEGIN
    INSERT INTO users_search (rowid, name, login) VALUES (new.id, new.name, new.login);
END;
CREATE TRIGGER users_search_update AFTER UPDATE OF name, login ON users BEGIN
    UPDATE users_search SET name = new.name, login = new.login WHERE rowid = new.id;
END;
CREATE TRIGGER users_search_delete AFTER DELETE ON users BEGIN
    DELETE FROM users_search WHERE rowid = old.id;
END;
CREATE INDEX users_name_lower_idx ON users (lower(name));
