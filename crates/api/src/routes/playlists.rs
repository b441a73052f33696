//! Playlists (issue 31; docs/posts.md, "Playlists"): a person's named lists of tracks and scores,
//! their page, and a person's list of them. Every write counts against the `playlist` limit.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, web};
use chrono::{DateTime, Utc};
use posts::playlists::{Entry, PLAYLISTS_PAGE, Playlist, PlaylistEdit};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use values::{PlaylistId, PlaylistItemId, PostId, UserId};

use crate::error::{ApiError, Detail};
use crate::extract::{Limited, MaybeUser, ReadLimited};
use crate::limits::{EditingPlaylists, ReadingPlaylists};
use crate::routes::posts::{Embedded, PostJson};
use crate::state::AppState;
use crate::wire::UserJson;

/// A playlist, as lists show it.
#[derive(Serialize, ToSchema)]
pub struct PlaylistJson {
    #[schema(value_type = String)]
    id: PlaylistId,
    #[schema(value_type = String)]
    user_id: UserId,
    title: String,
    description: Option<String>,
    /// Shown to everyone (and on its owner's profile); else to its owner only.
    public: bool,
    /// Its items, those no longer available included.
    items_count: i64,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
}

impl From<&Playlist> for PlaylistJson {
    fn from(p: &Playlist) -> Self {
        PlaylistJson {
            id: p.id,
            user_id: p.user_id,
            title: p.title.clone(),
            description: p.description.clone(),
            public: p.is_public,
            items_count: p.items_count,
            created_at: p.created_at.and_utc(),
            updated_at: p.updated_at.and_utc(),
        }
    }
}

/// One entry of a playlist: a track (or score) of a post, by its place in the post.
#[derive(Serialize, ToSchema)]
pub struct PlaylistItemJson {
    #[schema(value_type = String)]
    id: PlaylistItemId,
    #[schema(value_type = String)]
    post_id: PostId,
    /// The track's (or score's) place in the post, from 0.
    track: i64,
    added_at: DateTime<Utc>,
    /// False when its post is gone or hidden from the viewer: only its owner sees such an
    /// entry, without its post.
    available: bool,
    /// The post, as feeds show it; null when not available.
    post: Option<PostJson>,
}

/// A playlist's page: the playlist, its owner and its items in order.
#[derive(Serialize, ToSchema)]
pub struct PlaylistPageJson {
    #[serde(flatten)]
    playlist: PlaylistJson,
    user: UserJson,
    items: Vec<PlaylistItemJson>,
}

/// [`PlaylistItemJson`] as it is written: its post as the feeds write it (kept rendered).
#[derive(Serialize)]
struct PlaylistItemOut {
    id: PlaylistItemId,
    post_id: PostId,
    track: i64,
    added_at: DateTime<Utc>,
    available: bool,
    post: Option<Embedded>,
}

/// [`PlaylistPageJson`] as it is written.
#[derive(Serialize)]
struct PlaylistPageOut {
    #[serde(flatten)]
    playlist: PlaylistJson,
    user: UserJson,
    items: Vec<PlaylistItemOut>,
}

fn item_json(state: &AppState, e: &Entry) -> PlaylistItemOut {
    PlaylistItemOut {
        id: e.id,
        post_id: e.post_id,
        track: e.track,
        added_at: e.added_at.and_utc(),
        available: e.post.is_some(),
        post: e.post.as_ref().map(|p| state.rendered.embedded(state, p)),
    }
}

/// What `POST /playlists` and `PATCH /playlists/{id}` take: each field left out stays as it is
/// (a new playlist needs a title, and is public unless `public` is false).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlaylistEditJson {
    /// 1 to 100 characters.
    title: Option<String>,
    /// At most 1000 characters; null or blank takes it away.
    #[serde(default, deserialize_with = "crate::wire::present")]
    #[schema(nullable)]
    description: Option<Option<String>>,
    public: Option<bool>,
}

impl From<PlaylistEditJson> for PlaylistEdit {
    fn from(j: PlaylistEditJson) -> Self {
        PlaylistEdit { title: j.title, description: j.description, public: j.public }
    }
}

