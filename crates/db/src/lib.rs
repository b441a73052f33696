//! The data layer: one Diesel code path over SQLite and PostgreSQL, the r2d2 pool, embedded
//! migrations, write transactions that compose, paging, UTC time, and fixed-window counters.

pub mod changes;
mod conn;
mod error;
mod fixed;
mod kept;
pub mod model;
pub mod page;
pub mod schema;
pub mod throttle;
pub mod time;
mod writer;

pub use changes::{Changes, Seen, Topic, changed};
pub use conn::{Backend, Db, DbConnection, MultiBackend, PoolOptions, PoolState, in_transaction, one_writer, write_tx};
pub use error::DbError;
pub use fixed::{Fixed, LimitInText, OneOf, limit_in_text, one_of};
pub use kept::Kept;
pub use page::{Keyset, Page, PageRule};

/// Re-exported so domain crates and tests use the same Diesel as the schema.
pub use diesel;

/// A boxed query for the multi backend: what a query builder returns when its shape depends on
/// its input (an optional filter, a cursor), e.g.
/// `let q: db::Boxed<'_, posts::table> = posts::table.into_boxed();`.
pub type Boxed<'a, Q> = diesel::dsl::IntoBoxed<'a, Q, MultiBackend>;
