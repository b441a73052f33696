//! Writes of this domain. They run inside their caller's transaction.

use db::diesel::dsl::exists;
use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Timestamp};
use db::schema::{comments, likes, posts, users};
use db::{DbConnection, Kept, Topic};
use values::{PostId, PostKind, UserId};

use crate::PostError;
use crate::kinds::{self, NewPayload};
use crate::model::PostRow;

/// Writes a post and its payload, and counts it on its author's row.
pub(crate) fn insert_post(conn: &mut DbConnection, row: &PostRow, payload: &dyn NewPayload) -> Result<(), PostError> {
    diesel::insert_into(posts::table).values(row).execute(conn)?;
    payload.insert(conn)?;
    for (kind, subject, payload) in payload.jobs() {
        db::jobs::enqueue(conn, &db::jobs::NewJob { kind, subject, payload, owner: Some(row.user_id) }, None)?;
    }
    crate::search::index(conn, row.id)?;
    let words = payload.words();
    let texts = row.caption.as_deref().into_iter().chain(words.iter().map(String::as_str));
    crate::tags::write(conn, row.id, row.user_id, row.genre.as_deref(), texts)?;
    let counted = diesel::update(users::table.filter(users::id.eq(row.user_id)))
        .set(users::posts_count.eq(users::posts_count + 1))
        .execute(conn)?;
    if counted == 0 {
        return Err(PostError::UserNotFound);
    }
    db::changed(conn, &[db::written_post(row.id, row.user_id), Topic::Posted(row.user_id)])?;
    Ok(())
}

/// What became of a post, as [`announce`] tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Announced {
    Created,
    Updated,
    Deleted,
}

/// What a [`values::JobKind::Announce`] job carries: of a post (by `author`), or of a comment
/// on it (by `author`, the comment's).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Announcement {
    pub post: PostId,
    pub author: UserId,
    pub what: Announced,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<values::CommentId>,
}

/// Queues the announcement of what became of `post` (by `author`), in the caller's
/// transaction: for an edit, one per edit (they are told in order, each as the post then is).
pub(crate) fn announce(
    conn: &mut DbConnection,
    post: PostId,
    author: UserId,
    what: Announced,
) -> Result<(), PostError> {
    queue(conn, Announcement { post, author, what, comment: None })
}

/// Queues the announcement of what became of comment `comment` on `post` (by `author`), in the
/// caller's transaction, as [`announce`] does for posts.
pub(crate) fn announce_comment(
    conn: &mut DbConnection,
    post: PostId,
    comment: values::CommentId,
    author: UserId,
    what: Announced,
) -> Result<(), PostError> {
    queue(conn, Announcement { post, author, what, comment: Some(comment) })
}

/// Queues an announcement job. Its subject names what it tells of, so the same making or
/// deletion is queued once; every edit is a subject of its own.
fn queue(conn: &mut DbConnection, announcement: Announcement) -> Result<(), PostError> {
    let of = match announcement.comment {
        Some(comment) => format!("comment {comment}"),
        None => announcement.post.to_string(),
    };
    let subject = match announcement.what {
        Announced::Updated => format!("{of} updated {}", values::new_raw_id()),
        Announced::Created => format!("{of} created"),
        Announced::Deleted => format!("{of} deleted"),
    };
    let payload = serde_json::to_string(&announcement).map_err(|e| PostError::Processing(e.to_string()))?;
    let owner = Some(announcement.author);
    let job = db::jobs::NewJob { kind: values::JobKind::Announce, subject, payload, owner };
    db::jobs::enqueue(conn, &job, None)?;
    Ok(())
}

/// [`announce`]s that posts `ids` are deleted, each by its author, in the caller's transaction.
pub(crate) fn announce_deleted(conn: &mut DbConnection, ids: &[PostId]) -> Result<(), PostError> {
    let authors: Vec<(PostId, UserId)> =
        posts::table.filter(posts::id.eq_any(ids)).select((posts::id, posts::user_id)).load(conn)?;
    for (post, author) in authors {
        announce(conn, post, author, Announced::Deleted)?;
    }
    Ok(())
}

