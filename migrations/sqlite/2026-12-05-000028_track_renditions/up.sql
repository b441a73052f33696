-- Each track's renditions (issue 32): the original encoded once into Opus (96 kbit/s, WebM) and
-- AAC (160 kbit/s, MP4) by a background job, stored beside it. NULL until the job has made them;
-- players stream the original meanwhile.
ALTER TABLE post_audio ADD COLUMN opus_key TEXT;
ALTER TABLE post_audio ADD COLUMN aac_key TEXT;
-- Counts the changes background work made to a post's payload (renditions, a loudness
-- measured late): with `edited_at`, the version under which memory keeps a payload
-- (posts::memory::payloads), so a page never shows one from before the work.
ALTER TABLE posts ADD COLUMN payload_rev BIGINT NOT NULL DEFAULT 0;

-- Tracks uploaded before now get their renditions (and, where it is missing, their loudness)
-- from the same job as new ones: this job walks them in batches and queues one job each.
INSERT INTO jobs (id, kind, subject, payload, owner_id, lane_seq, state, attempts, run_after, created_at)
SELECT 1, 'tracks.old', 'after:0', '{"after":0}', NULL, 0, 'queued', 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP
WHERE EXISTS (SELECT 1 FROM post_audio);
