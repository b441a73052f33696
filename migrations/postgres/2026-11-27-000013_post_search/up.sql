-- Finding music (issue 20): every post's words as a tsvector, in a GIN index. Names (titles,
-- artists, composers) weigh A, what the post says (lyrics, caption) B. The 'simple'
-- configuration lowercases without stemming (a post may be in any language), and unaccent
-- folds accents on both sides, so "Dvorak" finds "Dvořák". Prefix queries (`word:*`) find a
-- word typed halfway.
-- Kept by the application in the transaction that writes or edits the post
-- (crates/posts/src/search.rs, which holds the same document as DOCUMENT_POSTGRES); a deleted
-- post's entry goes with it by cascade. `rowid` is named as SQLite's FTS5 names it, so one
-- Diesel table serves both backends.
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE TABLE posts_search (
    rowid BIGINT PRIMARY KEY NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    document TSVECTOR NOT NULL
);
INSERT INTO posts_search (rowid, document)
SELECT d.id,
    setweight(to_tsvector('simple', unaccent(coalesce(d.names, ''))), 'A')
    || setweight(to_tsvector('simple', unaccent(coalesce(d.words, ''))), 'B')
FROM (
    SELECT p.id,
        concat_ws(' ',
            (SELECT string_agg(a.title || ' ' || a.artist, ' ') FROM post_audio a WHERE a.post_id = p.id),
            (SELECT string_agg(s.title || ' ' || s.composer, ' ') FROM post_scores s WHERE s.post_id = p.id),
            (SELECT l.title || ' ' || l.artist FROM post_lyrics l WHERE l.post_id = p.id)) AS names,
        concat_ws(' ', p.caption,
            (SELECT string_agg(j ->> 'lyrics', ' ')
             FROM post_lyrics l, jsonb_array_elements(l.parts::jsonb) j WHERE l.post_id = p.id)) AS words
    FROM posts p
) d;
CREATE INDEX posts_search_document_idx ON posts_search USING gin (document);
