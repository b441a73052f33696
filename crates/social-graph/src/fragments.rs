//! The block and listening rules as subqueries another domain's query composes, so a feed page
//! stays one query however many people someone blocked or listens to:
//!
//! ```ignore
//! use db::diesel::dsl::not;
//! posts::table
//!     .filter(not(posts::user_id.eq_any(fragments::blocked_by(viewer))))
//!     .filter(not(posts::user_id.eq_any(fragments::blockers_of(viewer))))
//! ```
//!
//! Each is answered from an index: `blocks`' primary key (blocker_id, blocked_id), its
//! (blocked_id, blocker_id) index, and `listens`' primary key (listener_id, listened_id).

use db::diesel::dsl::{Eq, Filter, Select};
use db::diesel::prelude::*;
use db::schema::{blocks, listens};
use values::UserId;

/// The ids of one column of one table, filtered by a user id: what `eq_any` takes as a
/// subquery. (Not boxed: a boxed query only knows the multi backend, and a subquery must be
/// valid SQL for each backend of the query around it.)
pub type UserIds<T, Key, Value> = Select<Filter<T, Eq<Key, UserId>>, Value>;

/// The people `viewer` has blocked.
pub fn blocked_by(viewer: UserId) -> UserIds<blocks::table, blocks::blocker_id, blocks::blocked_id> {
    blocks::table.filter(blocks::blocker_id.eq(viewer)).select(blocks::blocked_id)
}

/// The people who have blocked `viewer`.
pub fn blockers_of(viewer: UserId) -> UserIds<blocks::table, blocks::blocked_id, blocks::blocker_id> {
    blocks::table.filter(blocks::blocked_id.eq(viewer)).select(blocks::blocker_id)
}

/// The people `viewer` listens to. (The Listened to feed does not use it as `user_id IN (...)`:
/// at a million posts SQLite then collects and sorts every post of every listened person; see
/// docs/posts.md, "Planner traps".)
pub fn listened_by(viewer: UserId) -> UserIds<listens::table, listens::listener_id, listens::listened_id> {
    listens::table.filter(listens::listener_id.eq(viewer)).select(listens::listened_id)
}