/// Whether `me` likes `post`, and whether they reposted it (a like or repost from another
/// server says what it is, not a toggle: `federation` toggles only what differs).
pub fn marks_of(conn: &mut DbConnection, me: UserId, post: PostId) -> QueryResult<(bool, bool)> {
    use db::schema::reposts;
    diesel::select((
        exists(likes::table.filter(likes::user_id.eq(me)).filter(likes::post_id.eq(post))),
        exists(reposts::table.filter(reposts::user_id.eq(me)).filter(reposts::post_id.eq(post))),
    ))
    .get_result(conn)
}

/// Deletes posts with everything that hangs on them (payloads, likes, comments and their
/// mentions go by cascade), gives their authors' post counts back, and answers the storage keys
/// to remove once the transaction has committed. The posts crate's one way of deleting posts:
/// the author's delete, account deletion and a moderator's decision all come here.
pub fn delete_post_rows(conn: &mut DbConnection, ids: &[PostId]) -> Result<Vec<String>, PostError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let keys = kinds::object_keys(conn, ids)?;
    let authors: Vec<UserId> = posts::table.filter(posts::id.eq_any(ids)).select(posts::user_id).load(conn)?;
    diesel::delete(posts::table.filter(posts::id.eq_any(ids))).execute(conn)?;
    crate::search::unindex(conn, ids)?;
    let mut changed: Vec<Topic> = ids.iter().flat_map(|id| [Topic::Post(*id), Topic::Comments(*id)]).collect();
    changed.push(Topic::Posts);
    for (author, n) in count_each(authors) {
        diesel::update(users::table.filter(users::id.eq(author)))
            .set(users::posts_count.eq(users::posts_count - n))
            .execute(conn)?;
        changed.push(Topic::Posted(author));
    }
    db::changed(conn, &changed)?;
    Ok(keys)
}

/// That `me` wrote the post: missing, or hidden from `me` by a block, is not found (so the answer
/// does not tell them it exists); someone else's is forbidden. Every change an author alone may
/// make (deleting, editing) checks here.
pub(crate) fn check_author(conn: &mut DbConnection, id: PostId, me: UserId) -> Result<(), PostError> {
    match visible(conn, id, Some(me))? {
        None => Err(PostError::NotFound),
        Some(post) if post.author != me => Err(PostError::NotAuthor),
        Some(_) => Ok(()),
    }
}

/// What other rules need to know of a post: who wrote it, and its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PostRef {
    pub id: PostId,
    pub author: UserId,
    pub kind: PostKind,
}

/// The post as `viewer` may see it: none when it is missing, its author is suspended, or a
/// block stands between the two (such a post is answered as not found). One statement: the
/// post, with the suspension rule and, for a signed-in viewer, the block rule.
pub fn visible(conn: &mut DbConnection, id: PostId, viewer: Option<UserId>) -> QueryResult<Option<PostRef>> {
    let post = posts::table.filter(posts::id.eq(id)).select((posts::user_id, posts::kind)).into_boxed();
    let found: Option<(UserId, PostKind)> =
        social_graph::visibility::shown_to(post, posts::user_id, viewer).get_result(conn).optional()?;
    Ok(found.map(|(author, kind)| PostRef { id, author, kind }))
}

/// Which of these posts are still there.
pub fn existing(conn: &mut DbConnection, ids: &[PostId]) -> QueryResult<std::collections::HashSet<PostId>> {
    Ok(posts::table.filter(posts::id.eq_any(ids)).select(posts::id).load(conn)?.into_iter().collect())
}

/// A like, made only when the post exists and the liker may see it (its author not suspended,
/// no block between them), and not made twice. Binds: the liker, when, the post, the liker
/// twice (the rule).
static LIKE_IF_SHOWN: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "INSERT INTO likes (post_id, user_id, created_at) SELECT p.id, ?, ? FROM posts p WHERE p.id = ? AND {} \
         ON CONFLICT DO NOTHING",
        social_graph::visibility::shown_to_signed_in_sql("p.user_id")
    )
});

