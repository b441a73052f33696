-- An audio post's genre (issue 31), one of the list in `posts::genre`; none for other kinds.
ALTER TABLE posts ADD COLUMN genre TEXT;
