-- Play counts (issue 31): a play is counted once a track (or a score's playback) has sounded
-- for 30 s, or to its end if shorter, at most once per listener, track and hour. Each track
-- and score keeps its own count, and the post their total (what its card shows beside the
-- likes, read with the rest of the post's row).
ALTER TABLE posts ADD COLUMN plays_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE post_audio ADD COLUMN plays_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE post_scores ADD COLUMN plays_count BIGINT NOT NULL DEFAULT 0;
-- Who was last counted for which track, and when: a listener is `u:<account id>` signed in,
-- `c:<client address>` signed out. A play within the hour after the last counted one is not
-- counted; rows older than that are swept every hour.
CREATE TABLE play_marks (
    post_id BIGINT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    position BIGINT NOT NULL,
    listener TEXT NOT NULL,
    heard_at TIMESTAMP NOT NULL,
    PRIMARY KEY (post_id, position, listener)
);
