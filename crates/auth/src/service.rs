//! The rules of accounts and sign-in, as one service the HTTP layer calls.

use std::sync::Arc;
use std::time::Duration;

use db::{Db, DbConnection};
use sha2::{Digest, Sha256};
use values::{Email, Name, SessionId, UserId};

use crate::known::{Known, KnownSessions, known_sessions};
use crate::mail::Mailer;
use crate::model::{CurrentUser, NewAccount};
use crate::oidc::{IdClaims, OidcClient, random_token};
use crate::password::{self, NewPassword};
use crate::token::{self, TokenKeys};
use crate::{AuthError, repo};
use db::throttle::{self, Rule};

/// How long an e-mailed verification link works.
const VERIFICATION_LIFETIME: Duration = Duration::from_secs(24 * 3600);
/// How long a started Google sign-in may take.
const OIDC_LOGIN_LIFETIME: Duration = Duration::from_secs(10 * 60);

#[derive(Clone, Debug)]
pub struct ThrottleRules {
    /// Sign-in attempts from one client address.
    pub login_per_client: Rule,
    /// Failed sign-ins on one account from one client address: past this, that client waits
    /// for the window to end (429). Other clients are not locked out by it.
    pub login_failures_per_client: Rule,
    /// Failed sign-ins on one account from anywhere: past this, every sign-in on the account is
    /// slowed down (a growing delay, never a lock, so nobody can lock the owner out).
    pub login_failures_per_account: Rule,
    /// The first delay once `login_failures_per_account` is passed; it doubles with each further
    /// failure, up to 32 times this.
    pub login_slowdown_step: Duration,
    pub signup_per_client: Rule,
    /// Sign-ups naming one address (each unverified repeat mails a fresh link).
    pub signup_per_account: Rule,
    pub resend_per_client: Rule,
    /// One resend (of a verification or a password-reset e-mail) per address per this long,
    /// counted whether or not the address has an account.
    pub resend_cooldown: Duration,
    /// Password-reset requests from one client address.
    pub reset_per_client: Rule,
    /// Wrong two-factor codes on one account, from anywhere: past this every code is refused
    /// (429) until the window ends, and on reaching it the owner is told by e-mail. Only someone
    /// with the password (or a session) gets to try codes.
    pub second_factor_failures: Rule,
}

impl Default for ThrottleRules {
    fn default() -> Self {
        ThrottleRules {
            login_per_client: Rule::per_minutes(30, 5),
            login_failures_per_client: Rule::per_minutes(10, 15),
            login_failures_per_account: Rule::per_minutes(10, 15),
            login_slowdown_step: Duration::from_millis(250),
            signup_per_client: Rule::per_minutes(20, 60),
            signup_per_account: Rule::per_minutes(5, 60),
            resend_per_client: Rule::per_minutes(10, 60),
            resend_cooldown: Duration::from_secs(180),
            reset_per_client: Rule::per_minutes(10, 60),
            second_factor_failures: Rule::per_minutes(5, 15),
        }
    }
}

#[derive(Clone, Debug)]
pub struct AuthConfig {
    /// Our own address as browsers reach it, without a trailing slash; e-mailed links use it.
    pub public_url: String,
    /// The app's sign-in page, where verification links and Google sign-in land.
    pub sign_in_page: String,
    /// Origins (`scheme://host[:port]`) whose sign-in pages may receive a token after Google
    /// sign-in.
    pub frontend_origins: Vec<String>,
    /// The page a password-reset e-mail links to; `{token}` becomes the link's token.
    pub reset_page: String,
    pub throttle: ThrottleRules,
    /// What other domains attach to the moment an address is proved.
    pub on_verified: OnVerified,
    /// Seals the secrets kept to be read back (two-factor sign-in's).
    pub sealer: crate::seal::Sealer,
    /// Passkeys' relying party: none when the server is reached by an IP address.
    pub webauthn: Option<Arc<webauthn_rs::Webauthn>>,
}

