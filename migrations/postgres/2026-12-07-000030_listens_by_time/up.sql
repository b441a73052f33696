-- A person's listeners and the people they listen to, newest first (GET /profiles/{id}/listeners
-- and /listened-to): each list walks one of these from its person, in the order it shows,
-- resuming after the last (time, person) of the page before.
CREATE INDEX listens_listened_at_idx ON listens (listened_id, created_at, listener_id);
CREATE INDEX listens_listener_at_idx ON listens (listener_id, created_at, listened_id);
