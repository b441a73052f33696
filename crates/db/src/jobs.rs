//! Background jobs: work that outlives a request (a track's renditions, old tracks' loudness,
//! later deliveries to other servers), kept in the `jobs` table so that it survives a crash and
//! is shared by every process (docs/architecture.md, "Background jobs").
//!
//! - **Queued with the write that needs it**: [`enqueue`] runs inside the use case's transaction
//!   (a post and the jobs for its tracks commit together or not at all). `(kind, subject)` is
//!   unique: asking for the same work twice queues it once.
//! - **Claimed by one process**: [`claim`] takes the first claimable job in fair order and
//!   leases it to the claiming process until `lease_until`; on PostgreSQL with
//!   `FOR UPDATE SKIP LOCKED` (processes claiming at once take different jobs without waiting
//!   on each other), on SQLite through the process's one writer (a claim is a write).
//! - **Taken over when its process dies**: a running job whose lease has run out is claimable
//!   again. A process renews its leases while it works ([`renew`]), so only a dead (or stuck)
//!   one loses them. Work is therefore done at least once, sometimes twice: every kind of job is
//!   idempotent by design (its effect is written only where it is not yet there).
//! - **Retried with backoff**: a failure queues the job again after 30 s × 2^(attempts − 1)
//!   (30 s, 1 min, 2 min … ) up to [`MOST_ATTEMPTS`]; then, or at once for a failure that
//!   another try cannot mend, it is kept as failed for `selfsound jobs` to show and retry.
//! - **Fair**: each owner (the person whose upload it serves) has a lane; a job's `lane_seq` is
//!   its place in its owner's queue when queued, and jobs are claimed by place, then by age —
//!   everyone's first job before anyone's second, so one person's hundred uploads cannot hold
//!   back another's one.

use std::time::Duration;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Text, Timestamp};
use values::{JobId, JobKind, UserId};

use crate::schema::jobs;
use crate::{DbConnection, Kept};

/// How many times a job is tried before it is kept as failed.
pub const MOST_ATTEMPTS: i64 = 8;
/// The wait before the second try; each later one waits twice as long as the one before.
pub const FIRST_BACKOFF: Duration = Duration::from_secs(30);
/// The longest an error kept with a job is (the rest is in the log).
const ERROR_KEPT: usize = 1000;

/// Work to queue.
#[derive(Debug, Clone)]
pub struct NewJob {
    pub kind: JobKind,
    /// What it works on, unique with `kind` (e.g. `"<post>/<track>"`).
    pub subject: String,
    /// JSON the job's kind reads.
    pub payload: String,
    /// Whose work it is, for the fair order; none for the server's own.
    pub owner: Option<UserId>,
}

/// A job a process has claimed.
#[derive(Debug, Clone, QueryableByName)]
pub struct Claimed {
    #[diesel(sql_type = BigInt)]
    pub id: JobId,
    #[diesel(sql_type = Text)]
    pub kind: JobKind,
    #[diesel(sql_type = Text)]
    pub subject: String,
    #[diesel(sql_type = Text)]
    pub payload: String,
    #[diesel(sql_type = Nullable<BigInt>)]
    #[diesel(column_name = owner_id)]
    pub owner: Option<UserId>,
    /// Tries so far, this one included.
    #[diesel(sql_type = BigInt)]
    pub attempts: i64,
}

/// How a try ended, when it did not succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Another try may succeed (storage or the database was unavailable, a limit was hit).
    Retry(String),
    /// No try will (the file is refused): kept as failed at once.
    GiveUp(String),
}

impl Failure {
    pub fn message(&self) -> &str {
        match self {
            Failure::Retry(m) | Failure::GiveUp(m) => m,
        }
    }
}

/// What became of a failed try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterFailure {
    /// Queued again, to run at this time.
    Retried(NaiveDateTime),
    /// Kept as failed.
    Failed,
    /// Nothing: the job is no longer this process's (its lease ran out and another took it).
    NotOurs,
}

/// One row of the queue, as `selfsound jobs` lists it.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = jobs)]
pub struct JobRow {
    pub id: JobId,
    #[diesel(deserialize_as = String)]
    pub kind: String,
    pub subject: String,
    pub owner_id: Option<UserId>,
    pub lane_seq: i64,
    pub state: String,
    pub attempts: i64,
    pub run_after: NaiveDateTime,
    pub leased_by: Option<String>,
    pub lease_until: Option<NaiveDateTime>,
    pub last_error: Option<String>,
    pub created_at: NaiveDateTime,
}

/// The queue in figures, for metrics.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct QueueFigures {
    /// Queued, whether or not their time has come.
    pub queued: i64,
    pub running: i64,
    pub failed: i64,
    /// Seconds since the oldest queued or running job was queued (0 with none).
    pub oldest_seconds: f64,
}

