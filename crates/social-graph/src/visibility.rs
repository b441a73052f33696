//! The one rule of what a viewer may see of what people wrote (posts, comments, notifications,
//! a person's page): nothing of a suspended person, whoever looks, signed out included; and
//! nothing across a block, either way. Every place that shows people's work asks it here, in
//! the form that suits it:
//!
//! - [`shown_to`]: a filter on a column naming the writer, for a list read in one statement
//!   (feeds, search, comments, notifications, a post found by id);
//! - [`one_shown_to`]: the same for a list of one known person's work, asked once for all its
//!   rows (a person's posts);
//! - [`suspended_people`], [`all_block_pairs`] and [`block_pairs_of`]: everyone hidden from
//!   every viewer, every pair hidden from each other, and those hidden from one viewer, as sets,
//!   for a list walked in memory (`posts::memory`);
//! - [`is_hidden`]: whether one person is hidden from a viewer (a person's link preview);
//! - [`shown_to_signed_in_sql`]: the rule as SQL text, for the few statements the query builder
//!   cannot write (an `INSERT ... SELECT ... ON CONFLICT`, a like made only where it may be).

use db::DbConnection;
use db::diesel::dsl::not;
use db::diesel::expression::{ValidGrouping, is_aggregate};
use db::diesel::prelude::*;
use db::diesel::query_dsl::methods;
use db::diesel::sql_types::BigInt;
use db::schema::{blocks, suspensions};
use values::UserId;

use crate::fragments::{self, NotBlocked, NotSuspended, PairBlocked, Suspended};

/// Keeps the rows of `q` whose `person` (who wrote them) `viewer` may see: not suspended, and
/// for a signed-in viewer not in a block pair with them. One index probe of `suspensions` and
/// two of `blocks`' keys a row, in the statement the list runs anyway.
pub fn shown_to<Q, C>(q: Q, person: C, viewer: Option<UserId>) -> Q
where
    C: Column<SqlType = BigInt> + Copy + ValidGrouping<(), IsAggregate = is_aggregate::No>,
    Q: methods::FilterDsl<NotSuspended<C>, Output = Q> + methods::FilterDsl<NotBlocked<C>, Output = Q>,
{
    let q = methods::FilterDsl::filter(q, fragments::not_suspended(person));
    match viewer {
        Some(v) => methods::FilterDsl::filter(q, fragments::not_blocked(person, v)),
        None => q,
    }
}

/// [`shown_to`] for rows all written by `person`: the rule is the same for every row, so the
/// database asks it once. (As a rule on each row it left PostgreSQL expecting a single row, so
/// it read all of a person's posts and sorted them instead of walking `posts (user_id, id)`.)
pub fn one_shown_to<Q>(q: Q, person: UserId, viewer: Option<UserId>) -> Q
where
    Q: methods::FilterDsl<not<Suspended>, Output = Q> + methods::FilterDsl<not<PairBlocked>, Output = Q>,
{
    let q = methods::FilterDsl::filter(q, not(fragments::suspended(person)));
    match viewer {
        Some(v) => methods::FilterDsl::filter(q, not(fragments::pair_blocked(person, v))),
        None => q,
    }
}

/// [`shown_to`] for a signed-in viewer as SQL text, for a statement written by hand
/// (`db::Kept`): the rows whose `person` (a column, as the statement names it) the viewer may
/// see. Two binds follow where it stands: the viewer, twice.
pub fn shown_to_signed_in_sql(person: &str) -> String {
    format!(
        "NOT EXISTS (SELECT 1 FROM suspensions s WHERE s.user_id = {person}) \
         AND {person} NOT IN (SELECT b.blocked_id FROM blocks b WHERE b.blocker_id = ?) \
         AND {person} NOT IN (SELECT b.blocker_id FROM blocks b WHERE b.blocked_id = ?)"
    )
}

/// Everyone suspended now (all of `suspensions`, which holds only the accounts suspended now):
/// hidden from every viewer. With [`block_pairs_of`], whose work a viewer is not shown, as sets,
/// for a list walked in memory rather than in a statement.
pub fn suspended_people(conn: &mut DbConnection) -> QueryResult<db::FastSet<UserId>> {
    Ok(suspensions::table.select(suspensions::user_id).load(conn)?.into_iter().collect())
}

/// The people in a block pair with `viewer` (`blocks`' two keys): hidden from them, whoever
/// blocked whom.
pub fn block_pairs_of(conn: &mut DbConnection, viewer: UserId) -> QueryResult<db::FastSet<UserId>> {
    let pairs: Vec<(UserId, UserId)> = blocks::table
        .filter(blocks::blocker_id.eq(viewer).or(blocks::blocked_id.eq(viewer)))
        .select((blocks::blocker_id, blocks::blocked_id))
        .load(conn)?;
    Ok(pairs.into_iter().map(|(blocker, blocked)| if blocker == viewer { blocked } else { blocker }).collect())
}

/// Every block pair (blocker, blocked), when there are at most `at_most` of them: who is hidden
/// from whom, [`block_pairs_of`] for every viewer at once, in one walk of `blocks`' key. None
/// when there are more.
pub fn all_block_pairs(conn: &mut DbConnection, at_most: i64) -> QueryResult<Option<Vec<(UserId, UserId)>>> {
    // By the key, which holds both columns: the index alone is read.
    let pairs: Vec<(UserId, UserId)> = blocks::table
        .select((blocks::blocker_id, blocks::blocked_id))
        .order((blocks::blocker_id, blocks::blocked_id))
        .limit(at_most.saturating_add(1))
        .load(conn)?;
    Ok((pairs.len() as i64 <= at_most).then_some(pairs))
}

/// Whether `person` is hidden from `viewer`: suspended, or in a block pair with them (never
/// from themselves by a block). Key probes, where [`suspended_people`] and [`block_pairs_of`]
/// would read every suspension and block of the viewer to answer about one person.
pub fn is_hidden(conn: &mut DbConnection, person: UserId, viewer: Option<UserId>) -> QueryResult<bool> {
    let suspended: bool = diesel::select(fragments::suspended(person)).get_result(conn)?;
    Ok(suspended
        || match viewer {
            Some(v) if v != person => diesel::select(fragments::pair_blocked(v, person)).get_result(conn)?,
            _ => false,
        })
}