type VerifiedFn =
    dyn Fn(&mut DbConnection, UserId, &Email) -> Result<(), Box<dyn std::error::Error + Send + Sync>> + Send + Sync;

/// Work other domains attach to the moment an account's address is proved — its verification
/// link, a password-reset link of an unverified account, Google sign-in — run inside the
/// transaction that marks it verified, so both happen or neither. Auth knows nothing of what it
/// does (it must not depend on the domains above it): the api layer grants `ADMIN_EMAILS`'
/// admin role here. By default it does nothing.
#[derive(Clone, Default)]
pub struct OnVerified(Option<Arc<VerifiedFn>>);

impl OnVerified {
    pub fn new(
        f: impl Fn(&mut DbConnection, UserId, &Email) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
        + Send
        + Sync
        + 'static,
    ) -> OnVerified {
        OnVerified(Some(Arc::new(f)))
    }

    fn run(&self, conn: &mut DbConnection, user: UserId, email: &Email) -> Result<(), AuthError> {
        match &self.0 {
            Some(f) => f(conn, user, email).map_err(AuthError::AfterVerification),
            None => Ok(()),
        }
    }
}

impl std::fmt::Debug for OnVerified {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "OnVerified(..)" } else { "OnVerified(none)" })
    }
}

/// What follows, in the same transaction, once an account's address is proved: no other
/// pending sign-up may change anything any more, and the work other domains attach runs.
pub(crate) fn address_proved(conn: &mut DbConnection, user: UserId, on_verified: &OnVerified) -> Result<(), AuthError> {
    repo::delete_signups(conn, user)?;
    // A proved address makes the account findable (people search), its name perhaps new.
    db::changed(conn, &[db::Topic::People, db::Topic::User(user)])?;
    let email = repo::account_by_id(conn, user)?.and_then(|a| a.email).and_then(|e| Email::parse(&e).ok());
    if let Some(email) = email {
        on_verified.run(conn, user, &email)?;
    }
    Ok(())
}

/// One sign-up, ready to be kept: the name and address it gave, its password's hash and the
/// SHA-256 of its link.
struct Pending {
    name: Name,
    email: Email,
    password_hash: String,
    token_hash: String,
}

enum SignupKind {
    /// The address had no account: this sign-up made it.
    First,
    /// The address has an unverified account: this sign-up joins the pending ones.
    Repeated,
}

impl Pending {
    /// Keeps this sign-up beside the account of its address, first making that account if
    /// there is none: unverified, with no password (nothing proved any sign-up's is the
    /// owner's) and the login its address proposes. An existing row is never changed.
    fn keep(&self, conn: &mut DbConnection) -> Result<SignupKind, AuthError> {
        let (user, kind) = match repo::account_by_email(conn, self.email.as_str())? {
            Some(a) if a.email_verified => return Err(AuthError::AlreadyVerified),
            Some(a) => (a.id, SignupKind::Repeated),
            None => {
                let id = UserId::generate();
                let login = repo::free_login(conn, self.email.local_part())?;
                repo::insert_account(
                    conn,
                    &NewAccount {
                        id,
                        name: self.name.as_str(),
                        login: login.as_str(),
                        email: Some(self.email.as_str()),
                        password_hash: None,
                        avatar_url: None,
                        email_verified: false,
                        google_sub: None,
                        created_at: db::time::now(),
                    },
                )?;
                (id, SignupKind::First)
            }
        };
        let expires = later(VERIFICATION_LIFETIME);
        repo::insert_signup(conn, user, self.name.as_str(), &self.password_hash, &self.token_hash, expires)?;
        Ok(kind)
    }
}

pub struct SignupOutcome {
    pub email: String,
}

/// Where to send the browser next after `GET /auth/login`, and the state the browser must
/// bring back to the callback (the HTTP layer keeps it in a cookie).
pub struct GoogleStart {
    pub redirect: String,
    pub state: String,
}

/// Who is asking: the client address throttles key on, and the browser's user agent a new
/// session remembers (for the Sessions list).
#[derive(Clone, Debug, Default)]
pub struct ClientInfo {
    pub addr: String,
    pub user_agent: Option<String>,
}

