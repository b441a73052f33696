//! Passkeys (WebAuthn; issue 36; docs/security.md, "Passkeys"), through `webauthn-rs`.
//!
//! - **Adding one** asks the password again (as two-factor sign-in's set-up does): a stolen
//!   session alone cannot give its thief a way in that outlives a password change. The owner is
//!   e-mailed each time one is added. At most [`MOST_PASSKEYS`] per account.
//! - **Signing in** needs no e-mail address: the browser offers the site's passkeys
//!   (discoverable credentials), the one chosen says whose it is (its user handle, made from the
//!   account's id), and its signature over our challenge proves it. The passkey needs the
//!   person's fingerprint, face or PIN (user verification is required), so it is two factors in
//!   one: it stands in for the password *and* the two-factor code.
//! - **Ceremonies** (the challenge of a registration or a sign-in) are rows that any process
//!   finishes once (taken by a delete), within [`CEREMONY_LIFETIME`]; expired ones are swept
//!   whenever a new one is begun.
//! - **The relying party** is the host of the public URL (or `SELFSOUND_PASSKEY_RP_ID`, a parent
//!   domain shared with the web app's host); a server reached by an IP address has none, and
//!   passkeys answer 503 there.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use chrono::NaiveDateTime;
use db::DbConnection;
use db::diesel::prelude::*;
use db::schema::{passkey_ceremonies, passkeys};
use db::throttle;
use uuid::Uuid;
use values::{PasskeyId, UserId};
use webauthn_rs::prelude::{
    DiscoverableAuthentication, DiscoverableKey, Passkey, PasskeyRegistration, PublicKeyCredential,
    RegisterPublicKeyCredential, RequestChallengeResponse, Url,
};
use webauthn_rs::{Webauthn, WebauthnBuilder};

use crate::service::{AuthService, later};
use crate::{AuthError, repo};

/// How many passkeys an account may have.
pub const MOST_PASSKEYS: i64 = 20;
/// The longest name of a passkey, in characters.
pub const NAME_MAX: usize = 60;
/// How long a begun registration or sign-in may be finished.
pub const CEREMONY_LIFETIME: Duration = Duration::from_secs(5 * 60);

/// The relying party for a server whose public URL is `public_url`, with `rp_id` in place of
/// its host when given and `origins` (other web apps' origins) allowed beside it: none when the
/// host is an IP address (WebAuthn ties passkeys to domain names).
pub fn relying_party(public_url: &str, rp_id: Option<&str>, origins: &[String]) -> Result<Option<Webauthn>, String> {
    let url = Url::parse(public_url).map_err(|e| format!("SELFSOUND_PUBLIC_URL: {e}"))?;
    let id = match (rp_id, url.host()) {
        (Some(id), _) => id.to_owned(),
        (None, Some(url::Host::Domain(host))) => host.to_owned(),
        (None, _) => return Ok(None),
    };
    let mut builder = WebauthnBuilder::new(&id, &url)
        .map_err(|e| format!("passkeys for {id} at {public_url}: {e}"))?
        .rp_name("SelfSound")
        .timeout(CEREMONY_LIFETIME);
    let others: Vec<Url> =
        origins.iter().filter_map(|o| Url::parse(o).ok()).filter(|o| o.origin() != url.origin()).collect();
    for origin in &others {
        builder = builder.append_allowed_origin(origin);
    }
    builder.build().map(Some).map_err(|e| format!("passkeys for {id}: {e}"))
}

/// One of a person's passkeys, as Settings lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasskeyInfo {
    pub id: PasskeyId,
    pub name: String,
    pub created_at: NaiveDateTime,
    pub last_used_at: Option<NaiveDateTime>,
}

/// A begun registration or sign-in: what the browser is asked (`publicKey` options, as
/// `PublicKeyCredential.parseCreationOptionsFromJSON` and `…RequestOptionsFromJSON` read them),
/// and the id to finish it with.
#[derive(Debug, Clone)]
pub struct Ceremony<T> {
    pub id: i64,
    pub options: T,
}

/// The user handle of an account's passkeys: its id, as the 16 bytes WebAuthn wants.
fn handle_of(user: UserId) -> Uuid {
    Uuid::from_u64_pair(0, user.get() as u64)
}

fn user_of(handle: Uuid) -> Option<UserId> {
    match handle.as_u64_pair() {
        (0, id) => i64::try_from(id).ok().and_then(|id| UserId::try_from(id).ok()),
        _ => None,
    }
}

fn credential_text(id: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(id)
}

fn checked_name(name: &str) -> Result<String, AuthError> {
    let name = name.trim();
    let length = name.chars().count();
    if length == 0 || length > NAME_MAX || name.chars().any(values::hides) {
        return Err(AuthError::BadPasskeyName);
    }
    Ok(name.to_owned())
}

