DELETE FROM jobs WHERE kind = 'scores.old';
ALTER TABLE post_scores DROP COLUMN sung;
