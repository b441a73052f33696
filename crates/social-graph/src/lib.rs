//! Who listens to whom, who blocked whom, and the rule that a blocked pair cannot listen.
//!
//! Listener counts live on the user rows and change in the same transaction as the listening
//! rows, so reading them never counts rows. Every write here is idempotent: listening twice, or
//! unblocking someone not blocked, succeeds and changes nothing.

use std::collections::HashSet;

use db::diesel::dsl::exists;
use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Timestamp};
use db::model::UserCard;
use db::schema::{blocks, listens, users};
use db::{DbConnection, Id, write_tx};

#[derive(Debug, thiserror::Error)]
pub enum GraphError {
    #[error("User not found")]
    UserNotFound,
    #[error("You cannot listen to yourself")]
    SelfListen,
    #[error("You cannot block yourself")]
    SelfBlock,
    #[error("Cannot listen to this user because either you have blocked them or they have blocked you.")]
    Blocked,
    #[error(transparent)]
    Db(#[from] db::DbError),
}

impl From<diesel::result::Error> for GraphError {
    fn from(e: diesel::result::Error) -> Self {
        GraphError::Db(e.into())
    }
}

/// How many of the listed users are answered at most by the list calls.
pub const MAX_LIST: i64 = 1000;

fn user_exists(conn: &mut DbConnection, id: Id) -> QueryResult<bool> {
    diesel::select(exists(users::table.filter(users::id.eq(id.0)))).get_result(conn)
}

/// True when either of the two has blocked the other.
pub fn blocked_between(conn: &mut DbConnection, a: Id, b: Id) -> QueryResult<bool> {
    diesel::select(exists(
        blocks::table.filter(
            (blocks::blocker_id.eq(a.0).and(blocks::blocked_id.eq(b.0)))
                .or(blocks::blocker_id.eq(b.0).and(blocks::blocked_id.eq(a.0))),
        ),
    ))
    .get_result(conn)
}

// `$1`.. first appear in order, which PostgreSQL (positional) and SQLite (named parameters
// numbered by first appearance) bind alike; `ON CONFLICT DO NOTHING` is understood by both.
const INSERT_LISTEN: &str =
    "INSERT INTO listens (listener_id, listened_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";
const INSERT_BLOCK: &str =
    "INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";

fn add_counts(conn: &mut DbConnection, listener: Id, listened: Id, delta: i64) -> QueryResult<()> {
    diesel::update(users::table.filter(users::id.eq(listener.0)))
        .set(users::listened_to_count.eq(users::listened_to_count + delta))
        .execute(conn)?;
    diesel::update(users::table.filter(users::id.eq(listened.0)))
        .set(users::listeners_count.eq(users::listeners_count + delta))
        .execute(conn)?;
    Ok(())
}

/// `me` starts listening to `target`. Answers whether anything changed.
pub fn listen(conn: &mut DbConnection, me: Id, target: Id) -> Result<bool, GraphError> {
    if me == target {
        return Err(GraphError::SelfListen);
    }
    write_tx(conn, |conn| {
        if !user_exists(conn, target)? {
            return Err(GraphError::UserNotFound);
        }
        if blocked_between(conn, me, target)? {
            return Err(GraphError::Blocked);
        }
        let inserted = diesel::sql_query(INSERT_LISTEN)
            .bind::<BigInt, _>(me.0)
            .bind::<BigInt, _>(target.0)
            .bind::<Timestamp, _>(db::time::now())
            .execute(conn)?;
        if inserted == 1 {
            add_counts(conn, me, target, 1)?;
        }
        Ok(inserted == 1)
    })
}

fn remove_listen(conn: &mut DbConnection, listener: Id, listened: Id) -> QueryResult<bool> {
    let removed = diesel::delete(
        listens::table.filter(listens::listener_id.eq(listener.0)).filter(listens::listened_id.eq(listened.0)),
    )
    .execute(conn)?;
    if removed == 1 {
        add_counts(conn, listener, listened, -1)?;
    }
    Ok(removed == 1)
}

/// `me` stops listening to `target`. Answers whether anything changed.
pub fn unlisten(conn: &mut DbConnection, me: Id, target: Id) -> Result<bool, GraphError> {
    write_tx(conn, |conn| {
        if !user_exists(conn, target)? {
            return Err(GraphError::UserNotFound);
        }
        Ok(remove_listen(conn, me, target)?)
    })
}

/// `me` blocks `target`; any listening between the two ends, both ways, counters included.
pub fn block(conn: &mut DbConnection, me: Id, target: Id) -> Result<bool, GraphError> {
    if me == target {
        return Err(GraphError::SelfBlock);
    }
    write_tx(conn, |conn| {
        if !user_exists(conn, target)? {
            return Err(GraphError::UserNotFound);
        }
        let inserted = diesel::sql_query(INSERT_BLOCK)
            .bind::<BigInt, _>(me.0)
            .bind::<BigInt, _>(target.0)
            .bind::<Timestamp, _>(db::time::now())
            .execute(conn)?;
        remove_listen(conn, me, target)?;
        remove_listen(conn, target, me)?;
        Ok(inserted == 1)
    })
}

pub fn unblock(conn: &mut DbConnection, me: Id, target: Id) -> Result<bool, GraphError> {
    write_tx(conn, |conn| {
        if !user_exists(conn, target)? {
            return Err(GraphError::UserNotFound);
        }
        let removed =
            diesel::delete(blocks::table.filter(blocks::blocker_id.eq(me.0)).filter(blocks::blocked_id.eq(target.0)))
                .execute(conn)?;
        Ok(removed == 1)
    })
}

/// Whether `me` has blocked `target` (what the profile's block menu shows).
pub fn has_blocked(conn: &mut DbConnection, me: Id, target: Id) -> Result<bool, GraphError> {
    if !user_exists(conn, target)? {
        return Err(GraphError::UserNotFound);
    }
    Ok(diesel::select(exists(
        blocks::table.filter(blocks::blocker_id.eq(me.0)).filter(blocks::blocked_id.eq(target.0)),
    ))
    .get_result(conn)?)
}

/// The people `me` has blocked, most recent first.
pub fn blocked_users(conn: &mut DbConnection, me: Id) -> Result<Vec<UserCard>, GraphError> {
    Ok(blocks::table
        .inner_join(users::table.on(users::id.eq(blocks::blocked_id)))
        .filter(blocks::blocker_id.eq(me.0))
        .order(blocks::created_at.desc())
        .limit(MAX_LIST)
        .select(UserCard::as_select())
        .load(conn)?)
}

/// The people `me` listens to, most recent first.
pub fn listened_to(conn: &mut DbConnection, me: Id, limit: i64, offset: i64) -> Result<Vec<UserCard>, GraphError> {
    Ok(listens::table
        .inner_join(users::table.on(users::id.eq(listens::listened_id)))
        .filter(listens::listener_id.eq(me.0))
        .order(listens::created_at.desc())
        .limit(limit.clamp(1, MAX_LIST))
        .offset(offset.max(0))
        .select(UserCard::as_select())
        .load(conn)?)
}

/// Which of `candidates` `me` listens to: one query for a whole page of people.
pub fn listening_among(conn: &mut DbConnection, me: Id, candidates: &[i64]) -> Result<HashSet<i64>, GraphError> {
    if candidates.is_empty() {
        return Ok(HashSet::new());
    }
    let found: Vec<i64> = listens::table
        .filter(listens::listener_id.eq(me.0))
        .filter(listens::listened_id.eq_any(candidates))
        .select(listens::listened_id)
        .load(conn)?;
    Ok(found.into_iter().collect())
}

/// The authors whose posts `viewer` must not see: the people `viewer` blocked.
///
/// Hook for the posts issue: feeds and post searches filter with
/// `posts.user_id NOT IN (SELECT blocked_id FROM blocks WHERE blocker_id = :viewer)`, which
/// `blocks`' primary key (blocker_id, blocked_id) answers from the index.
pub fn hidden_authors(conn: &mut DbConnection, viewer: Id) -> Result<HashSet<i64>, GraphError> {
    let ids: Vec<i64> = blocks::table.filter(blocks::blocker_id.eq(viewer.0)).select(blocks::blocked_id).load(conn)?;
    Ok(ids.into_iter().collect())
}

/// Before an account is deleted: the people it listened to lose a listener and the people who
/// listened to it listen to one fewer. The rows themselves go by cascade.
pub fn detach_user(conn: &mut DbConnection, user: Id) -> Result<(), GraphError> {
    diesel::update(
        users::table.filter(
            users::id.eq_any(listens::table.filter(listens::listener_id.eq(user.0)).select(listens::listened_id)),
        ),
    )
    .set(users::listeners_count.eq(users::listeners_count - 1))
    .execute(conn)?;
    diesel::update(
        users::table.filter(
            users::id.eq_any(listens::table.filter(listens::listened_id.eq(user.0)).select(listens::listener_id)),
        ),
    )
    .set(users::listened_to_count.eq(users::listened_to_count - 1))
    .execute(conn)?;
    Ok(())
}
