//! Who listens to whom, who blocked whom, and the rule that a blocked pair cannot listen.
//!
//! Listener counts live on the user rows and change in the same transaction as the listening
//! rows, so reading them never counts rows. Every write here is idempotent: listening twice, or
//! unblocking someone not blocked, succeeds and changes nothing.
//!
//! The functions taking `&mut DbConnection` run inside their caller's transaction, so a use case
//! can put several domains' writes into one; [`SocialGraph`] holds the use cases of this domain
//! alone, each one transaction. Other domains apply the block and listening rules inside their
//! own queries through the subqueries of [`fragments`], never by loading ids into memory; what a
//! viewer may see of what people wrote is one rule, [`visibility`].

use std::collections::HashSet;

use chrono::NaiveDateTime;
use db::diesel::dsl::exists;
use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Timestamp};
use db::model::UserCard;
use db::schema::{blocks, listens, users};
use db::{Db, DbConnection, DbError, Kept, Page, PageRule, Topic};
use values::{DomainError, ErrorKind, UserId};

pub mod export;
pub mod fragments;
pub mod visibility;

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
    #[error("Listening to people on other servers from here is not possible yet.")]
    Elsewhere,
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<diesel::result::Error> for GraphError {
    fn from(e: diesel::result::Error) -> Self {
        GraphError::Db(e.into())
    }
}

impl DomainError for GraphError {
    fn kind(&self) -> ErrorKind {
        match self {
            GraphError::UserNotFound => ErrorKind::NotFound,
            GraphError::SelfListen | GraphError::SelfBlock | GraphError::Elsewhere => ErrorKind::Invalid,
            GraphError::Blocked => ErrorKind::Forbidden,
            GraphError::Db(e) => e.kind(),
        }
    }
}

/// How many people the list calls answer at most (the web app reads the whole listening list to
/// mark who is already listened to).
pub const MAX_LIST: i64 = 1000;
/// `GET /profiles/listened`: everyone by default, up to [`MAX_LIST`].
pub const LISTENED_PAGE: PageRule = PageRule::new(MAX_LIST, MAX_LIST);

fn user_exists(conn: &mut DbConnection, id: UserId) -> QueryResult<bool> {
    diesel::select(exists(users::table.filter(users::id.eq(id)))).get_result(conn)
}

/// True when either of the two has blocked the other.
pub fn blocked_between(conn: &mut DbConnection, a: UserId, b: UserId) -> QueryResult<bool> {
    diesel::select(fragments::pair_blocked(a, b)).get_result(conn)
}

/// The people of `others` in a block pair with `me` (one statement), for rules that take people
/// out of a list already found (mentions, the mention picker, notifications).
pub fn blocked_among(conn: &mut DbConnection, me: UserId, others: &[UserId]) -> QueryResult<HashSet<UserId>> {
    if others.is_empty() {
        return Ok(HashSet::new());
    }
    let pairs: Vec<(UserId, UserId)> = blocks::table
        .filter(
            blocks::blocker_id
                .eq(me)
                .and(blocks::blocked_id.eq_any(others))
                .or(blocks::blocked_id.eq(me).and(blocks::blocker_id.eq_any(others))),
        )
        .select((blocks::blocker_id, blocks::blocked_id))
        .load(conn)?;
    Ok(pairs.into_iter().map(|(a, b)| if a == me { b } else { a }).collect())
}

// `$1`.. first appear in order, which PostgreSQL (positional) and SQLite (named parameters
// numbered by first appearance) bind alike; `ON CONFLICT DO NOTHING` is understood by both.
const INSERT_LISTEN: &str =
    "INSERT INTO listens (listener_id, listened_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING";
const INSERT_BLOCK: &str =
    "INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING";

fn add_counts(conn: &mut DbConnection, listener: UserId, listened: UserId, delta: i64) -> QueryResult<()> {
    Kept::new("UPDATE users SET listened_to_count = listened_to_count + ? WHERE id = ?")
        .bind::<BigInt, _>(delta)
        .bind::<BigInt, _>(listener)
        .execute(conn)?;
    Kept::new("UPDATE users SET listeners_count = listeners_count + ? WHERE id = ?")
        .bind::<BigInt, _>(delta)
        .bind::<BigInt, _>(listened)
        .execute(conn)?;
    Ok(())
}

