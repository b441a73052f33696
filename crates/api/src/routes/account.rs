//! Keeping an account safe, beyond spec §7: forgotten and changed passwords, the sessions list
//! and signing out everywhere. None of it changes a call the spec names.

use actix_web::http::header;
use actix_web::{HttpResponse, delete, get, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use values::SessionId;

use crate::error::{ApiError, Detail};
use crate::extract::{AuthUser, Client};
use crate::routes::auth::{EmailRequest, removal_cookie};
use crate::state::AppState;
use crate::wire::Message;

/// Asks for an e-mailed link to set a new password. The answer is the same whether or not the
/// address has an account.
#[utoipa::path(tag = "account", request_body = EmailRequest,
    responses((status = 200, body = Message), (status = 400, body = Detail), (status = 429, body = Detail)))]
#[post("/authorization/password-reset")]
pub async fn request_reset(
    state: web::Data<AppState>,
    client: Client,
    body: web::Json<EmailRequest>,
) -> Result<web::Json<Message>, ApiError> {
    state.auth.request_password_reset(body.email(), &client.0.addr).await?;
    Ok(web::Json(Message::new(
        "If an account uses this address, we sent a link to reset its password. Check your inbox.",
    )))
}

#[derive(Deserialize, ToSchema)]
pub struct ResetRequest {
    /// The token of the e-mailed link.
    token: String,
    password: String,
}

/// Sets a new password with the e-mailed link's token; every session of the account ends.
#[utoipa::path(tag = "account", request_body = ResetRequest,
    responses((status = 200, body = Message), (status = 400, body = Detail)))]
#[post("/authorization/password-reset/confirm")]
pub async fn confirm_reset(
    state: web::Data<AppState>,
    body: web::Json<ResetRequest>,
) -> Result<web::Json<Message>, ApiError> {
    state.auth.reset_password(&body.token, &body.password).await?;
    Ok(web::Json(Message::new("Your password was changed. Sign in with your new password.")))
}

#[derive(Deserialize, ToSchema)]
pub struct ChangePasswordRequest {
    current_password: String,
    new_password: String,
}

/// Changes the signed-in person's password; every other session ends, this one stays.
#[utoipa::path(tag = "account", request_body = ChangePasswordRequest, security(("bearer" = [])),
    responses((status = 200, body = Message), (status = 400, body = Detail), (status = 429, body = Detail)))]
#[post("/authorization/password")]
pub async fn change_password(
    state: web::Data<AppState>,
    user: AuthUser,
    client: Client,
    body: web::Json<ChangePasswordRequest>,
) -> Result<web::Json<Message>, ApiError> {
    let u = &user.0;
    state.auth.change_password(u.id, u.session_id, &body.current_password, &body.new_password, &client.0.addr).await?;
    Ok(web::Json(Message::new("Password changed. Your other devices were signed out.")))
}

/// A signed-in device, as the Sessions list in Settings shows it.
#[derive(Serialize, ToSchema)]
pub struct SessionJson {
    #[schema(value_type = String)]
    id: SessionId,
    /// "Chrome on Linux", "Safari on iPhone", or "Unknown device".
    device: String,
    created_at: DateTime<Utc>,
    last_seen_at: DateTime<Utc>,
    /// The session this request came with.
    current: bool,
}

/// The signed-in person's live sessions, most recently used first.
#[utoipa::path(tag = "account", security(("bearer" = [])), responses((status = 200, body = [SessionJson])))]
#[get("/authorization/sessions")]
pub async fn sessions(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, ApiError> {
    let list = state.auth.sessions(user.0.id, user.0.session_id).await?;
    let json: Vec<SessionJson> = list
        .into_iter()
        .map(|s| SessionJson {
            id: s.id,
            device: s.device,
            created_at: s.created_at.and_utc(),
            last_seen_at: s.last_seen_at.and_utc(),
            current: s.current,
        })
        .collect();
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(json))
}

/// Ends one of the signed-in person's sessions (another person's: 404).
#[utoipa::path(tag = "account", security(("bearer" = [])),
    params(("id" = String, Path, description = "session id")), responses((status = 200, body = Message)))]
#[delete("/authorization/sessions/{id}")]
pub async fn end_session(
    state: web::Data<AppState>,
    user: AuthUser,
    id: web::Path<SessionId>,
) -> Result<web::Json<Message>, ApiError> {
    state.auth.end_session(user.0.id, id.into_inner()).await?;
    Ok(web::Json(Message::new("Signed out on that device")))
}

/// Signs out on every device, this one included, and clears the cookie.
#[utoipa::path(tag = "account", security(("bearer" = [])), responses((status = 200, body = Message)))]
#[post("/authorization/logout-all")]
pub async fn logout_all(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, ApiError> {
    state.auth.logout_everywhere(user.0.id).await?;
    Ok(HttpResponse::Ok().cookie(removal_cookie(&state)).json(Message::new("Signed out on every device")))
}

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(request_reset)
        .service(confirm_reset)
        .service(change_password)
        .service(sessions)
        .service(end_session)
        .service(logout_all);
}
