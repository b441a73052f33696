//! Federation's addresses (docs/federation.md): WebFinger, NodeInfo, our people's actors and
//! collections, and the inboxes other servers deliver to. All of them answer 404 while
//! federation is off. Not part of the spec's calls (they are ActivityPub's), so not in the
//! OpenAPI document.

use activitypub_federation::FEDERATION_CONTENT_TYPE;
use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use federation::FederationError;
use federation::activities::Inbound;
use federation::actors::Actor;
use serde::Deserialize;
use values::{ErrorKind, UserId};

use crate::error::{ApiError, Detail};
use crate::extract::{AdminUser, Limited};
use crate::limits::{self, Action, Limit, Suspending};
use crate::slots::Full;
use crate::state::AppState;

/// The largest activity an inbox reads (a reply with a long text is a few KB).
pub const INBOX_BODY_MOST: usize = 256 * 1024;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/.well-known/webfinger", web::get().to(webfinger))
        .route("/.well-known/nodeinfo", web::get().to(nodeinfo_links))
        .route("/nodeinfo/2.1", web::get().to(nodeinfo))
        .service(
            web::resource(["/ap/inbox", "/ap/users/{id}/inbox"])
                .app_data(web::PayloadConfig::new(INBOX_BODY_MOST))
                .route(web::post().to(inbox)),
        )
        .route("/ap/posts/{id}", web::get().to(note))
        .route("/ap/comments/{id}", web::get().to(comment))
        // The post page asked for ActivityPub (a post's address pasted into Mastodon's search):
        // its Note; a browser's request goes on to the web app.
        .service(
            web::resource(["/app/post/{id}", "/post/{id}"])
                .guard(actix_web::guard::fn_guard(asks_for_activitypub))
                .route(web::get().to(note)),
        )
        .route("/ap/users/{id}", web::get().to(actor))
        .route("/ap/users/{id}/{collection}", web::get().to(collection));
}

fn federation_of(state: &AppState) -> Result<&federation::Config, ApiError> {
    state.federation.as_ref().ok_or_else(ApiError::not_found)
}

/// An answer of ActivityPub's (or WebFinger's) media type; gone as 410.
fn answer(found: Result<serde_json::Value, FederationError>, media_type: &str) -> Result<HttpResponse, ApiError> {
    match found {
        Ok(body) => Ok(HttpResponse::Ok()
            .content_type(media_type)
            .insert_header(("Access-Control-Allow-Origin", "*"))
            .body(body.to_string())),
        Err(FederationError::Gone) => {
            Ok(HttpResponse::Gone().json(serde_json::json!({ "detail": "This person is no longer here." })))
        }
        Err(e) => Err(e.into()),
    }
}

#[derive(Deserialize)]
struct Resource {
    resource: String,
}

async fn webfinger(state: web::Data<AppState>, query: web::Query<Resource>) -> Result<HttpResponse, ApiError> {
    let config = federation_of(&state)?;
    let found = federation::wellknown::webfinger(&config.to_request_data(), &query.resource).await;
    answer(found, "application/jrd+json")
}

async fn nodeinfo_links(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let config = federation_of(&state)?;
    answer(Ok(federation::wellknown::nodeinfo_links(config)), "application/json")
}

async fn nodeinfo(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let config = federation_of(&state)?;
    let found = federation::wellknown::nodeinfo(config, env!("CARGO_PKG_VERSION")).await;
    answer(found, "application/json; profile=\"http://nodeinfo.diaspora.software/ns/schema/2.1#\"")
}

fn person(raw: &str) -> Result<UserId, ApiError> {
    raw.parse().map_err(|_| ApiError::not_found())
}

async fn actor(state: web::Data<AppState>, path: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let config = federation_of(&state)?;
    let user = person(&path)?;
    let found = config.actor_document(&config.to_request_data(), user).await;
    answer(found, FEDERATION_CONTENT_TYPE)
}

