-- The words a score sets (issue 34): read from its lyrics when it is posted, at most 4,000
-- characters (`media_validation::MAX_SUNG_CHARS`), and searched with the post's other words.
ALTER TABLE post_scores ADD COLUMN sung TEXT NOT NULL DEFAULT '';

-- Scores posted before now get their words read from their files by a background job that
-- walks them in batches (posts::kinds::scores, "scores.old").
INSERT INTO jobs (id, kind, subject, payload, owner_id, lane_seq, state, attempts, run_after, created_at)
SELECT 2, 'scores.old', 'after:0', '{"after":0}', NULL, 0, 'queued', 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP
WHERE EXISTS (SELECT 1 FROM post_scores);
