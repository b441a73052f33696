//! Profiles, listening and blocks (spec §7 Profiles).

use actix_multipart::Multipart;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, web};
use profiles::tags;
use profiles::{AVATAR_MAX_BYTES, Profile, ProfileError, ProfilePatch, Stats};
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::{IntoParams, ToSchema};
use values::UserId;

use crate::error::{ApiError, Detail};
use crate::extract::{AuthUser, Limited, MaybeUser, Session};
use crate::limits::{Blocking, Listening, ProfileEditing};
use crate::routes::search_text;
use crate::state::AppState;
use crate::upload::{self, FileBody, FileRule, Sink, UploadRules};
use crate::wire::{Message, UserJson};

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

/// A profile as the profile screens read it. `biography` repeats `description`, and `role`
/// repeats `tag_id` (spec §3 reads the tag under either name); the tag's name and colour are
/// under `tag`.
#[derive(Serialize, ToSchema)]
pub struct ProfileJson {
    #[schema(value_type = String)]
    id: UserId,
    name: String,
    login: String,
    description: Option<String>,
    biography: Option<String>,
    /// Never null: the default picture's address when the person has none.
    avatar_url: String,
    tag_id: Option<String>,
    role: Option<String>,
    tag: Option<TagJson>,
    /// Only on one's own profile.
    #[serde(skip_serializing_if = "Option::is_none")]
    email: Option<String>,
    stats: StatsJson,
}

fn profile_json(state: &AppState, p: Profile, own: bool) -> ProfileJson {
    let tag = p.tag_id.as_deref().and_then(tags::by_id);
    ProfileJson {
        avatar_url: state.avatar_url(p.avatar_url.as_deref()),
        id: p.id,
        name: p.name,
        login: p.login,
        biography: p.description.clone(),
        description: p.description,
        role: p.tag_id.clone(),
        tag_id: p.tag_id,
        tag: tag.map(|t| TagJson { id: t.id, name: t.name, color: t.color }),
        email: if own { p.email } else { None },
        stats: StatsJson::from(p.stats),
    }
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

#[utoipa::path(tag = "profiles", security(("bearer" = [])),
    responses((status = 200, body = ProfileJson)))]
#[get("/profile/me/profile")]
pub async fn my_profile(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, ApiError> {
    let p = state.profiles.profile(user.0.id).await?;
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(profile_json(&state, p, true)))
}

fn some<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// Fields left out stay as they are; `description` and `tag_id` sent as null are cleared.
/// `tag_id` is a tag's id or its name (`"Musician"`, any case); `""` and `"Add tag"` clear it too.
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

#[utoipa::path(tag = "profiles", security(("bearer" = [])), request_body = ProfilePatchJson,
    responses((status = 200, body = ProfileJson), (status = 400, body = Detail), (status = 401, body = Detail), (status = 409, body = Detail)))]
#[patch("/profile/me")]
pub async fn update_profile(
    state: web::Data<AppState>,
    user: Limited<ProfileEditing>,
    body: web::Json<ProfilePatchJson>,
) -> Result<web::Json<ProfileJson>, ApiError> {
    let body = body.into_inner();
    let patch = ProfilePatch { name: body.name, login: body.login, description: body.description, tag_id: body.tag_id };
    let p = state.profiles.update(user.0.id, patch).await?;
    Ok(web::Json(profile_json(&state, p, true)))
}

#[derive(Serialize, ToSchema)]
pub struct AvatarJson {
    avatar_url: String,
}

fn avatar_rules() -> UploadRules {
    UploadRules {
        files: vec![FileRule {
            field: "avatar",
            // "Under 5MB": a file of exactly 5 MB is one byte too many.
            max_bytes: AVATAR_MAX_BYTES as u64 - 1,
            too_large: |_| ProfileError::AvatarTooLarge.to_string(),
            sink: Sink::Memory,
            narrow: None,
        }],
        texts: vec![],
        max_files: 1,
        too_many_files: "Send one image in the field avatar".to_owned(),
        // Room for the part's boundary and headers, which count against the whole.
        max_total: AVATAR_MAX_BYTES as u64 + 64 * 1024,
        total_too_large: ProfileError::AvatarTooLarge.to_string(),
    }
}

#[utoipa::path(tag = "profiles", security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "field `avatar`: a PNG or JPEG under 5MB"),
    responses((status = 200, body = AvatarJson), (status = 400, body = Detail, description = "no image, or a damaged one"),
        (status = 413, body = Detail), (status = 415, body = Detail)))]
