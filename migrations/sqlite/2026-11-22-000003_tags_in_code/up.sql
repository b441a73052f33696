-- The three role tags live in code (crates/profiles/src/tags.rs), their one source: clients
-- already know the ids, and a profile's tag_id is checked against that list. The table that
-- repeated them was never read.
DROP TABLE tags;
