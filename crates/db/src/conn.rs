//! The connection type over both backends, the pool, start-up migrations and write transactions.
//!
//! **One use case, one transaction.** Repository functions of the domain crates take
//! `&mut DbConnection` and run inside whatever transaction their caller has open; the entry point
//! of a use case (one service method per user action) opens exactly one [`write_tx`]. A
//! `write_tx` inside another is refused with [`DbError::NestedTransaction`] on both backends, so
//! a composition mistake fails loudly in the first test that runs it instead of silently turning
//! into a savepoint (PostgreSQL) or an error halfway (SQLite).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use diesel::connection::{AnsiTransactionManager, SimpleConnection, TransactionManager};
use diesel::pg::PgConnection;
use diesel::r2d2::{ConnectionManager, CustomizeConnection, HandleError, Pool};
use diesel::sqlite::SqliteConnection;
use diesel::{Connection, RunQueryDsl};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

use crate::DbError;
use crate::changes::{Changes, Topic};
use crate::writer::Writer;

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

/// One connection to either backend; every query in the project is written once against it.
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    Postgres(PgConnection),
    Sqlite(SqliteConnection),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// `postgres://` and `postgresql://` select PostgreSQL; anything else is a SQLite path
    /// (an optional `sqlite://` prefix is accepted).
    pub fn of_url(url: &str) -> Backend {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }
}

/// Pragmas set on every SQLite connection the pool hands out, the busy timeout first so that
/// nothing after it can fail on a lock another connection holds for a moment:
/// - busy_timeout: a writer waits up to 5 s for the lock instead of failing at once;
/// - foreign keys: SQLite leaves them off unless asked, and our cascades depend on them;
/// - synchronous=NORMAL: in WAL mode a commit survives a crash of the process; a power loss may
///   lose the last transactions but never corrupts the file. That is the documented trade for
///   the embedded default (PostgreSQL is the choice where every commit must reach the disk).
///
/// WAL (readers never block the writer, nor the writer readers) is a property of the file, set
/// once by [`Db::connect`] before the pool opens its connections: switching to it needs the
/// write lock, and ten fresh connections racing for it is what logged "database is locked" on a
/// first start.
const SQLITE_PRAGMAS: &str = "PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;";
const SQLITE_FIRST: &str = "PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL;";

#[derive(Debug)]
struct Pragmas;

impl CustomizeConnection<DbConnection, diesel::r2d2::Error> for Pragmas {
    fn on_acquire(&self, conn: &mut DbConnection) -> Result<(), diesel::r2d2::Error> {
        match conn {
            DbConnection::Sqlite(c) => c.batch_execute(SQLITE_PRAGMAS).map_err(diesel::r2d2::Error::QueryError),
            // No parallel workers: our statements are small, and under many requests at once
            // starting workers for one (a full-text search's bitmap scan took 5 ms to start
            // them) only takes the cores from the others.
            DbConnection::Postgres(c) => c
                .batch_execute("SET TIME ZONE 'UTC'; SET max_parallel_workers_per_gather = 0")
                .map_err(diesel::r2d2::Error::QueryError),
        }
    }
}

#[derive(Clone, Debug)]
pub struct PoolOptions {
    pub max_size: u32,
    /// How long a request waits for a connection before it is answered 503: every connection
    /// busy, or the database unreachable (while it restarts, requests fail fast instead of
    /// hanging until the client gives up).
    pub connection_timeout: Duration,
}

impl Default for PoolOptions {
    fn default() -> Self {
        PoolOptions { max_size: 10, connection_timeout: Duration::from_secs(5) }
    }
}

/// Errors the pool meets while opening connections in the background: logged through
/// `tracing` like everything else, and counted so a test can tell a clean start.
#[derive(Debug, Default)]
struct PoolErrors(Arc<AtomicU64>);

impl HandleError<diesel::r2d2::Error> for PoolErrors {
    fn handle_error(&self, error: diesel::r2d2::Error) {
        self.0.fetch_add(1, Ordering::Relaxed);
        tracing::error!(%error, "database pool");
    }
}

