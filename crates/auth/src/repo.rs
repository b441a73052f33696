//! Queries of accounts, sessions, verification tokens and OIDC hand-offs.

use chrono::NaiveDateTime;
use db::diesel::dsl::{exists, not};
use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Nullable, Text, Timestamp};
use db::schema::{
    email_verification_tokens as evt, oidc_logins, password_reset_tokens as prt, sessions, suspensions, users,
};
use db::{DbConnection, Topic};
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

/// Locks the account's row until the transaction ends (PostgreSQL; SQLite's writer is alone
/// already), so that checks and writes about it from two requests at once happen one after the
/// other.
pub fn lock_account(conn: &mut DbConnection, id: UserId) -> QueryResult<()> {
    if let DbConnection::Postgres(pg) = conn {
        diesel::sql_query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE")
            .bind::<diesel::sql_types::BigInt, _>(id)
            .execute(pg)?;
    }
    Ok(())
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

/// Links a Google subject to an account; Google proved the address, so it counts as verified.
/// An account that was not verified yet takes `name` (the Google profile's), not the one its
/// first sign-up gave: nobody had proved that sign-up was the owner's.
pub fn link_google(conn: &mut DbConnection, id: UserId, sub: &str, unverified_name: Option<&str>) -> QueryResult<()> {
    let target = users::table.filter(users::id.eq(id));
    match unverified_name {
        Some(name) => diesel::update(target)
            .set((users::google_sub.eq(sub), users::email_verified.eq(true), users::name.eq(name)))
            .execute(conn)?,
        None => {
            diesel::update(target).set((users::google_sub.eq(sub), users::email_verified.eq(true))).execute(conn)?
        }
    };
    Ok(())
}

/// This domain's part when an account is deleted, and the last step of it: the user row goes,
/// and with it (cascade) its sessions, so every token it had stops working at once.
pub fn release_account(conn: &mut DbConnection, id: UserId) -> Result<(), AuthError> {
    diesel::delete(users::table.filter(users::id.eq(id))).execute(conn)?;
    db::changed(conn, &[Topic::Sessions(id)])?;
    Ok(())
}

// --- one-time tokens of e-mailed links (verification, password reset) ---

/// The two queries of a table of e-mailed one-time tokens (`token_hash`, `user_id`,
/// `created_at`, `expires_at`; only the SHA-256 of a token is kept): keep a new token for a
/// person, older ones stop working; and use one up, answering whose it was if it was still
/// valid. Password-reset links are such a table; verification links carry the sign-up they
/// verify (below). The tables are apart so that one kind of link can never be used as the other.
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

one_time_tokens!(prt, replace_reset_token, take_reset_token, "password-reset");

// --- pending sign-ups: each e-mailed verification link with what it verifies ---

/// A sign-up of an unverified address waiting for its link: the name and password it gave,
/// which its link (and only its link) makes the account's.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = evt)]
pub struct PendingSignup {
    pub token_hash: String,
    pub user_id: UserId,
    pub name: String,
    pub password_hash: String,
    pub expires_at: NaiveDateTime,
}

/// Keeps a sign-up's name and password beside the SHA-256 of its link. Earlier sign-ups of the
/// address and their links stay as they are.
pub fn insert_signup(
    conn: &mut DbConnection,
    user_id: UserId,
    name: &str,
    password_hash: &str,
    token_hash: &str,
    expires_at: NaiveDateTime,
) -> QueryResult<()> {
    diesel::insert_into(evt::table)
        .values((
            evt::token_hash.eq(token_hash),
            evt::user_id.eq(user_id),
            evt::name.eq(name),
            evt::password_hash.eq(password_hash),
            evt::created_at.eq(db::time::now()),
            evt::expires_at.eq(expires_at),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Uses up a link: the sign-up it belongs to, if it was still valid. It works once: the row
/// this call deletes decides, so two uses at the same moment cannot both get it.
pub fn take_signup(conn: &mut DbConnection, token_hash: &str) -> QueryResult<Option<PendingSignup>> {
    let row: Option<PendingSignup> =
        evt::table.filter(evt::token_hash.eq(token_hash)).select(PendingSignup::as_select()).first(conn).optional()?;
    let deleted = diesel::delete(evt::table.filter(evt::token_hash.eq(token_hash))).execute(conn)?;
    let now = db::time::now();
    Ok(row.filter(|r| deleted == 1 && r.expires_at > now))
}

/// The newest sign-up of `user_id` whose link still works: the one "Resend" mails again, and
/// whose password a sign-in before verifying is checked against.
pub fn latest_signup(conn: &mut DbConnection, user_id: UserId) -> QueryResult<Option<PendingSignup>> {
    evt::table
        .filter(evt::user_id.eq(user_id))
        .filter(evt::expires_at.gt(db::time::now()))
        .order((evt::created_at.desc(), evt::token_hash.desc()))
        .select(PendingSignup::as_select())
        .first(conn)
        .optional()
}

/// Gives a pending sign-up a fresh link that works for a new lifetime; its old link stops
/// working. Answers whether the sign-up was still there.
pub fn renew_signup_link(
    conn: &mut DbConnection,
    old_hash: &str,
    new_hash: &str,
    expires_at: NaiveDateTime,
) -> QueryResult<bool> {
    let changed = diesel::update(evt::table.filter(evt::token_hash.eq(old_hash)))
        .set((evt::token_hash.eq(new_hash), evt::created_at.eq(db::time::now()), evt::expires_at.eq(expires_at)))
        .execute(conn)?;
    Ok(changed == 1)
}

/// Forgets every pending sign-up of an account: once its address is verified, no other link
/// may change anything.
pub fn delete_signups(conn: &mut DbConnection, user_id: UserId) -> QueryResult<usize> {
    diesel::delete(evt::table.filter(evt::user_id.eq(user_id))).execute(conn)
}

/// Makes a sign-up's name and password the account's and marks its address verified, only if
/// it was not verified yet (a link of an address verified meanwhile changes nothing). Answers
/// whether it did.
pub fn verify_signup(conn: &mut DbConnection, signup: &PendingSignup) -> QueryResult<bool> {
    let changed =
        diesel::update(users::table.filter(users::id.eq(signup.user_id)).filter(users::email_verified.eq(false)))
            .set((
                users::name.eq(&signup.name),
                users::password_hash.eq(Some(&signup.password_hash)),
                users::email_verified.eq(true),
            ))
            .execute(conn)?;
    Ok(changed == 1)
}

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

/// Whether a session whose `last_seen` a request read is due a new note that it was used `now`
/// (older than `TOUCH_EVERY`). Deciding on what was read keeps the write off nearly every
/// request (on SQLite even an UPDATE that changes nothing takes the database's one write lock).
pub fn session_is_stale(last_seen: Option<NaiveDateTime>, now: NaiveDateTime) -> bool {
    last_seen.is_none_or(|seen| seen <= now - TOUCH_EVERY)
}

/// Notes that a session was used `now`.
pub fn touch_session(conn: &mut DbConnection, id: SessionId, now: NaiveDateTime) -> QueryResult<()> {
    db::Kept::new("UPDATE sessions SET last_seen_at = ? WHERE id = ?")
        .bind::<db::diesel::sql_types::Timestamp, _>(now)
        .bind::<db::diesel::sql_types::BigInt, _>(id)
        .execute(conn)?;
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
    let ended = diesel::delete(sessions::table.filter(sessions::id.eq(id)).filter(sessions::user_id.eq(user_id)))
        .execute(conn)?;
    sessions_ended(conn, user_id, ended)
}

/// Ends every session of a person but `keep`.
pub fn delete_sessions_except(conn: &mut DbConnection, user_id: UserId, keep: Option<SessionId>) -> QueryResult<usize> {
    let mine = sessions::table.filter(sessions::user_id.eq(user_id));
    let ended = match keep {
        Some(keep) => diesel::delete(mine.filter(sessions::id.ne(keep))).execute(conn)?,
        None => diesel::delete(mine).execute(conn)?,
    };
    sessions_ended(conn, user_id, ended)
}

/// Names the end of `ended` sessions of `user_id` as a change of the write under way, so that
/// what remembers sessions forgets them and the live streams of those sessions end, in every
/// process, once it commits.
fn sessions_ended(conn: &mut DbConnection, user_id: UserId, ended: usize) -> QueryResult<usize> {
    if ended > 0 {
        db::changed(conn, &[Topic::Sessions(user_id)])?;
    }
    Ok(ended)
}

/// Ends every session of a person: a suspension does, in its own transaction (`app`).
pub fn end_sessions(conn: &mut DbConnection, user_id: UserId) -> QueryResult<usize> {
    delete_sessions_except(conn, user_id, None)
}

/// Whether an admin suspended the account (`suspensions (user_id)`).
pub fn is_suspended(conn: &mut DbConnection, user_id: UserId) -> QueryResult<bool> {
    diesel::select(exists(suspensions::table.filter(suspensions::user_id.eq(user_id)))).get_result(conn)
}

/// The account of a live session, when the session was last used and when it expires, in one
/// query. A
/// suspended account has none: a suspension ends its sessions, and this holds even for one that
/// started at the same moment (a sign-in racing the suspension on PostgreSQL).
pub fn session_account(
    conn: &mut DbConnection,
    user_id: UserId,
    session_id: SessionId,
) -> QueryResult<Option<(Account, Option<NaiveDateTime>, NaiveDateTime)>> {
    sessions::table
        .inner_join(users::table)
        .filter(live_session(user_id, session_id, db::time::now()))
        .select((Account::as_select(), sessions::last_seen_at, sessions::expires_at))
        // By its key: at most one row, and no `LIMIT` (PostgreSQL would plan a bound limit
        // anew on every request).
        .get_result(conn)
        .optional()
}

/// When a live session of `user_id` was last used and when it expires (as [`session_account`],
/// without the account: all a read needs is who is asking). The session's own row alone, and a
/// probe of `suspensions`: a session is removed with its account.
pub fn session_standing(
    conn: &mut DbConnection,
    user_id: UserId,
    session_id: SessionId,
) -> QueryResult<Option<(Option<NaiveDateTime>, NaiveDateTime)>> {
    sessions::table
        .filter(live_session(user_id, session_id, db::time::now()))
        .select((sessions::last_seen_at, sessions::expires_at))
        .get_result(conn)
        .optional()
}

/// A standing session's last use and expiry, and what a column read along answered.
pub type StandingAlong = (Option<NaiveDateTime>, NaiveDateTime, Option<String>);

/// [`session_standing`] with `along`, an SQL column another domain reads of the person in the
/// same statement ([`db::Along`]: each `?` in it the person's id), and what it answered.
pub fn session_standing_along(
    conn: &mut DbConnection,
    user_id: UserId,
    session_id: SessionId,
    along: &str,
) -> QueryResult<Option<StandingAlong>> {
    #[derive(QueryableByName)]
    struct Standing {
        #[diesel(sql_type = Nullable<Timestamp>)]
        last_seen_at: Option<NaiveDateTime>,
        #[diesel(sql_type = Timestamp)]
        expires_at: NaiveDateTime,
        #[diesel(sql_type = Nullable<Text>)]
        along: Option<String>,
    }
    // One text for each column wanted (a few): kept prepared as any other.
    let mut q = db::Kept::made(format!(
        "SELECT s.last_seen_at AS last_seen_at, s.expires_at AS expires_at, ({along}) AS along FROM sessions s \
         WHERE s.id = ? AND s.user_id = ? AND s.expires_at > ? \
         AND NOT EXISTS (SELECT 1 FROM suspensions x WHERE x.user_id = s.user_id)"
    ));
    for _ in 0..along.matches('?').count() {
        q = q.bind::<BigInt, _>(user_id);
    }
    let found: Option<Standing> = q
        .bind::<BigInt, _>(session_id)
        .bind::<BigInt, _>(user_id)
        .bind::<Timestamp, _>(db::time::now())
        .get_result(conn)
        .optional()?;
    Ok(found.map(|s| (s.last_seen_at, s.expires_at, s.along)))
}

/// Session `session_id` of `user_id`, when it is live at `now`: not expired, and its person not
/// suspended.
#[db::diesel::dsl::auto_type]
fn live_session(user_id: UserId, session_id: SessionId, now: NaiveDateTime) -> _ {
    sessions::id
        .eq(session_id)
        .and(sessions::user_id.eq(user_id))
        .and(sessions::expires_at.gt(now))
        .and(not(exists(suspensions::table.filter(suspensions::user_id.eq(sessions::user_id)))))
}

/// Ends the session `session_id` of `user_id` (sign-out); 0 when it is gone already.
pub fn delete_session(conn: &mut DbConnection, user_id: UserId, session_id: SessionId) -> QueryResult<usize> {
    delete_own_session(conn, user_id, session_id)
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
