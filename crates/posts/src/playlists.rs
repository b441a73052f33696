//! Playlists (issue 31): a person's named lists of tracks and scores — their own or anyone's
//! they may see — public or private, in an order they choose.
//!
//! An item names a track (or score) by its post and its place in the post. Items stay when what
//! they name goes (a post deleted, its author suspended or in a block pair with the viewer):
//! the owner sees such an item as no longer available and may remove it, anyone else does not
//! see it at all; nothing of its content is shown. A playlist holds at most
//! [`PLAYLIST_ITEMS_MAX`] items and a person at most [`PLAYLISTS_PER_PERSON`] playlists.
//!
//! A playlist's page is a fixed handful of statements whatever its length: the playlist with
//! its owner (and whether the viewer may see it), its items in order (`playlist_items
//! (playlist_id, position)`), the posts they name as the viewer may see them (one statement, as
//! a page of search results is read), and one per kind of payload not in memory. Writes run in
//! one transaction each, a few statements on the playlist's keys.

use chrono::NaiveDateTime;
use db::diesel::dsl::{count_star, max};
use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Timestamp};
use db::model::UserCard;
use db::schema::{playlist_items, playlists, users};
use db::{DbConnection, Kept, Keyset, PageRule};
use social_graph::visibility;
use values::{PlaylistId, PlaylistItemId, PostId, PostKind, UserId};

use crate::PostError;
use crate::input::plain;
use crate::model::{Payload, Post};
use crate::repo::visible;

/// Items a playlist holds at most.
pub const PLAYLIST_ITEMS_MAX: i64 = 500;
/// Playlists a person has at most.
pub const PLAYLISTS_PER_PERSON: i64 = 200;
/// Characters of a playlist's title and description at most.
pub const PLAYLIST_TITLE_MAX: usize = 100;
pub const PLAYLIST_DESCRIPTION_MAX: usize = 1000;
/// A person's playlists: 20 a page by default, at most 50.
pub const PLAYLISTS_PAGE: PageRule = PageRule::new(20, 50);

/// A playlist's own row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = playlists)]
pub struct Playlist {
    pub id: PlaylistId,
    pub user_id: UserId,
    pub title: String,
    pub description: Option<String>,
    pub is_public: bool,
    pub items_count: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = playlist_items)]
struct ItemRow {
    id: PlaylistItemId,
    playlist_id: PlaylistId,
    position: i64,
    post_id: PostId,
    track: i64,
    added_at: NaiveDateTime,
}

/// One entry of a playlist as its viewer sees it: the post it names (with its payload) while
/// that may be shown to them; none when it is gone or hidden (then only its owner sees it).
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: PlaylistItemId,
    pub post_id: PostId,
    pub track: i64,
    pub added_at: NaiveDateTime,
    pub post: Option<Post>,
}

/// A playlist's page: the playlist, its owner's card, and its entries in order.
#[derive(Debug, Clone, PartialEq)]
pub struct PlaylistPage {
    pub playlist: Playlist,
    pub owner: UserCard,
    pub entries: Vec<Entry>,
}

/// What a person sends to make a playlist or change one: each field left out stays as it is.
#[derive(Debug, Clone, Default)]
pub struct PlaylistEdit {
    pub title: Option<String>,
    /// `Some(None)` or blank takes the description away.
    pub description: Option<Option<String>>,
    pub public: Option<bool>,
}

fn title_of(raw: &str) -> Result<String, PostError> {
    let title = plain(raw.trim())?;
    if title.is_empty() {
        return Err(PostError::PlaylistTitleBlank);
    }
    if title.chars().count() > PLAYLIST_TITLE_MAX {
        return Err(PostError::PlaylistTitleTooLong);
    }
    Ok(title.to_owned())
}