/// A like toggled in one statement, for PostgreSQL, where each statement is a round trip to a
/// process the request's server shares two cores with: where `me` may see the post, their like
/// is taken back if there is one, else made, and the count moved by what changed; it answers
/// the count, the author, whether `me` likes the post now and whether the count moved (no row:
/// the post is missing or hidden). Unlikes, half of all toggles, first tried the insert, asked
/// whether the post was shown and then deleted: three statements where this is one. The `WITH`
/// parts see one snapshot; the insert waits for the delete's answer (it reads `removed`), and
/// a like made meanwhile by another toggle is left to it (`ON CONFLICT DO NOTHING`: the count
/// does not move).
static TOGGLE_LIKE_IF_SHOWN: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "WITH shown AS (SELECT p.id FROM posts p WHERE p.id = ? AND {}), \
         removed AS (DELETE FROM likes WHERE post_id IN (SELECT id FROM shown) AND user_id = ? RETURNING post_id), \
         added AS (INSERT INTO likes (post_id, user_id, created_at) SELECT id, ?, ? FROM shown \
         WHERE NOT EXISTS (SELECT 1 FROM removed) ON CONFLICT DO NOTHING RETURNING post_id) \
         UPDATE posts SET likes_count = likes_count + (SELECT COUNT(*) FROM added) - (SELECT COUNT(*) FROM removed) \
         WHERE id IN (SELECT id FROM shown) \
         RETURNING likes_count, user_id, EXISTS (SELECT 1 FROM added) AS liked, \
         EXISTS (SELECT 1 FROM added UNION ALL SELECT 1 FROM removed) AS moved",
        social_graph::visibility::shown_to_signed_in_sql("p.user_id")
    )
});

/// What a like toggle did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LikeToggle {
    /// Whether `me` likes the post now.
    pub liked: bool,
    /// The post's count after the toggle.
    pub likes_count: i64,
    /// Who wrote the post (to be told of a new like).
    pub author: UserId,
    /// True when a like was really added now (not a repeat of one already there).
    pub added: bool,
}

/// Likes or unlikes, inside the caller's transaction. The counter moves only when a row was
/// really added or removed, so a double click cannot count twice. A post that is missing or
/// hidden from `me` by a block is not found.
pub fn toggle_like(conn: &mut DbConnection, me: UserId, post: PostId) -> Result<LikeToggle, PostError> {
    let (liked, counted) = if matches!(conn, DbConnection::Postgres(_)) {
        let Toggled { counted, liked } = Kept::new(TOGGLE_LIKE_IF_SHOWN.as_str())
            .bind::<BigInt, _>(post)
            .bind::<BigInt, _>(me)
            .bind::<BigInt, _>(me)
            .bind::<BigInt, _>(me)
            .bind::<BigInt, _>(me)
            .bind::<Timestamp, _>(db::time::now())
            .get_result(conn)
            .optional()?
            .ok_or(PostError::NotFound)?;
        (liked, counted)
    } else if let Some(counted) = add_like(conn, me, post)? {
        // A like first, where the liker may see the post: most toggles are new likes, and this
        // asks whether the post may be liked and likes it at once.
        (true, counted)
    } else {
        // Not liked now: the post is missing or hidden, or liked already (an unlike).
        visible(conn, post, Some(me))?.ok_or(PostError::NotFound)?;
        let counted = match remove_like(conn, me, post)? {
            Some(counted) => counted,
            // Taken back meanwhile by another toggle: the count as it stands.
            None => {
                let (likes_count, user_id) =
                    posts::table.filter(posts::id.eq(post)).select((posts::likes_count, posts::user_id)).first(conn)?;
                LikesCount { likes_count, user_id, moved: false }
            }
        };
        (false, counted)
    };
    db::changed(conn, &[Topic::Post(post), Topic::Marks(me)])?;
    Ok(LikeToggle {
        liked,
        likes_count: counted.likes_count.max(0),
        author: counted.user_id,
        added: liked && counted.moved,
    })
}

