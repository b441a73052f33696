-- Work that outlives a request (issue 32; docs/architecture.md, "Background jobs"): encoding a
-- track's renditions, measuring old tracks' loudness, later deliveries to other servers.
--
-- A job is queued, running (leased by one process until `lease_until`, which it renews while it
-- works) or failed (given up on; `selfsound jobs retry` queues it again). A finished job is
-- deleted. A running job whose lease has run out (its process died) is claimed again by any
-- process. `(kind, subject)` is unique: asking for the same work twice queues it once.
--
-- Fair order: a job's `lane_seq` is its place in its owner's own queue when it was queued (0
-- for the first job an owner has waiting), and jobs are claimed by `lane_seq`, then by age: the
-- first upload of everyone waiting goes before anyone's second.
CREATE TABLE jobs (
    id BIGINT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    payload TEXT NOT NULL,
    owner_id BIGINT,
    lane_seq BIGINT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'failed')),
    attempts BIGINT NOT NULL DEFAULT 0,
    run_after TIMESTAMP NOT NULL,
    leased_by TEXT,
    lease_until TIMESTAMP,
    last_error TEXT,
    created_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX jobs_subject_idx ON jobs (kind, subject);
-- The claim's order, and each owner's lane.
CREATE INDEX jobs_order_idx ON jobs (state, lane_seq, id);
CREATE INDEX jobs_owner_idx ON jobs (owner_id, lane_seq);
