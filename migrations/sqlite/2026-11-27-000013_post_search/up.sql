-- Finding music (issue 20): every post's words in a full-text index, its rowid the post id.
-- Two columns, ranked apart: `names` (titles, artists, composers: what a post is called) and
-- `words` (lyrics and caption: what it says). Accents and case are folded by the tokenizer,
-- and prefixes of 2 to 6 characters have their own index, so a word typed halfway is found by
-- walking an index rather than by gathering every word that starts so.
-- Contentless: the text lives in the posts' own tables; the index keeps only what it needs to
-- match and rank (contentless_delete lets a post's entry be removed and written again).
-- Kept by the application in the transaction that writes, edits or deletes the post
-- (crates/posts/src/search.rs, which holds the same document as DOCUMENT_SQLITE).
CREATE VIRTUAL TABLE posts_search USING fts5 (
    names,
    words,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3 4 5 6'
);
INSERT INTO posts_search (rowid, names, words)
SELECT p.id,
    concat_ws(' ',
        (SELECT group_concat(a.title || ' ' || a.artist, ' ') FROM post_audio a WHERE a.post_id = p.id),
        (SELECT group_concat(s.title || ' ' || s.composer, ' ') FROM post_scores s WHERE s.post_id = p.id),
        (SELECT l.title || ' ' || l.artist FROM post_lyrics l WHERE l.post_id = p.id)),
    concat_ws(' ', p.caption,
        (SELECT group_concat(json_extract(j.value, '$.lyrics'), ' ')
         FROM post_lyrics l, json_each(l.parts) j WHERE l.post_id = p.id))
FROM posts p;
