-- Discover (issue 31): what is trending is read from the week's likes, reposts, comments and
-- plays by a bounded job (`posts::discover`). Likes are found by when they were given; plays
-- are kept per post and day (a counted play adds one), the days past the week swept hourly.
CREATE INDEX likes_created_idx ON likes (created_at);
CREATE TABLE plays_daily (
    post_id BIGINT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    day BIGINT NOT NULL,
    plays BIGINT NOT NULL,
    PRIMARY KEY (post_id, day)
);
CREATE INDEX plays_daily_day_idx ON plays_daily (day);
