//! The access token a request carries (`Authorization: Bearer` or the `access_token` cookie),
//! and the defence against cross-site requests: a write authenticated by the cookie must come
//! from an origin of ours (CSRF).

use actix_web::http::{Method, header};
use actix_web::{HttpRequest, web};

use crate::error::ApiError;
use crate::state::AppState;

pub const TOKEN_COOKIE: &str = "access_token";

pub(super) enum Source {
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

/// The raw token, for logout (which must work even with an expired session). A token from the
/// cookie on an unsafe request needs an Origin of ours, as for every other cookie write: another
/// site must not be able to sign a visitor out either.
pub fn raw_token(req: &HttpRequest, state: &AppState) -> Result<Option<String>, ApiError> {
    match token_of(req) {
        Some((_, Source::Cookie)) if !is_safe(req.method()) && !origin_allowed(req, state) => {
            Err(ApiError::forbidden(CROSS_SITE))
        }
        other => Ok(other.map(|(t, _)| t)),
    }
}

const CROSS_SITE: &str = "Cross-site request refused";

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
    // Only configured origins count (the public URL, the web app's, the CORS list): the Host
    // and X-Forwarded-Host headers are the client's to write, so they prove nothing.
    origin.is_some_and(|o| state.trusted_origins.contains(&o))
}

pub(super) fn state_of(req: &HttpRequest) -> Result<web::Data<AppState>, ApiError> {
    req.app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| ApiError::new(values::ErrorKind::Internal, "application state is missing"))
}

/// The token a request carries, refused (403) when it came in a cookie on a cross-site write.
pub(super) fn checked_token(req: &HttpRequest, state: &AppState) -> Result<Option<String>, ApiError> {
    let Some((token, source)) = token_of(req) else { return Ok(None) };
    if matches!(source, Source::Cookie) && !is_safe(req.method()) && !origin_allowed(req, state) {
        return Err(ApiError::forbidden(CROSS_SITE));
    }
    Ok(Some(token))
}
