//! The data layer: one Diesel code path over SQLite and PostgreSQL, the r2d2 pool, embedded
//! migrations, application-generated ids, UTC time and fresh databases for tests.

mod conn;
mod error;
pub mod id;
pub mod model;
pub mod schema;
#[cfg(feature = "testing")]
pub mod testing;
pub mod time;

pub use conn::{Backend, Db, DbConnection, PoolOptions, write_tx};
pub use error::DbError;
pub use id::Id;

/// Re-exported so domain crates and tests use the same Diesel as the schema.
pub use diesel;