fn unexpected(e: impl std::fmt::Display) -> AuthError {
    AuthError::Unexpected(format!("passkey state: {e}"))
}

/// Keeps a begun ceremony (sweeping expired ones first): its id.
fn keep_ceremony(conn: &mut DbConnection, user: Option<UserId>, state: &str) -> Result<i64, AuthError> {
    let now = db::time::now();
    diesel::delete(passkey_ceremonies::table.filter(passkey_ceremonies::expires_at.lt(now))).execute(conn)?;
    // Random, not time-ordered: nobody can guess another's pending ceremony to spoil it.
    let id = rand::random_range(1..i64::MAX);
    diesel::insert_into(passkey_ceremonies::table)
        .values((
            passkey_ceremonies::id.eq(id),
            passkey_ceremonies::user_id.eq(user),
            passkey_ceremonies::state.eq(state),
            passkey_ceremonies::expires_at.eq(later(CEREMONY_LIFETIME)),
        ))
        .execute(conn)?;
    Ok(id)
}

/// Takes a ceremony to finish it (once: the row goes), if it is `user`'s (none for a sign-in)
/// and has not expired.
fn take_ceremony(conn: &mut DbConnection, id: i64, user: Option<UserId>) -> Result<String, AuthError> {
    let row: Option<(Option<UserId>, String, NaiveDateTime)> = passkey_ceremonies::table
        .find(id)
        .select((passkey_ceremonies::user_id, passkey_ceremonies::state, passkey_ceremonies::expires_at))
        .first(conn)
        .optional()?;
    // Someone else's is left alone (nobody can spend another's ceremony).
    let Some((_, state, expires)) = row.filter(|(owner, _, _)| *owner == user) else {
        return Err(AuthError::PasskeyCeremonyExpired);
    };
    if diesel::delete(passkey_ceremonies::table.find(id)).execute(conn)? != 1 {
        return Err(AuthError::PasskeyCeremonyExpired); // another request finished it first
    }
    if expires < db::time::now() {
        return Err(AuthError::PasskeyCeremonyExpired);
    }
    Ok(state)
}

fn passkeys_of(conn: &mut DbConnection, user: UserId) -> QueryResult<Vec<(PasskeyId, String, String)>> {
    passkeys::table
        .filter(passkeys::user_id.eq(user))
        .select((passkeys::id, passkeys::credential_id, passkeys::passkey))
        .order(passkeys::id)
        .load(conn)
}

impl AuthService {
    fn webauthn(&self) -> Result<Arc<Webauthn>, AuthError> {
        self.0.config.webauthn.clone().ok_or(AuthError::PasskeysUnavailable)
    }

    /// `user`'s passkeys, oldest first.
    pub async fn passkeys(&self, user: UserId) -> Result<Vec<PasskeyInfo>, AuthError> {
        let rows: Vec<(PasskeyId, String, NaiveDateTime, Option<NaiveDateTime>)> = self
            .0
            .db
            .run(move |conn| {
                Ok::<_, AuthError>(
                    passkeys::table
                        .filter(passkeys::user_id.eq(user))
                        .select((passkeys::id, passkeys::name, passkeys::created_at, passkeys::last_used_at))
                        .order(passkeys::id)
                        .load(conn)?,
                )
            })
            .await?;
        Ok(rows
            .into_iter()
            .map(|(id, name, created_at, last_used_at)| PasskeyInfo { id, name, created_at, last_used_at })
            .collect())
    }

    /// Begins adding a passkey to `user`'s account, for their password again: what the browser
    /// is asked to create (a discoverable credential, with user verification).
    pub async fn start_passkey_registration(
        &self,
        user: UserId,
        password: &str,
        client: &str,
    ) -> Result<Ceremony<serde_json::Value>, AuthError> {
        let webauthn = self.webauthn()?;
        let account = self.reauthenticate(user, password, client).await?;
        let existing = self.0.db.run(move |conn| Ok::<_, AuthError>(passkeys_of(conn, user)?)).await?;
        if existing.len() as i64 >= MOST_PASSKEYS {
            return Err(AuthError::TooManyPasskeys);
        }
        let exclude = existing
            .iter()
            .filter_map(|(_, _, json)| serde_json::from_str::<Passkey>(json).ok())
            .map(|p| p.cred_id().clone())
            .collect();
        let label = account.email.clone().unwrap_or_else(|| account.login.clone());
        let (options, registration) = webauthn
            .start_passkey_registration(handle_of(user), &label, &account.name, Some(exclude))
            .map_err(unexpected)?;
        // A passkey the browser can offer without an address typed first (a discoverable
        // credential), which webauthn-rs leaves to the relying party to ask for.
        let mut options = serde_json::to_value(options).map_err(unexpected)?;
        let selection = &mut options["publicKey"]["authenticatorSelection"];
        selection["residentKey"] = serde_json::json!("required");
        selection["requireResidentKey"] = serde_json::json!(true);
        let state = serde_json::to_string(&registration).map_err(unexpected)?;
        let id = self.0.db.write(move |conn| keep_ceremony(conn, Some(user), &state)).await?;
        Ok(Ceremony { id, options })
    }