/// What the pool is doing at this moment (for metrics: `api::metrics`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolState {
    /// Connections open, in use or idle, and the most there may be.
    pub connections: u32,
    pub idle: u32,
    pub max_size: u32,
    /// Calls handed to a blocking thread by [`Db::run`] that have not started yet.
    pub queued: u64,
    /// Calls waiting for a connection from the pool.
    pub waiting: u64,
}

/// Told after each checkout how long it waited, and whether it got a connection.
type WaitObserver = Box<dyn Fn(Duration, bool) + Send + Sync>;

/// Who is waiting, and who is told how long they waited; shared by every clone of a [`Db`].
#[derive(Default)]
pub(crate) struct Usage {
    pub(crate) queued: AtomicU64,
    waiting: AtomicU64,
    on_wait: OnceLock<WaitObserver>,
}

impl Usage {
    /// Tells the observer, if any, that a call waited `waited` and got (or did not get) its turn.
    pub(crate) fn observe(&self, waited: Duration, got: bool) {
        if let Some(observe) = self.on_wait.get() {
            observe(waited, got);
        }
    }
}

/// One call in the blocking-thread queue: leaves it when it starts, or when it is dropped
/// without running (a runtime shutting down).
struct Queued(Arc<Usage>);

impl Queued {
    fn enter(usage: &Arc<Usage>) -> Queued {
        usage.queued.fetch_add(1, Ordering::Relaxed);
        Queued(usage.clone())
    }
}

impl Drop for Queued {
    fn drop(&mut self) {
        self.0.queued.fetch_sub(1, Ordering::Relaxed);
    }
}

type Pooled = diesel::r2d2::PooledConnection<ConnectionManager<DbConnection>>;

/// Takes a connection from `pool` (waiting up to `timeout`, or the pool's own timeout),
/// counting the wait.
fn checkout(
    pool: &Pool<ConnectionManager<DbConnection>>,
    usage: &Usage,
    timeout: Option<Duration>,
) -> Result<Pooled, DbError> {
    usage.waiting.fetch_add(1, Ordering::Relaxed);
    let started = Instant::now();
    let got = match timeout {
        Some(t) => pool.get_timeout(t),
        None => pool.get(),
    };
    usage.waiting.fetch_sub(1, Ordering::Relaxed);
    if let Some(observe) = usage.on_wait.get() {
        observe(started.elapsed(), got.is_ok());
    }
    Ok(got?)
}

/// The shared handle to the database: a pool, and the backend it talks to.
#[derive(Clone)]
pub struct Db {
    pool: Pool<ConnectionManager<DbConnection>>,
    backend: Backend,
    pool_errors: Arc<AtomicU64>,
    usage: Arc<Usage>,
    /// One permit per connection: calls wait here, first come first served, rather than on the
    /// pool, whose waiters are woken in no particular order (some waited 150 ms while others
    /// passed them: the p99 of a PostgreSQL page under 32 connections).
    turns: Arc<tokio::sync::Semaphore>,
    wait_limit: Duration,
    /// SQLite's writers of this process, one at a time ([`one_writer`]); none on PostgreSQL.
    writers: Option<Arc<std::sync::Mutex<()>>>,
    /// SQLite's write transactions, committed in groups by one thread ([`Db::write`]).
    writer: Option<Arc<Writer>>,
    /// What changed, as this process knows it (`crate::changes`).
    changes: Arc<Changes>,
}

impl Db {
    /// Connects, runs pending migrations and returns the pool.
    pub fn connect(url: &str, options: &PoolOptions) -> Result<Db, DbError> {
        let db = Db::connect_without_migrating(url, options)?;
        db.migrate()?;
        Ok(db)
    }

