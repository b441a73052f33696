DROP TABLE plays_daily;
DROP INDEX likes_created_idx;
