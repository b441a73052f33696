-- PostgreSQL's posts are vacuumed sooner (its migration of the same name); SQLite keeps no
-- visibility map and has nothing to change.
SELECT 1;
