//! Reads and writes of notifications. They run inside their caller's transaction.

use std::collections::HashSet;

use db::diesel::dsl::not;
use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Bool, Nullable, Text, Timestamp};
use db::model::UserCard;
use db::schema::{notifications, sessions, users};
use db::{DbConnection, Page, Topic};
use social_graph::visibility;
use values::{CommentId, NotificationId, SessionId, UserId};

use crate::NotificationError;
use crate::model::{Event, Kind, ListedRow, Notification, NotificationRow};

/// The unread badge counts up to this many (and shows "99+" past 99): counting further would
/// cost a popular person's every page view for a number nobody reads.
pub const UNREAD_CAP: i64 = 100;

/// Writes the notifications `events` call for, inside the transaction of what caused them, and
/// answers whose unread count changed (their open streams are told once it commits:
/// [`signal`]).
///
/// Rules: nobody is notified of their own action; nothing passes between a block pair; a like
/// or a listen notifies once, however often it is taken back and given again, and a mention
/// once per comment, however often the comment is edited to drop and add it again; someone
/// both mentioned in a comment and the author of the post it is on gets the mention alone.
pub fn record(conn: &mut DbConnection, events: &[Event]) -> Result<Vec<UserId>, NotificationError> {
    record_where(conn, events, Blocks::Ask)
}

/// [`record`] for events between people the caller found in no block pair a moment ago, in the
/// same transaction (a like that was let in only where the liker may see the post): the blocks
/// are not asked again, which saves a like a round trip on PostgreSQL.
pub fn record_unblocked(conn: &mut DbConnection, events: &[Event]) -> Result<Vec<UserId>, NotificationError> {
    record_where(conn, events, Blocks::Checked)
}

/// Whether [`record_where`] asks which of its events pass between a block pair.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Blocks {
    Ask,
    Checked,
}

fn record_where(conn: &mut DbConnection, events: &[Event], blocks: Blocks) -> Result<Vec<UserId>, NotificationError> {
    let mut wanted: Vec<&Event> = events.iter().filter(|e| e.recipient != e.sender).collect();
    let mentioned: HashSet<(UserId, Option<values::PostId>)> =
        wanted.iter().filter(|e| e.kind == Kind::Mention).map(|e| (e.recipient, e.post)).collect();
    wanted.retain(|e| !(e.kind == Kind::Comment && mentioned.contains(&(e.recipient, e.post))));

    if blocks == Blocks::Ask {
        let senders: HashSet<UserId> = wanted.iter().map(|e| e.sender).collect();
        let mut blocked: HashSet<(UserId, UserId)> = HashSet::new();
        for sender in senders {
            let recipients: Vec<UserId> = wanted.iter().filter(|e| e.sender == sender).map(|e| e.recipient).collect();
            for other in social_graph::blocked_among(conn, sender, &recipients)? {
                blocked.insert((sender, other));
            }
        }
        wanted.retain(|e| !blocked.contains(&(e.sender, e.recipient)));
    }

    let now = db::time::now();
    let mut written = Vec::new();
    let mut pushed = Vec::new();
    for e in wanted {
        let once = e.kind.told_once() || (e.kind == Kind::Mention && e.comment.is_some());
        let row = NotificationRow {
            id: NotificationId::generate(),
            recipient_id: e.recipient,
            sender_id: e.sender,
            kind: e.kind,
            post_id: e.post,
            excerpt: e.excerpt.clone(),
            created_at: now,
            is_read: false,
            comment_id: e.comment,
        };
        if once {
            if !insert_unless_told(conn, &row)? {
                continue;
            }
        } else {
            diesel::insert_into(notifications::table).values(&row).execute(conn)?;
        }
        pushed.push((row.id, e.recipient, e.kind));
        if !written.contains(&e.recipient) {
            written.push(e.recipient);
        }
    }
    crate::push::queue(conn, &pushed)?;
    signal(conn, &written)?;
    Ok(written)
}

