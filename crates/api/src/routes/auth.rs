//! Sign-up, verification, sign-in, sessions and Google sign-in (spec §7 Authentication).

use actix_web::cookie::Cookie;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use auth::CurrentUser;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use values::UserId;

use crate::error::{ApiError, Detail};
use crate::extract::{AuthUser, Client, MaybeUser, raw_token};
use crate::state::AppState;
use crate::wire::Message;

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
    /// Beyond spec §7: for an account with two-factor sign-in, the code of its authenticator
    /// app or a recovery code. Without it a right password answers 401 with the detail
    /// "Two-factor authentication required: …" (`auth::two_factor::SECOND_FACTOR_REQUIRED`).
    #[serde(default)]
    code: Option<String>,
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

impl EmailRequest {
    pub fn email(&self) -> &str {
        &self.email
    }
}

/// The signed-in user, as `GET /authorization/me` answers.
#[derive(Serialize, ToSchema)]
pub struct Me {
    #[schema(value_type = String)]
    id: UserId,
    name: String,
    login: String,
    description: Option<String>,
    /// Never null: the default picture's address when the person has none.
    avatar_url: String,
    tag_id: Option<String>,
    email: Option<String>,
    is_admin: bool,
}

impl Me {
    fn of(state: &AppState, u: CurrentUser) -> Me {
        Me {
            avatar_url: state.avatar_url(u.avatar_url.as_deref()),
            id: u.id,
            name: u.name,
            login: u.login,
            description: u.description,
            tag_id: u.tag_id,
            email: u.email,
            is_admin: u.is_admin,
        }
    }
}

#[utoipa::path(tag = "auth", request_body = SignupRequest,
    responses((status = 200, body = SignupResponse), (status = 400, body = Detail), (status = 429, body = Detail)))]
#[post("/authorization/signup")]
pub async fn signup(
    state: web::Data<AppState>,
    client: Client,
    body: web::Json<SignupRequest>,
) -> Result<HttpResponse, ApiError> {
    let out = state.auth.signup(&body.name, &body.email, &body.password, &client.0.addr).await?;
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
/// with `verified=true` (or `verified=false` for a used or expired link), at the address
/// `SELFSOUND_VERIFIED_REDIRECT` gives (default `<frontend>/sign-in#verified=...`).
#[utoipa::path(tag = "auth", params(VerifyQuery),
    responses((status = 303, description = "to the sign-in page")))]
#[get("/authorization/verify")]
pub async fn verify(state: web::Data<AppState>, query: web::Query<VerifyQuery>) -> HttpResponse {
    let verified = state.auth.verify_email(query.token.as_deref().unwrap_or_default()).await;
    match &verified {
        // A fault of ours (the database, or the work attached to a verification) is worth an
        // error with its causes; a used or expired link is not.
        Err(e) if !values::DomainError::is_public(e) => {
            tracing::error!(error = %values::error_chain(e), "verifying an address failed")
        }
        Err(e) => tracing::info!(error = %e, "verification link refused"),
        Ok(()) => {}
    }
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, state.config.verified_redirect(verified.is_ok())))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish()
}

#[utoipa::path(tag = "auth", request_body = EmailRequest,
    responses((status = 200, body = Message), (status = 400, body = Detail), (status = 429, body = Detail)))]
#[post("/authorization/resend-verification")]
pub async fn resend_verification(
    state: web::Data<AppState>,
    client: Client,
    body: web::Json<EmailRequest>,
) -> Result<web::Json<Message>, ApiError> {
    state.auth.resend_verification(&body.email, &client.0.addr).await?;
    Ok(web::Json(Message::new("If this address is waiting for verification, a new email is on its way.")))
}

/// Signs in. Answers the token, and also sets it as the HttpOnly `access_token` cookie, so a
/// client that sends only cookies (as spec §7 allows for most calls) is signed in too.
#[utoipa::path(tag = "auth", request_body = LoginRequest,
    responses((status = 200, body = TokenResponse, description = "also sets the access_token cookie"),
        (status = 401, body = Detail), (status = 403, body = Detail), (status = 429, body = Detail)))]
#[post("/authorization/logindefault")]
pub async fn login(
    state: web::Data<AppState>,
    client: Client,
    body: web::Json<LoginRequest>,
) -> Result<HttpResponse, ApiError> {
    let access_token = state.auth.login(&body.email, &body.password, body.code.as_deref(), client.0).await?;
    Ok(signed_in(&state, access_token))
}

/// The answer of a sign-in: the token, also set as the `access_token` cookie.
pub(crate) fn signed_in(state: &AppState, access_token: String) -> HttpResponse {
    HttpResponse::Ok()
        .cookie(token_cookie(state, access_token.clone()))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(TokenResponse { access_token, token_type: "bearer" })
}

#[utoipa::path(tag = "auth", security(("bearer" = [])),
    responses((status = 200, body = Me)))]
#[get("/authorization/me")]
pub async fn me(state: web::Data<AppState>, user: AuthUser) -> HttpResponse {
    HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(Me::of(&state, user.0))
}

/// Who is signed in, for a client that asks before it knows: `user` is null for a guest.
#[derive(Serialize, ToSchema)]
pub struct SessionAnswer {
    user: Option<Me>,
}

/// Who is signed in, or nobody: always 200, where `GET /authorization/me` answers a guest (or a
/// dead token) with 401. The web app asks this on every page, so a guest's console stays clean.
#[utoipa::path(tag = "auth", responses((status = 200, body = SessionAnswer)))]
#[get("/authorization/session")]
pub async fn session(state: web::Data<AppState>, user: MaybeUser) -> HttpResponse {
    let user = user.0.map(|u| Me::of(&state, u));
    HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(SessionAnswer { user })
}