impl From<&str> for ClientInfo {
    fn from(addr: &str) -> Self {
        ClientInfo { addr: addr.to_owned(), user_agent: None }
    }
}

pub(crate) struct Inner {
    pub(crate) db: Db,
    pub(crate) keys: TokenKeys,
    pub(crate) mailer: Mailer,
    pub(crate) oidc: Option<OidcClient>,
    pub(crate) config: AuthConfig,
    pub(crate) known: KnownSessions,
    /// What another domain reads of a person along with their session's check
    /// ([`AuthService::read_along`]).
    pub(crate) along: std::sync::OnceLock<db::Alongside>,
}

#[derive(Clone)]
pub struct AuthService(pub(crate) Arc<Inner>);

pub(crate) fn sha256_hex(s: &str) -> String {
    Sha256::digest(s.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

pub(crate) fn later(d: Duration) -> chrono::NaiveDateTime {
    db::time::now() + chrono::Duration::from_std(d).unwrap_or_default()
}

impl AuthService {
    pub fn new(db: Db, keys: TokenKeys, mailer: Mailer, oidc: Option<OidcClient>, config: AuthConfig) -> Self {
        let known = known_sessions(db.changes().clone());
        let along = std::sync::OnceLock::new();
        AuthService(Arc::new(Inner { db, keys, mailer, oidc, config, known, along }))
    }

    /// Has a read that checks a session (one not checked a moment ago) read `along` of its
    /// person in the same statement ([`db::Along`]): what a domain above wants of a viewer new
    /// to the process, without a round trip of its own. Set once, as the server starts.
    pub fn read_along(&self, along: db::Alongside) {
        let _ = self.0.along.set(along);
    }

    pub fn config(&self) -> &AuthConfig {
        &self.0.config
    }

    pub fn google_enabled(&self) -> bool {
        self.0.oidc.is_some()
    }

    // --- sign-up and verification ---

    /// Signs up, or signs up again: every sign-up of an address not verified yet is kept apart
    /// with its own name, password and e-mailed link, and a link verifies the sign-up that sent
    /// it (see `docs/security.md`). A repeated sign-up changes neither the account row nor any
    /// earlier link; it answers the spec's "already exists" 400 and mails its own link.
    pub async fn signup(
        &self,
        name: &str,
        email: &str,
        password: &str,
        client: &str,
    ) -> Result<SignupOutcome, AuthError> {
        let name = Name::parse(name)?;
        let email = Email::parse(email)?;
        let password = NewPassword::parse(password)?;
        let rules = self.0.config.throttle.clone();
        let (client_key, account_key) = (format!("signup:{client}"), format!("signup-email:{}", email.as_str()));
        let lookup = email.clone();
        let existing = self
            .0
            .db
            .write_without_transaction(move |conn| {
                throttle::hit(conn, &client_key, rules.signup_per_client)?;
                throttle::hit(conn, &account_key, rules.signup_per_account)?;
                Ok::<_, AuthError>(repo::account_by_email(conn, lookup.as_str())?)
            })
            .await?;
        if existing.is_some_and(|a| a.email_verified) {
            return Err(AuthError::AlreadyVerified);
        }
        let hash = password::hash_blocking(password).await?;
        let raw = random_token();
        let pending =
            Pending { name: name.clone(), email: email.clone(), password_hash: hash, token_hash: sha256_hex(&raw) };
        let pending = Arc::new(pending);
        let first = pending.clone();
        let kind = match self.0.db.write(move |conn| first.keep(conn)).await {
            // Two first sign-ups of one address (or one login) at the same moment: the other
            // made the row; this one joins it as a repeated sign-up.
            Err(AuthError::Db(e)) if e.is_unique_violation() => self.0.db.write(move |conn| pending.keep(conn)).await,
            other => other,
        }?;
        self.mail_link(&email, name.as_str(), &raw).await;
        match kind {
            SignupKind::First => Ok(SignupOutcome { email: email.as_str().to_owned() }),
            SignupKind::Repeated => Err(AuthError::AlreadyExistsUnverified),
        }
    }

    /// Mails a verification link. A mail failure is logged, not returned: the sign-up is kept
    /// and "Resend" can try again.
    async fn mail_link(&self, email: &Email, name: &str, raw_token: &str) {
        let link = format!("{}/authorization/verify?token={raw_token}", self.0.config.public_url);
        if let Err(e) = self.0.mailer.send_verification(email.as_str(), name, &link).await {
            tracing::error!(error = %e, "could not send the verification e-mail");
        }
    }

    /// The throttles every e-mail-on-request call shares (resend, password reset): one per
    /// client and `rule`, then one request per address per cooldown, counted whether or not
    /// the address has an account, so the answers tell nothing about who has one.
    pub(crate) async fn mail_request(
        &self,
        kind: &'static str,
        email: &Email,
        client: &str,
        per_client: Rule,
    ) -> Result<Option<crate::Account>, AuthError> {
        let cooldown = Rule { max: 1, window: self.0.config.throttle.resend_cooldown };
        let (client_key, cooldown_key) = (format!("{kind}-client:{client}"), format!("{kind}:{}", email.as_str()));
        let lookup = email.clone();
        self.0
            .db
            .write_without_transaction(move |conn| {
                throttle::hit(conn, &client_key, per_client)?;
                // One statement, so two requests at once cannot both pass the cooldown.
                throttle::hit(conn, &cooldown_key, cooldown).map_err(|e| match e {
                    throttle::Throttled::Full(left) => AuthError::ResendCooldown(left),
                    other => other.into(),
                })?;
                Ok(repo::account_by_email(conn, lookup.as_str())?)
            })
            .await
    }

    /// Verifies the sign-up a link belongs to: its name and password become the account's, and
    /// every other pending link of the address goes. A link works once; a link of an address
    /// verified meanwhile changes nothing.
    pub async fn verify_email(&self, token: &str) -> Result<(), AuthError> {
        if token.is_empty() || token.len() > 200 {
            return Err(AuthError::BadVerificationLink);
        }
        let hash = sha256_hex(token);
        let on_verified = self.0.config.on_verified.clone();
        let verified = self
            .0
            .db
            .write(move |conn| {
                let Some(signup) = repo::take_signup(conn, &hash)? else { return Ok(false) };
                if !repo::verify_signup(conn, &signup)? {
                    return Ok(false);
                }
                address_proved(conn, signup.user_id, &on_verified)?;
                Ok::<_, AuthError>(true)
            })
            .await?;
        if verified { Ok(()) } else { Err(AuthError::BadVerificationLink) }
    }

    /// "Resend" is not a sign-up: it mails a fresh link for the newest pending sign-up of an
    /// unverified address (that sign-up's previous link stops working; other sign-ups keep
    /// theirs), and nothing when none is pending. The answer is the same whether the address is
    /// unknown, unverified or verified (the first request for any address is answered alike,
    /// the second within the cooldown gets the same 429), so it cannot be used to find out who
    /// has an account.
    pub async fn resend_verification(&self, email: &str, client: &str) -> Result<(), AuthError> {
        let email = Email::parse(email)?;
        let per_client = self.0.config.throttle.resend_per_client;
        let Some(account) = self.mail_request("resend", &email, client, per_client).await? else { return Ok(()) };
        if account.email_verified {
            return Ok(());
        }
        let raw = random_token();
        let new_hash = sha256_hex(&raw);
        let renewed = self
            .0
            .db
            .write(move |conn| {
                let Some(signup) = repo::latest_signup(conn, account.id)? else { return Ok(None) };
                let renewed =
                    repo::renew_signup_link(conn, &signup.token_hash, &new_hash, later(VERIFICATION_LIFETIME))?;
                Ok::<_, AuthError>(renewed.then_some(signup.name))
            })
            .await?;
        if let Some(name) = renewed {
            self.mail_link(&email, &name, &raw).await;
        }
        Ok(())
    }

    // --- sign-in and sessions ---

    /// Signs in with a password and, for an account with two-factor sign-in, its `code` (an
    /// authenticator app's or a recovery code): without one, a right password answers
    /// `SecondFactorRequired`.
    pub async fn login(
        &self,
        email: &str,
        password: &str,
        code: Option<&str>,
        client: impl Into<ClientInfo>,
    ) -> Result<String, AuthError> {
        let client = client.into();
        let Ok(email) = Email::parse(email) else { return Err(AuthError::BadCredentials) };
        if password.len() > 1024 {
            return Err(AuthError::BadCredentials);
        }
        let client_key = format!("login:{}", client.addr);
        self.0
            .db
            .write_without_transaction({
                let rule = self.0.config.throttle.login_per_client;
                move |conn| throttle::hit(conn, &client_key, rule)
            })
            .await?;
        let account = self.check_password(&email, password, &client.addr).await?;
        if !account.email_verified {
            return Err(AuthError::NotVerified);
        }
        self.second_factor(&account, code).await?;
        self.start_session(account.id, client.user_agent).await
    }

    /// The account whose password this is, with the failed-attempt rules around it: a client
    /// that failed too often on this account waits (429); once the account as a whole has seen
    /// too many failures, every attempt on it is slowed down by a growing delay instead, so an
    /// attacker elsewhere can slow the owner down but never lock them out.
    pub(crate) async fn check_password(
        &self,
        email: &Email,
        password: &str,
        client: &str,
    ) -> Result<crate::Account, AuthError> {
        let rules = self.0.config.throttle.clone();
        let account_key = format!("login-failed:{}", email.as_str());
        let pair_key = format!("login-failed:{}:{client}", email.as_str());
        let lookup = email.clone();
        let (account, stored, failures) = self
            .0
            .db
            .write_without_transaction({
                let (account_key, pair_key) = (account_key.clone(), pair_key.clone());
                move |conn| {
                    // Each attempt counts as a failure *before* its password is checked, in one
                    // atomic statement per counter, and a right password takes it back: parallel
                    // attempts cannot all see room left (reading first and writing after the
                    // check let 30 at once get 12 checks instead of 10).
                    throttle::hit(conn, &pair_key, rules.login_failures_per_client)?;
                    let never_refused = Rule { max: i64::MAX, ..rules.login_failures_per_account };
                    let failures = throttle::hit_counting(conn, &account_key, never_refused)? - 1;
                    let account = repo::account_by_email(conn, lookup.as_str())?;
                    // Before its address is verified an account has no password of its own:
                    // the newest pending sign-up's is the one a sign-in is checked against (a
                    // right one answers "please verify").
                    let stored = match &account {
                        Some(a) if !a.email_verified => repo::latest_signup(conn, a.id)?.map(|s| s.password_hash),
                        Some(a) => a.password_hash.clone(),
                        None => None,
                    };
                    Ok::<_, AuthError>((account, stored, failures))
                }
            })
            .await?;
        if let Some(over) = failures.checked_sub(rules.login_failures_per_account.max) {
            let factor = 1u32 << over.clamp(0, 5);
            tokio::time::sleep(rules.login_slowdown_step * factor).await;
        }
        let ok = password::verify_blocking(password.to_owned(), stored).await?;
        match account {
            Some(a) if ok => {
                self.0
                    .db
                    .write_without_transaction(move |conn| {
                        throttle::take_back(conn, &account_key)?;
                        throttle::take_back(conn, &pair_key)
                    })
                    .await?;
                Ok(a)
            }
            _ => Err(AuthError::BadCredentials),
        }
    }

    /// Starts a session: every way of signing in (password, Google) ends here, so a suspended
    /// account is refused here, after its credentials were found right (the refusal tells
    /// nothing to someone who does not know them).
    pub(crate) async fn start_session(&self, user_id: UserId, user_agent: Option<String>) -> Result<String, AuthError> {
        let session_id = SessionId::generate();
        let expires_at = later(token::LIFETIME);
        let user_agent = user_agent.map(|ua| ua.chars().take(300).collect::<String>());
        self.0
            .db
            .write(move |conn| {
                if repo::is_suspended(conn, user_id)? {
                    return Err(AuthError::Suspended);
                }
                Ok::<_, AuthError>(repo::insert_session(
                    conn,
                    session_id,
                    user_id,
                    user_agent.as_deref(),
                    db::time::now(),
                    expires_at,
                )?)
            })
            .await?;
        self.0.keys.issue(user_id, session_id, expires_at)
    }

    /// The signed-in person a token stands for, if its session is still live.
    pub async fn authenticate(&self, token: &str) -> Result<CurrentUser, AuthError> {
        let (user_id, session_id) = self.0.keys.verify(token)?;
        let (account, last_seen, _) = self
            .0
            .db
            .read(move |conn| Ok::<_, AuthError>(repo::session_account(conn, user_id, session_id)?))
            .await?
            .ok_or(AuthError::Unauthenticated)?;
        let now = db::time::now();
        if repo::session_is_stale(last_seen, now) {
            self.0
                .db
                .write_without_transaction(move |conn| Ok::<_, AuthError>(repo::touch_session(conn, session_id, now)?))
                .await?;
        }
        Ok(CurrentUser::from_account(account, session_id))
    }

    /// [`AuthService::authenticate`] for `then` that only reads (a page), answering who
    /// is asking. A session checked a moment ago is taken as standing without asking the
    /// database again ([`crate::known`]: forgotten the moment one of its person's sessions
    /// ends); otherwise the check and `then` run on one connection. On SQLite both may run on
    /// the calling thread ([`db::Db::read`]), with no hand-off to a blocking thread. The note
    /// that the session was used, a write, is made apart when it is due (once in
    /// `TOUCH_EVERY`).
    pub async fn authenticate_reading<T, F>(&self, token: &str, then: F) -> Result<(UserId, T), AuthError>
    where
        F: FnOnce(&mut db::DbConnection, UserId) -> T + Send + 'static,
        T: Send + 'static,
    {
        let (user_id, session_id) = self.0.keys.verify(token)?;
        let known = self.0.known.clone();
        let along = self.0.along.get().cloned();
        let (session, after) = self
            .0
            .db
            .read(move |conn| {
                let session = known
                    .get_or_read(&(session_id, user_id), Some(conn), |conn| {
                        standing(conn, user_id, session_id, along.as_deref(), known.changes())
                    })?
                    .ok_or(AuthError::Unauthenticated)?;
                Ok::<_, AuthError>((session, then(conn, user_id)))
            })
            .await?;
        let now = db::time::now();
        if repo::session_is_stale(session.last_seen, now) {
            self.0
                .db
                .write_without_transaction(move |conn| Ok::<_, AuthError>(repo::touch_session(conn, session_id, now)?))
                .await?;
            self.0.known.refresh((session_id, user_id), &session, Known { last_seen: Some(now), ..**session });
        }
        Ok((user_id, after))
    }

    /// Who `token` signs in, when its session was checked a moment ago and needs no marking as
    /// used: a read answered from memory then asks nothing of the database at all. None
    /// otherwise ([`AuthService::authenticate_reading`] checks it).
    pub fn known_viewer(&self, token: &str) -> Option<UserId> {
        let (user_id, session_id) = self.0.keys.verify(token).ok()?;
        let session = self.0.known.get(&(session_id, user_id))?;
        (!repo::session_is_stale(session.last_seen, db::time::now())).then_some(user_id)
    }

    /// Ends the session a token names. Tokens that name nothing are ignored: logging out always
    /// succeeds from the person's point of view.
    pub async fn logout(&self, token: &str) -> Result<(), AuthError> {
        let Ok((user_id, session_id)) = self.0.keys.verify(token) else { return Ok(()) };
        self.0.db.write(move |conn| Ok::<_, AuthError>(repo::delete_session(conn, user_id, session_id)?)).await?;
        Ok(())
    }

    /// Forgets expired sessions, links, unfinished Google sign-ins and old throttle windows.
    /// (Password-reset links are swept with the rest.)
    pub async fn sweep(&self) -> Result<usize, AuthError> {
        let oidc_cutoff = db::time::now() - chrono::Duration::from_std(OIDC_LOGIN_LIFETIME).unwrap_or_default();
        self.0
            .db
            .write(move |conn| {
                let a = repo::sweep_expired(conn, oidc_cutoff)?;
                let b = throttle::sweep(conn, Duration::from_secs(24 * 3600))?;
                Ok::<_, AuthError>(a + b)
            })
            .await
    }

    // --- Google sign-in ---

    /// `return_to` when it is a sign-in page on one of our frontend origins (`.../sign-in`, or
    /// `#/sign-in` for a hash-routed client), else our own sign-in page: a token is only ever
    /// handed to a sign-in page, the one place our app accepts a token from its address.
    pub fn safe_return_to(&self, return_to: Option<&str>) -> String {
        let config = &self.0.config;
        return_to
            .and_then(|r| url::Url::parse(r).ok())
            .filter(|u| {
                let origin = u.origin().ascii_serialization();
                let sign_in = u.path().trim_end_matches('/').ends_with("/sign-in")
                    || u.fragment().is_some_and(|f| f.split('?').next().unwrap_or_default().ends_with("/sign-in"));
                sign_in && config.frontend_origins.iter().any(|o| o.trim_end_matches('/') == origin)
            })
            .map(String::from)
            .unwrap_or_else(|| config.sign_in_page.clone())
    }

    pub async fn google_start(&self, return_to: Option<&str>) -> Result<GoogleStart, AuthError> {
        let oidc = self.0.oidc.as_ref().ok_or(AuthError::GoogleNotConfigured)?;
        let return_to = self.safe_return_to(return_to);
        let (state, nonce, verifier) = (random_token(), random_token(), random_token());
        let redirect = oidc.authorization_url(&state, &nonce, &verifier).await?;
        let row_state = state.clone();
        self.0
            .db
            .write(move |conn| {
                Ok::<_, AuthError>(repo::insert_oidc_login(conn, &row_state, &verifier, &nonce, &return_to)?)
            })
            .await?;
        Ok(GoogleStart { redirect, state })
    }

    /// Finishes Google sign-in; always answers where to send the browser: the page that started
    /// it with `?token=` on success, or with `?error=google` on failure. `browser_state` is the
    /// state the browser kept since it started (a cookie): a callback from any other browser
    /// (a link an attacker had someone open, to sign them into the attacker's account) fails.
    pub async fn google_callback(
        &self,
        code: Option<&str>,
        state: Option<&str>,
        browser_state: Option<&str>,
        provider_error: Option<&str>,
        client: ClientInfo,
    ) -> String {
        let pending = match state {
            Some(s) if s.len() <= 200 && browser_state == Some(s) => {
                let s = s.to_owned();
                self.0.db.write(move |conn| Ok::<_, AuthError>(repo::take_oidc_login(conn, &s)?)).await
            }
            _ => Ok(None),
        };
        let pending = match pending {
            Ok(Some(p))
                if p.created_at
                    > db::time::now() - chrono::Duration::from_std(OIDC_LOGIN_LIFETIME).unwrap_or_default() =>
            {
                p
            }
            Ok(_) => {
                tracing::warn!("Google sign-in callback with an unknown or expired state");
                return with_query(&self.0.config.sign_in_page, "error", "google");
            }
            Err(e) => {
                tracing::error!(error = %e, "Google sign-in callback");
                return with_query(&self.0.config.sign_in_page, "error", "google");
            }
        };
        let outcome = match (provider_error, code) {
            (Some(err), _) => Err(AuthError::google(format!("the provider answered {err}"))),
            (None, None) => Err(AuthError::google("no code in the callback")),
            (None, Some(code)) => self.finish_google(code, &pending.pkce_verifier, &pending.nonce, client).await,
        };
        match outcome {
            Ok(token) => with_query(&pending.return_to, "token", &token),
            // The sign-in page says "This account is suspended".
            Err(AuthError::Suspended) => with_query(&pending.return_to, "error", "suspended"),
            Err(e) => {
                tracing::warn!(error = %values::error_chain(&e), "Google sign-in failed");
                with_query(&pending.return_to, "error", "google")
            }
        }
    }

    async fn finish_google(
        &self,
        code: &str,
        verifier: &str,
        nonce: &str,
        client: ClientInfo,
    ) -> Result<String, AuthError> {
        let oidc = self.0.oidc.as_ref().ok_or(AuthError::GoogleNotConfigured)?;
        let claims = oidc.exchange(code, verifier, nonce).await?;
        let on_verified = self.0.config.on_verified.clone();
        let user_id = self.0.db.write(move |conn| google_account(conn, &claims, &on_verified)).await?;
        self.start_session(user_id, client.user_agent).await
    }
}

/// Finds the account of a Google subject, links it to an account with the same verified
/// address, or creates one.
fn google_account(conn: &mut DbConnection, claims: &IdClaims, on_verified: &OnVerified) -> Result<UserId, AuthError> {
    if let Some(a) = repo::account_by_google_sub(conn, &claims.sub)? {
        return Ok(a.id);
    }
    let email = claims.email.as_deref().filter(|_| claims.email_is_verified()).and_then(|e| Email::parse(e).ok());
    let name = claims
        .name
        .as_deref()
        .and_then(Name::fitted)
        .or_else(|| email.as_ref().and_then(|e| Name::fitted(e.local_part())))
        .map_or_else(|| "Google user".to_owned(), Name::into_inner);
    if let Some(email) = &email
        && let Some(a) = repo::account_by_email(conn, email.as_str())?
    {
        // Google proved the address. An unverified account had no password of its own and a
        // name nobody proved was the owner's: it takes the Google profile's, and its pending
        // sign-ups go.
        repo::link_google(conn, a.id, &claims.sub, (!a.email_verified).then_some(name.as_str()))?;
        if !a.email_verified {
            address_proved(conn, a.id, on_verified)?;
        }
        return Ok(a.id);
    }
    let seed = email.as_ref().map_or(name.as_str(), |e| e.local_part()).to_owned();
    let login = repo::free_login(conn, &seed)?;
    let id = UserId::generate();
    repo::insert_account(
        conn,
        &NewAccount {
            id,
            name: &name,
            login: login.as_str(),
            email: email.as_ref().map(Email::as_str),
            password_hash: None,
            avatar_url: claims.picture.as_deref().filter(|p| p.starts_with("https://")),
            email_verified: true,
            google_sub: Some(&claims.sub),
            created_at: db::time::now(),
        },
    )?;
    address_proved(conn, id, on_verified)?;
    Ok(id)
}

fn with_query(base: &str, key: &str, value: &str) -> String {
    match url::Url::parse(base) {
        Ok(mut u) => {
            u.query_pairs_mut().append_pair(key, value);
            u.into()
        }
        Err(_) => format!("{base}?{key}={value}"),
    }
}

/// The live session as a read remembers it ([`crate::known`]); none when the session has ended,
/// expired or belongs to a suspended account. What `along` wants of the person, if anything,
/// is read in the same statement and handed to it.
fn standing(
    conn: &mut db::DbConnection,
    user_id: UserId,
    session_id: values::SessionId,
    along: Option<&dyn db::Along>,
    changes: &db::Changes,
) -> Result<Option<Known>, AuthError> {
    let known = |(last_seen, expires_at)| Known { user: user_id, last_seen, expires_at };
    let Some((along, column)) = along.and_then(|a| Some((a, a.wanted(user_id)?))) else {
        return Ok(repo::session_standing(conn, user_id, session_id)?.map(known));
    };
    let seen = changes.seen();
    let Some((last_seen, expires_at, text)) = repo::session_standing_along(conn, user_id, session_id, column)? else {
        return Ok(None);
    };
    along.found(user_id, seen, text);
    Ok(Some(known((last_seen, expires_at))))
}
