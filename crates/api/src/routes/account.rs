//! Keeping an account safe, beyond spec §7: forgotten and changed passwords, the sessions list,
//! signing out everywhere, two-factor sign-in and the archive of one's data. None of it changes
//! a call the spec names.

use actix_web::http::header;
use actix_web::{HttpResponse, delete, get, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use values::SessionId;

use crate::error::{ApiError, Detail};
use crate::extract::{AuthUser, Client, Limited, ReadLimited};
use crate::limits::{ChangingTwoFactor, DownloadingData, ExportingData};
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

/// Whether the signed-in person signs in with a second factor.
#[derive(Serialize, ToSchema)]
pub struct TwoFactorJson {
    enabled: bool,
    /// Unused recovery codes (0 while two-factor sign-in is off).
    recovery_codes_left: i64,
}

#[utoipa::path(tag = "account", security(("bearer" = [])), responses((status = 200, body = TwoFactorJson)))]
#[get("/authorization/two-factor")]
pub async fn two_factor(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, ApiError> {
    let s = state.auth.two_factor_status(user.0.id).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(TwoFactorJson { enabled: s.enabled, recovery_codes_left: s.recovery_codes_left }))
}

#[derive(Deserialize, ToSchema)]
pub struct PasswordRequest {
    password: String,
}

/// What an authenticator app is given: the QR code, or the key typed in.
#[derive(Serialize, ToSchema)]
pub struct TwoFactorSetupJson {
    /// The key in base32.
    secret: String,
    otpauth_url: String,
    /// `otpauth_url` as a QR code (an SVG document).
    qr_svg: String,
}

/// Starts setting up two-factor sign-in (the password again: a session alone is not enough).
/// Nothing changes at sign-in until `POST /authorization/two-factor/enable` confirms a code.
#[utoipa::path(tag = "account", request_body = PasswordRequest, security(("bearer" = [])),
    responses((status = 200, body = TwoFactorSetupJson), (status = 400, body = Detail), (status = 429, body = Detail)))]
#[post("/authorization/two-factor/setup")]
pub async fn two_factor_setup(
    state: web::Data<AppState>,
    user: Limited<ChangingTwoFactor>,
    client: Client,
    body: web::Json<PasswordRequest>,
) -> Result<HttpResponse, ApiError> {
    let s = state.auth.start_two_factor(user.0.id, &body.password, &client.0.addr).await?;
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(TwoFactorSetupJson {
        secret: s.secret,
        otpauth_url: s.otpauth_url,
        qr_svg: s.qr_svg,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct CodeRequest {
    /// The authenticator app's code, or (but for `enable`) a recovery code.
    code: String,
}

/// Recovery codes, shown once: each signs in once in place of the app's code.
#[derive(Serialize, ToSchema)]
pub struct RecoveryCodesJson {
    recovery_codes: Vec<String>,
}

fn recovery_codes(codes: Vec<String>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(RecoveryCodesJson { recovery_codes: codes })
}

/// Turns two-factor sign-in on with the first code of the app; answers the ten recovery codes.
#[utoipa::path(tag = "account", request_body = CodeRequest, security(("bearer" = [])),
    responses((status = 200, body = RecoveryCodesJson), (status = 400, body = Detail), (status = 429, body = Detail)))]
#[post("/authorization/two-factor/enable")]
pub async fn two_factor_enable(
    state: web::Data<AppState>,
    user: Limited<ChangingTwoFactor>,
    body: web::Json<CodeRequest>,
) -> Result<HttpResponse, ApiError> {
    Ok(recovery_codes(state.auth.enable_two_factor(user.0.id, &body.code).await?))
}

/// Ten new recovery codes in place of the old, for a code.
#[utoipa::path(tag = "account", request_body = CodeRequest, security(("bearer" = [])),
    responses((status = 200, body = RecoveryCodesJson), (status = 400, body = Detail), (status = 429, body = Detail)))]
#[post("/authorization/two-factor/recovery-codes")]
pub async fn two_factor_recovery_codes(
    state: web::Data<AppState>,
    user: Limited<ChangingTwoFactor>,
    body: web::Json<CodeRequest>,
) -> Result<HttpResponse, ApiError> {
    Ok(recovery_codes(state.auth.renew_recovery_codes(user.0.id, &body.code).await?))
}

