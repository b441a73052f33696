DROP INDEX comments_bars_idx;
ALTER TABLE comments DROP COLUMN bar_end;
ALTER TABLE comments DROP COLUMN bar;