/// `me` starts listening to `target`. Answers whether anything changed.
pub fn listen(conn: &mut DbConnection, me: UserId, target: UserId) -> Result<bool, GraphError> {
    if me == target {
        return Err(GraphError::SelfListen);
    }
    let login: Option<String> =
        users::table.filter(users::id.eq(target)).select(users::login).first(conn).optional()?;
    let Some(login) = login else { return Err(GraphError::UserNotFound) };
    // A person of another server (federation) has `@` in their login, as none of ours has:
    // they are followed through their server, which this server does not do yet.
    if login.contains('@') {
        return Err(GraphError::Elsewhere);
    }
    if blocked_between(conn, me, target)? {
        return Err(GraphError::Blocked);
    }
    let inserted = Kept::new(INSERT_LISTEN)
        .bind::<BigInt, _>(me)
        .bind::<BigInt, _>(target)
        .bind::<Timestamp, _>(db::time::now())
        .execute(conn)?;
    if inserted == 1 {
        add_counts(conn, me, target, 1)?;
        db::changed(conn, &[Topic::Viewer(me)])?;
    }
    Ok(inserted == 1)
}

fn remove_listen(conn: &mut DbConnection, listener: UserId, listened: UserId) -> QueryResult<bool> {
    let removed = diesel::delete(
        listens::table.filter(listens::listener_id.eq(listener)).filter(listens::listened_id.eq(listened)),
    )
    .execute(conn)?;
    if removed == 1 {
        add_counts(conn, listener, listened, -1)?;
        db::changed(conn, &[Topic::Viewer(listener)])?;
    }
    Ok(removed == 1)
}

/// `me` stops listening to `target`. Answers whether anything changed.
pub fn unlisten(conn: &mut DbConnection, me: UserId, target: UserId) -> Result<bool, GraphError> {
    if !user_exists(conn, target)? {
        return Err(GraphError::UserNotFound);
    }
    Ok(remove_listen(conn, me, target)?)
}

/// `me` blocks `target`; any listening between the two ends, both ways, counters included.
pub fn block(conn: &mut DbConnection, me: UserId, target: UserId) -> Result<bool, GraphError> {
    if me == target {
        return Err(GraphError::SelfBlock);
    }
    if !user_exists(conn, target)? {
        return Err(GraphError::UserNotFound);
    }
    let inserted = Kept::new(INSERT_BLOCK)
        .bind::<BigInt, _>(me)
        .bind::<BigInt, _>(target)
        .bind::<Timestamp, _>(db::time::now())
        .execute(conn)?;
    remove_listen(conn, me, target)?;
    remove_listen(conn, target, me)?;
    db::changed(conn, &[Topic::Viewer(me), Topic::Viewer(target), Topic::Blocks])?;
    Ok(inserted == 1)
}

pub fn unblock(conn: &mut DbConnection, me: UserId, target: UserId) -> Result<bool, GraphError> {
    if !user_exists(conn, target)? {
        return Err(GraphError::UserNotFound);
    }
    let removed = diesel::delete(blocks::table.filter(blocks::blocker_id.eq(me)).filter(blocks::blocked_id.eq(target)))
        .execute(conn)?;
    db::changed(conn, &[Topic::Viewer(me), Topic::Viewer(target), Topic::Blocks])?;
    Ok(removed == 1)
}

/// Whether `me` has blocked `target` (what the profile's block menu shows).
pub fn has_blocked(conn: &mut DbConnection, me: UserId, target: UserId) -> Result<bool, GraphError> {
    if !user_exists(conn, target)? {
        return Err(GraphError::UserNotFound);
    }
    Ok(diesel::select(exists(blocks::table.filter(blocks::blocker_id.eq(me)).filter(blocks::blocked_id.eq(target))))
        .get_result(conn)?)
}

/// The people `me` has blocked, most recent first.
pub fn blocked_users(conn: &mut DbConnection, me: UserId) -> Result<Vec<UserCard>, GraphError> {
    Ok(blocks::table
        .inner_join(users::table.on(users::id.eq(blocks::blocked_id)))
        .filter(blocks::blocker_id.eq(me))
        .order(blocks::created_at.desc())
        .limit(MAX_LIST)
        .select(UserCard::as_select())
        .load(conn)?)
}

/// The people `me` listens to, most recent first.
pub fn listened_to(conn: &mut DbConnection, me: UserId, page: Page) -> Result<Vec<UserCard>, GraphError> {
    let query = listens::table
        .inner_join(users::table.on(users::id.eq(listens::listened_id)))
        .filter(listens::listener_id.eq(me))
        .order(listens::created_at.desc())
        .select(UserCard::as_select());
    Ok(page.apply(query).load(conn)?)
}

/// Which of a person's lists of people: who listens to them, or whom they listen to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Listeners,
    ListenedTo,
}

/// Where a page of [`people_of`] ends: the listening it stopped at (when it began, and the
/// other person of it). The next page starts after it; a listening made meanwhile moves no one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListenCursor {
    pub at: NaiveDateTime,
    pub id: UserId,
}

impl ListenCursor {
    /// The cursor as the wire carries it: `{microseconds}-{id}`.
    pub fn encode(&self) -> String {
        format!("{}-{}", self.at.and_utc().timestamp_micros(), self.id)
    }

