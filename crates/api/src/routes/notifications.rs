//! Notifications (spec §7 Notifications), their unread count, and the live stream that keeps a
//! badge current (Server-Sent Events; `notifications::live` says how signals travel).

use std::time::Duration;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, patch, post, web};
use bytes::Bytes;
use chrono::{DateTime, Utc};
use notifications::{Heard, NOTIFICATIONS_PAGE, Notification};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use values::{NotificationId, PostId, UserId};

use crate::error::{ApiError, Detail};
use crate::extract::{AuthUser, raw_token};
use crate::state::AppState;

/// A notification (spec §3), with the sender's name and avatar for the list.
#[derive(Serialize, ToSchema)]
pub struct NotificationJson {
    #[schema(value_type = String)]
    id: NotificationId,
    /// mention, comment, listening or other (a like or a repost: the message says which)
    #[serde(rename = "type")]
    kind: &'static str,
    #[schema(value_type = String)]
    sender_id: UserId,
    /// The sender's login.
    username: String,
    sender_name: String,
    /// The sender's avatar; never null.
    avatar_url: String,
    /// What the sender did, e.g. `commented on your post: “nice riff”`.
    message: String,
    timestamp: DateTime<Utc>,
    read: bool,
    /// The post it is about (comments, mentions, likes), or null.
    #[schema(value_type = Option<String>)]
    post_id: Option<PostId>,
}

fn notification_json(state: &AppState, n: Notification) -> NotificationJson {
    NotificationJson {
        message: n.message(),
        id: n.id,
        kind: n.kind.spec_type(),
        sender_id: n.sender.id,
        avatar_url: state.avatar_url(n.sender.avatar_url.as_deref()),
        username: n.sender.login,
        sender_name: n.sender.name,
        timestamp: n.created_at.and_utc(),
        read: n.read,
        post_id: n.post,
    }
}

#[derive(Deserialize, IntoParams)]
pub struct ListQuery {
    /// 1 to 50 (default 20).
    limit: Option<i64>,
    offset: Option<i64>,
}

#[utoipa::path(tag = "notifications", security(("bearer" = [])), params(ListQuery),
    responses((status = 200, body = [NotificationJson])))]
#[get("/notifications")]
pub async fn list(
    state: web::Data<AppState>,
    user: AuthUser,
    q: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let found = state.notifications.list(user.0.id, NOTIFICATIONS_PAGE.page(q.limit, q.offset)).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(found.into_iter().map(|n| notification_json(&state, n)).collect::<Vec<_>>()))
}

#[derive(Serialize, ToSchema)]
pub struct UnreadJson {
    /// Unread notifications, counted up to 100.
    unread: i64,
}

#[utoipa::path(tag = "notifications", security(("bearer" = [])), responses((status = 200, body = UnreadJson)))]
#[get("/notifications/unread-count")]
pub async fn unread_count(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, ApiError> {
    let unread = state.notifications.unread_count(user.0.id).await?;
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-cache")).json(UnreadJson { unread }))
}

#[utoipa::path(tag = "notifications", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 204), (status = 404, body = Detail, description = "missing, or someone else's")))]
#[patch("/notifications/{id}/read")]
pub async fn mark_read(
    state: web::Data<AppState>,
    user: AuthUser,
    id: web::Path<NotificationId>,
) -> Result<HttpResponse, ApiError> {
    state.notifications.mark_read(user.0.id, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(tag = "notifications", security(("bearer" = [])), responses((status = 204)))]
#[post("/notifications/read-all")]
pub async fn mark_all_read(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, ApiError> {
    state.notifications.mark_all_read(user.0.id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// A comment line this often keeps proxies from closing a quiet stream, and is when the
/// stream makes sure its session still stands (a session that simply expired; one that is ended
/// — sign-out, password change, sign out everywhere, suspension — ends its streams at once,
/// through `notifications::Streams`).
const KEEP_ALIVE: Duration = Duration::from_secs(20);

/// One open stream: its place among its person's streams, its session, and when it last spoke.
struct Watch {
    state: web::Data<AppState>,
    stream: notifications::Stream,
    token: String,
    tick: tokio::time::Interval,
    opened: bool,
    ended: bool,
}

impl Watch {
    /// The next thing to send, or `None` to end the stream.
    async fn next(&mut self) -> Option<Bytes> {
        if self.ended {
            return None;
        }
        let retry = if self.opened { "" } else { "retry: 5000\n" };
        self.opened = true;
        tokio::select! {
            heard = self.stream.next() => Some(match heard {
                Heard::Unread(n) => Bytes::from(format!("{retry}event: unread\ndata: {{\"unread\":{n}}}\n\n")),
                Heard::Replaced => {
                    // A newer stream of the same person took this one's place: a client that
                    // reconnects waits a minute, so two of them do not take turns.
                    self.ended = true;
                    Bytes::from_static(b"retry: 60000\nevent: replaced\ndata: {}\n\n")
                }
                Heard::SignedOut => {
                    self.ended = true;
                    Bytes::from_static(b"event: signed-out\ndata: {}\n\n")
                }
                Heard::ShuttingDown => {
                    // This process is stopping: the client reconnects in a second, to another
                    // process behind the balancer (or this one, restarted). No event: the
                    // count it gets on reconnecting is all it needs.
                    self.ended = true;
                    Bytes::from_static(b"retry: 1000\n: restarting\n\n")
                }
            }),
            _ = self.tick.tick() => Some(match self.state.auth.authenticate(&self.token).await {
                Err(auth::AuthError::Unauthenticated) => {
                    self.ended = true;
                    Bytes::from_static(b"event: signed-out\ndata: {}\n\n")
                }
                _ => Bytes::from_static(b": keep-alive\n\n"),
            }),
        }
    }
}

/// The live unread count, as Server-Sent Events (beyond the spec): `event: unread` with
/// `{"unread": n}` when the stream opens and whenever the count changes, a comment every 20 s,
/// `event: signed-out` as soon as the session ends (sign-out, password change, sign out
/// everywhere, suspension; an expired one within 20 s), and `event: replaced` when the person opened more
/// than eight streams (their oldest ends). A client that reconnects gets the count again as the
/// first event.
#[utoipa::path(tag = "notifications", security(("bearer" = [])),
    responses((status = 200, content_type = "text/event-stream", description = "the unread count, live")))]
#[get("/notifications/stream")]
pub async fn stream(state: web::Data<AppState>, user: AuthUser, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let token = raw_token(&req, &state)?.unwrap_or_default();
    let watch = Watch {
        stream: state.notifications.streams().open(user.0.id, user.0.session_id).await,
        token,
        tick: tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE),
        state,
        opened: false,
        ended: false,
    };
    let events = futures_util::stream::unfold(watch, |mut w| async move {
        w.next().await.map(|bytes| (Ok::<_, actix_web::Error>(bytes), w))
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // Neither a proxy (nginx) nor our own compression may hold events back.
        .insert_header(("X-Accel-Buffering", "no"))
        .insert_header((header::CONTENT_ENCODING, "identity"))
        .streaming(events))
}

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(stream).service(unread_count).service(mark_all_read).service(list).service(mark_read);
}
