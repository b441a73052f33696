//! The door every write comes through.
//!
//! **One use case, one transaction.** Repository functions of the domain crates take
//! `&mut DbConnection` and run inside whatever transaction their caller has open; the entry
//! point of a use case (one service method per user action) hands its body to [`Db::write`],
//! which runs it as one transaction, stamps what it changed once it has committed
//! (`crate::changes`), and only then answers. A write inside another is refused with
//! [`DbError::NestedTransaction`] before it runs anything, on both backends, so a composition
//! mistake fails loudly in the first test that runs it instead of silently turning into a
//! savepoint (PostgreSQL) or an error halfway (SQLite).
//!
//! Nobody else opens a transaction: the transaction of this module is private, and clippy
//! refuses Diesel's `Connection::transaction` outside this crate (`clippy.toml`). Two siblings
//! of [`Db::write`] exist for what cannot be a grouped transaction:
//! - [`Db::write_blocking`], for callers outside the async runtime (the command line, the
//!   start-up grant of `ADMIN_EMAILS`, seeding, tests holding a connection): on SQLite it runs
//!   on a pooled connection at the writer's gate, not in a group, since a group answers through
//!   the runtime;
//! - [`Db::write_without_transaction`], for the few statements of a request's own bookkeeping
//!   that need no transaction (the write limit's counters, marking a session as used): on
//!   PostgreSQL each commits alone, saving two round trips; on SQLite it joins a group as
//!   [`Db::write`] does.
//!
//! [`Db::write_lightly`] is [`Db::write`] for a toggle whose loss is harmless when the database
//! server itself crashes in the moment after it committed (a like, a repost): on PostgreSQL it
//! commits without waiting for its log to reach the disk (`synchronous_commit` off for that
//! transaction alone). What it wrote is never half there: PostgreSQL replays its log whole or
//! not at all, so a crash can only lose the last fraction of a second of such toggles, all of
//! each or none.

use diesel::Connection;
use diesel::connection::{AnsiTransactionManager, TransactionManager};

use crate::conn::{checkout, in_transaction};
use crate::scope::Scope;
use crate::{Changes, Db, DbConnection, DbError, Topic};

impl Db {
    /// Runs `f` as one write transaction: the one transaction of a use case, answered once it
    /// has committed and what it changed is stamped. On SQLite it joins the next group of this
    /// process's writer ([`crate::writer`]): one thread runs write transactions back to back,
    /// each under its own savepoint, and commits them together. On PostgreSQL, where each
    /// connection writes for itself, it is a transaction on a pooled connection.
    pub async fn write<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<diesel::result::Error> + From<DbError> + Send + 'static,
    {
        self.write_as(Commit::Durable, f).await
    }

    /// [`Db::write`] for a toggle whose last moments a crash of the database server may lose
    /// without harm (see the module): on PostgreSQL the commit does not wait for the disk, which
    /// takes a third of a like's cost there; on SQLite it is [`Db::write`] (the writer commits
    /// groups of writes at once).
    pub async fn write_lightly<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<diesel::result::Error> + From<DbError> + Send + 'static,
    {
        self.write_as(Commit::Lazy, f).await
    }

