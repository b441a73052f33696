//! What a person's archive ("Download my data", `app::export`) reads of this domain besides
//! their posts (a profile's list, [`crate::feed_page`]): the comments they wrote, the posts they
//! liked and reposted, and their playlists with their items. Each a page at a time, in the
//! order of an index, everything of theirs included.

use chrono::NaiveDateTime;
use db::DbConnection;
use db::diesel::prelude::*;
use db::schema::{comments, likes, playlist_items, playlists, reposts};
use values::{CommentId, PlaylistId, PostId, UserId};

use crate::playlists::Playlist;

/// A comment as its author wrote it, with the moment or bars it is on: its row.
pub type Written = crate::model::CommentRow;

/// Up to `limit` of `user`'s comments after `after`, by post then comment: one walk of
/// `comments (user_id, post_id, id)`.
pub fn comments_by(
    conn: &mut DbConnection,
    user: UserId,
    after: Option<(PostId, CommentId)>,
    limit: i64,
) -> QueryResult<Vec<Written>> {
    let mut q = comments::table.filter(comments::user_id.eq(user)).select(Written::as_select()).into_boxed();
    if let Some((post, id)) = after {
        // A range of the index first (`post_id >=`), then past the last comment of that post.
        q = q.filter(comments::post_id.ge(post)).filter(comments::post_id.gt(post).or(comments::id.gt(id)));
    }
    q.order((comments::post_id, comments::id)).limit(limit).load(conn)
}

/// A post a person liked or reposted, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marked {
    pub post_id: PostId,
    pub at: NaiveDateTime,
}

/// Up to `limit` of the posts `user` likes, by post, after `after`: one walk of `likes
/// (user_id, post_id)`.
pub fn likes_by(conn: &mut DbConnection, user: UserId, after: Option<PostId>, limit: i64) -> QueryResult<Vec<Marked>> {
    let mut q = likes::table.filter(likes::user_id.eq(user)).select((likes::post_id, likes::created_at)).into_boxed();
    if let Some(after) = after {
        q = q.filter(likes::post_id.gt(after));
    }
    let rows: Vec<(PostId, NaiveDateTime)> = q.order(likes::post_id).limit(limit).load(conn)?;
    Ok(rows.into_iter().map(|(post_id, at)| Marked { post_id, at }).collect())
}

/// Up to `limit` of `user`'s reposts after the repost `after`, oldest first: one walk of
/// `reposts (user_id, id, post_id)`. Each with its repost's id, where the next page starts.
pub fn reposts_by(
    conn: &mut DbConnection,
    user: UserId,
    after: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<(i64, Marked)>> {
    let mut q = reposts::table
        .filter(reposts::user_id.eq(user))
        .select((reposts::id, reposts::post_id, reposts::created_at))
        .into_boxed();
    if let Some(after) = after {
        q = q.filter(reposts::id.gt(after));
    }
    let rows: Vec<(i64, PostId, NaiveDateTime)> = q.order(reposts::id).limit(limit).load(conn)?;
    Ok(rows.into_iter().map(|(id, post_id, at)| (id, Marked { post_id, at })).collect())
}

/// An item of a playlist: the track or score (by its place in the post) it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    pub post_id: PostId,
    pub track: i64,
    pub added_at: NaiveDateTime,
}

/// Up to `limit` of `user`'s playlists after `after`, oldest first, each with its items in
/// order: two statements (`playlists (user_id, id)`, `playlist_items (playlist_id, position)`).
pub fn playlists_by(
    conn: &mut DbConnection,
    user: UserId,
    after: Option<PlaylistId>,
    limit: i64,
) -> QueryResult<Vec<(Playlist, Vec<Item>)>> {
    let mut q = playlists::table.filter(playlists::user_id.eq(user)).select(Playlist::as_select()).into_boxed();
    if let Some(after) = after {
        q = q.filter(playlists::id.gt(after));
    }
    let lists: Vec<Playlist> = q.order(playlists::id).limit(limit).load(conn)?;
    let ids: Vec<PlaylistId> = lists.iter().map(|p| p.id).collect();
    let rows: Vec<(PlaylistId, PostId, i64, NaiveDateTime)> = playlist_items::table
        .filter(playlist_items::playlist_id.eq_any(&ids))
        .select((playlist_items::playlist_id, playlist_items::post_id, playlist_items::track, playlist_items::added_at))
        .order((playlist_items::playlist_id, playlist_items::position))
        .load(conn)?;
    let mut items: std::collections::HashMap<PlaylistId, Vec<Item>> = Default::default();
    for (list, post_id, track, added_at) in rows {
        items.entry(list).or_default().push(Item { post_id, track, added_at });
    }
    Ok(lists
        .into_iter()
        .map(|p| {
            let its = items.remove(&p.id).unwrap_or_default();
            (p, its)
        })
        .collect())
}

/// Up to `limit` of `user`'s post ids before `before`, newest first, whatever may be shown of
/// them: one walk of `posts (user_id, id)`. The archive pages by these, so a post a page leaves
/// out (see [`posts_of`]) never ends the walk early.
pub fn post_ids_by(
    conn: &mut DbConnection,
    user: UserId,
    before: Option<PostId>,
    limit: i64,
) -> QueryResult<Vec<PostId>> {
    use db::schema::posts;
    let mut q = posts::table.filter(posts::user_id.eq(user)).select(posts::id).into_boxed();
    if let Some(before) = before {
        q = q.filter(posts::id.lt(before));
    }
    q.order(posts::id.desc()).limit(limit).load(conn)
}

/// These posts with their payloads, in the order of `ids`, as their author sees them: one
/// statement, and one per kind of payload.
pub fn posts_of(conn: &mut DbConnection, ids: &[PostId], author: UserId) -> QueryResult<Vec<crate::Post>> {
    crate::feed::these(conn, ids, Some(author), None)
}