/// Deletes the account with everything it owns and ends all its sessions.
#[utoipa::path(tag = "auth", security(("bearer" = [])),
    responses((status = 200, body = Message, description = "also clears the access_token cookie")))]
#[delete("/authorization/me")]
pub async fn delete_me(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, ApiError> {
    state.app.delete_account(user.0.id).await?;
    Ok(HttpResponse::Ok().cookie(removal_cookie(&state)).json(Message::new("Account deleted")))
}

/// The `access_token` cookie: HttpOnly (scripts never see it), for the whole host, as long as
/// the token lives (86400 s, spec §9). `SameSite=Lax` by default; `SameSite=None; Secure` when
/// configured for a client on another site. Cookie-authenticated writes also pass the Origin
/// check (`extract.rs`), whatever the SameSite setting.
fn token_cookie(state: &AppState, value: String) -> Cookie<'static> {
    let config = &state.config;
    Cookie::build(crate::extract::TOKEN_COOKIE, value)
        .path("/")
        .http_only(true)
        .same_site(config.cookie_same_site)
        .secure(config.cookie_secure())
        .max_age(actix_web::cookie::time::Duration::seconds(auth::token::LIFETIME.as_secs() as i64))
        .finish()
}

/// The same cookie, expired: a browser only replaces a cookie sent with the same attributes.
pub(crate) fn removal_cookie(state: &AppState) -> Cookie<'static> {
    let mut c = token_cookie(state, String::new());
    c.make_removal();
    c
}

/// Ends the session the request's token names (always answers 200) and clears the cookie.
async fn end_session(state: &AppState, req: &HttpRequest) -> Result<HttpResponse, ApiError> {
    if let Some(token) = raw_token(req, state)? {
        state.auth.logout(&token).await?;
    }
    Ok(HttpResponse::Ok().cookie(removal_cookie(state)).json(Message::new("Logged out")))
}

/// Ends the session (always answers 200) and clears the `access_token` cookie. With the cookie
/// alone, the request must come from one of our origins (403 otherwise).
#[utoipa::path(tag = "auth", responses((status = 200, body = Message), (status = 403, body = Detail)))]
#[post("/auth/logout")]
pub async fn logout(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    end_session(&state, &req).await
}

/// The same as `POST /auth/logout`; spec §7 names both.
#[utoipa::path(tag = "auth", responses((status = 200, body = Message), (status = 403, body = Detail)))]
#[post("/authorization/logout")]
pub async fn logout_authorization(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    end_session(&state, &req).await
}

#[derive(Serialize, ToSchema)]
pub struct Providers {
    google: bool,
}

/// Which outside sign-in providers are set up, so the sign-in page can say so.
#[utoipa::path(tag = "auth", responses((status = 200, body = Providers)))]
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
#[utoipa::path(tag = "auth", params(GoogleLoginQuery),
    responses((status = 302, description = "to the provider"),
        (status = 502, body = Detail, description = "the provider could not be reached"),
        (status = 503, body = Detail, description = "Google sign-in is not set up on this server")))]
#[get("/auth/login")]
pub async fn google_login(
    state: web::Data<AppState>,
    query: web::Query<GoogleLoginQuery>,
) -> Result<HttpResponse, ApiError> {
    tracing::debug!(mobile = ?query.mobile, ios = ?query.ios, "Google sign-in started");
    let start = state.auth.google_start(query.state.as_deref()).await?;
    Ok(HttpResponse::Found()
        .cookie(oidc_state_cookie(&state, start.state))
        .insert_header((header::LOCATION, start.redirect))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish())
}

const OIDC_STATE_COOKIE: &str = "selfsound_oidc_state";

/// Binds a Google sign-in to the browser that started it: only that browser brings the state
/// back to the callback. `SameSite=Lax` still sends it on the provider's top-level redirect.
fn oidc_state_cookie(state: &AppState, value: String) -> Cookie<'static> {
    Cookie::build(OIDC_STATE_COOKIE, value)
        .path("/auth/callback")
        .http_only(true)
        .same_site(actix_web::cookie::SameSite::Lax)
        .secure(state.config.public_url.starts_with("https://"))
        .max_age(actix_web::cookie::time::Duration::minutes(10))
        .finish()
}

#[derive(Deserialize, IntoParams)]
pub struct CallbackQuery {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

/// Where the provider sends the browser back; ends on the sign-in page with `?token=` or
/// `?error=google`. Only the browser that started the sign-in (it holds the state cookie) can
/// finish it.
#[utoipa::path(tag = "auth", params(CallbackQuery),
    responses((status = 302, description = "to the sign-in page")))]
#[get("/auth/callback")]
pub async fn google_callback(
    state: web::Data<AppState>,
    req: HttpRequest,
    client: Client,
    query: web::Query<CallbackQuery>,
) -> HttpResponse {
    let browser_state = req.cookie(OIDC_STATE_COOKIE).map(|c| c.value().to_owned());
    let to = state
        .auth
        .google_callback(
            query.code.as_deref(),
            query.state.as_deref(),
            browser_state.as_deref(),
            query.error.as_deref(),
            client.0,
        )
        .await;
    let mut used = oidc_state_cookie(&state, String::new());
    used.make_removal();
    HttpResponse::Found()
        .cookie(used)
        .insert_header((header::LOCATION, to))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish()
}

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(signup)
        .service(verify)
        .service(resend_verification)
        .service(login)
        .service(me)
        .service(session)
        .service(delete_me)
        .service(logout)
        .service(logout_authorization)
        .service(providers)
        .service(google_login)
        .service(google_callback);
}