const ENQUEUE: &str = "INSERT INTO jobs (id, kind, subject, payload, owner_id, lane_seq, state, attempts, run_after, \
     created_at) SELECT ?, ?, ?, ?, ?, COALESCE(MAX(lane_seq) + 1, 0), 'queued', 0, ?, ? FROM jobs \
     WHERE owner_id = ? AND state <> 'failed' ON CONFLICT DO NOTHING";

/// Queues `job` in the caller's transaction, to run at once (or at `at`): true when queued,
/// false when the same work (kind and subject) was queued already.
pub fn enqueue(conn: &mut DbConnection, job: &NewJob, at: Option<NaiveDateTime>) -> QueryResult<bool> {
    let now = crate::time::now();
    let added = Kept::new(ENQUEUE)
        .bind::<BigInt, _>(JobId::generate())
        .bind::<Text, _>(job.kind)
        .bind::<Text, _>(job.subject.clone())
        .bind::<Text, _>(job.payload.clone())
        .bind::<Nullable<BigInt>, _>(job.owner)
        .bind::<Timestamp, _>(at.unwrap_or(now))
        .bind::<Timestamp, _>(now)
        .bind::<Nullable<BigInt>, _>(job.owner)
        .execute(conn)?;
    Ok(added == 1)
}

/// What may be claimed now, first in fair order: queued and due, or running on a lease that has
/// run out.
const CLAIMABLE: &str = "SELECT id FROM jobs WHERE ((state = 'queued' AND run_after <= ?) \
     OR (state = 'running' AND lease_until < ?))";
/// Only jobs a process without federation can run: one that claimed a delivery would put it
/// back for its backoff, delaying it for the processes that federate.
const NOT_FEDERATION: &str = " AND kind NOT LIKE 'federation.%'";
const IN_ORDER: &str = " ORDER BY lane_seq, id LIMIT 1";

const CLAIM: &str = "UPDATE jobs SET state = 'running', leased_by = ?, lease_until = ?, attempts = attempts + 1 \
     WHERE id = (";
const CLAIMED: &str = ") RETURNING id, kind, subject, payload, owner_id, attempts";

/// The claim statement for a backend and whether federation jobs are among what it takes.
fn claim_sql(postgres: bool, federation: bool) -> &'static str {
    use std::sync::LazyLock;
    fn sql(postgres: bool, federation: bool) -> String {
        let kinds = if federation { "" } else { NOT_FEDERATION };
        let lock = if postgres { " FOR UPDATE SKIP LOCKED" } else { "" };
        format!("{CLAIM}{CLAIMABLE}{kinds}{IN_ORDER}{lock}{CLAIMED}")
    }
    static ALL: [LazyLock<String>; 4] = [
        LazyLock::new(|| sql(false, false)),
        LazyLock::new(|| sql(false, true)),
        LazyLock::new(|| sql(true, false)),
        LazyLock::new(|| sql(true, true)),
    ];
    ALL[usize::from(postgres) * 2 + usize::from(federation)].as_str()
}

/// Claims the first claimable job for the process `me`, leased for `lease`: one statement.
/// Federation's jobs only when `federation` (the process federates).
pub fn claim(conn: &mut DbConnection, me: &str, lease: Duration, federation: bool) -> QueryResult<Option<Claimed>> {
    let now = crate::time::now();
    let sql = claim_sql(matches!(conn, DbConnection::Postgres(_)), federation);
    Kept::new(sql)
        .bind::<Text, _>(me.to_owned())
        .bind::<Timestamp, _>(now + chrono::Duration::from_std(lease).unwrap_or_default())
        .bind::<Timestamp, _>(now)
        .bind::<Timestamp, _>(now)
        .get_result::<Claimed>(conn)
        .optional()
}

/// Extends `me`'s lease of job `id` to `lease` from now: false when it is no longer `me`'s.
pub fn renew(conn: &mut DbConnection, id: JobId, me: &str, lease: Duration) -> QueryResult<bool> {
    let until = crate::time::now() + chrono::Duration::from_std(lease).unwrap_or_default();
    let renewed = diesel::update(jobs::table.find(id).filter(jobs::leased_by.eq(me)).filter(jobs::state.eq("running")))
        .set(jobs::lease_until.eq(until))
        .execute(conn)?;
    Ok(renewed == 1)
}

/// Rewrites job `id`'s payload (a secret it carried, dropped before the job is kept as failed).
pub fn rewrite_payload(conn: &mut DbConnection, id: JobId, payload: &str) -> QueryResult<()> {
    diesel::update(jobs::table.find(id)).set(jobs::payload.eq(payload)).execute(conn)?;
    Ok(())
}

/// The job is done: it goes (whoever holds it now: the work is done either way).
pub fn done(conn: &mut DbConnection, id: JobId) -> QueryResult<()> {
    diesel::delete(jobs::table.find(id)).execute(conn)?;
    Ok(())
}

