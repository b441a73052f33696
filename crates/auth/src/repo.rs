//! Queries of accounts, sessions, verification tokens and OIDC hand-offs.

use chrono::NaiveDateTime;
use db::DbConnection;
use db::diesel::prelude::*;
use db::schema::{email_verification_tokens as evt, oidc_logins, password_reset_tokens as prt, sessions, users};
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

pub fn account_by_id(conn: &mut DbConnection, id: UserId) -> QueryResult<Option<Account>> {
    users::table.filter(users::id.eq(id)).select(Account::as_select()).first(conn).optional()
}

/// Sets a new password hash. A password set through an e-mailed link also proves the address.
pub fn set_password(conn: &mut DbConnection, id: UserId, hash: &str, verified: bool) -> QueryResult<()> {
    let target = users::table.filter(users::id.eq(id));
    if verified {
        diesel::update(target).set((users::password_hash.eq(hash), users::email_verified.eq(true))).execute(conn)?;
    } else {
        diesel::update(target).set(users::password_hash.eq(hash)).execute(conn)?;
    }
    Ok(())
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

// --- one-time tokens of e-mailed links (verification, password reset) ---

/// The two queries of a table of e-mailed one-time tokens (`token_hash`, `user_id`,
/// `created_at`, `expires_at`; only the SHA-256 of a token is kept): keep a new token for a
/// person, older ones stop working; and use one up, answering whose it was if it was still
/// valid. The tables are apart so that one kind of link can never be used as the other.
macro_rules! one_time_tokens {
    ($table:ident, $replace:ident, $take:ident, $what:literal) => {
        #[doc = concat!("Keeps a new ", $what, " token for `user_id`; older ones stop working.")]
        pub fn $replace(
            conn: &mut DbConnection,
            user_id: UserId,
            token_hash: &str,
            now: NaiveDateTime,
            expires_at: NaiveDateTime,
        ) -> QueryResult<()> {
            diesel::delete($table::table.filter($table::user_id.eq(user_id))).execute(conn)?;
            diesel::insert_into($table::table)
                .values((
                    $table::token_hash.eq(token_hash),
                    $table::user_id.eq(user_id),
                    $table::created_at.eq(now),
                    $table::expires_at.eq(expires_at),
                ))
                .execute(conn)
                .map(|_| ())
        }

        #[doc = concat!("Uses up a ", $what, " token: the user it belonged to, if it was valid. It works once.")]
        pub fn $take(conn: &mut DbConnection, token_hash: &str) -> QueryResult<Option<UserId>> {
            let now = db::time::now();
            let row: Option<(UserId, NaiveDateTime)> = $table::table
                .filter($table::token_hash.eq(token_hash))
                .select(($table::user_id, $table::expires_at))
                .first(conn)
                .optional()?;
            diesel::delete($table::table.filter($table::token_hash.eq(token_hash))).execute(conn)?;
            Ok(row.filter(|(_, expires)| *expires > now).map(|(user, _)| user))
        }
    };
}

one_time_tokens!(evt, replace_verification_token, take_verification_token, "verification");
one_time_tokens!(prt, replace_reset_token, take_reset_token, "password-reset");

pub fn delete_reset_tokens(conn: &mut DbConnection, user_id: UserId) -> QueryResult<usize> {
    diesel::delete(prt::table.filter(prt::user_id.eq(user_id))).execute(conn)
}

// --- sessions ---

pub fn insert_session(
    conn: &mut DbConnection,
    id: SessionId,
    user_id: UserId,
    user_agent: Option<&str>,
    now: NaiveDateTime,
    expires_at: NaiveDateTime,
) -> QueryResult<()> {
    diesel::insert_into(sessions::table)
        .values((
            sessions::id.eq(id),
            sessions::user_id.eq(user_id),
            sessions::created_at.eq(now),
            sessions::expires_at.eq(expires_at),
            sessions::user_agent.eq(user_agent),
            sessions::last_seen_at.eq(now),
        ))
        .execute(conn)
        .map(|_| ())
}

/// How stale `last_seen_at` may get before a request writes it again: a write per request
/// would cost more than the Sessions list is worth.
const TOUCH_EVERY: chrono::TimeDelta = chrono::TimeDelta::minutes(5);

/// Notes that a session was used `now` when the `last_seen` its request read is older than
/// `TOUCH_EVERY`. Deciding on what was read keeps the write off nearly every request (on SQLite
/// even an UPDATE that changes nothing takes the database's one write lock).
pub fn touch_session_if_stale(
    conn: &mut DbConnection,
    id: SessionId,
    last_seen: Option<NaiveDateTime>,
    now: NaiveDateTime,
) -> QueryResult<()> {
    if last_seen.is_some_and(|seen| seen > now - TOUCH_EVERY) {
        return Ok(());
    }
    diesel::update(sessions::table.filter(sessions::id.eq(id))).set(sessions::last_seen_at.eq(now)).execute(conn)?;
    Ok(())
}

/// A live session as the Sessions list shows it.
#[derive(Debug, Clone, Queryable)]
pub struct SessionRow {
    pub id: SessionId,
    pub user_agent: Option<String>,
    pub created_at: NaiveDateTime,
    pub last_seen_at: Option<NaiveDateTime>,
}

/// The live sessions of a person, most recently used first (`sessions_user_id_idx`).
pub fn live_sessions(conn: &mut DbConnection, user_id: UserId) -> QueryResult<Vec<SessionRow>> {
    sessions::table
        .filter(sessions::user_id.eq(user_id))
        .filter(sessions::expires_at.gt(db::time::now()))
        .select((sessions::id, sessions::user_agent, sessions::created_at, sessions::last_seen_at))
        .order((sessions::last_seen_at.desc(), sessions::id.desc()))
        .limit(200)
        .load(conn)
}

/// Ends one of a person's sessions; 0 when it is not theirs (or gone already).
pub fn delete_own_session(conn: &mut DbConnection, user_id: UserId, id: SessionId) -> QueryResult<usize> {
    diesel::delete(sessions::table.filter(sessions::id.eq(id)).filter(sessions::user_id.eq(user_id))).execute(conn)
}

/// Ends every session of a person but `keep`.
pub fn delete_sessions_except(conn: &mut DbConnection, user_id: UserId, keep: Option<SessionId>) -> QueryResult<usize> {
    let mine = sessions::table.filter(sessions::user_id.eq(user_id));
    match keep {
        Some(keep) => diesel::delete(mine.filter(sessions::id.ne(keep))).execute(conn),
        None => diesel::delete(mine).execute(conn),
    }
}

/// The account of a live session and when the session was last used, in one query.
pub fn session_account(
    conn: &mut DbConnection,
    user_id: UserId,
    session_id: SessionId,
) -> QueryResult<Option<(Account, Option<NaiveDateTime>)>> {
    sessions::table
        .inner_join(users::table)
        .filter(sessions::id.eq(session_id))
        .filter(sessions::user_id.eq(user_id))
        .filter(sessions::expires_at.gt(db::time::now()))
        .select((Account::as_select(), sessions::last_seen_at))
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

/// Removes what has expired: sessions, verification and reset tokens, unfinished OIDC logins.
pub fn sweep_expired(conn: &mut DbConnection, oidc_cutoff: NaiveDateTime) -> QueryResult<usize> {
    let now = db::time::now();
    let a = diesel::delete(sessions::table.filter(sessions::expires_at.le(now))).execute(conn)?;
    let b = diesel::delete(evt::table.filter(evt::expires_at.le(now))).execute(conn)?;
    let c = diesel::delete(oidc_logins::table.filter(oidc_logins::created_at.le(oidc_cutoff))).execute(conn)?;
    let d = diesel::delete(prt::table.filter(prt::expires_at.le(now))).execute(conn)?;
    Ok(a + b + c + d)
}
