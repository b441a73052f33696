//! The rules of accounts and sign-in, as one service the HTTP layer calls.

use std::sync::Arc;
use std::time::Duration;

use db::{Db, write_tx};
use sha2::{Digest, Sha256};
use values::{Email, Name, SessionId, UserId};

use crate::mail::Mailer;
use crate::model::{CurrentUser, NewAccount};
use crate::oidc::{IdClaims, OidcClient, random_token};
use crate::password::{self, NewPassword};
use crate::throttle::{self, Rule};
use crate::token::{self, TokenKeys};
use crate::{AuthError, repo};

/// How long an e-mailed verification link works.
const VERIFICATION_LIFETIME: Duration = Duration::from_secs(24 * 3600);
/// How long a started Google sign-in may take.
const OIDC_LOGIN_LIFETIME: Duration = Duration::from_secs(10 * 60);

#[derive(Clone, Debug)]
pub struct ThrottleRules {
    /// Sign-in attempts from one client address.
    pub login_per_client: Rule,
    /// Failed sign-ins on one account, from anywhere.
    pub login_failures_per_account: Rule,
    pub signup_per_client: Rule,
    /// Sign-ups naming one address (each unverified repeat mails a fresh link).
    pub signup_per_account: Rule,
    pub resend_per_client: Rule,
    /// One verification e-mail per address per this long.
    pub resend_cooldown: Duration,
}

impl Default for ThrottleRules {
    fn default() -> Self {
        ThrottleRules {
            login_per_client: Rule::per_minutes(30, 5),
            login_failures_per_account: Rule::per_minutes(10, 15),
            signup_per_client: Rule::per_minutes(20, 60),
            signup_per_account: Rule::per_minutes(5, 60),
            resend_per_client: Rule::per_minutes(10, 60),
            resend_cooldown: Duration::from_secs(180),
        }
    }
}

#[derive(Clone, Debug)]
pub struct AuthConfig {
    /// Our own address as browsers reach it, without a trailing slash; e-mailed links use it.
    pub public_url: String,
    /// The app's sign-in page, where verification links and Google sign-in land.
    pub sign_in_page: String,
    /// Origins (`scheme://host[:port]`) whose pages may receive a token after Google sign-in.
    pub frontend_origins: Vec<String>,
    pub throttle: ThrottleRules,
}

pub struct SignupOutcome {
    pub email: String,
}

/// Where to send the browser next after `GET /auth/login`.
pub struct GoogleStart {
    pub redirect: String,
}

struct Inner {
    db: Db,
    keys: TokenKeys,
    mailer: Mailer,
    oidc: Option<OidcClient>,
    config: AuthConfig,
}

#[derive(Clone)]
pub struct AuthService(Arc<Inner>);

