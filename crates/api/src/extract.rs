//! Request extractors: the signed-in user (bearer token or `access_token` cookie, with an
//! Origin check on cookie-authenticated writes), the same counted against a write limit
//! (`Limited`), and the client (address for throttling, user
//! agent for the sessions list).

use std::future::Future;
use std::marker::PhantomData;
use std::net::IpAddr;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::{Method, header};
use actix_web::{FromRequest, HttpRequest, web};
use auth::{AuthError, CurrentUser};
use db::DbConnection;
use values::UserId;

use crate::config::Cidr;
use crate::error::ApiError;
use crate::limits::{self, Action, LimitedCall};
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

fn state_of(req: &HttpRequest) -> Result<web::Data<AppState>, ApiError> {
    req.app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| ApiError::new(values::ErrorKind::Internal, "application state is missing"))
}

/// The token a request carries, refused (403) when it came in a cookie on a cross-site write.
fn checked_token(req: &HttpRequest, state: &AppState) -> Result<Option<String>, ApiError> {
    let Some((token, source)) = token_of(req) else { return Ok(None) };
    if matches!(source, Source::Cookie) && !is_safe(req.method()) && !origin_allowed(req, state) {
        return Err(ApiError::forbidden(CROSS_SITE));
    }
    Ok(Some(token))
}

async fn authenticate(req: HttpRequest) -> Result<Option<CurrentUser>, ApiError> {
    let state = state_of(&req)?;
    let Some(token) = checked_token(&req, &state)? else { return Ok(None) };
    match state.auth.authenticate(&token).await {
        Ok(user) => Ok(Some(user)),
        Err(AuthError::Unauthenticated) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Authenticates and counts the call against `action`'s write limit per account and per
/// client, on the connection the session lookup used (one pool trip, one more statement). A
/// signed-out call counts per client only, when `count_signed_out`; one that will be refused
/// with 401 counts nothing.
async fn authenticate_limited(
    req: HttpRequest,
    action: Action,
    count_signed_out: bool,
) -> Result<Option<CurrentUser>, ApiError> {
    let state = state_of(&req)?;
    let client = client_addr(&req, &state.config.trusted_proxies);
    let limit = state.config.write_limits.of(action);
    if let Some(token) = checked_token(&req, &state)? {
        let addr = client.clone();
        match state
            .auth
            .authenticate_then(&token, move |conn, user| limits::hit(conn, action, limit, Some(user), &addr))
            .await
        {
            Ok((user, counted)) => return counted.map(|()| Some(user)),
            Err(AuthError::Unauthenticated) => {}
            Err(e) => return Err(e.into()),
        }
    }
    if count_signed_out {
        let counted = move |conn: &mut DbConnection| Ok::<_, db::DbError>(limits::hit(conn, action, limit, None, &client));
        state.db.write_without_transaction(counted).await??;
    }
    Ok(None)
}

/// A signed-in user making a call with a write limit (`A`, see `crate::limits`): 401 signed
/// out, 429 with `Retry-After` past the limit of the account or of the client address. As an
/// extractor it runs before the body is read.
pub struct Limited<A>(pub CurrentUser, PhantomData<A>);

impl<A: LimitedCall> FromRequest for Limited<A> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let user = authenticate_limited(req, A::ACTION, false).await?.ok_or(AuthError::Unauthenticated)?;
            Ok(Limited(user, PhantomData))
        })
    }
}

/// The signed-in user if there is one, on a public call with a write limit (`A`): counted per
/// account and client when signed in, per client otherwise.
pub struct MaybeLimited<A>(pub Option<CurrentUser>, PhantomData<A>);

impl<A: LimitedCall> FromRequest for MaybeLimited<A> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { Ok(MaybeLimited(authenticate_limited(req, A::ACTION, true).await?, PhantomData)) })
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

/// A signed-in admin (spec §6): signed out answers 401, anyone else 403 `Admin access
/// required`. The role is read from the user's row on every request, so a revoked role takes
/// effect at once.
pub struct AdminUser(pub moderation::Admin);

impl FromRequest for AdminUser {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let user = authenticate(req).await?.ok_or(AuthError::Unauthenticated)?;
            Ok(AdminUser(moderation::Admin::check(user.id, &user.login, user.is_admin)?))
        })
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