fn description_of(raw: Option<&str>) -> Result<Option<String>, PostError> {
    let Some(text) = raw.map(str::trim).filter(|t| !t.is_empty()) else { return Ok(None) };
    plain(text)?;
    if text.chars().count() > PLAYLIST_DESCRIPTION_MAX {
        return Err(PostError::PlaylistDescriptionTooLong);
    }
    Ok(Some(text.to_owned()))
}

/// Makes a playlist of `me`'s (a title is needed; public unless said otherwise).
pub fn create(conn: &mut DbConnection, me: UserId, input: PlaylistEdit) -> Result<Playlist, PostError> {
    let title = title_of(input.title.as_deref().unwrap_or_default())?;
    let description = description_of(input.description.flatten().as_deref())?;
    let owned: i64 = playlists::table.filter(playlists::user_id.eq(me)).count().get_result(conn)?;
    if owned >= PLAYLISTS_PER_PERSON {
        return Err(PostError::TooManyPlaylists);
    }
    let now = db::time::now();
    let playlist = Playlist {
        id: PlaylistId::generate(),
        user_id: me,
        title,
        description,
        is_public: input.public.unwrap_or(true),
        items_count: 0,
        created_at: now,
        updated_at: now,
    };
    diesel::insert_into(playlists::table).values(&playlist).execute(conn)?;
    Ok(playlist)
}

/// `me`'s playlist `id`: not found when there is none, forbidden when it is someone else's.
fn owned(conn: &mut DbConnection, me: UserId, id: PlaylistId) -> Result<Playlist, PostError> {
    let found: Option<Playlist> =
        playlists::table.filter(playlists::id.eq(id)).select(Playlist::as_select()).first(conn).optional()?;
    let found = found.ok_or(PostError::PlaylistNotFound)?;
    if found.user_id != me {
        // A private playlist of someone else's is not even there.
        return Err(if found.is_public { PostError::NotPlaylistOwner } else { PostError::PlaylistNotFound });
    }
    Ok(found)
}

/// Changes the title, description or visibility of `me`'s playlist.
pub fn edit(conn: &mut DbConnection, me: UserId, id: PlaylistId, edit: PlaylistEdit) -> Result<Playlist, PostError> {
    let mut playlist = owned(conn, me, id)?;
    if let Some(title) = edit.title.as_deref() {
        playlist.title = title_of(title)?;
    }
    if let Some(description) = edit.description {
        playlist.description = description_of(description.as_deref())?;
    }
    if let Some(public) = edit.public {
        playlist.is_public = public;
    }
    playlist.updated_at = db::time::now();
    diesel::update(playlists::table.filter(playlists::id.eq(id)))
        .set((
            playlists::title.eq(&playlist.title),
            playlists::description.eq(&playlist.description),
            playlists::is_public.eq(playlist.is_public),
            playlists::updated_at.eq(playlist.updated_at),
        ))
        .execute(conn)?;
    Ok(playlist)
}

/// Deletes `me`'s playlist with its items.
pub fn delete(conn: &mut DbConnection, me: UserId, id: PlaylistId) -> Result<(), PostError> {
    owned(conn, me, id)?;
    diesel::delete(playlists::table.filter(playlists::id.eq(id))).execute(conn)?;
    Ok(())
}

/// A track at most once in a playlist (`playlist_items (playlist_id, post_id, track)`).
const INSERT_ITEM: &str = "INSERT INTO playlist_items (id, playlist_id, position, post_id, track, added_at) \
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";

