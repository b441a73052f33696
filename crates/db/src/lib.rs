//! The data layer: one Diesel code path over SQLite and PostgreSQL, the r2d2 pool, embedded
//! migrations, the one door writes come through, what changed and what is remembered because of
//! it, paging, UTC time, and fixed-window counters.

pub mod along;
pub mod changes;
mod checkpoint;
mod conn;
mod error;
mod fixed;
mod held;
pub mod jobs;
mod kept;
mod listen;
pub mod model;
pub mod page;
pub mod schema;
mod scope;
mod stored;
pub mod tally;
pub mod throttle;
pub mod time;
mod topic;
mod write;
mod writer;

pub use along::{Along, Alongside};
pub use changes::{Changes, Seen, Told, changed};
pub use conn::{Backend, Db, DbConnection, MultiBackend, PoolOptions, PoolState, START_PATIENCE, in_transaction};
pub use error::DbError;
pub use fixed::{Fixed, LimitInText, OneOf, limit_in_text, one_of};
pub use held::{Held, Holdable, Noted};
pub use kept::Kept;
pub use page::{Keyset, Page, PageRule};
pub use stored::StoredColumn;
pub use topic::{NEW_POST_WINDOW, NewPostsRead, Topic, new_post_floor, written_post};

/// How what is held is hashed: its keys are ids, looked up on every request; foldhash, seeded
/// per map, rather than SipHash (`std`'s default).
pub type FastHash = foldhash::fast::RandomState;
/// A set of ids held in memory, hashed with [`FastHash`].
pub type FastSet<T> = std::collections::HashSet<T, FastHash>;
/// A map by id held in memory, hashed with [`FastHash`].
pub type FastMap<K, V> = std::collections::HashMap<K, V, FastHash>;

/// Re-exported so domain crates and tests use the same Diesel as the schema.
pub use diesel;

/// A boxed query for the multi backend: what a query builder returns when its shape depends on
/// its input (an optional filter, a cursor), e.g.
/// `let q: db::Boxed<'_, posts::table> = posts::table.into_boxed();`.
pub type Boxed<'a, Q> = diesel::dsl::IntoBoxed<'a, Q, MultiBackend>;
