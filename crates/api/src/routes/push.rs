//! Web Push (issue 36; beyond spec §7; docs/security.md, "Web Push"): the server's public key
//! and a person's devices — turned on by a browser's subscription, told of chosen kinds, sent a
//! test, turned off. A device belongs to the session that turned it on and ends with it.

use actix_web::http::header;
use actix_web::{HttpResponse, delete, get, patch, post, web};
use chrono::{DateTime, Utc};
use notifications::push::{Kinds, KindsChange, PushDevice, Subscription};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use values::PushDeviceId;

use crate::error::{ApiError, Detail};
use crate::extract::{AuthUser, Limited};
use crate::limits::ChangingPushDevices;
use crate::state::AppState;
use crate::wire::Message;

/// Which kinds of notification a device is told of.
#[derive(Serialize, Deserialize, ToSchema)]
pub struct PushKindsJson {
    mentions: bool,
    comments: bool,
    listens: bool,
    likes: bool,
    reposts: bool,
}

impl From<Kinds> for PushKindsJson {
    fn from(k: Kinds) -> Self {
        PushKindsJson {
            mentions: k.mentions,
            comments: k.comments,
            listens: k.listens,
            likes: k.likes,
            reposts: k.reposts,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct PushDeviceJson {
    #[schema(value_type = String)]
    id: PushDeviceId,
    name: String,
    /// The push service's address this device's browser gave.
    endpoint: String,
    /// Whether this is the device (the session) asking.
    this_session: bool,
    created_at: DateTime<Utc>,
    last_sent_at: Option<DateTime<Utc>>,
    kinds: PushKindsJson,
}

impl PushDeviceJson {
    fn of(d: PushDevice, me: &auth::CurrentUser) -> Self {
        PushDeviceJson {
            id: d.id,
            this_session: d.session == me.session_id,
            name: d.name,
            endpoint: d.endpoint,
            created_at: d.created_at.and_utc(),
            last_sent_at: d.last_sent_at.map(|t| t.and_utc()),
            kinds: d.kinds.into(),
        }
    }
}

/// The server's public key for `pushManager.subscribe`, and the person's devices.
#[derive(Serialize, ToSchema)]
pub struct PushJson {
    /// The VAPID public key (`applicationServerKey`): the uncompressed P-256 point, base64url.
    public_key: String,
    devices: Vec<PushDeviceJson>,
}

#[utoipa::path(tag = "account", security(("bearer" = [])), responses((status = 200, body = PushJson)))]
#[get("/account/push")]
pub async fn push(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, ApiError> {
    let devices = state.notifications.push_devices(user.0.id).await?;
    let devices = devices.into_iter().map(|d| PushDeviceJson::of(d, &user.0)).collect();
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(PushJson { public_key: state.pusher.public_key(), devices }))
}

#[derive(Deserialize, ToSchema)]
pub struct PushKeysJson {
    p256dh: String,
    auth: String,
}

/// What the browser's `PushSubscription.toJSON()` gives (`expirationTime` is not kept), and a
/// name for the device.
#[derive(Deserialize, ToSchema)]
pub struct AddPushDeviceRequest {
    endpoint: String,
    keys: PushKeysJson,
    #[serde(default)]
    name: Option<String>,
}

/// Turns notifications on for this device: 201 with it, or 200 when this browser's endpoint
/// was already kept (the same device, its keys brought up to date).
#[utoipa::path(tag = "account", request_body = AddPushDeviceRequest, security(("bearer" = [])),
    responses((status = 201, body = PushDeviceJson), (status = 200, body = PushDeviceJson), (status = 400, body = Detail)))]
#[post("/account/push/devices")]
pub async fn add_push_device(
    state: web::Data<AppState>,
    user: Limited<ChangingPushDevices>,
    body: web::Json<AddPushDeviceRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let sub = Subscription::parse(&body.endpoint, &body.keys.p256dh, &body.keys.auth, state.pusher.allows_local())?;
    let me = &user.0;
    let (device, new) = state.notifications.add_push_device(me.id, me.session_id, sub, body.name).await?;
    let mut answer = if new { HttpResponse::Created() } else { HttpResponse::Ok() };
    Ok(answer.json(PushDeviceJson::of(device, me)))
}

/// Kinds to turn on (true) or off (false); those left out stay as they are.
#[derive(Deserialize, ToSchema)]
pub struct PushKindsChangeJson {
    mentions: Option<bool>,
    comments: Option<bool>,
    listens: Option<bool>,
    likes: Option<bool>,
    reposts: Option<bool>,
}

#[derive(Deserialize, ToSchema)]
pub struct ChangePushDeviceRequest {
    kinds: PushKindsChangeJson,
}

#[utoipa::path(tag = "account", request_body = ChangePushDeviceRequest, security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = PushDeviceJson), (status = 404, body = Detail)))]
#[patch("/account/push/devices/{id}")]
pub async fn change_push_device(
    state: web::Data<AppState>,
    user: Limited<ChangingPushDevices>,
    id: web::Path<PushDeviceId>,
    body: web::Json<ChangePushDeviceRequest>,
) -> Result<web::Json<PushDeviceJson>, ApiError> {
    let k = &body.kinds;
    let change = KindsChange {
        mentions: k.mentions,
        comments: k.comments,
        listens: k.listens,
        likes: k.likes,
        reposts: k.reposts,
    };
    let device = state.notifications.change_push_device(user.0.id, *id, change).await?;
    Ok(web::Json(PushDeviceJson::of(device, &user.0)))
}

#[utoipa::path(tag = "account", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 204), (status = 404, body = Detail)))]
#[delete("/account/push/devices/{id}")]
pub async fn remove_push_device(
    state: web::Data<AppState>,
    user: Limited<ChangingPushDevices>,
    id: web::Path<PushDeviceId>,
) -> Result<HttpResponse, ApiError> {
    state.notifications.remove_push_device(user.0.id, *id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Pushes a test message to one of the person's devices, in a moment.
#[utoipa::path(tag = "account", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 202, body = Message), (status = 404, body = Detail)))]
#[post("/account/push/devices/{id}/test")]
pub async fn test_push_device(
    state: web::Data<AppState>,
    user: Limited<ChangingPushDevices>,
    id: web::Path<PushDeviceId>,
) -> Result<HttpResponse, ApiError> {
    state.notifications.test_push_device(user.0.id, *id).await?;
    Ok(HttpResponse::Accepted().json(Message::new("A test notification is on its way.")))
}

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(push)
        .service(add_push_device)
        .service(change_push_device)
        .service(remove_push_device)
        .service(test_push_device);
}