    /// A cursor read back; none for text no page of ours wrote.
    pub fn decode(text: &str) -> Option<ListenCursor> {
        let (micros, id) = text.split_once('-')?;
        let at = chrono::DateTime::from_timestamp_micros(micros.parse().ok()?)?.naive_utc();
        Some(ListenCursor { at, id: id.parse().ok()? })
    }
}

/// A page of [`people_of`] at most holds this many.
pub const PEOPLE_PAGE: PageRule = PageRule::new(30, 100);

/// `person`'s listeners or the people they listen to (`side`), most recent first, as `viewer`
/// may see them (nobody suspended, nobody in a block pair with the viewer), at most `limit`
/// after `after`; with where the page ended when there may be more. People of other servers
/// are among them under their handle (`name@server`). Not found when `person` is hidden from
/// the viewer or does not exist. Three key probes, then one walk of `listens (…, created_at, …)`
/// with a key probe a row.
pub fn people_of(
    conn: &mut DbConnection,
    person: UserId,
    side: Side,
    viewer: Option<UserId>,
    after: Option<ListenCursor>,
    limit: i64,
) -> Result<(Vec<UserCard>, Option<ListenCursor>), GraphError> {
    if !user_exists(conn, person)? || visibility::is_hidden(conn, person, viewer)? {
        return Err(GraphError::UserNotFound);
    }
    // The two sides differ only in which column is whose: the same walk over either.
    macro_rules! walk {
        ($mine:expr, $theirs:expr) => {{
            let mut query = listens::table
                .inner_join(users::table.on(users::id.eq($theirs)))
                .filter($mine.eq(person))
                .select((UserCard::as_select(), listens::created_at))
                .into_boxed();
            if let Some(c) = after {
                query =
                    query.filter(listens::created_at.lt(c.at).or(listens::created_at.eq(c.at).and($theirs.lt(c.id))));
            }
            visibility::shown_to(query, users::id, viewer)
                .order((listens::created_at.desc(), $theirs.desc()))
                .limit(limit + 1)
                .load::<(UserCard, NaiveDateTime)>(conn)?
        }};
    }
    let rows = match side {
        Side::Listeners => walk!(listens::listened_id, listens::listener_id),
        Side::ListenedTo => walk!(listens::listener_id, listens::listened_id),
    };
    let more = rows.len() as i64 > limit;
    let mut people: Vec<UserCard> = Vec::with_capacity(rows.len());
    let mut last = None;
    for (card, at) in rows.into_iter().take(limit as usize) {
        last = Some(ListenCursor { at, id: card.id });
        people.push(card);
    }
    Ok((people, if more { last } else { None }))
}

/// This domain's part when an account is deleted, before its row goes: the people it listened
/// to lose a listener and the people who listened to it listen to one fewer. The listening and
/// block rows themselves go with the user row (cascade).
pub fn release_account(conn: &mut DbConnection, user: UserId) -> Result<(), GraphError> {
    diesel::update(
        users::table.filter(
            users::id.eq_any(listens::table.filter(listens::listener_id.eq(user)).select(listens::listened_id)),
        ),
    )
    .set(users::listeners_count.eq(users::listeners_count - 1))
    .execute(conn)?;
    diesel::update(
        users::table.filter(
            users::id.eq_any(listens::table.filter(listens::listened_id.eq(user)).select(listens::listener_id)),
        ),
    )
    .set(users::listened_to_count.eq(users::listened_to_count - 1))
    .execute(conn)?;
    Ok(())
}

/// The use cases of this domain alone, one transaction each. (Listening tells the listened-to
/// person, so it is a use case of `app`: [`listen`] is its part here.)
#[derive(Clone)]
pub struct SocialGraph {
    db: Db,
    /// Each viewer's people to listen to, as [`suggestions`] last found them.
    suggested: std::sync::Arc<db::Held<UserId, Suggested>>,
}

/// People to listen to, found for one viewer (Discover): each with how many of the viewer's
/// people listen to them. Read again when the viewer listens, unlistens, blocks or is blocked
/// ([`Topic::Viewer`]), when a card shown changes, and at least once a minute (what the people
/// they listen to do since shows then: a suggestion, not a rule of who may see what).
pub struct Suggested(pub Vec<(UserCard, i64)>);

impl db::Holdable<UserId> for Suggested {
    fn topics(&self, viewer: &UserId) -> impl Iterator<Item = Topic> {
        std::iter::once(Topic::Viewer(*viewer)).chain(self.0.iter().map(|(card, _)| Topic::User(card.id)))
    }

    fn weight(&self) -> u64 {
        64 + 160 * self.0.len() as u64
    }
}

impl SocialGraph {
    pub fn new(db: Db) -> SocialGraph {
        let suggested = std::sync::Arc::new(db::Held::new(db.changes().clone(), 4 << 20, 1024));
        SocialGraph { db, suggested }
    }

