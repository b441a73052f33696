//! Profiles, listening and blocks (spec §7 Profiles).

use actix_multipart::{Multipart, MultipartError};
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, web};
use db::Id;
use db::model::UserCard;
use futures_util::TryStreamExt;
use profiles::tags;
use profiles::{AVATAR_MAX_BYTES, Profile, ProfilePatch, Stats};
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, Detail};
use crate::extract::{AuthUser, MaybeUser};
use crate::state::AppState;

#[derive(Serialize, ToSchema)]
pub struct TagJson {
    id: &'static str,
    name: &'static str,
    color: &'static str,
}

#[derive(Serialize, ToSchema)]
pub struct StatsJson {
    posts: i64,
    listeners: i64,
    #[serde(rename = "listenedTo")]
    listened_to_camel: i64,
    listened_to: i64,
}

impl From<Stats> for StatsJson {
    fn from(s: Stats) -> Self {
        StatsJson {
            posts: s.posts,
            listeners: s.listeners,
            listened_to_camel: s.listened_to,
            listened_to: s.listened_to,
        }
    }
}

/// A profile as the profile screens read it. `biography` repeats `description` and `role` names
/// the tag, because clients read either.
#[derive(Serialize, ToSchema)]
pub struct ProfileJson {
    #[schema(value_type = String)]
    id: Id,
    name: String,
    login: String,
    description: Option<String>,
    biography: Option<String>,
    avatar_url: Option<String>,
    tag_id: Option<String>,
    role: Option<&'static str>,
    tag: Option<TagJson>,
    /// Only on one's own profile.
    #[serde(skip_serializing_if = "Option::is_none")]
    email: Option<String>,
    stats: StatsJson,
}

fn profile_json(state: &AppState, p: Profile, own: bool) -> ProfileJson {
    let tag = p.tag_id.as_deref().and_then(tags::by_id);
    ProfileJson {
        id: Id(p.id),
        name: p.name,
        login: p.login,
        biography: p.description.clone(),
        description: p.description,
        avatar_url: state.media_url(p.avatar_url),
        tag_id: p.tag_id,
        role: tag.map(|t| t.name),
        tag: tag.map(|t| TagJson { id: t.id, name: t.name, color: t.color }),
        email: if own { p.email } else { None },
        stats: StatsJson::from(p.stats),
    }
}

/// A person in a list: search results, listening and block lists.
#[derive(Serialize, ToSchema)]
pub struct UserJson {
    #[schema(value_type = String)]
    id: Id,
    name: String,
    login: String,
    avatar_url: Option<String>,
    tag_id: Option<String>,
}

fn user_json(state: &AppState, u: UserCard) -> UserJson {
    UserJson { id: Id(u.id), name: u.name, login: u.login, avatar_url: state.media_url(u.avatar_url), tag_id: u.tag_id }
}

/// A search result. `email` is part of the wire shape but never disclosed to others (null).
#[derive(Serialize, ToSchema)]
pub struct SearchHitJson {
    #[serde(flatten)]
    user: UserJson,
    email: Option<String>,
    /// The searcher already listens to this person.
    active: bool,
}

#[derive(Serialize, ToSchema)]
pub struct Message {
    message: &'static str,
}

#[utoipa::path(get, path = "/profile/me/profile", tag = "profiles", security(("bearer" = [])),
    responses((status = 200, body = ProfileJson), (status = 401, body = Detail)))]
#[get("/profile/me/profile")]
pub async fn my_profile(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, ApiError> {
    let p = state.profiles.profile(user.0.id).await?;
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(profile_json(&state, p, true)))
}

fn some<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// Fields left out stay as they are; `description` and `tag_id` sent as null are cleared.
#[derive(Deserialize, ToSchema)]
pub struct ProfilePatchJson {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    login: Option<String>,
    #[serde(default, deserialize_with = "some")]
    description: Option<Option<String>>,
    #[serde(default, deserialize_with = "some")]
    tag_id: Option<Option<String>>,
}

#[utoipa::path(patch, path = "/profile/me", tag = "profiles", security(("bearer" = [])), request_body = ProfilePatchJson,
    responses((status = 200, body = ProfileJson), (status = 400, body = Detail), (status = 401, body = Detail), (status = 409, body = Detail)))]
#[patch("/profile/me")]
pub async fn update_profile(
    state: web::Data<AppState>,
    user: AuthUser,
    body: web::Json<ProfilePatchJson>,
) -> Result<web::Json<ProfileJson>, ApiError> {
    let body = body.into_inner();
    let patch = ProfilePatch { name: body.name, login: body.login, description: body.description, tag_id: body.tag_id };
    let p = state.profiles.update(user.0.id, patch).await?;
    Ok(web::Json(profile_json(&state, p, true)))
}

#[derive(Serialize, ToSchema)]
pub struct AvatarJson {
    avatar_url: Option<String>,
}

