-- Tags (issue 31): the `#words` of a post's caption and a song's lyrics, normalised (no accents,
-- lower case; `posts::tags`), with the post's author for the block and suspension rule. A tag's
-- page walks `(tag, post_id)` newest first; an edit rewrites a post's tags by `post_id`.
CREATE TABLE post_tags (
    tag TEXT NOT NULL,
    post_id BIGINT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    PRIMARY KEY (tag, post_id)
);
CREATE INDEX post_tags_post_idx ON post_tags (post_id);