/// The session a request names, not yet looked up: a page that reads looks the session up and
/// reads on one pooled connection ([`Session::read`]), in one hand-off to a blocking thread, or
/// none on SQLite ([`db::Db::read`]), where [`MaybeUser`] and then the page would take two.
pub struct Session(Option<String>);

impl FromRequest for Session {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(state_of(req).and_then(|state| checked_token(req, &state)).map(Session))
    }
}

impl Session {
    /// Runs `read` for the person signed in (none when signed out, or when the token names no
    /// live session, as [`MaybeUser`] does), the session lookup and `read` on one connection.
    pub async fn read<T, E, F>(self, state: &AppState, read: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut DbConnection, Option<UserId>) -> Result<T, E> + Clone + Send + 'static,
        T: Send + 'static,
        E: Into<ApiError> + From<db::DbError> + Send + 'static,
    {
        if let Some(token) = self.0 {
            let signed_in = read.clone();
            match state.auth.authenticate_reading(&token, move |conn, user| signed_in(conn, Some(user))).await {
                Ok((_, read)) => return read.map_err(Into::into),
                Err(AuthError::Unauthenticated) => {}
                Err(e) => return Err(e.into()),
            }
        }
        state.db.read(move |conn| read(conn, None)).await.map_err(Into::into)
    }

    /// Who the session signs in, when that is known without asking the database: `Some(None)`
    /// signed out, `Some(Some(user))` for a session checked a moment ago; none otherwise.
    pub fn known_viewer(&self, state: &AppState) -> Option<Option<UserId>> {
        match &self.0 {
            None => Some(None),
            Some(token) => state.auth.known_viewer(token).map(Some),
        }
    }

    /// Runs `read` for the person signed in, on the connection of the session lookup; signed
    /// out answers 401, as [`AuthUser`] does.
    pub async fn read_signed_in<T, E, F>(self, state: &AppState, read: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut DbConnection, UserId) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: Into<ApiError> + Send + 'static,
    {
        let token = self.0.ok_or(AuthError::Unauthenticated)?;
        let (_, read) = state.auth.authenticate_reading(&token, read).await?;
        read.map_err(Into::into)
    }
}

/// Who is asking: the client address throttling keys on (the peer, or, behind a trusted proxy,
/// the rightmost `X-Forwarded-For` hop that is not one of our proxies), and the user agent.
pub struct Client(pub auth::ClientInfo);

impl FromRequest for Client {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let proxies =
            req.app_data::<web::Data<AppState>>().map(|s| s.config.trusted_proxies.clone()).unwrap_or_default();
        let addr = client_addr(req, &proxies);
        let user_agent = req.headers().get(header::USER_AGENT).and_then(|v| v.to_str().ok()).map(str::to_owned);
        std::future::ready(Ok(Client(auth::ClientInfo { addr, user_agent })))
    }
}

/// The client's address as throttles key on it.
fn client_addr(req: &HttpRequest, trusted: &[Cidr]) -> String {
    client_ip(req, trusted).map_or_else(|| "unknown".to_owned(), |ip| ip.to_string())
}

/// The client's address. Each proxy appends the address it got the request from to
/// `X-Forwarded-For`, so walking it from the right past our own proxies finds the first hop
/// no proxy of ours vouches for; anything left of it was written by the client.
pub fn client_ip(req: &HttpRequest, trusted: &[Cidr]) -> Option<IpAddr> {
    let peer = req.peer_addr()?.ip();
    let is_trusted = |ip: IpAddr| trusted.iter().any(|c| c.contains(ip));
    if !is_trusted(peer) {
        return Some(peer);
    }
    let hops: Vec<&str> = req
        .headers()
        .get_all("x-forwarded-for")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        // A hop that is not an address is not something a proxy of ours wrote.
        let Ok(ip) = hop.parse::<IpAddr>() else { break };
        client = ip;
        if !is_trusted(ip) {
            break;
        }
    }
    Some(client)
}

/// What a search box sent (`query`, `q`): absent is empty; a NUL character is refused (400), as
/// in every other text a person sends.
pub fn search_text(raw: Option<&str>) -> Result<&str, ApiError> {
    let text = raw.unwrap_or_default();
    if text.contains('\0') {
        return Err(ApiError::invalid("Search text cannot contain a NUL character"));
    }
    Ok(text)
}
