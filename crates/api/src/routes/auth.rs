//! Sign-up, verification, sign-in, sessions and Google sign-in (spec §7 Authentication).

use actix_web::cookie::Cookie;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use db::Id;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, Detail};
use crate::extract::{AuthUser, ClientAddr, TOKEN_COOKIE, raw_token};
use crate::state::AppState;

#[derive(Deserialize, ToSchema)]
pub struct SignupRequest {
    email: String,
    password: String,
    name: String,
}

#[derive(Serialize, ToSchema)]
pub struct SignupResponse {
    message: String,
    email: String,
}

#[derive(Deserialize, ToSchema)]
pub struct LoginRequest {
    email: String,
    password: String,
}

#[derive(Serialize, ToSchema)]
pub struct TokenResponse {
    access_token: String,
    token_type: &'static str,
}

#[derive(Deserialize, ToSchema)]
pub struct EmailRequest {
    email: String,
}

#[derive(Serialize, ToSchema)]
pub struct Message {
    message: String,
}

fn message(text: &str) -> Message {
    Message { message: text.to_owned() }
}

/// The signed-in user, as `GET /authorization/me` answers.
#[derive(Serialize, ToSchema)]
pub struct Me {
    #[schema(value_type = String)]
    id: Id,
    name: String,
    login: String,
    description: Option<String>,
    avatar_url: Option<String>,
    tag_id: Option<String>,
    email: Option<String>,
    is_admin: bool,
}

#[utoipa::path(post, path = "/authorization/signup", tag = "auth", request_body = SignupRequest,
    responses((status = 200, body = SignupResponse), (status = 400, body = Detail), (status = 422, body = Detail), (status = 429, body = Detail)))]
#[post("/authorization/signup")]
pub async fn signup(
    state: web::Data<AppState>,
    client: ClientAddr,
    body: web::Json<SignupRequest>,
) -> Result<HttpResponse, ApiError> {
    let out = state.auth.signup(&body.name, &body.email, &body.password, &client.0).await?;
    Ok(HttpResponse::Ok().json(SignupResponse {
        message: "Account created. We sent a verification link to your email address.".into(),
        email: out.email,
    }))
}

#[derive(Deserialize, IntoParams)]
pub struct VerifyQuery {
    token: Option<String>,
}

/// The link in the verification e-mail: verifies, then sends the browser to the sign-in page
/// with `#verified=true` (or `#verified=false` for a used or expired link).
#[utoipa::path(get, path = "/authorization/verify", tag = "auth", params(VerifyQuery),
    responses((status = 303, description = "to the sign-in page")))]
#[get("/authorization/verify")]
pub async fn verify(state: web::Data<AppState>, query: web::Query<VerifyQuery>) -> HttpResponse {
    let verified = state.auth.verify_email(query.token.as_deref().unwrap_or_default()).await;
    if let Err(e) = &verified {
        tracing::info!(error = %e, "verification link refused");
    }
    let page = state.config.sign_in_page();
    HttpResponse::SeeOther().insert_header((header::LOCATION, format!("{page}#verified={}", verified.is_ok()))).finish()
}

#[utoipa::path(post, path = "/authorization/resend-verification", tag = "auth", request_body = EmailRequest,
    responses((status = 200, body = Message), (status = 400, body = Detail), (status = 429, body = Detail)))]
#[post("/authorization/resend-verification")]
pub async fn resend_verification(
    state: web::Data<AppState>,
    client: ClientAddr,
    body: web::Json<EmailRequest>,
) -> Result<web::Json<Message>, ApiError> {
    state.auth.resend_verification(&body.email, &client.0).await?;
    Ok(web::Json(message("If this address is waiting for verification, a new email is on its way.")))
}

#[utoipa::path(post, path = "/authorization/logindefault", tag = "auth", request_body = LoginRequest,
    responses((status = 200, body = TokenResponse), (status = 401, body = Detail), (status = 403, body = Detail), (status = 429, body = Detail)))]
#[post("/authorization/logindefault")]
pub async fn login(
    state: web::Data<AppState>,
    client: ClientAddr,
    body: web::Json<LoginRequest>,
) -> Result<web::Json<TokenResponse>, ApiError> {
    let access_token = state.auth.login(&body.email, &body.password, &client.0).await?;
    Ok(web::Json(TokenResponse { access_token, token_type: "bearer" }))
}

