//! Reposts (issue 31): a person passes a post they may see (not their own) on to their
//! listeners, once. In their listeners' Listened to feed the post then stands at the time of
//! the newest repost by someone they listen to (the repost's id, made as a post's is), once
//! however many of them reposted it, with "Reposted by" that person; the original post itself
//! leaves its place in that feed then. A repost of a post hidden from a viewer (its author
//! suspended, or in a block pair with them) is hidden, and so is one by a person hidden from
//! them. How a page is put together with the posts: `crate::feed`, docs/posts.md "Reposts".

use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Timestamp};
use db::model::UserCard;
use db::schema::{listens, posts, reposts, users};
use db::{DbConnection, FastSet, Fixed, Kept, Topic};
use social_graph::visibility;
use values::{PostId, UserId};

use crate::PostError;
use crate::model::RepostMark;
use crate::repo::visible;

/// What a repost toggle did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RepostToggle {
    /// Whether `me` reposts the post now.
    pub reposted: bool,
    pub reposts_count: i64,
    /// The post's author, to be told of a new repost.
    pub author: UserId,
    /// Whether a repost was added by this call (not only given back).
    pub added: bool,
}

const INSERT_REPOST: &str =
    "INSERT INTO reposts (id, post_id, user_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING";

/// Reposts the post, or takes the repost back, inside the caller's transaction; the count
/// moves only when a row was really added or removed. A post that is missing or hidden from
/// `me` is not found; one's own post is refused.
pub fn toggle_repost(conn: &mut DbConnection, me: UserId, post: PostId) -> Result<RepostToggle, PostError> {
    let author = visible(conn, post, Some(me))?.ok_or(PostError::NotFound)?.author;
    if author == me {
        return Err(PostError::OwnRepost);
    }
    let added = Kept::new(INSERT_REPOST)
        .bind::<BigInt, _>(values::new_raw_id())
        .bind::<BigInt, _>(post)
        .bind::<BigInt, _>(me)
        .bind::<Timestamp, _>(db::time::now())
        .execute(conn)?;
    let delta = if added > 0 {
        1
    } else {
        let mine = reposts::table.filter(reposts::user_id.eq(me)).filter(reposts::post_id.eq(post));
        -(diesel::delete(mine).execute(conn)? as i64)
    };
    // The count as the update leaves it, in the same statement (as a like's). A new repost is
    // taken in by what holds the newest reposts; one taken back makes it read them again.
    let count: i64 = if delta != 0 {
        let reposts = if delta > 0 { Topic::NewRepost } else { Topic::Reposts };
        db::changed(conn, &[Topic::Post(post), reposts, Topic::Marks(me)])?;
        Kept::new("UPDATE posts SET reposts_count = reposts_count + ? WHERE id = ? RETURNING reposts_count")
            .bind::<BigInt, _>(delta)
            .bind::<BigInt, _>(post)
            .get_result::<RepostsCount>(conn)?
            .reposts_count
    } else {
        posts::table.filter(posts::id.eq(post)).select(posts::reposts_count).first(conn)?
    };
    Ok(RepostToggle { reposted: added > 0, reposts_count: count.max(0), author, added: delta > 0 })
}

/// A post's repost count, as an update returns it.
#[derive(diesel::QueryableByName)]
struct RepostsCount {
    #[diesel(sql_type = BigInt)]
    reposts_count: i64,
}

/// When an account goes: the posts it reposted lose those counts (its rows go by cascade).
pub(crate) fn release_account_rows(conn: &mut DbConnection, user: UserId) -> QueryResult<()> {
    let reposted = reposts::table.filter(reposts::user_id.eq(user)).select(reposts::post_id);
    diesel::update(posts::table.filter(posts::id.eq_any(reposted)))
        .set(posts::reposts_count.eq(posts::reposts_count - 1))
        .execute(conn)?;
    Ok(())
}

/// Whether no newer repost of the same post by someone `?` listens to (shown to them) stands:
/// each post is placed once, by its newest repost. Binds: the viewer three times.
const NEWEST_OF_ITS_POST: &str = "NOT EXISTS (SELECT 1 FROM reposts r2 \
     JOIN listens l2 ON l2.listened_id = r2.user_id AND l2.listener_id = ? \
     WHERE r2.post_id = reposts.post_id AND r2.id > reposts.id \
     AND NOT EXISTS (SELECT 1 FROM suspensions s WHERE s.user_id = r2.user_id) \
     AND r2.user_id NOT IN (SELECT b.blocked_id FROM blocks b WHERE b.blocker_id = ?) \
     AND r2.user_id NOT IN (SELECT b.blocker_id FROM blocks b WHERE b.blocked_id = ?))";

/// A repost as a feed places it: its id (where it stands), the post, who reposted and when.
#[derive(Debug, Clone)]
pub(crate) struct Placed {
    pub post: PostId,
    pub mark: RepostMark,
}

/// The newest `depth` reposts below `before` (a repost or post id) by people `viewer` listens
/// to, each the newest of its post among them, of posts shown to the viewer by people shown to
/// them, with the reposter's card: one statement (`reposts (user_id, id)` for each person
/// listened to, `reposts (post_id, id)` for the newer ones).
pub(crate) fn listened(conn: &mut DbConnection, viewer: UserId, before: i64, depth: i64) -> QueryResult<Vec<Placed>> {
    let q = reposts::table
        .inner_join(listens::table.on(listens::listened_id.eq(reposts::user_id).and(listens::listener_id.eq(viewer))))
        .inner_join(posts::table.on(posts::id.eq(reposts::post_id)))
        .inner_join(users::table.on(users::id.eq(reposts::user_id)))
        .filter(reposts::id.lt(before))
        .filter(Fixed::new(NEWEST_OF_ITS_POST, [viewer.get(), viewer.get(), viewer.get()]))
        .select((reposts::id, reposts::post_id, reposts::created_at, UserCard::as_select()))
        .into_boxed();
    let q = visibility::shown_to(q, reposts::user_id, Some(viewer));
    let q = visibility::shown_to(q, posts::user_id, Some(viewer));
    let rows: Vec<(i64, PostId, chrono::NaiveDateTime, UserCard)> =
        q.order(reposts::id.desc()).limit(depth.max(0)).load(conn)?;
    Ok(rows.into_iter().map(|(id, post, at, by)| Placed { post, mark: RepostMark { id, by, at } }).collect())
}

/// Which of `ids` someone `viewer` listens to (shown to them) reposted: those stand at their
/// newest repost in the viewer's Listened to, not at their own place. One statement.
pub(crate) fn reposted_by_listened(
    conn: &mut DbConnection,
    viewer: UserId,
    ids: &[PostId],
) -> QueryResult<FastSet<PostId>> {
    if ids.is_empty() {
        return Ok(FastSet::default());
    }
    let q = reposts::table
        .inner_join(listens::table.on(listens::listened_id.eq(reposts::user_id).and(listens::listener_id.eq(viewer))))
        .filter(db::one_of(reposts::post_id, ids.iter().map(|id| id.get())))
        .select(reposts::post_id)
        .into_boxed();
    let found: Vec<PostId> = visibility::shown_to(q, reposts::user_id, Some(viewer)).load(conn)?;
    Ok(found.into_iter().collect())
}
