//! The block rule as subqueries another domain's query composes, so a feed page stays one query
//! however many people someone blocked:
//!
//! ```ignore
//! posts::table.filter(fragments::not_blocked(posts::user_id, viewer))
//! ```
//!
//! Each is answered from an index: `blocks`' primary key (blocker_id, blocked_id) and its
//! (blocked_id, blocker_id) index. Beside the block rule stands the suspension rule
//! ([`not_suspended`]: what a suspended account wrote is hidden from everyone, signed out
//! included), a probe of `suspensions (user_id)` per row. Lists apply the two together through
//! [`crate::visibility`]. (The Listened to feed asks `listens` itself, walking or merging
//! rather than `user_id IN (...)`: docs/posts.md, "Planner traps".)

use db::diesel::dsl::{self, And, Eq, EqAny, Filter, Select, exists, not};
use db::diesel::expression::{ValidGrouping, is_aggregate};
use db::diesel::prelude::*;
use db::diesel::sql_types::BigInt;
use db::schema::{blocks, suspensions};
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

/// The filter of the block rule (nothing passes between a block pair): rows whose `person`
/// column is someone neither blocked by `viewer` nor blocking them. Every list that shows
/// people's posts, comments or notifications to a viewer filters with it.
pub fn not_blocked<C>(person: C, viewer: UserId) -> NotBlocked<C>
where
    C: Column<SqlType = BigInt> + Copy,
{
    not(person.eq_any(blocked_by(viewer))).and(not(person.eq_any(blockers_of(viewer))))
}

/// What [`not_blocked`] answers.
pub type NotBlocked<C> = And<
    dsl::not<EqAny<C, UserIds<blocks::table, blocks::blocker_id, blocks::blocked_id>>>,
    dsl::not<EqAny<C, UserIds<blocks::table, blocks::blocked_id, blocks::blocker_id>>>,
>;

/// The filter of the suspension rule: rows whose `person` column is someone not suspended (a
/// correlated `NOT EXISTS` on the unique index `suspensions (user_id)`, one index probe a row,
/// in the statement the list runs anyway). Every list that shows people's posts, comments or
/// notifications filters with it, whoever looks, so lifting the suspension shows them again.
pub fn not_suspended<C>(person: C) -> NotSuspended<C>
where
    C: Column<SqlType = BigInt> + Copy + ValidGrouping<(), IsAggregate = is_aggregate::No>,
{
    not(exists(suspensions::table.filter(suspensions::user_id.eq(person))))
}

/// What [`not_suspended`] answers.
pub type NotSuspended<C> = dsl::not<dsl::exists<Filter<suspensions::table, Eq<suspensions::user_id, C>>>>;

/// Whether `a` and `b` are a block pair, as a condition another query holds: one probe of each
/// of `blocks`' two keys. With both people known (one person's posts, as someone sees them) the
/// rule is the same for every row, and the database asks it once.
pub fn pair_blocked(a: UserId, b: UserId) -> PairBlocked {
    exists(
        blocks::table.filter(
            (blocks::blocker_id.eq(a).and(blocks::blocked_id.eq(b)))
                .or(blocks::blocker_id.eq(b).and(blocks::blocked_id.eq(a))),
        ),
    )
}

/// What [`pair_blocked`] answers.
pub type PairBlocked = dsl::exists<
    Filter<
        blocks::table,
        dsl::Or<
            And<Eq<blocks::blocker_id, UserId>, Eq<blocks::blocked_id, UserId>>,
            And<Eq<blocks::blocker_id, UserId>, Eq<blocks::blocked_id, UserId>>,
        >,
    >,
>;

/// Whether `person` is suspended, as a condition another query holds (one probe).
pub fn suspended(person: UserId) -> Suspended {
    exists(suspensions::table.filter(suspensions::user_id.eq(person)))
}

/// What [`suspended`] answers.
pub type Suspended = dsl::exists<Filter<suspensions::table, Eq<suspensions::user_id, UserId>>>;
