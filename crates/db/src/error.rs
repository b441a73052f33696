//! Errors of the data layer itself (pool, migrations, blocking task, transaction misuse); query
//! errors are Diesel's.

use values::{DomainError, ErrorKind};

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("database query failed")]
    Query(#[from] diesel::result::Error),
    #[error("could not get a database connection from the pool")]
    Pool(#[from] diesel::r2d2::PoolError),
    #[error("could not connect to the database: {0}")]
    Connect(String),
    #[error("database migrations failed: {0}")]
    Migration(String),
    #[error("database task was cancelled")]
    TaskCancelled,
    /// Every connection stayed busy for as long as a call may wait for one.
    #[error("every database connection is busy")]
    Busy,
    /// The writes of a group ([`crate::Db::write`]) could not be committed; none of them stands.
    #[error("the write could not be committed: {0}")]
    Commit(String),
    /// A use case began a write inside another: a programming error, refused before anything
    /// ran (see `crate::write`).
    #[error("a write began inside another: a use case is exactly one write")]
    NestedTransaction,
}

impl DbError {
    /// True when the error is a unique-constraint violation (a value that must be unique is taken).
    pub fn is_unique_violation(&self) -> bool {
        matches!(
            self,
            DbError::Query(diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, _))
        )
    }
}

impl DomainError for DbError {
    fn kind(&self) -> ErrorKind {
        match self {
            // Every connection is busy, or the database cannot be reached (the pool tries to
            // connect until its timeout): trying again in a moment may work.
            DbError::Pool(_) | DbError::Busy => ErrorKind::Unavailable,
            // The connection died under the query (the database restarted, or an operator
            // ended the connection): the pool replaces it, so the next request may well work.
            DbError::Query(diesel::result::Error::DatabaseError(
                diesel::result::DatabaseErrorKind::ClosedConnection
                | diesel::result::DatabaseErrorKind::UnableToSendCommand,
                _,
            ))
            | DbError::Query(diesel::result::Error::BrokenTransactionManager) => ErrorKind::Unavailable,
            _ => ErrorKind::Internal,
        }
    }
}