/// Adds track `track` of `post` (a post `me` may see: an audio post's track or a sheet music
/// post's score) at the end of `me`'s playlist.
pub fn add(conn: &mut DbConnection, me: UserId, id: PlaylistId, post: PostId, track: i64) -> Result<Entry, PostError> {
    let playlist = owned(conn, me, id)?;
    if playlist.items_count >= PLAYLIST_ITEMS_MAX {
        return Err(PostError::PlaylistFull);
    }
    let found = visible(conn, post, Some(me))?.ok_or(PostError::NotFound)?;
    if !matches!(found.kind, PostKind::Audio | PostKind::MusicXml) {
        return Err(PostError::NotForPlaylists);
    }
    crate::plays::track_exists(conn, post, found.kind, track)?;
    let last: Option<i64> = playlist_items::table
        .filter(playlist_items::playlist_id.eq(id))
        .select(max(playlist_items::position))
        .first(conn)?;
    let row = ItemRow {
        id: PlaylistItemId::generate(),
        playlist_id: id,
        position: last.map_or(0, |p| p + 1),
        post_id: post,
        track,
        added_at: db::time::now(),
    };
    let added = Kept::new(INSERT_ITEM)
        .bind::<BigInt, _>(row.id)
        .bind::<BigInt, _>(row.playlist_id)
        .bind::<BigInt, _>(row.position)
        .bind::<BigInt, _>(row.post_id)
        .bind::<BigInt, _>(row.track)
        .bind::<Timestamp, _>(row.added_at)
        .execute(conn)?;
    if added == 0 {
        return Err(PostError::AlreadyInPlaylist);
    }
    touch(conn, id, 1)?;
    Ok(Entry { id: row.id, post_id: post, track, added_at: row.added_at, post: None })
}

/// The playlist's count moved by `delta`, and its time of change.
fn touch(conn: &mut DbConnection, id: PlaylistId, delta: i64) -> QueryResult<()> {
    diesel::update(playlists::table.filter(playlists::id.eq(id)))
        .set((playlists::items_count.eq(playlists::items_count + delta), playlists::updated_at.eq(db::time::now())))
        .execute(conn)?;
    Ok(())
}

/// Takes item `item` out of `me`'s playlist (the others keep their order).
pub fn remove(conn: &mut DbConnection, me: UserId, id: PlaylistId, item: PlaylistItemId) -> Result<(), PostError> {
    owned(conn, me, id)?;
    let gone = diesel::delete(
        playlist_items::table.filter(playlist_items::id.eq(item)).filter(playlist_items::playlist_id.eq(id)),
    )
    .execute(conn)?;
    if gone == 0 {
        return Err(PostError::PlaylistItemNotFound);
    }
    touch(conn, id, -1)?;
    Ok(())
}

/// Moves item `item` of `me`'s playlist to place `to` (from 0; past the end is the end): the
/// items between its old place and the new one shift by one: a read of the playlist's places
/// (at most [`PLAYLIST_ITEMS_MAX`]) and four updates on `(playlist_id, position)`.
pub fn reorder(
    conn: &mut DbConnection,
    me: UserId,
    id: PlaylistId,
    item: PlaylistItemId,
    to: i64,
) -> Result<(), PostError> {
    owned(conn, me, id)?;
    let positions: Vec<(PlaylistItemId, i64)> = playlist_items::table
        .filter(playlist_items::playlist_id.eq(id))
        .order(playlist_items::position)
        .select((playlist_items::id, playlist_items::position))
        .load(conn)?;
    let from = positions.iter().position(|(i, _)| *i == item).ok_or(PostError::PlaylistItemNotFound)?;
    if to < 0 {
        return Err(PostError::PlaylistPlaceNegative);
    }
    let to = usize::try_from(to).unwrap_or(usize::MAX).min(positions.len() - 1);
    if to == from {
        return Ok(());
    }
    // Places are kept 0..n (every write leaves them so): the moved item takes the place of the
    // one at `to`, and those between move by one towards where it was.
    let (old, new) = (positions[from].1, positions[to].1);
    let mine = playlist_items::table.filter(playlist_items::playlist_id.eq(id));
    // Out of the way first (positions are not unique, but ordered reads must not tie).
    diesel::update(mine.filter(playlist_items::id.eq(item))).set(playlist_items::position.eq(-1)).execute(conn)?;
    if new > old {
        diesel::update(mine.filter(playlist_items::position.gt(old)).filter(playlist_items::position.le(new)))
            .set(playlist_items::position.eq(playlist_items::position - 1))
            .execute(conn)?;
    } else {
        diesel::update(mine.filter(playlist_items::position.ge(new)).filter(playlist_items::position.lt(old)))
            .set(playlist_items::position.eq(playlist_items::position + 1))
            .execute(conn)?;
    }
    diesel::update(mine.filter(playlist_items::id.eq(item))).set(playlist_items::position.eq(new)).execute(conn)?;
    diesel::update(playlists::table.filter(playlists::id.eq(id)))
        .set(playlists::updated_at.eq(db::time::now()))
        .execute(conn)?;
    Ok(())
}