/// Makes a playlist of one's own (at most 200 a person).
#[utoipa::path(tag = "playlists", security(("bearer" = [])), request_body = PlaylistEditJson,
    responses((status = 201, body = PlaylistJson), (status = 400, body = Detail, description = "no title, too long, too many playlists")))]
#[post("/playlists")]
pub async fn create_playlist(
    state: web::Data<AppState>,
    user: Limited<EditingPlaylists>,
    body: web::Json<PlaylistEditJson>,
) -> Result<HttpResponse, ApiError> {
    let made = state.posts.create_playlist(user.0.id, body.into_inner().into()).await?;
    Ok(HttpResponse::Created().json(PlaylistJson::from(&made)))
}

/// A playlist with its items as the viewer may see them (signed in or not): a private one only
/// to its owner (404 to anyone else), nothing of an owner hidden from the viewer.
#[utoipa::path(tag = "playlists", params(("playlist_id" = String, Path)),
    responses((status = 200, body = PlaylistPageJson), (status = 404, body = Detail)))]
#[get("/playlists/{playlist_id}")]
pub async fn playlist(
    state: web::Data<AppState>,
    viewer: ReadLimited<ReadingPlaylists>,
    id: web::Path<PlaylistId>,
) -> Result<HttpResponse, ApiError> {
    let page = state.posts.playlist(id.into_inner(), viewer.0).await?;
    let json = PlaylistPageOut {
        playlist: PlaylistJson::from(&page.playlist),
        user: UserJson::new(&state, page.owner.clone()),
        items: page.entries.iter().map(|e| item_json(&state, e)).collect(),
    };
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-cache")).json(json))
}

#[utoipa::path(tag = "playlists", security(("bearer" = [])), params(("playlist_id" = String, Path)),
    request_body = PlaylistEditJson,
    responses((status = 200, body = PlaylistJson), (status = 400, body = Detail), (status = 403, body = Detail, description = "not its owner"),
        (status = 404, body = Detail)))]
#[patch("/playlists/{playlist_id}")]
pub async fn edit_playlist(
    state: web::Data<AppState>,
    user: Limited<EditingPlaylists>,
    id: web::Path<PlaylistId>,
    body: web::Json<PlaylistEditJson>,
) -> Result<web::Json<PlaylistJson>, ApiError> {
    let p = state.posts.edit_playlist(user.0.id, id.into_inner(), body.into_inner().into()).await?;
    Ok(web::Json(PlaylistJson::from(&p)))
}

#[utoipa::path(tag = "playlists", security(("bearer" = [])), params(("playlist_id" = String, Path)),
    responses((status = 204), (status = 403, body = Detail, description = "not its owner"), (status = 404, body = Detail)))]
#[delete("/playlists/{playlist_id}")]
pub async fn delete_playlist(
    state: web::Data<AppState>,
    user: Limited<EditingPlaylists>,
    id: web::Path<PlaylistId>,
) -> Result<HttpResponse, ApiError> {
    state.posts.delete_playlist(user.0.id, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// What `POST /playlists/{id}/items` takes: a track of an audio post, or a score of a sheet
/// music post, by its place in the post.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewItemJson {
    #[schema(value_type = String)]
    post_id: PostId,
    /// From 0; 0 when left out.
    #[serde(default)]
    track: i64,
}

/// Adds a track or score of any post one may see at the end of one's playlist (at most 500).
#[utoipa::path(tag = "playlists", security(("bearer" = [])), params(("playlist_id" = String, Path)),
    request_body = NewItemJson,
    responses((status = 201, body = PlaylistItemJson),
        (status = 400, body = Detail, description = "not a track or score, no such track, the playlist is full"),
        (status = 403, body = Detail, description = "not its owner"), (status = 404, body = Detail, description = "no such playlist or post"),
        (status = 409, body = Detail, description = "already in the playlist")))]