/// Writes `row` unless its recipient was told of the same like, listen or mention in a comment
/// before (by the same sender: of the comment, else of the post, else with no post; index: the
/// comment's notifications, the post's by sender, or the sender's by recipient), in one
/// statement: whether it was written. A like once asked first, then wrote (issue 30).
fn insert_unless_told(conn: &mut DbConnection, row: &NotificationRow) -> QueryResult<bool> {
    const INSERT: &str = "INSERT INTO notifications \
        (id, recipient_id, sender_id, kind, post_id, excerpt, created_at, is_read, comment_id) \
        SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM notifications \
        WHERE sender_id = ? AND recipient_id = ? AND kind = ? AND ";
    let (same, key) = match (row.comment_id, row.post_id) {
        (Some(comment), _) => ("comment_id = ?)", Some(comment.get())),
        (None, Some(post)) => ("post_id = ?)", Some(post.get())),
        (None, None) => ("post_id IS NULL)", None),
    };
    // One of three texts, each kept prepared.
    let statement = db::Kept::made(format!("{INSERT}{same}"))
        .bind::<BigInt, _>(row.id)
        .bind::<BigInt, _>(row.recipient_id)
        .bind::<BigInt, _>(row.sender_id)
        .bind::<Text, _>(row.kind.as_str())
        .bind::<Nullable<BigInt>, _>(row.post_id.map(|p| p.get()))
        .bind::<Nullable<Text>, _>(row.excerpt.clone())
        .bind::<Timestamp, _>(row.created_at)
        .bind::<Bool, _>(row.is_read)
        .bind::<Nullable<BigInt>, _>(row.comment_id.map(|c| c.get()))
        .bind::<BigInt, _>(row.sender_id)
        .bind::<BigInt, _>(row.recipient_id)
        .bind::<Text, _>(row.kind.as_str());
    let statement = match key {
        Some(key) => statement.bind::<BigInt, _>(key),
        None => statement,
    };
    Ok(statement.execute(conn)? > 0)
}

/// How many people were told of a mention in `comment`, over its life (its first text and
/// every edit): a comment's edits share the cap on the people it tells (issue 29: edited twice,
/// one comment once told 30). One count by the comment's index.
pub fn mentions_told(conn: &mut DbConnection, comment: CommentId) -> QueryResult<usize> {
    let told: i64 = notifications::table
        .filter(notifications::comment_id.eq(comment))
        .filter(notifications::kind.eq(Kind::Mention))
        .count()
        .get_result(conn)?;
    Ok(usize::try_from(told).unwrap_or(usize::MAX))
}

/// Names these people's unread counts as changed by the write under way: once it commits,
/// their open streams, in every process, read their counts again (`db::changes`).
pub fn signal(conn: &mut DbConnection, users: &[UserId]) -> QueryResult<()> {
    let topics: Vec<Topic> = users.iter().copied().map(Topic::Unread).collect();
    db::changed(conn, &topics)
}

/// Which of `user`'s sessions `ids` still stand (not ended, not expired): a live stream asks
/// this of its own session when told that some of its person's ended. (The sessions table is
/// auth's; this reads it the way auth's own check does, by its primary key.)
pub(crate) fn standing_sessions(
    conn: &mut DbConnection,
    user: UserId,
    ids: &[SessionId],
) -> QueryResult<HashSet<SessionId>> {
    Ok(sessions::table
        .filter(sessions::id.eq_any(ids))
        .filter(sessions::user_id.eq(user))
        .filter(sessions::expires_at.gt(db::time::now()))
        .select(sessions::id)
        .load(conn)?
        .into_iter()
        .collect())
}

/// A page of `me`'s notifications, newest first, with their senders; those from people in a
/// block pair with `me`, or suspended, are left out (one statement).
pub fn list(conn: &mut DbConnection, me: UserId, page: Page) -> Result<Vec<Notification>, NotificationError> {
    if page.limit == 0 {
        return Ok(Vec::new());
    }
    let q = notifications::table
        .inner_join(users::table.on(users::id.eq(notifications::sender_id)))
        .filter(notifications::recipient_id.eq(me))
        .select((ListedRow::as_select(), UserCard::as_select()))
        .into_boxed();
    let q = visibility::shown_to(q, notifications::sender_id, Some(me)).order(notifications::id.desc());
    let rows: Vec<(ListedRow, UserCard)> = page.apply(q).load(conn)?;
    Ok(rows.into_iter().map(|(r, sender)| listed(r, sender)).collect())
}

