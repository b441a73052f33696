//! Queries of accounts, sessions, verification tokens and OIDC hand-offs.

use chrono::NaiveDateTime;
use db::DbConnection;
use db::diesel::prelude::*;
use db::schema::{email_verification_tokens as evt, oidc_logins, sessions, users};
use values::{Login, SessionId, UserId};

use crate::AuthError;
use crate::model::{Account, NewAccount};

pub fn account_by_email(conn: &mut DbConnection, email: &str) -> QueryResult<Option<Account>> {
    users::table.filter(users::email.eq(email)).select(Account::as_select()).first(conn).optional()
}

pub fn account_by_google_sub(conn: &mut DbConnection, sub: &str) -> QueryResult<Option<Account>> {
    users::table.filter(users::google_sub.eq(sub)).select(Account::as_select()).first(conn).optional()
}

/// A login nobody has: the one proposed from `seed`, else it with a random number.
pub fn free_login(conn: &mut DbConnection, seed: &str) -> Result<Login, AuthError> {
    let base = Login::base_from(seed);
    let mut candidate = base.clone();
    for _ in 0..20 {
        let taken: i64 = users::table.filter(users::login.eq(candidate.as_str())).count().get_result(conn)?;
        if taken == 0 {
            return Ok(candidate);
        }
        candidate = base.with_suffix(rand::random_range(1000..100_000));
    }
    Err(AuthError::Unexpected("could not find a free login".into()))
}

pub fn insert_account(conn: &mut DbConnection, new: &NewAccount<'_>) -> QueryResult<()> {
    diesel::insert_into(users::table).values(new).execute(conn).map(|_| ())
}

/// Replaces an unverified account's name and password with those of a repeated sign-up (the
/// person who can read the mailbox decides, by verifying, which sign-up counts).
pub fn refresh_unverified(conn: &mut DbConnection, id: UserId, name: &str, hash: &str) -> QueryResult<()> {
    diesel::update(users::table.filter(users::id.eq(id)).filter(users::email_verified.eq(false)))
        .set((users::name.eq(name), users::password_hash.eq(hash)))
        .execute(conn)
        .map(|_| ())
}

pub fn mark_verified(conn: &mut DbConnection, id: UserId) -> QueryResult<()> {
    diesel::update(users::table.filter(users::id.eq(id))).set(users::email_verified.eq(true)).execute(conn).map(|_| ())
}

pub fn link_google(conn: &mut DbConnection, id: UserId, sub: &str, drop_password: bool) -> QueryResult<()> {
    let target = users::table.filter(users::id.eq(id));
    if drop_password {
        diesel::update(target)
            .set((users::google_sub.eq(sub), users::email_verified.eq(true), users::password_hash.eq(None::<String>)))
            .execute(conn)?;
    } else {
        diesel::update(target).set((users::google_sub.eq(sub), users::email_verified.eq(true))).execute(conn)?;
    }
    Ok(())
}

/// This domain's part when an account is deleted, and the last step of it: the user row goes,
/// and with it (cascade) its sessions, so every token it had stops working at once.
pub fn release_account(conn: &mut DbConnection, id: UserId) -> Result<(), AuthError> {
    diesel::delete(users::table.filter(users::id.eq(id))).execute(conn)?;
    Ok(())
}

// --- verification tokens ---