    async fn write_as<T, E, F>(&self, commit: Commit, f: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<diesel::result::Error> + From<DbError> + Send + 'static,
    {
        match &self.writer {
            Some(writer) => writer.write(&self.usage, false, f).await,
            None => {
                let changes = self.changes.clone();
                self.run(move |conn| transaction(conn, &changes, commit, f)).await
            }
        }
    }

    /// [`Db::write`] for a caller outside the async runtime, which waits for it here (see the
    /// module). On SQLite it waits for the writer's gate, then writes on a pooled connection.
    pub fn write_blocking<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E>,
        E: From<diesel::result::Error> + From<DbError>,
    {
        if crate::scope::is_open() {
            return Err(DbError::NestedTransaction.into());
        }
        let mut conn = checkout(&self.pool, &self.usage, None)?;
        let _turn = self.gate.as_ref().map(|gate| gate.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        transaction(&mut conn, &self.changes, Commit::Durable, f)
    }

    /// Runs `f`, whose few writes need no transaction of their own (a counter, a note that a
    /// session was used): on PostgreSQL on a pooled connection, each statement committing alone;
    /// on SQLite in the writer's next group, as [`Db::write`] does. Either way what it wrote
    /// stands even when it answers an error (a counter past its limit still counted), and what
    /// it names changed is stamped once it is done.
    pub async fn write_without_transaction<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<diesel::result::Error> + From<DbError> + Send + 'static,
    {
        match &self.writer {
            Some(writer) => writer.write(&self.usage, true, f).await,
            None => {
                let changes = self.changes.clone();
                self.run(move |conn| {
                    let scope = Scope::open().ok_or(DbError::NestedTransaction)?;
                    let done = f(conn);
                    let named = scope.close();
                    changes.send(conn, &named)?;
                    changes.stamp(&named);
                    done
                })
                .await
            }
        }
    }
}

/// Whether a PostgreSQL commit waits for its log to reach the disk.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Commit {
    Durable,
    /// `synchronous_commit` off for this transaction, set as it begins (in the same round trip).
    Lazy,
}

/// Runs `f` in one transaction meant to write, in its own write scope, and stamps what it
/// changed in `changes` once it has committed. On SQLite it starts with `BEGIN IMMEDIATE`, so
/// the write lock is taken up front and another process's writer waits (busy_timeout) instead
/// of failing halfway with SQLITE_BUSY; on PostgreSQL it is a plain transaction that sends what
/// it changed to the other processes before it commits. Called inside another write it refuses
/// with [`DbError::NestedTransaction`] and runs nothing.
fn transaction<T, E, F>(conn: &mut DbConnection, changes: &Changes, commit: Commit, f: F) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E>,
    E: From<diesel::result::Error> + From<DbError>,
{
    if in_transaction(conn) {
        return Err(DbError::NestedTransaction.into());
    }
    let Some(scope) = Scope::open() else { return Err(DbError::NestedTransaction.into()) };
    let done = match conn {
        // What changed is sent inside the transaction: PostgreSQL delivers it on commit.
        DbConnection::Postgres(pg) => {
            #[allow(clippy::disallowed_methods)]
            let begun = match commit {
                Commit::Durable => AnsiTransactionManager::begin_transaction_sql(pg, "BEGIN"),
                Commit::Lazy => AnsiTransactionManager::begin_transaction_sql(pg, LAZY_BEGIN),
            };
            begun.map_err(E::from).and_then(|()| match f(conn) {
                Ok(value) => match commit_telling(conn, changes, &scope.named()) {
                    Ok(()) => Ok(value),
                    Err(e) => Err(e.into()),
                },
                Err(e) => {
                    let _ = <DbConnection as Connection>::TransactionManager::rollback_transaction(conn);
                    Err(e)
                }
            })
        }
        DbConnection::Sqlite(c) => begin_immediate(c).map_err(E::from).and_then(|()| match f(conn) {
            Ok(value) => match <DbConnection as Connection>::TransactionManager::commit_transaction(conn) {
                Ok(()) => Ok(value),
                Err(e) => Err(e.into()),
            },
            Err(e) => {
                // The error that made us roll back is the one worth reporting.
                let _ = <DbConnection as Connection>::TransactionManager::rollback_transaction(conn);
                Err(e)
            }
        }),
    };
    let named: Vec<Topic> = scope.close();
    if done.is_ok() {
        changes.stamp(&named);
    }
    done
}

/// A PostgreSQL transaction whose commit does not wait for the disk: one simple query of both.
const LAZY_BEGIN: &str = "BEGIN; SET LOCAL synchronous_commit = off";

/// Commits the PostgreSQL transaction under way, sending what it changed to the other processes
/// (`pg_notify`, delivered on commit) in the same round trip: one simple query of both
/// statements, where Diesel's commit after a bound `pg_notify` took two. The payload is inlined,
/// which its alphabet allows ([`Changes::payload_text`]); a commit that fails rolls back, as
/// Diesel's does.
fn commit_telling(conn: &mut DbConnection, changes: &Changes, topics: &[Topic]) -> diesel::QueryResult<()> {
    use diesel::connection::SimpleConnection;
    let (DbConnection::Postgres(pg), Some(payload)) = (&mut *conn, changes.payload_text(topics)) else {
        changes.send(conn, topics)?;
        return <DbConnection as Connection>::TransactionManager::commit_transaction(conn);
    };
    // The connection's transaction manager follows libpq's status after the query: no longer
    // in a transaction once it has committed (or failed and rolled back).
    let sql = format!("SELECT pg_notify('{}', '{payload}'); COMMIT", crate::changes::CHANNEL);
    let committed = pg.batch_execute(&sql);
    if committed.is_err() && in_transaction(conn) {
        let _ = <DbConnection as Connection>::TransactionManager::rollback_transaction(conn);
    }
    committed
}

/// Begins a transaction that takes SQLite's write lock at once.
#[allow(clippy::disallowed_methods)]
pub(crate) fn begin_immediate(c: &mut diesel::sqlite::SqliteConnection) -> diesel::QueryResult<()> {
    AnsiTransactionManager::begin_transaction_sql(c, "BEGIN IMMEDIATE")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_db() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let url = dir.path().join("w.sqlite3").display().to_string();
        let db = Db::connect(&url, &crate::PoolOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        (dir, db)
    }

    /// What is named changed is stamped once the write has committed, and not at all when it
    /// rolls back; outside a write nothing may be named.
    #[test]
    fn changes_are_told_on_commit_only() {
        let (_dir, db) = temp_db();
        let Some(seen) = db.changes().seen() else { panic!("SQLite trusts its changes") };
        let (kept, lost) = (Topic::Sessions(values::UserId::generate()), Topic::Unread(values::UserId::generate()));
        let failed: Result<(), DbError> = db.write_blocking(|c| {
            crate::changed(c, &[lost])?;
            Err(DbError::Busy)
        });
        assert!(failed.is_err());
        assert!(db.changes().unchanged(seen, [lost]), "a failed write tells nothing");
        let stood: Result<(), DbError> = db.write_blocking(|c| Ok(crate::changed(c, &[kept])?));
        assert!(stood.is_ok());
        assert!(!db.changes().unchanged(seen, [kept]), "told by the time it is answered");
        let mut c = db.get().unwrap_or_else(|e| panic!("{e}"));
        assert!(crate::changed(&mut c, &[kept]).is_err(), "no write under way");
    }
}
