ALTER TABLE post_scores DROP COLUMN sung;