/// The playlist `id` as `viewer` sees it: not found when it is private and theirs it is not, or
/// its owner is hidden from them (suspended, a block either way). Its posts from `memory` where
/// it holds them.
pub(crate) fn page(
    conn: &mut DbConnection,
    id: PlaylistId,
    viewer: Option<UserId>,
    memory: Option<&crate::memory::Memory>,
) -> Result<PlaylistPage, PostError> {
    let q = playlists::table
        .inner_join(users::table)
        .filter(playlists::id.eq(id))
        .select((Playlist::as_select(), UserCard::as_select()))
        .into_boxed();
    let found: Option<(Playlist, UserCard)> =
        visibility::shown_to(q, playlists::user_id, viewer).first(conn).optional()?;
    let (playlist, owner) = found.ok_or(PostError::PlaylistNotFound)?;
    let own = viewer == Some(playlist.user_id);
    if !playlist.is_public && !own {
        return Err(PostError::PlaylistNotFound);
    }
    let items: Vec<ItemRow> = playlist_items::table
        .filter(playlist_items::playlist_id.eq(id))
        .order(playlist_items::position)
        .select(ItemRow::as_select())
        .load(conn)?;
    let posts = crate::feed::these_by_id(conn, items.iter().map(|i| i.post_id), viewer, memory)?;
    let entries = items
        .into_iter()
        .filter_map(|i| {
            // The track must still be there (its post's payload holds it).
            let post = posts.get(&i.post_id).filter(|p| has_track(p, i.track)).cloned();
            (own || post.is_some()).then_some(Entry {
                id: i.id,
                post_id: i.post_id,
                track: i.track,
                added_at: i.added_at,
                post,
            })
        })
        .collect();
    Ok(PlaylistPage { playlist, owner, entries })
}

fn has_track(post: &Post, track: i64) -> bool {
    let Ok(at) = usize::try_from(track) else { return false };
    match &*post.payload {
        Payload::Audio(tracks) => at < tracks.len(),
        Payload::Scores(scores) => at < scores.len(),
        _ => false,
    }
}

/// `owner`'s playlists as `viewer` sees them, newest first: all of them for the owner, the
/// public ones for anyone else (none when the owner is hidden from them). One statement.
pub fn of_owner(
    conn: &mut DbConnection,
    owner: UserId,
    viewer: Option<UserId>,
    page: Keyset<PlaylistId>,
) -> Result<Vec<Playlist>, PostError> {
    if viewer != Some(owner) && visibility::is_hidden(conn, owner, viewer)? {
        return Ok(Vec::new());
    }
    let mut q = playlists::table.filter(playlists::user_id.eq(owner)).select(Playlist::as_select()).into_boxed();
    if viewer != Some(owner) {
        q = q.filter(playlists::is_public.eq(true));
    }
    if let Some(before) = page.before {
        q = q.filter(playlists::id.lt(before));
    }
    Ok(q.order(playlists::id.desc()).limit(page.limit).load(conn)?)
}

/// How many playlists `owner` has that `viewer` may see (for the profile's tab).
pub fn count_of_owner(conn: &mut DbConnection, owner: UserId, viewer: Option<UserId>) -> QueryResult<i64> {
    let mut q = playlists::table.filter(playlists::user_id.eq(owner)).select(count_star()).into_boxed();
    if viewer != Some(owner) {
        q = q.filter(playlists::is_public.eq(true));
    }
    q.first(conn)
}