#[utoipa::path(get, path = "/authorization/me", tag = "auth", security(("bearer" = [])),
    responses((status = 200, body = Me), (status = 401, body = Detail)))]
#[get("/authorization/me")]
pub async fn me(state: web::Data<AppState>, user: AuthUser) -> HttpResponse {
    let u = user.0;
    HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(Me {
        id: u.id,
        name: u.name,
        login: u.login,
        description: u.description,
        avatar_url: state.media_url(u.avatar_url),
        tag_id: u.tag_id,
        email: u.email,
        is_admin: u.is_admin,
    })
}

/// Deletes the account with everything it owns and ends all its sessions.
#[utoipa::path(delete, path = "/authorization/me", tag = "auth", security(("bearer" = [])),
    responses((status = 200, body = Message), (status = 401, body = Detail)))]
#[delete("/authorization/me")]
pub async fn delete_me(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, ApiError> {
    state.auth.delete_account(&user.0).await?;
    if let Some(avatar) = &user.0.avatar_url {
        state.profiles.forget_avatar(avatar).await;
    }
    Ok(HttpResponse::Ok().cookie(expired_cookie()).json(message("Account deleted")))
}

fn expired_cookie() -> Cookie<'static> {
    let mut c = Cookie::build(TOKEN_COOKIE, "").path("/").finish();
    c.make_removal();
    c
}

/// Ends the session the request's token names (always answers 200).
#[utoipa::path(post, path = "/auth/logout", tag = "auth", responses((status = 200, body = Message)))]
pub async fn logout(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    if let Some(token) = raw_token(&req) {
        state.auth.logout(&token).await?;
    }
    Ok(HttpResponse::Ok().cookie(expired_cookie()).json(message("Logged out")))
}

#[derive(Serialize, ToSchema)]
pub struct Providers {
    google: bool,
}

/// Which outside sign-in providers are set up, so the sign-in page can say so.
#[utoipa::path(get, path = "/auth/providers", tag = "auth", responses((status = 200, body = Providers)))]
#[get("/auth/providers")]
pub async fn providers(state: web::Data<AppState>) -> web::Json<Providers> {
    web::Json(Providers { google: state.auth.google_enabled() })
}

#[derive(Deserialize, IntoParams)]
pub struct GoogleLoginQuery {
    /// The sign-in page address to return to (must be on one of our origins).
    state: Option<String>,
    mobile: Option<String>,
    ios: Option<String>,
}

/// Starts Google sign-in: redirects the browser to the provider.
#[utoipa::path(get, path = "/auth/login", tag = "auth", params(GoogleLoginQuery),
    responses((status = 302, description = "to the provider"), (status = 503, body = Detail)))]
#[get("/auth/login")]
pub async fn google_login(
    state: web::Data<AppState>,
    query: web::Query<GoogleLoginQuery>,
) -> Result<HttpResponse, ApiError> {
    tracing::debug!(mobile = ?query.mobile, ios = ?query.ios, "Google sign-in started");
    let start = state.auth.google_start(query.state.as_deref()).await?;
    Ok(HttpResponse::Found().insert_header((header::LOCATION, start.redirect)).finish())
}

#[derive(Deserialize, IntoParams)]
pub struct CallbackQuery {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

/// Where the provider sends the browser back; ends on the sign-in page with `?token=` or
/// `?error=google`.
#[utoipa::path(get, path = "/auth/callback", tag = "auth", params(CallbackQuery),
    responses((status = 302, description = "to the sign-in page")))]
#[get("/auth/callback")]
pub async fn google_callback(state: web::Data<AppState>, query: web::Query<CallbackQuery>) -> HttpResponse {
    let to = state.auth.google_callback(query.code.as_deref(), query.state.as_deref(), query.error.as_deref()).await;
    HttpResponse::Found()
        .insert_header((header::LOCATION, to))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish()
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(signup)
        .service(verify)
        .service(resend_verification)
        .service(login)
        .service(me)
        .service(delete_me)
        .route("/auth/logout", web::post().to(logout))
        .route("/authorization/logout", web::post().to(logout))
        .service(providers)
        .service(google_login)
        .service(google_callback);
}