/// Adds `me`'s like of `post` where they may see it, and counts it (SQLite, where a statement
/// is no round trip): the count and the author as the update leaves them, or none when no like
/// was added (missing, hidden, or liked already).
fn add_like(conn: &mut DbConnection, me: UserId, post: PostId) -> QueryResult<Option<LikesCount>> {
    let added = Kept::new(LIKE_IF_SHOWN.as_str())
        .bind::<BigInt, _>(me)
        .bind::<Timestamp, _>(db::time::now())
        .bind::<BigInt, _>(post)
        .bind::<BigInt, _>(me)
        .bind::<BigInt, _>(me)
        .execute(conn)?;
    if added == 0 {
        return Ok(None);
    }
    count_likes(conn, post, 1).map(Some)
}

/// Takes `me`'s like of `post` back and counts it: as [`add_like`], none when there was none.
fn remove_like(conn: &mut DbConnection, me: UserId, post: PostId) -> QueryResult<Option<LikesCount>> {
    let removed =
        diesel::delete(likes::table.filter(likes::post_id.eq(post)).filter(likes::user_id.eq(me))).execute(conn)?;
    if removed == 0 {
        return Ok(None);
    }
    count_likes(conn, post, -1).map(Some)
}

/// Moves `post`'s like count by `delta`: the count and the author as the update leaves them.
fn count_likes(conn: &mut DbConnection, post: PostId, delta: i64) -> QueryResult<LikesCount> {
    Kept::new(
        "UPDATE posts SET likes_count = likes_count + ? WHERE id = ? RETURNING likes_count, user_id, TRUE AS moved",
    )
    .bind::<BigInt, _>(delta)
    .bind::<BigInt, _>(post)
    .get_result(conn)
}

/// A post's like count and author, as an update returns them.
#[derive(diesel::QueryableByName)]
struct LikesCount {
    #[diesel(sql_type = BigInt)]
    likes_count: i64,
    #[diesel(sql_type = BigInt)]
    user_id: UserId,
    /// Whether the count moved (a like was added or removed).
    #[diesel(sql_type = diesel::sql_types::Bool)]
    moved: bool,
}

/// What [`TOGGLE_LIKE_IF_SHOWN`] answers.
#[derive(diesel::QueryableByName)]
struct Toggled {
    #[diesel(embed)]
    counted: LikesCount,
    /// Whether `me` likes the post now.
    #[diesel(sql_type = diesel::sql_types::Bool)]
    liked: bool,
}

/// Whether a person exists (a feed of someone who does not is a 404, not an empty list).
pub(crate) fn user_exists(conn: &mut DbConnection, id: UserId) -> QueryResult<bool> {
    diesel::select(exists(users::table.filter(users::id.eq(id)))).get_result(conn)
}

/// This domain's part when an account goes, before its row does: the posts it liked or
/// commented on lose those counts, and its own posts go the one way posts are deleted. Answers
/// the storage keys to remove after the commit.
pub fn release_account_rows(conn: &mut DbConnection, user: UserId) -> Result<Vec<String>, PostError> {
    // Counts of posts anywhere, and the account's card wherever it was shown.
    db::changed(conn, &[Topic::Everything])?;
    diesel::update(
        posts::table.filter(posts::id.eq_any(likes::table.filter(likes::user_id.eq(user)).select(likes::post_id))),
    )
    .set(posts::likes_count.eq(posts::likes_count - 1))
    .execute(conn)?;
    // A person may have commented several times on one post: count them per post.
    let written: Vec<PostId> =
        comments::table.filter(comments::user_id.eq(user)).select(comments::post_id).load(conn)?;
    for (post, n) in count_each(written) {
        diesel::update(posts::table.filter(posts::id.eq(post)))
            .set(posts::comments_count.eq(posts::comments_count - n))
            .execute(conn)?;
    }
    crate::reposts::release_account_rows(conn, user)?;
    let own: Vec<PostId> = posts::table.filter(posts::user_id.eq(user)).select(posts::id).load(conn)?;
    delete_post_rows(conn, &own)
}

/// How many times each value occurs.
fn count_each<T: Ord>(items: Vec<T>) -> std::collections::BTreeMap<T, i64> {
    let mut counts = std::collections::BTreeMap::new();
    for item in items {
        *counts.entry(item).or_default() += 1;
    }
    counts
}