    /// Finishes adding a passkey: the browser's answer to ceremony `ceremony`, kept under `name`.
    pub async fn finish_passkey_registration(
        &self,
        user: UserId,
        ceremony: i64,
        name: &str,
        credential: &RegisterPublicKeyCredential,
    ) -> Result<PasskeyInfo, AuthError> {
        let webauthn = self.webauthn()?;
        let name = checked_name(name)?;
        let state = self.0.db.write(move |conn| take_ceremony(conn, ceremony, Some(user))).await?;
        let registration: PasskeyRegistration = serde_json::from_str(&state).map_err(unexpected)?;
        let passkey = webauthn.finish_passkey_registration(credential, &registration).map_err(|e| {
            tracing::info!(error = %e, "a passkey registration did not verify");
            AuthError::PasskeyRefused
        })?;
        let credential_id = credential_text(passkey.cred_id().as_ref());
        let json = serde_json::to_string(&passkey).map_err(unexpected)?;
        let id = PasskeyId::generate();
        let now = db::time::now();
        let kept = name.clone();
        self.0
            .db
            .write(move |conn| {
                // Two additions at once: the account's row is locked while its passkeys are
                // counted (PostgreSQL; SQLite writes one at a time).
                repo::lock_account(conn, user)?;
                let count: i64 = passkeys::table.filter(passkeys::user_id.eq(user)).count().get_result(conn)?;
                if count >= MOST_PASSKEYS {
                    return Err(AuthError::TooManyPasskeys);
                }
                // A credential id on an account already (a client may make one up): a 409, not a 500.
                let added = diesel::insert_into(passkeys::table)
                    .values((
                        passkeys::id.eq(id),
                        passkeys::user_id.eq(user),
                        passkeys::credential_id.eq(&credential_id),
                        passkeys::passkey.eq(&json),
                        passkeys::name.eq(&kept),
                        passkeys::created_at.eq(now),
                    ))
                    .execute(conn);
                match added {
                    Err(diesel::result::Error::DatabaseError(
                        diesel::result::DatabaseErrorKind::UniqueViolation,
                        _,
                    )) => {
                        return Err(AuthError::PasskeyAlreadyAdded);
                    }
                    other => other?,
                };
                Ok(())
            })
            .await?;
        self.tell_of_passkey(user, &name).await;
        Ok(PasskeyInfo { id, name, created_at: now, last_used_at: None })
    }

    /// The owner is told of each passkey added: someone else adding one (with their password
    /// and a session) does not go unnoticed.
    async fn tell_of_passkey(&self, user: UserId, name: &str) {
        let account = self.0.db.run(move |conn| Ok::<_, AuthError>(repo::account_by_id(conn, user)?)).await;
        let Ok(Some(crate::Account { email: Some(email), name: owner, .. })) = account else { return };
        let link = self.0.config.sign_in_page.clone();
        if let Err(e) = self.0.mailer.send_passkey_added(&email, &owner, name, &link).await {
            tracing::warn!(error = %e, "could not tell of a passkey added");
        }
    }

    pub async fn rename_passkey(&self, user: UserId, id: PasskeyId, name: &str) -> Result<PasskeyInfo, AuthError> {
        let name = checked_name(name)?;
        self.0
            .db
            .write(move |conn| {
                let mine = passkeys::table.find(id).filter(passkeys::user_id.eq(user));
                if diesel::update(mine).set(passkeys::name.eq(&name)).execute(conn)? != 1 {
                    return Err(AuthError::NoSuchPasskey);
                }
                let (created_at, last_used_at) =
                    passkeys::table.find(id).select((passkeys::created_at, passkeys::last_used_at)).first(conn)?;
                Ok(PasskeyInfo { id, name, created_at, last_used_at })
            })
            .await
    }

    pub async fn remove_passkey(&self, user: UserId, id: PasskeyId) -> Result<(), AuthError> {
        self.0
            .db
            .write(move |conn| {
                let mine = passkeys::table.find(id).filter(passkeys::user_id.eq(user));
                match diesel::delete(mine).execute(conn)? {
                    1 => Ok(()),
                    _ => Err(AuthError::NoSuchPasskey),
                }
            })
            .await
    }