pub fn replace_verification_token(
    conn: &mut DbConnection,
    user_id: UserId,
    token_hash: &str,
    now: NaiveDateTime,
    expires_at: NaiveDateTime,
) -> QueryResult<()> {
    diesel::delete(evt::table.filter(evt::user_id.eq(user_id))).execute(conn)?;
    diesel::insert_into(evt::table)
        .values((
            evt::token_hash.eq(token_hash),
            evt::user_id.eq(user_id),
            evt::created_at.eq(now),
            evt::expires_at.eq(expires_at),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Uses up a verification token: the user it belonged to, if it was valid.
pub fn take_verification_token(conn: &mut DbConnection, token_hash: &str) -> QueryResult<Option<UserId>> {
    let now = db::time::now();
    let row: Option<(UserId, NaiveDateTime)> = evt::table
        .filter(evt::token_hash.eq(token_hash))
        .select((evt::user_id, evt::expires_at))
        .first(conn)
        .optional()?;
    diesel::delete(evt::table.filter(evt::token_hash.eq(token_hash))).execute(conn)?;
    Ok(row.filter(|(_, expires)| *expires > now).map(|(user, _)| user))
}

// --- sessions ---

pub fn insert_session(
    conn: &mut DbConnection,
    id: SessionId,
    user_id: UserId,
    now: NaiveDateTime,
    expires_at: NaiveDateTime,
) -> QueryResult<()> {
    diesel::insert_into(sessions::table)
        .values((
            sessions::id.eq(id),
            sessions::user_id.eq(user_id),
            sessions::created_at.eq(now),
            sessions::expires_at.eq(expires_at),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The account of a live session, in one query.
pub fn session_account(
    conn: &mut DbConnection,
    user_id: UserId,
    session_id: SessionId,
) -> QueryResult<Option<Account>> {
    sessions::table
        .inner_join(users::table)
        .filter(sessions::id.eq(session_id))
        .filter(sessions::user_id.eq(user_id))
        .filter(sessions::expires_at.gt(db::time::now()))
        .select(Account::as_select())
        .first(conn)
        .optional()
}

pub fn delete_session(conn: &mut DbConnection, session_id: SessionId) -> QueryResult<usize> {
    diesel::delete(sessions::table.filter(sessions::id.eq(session_id))).execute(conn)
}

// --- OIDC hand-offs ---

pub fn insert_oidc_login(
    conn: &mut DbConnection,
    state: &str,
    pkce_verifier: &str,
    nonce: &str,
    return_to: &str,
) -> QueryResult<()> {
    diesel::insert_into(oidc_logins::table)
        .values((
            oidc_logins::state.eq(state),
            oidc_logins::pkce_verifier.eq(pkce_verifier),
            oidc_logins::nonce.eq(nonce),
            oidc_logins::return_to.eq(return_to),
            oidc_logins::created_at.eq(db::time::now()),
        ))
        .execute(conn)
        .map(|_| ())
}

pub struct OidcLogin {
    pub pkce_verifier: String,
    pub nonce: String,
    pub return_to: String,
    pub created_at: NaiveDateTime,
}

/// Uses up a pending OIDC login by its state.
pub fn take_oidc_login(conn: &mut DbConnection, state: &str) -> QueryResult<Option<OidcLogin>> {
    let row: Option<(String, String, String, NaiveDateTime)> = oidc_logins::table
        .filter(oidc_logins::state.eq(state))
        .select((oidc_logins::pkce_verifier, oidc_logins::nonce, oidc_logins::return_to, oidc_logins::created_at))
        .first(conn)
        .optional()?;
    diesel::delete(oidc_logins::table.filter(oidc_logins::state.eq(state))).execute(conn)?;
    Ok(row.map(|(pkce_verifier, nonce, return_to, created_at)| OidcLogin {
        pkce_verifier,
        nonce,
        return_to,
        created_at,
    }))
}

/// Removes what has expired: sessions, verification tokens and unfinished OIDC logins.
pub fn sweep_expired(conn: &mut DbConnection, oidc_cutoff: NaiveDateTime) -> QueryResult<usize> {
    let now = db::time::now();
    let a = diesel::delete(sessions::table.filter(sessions::expires_at.le(now))).execute(conn)?;
    let b = diesel::delete(evt::table.filter(evt::expires_at.le(now))).execute(conn)?;
    let c = diesel::delete(oidc_logins::table.filter(oidc_logins::created_at.le(oidc_cutoff))).execute(conn)?;
    Ok(a + b + c)
}
