//! SQLite's writes of this process, committed in groups by one thread.
//!
//! SQLite writes one transaction at a time. With writers taking turns at a gate, each write
//! paid a thread wake-up to get its turn, its own `BEGIN IMMEDIATE … COMMIT`, and a WAL append
//! of every page it touched (the index pages of likes, notifications and the write limit's
//! counters, again and again). Under 32 writers the server was a third busy, waiting on the
//! turns (docs/performance.md, "Writes").
//!
//! Here one thread owns a connection of its own and runs write transactions back to back:
//! it takes the first job waiting, opens one transaction, and runs every job that arrives
//! while it works (up to [`MOST_IN_GROUP`]) each under its own savepoint, then commits them
//! together. A job that fails is rolled back to its savepoint alone; the others commit. Nobody
//! is answered before the commit: a job's result is handed over only once what it wrote is
//! durable as any other commit, and a failed commit fails every job of the group. So each use
//! case stays one transaction in what it can see and what it can leave behind; it only shares
//! its commit.
//!
//! The thread holds the process's writer gate while a group is open, so a write that cannot
//! come through here ([`crate::Db::write_blocking`]) waits for the group instead of meeting
//! SQLite's lock and its busy handler.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use diesel::Connection;
use diesel::connection::{SimpleConnection, TransactionManager};
use diesel::sqlite::SqliteConnection;

use crate::changes::Changes;
use crate::checkpoint::Nudge;
use crate::conn::{DbConnection, Usage};
use crate::scope::Scope;
use crate::{DbError, Topic};

/// The most jobs one transaction holds: a group's commit waits for its last job, so a bound
/// keeps the first job's answer from waiting on an endless stream behind it.
const MOST_IN_GROUP: usize = 64;

/// How long a group stays open for more jobs after it started, whatever is waiting.
const LONGEST_GROUP: Duration = Duration::from_millis(20);

/// What the writer runs: a use case's transaction body, which answers whether it succeeded and
/// how to hand its result over once the group's fate is known.
type Job = Box<dyn FnOnce(&mut DbConnection) -> Ran + Send>;

/// Hands a job's result to its caller, given the group's commit error if it failed.
type Reply = Box<dyn FnOnce(Option<&DbError>) + Send>;

/// A job that ran: whether it wants its writes kept, and how to reply to its caller (with the
/// commit's error when the group failed to commit).
pub(crate) struct Ran {
    ok: bool,
    reply: Reply,
}

/// A job waiting for the writer, and since when.
struct Waiting {
    job: Job,
    since: Instant,
}

/// The handle every clone of a [`crate::Db`] shares; the thread ends when the last is dropped.
pub(crate) struct Writer {
    jobs: mpsc::Sender<Waiting>,
}

impl Writer {
    /// Opens the writer's own connection to `url` (with `pragmas`) and starts its thread.
    pub(crate) fn start(
        url: &str,
        pragmas: &str,
        checkpoints: Nudge,
        gate: Arc<Mutex<()>>,
        changes: Arc<Changes>,
        usage: Arc<Usage>,
        wait_limit: Duration,
    ) -> Result<Writer, DbError> {
        let mut conn = SqliteConnection::establish(url).map_err(|e| DbError::Connect(e.to_string()))?;
        conn.batch_execute(pragmas)?;
        let (jobs, queue) = mpsc::channel::<Waiting>();
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || {
                let mut conn = DbConnection::Sqlite(conn);
                while let Ok(first) = queue.recv() {
                    if group(&mut conn, &gate, &changes, &usage, wait_limit, first, &queue) {
                        checkpoints.committed();
                    }
                }
            })
            .map_err(|e| DbError::Connect(format!("could not start the writer thread: {e}")))?;
        Ok(Writer { jobs })
    }

    /// Runs `f` as one write transaction in the writer's next group; answers once the group
    /// has committed (or failed to). What `f` wrote is rolled back when it fails, unless
    /// `keep_failed` (statements that each count on their own, as outside a transaction).
    pub(crate) async fn write<T, E, F>(&self, usage: &Usage, keep_failed: bool, f: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        let (tell, told) = tokio::sync::oneshot::channel::<Result<T, E>>();
        let job: Job = Box::new(move |conn| {
            let done = f(conn);
            let ok = keep_failed || done.is_ok();
            let reply = move |failed: Option<&DbError>| {
                let answer = match (done, failed) {
                    (Ok(_), Some(e)) => Err(DbError::Commit(e.to_string()).into()),
                    (done, _) => done,
                };
                // The caller may have gone (its client hung up): nobody to tell.
                let _ = tell.send(answer);
            };
            Ran { ok, reply: Box::new(reply) }
        });
        usage.queued.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let sent = self.jobs.send(Waiting { job, since: Instant::now() });
        if sent.is_err() {
            usage.queued.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
            return Err(DbError::TaskCancelled.into());
        }
        // Dropped without an answer: the job panicked, or waited past the limit.
        told.await.unwrap_or_else(|_| Err(DbError::Busy.into()))
    }
}

