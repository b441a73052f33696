-- "Download my data" (issue 36): each archive a person asked for. A job builds the zip into
-- storage (`file_key`, `size_bytes`) and e-mails a link whose secret is kept only as its
-- SHA-256 (`token_hash`); `mailed_at` says the link went out (a retry after a failed e-mail
-- makes a new one). The row and its file go when `expires_at` passes (7 days), by a job queued
-- for then; `requested_at` holds the rule of one archive a day.
CREATE TABLE data_exports (
    id BIGINT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    state TEXT NOT NULL,
    token_hash TEXT,
    file_key TEXT,
    size_bytes BIGINT,
    requested_at TIMESTAMP NOT NULL,
    ready_at TIMESTAMP,
    expires_at TIMESTAMP,
    mailed_at TIMESTAMP
);
CREATE INDEX data_exports_user_idx ON data_exports (user_id, requested_at);
CREATE UNIQUE INDEX data_exports_token_hash_key ON data_exports (token_hash);
-- An archive reads a person's comments by post, then comment, a page at a time; the index it
-- replaces was its prefix (an account's deletion counts its comments per post through it).
DROP INDEX comments_user_id_idx;
CREATE INDEX comments_user_post_idx ON comments (user_id, post_id, id);