    /// Connects to a database that is already up to date (test databases cloned from a
    /// migrated template).
    pub fn connect_without_migrating(url: &str, options: &PoolOptions) -> Result<Db, DbError> {
        let backend = Backend::of_url(url);
        let url = url.strip_prefix("sqlite://").unwrap_or(url);
        if backend == Backend::Sqlite {
            let mut first = SqliteConnection::establish(url).map_err(|e| DbError::Connect(e.to_string()))?;
            first.batch_execute(SQLITE_FIRST)?;
        }
        let pool_errors = Arc::new(AtomicU64::new(0));
        let manager = ConnectionManager::<DbConnection>::new(url);
        let pool = Pool::builder()
            .max_size(options.max_size)
            .connection_timeout(options.connection_timeout)
            // Not a `SELECT 1` before every checkout: a connection that failed is checked then
            // (`retire_if_lost`).
            .test_on_check_out(false)
            .connection_customizer(Box::new(Pragmas))
            .error_handler(Box::new(PoolErrors(pool_errors.clone())))
            .build(manager)
            .map_err(|e| DbError::Connect(e.to_string()))?;
        let turns = Arc::new(tokio::sync::Semaphore::new(options.max_size as usize));
        let writers: Option<Arc<std::sync::Mutex<()>>> = (backend == Backend::Sqlite).then(Arc::default);
        let usage: Arc<Usage> = Arc::default();
        // One process on SQLite hears every change; on PostgreSQL only once it listens.
        let changes = Arc::new(Changes::new(backend == Backend::Sqlite));
        let writer = match &writers {
            Some(gate) => Some(Arc::new(Writer::start(
                url,
                SQLITE_PRAGMAS,
                gate.clone(),
                changes.clone(),
                usage.clone(),
                options.connection_timeout,
            )?)),
            None => None,
        };
        Ok(Db {
            pool,
            backend,
            pool_errors,
            usage,
            turns,
            wait_limit: options.connection_timeout,
            writers,
            writer,
            changes,
        })
    }

    /// The pool's connections and the calls waiting, as they are now.
    pub fn pool_state(&self) -> PoolState {
        let state = self.pool.state();
        PoolState {
            connections: state.connections,
            idle: state.idle_connections,
            max_size: self.pool.max_size(),
            queued: self.usage.queued.load(Ordering::Relaxed),
            waiting: self.usage.waiting.load(Ordering::Relaxed),
        }
    }

    /// Calls `observe` after every checkout from now on, with how long it waited and whether it
    /// got a connection (`false`: the pool's timeout passed, or no connection could be opened).
    /// Set once for the pool and all its clones; a second observer is refused (`false`).
    pub fn observe_waits(&self, observe: impl Fn(Duration, bool) + Send + Sync + 'static) -> bool {
        self.usage.on_wait.set(Box::new(observe)).is_ok()
    }

    /// How many times the pool failed to open or set up a connection since it started.
    pub fn pool_errors(&self) -> u64 {
        self.pool_errors.load(Ordering::Relaxed)
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// What changed, as this process knows it: what is kept in memory checks it, and the
    /// listening thread of PostgreSQL's notifications tells it what other processes changed.
    pub fn changes(&self) -> &Arc<Changes> {
        &self.changes
    }

    /// Runs pending migrations. On PostgreSQL an advisory lock makes processes that start
    /// together take turns, so each migration runs once.
    pub fn migrate(&self) -> Result<(), DbError> {
        let mut conn = self.pool.get()?;
        let done = match &mut *conn {
            DbConnection::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS).map(|_| ()),
            DbConnection::Postgres(c) => {
                const LOCK: &str = "SELECT pg_advisory_lock(736572667375)";
                const UNLOCK: &str = "SELECT pg_advisory_unlock(736572667375)";
                diesel::sql_query(LOCK).execute(c)?;
                let result = c.run_pending_migrations(POSTGRES_MIGRATIONS).map(|_| ());
                diesel::sql_query(UNLOCK).execute(c)?;
                result
            }
        };
        done.map_err(|e| DbError::Migration(e.to_string()))
    }

    /// Gets a pooled connection (blocking). Prefer [`Db::run`] from async code. What is
    /// written on it from this thread is stamped in this `Db`'s [`Changes`] (until the thread
    /// runs another `Db`'s call).
    pub fn get(&self) -> Result<Pooled, DbError> {
        let conn = checkout(&self.pool, &self.usage, None)?;
        CALL.with(|c| c.borrow_mut().changes = Some(self.changes.clone()));
        Ok(conn)
    }