#[patch("/profile/me/avatar")]
pub async fn upload_avatar(
    state: web::Data<AppState>,
    user: Limited<ProfileEditing>,
    req: HttpRequest,
    form: Multipart,
) -> Result<web::Json<AvatarJson>, ApiError> {
    // Before the body is read; held until the avatar is stored.
    let _slot = state.uploads.take(user.0.id)?;
    let received = upload::read(&req, form, &avatar_rules()).await?;
    let Some(FileBody::Memory(bytes)) = received.files.into_iter().next().map(|f| f.body) else {
        return Err(ApiError::invalid("No image was sent: use the multipart field avatar"));
    };
    let url = state.profiles.replace_avatar(user.0.id, bytes.to_vec()).await?;
    Ok(web::Json(AvatarJson { avatar_url: state.media_url(&url) }))
}

#[utoipa::path(tag = "profiles", params(("id" = String, Path)),
    responses((status = 200, body = ProfileJson)))]
#[get("/profiles/{id}")]
pub async fn profile(state: web::Data<AppState>, id: web::Path<UserId>) -> Result<web::Json<ProfileJson>, ApiError> {
    let p = state.profiles.profile(id.into_inner()).await?;
    Ok(web::Json(profile_json(&state, p, false)))
}

#[utoipa::path(tag = "profiles", params(("id" = String, Path)),
    responses((status = 200, body = StatsJson)))]
#[get("/profiles/{id}/stats")]
pub async fn stats(state: web::Data<AppState>, id: web::Path<UserId>) -> Result<HttpResponse, ApiError> {
    stats_of(&state, id.into_inner()).await
}

async fn stats_of(state: &AppState, id: UserId) -> Result<HttpResponse, ApiError> {
    let s = state.profiles.stats(id).await?;
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-cache")).json(StatsJson::from(s)))
}

/// The same counts under the own-profile path the app also calls.
#[utoipa::path(tag = "profiles", params(("id" = String, Path)),
    responses((status = 200, body = StatsJson)))]
#[get("/profile/{id}/stats")]
pub async fn stats_alias(state: web::Data<AppState>, id: web::Path<UserId>) -> Result<HttpResponse, ApiError> {
    stats_of(&state, id.into_inner()).await
}

#[derive(Deserialize, IntoParams)]
pub struct SearchQuery {
    /// Matched case-insensitively against names and logins; empty lists people.
    query: Option<String>,
    /// At most 50 (default 20).
    limit: Option<i64>,
}

#[utoipa::path(tag = "profiles", params(SearchQuery),
    responses((status = 200, body = [SearchHitJson])))]
#[get("/profiles/search")]
pub async fn search(
    state: web::Data<AppState>,
    session: Session,
    q: web::Query<SearchQuery>,
) -> Result<web::Json<Vec<SearchHitJson>>, ApiError> {
    // The session looked up on the search's own connection (or remembered), as pages are: a
    // full check of its own once made a third of a search's cost (issue 30).
    let (query, limit, people) = (search_text(q.query.as_deref())?.to_owned(), q.limit, state.app.people().clone());
    let posts = state.posts.clone();
    let hits = session
        .read(&state, move |conn, viewer| app::search_people_on(conn, &people, &posts, viewer, &query, limit))
        .await?;
    Ok(web::Json(
        hits.into_iter()
            .map(|h| SearchHitJson { user: UserJson::new(&state, h.user), email: None, active: h.active })
            .collect(),
    ))
}

#[derive(Deserialize, IntoParams)]
pub struct ListQuery {
    /// At most 1000 (the default).
    limit: Option<i64>,
    offset: Option<i64>,
}

#[utoipa::path(tag = "social", security(("bearer" = [])), params(ListQuery),
    responses((status = 200, body = [UserJson])))]
#[get("/profiles/listened")]
pub async fn listened(
    state: web::Data<AppState>,
    user: AuthUser,
    q: web::Query<ListQuery>,
) -> Result<web::Json<Vec<UserJson>>, ApiError> {
    let page = social_graph::LISTENED_PAGE.page(q.limit, q.offset);
    let users = state.graph.listened_to(user.0.id, page).await?;
    Ok(web::Json(users.into_iter().map(|u| UserJson::new(&state, u)).collect()))
}

#[utoipa::path(tag = "social", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 400, body = Detail, description = "yourself"),
        (status = 403, body = Detail, description = "a blocked pair")))]
#[post("/profiles/listening/{id}")]
pub async fn listen(
    state: web::Data<AppState>,
    user: Limited<Listening>,
    id: web::Path<UserId>,
) -> Result<web::Json<Message>, ApiError> {
    state.app.listen(user.0.id, id.into_inner()).await?;
    Ok(web::Json(Message::new("You are now listening to this user")))
}

#[utoipa::path(tag = "social", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message)))]
#[delete("/profiles/listening/{id}")]
pub async fn unlisten(
    state: web::Data<AppState>,
    user: Limited<Listening>,
    id: web::Path<UserId>,
) -> Result<web::Json<Message>, ApiError> {
    state.graph.unlisten(user.0.id, id.into_inner()).await?;
    Ok(web::Json(Message::new("You are no longer listening to this user")))
}