fn multipart_error(e: MultipartError) -> ApiError {
    match e {
        MultipartError::ContentTypeMissing
        | MultipartError::ContentTypeParse
        | MultipartError::ContentTypeIncompatible => {
            ApiError::UnsupportedMediaType("Send the image as multipart/form-data in a field named avatar".into())
        }
        other => ApiError::BadRequest(format!("Could not read the upload: {other}")),
    }
}

/// Reads the `avatar` field, refusing it as soon as it reaches the size limit, so memory stays
/// bounded whatever is sent.
async fn read_avatar(mut form: Multipart) -> Result<Vec<u8>, ApiError> {
    let too_large = || ApiError::PayloadTooLarge("Image must be smaller than 5MB".into());
    while let Some(mut field) = form.try_next().await.map_err(multipart_error)? {
        if field.name() != Some("avatar") {
            while field.try_next().await.map_err(multipart_error)?.is_some() {}
            continue;
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = field.try_next().await.map_err(multipart_error)? {
            if bytes.len() + chunk.len() >= AVATAR_MAX_BYTES {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }
        return Ok(bytes);
    }
    Err(ApiError::BadRequest("No image was sent: use the multipart field avatar".into()))
}

#[utoipa::path(patch, path = "/profile/me/avatar", tag = "profiles", security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "field `avatar`: a PNG or JPEG under 5MB"),
    responses((status = 200, body = AvatarJson), (status = 401, body = Detail), (status = 413, body = Detail), (status = 415, body = Detail)))]
#[patch("/profile/me/avatar")]
pub async fn upload_avatar(
    state: web::Data<AppState>,
    user: AuthUser,
    req: HttpRequest,
    form: Multipart,
) -> Result<web::Json<AvatarJson>, ApiError> {
    let declared =
        req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > AVATAR_MAX_BYTES + 64 * 1024) {
        return Err(ApiError::PayloadTooLarge("Image must be smaller than 5MB".into()));
    }
    let bytes = read_avatar(form).await?;
    let url = state.profiles.replace_avatar(user.0.id, bytes).await?;
    Ok(web::Json(AvatarJson { avatar_url: state.media_url(Some(url)) }))
}

#[utoipa::path(get, path = "/profiles/{id}", tag = "profiles", params(("id" = String, Path)),
    responses((status = 200, body = ProfileJson), (status = 404, body = Detail)))]
#[get("/profiles/{id}")]
pub async fn profile(state: web::Data<AppState>, id: web::Path<Id>) -> Result<web::Json<ProfileJson>, ApiError> {
    let p = state.profiles.profile(id.into_inner()).await?;
    Ok(web::Json(profile_json(&state, p, false)))
}

#[utoipa::path(get, path = "/profiles/{id}/stats", tag = "profiles", params(("id" = String, Path)),
    responses((status = 200, body = StatsJson), (status = 404, body = Detail)))]
#[get("/profiles/{id}/stats")]
pub async fn stats(state: web::Data<AppState>, id: web::Path<Id>) -> Result<HttpResponse, ApiError> {
    stats_of(&state, id.into_inner()).await
}

async fn stats_of(state: &AppState, id: Id) -> Result<HttpResponse, ApiError> {
    let s = state.profiles.stats(id).await?;
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-cache")).json(StatsJson::from(s)))
}

/// The same counts under the own-profile path the app also calls.
#[utoipa::path(get, path = "/profile/{id}/stats", tag = "profiles", params(("id" = String, Path)),
    responses((status = 200, body = StatsJson), (status = 404, body = Detail)))]
#[get("/profile/{id}/stats")]
pub async fn stats_alias(state: web::Data<AppState>, id: web::Path<Id>) -> Result<HttpResponse, ApiError> {
    stats_of(&state, id.into_inner()).await
}

#[derive(Deserialize, IntoParams)]
pub struct SearchQuery {
    /// Matched case-insensitively against names and logins; empty lists people.
    query: Option<String>,
    /// At most 50 (default 20).
    limit: Option<i64>,
}

#[utoipa::path(get, path = "/profiles/search", tag = "profiles", params(SearchQuery),
    responses((status = 200, body = [SearchHitJson])))]
#[get("/profiles/search")]
pub async fn search(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    q: web::Query<SearchQuery>,
) -> Result<web::Json<Vec<SearchHitJson>>, ApiError> {
    let viewer = viewer.0.map(|u| u.id);
    let hits = state.profiles.search(viewer, q.query.as_deref().unwrap_or_default(), q.limit.unwrap_or(20)).await?;
    Ok(web::Json(
        hits.into_iter()
            .map(|h| SearchHitJson { user: user_json(&state, h.user), email: None, active: h.active })
            .collect(),
    ))
}

#[derive(Deserialize, IntoParams)]
pub struct ListQuery {
    limit: Option<i64>,
    offset: Option<i64>,
}

