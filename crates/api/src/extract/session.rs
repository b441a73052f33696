//! Who a request is signed in as: the signed-in user (401 when required and missing), an admin
//! (403 for anyone else), the same counted against a write limit (`Limited`), and the session
//! of a page that reads (`Session`: answered from memory, or read with the session check on one
//! connection).

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest};
use auth::{AuthError, CurrentUser};
use db::DbConnection;
use values::UserId;

use super::client::client_addr;
use super::token::{checked_token, state_of};
use crate::error::ApiError;
use crate::limits::{self, Action, LimitedCall};
use crate::state::AppState;

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
/// client (`limits::count`: in memory, no statement). A signed-out call counts per client
/// only, when `count_signed_out`; one that will be refused with 401 counts nothing.
async fn authenticate_limited(
    req: HttpRequest,
    action: Action,
    count_signed_out: bool,
) -> Result<Option<CurrentUser>, ApiError> {
    let state = state_of(&req)?;
    let client = client_addr(&req, &state.config.trusted_proxies);
    let limit = state.config.write_limits.of(action);
    let user = authenticate(req).await?;
    if user.is_some() || count_signed_out {
        limits::count(&state, action, limit, user.as_ref().map(|u| u.id), &client).await?;
    }
    Ok(user)
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

/// The reader of a read with a limit of its own (music search, `A`): checked as a page's read
/// is ([`Session`]: a session checked a moment ago is taken as standing; signed out, or a token
/// naming no live session, is a guest), then counted per account when signed in and per client
/// always. [`MaybeLimited`] checks its caller as a write does, in the database every time.
pub struct ReadLimited<A>(pub Option<UserId>, PhantomData<A>);

impl<A: LimitedCall> FromRequest for ReadLimited<A> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let state = state_of(&req)?;
            let session = Session(checked_token(&req, &state)?);
            let viewer = match (session.known_viewer(&state), session.0) {
                (Some(viewer), _) => viewer,
                (None, None) => None,
                (None, Some(token)) => match state.auth.authenticate_reading(&token, |_, _| ()).await {
                    Ok((user, ())) => Some(user),
                    Err(AuthError::Unauthenticated) => None,
                    Err(e) => return Err(e.into()),
                },
            };
            let client = client_addr(&req, &state.config.trusted_proxies);
            limits::count(&state, A::ACTION, state.config.write_limits.of(A::ACTION), viewer, &client).await?;
            Ok(ReadLimited(viewer, PhantomData))
        })
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

/// Who may read an answer: anyone (signed out is a guest), or only someone signed in (signed
/// out answers 401).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Readers {
    Anyone,
    SignedIn,
}

impl Session {
    /// The one way a page that reads is answered: from memory when it holds the whole answer
    /// for the session's person (`remembered`, no database at all: a signed-out visitor, or a
    /// session checked a moment ago), else by `read` with the session check on one connection.
    /// `remembered` is given the viewer, and answers none when memory does not hold it all.
    pub async fn answer<T, E, F>(
        self,
        state: &AppState,
        readers: Readers,
        remembered: impl FnOnce(Option<UserId>) -> Option<T>,
        read: F,
    ) -> Result<T, ApiError>
    where
        F: FnOnce(&mut DbConnection, Option<UserId>) -> Result<T, E> + Clone + Send + 'static,
        T: Send + 'static,
        E: Into<ApiError> + From<db::DbError> + Send + 'static,
    {
        if let Some(viewer) = self.known_viewer(state)
            && (viewer.is_some() || readers == Readers::Anyone)
            && let Some(found) = remembered(viewer)
        {
            return Ok(found);
        }
        match readers {
            Readers::Anyone => self.read(state, read).await,
            Readers::SignedIn => self.read_signed_in(state, move |conn, me| read(conn, Some(me))).await,
        }
    }

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
    fn known_viewer(&self, state: &AppState) -> Option<Option<UserId>> {
        match &self.0 {
            None => Some(None),
            Some(token) => state.auth.known_viewer(token).map(Some),
        }
    }

    /// Runs `read` for the person signed in, on the connection of the session lookup; signed
    /// out answers 401, as [`AuthUser`] does.
    async fn read_signed_in<T, E, F>(self, state: &AppState, read: F) -> Result<T, ApiError>
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