async fn collection(state: web::Data<AppState>, path: web::Path<(String, String)>) -> Result<HttpResponse, ApiError> {
    let config = federation_of(&state)?;
    let (user, name) = path.into_inner();
    let found = config.collection(person(&user)?, &name).await;
    answer(found, FEDERATION_CONTENT_TYPE)
}

/// Whether a request asks for ActivityPub rather than a page.
fn asks_for_activitypub(ctx: &actix_web::guard::GuardContext<'_>) -> bool {
    ctx.head()
        .headers()
        .get("Accept")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("application/activity+json") || accept.contains("application/ld+json"))
}

async fn note(state: web::Data<AppState>, path: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let config = federation_of(&state)?;
    let id = path.parse().map_err(|_| ApiError::not_found())?;
    answer(config.note_document(id).await, FEDERATION_CONTENT_TYPE)
}

/// Activities of one server received at once by a process: beyond, 429 at once. Receiving
/// one may wait on its server (its actor's key is fetched, up to 10 s), so a server that floods
/// or answers slowly holds at most these, and everyone else's activities, and every local
/// request, go on meanwhile.
pub const INBOX_PER_SERVER: usize = 4;
/// The name metrics count activities refused for the slots under.
const INBOX_LIMIT_NAME: &str = "inbox_in_flight";
/// Activities received at once by a process, from all servers.
pub const INBOX_IN_ALL: usize = 32;
/// What a server told to wait is asked to wait.
const INBOX_RETRY_AFTER: std::time::Duration = std::time::Duration::from_secs(10);

async fn comment(state: web::Data<AppState>, path: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let config = federation_of(&state)?;
    let id = path.parse().map_err(|_| ApiError::not_found())?;
    answer(config.comment_document(id).await, FEDERATION_CONTENT_TYPE)
}

/// Who an activity says sent it, read before anything else so that its limits come first.
#[derive(Deserialize)]
struct Sender {
    actor: url::Url,
}

/// An inbox: the activity's sender within their limits (per actor, per server), its signature
/// checked against the sender's key, then acted on (`federation::activities`).
async fn inbox(state: web::Data<AppState>, request: HttpRequest, body: web::Bytes) -> Result<HttpResponse, ApiError> {
    let config = federation_of(&state)?;
    let sender: Sender = serde_json::from_slice(&body)
        .map_err(|_| ApiError::invalid("Not an activity we understand: it needs an actor's address."))?;
    let server = federation::settings::host_of(&sender.actor)
        .ok_or_else(|| ApiError::invalid("Not an activity we understand: its actor has no host."))?;
    let limit = state.config.write_limits.of(Action::Inbox);
    let per_actor = Limit { account: limit.account, client: limit.account, window: limit.window };
    limits::count(&state, Action::Inbox, per_actor, None, &format!("actor:{}", sender.actor)).await?;
    let per_server = Limit { account: limit.client, client: limit.client, window: limit.window };
    limits::count(&state, Action::Inbox, per_server, None, &format!("server:{server}")).await?;
    if config.domain_blocked(&server).await? {
        return Err(ApiError::forbidden("This server does not take activities from yours."));
    }
    if !request.headers().contains_key("signature") {
        return Err(ApiError::new(ErrorKind::Unauthenticated, "An activity must be signed by its actor."));
    }
    let _slot = state.inbox.take(server).map_err(|full| {
        let detail = match full {
            Full::Key => "Too many activities from your server at once; send this one again shortly.",
            Full::Process => "Too many activities at once; send this one again shortly.",
        };
        ApiError::new(ErrorKind::Throttled { retry_after: INBOX_RETRY_AFTER }, detail).for_limit(INBOX_LIMIT_NAME)
    })?;
    let data = config.to_request_data();
    activitypub_federation::actix_web::inbox::receive_activity::<Inbound, Actor, federation::Federation>(
        request, body, &data,
    )
    .await
    .map_err(|e| match e {
        // The sender's key could not be read: as unsigned (Mastodon answers so too), not a
        // fault of ours.
        FederationError::Upstream(_) => {
            ApiError::new(ErrorKind::Unauthenticated, "The actor's key could not be read from their server.")
        }
        other => other.into(),
    })
}