fn sha256_hex(s: &str) -> String {
    Sha256::digest(s.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

fn later(d: Duration) -> chrono::NaiveDateTime {
    db::time::now() + chrono::Duration::from_std(d).unwrap_or_default()
}

impl AuthService {
    pub fn new(db: Db, keys: TokenKeys, mailer: Mailer, oidc: Option<OidcClient>, config: AuthConfig) -> Self {
        AuthService(Arc::new(Inner { db, keys, mailer, oidc, config }))
    }

    pub fn config(&self) -> &AuthConfig {
        &self.0.config
    }

    pub fn google_enabled(&self) -> bool {
        self.0.oidc.is_some()
    }

    // --- sign-up and verification ---

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
            .run(move |conn| {
                throttle::hit(conn, &client_key, rules.signup_per_client)?;
                throttle::hit(conn, &account_key, rules.signup_per_account)?;
                Ok::<_, AuthError>(repo::account_by_email(conn, lookup.as_str())?)
            })
            .await?;
        if existing.as_ref().is_some_and(|a| a.email_verified) {
            return Err(AuthError::AlreadyVerified);
        }
        let hash = password::hash_blocking(password).await?;

        if let Some(account) = existing {
            let id = account.id;
            let name_for_row = name.as_str().to_owned();
            self.0
                .db
                .run(move |conn| Ok::<_, AuthError>(repo::refresh_unverified(conn, id, &name_for_row, &hash)?))
                .await?;
            self.send_verification(id, &email, name.as_str()).await?;
            return Err(AuthError::AlreadyExistsUnverified);
        }

        let id = UserId::generate();
        let (row_name, row_email) = (name.as_str().to_owned(), email.as_str().to_owned());
        let inserted = self
            .0
            .db
            .run(move |conn| {
                write_tx(conn, |conn| {
                    let login = repo::free_login(conn, row_email.split('@').next().unwrap_or_default())?;
                    repo::insert_account(
                        conn,
                        &NewAccount {
                            id,
                            name: &row_name,
                            login: login.as_str(),
                            email: Some(&row_email),
                            password_hash: Some(&hash),
                            avatar_url: None,
                            email_verified: false,
                            google_sub: None,
                            created_at: db::time::now(),
                        },
                    )?;
                    Ok::<_, AuthError>(())
                })
            })
            .await;
        match inserted {
            Ok(()) => {}
            // Two sign-ups with one address at the same moment: the other one won.
            Err(AuthError::Db(e)) if e.is_unique_violation() => return Err(AuthError::AlreadyExistsUnverified),
            Err(e) => return Err(e),
        }
        self.send_verification(id, &email, name.as_str()).await?;
        Ok(SignupOutcome { email: email.as_str().to_owned() })
    }

    /// Makes a fresh link (older ones stop working), starts the resend cooldown and mails it.
    /// A mail failure is logged, not returned: the account exists and "Resend" can try again.
    async fn send_verification(&self, user_id: UserId, email: &Email, name: &str) -> Result<(), AuthError> {
        let raw = random_token();
        let hash = sha256_hex(&raw);
        let cooldown = Rule { max: 1, window: self.0.config.throttle.resend_cooldown };
        let cooldown_key = format!("resend:{}", email.as_str());
        self.0
            .db
            .run(move |conn| {
                write_tx(conn, |conn| {
                    repo::replace_verification_token(
                        conn,
                        user_id,
                        &hash,
                        db::time::now(),
                        later(VERIFICATION_LIFETIME),
                    )?;
                    // Starts the cooldown (being inside it already is fine here).
                    throttle::record(conn, &cooldown_key, cooldown)
                })
            })
            .await?;
        let link = format!("{}/authorization/verify?token={raw}", self.0.config.public_url);
        if let Err(e) = self.0.mailer.send_verification(email.as_str(), name, &link).await {
            tracing::error!(error = %e, "could not send the verification e-mail");
        }
        Ok(())
    }

    /// Verifies the account a link belongs to. A link works once.
    pub async fn verify_email(&self, token: &str) -> Result<(), AuthError> {
        if token.is_empty() || token.len() > 200 {
            return Err(AuthError::BadVerificationLink);
        }
        let hash = sha256_hex(token);
        self.0
            .db
            .run(move |conn| {
                write_tx(conn, |conn| {
                    let user = repo::take_verification_token(conn, &hash)?.ok_or(AuthError::BadVerificationLink)?;
                    repo::mark_verified(conn, user)?;
                    Ok(())
                })
            })
            .await
    }

    /// Sends a new link to an unverified address. The answer is the same whether or not the
    /// address has an account, so it cannot be used to find out who has one.
    pub async fn resend_verification(&self, email: &str, client: &str) -> Result<(), AuthError> {
        let email = Email::parse(email)?;
        let rules = self.0.config.throttle.clone();
        let (client_key, cooldown_key) = (format!("resend-client:{client}"), format!("resend:{}", email.as_str()));
        let lookup = email.clone();
        let account = self
            .0
            .db
            .run(move |conn| {
                throttle::hit(conn, &client_key, rules.resend_per_client)?;
                let cooldown = Rule { max: 1, window: rules.resend_cooldown };
                if let Some(left) = throttle::cooldown(conn, &cooldown_key, cooldown)? {
                    return Err(AuthError::ResendCooldown(left));
                }
                Ok(repo::account_by_email(conn, lookup.as_str())?)
            })
            .await?;
        match account {
            Some(a) if !a.email_verified => self.send_verification(a.id, &email, &a.name).await,
            _ => Ok(()),
        }
    }

    // --- sign-in and sessions ---

    pub async fn login(&self, email: &str, password: &str, client: &str) -> Result<String, AuthError> {
        let Ok(email) = Email::parse(email) else { return Err(AuthError::BadCredentials) };
        if password.len() > 1024 {
            return Err(AuthError::BadCredentials);
        }
        let rules = self.0.config.throttle.clone();
        let client_key = format!("login:{client}");
        let account_key = format!("login-failed:{}", email.as_str());
        let (lookup, check_key) = (email.clone(), account_key.clone());
        let account = self
            .0
            .db
            .run(move |conn| {
                throttle::hit(conn, &client_key, rules.login_per_client)?;
                throttle::check(conn, &check_key, rules.login_failures_per_account)?;
                Ok::<_, AuthError>(repo::account_by_email(conn, lookup.as_str())?)
            })
            .await?;
        let stored = account.as_ref().and_then(|a| a.password_hash.clone());
        let ok = password::verify_blocking(password.to_owned(), stored).await?;
        let account = match account {
            Some(a) if ok => a,
            _ => {
                let rule = self.0.config.throttle.login_failures_per_account;
                self.0.db.run(move |conn| throttle::record(conn, &account_key, rule)).await?;
                return Err(AuthError::BadCredentials);
            }
        };
        if !account.email_verified {
            return Err(AuthError::NotVerified);
        }
        self.start_session(account.id).await
    }

    async fn start_session(&self, user_id: UserId) -> Result<String, AuthError> {
        let session_id = SessionId::generate();
        let expires_at = later(token::LIFETIME);
        self.0
            .db
            .run(move |conn| {
                Ok::<_, AuthError>(repo::insert_session(conn, session_id, user_id, db::time::now(), expires_at)?)
            })
            .await?;
        self.0.keys.issue(user_id, session_id, expires_at)
    }

    /// The signed-in person a token stands for, if its session is still live.
    pub async fn authenticate(&self, token: &str) -> Result<CurrentUser, AuthError> {
        let (user_id, session_id) = self.0.keys.verify(token)?;
        let account = self
            .0
            .db
            .run(move |conn| Ok::<_, AuthError>(repo::session_account(conn, user_id, session_id)?))
            .await?
            .ok_or(AuthError::Unauthenticated)?;
        Ok(CurrentUser::from_account(account, session_id))
    }

    /// Ends the session a token names. Tokens that name nothing are ignored: logging out always
    /// succeeds from the person's point of view.
    pub async fn logout(&self, token: &str) -> Result<(), AuthError> {
        let Ok((_, session_id)) = self.0.keys.verify(token) else { return Ok(()) };
        self.0.db.run(move |conn| Ok::<_, AuthError>(repo::delete_session(conn, session_id)?)).await?;
        Ok(())
    }

    /// Forgets expired sessions, links, unfinished Google sign-ins and old throttle windows.
    pub async fn sweep(&self) -> Result<usize, AuthError> {
        let oidc_cutoff = db::time::now() - chrono::Duration::from_std(OIDC_LOGIN_LIFETIME).unwrap_or_default();
        self.0
            .db
            .run(move |conn| {
                let a = repo::sweep_expired(conn, oidc_cutoff)?;
                let b = throttle::sweep(conn, Duration::from_secs(24 * 3600))?;
                Ok::<_, AuthError>(a + b)
            })
            .await
    }

    // --- Google sign-in ---

    /// `return_to` when it is an address on one of our frontend origins, else our sign-in page.
    pub fn safe_return_to(&self, return_to: Option<&str>) -> String {
        let config = &self.0.config;
        return_to
            .and_then(|r| url::Url::parse(r).ok())
            .filter(|u| {
                let origin = u.origin().ascii_serialization();
                config.frontend_origins.iter().any(|o| o.trim_end_matches('/') == origin)
            })
            .map(String::from)
            .unwrap_or_else(|| config.sign_in_page.clone())
    }

    pub async fn google_start(&self, return_to: Option<&str>) -> Result<GoogleStart, AuthError> {
        let oidc = self.0.oidc.as_ref().ok_or(AuthError::GoogleNotConfigured)?;
        let return_to = self.safe_return_to(return_to);
        let (state, nonce, verifier) = (random_token(), random_token(), random_token());
        let redirect = oidc.authorization_url(&state, &nonce, &verifier).await?;
        self.0
            .db
            .run(move |conn| Ok::<_, AuthError>(repo::insert_oidc_login(conn, &state, &verifier, &nonce, &return_to)?))
            .await?;
        Ok(GoogleStart { redirect })
    }

    /// Finishes Google sign-in; always answers where to send the browser: the page that started
    /// it with `?token=` on success, or with `?error=google` on failure.
    pub async fn google_callback(
        &self,
        code: Option<&str>,
        state: Option<&str>,
        provider_error: Option<&str>,
    ) -> String {
        let pending = match state {
            Some(s) if s.len() <= 200 => {
                let s = s.to_owned();
                self.0.db.run(move |conn| Ok::<_, AuthError>(repo::take_oidc_login(conn, &s)?)).await
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
            (None, Some(code)) => self.finish_google(code, &pending.pkce_verifier, &pending.nonce).await,
        };
        match outcome {
            Ok(token) => with_query(&pending.return_to, "token", &token),
            Err(e) => {
                tracing::warn!(error = %values::error_chain(&e), "Google sign-in failed");
                with_query(&pending.return_to, "error", "google")
            }
        }
    }

    async fn finish_google(&self, code: &str, verifier: &str, nonce: &str) -> Result<String, AuthError> {
        let oidc = self.0.oidc.as_ref().ok_or(AuthError::GoogleNotConfigured)?;
        let claims = oidc.exchange(code, verifier, nonce).await?;
        let user_id = self.0.db.run(move |conn| write_tx(conn, |conn| google_account(conn, &claims))).await?;
        self.start_session(user_id).await
    }
}

/// Finds the account of a Google subject, links it to an account with the same verified
/// address, or creates one.
fn google_account(conn: &mut db::DbConnection, claims: &IdClaims) -> Result<UserId, AuthError> {
    if let Some(a) = repo::account_by_google_sub(conn, &claims.sub)? {
        return Ok(a.id);
    }
    let email = claims.email.as_deref().filter(|_| claims.email_is_verified()).and_then(|e| Email::parse(e).ok());
    if let Some(email) = &email
        && let Some(a) = repo::account_by_email(conn, email.as_str())?
    {
        // Google proved the address. An unverified account's password was never proved to
        // belong to its owner, so it is dropped.
        repo::link_google(conn, a.id, &claims.sub, !a.email_verified)?;
        return Ok(a.id);
    }
    let name = claims
        .name
        .as_deref()
        .and_then(Name::fitted)
        .or_else(|| email.as_ref().and_then(|e| Name::fitted(e.local_part())))
        .map_or_else(|| "Google user".to_owned(), Name::into_inner);
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
