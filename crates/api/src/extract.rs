//! Request extractors: the signed-in user (bearer token or `access_token` cookie, with an
//! Origin check on cookie-authenticated writes) and the client's address for throttling.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::{Method, header};
use actix_web::{FromRequest, HttpRequest, web};
use auth::{AuthError, CurrentUser};

use crate::error::ApiError;
use crate::state::AppState;

pub const TOKEN_COOKIE: &str = "access_token";

enum Source {
    Header,
    Cookie,
}

/// The access token a request carries, and where it came from.
fn token_of(req: &HttpRequest) -> Option<(String, Source)> {
    if let Some(value) = req.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) {
        let mut parts = value.splitn(2, ' ');
        if let (Some(scheme), Some(token)) = (parts.next(), parts.next()) {
            let token = token.trim();
            if scheme.eq_ignore_ascii_case("bearer") && !token.is_empty() && token != "null" && token != "undefined" {
                return Some((token.to_owned(), Source::Header));
            }
        }
    }
    req.cookie(TOKEN_COOKIE).map(|c| c.value().to_owned()).filter(|v| !v.is_empty()).map(|v| (v, Source::Cookie))
}

/// The raw token, for logout (which must work even with an expired session).
pub fn raw_token(req: &HttpRequest) -> Option<String> {
    token_of(req).map(|(t, _)| t)
}

fn is_safe(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// A browser sends `Origin` on every cross-site write; cookie-authenticated writes must come
/// from one of our own origins, so another site cannot act with the visitor's cookie (CSRF).
fn origin_allowed(req: &HttpRequest, state: &AppState) -> bool {
    let origin = req.headers().get(header::ORIGIN).and_then(|v| v.to_str().ok()).map(str::to_owned).or_else(|| {
        req.headers()
            .get(header::REFERER)
            .and_then(|v| v.to_str().ok())
            .and_then(|r| url::Url::parse(r).ok())
            .map(|u| u.origin().ascii_serialization())
    });
    let Some(origin) = origin else { return false };
    if state.trusted_origins.contains(&origin) {
        return true;
    }
    // The host the request was addressed to is our own origin too (same-origin app).
    let info = req.connection_info();
    origin == format!("{}://{}", info.scheme(), info.host())
}

async fn authenticate(req: HttpRequest) -> Result<Option<CurrentUser>, ApiError> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return Err(ApiError::new(values::ErrorKind::Internal, "application state is missing"));
    };
    let Some((token, source)) = token_of(&req) else { return Ok(None) };
    if matches!(source, Source::Cookie) && !is_safe(req.method()) && !origin_allowed(&req, &state) {
        return Err(ApiError::forbidden("Cross-site request refused"));
    }
    match state.auth.authenticate(&token).await {
        Ok(user) => Ok(Some(user)),
        Err(AuthError::Unauthenticated) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// A signed-in user; answers 401 otherwise.
pub struct AuthUser(pub CurrentUser);

impl FromRequest for AuthUser {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { authenticate(req).await?.map(AuthUser).ok_or_else(|| AuthError::Unauthenticated.into()) })
    }
}

/// The signed-in user if there is one; public pages use it to personalise answers.
pub struct MaybeUser(pub Option<CurrentUser>);

impl FromRequest for MaybeUser {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { authenticate(req).await.map(MaybeUser) })
    }
}

/// The client's address, as throttling keys it: the peer address, or the first
/// `X-Forwarded-For` hop when the server is configured to trust its proxy.
pub struct ClientAddr(pub String);

impl FromRequest for ClientAddr {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let trust_proxy = req.app_data::<web::Data<AppState>>().is_some_and(|s| s.config.trust_proxy);
        let addr = if trust_proxy {
            req.connection_info()
                .realip_remote_addr()
                .map(|a| a.parse::<std::net::SocketAddr>().map_or_else(|_| a.to_owned(), |s| s.ip().to_string()))
        } else {
            req.peer_addr().map(|a| a.ip().to_string())
        };
        std::future::ready(Ok(ClientAddr(addr.unwrap_or_else(|| "unknown".into()))))
    }
}
