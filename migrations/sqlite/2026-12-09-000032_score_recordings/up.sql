-- A score that follows a recording (issue 35): a sheet-music post's score linked by its author
-- to a track of an audio post, with the sync map tapped along it (`posts::syncs`): for bars of
-- the performance (repeats played out, from 0), the millisecond of the track each starts at,
-- as a JSON array of [bar, ms] pairs, both increasing. The link goes with either post.
CREATE TABLE score_recordings (
    post_id BIGINT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    score BIGINT NOT NULL,
    recording_id BIGINT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    track BIGINT NOT NULL,
    points TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (post_id, score)
);
-- The scores following a recording (its page's "Score" button), newest link first.
CREATE INDEX score_recordings_recording_idx ON score_recordings (recording_id, updated_at);
