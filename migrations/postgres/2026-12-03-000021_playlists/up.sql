-- Playlists (issue 31): a person's named lists of tracks and scores, their own or anyone's
-- they may see, public or private, at most 500 items each (`posts::playlists`).
CREATE TABLE playlists (
    id BIGINT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    description TEXT,
    is_public BOOLEAN NOT NULL,
    items_count BIGINT NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
-- A person's playlists, newest first.
CREATE INDEX playlists_user_idx ON playlists (user_id, id);
-- An item names a track (or score) of a post by its place in the post. No reference to the
-- post: an item whose post is gone stays, shown to the owner as no longer available.
CREATE TABLE playlist_items (
    id BIGINT PRIMARY KEY NOT NULL,
    playlist_id BIGINT NOT NULL REFERENCES playlists (id) ON DELETE CASCADE,
    position BIGINT NOT NULL,
    post_id BIGINT NOT NULL,
    track BIGINT NOT NULL,
    added_at TIMESTAMP NOT NULL
);
-- A playlist's items in order; a track at most once in a playlist.
CREATE INDEX playlist_items_order_idx ON playlist_items (playlist_id, position);
CREATE UNIQUE INDEX playlist_items_track_idx ON playlist_items (playlist_id, post_id, track);