#[utoipa::path(get, path = "/profiles/listened", tag = "social", security(("bearer" = [])), params(ListQuery),
    responses((status = 200, body = [UserJson]), (status = 401, body = Detail)))]
#[get("/profiles/listened")]
pub async fn listened(
    state: web::Data<AppState>,
    user: AuthUser,
    q: web::Query<ListQuery>,
) -> Result<web::Json<Vec<UserJson>>, ApiError> {
    let me = user.0.id;
    let (limit, offset) = (q.limit.unwrap_or(social_graph::MAX_LIST), q.offset.unwrap_or(0));
    let users = state.db.run(move |conn| social_graph::listened_to(conn, me, limit, offset)).await?;
    Ok(web::Json(users.into_iter().map(|u| user_json(&state, u)).collect()))
}

#[utoipa::path(post, path = "/profiles/listening/{id}", tag = "social", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 400, body = Detail), (status = 401, body = Detail), (status = 403, body = Detail), (status = 404, body = Detail)))]
#[post("/profiles/listening/{id}")]
pub async fn listen(
    state: web::Data<AppState>,
    user: AuthUser,
    id: web::Path<Id>,
) -> Result<web::Json<Message>, ApiError> {
    let (me, target) = (user.0.id, id.into_inner());
    state.db.run(move |conn| social_graph::listen(conn, me, target)).await?;
    Ok(web::Json(Message { message: "You are now listening to this user" }))
}

#[utoipa::path(delete, path = "/profiles/listening/{id}", tag = "social", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 401, body = Detail), (status = 404, body = Detail)))]
#[delete("/profiles/listening/{id}")]
pub async fn unlisten(
    state: web::Data<AppState>,
    user: AuthUser,
    id: web::Path<Id>,
) -> Result<web::Json<Message>, ApiError> {
    let (me, target) = (user.0.id, id.into_inner());
    state.db.run(move |conn| social_graph::unlisten(conn, me, target)).await?;
    Ok(web::Json(Message { message: "You are no longer listening to this user" }))
}

#[utoipa::path(get, path = "/profiles/blocks", tag = "social", security(("bearer" = [])),
    responses((status = 200, body = [UserJson]), (status = 401, body = Detail)))]
#[get("/profiles/blocks")]
pub async fn blocked(state: web::Data<AppState>, user: AuthUser) -> Result<web::Json<Vec<UserJson>>, ApiError> {
    let me = user.0.id;
    let users = state.db.run(move |conn| social_graph::blocked_users(conn, me)).await?;
    Ok(web::Json(users.into_iter().map(|u| user_json(&state, u)).collect()))
}

#[derive(Serialize, ToSchema)]
pub struct BlockStatus {
    /// The signed-in user has blocked this person.
    is_blocked: bool,
}

#[utoipa::path(get, path = "/profiles/blocks/check/{id}", tag = "social", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = BlockStatus), (status = 401, body = Detail), (status = 404, body = Detail)))]
#[get("/profiles/blocks/check/{id}")]
pub async fn block_status(
    state: web::Data<AppState>,
    user: AuthUser,
    id: web::Path<Id>,
) -> Result<HttpResponse, ApiError> {
    let (me, target) = (user.0.id, id.into_inner());
    let is_blocked = state.db.run(move |conn| social_graph::has_blocked(conn, me, target)).await?;
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(BlockStatus { is_blocked }))
}

#[utoipa::path(post, path = "/profiles/blocks/{id}", tag = "social", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 400, body = Detail), (status = 401, body = Detail), (status = 404, body = Detail)))]
#[post("/profiles/blocks/{id}")]
pub async fn block(
    state: web::Data<AppState>,
    user: AuthUser,
    id: web::Path<Id>,
) -> Result<web::Json<Message>, ApiError> {
    let (me, target) = (user.0.id, id.into_inner());
    state.db.run(move |conn| social_graph::block(conn, me, target)).await?;
    Ok(web::Json(Message { message: "User blocked" }))
}

#[utoipa::path(delete, path = "/profiles/blocks/{id}", tag = "social", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 401, body = Detail), (status = 404, body = Detail)))]
#[delete("/profiles/blocks/{id}")]
pub async fn unblock(
    state: web::Data<AppState>,
    user: AuthUser,
    id: web::Path<Id>,
) -> Result<web::Json<Message>, ApiError> {
    let (me, target) = (user.0.id, id.into_inner());
    state.db.run(move |conn| social_graph::unblock(conn, me, target)).await?;
    Ok(web::Json(Message { message: "User unblocked" }))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    // Fixed paths before `/profiles/{id}`, which would otherwise take "search" for an id.
    cfg.service(my_profile)
        .service(update_profile)
        .service(upload_avatar)
        .service(stats_alias)
        .service(search)
        .service(listened)
        .service(listen)
        .service(unlisten)
        .service(blocked)
        .service(block_status)
        .service(block)
        .service(unblock)
        .service(profile)
        .service(stats);
}
