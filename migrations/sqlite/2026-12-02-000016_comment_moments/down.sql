DROP INDEX comments_moments_idx;
ALTER TABLE comments DROP COLUMN track;
ALTER TABLE comments DROP COLUMN at_ms;
