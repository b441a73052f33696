-- Work a migration leaves to the application, because SQL alone cannot do it the way the code
-- does (issue 31: the tags of posts written before `post_tags` existed, normalised by Unicode's
-- decomposition in `posts::tags`). One row per piece of work, with how far it got: it walks the
-- posts in id order in small batches at start-up (`posts::tags::backfill`) and its row goes when
-- it is done, so a process that dies half-way resumes where it left off.
CREATE TABLE backfills (
    name TEXT PRIMARY KEY NOT NULL,
    after_id BIGINT NOT NULL
);
INSERT INTO backfills (name, after_id) VALUES ('post_tags', 0);
