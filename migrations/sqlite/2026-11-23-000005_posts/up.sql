-- Posts of four kinds, each kind's payload in its own table, likes and comments with @mentions.
-- Counters live on the post row and move in the same transaction as the like or comment, so a
-- feed page never counts rows. Every query a page runs has an index here (docs/posts.md).
CREATE TABLE posts (
    id BIGINT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('media', 'audio', 'musicxml', 'lyrics')),
    caption TEXT,
    created_at TIMESTAMP NOT NULL,
    likes_count BIGINT NOT NULL DEFAULT 0,
    comments_count BIGINT NOT NULL DEFAULT 0
);
-- A person's posts, newest first (profiles; the Listened to feed).
CREATE INDEX posts_user_id_idx ON posts (user_id, id);

CREATE TABLE post_media (
    post_id BIGINT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    position BIGINT NOT NULL,
    id BIGINT NOT NULL,
    file_key TEXT NOT NULL,
    file_type TEXT NOT NULL,
    width BIGINT,
    height BIGINT,
    display_key TEXT,
    poster_key TEXT,
    PRIMARY KEY (post_id, position)
);

CREATE TABLE post_audio (
    post_id BIGINT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    position BIGINT NOT NULL,
    title TEXT NOT NULL,
    artist TEXT NOT NULL,
    file_key TEXT NOT NULL,
    cover_key TEXT,
    duration_ms BIGINT NOT NULL,
    peaks TEXT,
    PRIMARY KEY (post_id, position)
);

CREATE TABLE post_scores (
    post_id BIGINT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    position BIGINT NOT NULL,
    title TEXT NOT NULL,
    composer TEXT NOT NULL,
    file_key TEXT NOT NULL,
    PRIMARY KEY (post_id, position)
);

CREATE TABLE post_lyrics (
    post_id BIGINT PRIMARY KEY NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    artist TEXT NOT NULL,
    parts TEXT NOT NULL
);

CREATE TABLE likes (
    post_id BIGINT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (post_id, user_id)
);
-- What someone liked (account deletion gives the counts back).
CREATE INDEX likes_user_id_idx ON likes (user_id, post_id);

CREATE TABLE comments (
    id BIGINT PRIMARY KEY NOT NULL,
    post_id BIGINT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    content TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
-- A post's comments, newest first.
CREATE INDEX comments_post_id_idx ON comments (post_id, id);
-- What someone wrote (account deletion gives the counts back).
CREATE INDEX comments_user_id_idx ON comments (user_id, post_id);

CREATE TABLE comment_mentions (
    comment_id BIGINT NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (comment_id, user_id)
);
CREATE INDEX comment_mentions_user_id_idx ON comment_mentions (user_id);
