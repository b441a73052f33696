//! What a person's archive ("Download my data", `app::export`) reads of this domain: whom they
//! listen to, who listens to them and whom they blocked, everyone included (the archive is the
//! person's own record, not what a viewer may see), a page at a time in the order of an index.

use chrono::NaiveDateTime;
use db::DbConnection;
use db::diesel::prelude::*;
use db::model::UserCard;
use db::schema::{blocks, listens, users};
use values::UserId;

use crate::Side;

/// Another person and when the tie with them began.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tie {
    pub person: UserCard,
    pub since: NaiveDateTime,
}

/// Where a page of ties ended: when its last tie began, and with whom.
pub type TieCursor = (NaiveDateTime, UserId);

/// Up to `limit` of `user`'s listens on `side`, oldest first, after `after`: one walk of
/// `listens (listener_id | listened_id, created_at, …)`.
pub fn listens(
    conn: &mut DbConnection,
    user: UserId,
    side: Side,
    after: Option<TieCursor>,
    limit: i64,
) -> QueryResult<Vec<Tie>> {
    macro_rules! walk {
        ($mine:expr, $theirs:expr) => {{
            let mut q = listens::table
                .inner_join(users::table.on(users::id.eq($theirs)))
                .filter($mine.eq(user))
                .select((UserCard::as_select(), listens::created_at))
                .into_boxed();
            if let Some((at, id)) = after {
                // A range of the index first (`created_at >=`), then past the last of that moment.
                q = q.filter(listens::created_at.ge(at)).filter(listens::created_at.gt(at).or($theirs.gt(id)));
            }
            q.order((listens::created_at, $theirs)).limit(limit).load::<(UserCard, NaiveDateTime)>(conn)?
        }};
    }
    let rows = match side {
        Side::Listeners => walk!(listens::listened_id, listens::listener_id),
        Side::ListenedTo => walk!(listens::listener_id, listens::listened_id),
    };
    Ok(rows.into_iter().map(|(person, since)| Tie { person, since }).collect())
}

/// Up to `limit` of the people `user` blocked, by id, after `after`: the primary key's walk.
pub fn blocked(conn: &mut DbConnection, user: UserId, after: Option<UserId>, limit: i64) -> QueryResult<Vec<Tie>> {
    let mut q = blocks::table
        .inner_join(users::table.on(users::id.eq(blocks::blocked_id)))
        .filter(blocks::blocker_id.eq(user))
        .select((UserCard::as_select(), blocks::created_at))
        .into_boxed();
    if let Some(after) = after {
        q = q.filter(blocks::blocked_id.gt(after));
    }
    let rows: Vec<(UserCard, NaiveDateTime)> = q.order(blocks::blocked_id).limit(limit).load(conn)?;
    Ok(rows.into_iter().map(|(person, since)| Tie { person, since }).collect())
}