    /// Begins a sign-in with a passkey: the challenge the browser is asked to sign with one of
    /// this site's passkeys, whichever the person picks.
    pub async fn start_passkey_sign_in(&self) -> Result<Ceremony<RequestChallengeResponse>, AuthError> {
        let webauthn = self.webauthn()?;
        let (mut options, authentication) = webauthn.start_discoverable_authentication().map_err(unexpected)?;
        // Asked for by a button, not offered in the address field's autofill.
        options.mediation = None;
        let state = serde_json::to_string(&authentication).map_err(unexpected)?;
        let id = self.0.db.write(move |conn| keep_ceremony(conn, None, &state)).await?;
        Ok(Ceremony { id, options })
    }

    /// Finishes a sign-in with a passkey: a session for the account it belongs to. It stands in
    /// for the password and the two-factor code alike (it was unlocked by the person's
    /// fingerprint, face or PIN). Attempts count against the client's sign-in limit.
    pub async fn finish_passkey_sign_in(
        &self,
        ceremony: i64,
        credential: &PublicKeyCredential,
        client: impl Into<crate::ClientInfo>,
    ) -> Result<String, AuthError> {
        let client = client.into();
        let webauthn = self.webauthn()?;
        let client_key = format!("login:{}", client.addr);
        let rule = self.0.config.throttle.login_per_client;
        self.0.db.write_without_transaction(move |conn| throttle::hit(conn, &client_key, rule)).await?;
        let state = self.0.db.write(move |conn| take_ceremony(conn, ceremony, None)).await?;
        let authentication: DiscoverableAuthentication = serde_json::from_str(&state).map_err(unexpected)?;
        let (handle, credential_id) =
            webauthn.identify_discoverable_authentication(credential).map_err(|_| AuthError::PasskeyRefused)?;
        let user = user_of(handle).ok_or(AuthError::UnknownPasskey)?;
        let credential_id = credential_text(credential_id);
        let lookup = credential_id.clone();
        let found: Option<(PasskeyId, String)> = self
            .0
            .db
            .run(move |conn| {
                Ok::<_, AuthError>(
                    passkeys::table
                        .filter(passkeys::credential_id.eq(&lookup))
                        .filter(passkeys::user_id.eq(user))
                        .select((passkeys::id, passkeys::passkey))
                        .first(conn)
                        .optional()?,
                )
            })
            .await?;
        let Some((id, json)) = found else { return Err(AuthError::UnknownPasskey) };
        let mut passkey: Passkey = serde_json::from_str(&json).map_err(unexpected)?;
        let result = webauthn
            .finish_discoverable_authentication(credential, authentication, &[DiscoverableKey::from(&passkey)])
            .map_err(|e| {
                tracing::info!(error = %e, "a passkey sign-in did not verify");
                AuthError::PasskeyRefused
            })?;
        passkey.update_credential(&result);
        let json = serde_json::to_string(&passkey).map_err(unexpected)?;
        let account = self
            .0
            .db
            .write(move |conn| {
                diesel::update(passkeys::table.find(id))
                    .set((passkeys::passkey.eq(&json), passkeys::last_used_at.eq(db::time::now())))
                    .execute(conn)?;
                Ok::<_, AuthError>(repo::account_by_id(conn, user)?)
            })
            .await?
            .ok_or(AuthError::UnknownPasskey)?;
        if !account.email_verified {
            return Err(AuthError::NotVerified);
        }
        self.start_session(account.id, client.user_agent).await
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_user_handle_names_its_account_and_nothing_else() {
        let user = UserId::generate();
        assert_eq!(user_of(handle_of(user)), Some(user));
        assert_eq!(user_of(Uuid::new_v4()), None, "another site's handle names nobody here");
    }

    #[test]
    fn passkeys_need_a_domain_name() {
        assert!(relying_party("http://127.0.0.1:8080", None, &[]).unwrap().is_none());
        let rp = relying_party("https://music.example.com", None, &["https://app.example.com".into()]).unwrap();
        assert!(rp.is_some());
        assert!(relying_party("https://api.example.com", Some("example.com"), &[]).unwrap().is_some());
        assert!(relying_party("https://api.example.com", Some("other.org"), &[]).is_err(), "not a suffix of the host");
    }

    #[test]
    fn names_are_short_visible_text() {
        assert_eq!(checked_name("  My phone ").unwrap(), "My phone");
        assert!(checked_name("").is_err());
        assert!(checked_name(&"x".repeat(NAME_MAX + 1)).is_err());
        assert!(checked_name("a\u{7}b").is_err());
    }
}
