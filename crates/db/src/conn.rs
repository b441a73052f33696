//! The connection type over both backends, the pool, start-up migrations, and reads.
//!
//! Reads take a pooled connection ([`Db::run`], [`Db::read`]); writes come through the doors of
//! `crate::write` ([`Db::write`] and its two siblings), never a pooled connection of their own.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use diesel::connection::{SimpleConnection, TransactionManager};
use diesel::r2d2::{ConnectionManager, CustomizeConnection, HandleError, Pool};
use diesel::sqlite::SqliteConnection;
use diesel::{Connection, RunQueryDsl};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

use crate::DbError;
use crate::changes::Changes;
use crate::writer::Writer;

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

pub use connection::{DbConnection, MultiBackend};

mod connection {
    // Diesel's derive implements the transaction methods by calling them on each backend.
    #![allow(clippy::disallowed_methods)]

    use diesel::pg::PgConnection;
    use diesel::sqlite::SqliteConnection;

    /// One connection to either backend; every query in the project is written once against it.
    #[derive(diesel::MultiConnection)]
    pub enum DbConnection {
        Postgres(PgConnection),
        Sqlite(SqliteConnection),
    }
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
/// - wal_autocheckpoint: the log is copied back into the file by a thread of its own
///   (`crate::checkpoint`), not by whichever connection commits past 1,000 pages (the writer
///   thread, stopping every write behind it); a committing connection still checkpoints past
///   10,000 pages (40 MB), so the log stays bounded whatever happens to that thread.
///
/// WAL (readers never block the writer, nor the writer readers) is a property of the file, set
/// once by [`Db::connect`] before the pool opens its connections: switching to it needs the
/// write lock, and ten fresh connections racing for it is what logged "database is locked" on a
/// first start.
const SQLITE_PRAGMAS: &str = "PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 10000;";
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

/// Says so in the log when the PostgreSQL server does not vacuum by itself: the posts' counters
/// change all day, and without vacuum their table's pages stop being known all-visible, so the
/// walks of `posts (user_id, id)` that build feeds read a table row per post (3.7 times the
/// work of those walks, 1.5 times the database's for a community's reads, measured for issue
/// 30; docs/operations.md).
fn warn_without_autovacuum(c: &mut diesel::PgConnection) {
    #[derive(diesel::QueryableByName)]
    struct Setting {
        #[diesel(sql_type = diesel::sql_types::Text)]
        autovacuum: String,
    }
    if let Ok(s) = diesel::sql_query("SHOW autovacuum").get_result::<Setting>(c)
        && s.autovacuum != "on"
    {
        tracing::warn!(
            "PostgreSQL's autovacuum is off: feeds will slow down as posts are liked and commented on; \
             turn it on (autovacuum = on) or vacuum the database regularly"
        );
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

/// How long start-up waits for the pool's connections (and the migrations for theirs), where a
/// request waits at most `connection_timeout` for one: a start on a machine under heavy load
/// once failed with "timed out waiting for connection" because the pool had to open all ten
/// connections within those 5 s.
pub const START_PATIENCE: Duration = Duration::from_secs(60);

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
struct InQueue(Arc<Usage>);

impl InQueue {
    fn enter(usage: &Arc<Usage>) -> InQueue {
        usage.queued.fetch_add(1, Ordering::Relaxed);
        InQueue(usage.clone())
    }
}

impl Drop for InQueue {
    fn drop(&mut self) {
        self.0.queued.fetch_sub(1, Ordering::Relaxed);
    }
}

pub(crate) type Pooled = diesel::r2d2::PooledConnection<ConnectionManager<DbConnection>>;

/// Takes a connection from `pool` (waiting up to `timeout`, or the pool's own timeout),
/// counting the wait.
pub(crate) fn checkout(
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
    pub(crate) pool: Pool<ConnectionManager<DbConnection>>,
    backend: Backend,
    /// Where it connects, for the thread that hears other processes ([`Db::hear_other_processes`]).
    url: Arc<str>,
    pool_errors: Arc<AtomicU64>,
    pub(crate) usage: Arc<Usage>,
    /// One permit per connection: calls wait here, first come first served, rather than on the
    /// pool, whose waiters are woken in no particular order (some waited 150 ms while others
    /// passed them: the p99 of a PostgreSQL page under 32 connections).
    turns: Arc<tokio::sync::Semaphore>,
    wait_limit: Duration,
    /// SQLite's writers of this process, one at a time: the writer thread around each group,
    /// and [`Db::write_blocking`]; none on PostgreSQL.
    pub(crate) gate: Option<Arc<std::sync::Mutex<()>>>,
    /// SQLite's write transactions, committed in groups by one thread ([`Db::write`]).
    pub(crate) writer: Option<Arc<Writer>>,
    /// What changed, as this process knows it (`crate::changes`).
    pub(crate) changes: Arc<Changes>,
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
        // One connection first, outside the pool: a wrong address or file fails here at once,
        // with the database's own words, and the pool may fill at its pace.
        if backend == Backend::Sqlite {
            let mut first = SqliteConnection::establish(url).map_err(|e| DbError::Connect(e.to_string()))?;
            first.batch_execute(SQLITE_FIRST)?;
        } else {
            diesel::pg::PgConnection::establish(url).map_err(|e| DbError::Connect(e.to_string()))?;
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
            .build_unchecked(manager);
        // Wait for the pool to open its connections, as a start does, but with a start's
        // patience rather than a request's (no thread is left opening one when we return: at a
        // process's exit, one still in libpq's TLS set-up can crash it).
        let deadline = Instant::now() + START_PATIENCE;
        while pool.state().connections < options.max_size {
            if Instant::now() > deadline {
                return Err(DbError::Connect("timed out waiting for the pool's connections".into()));
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let turns = Arc::new(tokio::sync::Semaphore::new(options.max_size as usize));
        let gate: Option<Arc<std::sync::Mutex<()>>> = (backend == Backend::Sqlite).then(Arc::default);
        let usage: Arc<Usage> = Arc::default();
        // One process on SQLite hears every change; on PostgreSQL only once it listens.
        let changes = Arc::new(Changes::new(backend == Backend::Sqlite));
        let writer = match &gate {
            Some(gate) => Some(Arc::new(Writer::start(
                url,
                SQLITE_PRAGMAS,
                crate::checkpoint::start(url)?,
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
            url: url.into(),
            pool_errors,
            usage,
            turns,
            wait_limit: options.connection_timeout,
            gate,
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

    /// What changed, as this process knows it: what is kept in memory checks it
    /// ([`crate::Held`]), and whoever watches hears it.
    pub fn changes(&self) -> &Arc<Changes> {
        &self.changes
    }

    /// On PostgreSQL, starts the thread that hears what other processes sharing the database
    /// change (`crate::listen`); until it is listening, nothing remembered is trusted. On
    /// SQLite (one process) there is nothing to hear.
    pub fn hear_other_processes(&self) -> std::io::Result<()> {
        match self.backend {
            Backend::Postgres => crate::listen::start(&self.url, &self.changes),
            Backend::Sqlite => Ok(()),
        }
    }

    /// Runs pending migrations. On PostgreSQL an advisory lock makes processes that start
    /// together take turns, so each migration runs once.
    pub fn migrate(&self) -> Result<(), DbError> {
        let mut conn = checkout(&self.pool, &self.usage, Some(START_PATIENCE))?;
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

    /// Says so in the log when the PostgreSQL server does not vacuum by itself (see
    /// [`warn_without_autovacuum`]): called by a server as it starts, not by the command line,
    /// whose output is what it prints.
    pub fn warn_without_autovacuum(&self) {
        if let Ok(mut conn) = self.get()
            && let DbConnection::Postgres(c) = &mut *conn
        {
            warn_without_autovacuum(c);
        }
    }

    /// Gets a pooled connection (blocking), to read: prefer [`Db::run`] from async code, and
    /// write through [`Db::write`] or [`Db::write_blocking`].
    pub fn get(&self) -> Result<Pooled, DbError> {
        checkout(&self.pool, &self.usage, None)
    }

    /// Runs blocking database work on tokio's blocking threads, so request threads never wait
    /// on the pool or on the database. Reads: a write comes through [`Db::write`].
    pub async fn run<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        let pool = self.pool.clone();
        let queued = InQueue::enter(&self.usage);
        let (since, wait_limit) = (Instant::now(), self.wait_limit);
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
            let done = f(&mut conn);
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
        let queued = InQueue::enter(&self.usage);
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

/// True while `conn` is inside a transaction.
pub fn in_transaction(conn: &mut DbConnection) -> bool {
    let status = <DbConnection as Connection>::TransactionManager::transaction_manager_status_mut(conn);
    // A broken transaction manager is in a transaction that can only be rolled back.
    !matches!(status.transaction_depth(), Ok(None))
}

/// True when `conn`'s transaction is lost (a savepoint could not be rolled back or released):
/// it can only be rolled back.
pub(crate) fn in_error(conn: &mut DbConnection) -> bool {
    let status = <DbConnection as Connection>::TransactionManager::transaction_manager_status_mut(conn);
    status.transaction_depth().is_err()
}