    /// Runs blocking database work on tokio's blocking threads, so request threads never wait
    /// on the pool or on the database.
    pub async fn run<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        let pool = self.pool.clone();
        let queued = Queued::enter(&self.usage);
        let (since, wait_limit, writers) = (Instant::now(), self.wait_limit, self.writers.clone());
        let changes = self.changes.clone();
        let turn = match tokio::time::timeout(self.wait_limit, self.turns.clone().acquire_owned()).await {
            Ok(Ok(turn)) => turn,
            Ok(Err(_)) => return Err(DbError::TaskCancelled.into()),
            Err(_) => {
                if let Some(observe) = self.usage.on_wait.get() {
                    observe(self.wait_limit, false);
                }
                return Err(DbError::Busy.into());
            }
        };
        tokio::task::spawn_blocking(move || {
            let usage = queued.0.clone();
            drop(queued);
            // The wait for a turn and for the connection together stay within the limit.
            let left = wait_limit.saturating_sub(since.elapsed()).max(Duration::from_millis(1));
            let mut conn = checkout(&pool, &usage, Some(left))?;
            let done = WriterGate::set(writers, changes, false, || f(&mut conn));
            if done.is_err() {
                retire_if_lost(&mut conn);
            }
            drop(conn);
            drop(turn);
            done
        })
        .await
        .map_err(|_| DbError::TaskCancelled)?
    }

    /// Runs `f` as one write transaction: the one transaction of a use case ([`write_tx`]),
    /// answered once it has committed. On SQLite it joins the next group of this process's
    /// writer ([`crate::writer`]): one thread runs write transactions back to back, each under
    /// its own savepoint, and commits them together, with no turn to wait for at a gate and one
    /// commit for many. On PostgreSQL, where each connection writes for itself, it is
    /// [`write_tx`] in [`Db::run`].
    pub async fn write<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<diesel::result::Error> + From<DbError> + Send + 'static,
    {
        match &self.writer {
            Some(writer) => writer.write(&self.usage, f).await,
            None => self.run(move |conn| write_tx(conn, f)).await,
        }
    }

    /// Runs `f`, whose few writes need no transaction of their own (a counter, a note that a
    /// session was used): on PostgreSQL as [`Db::run`] does, each statement committing alone;
    /// on SQLite in the writer's next group, as [`Db::write`] does, where it costs no commit of
    /// its own. `f` must not open a transaction.
    pub async fn run_writing<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        match &self.writer {
            Some(writer) => writer.write(&self.usage, f).await,
            None => self.run(f).await,
        }
    }

    /// Runs short reads (a page's index range scans, tens of microseconds on SQLite) on the
    /// calling thread when the database is SQLite, in this process, and a connection is idle:
    /// handing them to a blocking thread and back would cost more than the reads. Otherwise, and
    /// always on PostgreSQL (a network round trip), as [`Db::run`]. `f` must not write: a write
    /// may wait for SQLite's one write lock, which a request thread must never do.
    pub async fn read<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        if self.backend == Backend::Sqlite
            && let Ok(turn) = self.turns.clone().try_acquire_owned()
        {
            let started = Instant::now();
            if let Some(mut conn) = self.pool.try_get() {
                if let Some(observe) = self.usage.on_wait.get() {
                    observe(started.elapsed(), true);
                }
                let done = f(&mut conn);
                drop(conn);
                drop(turn);
                return done;
            }
        }
        self.run(f).await
    }

    /// Ok when a pooled connection answers a trivial query, having waited at most `within`
    /// for the connection (a readiness check must answer quickly, whatever the pool's timeout).
    pub async fn ping(&self, within: Duration) -> Result<(), DbError> {
        let pool = self.pool.clone();
        let queued = Queued::enter(&self.usage);
        tokio::task::spawn_blocking(move || {
            let usage = queued.0.clone();
            drop(queued);
            let mut conn = checkout(&pool, &usage, Some(within))?;
            diesel::sql_query("SELECT 1").execute(&mut *conn)?;
            Ok(())
        })
        .await
        .map_err(|_| DbError::TaskCancelled)?
    }
}

