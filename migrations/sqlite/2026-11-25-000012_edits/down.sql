ALTER TABLE comments DROP COLUMN edited_at;
ALTER TABLE posts DROP COLUMN edited_at;
