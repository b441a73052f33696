DROP INDEX listens_listener_at_idx;
DROP INDEX listens_listened_at_idx;
