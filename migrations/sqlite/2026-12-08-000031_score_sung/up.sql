-- The words a score sets (issue 34): read from its lyrics when it is posted, at most 4,000
-- characters (`media_validation::MAX_SUNG_CHARS`), and searched with the post's other words.
ALTER TABLE post_scores ADD COLUMN sung TEXT NOT NULL DEFAULT '';
