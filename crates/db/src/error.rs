//! Errors of the data layer itself (pool, migrations, blocking task); query errors are Diesel's.

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