    /// [`suggestions`] of `me`, at most `limit`, held for the moments after (Discover is read
    /// again after each like or listen made there).
    pub async fn suggestions(&self, me: UserId, limit: i64) -> Result<Vec<(UserCard, i64)>, GraphError> {
        let held = self.suggested.clone();
        self.db
            .read(move |conn| {
                let found =
                    held.get_or_read(&me, Some(conn), |c| suggestions(c, me, limit).map(|s| Some(Suggested(s))))?;
                Ok::<_, GraphError>(
                    found.map(|s| s.0.iter().take(usize::try_from(limit).unwrap_or(0)).cloned().collect()),
                )
            })
            .await
            .map(Option::unwrap_or_default)
    }

    pub async fn unlisten(&self, me: UserId, target: UserId) -> Result<bool, GraphError> {
        self.db.write(move |conn| unlisten(conn, me, target)).await
    }

    pub async fn block(&self, me: UserId, target: UserId) -> Result<bool, GraphError> {
        self.db.write(move |conn| block(conn, me, target)).await
    }

    pub async fn unblock(&self, me: UserId, target: UserId) -> Result<bool, GraphError> {
        self.db.write(move |conn| unblock(conn, me, target)).await
    }

    pub async fn has_blocked(&self, me: UserId, target: UserId) -> Result<bool, GraphError> {
        self.db.run(move |conn| has_blocked(conn, me, target)).await
    }

    pub async fn blocked_users(&self, me: UserId) -> Result<Vec<UserCard>, GraphError> {
        self.db.run(move |conn| blocked_users(conn, me)).await
    }

    pub async fn listened_to(&self, me: UserId, page: Page) -> Result<Vec<UserCard>, GraphError> {
        self.db.run(move |conn| listened_to(conn, me, page)).await
    }

    pub async fn people_of(
        &self,
        person: UserId,
        side: Side,
        viewer: Option<UserId>,
        after: Option<ListenCursor>,
        limit: i64,
    ) -> Result<(Vec<UserCard>, Option<ListenCursor>), GraphError> {
        self.db.run(move |conn| people_of(conn, person, side, viewer, after, limit)).await
    }
}

/// The most listens [`suggestions`] reads: the people one's people listen to, as far as this
/// many reach (a person who listens to a thousand people, each listening to hundreds, would
/// otherwise make one Discover page group hundreds of thousands of rows).
pub const SUGGESTIONS_READ_AT_MOST: i64 = 5_000;

/// People to listen to, for Discover (issue 31): the people most listened to by the people
/// `me` listens to, not `me`, not listened to already, none suspended or in a block pair with
/// `me`; each with how many of `me`'s people listen to them. Two statements: the walk of
/// `listens`' key from `me`'s people, at most [`SUGGESTIONS_READ_AT_MOST`] rows, then the cards.
pub fn suggestions(conn: &mut DbConnection, me: UserId, limit: i64) -> QueryResult<Vec<(UserCard, i64)>> {
    const SUGGESTED: &str = "SELECT c.id AS id, COUNT(*) AS n FROM \
         (SELECT l2.listened_id AS id FROM listens l1 JOIN listens l2 ON l2.listener_id = l1.listened_id \
          WHERE l1.listener_id = ? LIMIT ?) c \
         WHERE c.id <> ? \
         AND NOT EXISTS (SELECT 1 FROM listens l3 WHERE l3.listener_id = ? AND l3.listened_id = c.id) \
         AND NOT EXISTS (SELECT 1 FROM suspensions s WHERE s.user_id = c.id) \
         AND c.id NOT IN (SELECT b.blocked_id FROM blocks b WHERE b.blocker_id = ?) \
         AND c.id NOT IN (SELECT b.blocker_id FROM blocks b WHERE b.blocked_id = ?) \
         GROUP BY c.id ORDER BY n DESC, c.id DESC LIMIT ?";
    #[derive(QueryableByName)]
    struct Suggested {
        #[diesel(sql_type = BigInt)]
        id: i64,
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    let mut q = Kept::new(SUGGESTED).bind::<BigInt, _>(me).bind::<BigInt, _>(SUGGESTIONS_READ_AT_MOST);
    for _ in 0..4 {
        q = q.bind::<BigInt, _>(me);
    }
    let found: Vec<Suggested> = q.bind::<BigInt, _>(limit).load(conn)?;
    if found.is_empty() {
        return Ok(Vec::new());
    }
    let cards: Vec<UserCard> = users::table
        .filter(db::one_of(users::id, found.iter().map(|s| s.id)))
        .select(UserCard::as_select())
        .load(conn)?;
    Ok(found.iter().filter_map(|s| cards.iter().find(|c| c.id.get() == s.id).map(|c| (c.clone(), s.n))).collect())
}