/// After a call on `conn` failed: a PostgreSQL connection that no longer answers (the server
/// restarted, the network dropped it) is marked broken, so the pool closes it instead of handing
/// it out again. Connections are not tested on every checkout (a `SELECT 1` round trip per
/// request), only after a failure; a SQLite connection is a file handle, never lost.
fn retire_if_lost(conn: &mut DbConnection) {
    if matches!(conn, DbConnection::Postgres(_)) && !in_transaction(conn) && conn.batch_execute("SELECT 1").is_err() {
        <DbConnection as Connection>::TransactionManager::transaction_manager_status_mut(conn).set_in_error();
    }
}

thread_local! {
    /// The [`Db`] call running on this thread: its writer gate and whether this thread holds it
    /// now, its [`Changes`], and the changes of the write transaction under way (none outside
    /// one).
    static CALL: std::cell::RefCell<Call> = const { std::cell::RefCell::new(Call::NONE) };
}

struct Call {
    gate: Option<Arc<std::sync::Mutex<()>>>,
    holding: bool,
    changes: Option<Arc<Changes>>,
    pending: Option<Pending>,
}

/// What a write transaction tells once it commits: the topics it changed, and messages to
/// other processes (`pg_notify` channel and payload) sent with them in one statement.
#[derive(Default)]
pub(crate) struct Pending {
    pub topics: Vec<Topic>,
    pub messages: Vec<(&'static str, String)>,
}

impl Call {
    const NONE: Call = Call { gate: None, holding: false, changes: None, pending: None };
}

/// Sets the writer gate and the changes for the calls [`Db::run`] makes on its blocking thread.
struct WriterGate;

impl WriterGate {
    fn set<T>(
        gate: Option<Arc<std::sync::Mutex<()>>>,
        changes: Arc<Changes>,
        holding: bool,
        f: impl FnOnce() -> T,
    ) -> T {
        CALL.with(|c| *c.borrow_mut() = Call { gate, holding, changes: Some(changes), pending: None });
        let _cleared = WriterGate;
        f()
    }
}

impl Drop for WriterGate {
    fn drop(&mut self) {
        CALL.with(|c| *c.borrow_mut() = Call::NONE);
    }
}

/// Keeps `topics` for the end of the write transaction under way on this thread; false when
/// there is none.
pub(crate) fn defer_changes(topics: &[Topic]) -> bool {
    CALL.with(|c| match &mut c.borrow_mut().pending {
        Some(pending) => {
            pending.topics.extend_from_slice(topics);
            true
        }
        None => false,
    })
}

/// Keeps a message for the end of the write transaction under way on this thread; gives it
/// back when there is none.
pub(crate) fn defer_message(channel: &'static str, payload: String) -> Option<(&'static str, String)> {
    CALL.with(|c| match &mut c.borrow_mut().pending {
        Some(pending) => {
            pending.messages.push((channel, payload));
            None
        }
        None => Some((channel, payload)),
    })
}

/// Stamps `topics` in the [`Changes`] of the call running on this thread, or of the `Db` this
/// thread last took a connection from ([`Db::get`]).
pub(crate) fn stamp_here(topics: &[Topic]) {
    if let Some(changes) = CALL.with(|c| c.borrow().changes.clone()) {
        changes.stamp(topics);
    }
}

/// Runs `f`, the writer thread's whole life ([`crate::writer`]), as the holder of `gate`: it
/// takes the gate itself around each group, and the writes it runs inside a group must not
/// wait for it again.
pub(crate) fn as_group_writer(gate: Arc<std::sync::Mutex<()>>, changes: Arc<Changes>, f: impl FnOnce()) {
    WriterGate::set(Some(gate), changes, true, f)
}

/// True when `conn`'s transaction is lost (a savepoint could not be rolled back or released):
/// it can only be rolled back.
pub(crate) fn in_error(conn: &mut DbConnection) -> bool {
    let status = <DbConnection as Connection>::TransactionManager::transaction_manager_status_mut(conn);
    status.transaction_depth().is_err()
}

/// Starts collecting the changes of a write transaction; [`end_changes`] hands them over.
pub(crate) fn begin_changes() {
    CALL.with(|c| c.borrow_mut().pending = Some(Pending::default()));
}

pub(crate) fn end_changes() -> Vec<Topic> {
    CALL.with(|c| c.borrow_mut().pending.take()).unwrap_or_default().topics
}

/// Runs `f`, a write, as this process's one SQLite writer of the moment. Writers queue here and
/// are woken the moment the one before them is done, where SQLite's own busy handler has them
/// sleep 1, 2, 5 … 100 ms between tries (under 32 writers a like's p99 was 100-235 ms). The
/// gate is the one of the [`Db`] whose call runs on this thread ([`Db::run`] sets it), so a
/// use case's transaction finds it without passing it down; elsewhere (PostgreSQL, a
/// connection taken with [`Db::get`], a write already holding it) `f` simply runs. Other
/// processes on the same file still meet SQLite's lock and its busy handler.
pub fn one_writer<T>(f: impl FnOnce() -> T) -> T {
    let gate = CALL.with(|c| match &*c.borrow() {
        Call { gate: Some(gate), holding: false, .. } => Some(gate.clone()),
        _ => None,
    });
    let Some(gate) = gate else { return f() };
    let _held = gate.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    CALL.with(|c| c.borrow_mut().holding = true);
    let done = f();
    CALL.with(|c| c.borrow_mut().holding = false);
    done
}

/// True while `conn` is inside a transaction.
pub fn in_transaction(conn: &mut DbConnection) -> bool {
    let status = <DbConnection as Connection>::TransactionManager::transaction_manager_status_mut(conn);
    // A broken transaction manager is in a transaction that can only be rolled back.
    !matches!(status.transaction_depth(), Ok(None))
}

/// Runs `f` in one transaction meant to write: the one transaction of a use case. On SQLite it
/// starts with `BEGIN IMMEDIATE`, so the write lock is taken up front and a concurrent writer
/// waits (busy_timeout) instead of failing halfway with SQLITE_BUSY; on PostgreSQL it is a plain
/// transaction. Called inside another transaction it refuses with
/// [`DbError::NestedTransaction`] and runs nothing.
pub fn write_tx<T, E, F>(conn: &mut DbConnection, f: F) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E>,
    E: From<diesel::result::Error> + From<DbError>,
{
    if in_transaction(conn) {
        return Err(DbError::NestedTransaction.into());
    }
    begin_changes();
    let done = match conn {
        // What changed, and the messages, are sent inside the transaction, in one statement:
        // PostgreSQL delivers them on commit.
        DbConnection::Postgres(_) => conn.transaction(|conn| {
            let value = f(conn)?;
            let messages = CALL.with(|c| {
                let call = c.borrow();
                let pending = call.pending.as_ref();
                let changed = pending.and_then(|p| crate::changes::message(&p.topics));
                changed.into_iter().chain(pending.map(|p| p.messages.clone()).unwrap_or_default()).collect::<Vec<_>>()
            });
            crate::changes::send(conn, &messages)?;
            Ok(value)
        }),
        DbConnection::Sqlite(_) => one_writer(|| {
            if let DbConnection::Sqlite(c) = &mut *conn {
                AnsiTransactionManager::begin_transaction_sql(c, "BEGIN IMMEDIATE")?;
            }
            match f(conn) {
                Ok(value) => {
                    <DbConnection as Connection>::TransactionManager::commit_transaction(conn)?;
                    Ok(value)
                }
                Err(e) => {
                    // The error that made us roll back is the one worth reporting.
                    let _ = <DbConnection as Connection>::TransactionManager::rollback_transaction(conn);
                    Err(e)
                }
            }
        }),
    };
    let topics = end_changes();
    if done.is_ok() {
        stamp_here(&topics);
    }
    done
}
