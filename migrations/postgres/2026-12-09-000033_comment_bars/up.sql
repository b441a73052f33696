-- A comment on bars of a sheet-music post's score (issue 35): from `bar` to `bar_end`, counted
-- from 1 as the score numbers its written bars, on the score `track` names (0 for the first).
-- Both empty for any other comment; a comment is on a moment (`at_ms`) or on bars, not both.
ALTER TABLE comments ADD COLUMN bar BIGINT CHECK (bar IS NULL OR bar >= 1);
ALTER TABLE comments ADD COLUMN bar_end BIGINT CHECK (bar_end IS NULL OR bar_end >= 1);
-- The marks along a score's bars (GET /posts/{id}/moments), newest first.
CREATE INDEX comments_bars_idx ON comments (post_id, id) WHERE bar IS NOT NULL;
