-- Posts are vacuumed after 2% of them changed, not PostgreSQL's default 20%: every like,
-- comment and repost updates its post's counter, which clears the page's all-visible bit, and
-- the walks of `posts (user_id, id)` that build feeds then read a table row per post instead of
-- the index alone (3.7 times the walks' work, 1.5 times the database's for a community's
-- reads; issue 30).
ALTER TABLE posts SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 1000);