/// The admin panel's calls about other servers (beyond the spec; documented in the OpenAPI
/// document like the panel's other calls).
pub fn configure_admin(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(blocked_domains).service(block_domain).service(unblock_domain);
}

/// A server an admin blocked.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct BlockedDomainJson {
    /// Its host name (with its port, for a test server); hosts under it are blocked too.
    domain: String,
    /// The admin who blocked it.
    admin_login: String,
    blocked_at: chrono::DateTime<chrono::Utc>,
}

/// A server to block.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct DomainJson {
    /// A host name (`social.example`); a scheme or a path around it is left out.
    #[serde(default)]
    domain: String,
}

/// What a block did.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct DomainBlockedJson {
    /// The host name as blocked.
    domain: String,
    /// Accounts of people of that server removed here, with their likes, reposts, replies and
    /// follows.
    accounts_removed: usize,
}

/// The servers an admin blocked, by name (404 while federation is off).
#[utoipa::path(tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = [BlockedDomainJson]), (status = 403, body = Detail, description = "not an admin"),
        (status = 404, body = Detail, description = "federation is off")))]
#[get("/admin/federation/blocked-domains")]
pub async fn blocked_domains(state: web::Data<AppState>, admin: AdminUser) -> Result<HttpResponse, ApiError> {
    let config = federation_of(&state)?;
    let listed: Vec<BlockedDomainJson> = config
        .blocked_domains(&admin.0)
        .await?
        .into_iter()
        .map(|b| BlockedDomainJson { domain: b.domain, admin_login: b.admin_login, blocked_at: b.blocked_at.and_utc() })
        .collect();
    Ok(HttpResponse::Ok().insert_header(("Cache-Control", "no-cache")).json(listed))
}

/// An admin blocks a server: its people's accounts here go, and nothing more is taken from it
/// (docs/federation.md, "Moderation").
#[utoipa::path(tag = "admin", security(("bearer" = [])), request_body = DomainJson,
    responses((status = 201, body = DomainBlockedJson), (status = 400, body = Detail, description = "not a host name, or ours"),
        (status = 403, body = Detail, description = "not an admin"), (status = 404, body = Detail, description = "federation is off"),
        (status = 409, body = Detail, description = "blocked already"), (status = 429, body = Detail)))]
#[post("/admin/federation/blocked-domains")]
pub async fn block_domain(
    state: web::Data<AppState>,
    user: Limited<Suspending>,
    body: web::Json<DomainJson>,
) -> Result<HttpResponse, ApiError> {
    let admin = moderation::Admin::check(user.0.id, &user.0.login, user.0.is_admin)?;
    let config = federation_of(&state)?;
    let accounts_removed = config.block_domain(&admin, &body.domain).await?;
    let domain = federation::domains::domain_name(&body.domain).unwrap_or_default();
    Ok(HttpResponse::Created().json(DomainBlockedJson { domain, accounts_removed }))
}

/// An admin lifts a server's block: its activities are taken again.
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(("domain" = String, Path)),
    responses((status = 204, description = "lifted"), (status = 403, body = Detail, description = "not an admin"),
        (status = 404, body = Detail, description = "not blocked, or federation is off"), (status = 429, body = Detail)))]
#[delete("/admin/federation/blocked-domains/{domain}")]
pub async fn unblock_domain(
    state: web::Data<AppState>,
    user: Limited<Suspending>,
    domain: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let admin = moderation::Admin::check(user.0.id, &user.0.login, user.0.is_admin)?;
    let config = federation_of(&state)?;
    config.unblock_domain(&admin, &domain).await?;
    Ok(HttpResponse::NoContent().finish())
}
