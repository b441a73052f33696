//! Passkeys (issue 36; beyond spec §7; docs/security.md, "Passkeys"): listed, added (with the
//! password again), renamed and removed in Settings, and signing in with one in place of the
//! password and the two-factor code. Each ceremony is two calls: its options (what the browser
//! is asked, in the JSON `PublicKeyCredential.parse…OptionsFromJSON` reads) with a ceremony id,
//! then the browser's answer (`credential.toJSON()`) with that id.

use actix_web::http::header;
use actix_web::{HttpResponse, delete, get, patch, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use values::PasskeyId;
use webauthn_rs::prelude::{PublicKeyCredential, RegisterPublicKeyCredential};

use crate::error::{ApiError, Detail};
use crate::extract::{AuthUser, Client, Limited, MaybeLimited};
use crate::limits::{ChangingPasskeys, SigningInWithPasskeys};
use crate::state::AppState;
use crate::wire::Message;

#[derive(Serialize, ToSchema)]
pub struct PasskeyJson {
    #[schema(value_type = String)]
    id: PasskeyId,
    name: String,
    created_at: DateTime<Utc>,
    last_used_at: Option<DateTime<Utc>>,
}

impl From<auth::passkeys::PasskeyInfo> for PasskeyJson {
    fn from(p: auth::passkeys::PasskeyInfo) -> Self {
        PasskeyJson {
            id: p.id,
            name: p.name,
            created_at: p.created_at.and_utc(),
            last_used_at: p.last_used_at.map(|t| t.and_utc()),
        }
    }
}

/// A begun ceremony: its id, and the `publicKey` options for the browser.
#[derive(Serialize, ToSchema)]
pub struct PasskeyOptionsJson {
    ceremony: String,
    #[schema(value_type = Object)]
    public_key: serde_json::Value,
}

fn options<T: Serialize>(ceremony: auth::passkeys::Ceremony<T>) -> Result<HttpResponse, ApiError> {
    let mut value = serde_json::to_value(ceremony.options)
        .map_err(|e| ApiError::new(values::ErrorKind::Internal, format!("passkey options: {e}")))?;
    let public_key = value.get_mut("publicKey").map(serde_json::Value::take).unwrap_or_default();
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(PasskeyOptionsJson { ceremony: ceremony.id.to_string(), public_key }))
}

/// A ceremony id as sent back: a string of digits (unknown ones are simply not found).
fn ceremony_of(text: &str) -> Result<i64, ApiError> {
    text.parse().map_err(|_| auth::AuthError::PasskeyCeremonyExpired.into())
}

#[utoipa::path(tag = "account", security(("bearer" = [])), responses((status = 200, body = [PasskeyJson])))]
#[get("/authorization/passkeys")]
pub async fn passkeys(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, ApiError> {
    let list: Vec<PasskeyJson> = state.auth.passkeys(user.0.id).await?.into_iter().map(Into::into).collect();
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(list))
}

#[derive(Deserialize, ToSchema)]
pub struct PasskeyPasswordRequest {
    password: String,
}

/// Begins adding a passkey, for the password again.
#[utoipa::path(tag = "account", request_body = PasskeyPasswordRequest, security(("bearer" = [])),
    responses((status = 200, body = PasskeyOptionsJson), (status = 400, body = Detail), (status = 503, body = Detail)))]
#[post("/authorization/passkeys/options")]
pub async fn passkey_options(
    state: web::Data<AppState>,
    user: Limited<ChangingPasskeys>,
    client: Client,
    body: web::Json<PasskeyPasswordRequest>,
) -> Result<HttpResponse, ApiError> {
    options(state.auth.start_passkey_registration(user.0.id, &body.password, &client.0.addr).await?)
}

#[derive(Deserialize, ToSchema)]
pub struct AddPasskeyRequest {
    ceremony: String,
    name: String,
    /// The browser's `credential.toJSON()`.
    #[schema(value_type = Object)]
    credential: RegisterPublicKeyCredential,
}

