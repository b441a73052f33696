-- A comment on a moment of an audio post's track (issue 31): how far into the track, in
-- milliseconds, and which of the post's tracks (0 for the first). Both empty for a comment on
-- the whole post; both set for one on a moment.
ALTER TABLE comments ADD COLUMN at_ms BIGINT CHECK (at_ms IS NULL OR at_ms >= 0);
ALTER TABLE comments ADD COLUMN track BIGINT CHECK (track IS NULL OR track >= 0);
-- The marks along a post's waveform (GET /posts/{id}/moments): a post's timed comments, newest
-- first, without walking its other comments.
CREATE INDEX comments_moments_idx ON comments (post_id, id) WHERE at_ms IS NOT NULL;
