DELETE FROM jobs WHERE kind = 'scores.old';
DROP FUNCTION search_query_any(text, text);
ALTER TABLE post_scores DROP COLUMN sung;