#[utoipa::path(tag = "social", security(("bearer" = [])),
    responses((status = 200, body = [UserJson])))]
#[get("/profiles/blocks")]
pub async fn blocked(state: web::Data<AppState>, user: AuthUser) -> Result<web::Json<Vec<UserJson>>, ApiError> {
    let users = state.graph.blocked_users(user.0.id).await?;
    Ok(web::Json(users.into_iter().map(|u| UserJson::new(&state, u)).collect()))
}

#[derive(Serialize, ToSchema)]
pub struct BlockStatus {
    /// The signed-in user has blocked this person.
    is_blocked: bool,
}

#[utoipa::path(tag = "social", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = BlockStatus)))]
#[get("/profiles/blocks/check/{id}")]
pub async fn block_status(
    state: web::Data<AppState>,
    user: AuthUser,
    id: web::Path<UserId>,
) -> Result<HttpResponse, ApiError> {
    let is_blocked = state.graph.has_blocked(user.0.id, id.into_inner()).await?;
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(BlockStatus { is_blocked }))
}

#[utoipa::path(tag = "social", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 400, body = Detail, description = "yourself")))]
#[post("/profiles/blocks/{id}")]
pub async fn block(
    state: web::Data<AppState>,
    user: Limited<Blocking>,
    id: web::Path<UserId>,
) -> Result<web::Json<Message>, ApiError> {
    state.graph.block(user.0.id, id.into_inner()).await?;
    Ok(web::Json(Message::new("User blocked")))
}

#[utoipa::path(tag = "social", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message)))]
#[delete("/profiles/blocks/{id}")]
pub async fn unblock(
    state: web::Data<AppState>,
    user: Limited<Blocking>,
    id: web::Path<UserId>,
) -> Result<web::Json<Message>, ApiError> {
    state.graph.unblock(user.0.id, id.into_inner()).await?;
    Ok(web::Json(Message::new("User unblocked")))
}

#[derive(Deserialize, IntoParams)]
pub struct PeopleQuery {
    /// How many, 30 by default, at most 100.
    limit: Option<i64>,
    /// Where the page before ended: its `next`.
    after: Option<String>,
}

/// A page of people: a person's listeners, or the people they listen to.
#[derive(Serialize, ToSchema)]
pub struct PeopleJson {
    /// The most recent listening first. People of other servers carry their handle as their
    /// login (`name@server`).
    people: Vec<UserJson>,
    /// The `after` of the next page; null on the last.
    next: Option<String>,
}

async fn people_of(
    state: &AppState,
    viewer: MaybeUser,
    person: UserId,
    side: social_graph::Side,
    q: PeopleQuery,
) -> Result<HttpResponse, ApiError> {
    let after = match q.after.as_deref() {
        None | Some("") => None,
        Some(text) => Some(
            social_graph::ListenCursor::decode(text)
                .ok_or_else(|| ApiError::invalid("This page marker (after) is not one this server gave"))?,
        ),
    };
    let limit = social_graph::PEOPLE_PAGE.page(q.limit, None).limit;
    let viewer = viewer.0.map(|v| v.id);
    let (people, next) = state.graph.people_of(person, side, viewer, after, limit).await?;
    let json = PeopleJson {
        people: people.into_iter().map(|u| UserJson::new(state, u)).collect(),
        next: next.map(|c| c.encode()),
    };
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-cache")).json(json))
}

/// The people who listen to a person, signed in or not; nobody the viewer may not see.
#[utoipa::path(tag = "social", params(("id" = String, Path), PeopleQuery),
    responses((status = 200, body = PeopleJson), (status = 400, body = Detail, description = "an unknown `after`"),
        (status = 404, body = Detail)))]
#[get("/profiles/{id}/listeners")]
pub async fn listeners_of(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    id: web::Path<UserId>,
    q: web::Query<PeopleQuery>,
) -> Result<HttpResponse, ApiError> {
    people_of(&state, viewer, id.into_inner(), social_graph::Side::Listeners, q.into_inner()).await
}

/// The people a person listens to, signed in or not; nobody the viewer may not see.
#[utoipa::path(tag = "social", params(("id" = String, Path), PeopleQuery),
    responses((status = 200, body = PeopleJson), (status = 400, body = Detail, description = "an unknown `after`"),
        (status = 404, body = Detail)))]
#[get("/profiles/{id}/listened-to")]
pub async fn listened_to_by(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    id: web::Path<UserId>,
    q: web::Query<PeopleQuery>,
) -> Result<HttpResponse, ApiError> {
    people_of(&state, viewer, id.into_inner(), social_graph::Side::ListenedTo, q.into_inner()).await
}

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
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
        .service(stats)
        .service(listeners_of)
        .service(listened_to_by);
}
