DROP TABLE play_marks;
ALTER TABLE post_scores DROP COLUMN plays_count;
ALTER TABLE post_audio DROP COLUMN plays_count;
ALTER TABLE posts DROP COLUMN plays_count;