/// How many of `me`'s notifications are unread, up to [`UNREAD_CAP`] (the partial index of
/// unread rows; the block and suspension rules as in the list).
pub fn unread_count(conn: &mut DbConnection, me: UserId) -> QueryResult<i64> {
    let unread = notifications::table
        .filter(notifications::recipient_id.eq(me))
        .filter(not(notifications::is_read))
        .select(notifications::id)
        .into_boxed();
    let ids: Vec<NotificationId> =
        visibility::shown_to(unread, notifications::sender_id, Some(me)).limit(UNREAD_CAP).load(conn)?;
    Ok(i64::try_from(ids.len()).unwrap_or(UNREAD_CAP))
}

/// Marks one of `me`'s notifications read; someone else's is not found, as a missing one.
pub(crate) fn mark_read(conn: &mut DbConnection, me: UserId, id: NotificationId) -> Result<(), NotificationError> {
    let found = diesel::update(
        notifications::table.filter(notifications::id.eq(id)).filter(notifications::recipient_id.eq(me)),
    )
    .set(notifications::is_read.eq(true))
    .execute(conn)?;
    if found == 0 {
        return Err(NotificationError::NotFound);
    }
    Ok(())
}

/// Marks all of `me`'s notifications read; answers how many were unread.
pub(crate) fn mark_all_read(conn: &mut DbConnection, me: UserId) -> QueryResult<usize> {
    diesel::update(notifications::table.filter(notifications::recipient_id.eq(me)).filter(not(notifications::is_read)))
        .set(notifications::is_read.eq(true))
        .execute(conn)
}

/// Up to `limit` of `me`'s notifications after `after`, oldest first, every one of them (a
/// person's archive, `app::export`, keeps even those the list leaves out): one walk of
/// `notifications (recipient_id, id)`.
pub fn all_of(
    conn: &mut DbConnection,
    me: UserId,
    after: Option<NotificationId>,
    limit: i64,
) -> QueryResult<Vec<Notification>> {
    let mut q = notifications::table
        .inner_join(users::table.on(users::id.eq(notifications::sender_id)))
        .filter(notifications::recipient_id.eq(me))
        .select((ListedRow::as_select(), UserCard::as_select()))
        .into_boxed();
    if let Some(after) = after {
        q = q.filter(notifications::id.gt(after));
    }
    let rows: Vec<(ListedRow, UserCard)> = q.order(notifications::id).limit(limit).load(conn)?;
    Ok(rows.into_iter().map(|(r, sender)| listed(r, sender)).collect())
}

/// One of `me`'s notifications with its sender, for a push: none when it is gone, or hidden by
/// the list's rules (a block pair, a suspended sender) — the list would not show it either.
pub(crate) fn for_push(conn: &mut DbConnection, me: UserId, id: NotificationId) -> QueryResult<Option<Notification>> {
    let q = notifications::table
        .inner_join(users::table.on(users::id.eq(notifications::sender_id)))
        .filter(notifications::id.eq(id))
        .filter(notifications::recipient_id.eq(me))
        .select((ListedRow::as_select(), UserCard::as_select()))
        .into_boxed();
    let row: Option<(ListedRow, UserCard)> =
        visibility::shown_to(q, notifications::sender_id, Some(me)).first(conn).optional()?;
    Ok(row.map(|(r, sender)| listed(r, sender)))
}

fn listed(r: ListedRow, sender: UserCard) -> Notification {
    Notification {
        kind: r.kind,
        id: r.id,
        sender,
        post: r.post_id,
        excerpt: r.excerpt,
        created_at: r.created_at,
        read: r.is_read,
    }
}