#[post("/playlists/{playlist_id}/items")]
pub async fn add_playlist_item(
    state: web::Data<AppState>,
    user: Limited<EditingPlaylists>,
    id: web::Path<PlaylistId>,
    body: web::Json<NewItemJson>,
) -> Result<HttpResponse, ApiError> {
    let me = user.0.id;
    let entry = state.posts.add_to_playlist(me, id.into_inner(), body.post_id, body.track).await?;
    // Added, the post is one the owner may see: read it for the answer.
    let post = state.posts.post(entry.post_id, Some(me)).await.ok();
    Ok(HttpResponse::Created().json(item_json(&state, &Entry { post, ..entry })))
}

#[utoipa::path(tag = "playlists", security(("bearer" = [])), params(("playlist_id" = String, Path), ("item_id" = String, Path)),
    responses((status = 204), (status = 403, body = Detail, description = "not its owner"), (status = 404, body = Detail)))]
#[delete("/playlists/{playlist_id}/items/{item_id}")]
pub async fn remove_playlist_item(
    state: web::Data<AppState>,
    user: Limited<EditingPlaylists>,
    path: web::Path<(PlaylistId, PlaylistItemId)>,
) -> Result<HttpResponse, ApiError> {
    let (id, item) = path.into_inner();
    state.posts.remove_from_playlist(user.0.id, id, item).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Where an item moves to.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveItemJson {
    /// Its new place, from 0 (past the end: the end).
    position: i64,
}

/// Moves an item of one's playlist to another place; the items between shift by one.
#[utoipa::path(tag = "playlists", security(("bearer" = [])), params(("playlist_id" = String, Path), ("item_id" = String, Path)),
    request_body = MoveItemJson,
    responses((status = 204), (status = 400, body = Detail), (status = 403, body = Detail, description = "not its owner"), (status = 404, body = Detail)))]
#[patch("/playlists/{playlist_id}/items/{item_id}")]
pub async fn move_playlist_item(
    state: web::Data<AppState>,
    user: Limited<EditingPlaylists>,
    path: web::Path<(PlaylistId, PlaylistItemId)>,
    body: web::Json<MoveItemJson>,
) -> Result<HttpResponse, ApiError> {
    let (id, item) = path.into_inner();
    state.posts.move_in_playlist(user.0.id, id, item, body.position).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Deserialize, IntoParams)]
pub struct PlaylistsQuery {
    /// 1 to 50 (default 20).
    limit: Option<i64>,
    /// Playlists made before this one.
    #[param(value_type = Option<String>)]
    before: Option<PlaylistId>,
}

/// A person's playlists, newest first: all of them to their owner, the public ones to anyone
/// else; `Link: <...>; rel="next"` when the page is full.
#[utoipa::path(tag = "playlists", params(("user_id" = String, Path), PlaylistsQuery),
    responses((status = 200, body = [PlaylistJson], headers(("Link" = String, description = "rel=\"next\" when the page is full"))),
        (status = 404, body = Detail)))]
#[get("/playlists/user/{user_id}")]
pub async fn playlists_of_user(
    state: web::Data<AppState>,
    req: HttpRequest,
    viewer: MaybeUser,
    owner: web::Path<UserId>,
    q: web::Query<PlaylistsQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = PLAYLISTS_PAGE.keyset(q.before, q.limit);
    let found = state.posts.playlists_of(owner.into_inner(), viewer.0.map(|u| u.id), page).await?;
    let mut res = HttpResponse::Ok();
    res.insert_header((header::CACHE_CONTROL, "no-cache"));
    if found.len() as i64 == page.limit
        && let Some(last) = found.last()
    {
        res.insert_header((
            header::LINK,
            format!("<{}?limit={}&before={}>; rel=\"next\"", req.path(), page.limit, last.id),
        ));
    }
    Ok(res.json(found.iter().map(PlaylistJson::from).collect::<Vec<_>>()))
}

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    // The fixed path before `/playlists/{playlist_id}`.
    cfg.service(playlists_of_user)
        .service(create_playlist)
        .service(playlist)
        .service(edit_playlist)
        .service(delete_playlist)
        .service(add_playlist_item)
        .service(remove_playlist_item)
        .service(move_playlist_item);
}