/// One group: a transaction holding `first` and whatever arrives while it runs. True when it
/// committed.
fn group(
    conn: &mut DbConnection,
    gate: &Mutex<()>,
    changes: &Changes,
    usage: &Usage,
    wait_limit: Duration,
    first: Waiting,
    queue: &mpsc::Receiver<Waiting>,
) -> bool {
    type Tm = <DbConnection as Connection>::TransactionManager;
    let held = gate.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let opened = Instant::now();
    let begun = match conn {
        DbConnection::Sqlite(c) => crate::write::begin_immediate(c),
        DbConnection::Postgres(_) => Err(diesel::result::Error::BrokenTransactionManager),
    };
    if let Err(e) = begun {
        // Dropping the job unrun drops its sender: its caller is told the database is busy.
        tracing::error!(error = %e, "the writer could not begin a transaction");
        usage.queued.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        return false;
    }
    let mut ran: Vec<Ran> = Vec::new();
    let mut topics: Vec<Topic> = Vec::new();
    let mut lost = false;
    let mut next = Some(first);
    while let Some(Waiting { job, since }) = next.take() {
        usage.queued.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        let waited = since.elapsed();
        usage.observe(waited, waited < wait_limit);
        // A job that waited past the limit is not run: its caller is told the database is
        // busy, as a call that found no connection in time is (a queue that only grows).
        if waited < wait_limit {
            match one_job(conn, job) {
                Outcome::Kept(one, mut written) => {
                    topics.append(&mut written);
                    ran.push(one);
                }
                Outcome::RolledBack(one) => ran.push(one),
                Outcome::Panicked => {}
                Outcome::Lost(one) => {
                    ran.push(one);
                    lost = true;
                }
            }
        }
        if lost || crate::conn::in_error(conn) {
            lost = true;
            break;
        }
        if ran.len() < MOST_IN_GROUP && opened.elapsed() < LONGEST_GROUP {
            next = queue.try_recv().ok();
        }
    }
    let failed = if lost {
        let _ = Tm::rollback_transaction(conn);
        Some(DbError::Query(diesel::result::Error::BrokenTransactionManager))
    } else {
        Tm::commit_transaction(conn).err().map(DbError::from)
    };
    match &failed {
        None => changes.stamp(&topics),
        Some(e) => tracing::error!(error = %e, jobs = ran.len(), "a group of writes failed to commit"),
    }
    drop(held);
    for one in ran {
        (one.reply)(failed.as_ref());
    }
    failed.is_none()
}

enum Outcome {
    /// It succeeded: its savepoint is released, what it changed is told on commit.
    Kept(Ran, Vec<Topic>),
    /// It failed: rolled back to its savepoint, the group goes on.
    RolledBack(Ran),
    /// It panicked: rolled back, and its reply went with it (its caller hears "busy").
    Panicked,
    /// The transaction itself is lost: the group cannot commit.
    Lost(Ran),
}

/// Runs one job under a savepoint: kept when it succeeds, rolled back when it fails or
/// panics.
#[allow(clippy::disallowed_methods)]
fn one_job(conn: &mut DbConnection, job: Job) -> Outcome {
    type Tm = <DbConnection as Connection>::TransactionManager;
    // Only this thread's jobs open scopes here, one at a time.
    let Some(scope) = Scope::open() else { return Outcome::Panicked };
    if Tm::begin_transaction(conn).is_err() {
        return Outcome::Panicked;
    }
    let ran = std::panic::catch_unwind(AssertUnwindSafe(|| job(conn)));
    let written = scope.close();
    match ran {
        Ok(ran) if ran.ok => match Tm::commit_transaction(conn) {
            Ok(()) => Outcome::Kept(ran, written),
            Err(_) => Outcome::Lost(ran),
        },
        Ok(ran) => match Tm::rollback_transaction(conn) {
            Ok(()) => Outcome::RolledBack(ran),
            Err(_) => Outcome::Lost(ran),
        },
        Err(_) => {
            tracing::error!("a write panicked; its savepoint was rolled back");
            match Tm::rollback_transaction(conn) {
                Ok(()) => Outcome::Panicked,
                Err(_) => Outcome::Lost(Ran { ok: false, reply: Box::new(|_| {}) }),
            }
        }
    }
}