/// Finishes adding a passkey: the browser's new credential, kept under a name.
#[utoipa::path(tag = "account", request_body = AddPasskeyRequest, security(("bearer" = [])),
    responses((status = 201, body = PasskeyJson), (status = 400, body = Detail), (status = 401, body = Detail),
        (status = 409, body = Detail)))]
#[post("/authorization/passkeys")]
pub async fn add_passkey(
    state: web::Data<AppState>,
    user: Limited<ChangingPasskeys>,
    body: web::Json<AddPasskeyRequest>,
) -> Result<HttpResponse, ApiError> {
    let ceremony = ceremony_of(&body.ceremony)?;
    let added = state.auth.finish_passkey_registration(user.0.id, ceremony, &body.name, &body.credential).await?;
    Ok(HttpResponse::Created().json(PasskeyJson::from(added)))
}

#[derive(Deserialize, ToSchema)]
pub struct RenamePasskeyRequest {
    name: String,
}

#[utoipa::path(tag = "account", request_body = RenamePasskeyRequest, security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = PasskeyJson), (status = 400, body = Detail), (status = 404, body = Detail)))]
#[patch("/authorization/passkeys/{id}")]
pub async fn rename_passkey(
    state: web::Data<AppState>,
    user: Limited<ChangingPasskeys>,
    id: web::Path<PasskeyId>,
    body: web::Json<RenamePasskeyRequest>,
) -> Result<web::Json<PasskeyJson>, ApiError> {
    Ok(web::Json(state.auth.rename_passkey(user.0.id, *id, &body.name).await?.into()))
}

#[utoipa::path(tag = "account", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 404, body = Detail)))]
#[delete("/authorization/passkeys/{id}")]
pub async fn remove_passkey(
    state: web::Data<AppState>,
    user: Limited<ChangingPasskeys>,
    id: web::Path<PasskeyId>,
) -> Result<web::Json<Message>, ApiError> {
    state.auth.remove_passkey(user.0.id, *id).await?;
    Ok(web::Json(Message::new("Passkey removed")))
}

/// Begins signing in with a passkey: no address needed, the browser offers this site's.
#[utoipa::path(tag = "auth", responses((status = 200, body = PasskeyOptionsJson), (status = 503, body = Detail)))]
#[post("/authorization/passkey-sign-in/options")]
pub async fn passkey_sign_in_options(
    state: web::Data<AppState>,
    _limited: MaybeLimited<SigningInWithPasskeys>,
) -> Result<HttpResponse, ApiError> {
    options(state.auth.start_passkey_sign_in().await?)
}

#[derive(Deserialize, ToSchema)]
pub struct PasskeySignInRequest {
    ceremony: String,
    /// The browser's `credential.toJSON()`.
    #[schema(value_type = Object)]
    credential: PublicKeyCredential,
}

/// Finishes signing in with a passkey: answered as `POST /authorization/logindefault` is (the
/// token, and the cookie). It stands in for the password and the two-factor code alike.
#[utoipa::path(tag = "auth", request_body = PasskeySignInRequest,
    responses((status = 200, body = crate::routes::auth::TokenResponse), (status = 400, body = Detail),
        (status = 401, body = Detail), (status = 403, body = Detail), (status = 429, body = Detail)))]
#[post("/authorization/passkey-sign-in")]
pub async fn passkey_sign_in(
    state: web::Data<AppState>,
    _limited: MaybeLimited<SigningInWithPasskeys>,
    client: Client,
    body: web::Json<PasskeySignInRequest>,
) -> Result<HttpResponse, ApiError> {
    let ceremony = ceremony_of(&body.ceremony)?;
    let access_token = state.auth.finish_passkey_sign_in(ceremony, &body.credential, client.0).await?;
    Ok(crate::routes::auth::signed_in(&state, access_token))
}

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(passkeys)
        .service(passkey_options)
        .service(add_passkey)
        .service(rename_passkey)
        .service(remove_passkey)
        .service(passkey_sign_in_options)
        .service(passkey_sign_in);
}
