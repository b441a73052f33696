//! The one rule of what a viewer may see of what people wrote (posts, comments, notifications,
//! a person's page): nothing of a suspended person, whoever looks, signed out included; and
//! nothing across a block, either way. Every place that shows people's work asks it here, in
//! the form that suits it:
//!
//! - [`shown_to`]: a filter on a column naming the writer, for a list read in one statement
//!   (feeds, search, comments, notifications, a post found by id);
//! - [`one_shown_to`]: the same for a list of one known person's work, asked once for all its
//!   rows (a person's posts);
//! - [`hidden_from`]: everyone hidden from a viewer, as a set, for a list walked in memory
//!   (`posts::memory`);
//! - [`is_hidden`]: whether one person is hidden from a viewer (a person's link preview).

use std::collections::HashSet;

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

/// Whose work `viewer` is not shown, as a set, for a list walked in memory rather than in a
/// statement: everyone suspended (all of `suspensions`, which holds only the accounts suspended
/// now), and the people in a block pair with the viewer (`blocks`' two keys).
pub fn hidden_from(conn: &mut DbConnection, viewer: Option<UserId>) -> QueryResult<HashSet<UserId>> {
    let mut hidden: HashSet<UserId> = suspensions::table.select(suspensions::user_id).load(conn)?.into_iter().collect();
    if let Some(v) = viewer {
        let pairs: Vec<(UserId, UserId)> = blocks::table
            .filter(blocks::blocker_id.eq(v).or(blocks::blocked_id.eq(v)))
            .select((blocks::blocker_id, blocks::blocked_id))
            .load(conn)?;
        hidden.extend(pairs.into_iter().map(|(blocker, blocked)| if blocker == v { blocked } else { blocker }));
    }
    Ok(hidden)
}

/// Whether `person` is hidden from `viewer`: suspended, or in a block pair with them (never
/// from themselves by a block). Key probes, where [`hidden_from`] would read every suspension
/// and block of the viewer to answer about one person.
pub fn is_hidden(conn: &mut DbConnection, person: UserId, viewer: Option<UserId>) -> QueryResult<bool> {
    let suspended: bool = diesel::select(fragments::suspended(person)).get_result(conn)?;
    Ok(suspended
        || match viewer {
            Some(v) if v != person => diesel::select(fragments::pair_blocked(v, person)).get_result(conn)?,
            _ => false,
        })
}