/// A try of `me`'s failed: queued again after its backoff, or kept as failed when it gave up or
/// has had [`MOST_ATTEMPTS`].
pub fn failed(conn: &mut DbConnection, id: JobId, me: &str, failure: &Failure) -> QueryResult<AfterFailure> {
    let attempts: Option<i64> = jobs::table
        .find(id)
        .filter(jobs::leased_by.eq(me))
        .filter(jobs::state.eq("running"))
        .select(jobs::attempts)
        .first(conn)
        .optional()?;
    let Some(attempts) = attempts else { return Ok(AfterFailure::NotOurs) };
    let message: String = failure.message().chars().take(ERROR_KEPT).collect();
    let target = jobs::table.find(id);
    let retry = matches!(failure, Failure::Retry(_)) && attempts < MOST_ATTEMPTS;
    if retry {
        let at = crate::time::now() + chrono::Duration::from_std(backoff(attempts)).unwrap_or_default();
        diesel::update(target)
            .set((
                jobs::state.eq("queued"),
                jobs::run_after.eq(at),
                jobs::leased_by.eq(None::<String>),
                jobs::lease_until.eq(None::<NaiveDateTime>),
                jobs::last_error.eq(message),
            ))
            .execute(conn)?;
        Ok(AfterFailure::Retried(at))
    } else {
        diesel::update(target)
            .set((
                jobs::state.eq("failed"),
                jobs::leased_by.eq(None::<String>),
                jobs::lease_until.eq(None::<NaiveDateTime>),
                jobs::last_error.eq(message),
            ))
            .execute(conn)?;
        Ok(AfterFailure::Failed)
    }
}

/// The wait after the `attempts`th try failed: 30 s, then twice as long each time.
pub fn backoff(attempts: i64) -> Duration {
    FIRST_BACKOFF * 2u32.saturating_pow(attempts.clamp(1, 20) as u32 - 1)
}

/// Queues failed jobs again as new (attempts from zero, due now): the one of `id`, or every
/// failed one. Answers how many.
pub fn retry(conn: &mut DbConnection, id: Option<JobId>) -> QueryResult<usize> {
    let mut q = jobs::table.filter(jobs::state.eq("failed")).select(jobs::id).into_boxed();
    if let Some(id) = id {
        q = q.filter(jobs::id.eq(id));
    }
    let ids: Vec<JobId> = q.load(conn)?;
    diesel::update(jobs::table.filter(jobs::id.eq_any(&ids)))
        .set((jobs::state.eq("queued"), jobs::attempts.eq(0), jobs::run_after.eq(crate::time::now())))
        .execute(conn)
}

/// The queue as `selfsound jobs` shows it: running, then queued in claim order, then failed; at
/// most `limit` rows.
pub fn list(conn: &mut DbConnection, limit: i64) -> QueryResult<Vec<JobRow>> {
    let mut rows: Vec<JobRow> = jobs::table.select(JobRow::as_select()).order(jobs::id).limit(limit).load(conn)?;
    let place = |state: &str| match state {
        "running" => 0,
        "queued" => 1,
        _ => 2,
    };
    rows.sort_by_key(|r| (place(&r.state), r.lane_seq, r.id));
    Ok(rows)
}

#[derive(QueryableByName)]
struct StateCount {
    #[diesel(sql_type = Text)]
    state: String,
    #[diesel(sql_type = BigInt)]
    n: i64,
    #[diesel(sql_type = Nullable<Timestamp>)]
    oldest: Option<NaiveDateTime>,
}

/// The queue in figures: one statement.
pub fn figures(conn: &mut DbConnection) -> QueryResult<QueueFigures> {
    let rows: Vec<StateCount> =
        Kept::new("SELECT state, COUNT(*) AS n, MIN(created_at) AS oldest FROM jobs GROUP BY state").load(conn)?;
    let now = crate::time::now();
    let mut f = QueueFigures::default();
    let mut oldest: Option<NaiveDateTime> = None;
    for r in rows {
        match r.state.as_str() {
            "queued" => f.queued = r.n,
            "running" => f.running = r.n,
            _ => f.failed = r.n,
        }
        if r.state != "failed" {
            oldest = oldest.into_iter().chain(r.oldest).min();
        }
    }
    f.oldest_seconds = oldest.map_or(0.0, |t| (now - t).num_milliseconds().max(0) as f64 / 1000.0);
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_thirty_seconds() {
        assert_eq!(backoff(1), Duration::from_secs(30));
        assert_eq!(backoff(2), Duration::from_secs(60));
        assert_eq!(backoff(4), Duration::from_secs(240));
        assert!(backoff(100) >= backoff(20), "bounded, never overflowing");
    }
}