/// Turns two-factor sign-in off, for a code (the app's or a recovery code).
#[utoipa::path(tag = "account", request_body = CodeRequest, security(("bearer" = [])),
    responses((status = 200, body = Message), (status = 400, body = Detail), (status = 429, body = Detail)))]
#[post("/authorization/two-factor/disable")]
pub async fn two_factor_disable(
    state: web::Data<AppState>,
    user: Limited<ChangingTwoFactor>,
    body: web::Json<CodeRequest>,
) -> Result<web::Json<Message>, ApiError> {
    state.auth.disable_two_factor(user.0.id, &body.code).await?;
    Ok(web::Json(Message::new("Two-factor sign-in is off")))
}

/// A person's latest archive of their data ("Download my data"; docs/data-export.md).
#[derive(Serialize, ToSchema)]
pub struct DataExportJson {
    /// `none` (none kept), `preparing`, `ready` (its link was e-mailed) or `failed`.
    state: &'static str,
    requested_at: Option<DateTime<Utc>>,
    ready_at: Option<DateTime<Utc>>,
    /// When its link stops working.
    expires_at: Option<DateTime<Utc>>,
    size_bytes: Option<i64>,
    /// When another may be asked for: one a day.
    next_request_at: Option<DateTime<Utc>>,
}

impl From<Option<app::export::ExportStatus>> for DataExportJson {
    fn from(s: Option<app::export::ExportStatus>) -> Self {
        match s {
            None => DataExportJson {
                state: "none",
                requested_at: None,
                ready_at: None,
                expires_at: None,
                size_bytes: None,
                next_request_at: None,
            },
            Some(s) => DataExportJson {
                state: s.state.as_str(),
                requested_at: Some(s.requested_at.and_utc()),
                ready_at: s.ready_at.map(|t| t.and_utc()),
                expires_at: s.expires_at.map(|t| t.and_utc()),
                size_bytes: s.size_bytes,
                next_request_at: Some(s.next_request_at.and_utc()),
            },
        }
    }
}

#[utoipa::path(tag = "account", security(("bearer" = [])), responses((status = 200, body = DataExportJson)))]
#[get("/account/data-export")]
pub async fn data_export(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, ApiError> {
    let status = state.app.export_status(user.0.id).await?;
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(DataExportJson::from(status)))
}

/// Asks for an archive of one's data: built in the background, its link e-mailed to the
/// account's address (valid 7 days). One a day: sooner is a 429 with `Retry-After`.
#[utoipa::path(tag = "account", security(("bearer" = [])),
    responses((status = 202, body = DataExportJson), (status = 400, body = Detail), (status = 429, body = Detail)))]
#[post("/account/data-export")]
pub async fn request_data_export(
    state: web::Data<AppState>,
    user: Limited<ExportingData>,
) -> Result<HttpResponse, ApiError> {
    let status = state.app.request_export(user.0.id).await?;
    Ok(HttpResponse::Accepted()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(DataExportJson::from(Some(status))))
}

/// The archive an e-mailed link names, while the link works (7 days): a zip, with byte ranges
/// for resuming.
#[utoipa::path(tag = "account", params(("token" = String, Path)),
    responses((status = 200, description = "the archive", content_type = "application/zip"),
        (status = 206, description = "a byte range of it"), (status = 404, body = Detail)))]
#[get("/data-exports/{token}")]
pub async fn download_data_export(
    state: web::Data<AppState>,
    _limited: ReadLimited<DownloadingData>,
    token: web::Path<String>,
    req: actix_web::HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let download = state.app.export_download(&token).await?;
    let object = match crate::routes::media::read_object(&state, &download.key, &req).await? {
        Ok(object) => object,
        Err(unsatisfiable) => return Ok(unsatisfiable),
    };
    let disposition = format!("attachment; filename=\"{}\"", download.file_name);
    // Private: no shared cache may keep it, and the link is not sent on to other sites.
    let mut answer =
        crate::routes::media::object_answer(object, "application/zip", "private, no-store", Some(disposition));
    answer.headers_mut().insert(header::REFERRER_POLICY, header::HeaderValue::from_static("no-referrer"));
    Ok(answer)
}

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(request_reset)
        .service(confirm_reset)
        .service(change_password)
        .service(sessions)
        .service(end_session)
        .service(logout_all)
        .service(two_factor)
        .service(two_factor_setup)
        .service(two_factor_enable)
        .service(two_factor_recovery_codes)
        .service(two_factor_disable)
        .service(data_export)
        .service(request_data_export)
        .service(download_data_export);
}
