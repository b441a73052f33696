-- An author may change the words of a post (caption, titles, artists, composers, lyrics) and of
-- their own comments; when they last did is shown as 'edited'. A post's edited_at also tells
-- every process that the payload it remembers is out of date (crates/posts/src/cache.rs).
ALTER TABLE posts ADD COLUMN edited_at TIMESTAMP;
ALTER TABLE comments ADD COLUMN edited_at TIMESTAMP;
