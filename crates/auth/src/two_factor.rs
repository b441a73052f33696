//! Two-factor sign-in: a TOTP second factor (RFC 6238: six digits, 30-second steps, HMAC-SHA1,
//! what every authenticator app reads from a QR code) and ten single-use recovery codes.
//!
//! The secret is sealed (`crate::seal`) and bound to its account; the recovery codes are kept
//! as SHA-256 hashes (each holds ~59 random bits, beyond guessing, so a slow hash adds nothing).
//! A code is good once: the step it was accepted for is kept, and a code of that step or an
//! earlier one is refused. Wrong codes are counted per account, before the code is checked,
//! as wrong passwords are (`ThrottleRules::second_factor_failures`).

use chrono::NaiveDateTime;
use db::DbConnection;
use db::diesel::prelude::*;
use db::schema::{recovery_codes, two_factor};
use db::throttle;
use totp_rs::{Algorithm, TOTP};
use values::UserId;

use crate::service::{AuthService, sha256_hex};
use crate::{AuthError, repo};

/// The 401 detail `POST /authorization/logindefault` answers for a right password on an account
/// with two-factor sign-in, when the request carries no `code`. The web app turns it into the
/// code step; the same call with `code` (or a recovery code) finishes signing in.
pub const SECOND_FACTOR_REQUIRED: &str =
    "Two-factor authentication required: enter the 6-digit code from your authenticator app.";

/// How many recovery codes a person gets each time.
pub const RECOVERY_CODES: usize = 10;
/// The issuer authenticator apps show beside the account.
const ISSUER: &str = "SelfSound";
const STEP_SECONDS: u64 = 30;
/// Letters and digits nobody confuses when copying a code by hand (no 0/o, 1/l/i).
const CODE_ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
const CODE_LEN: usize = 12;

/// Whether a person has two-factor sign-in, as Settings shows it.
#[derive(Debug, Clone, Copy)]
pub struct TwoFactorStatus {
    pub enabled: bool,
    pub recovery_codes_left: i64,
}

/// A set-up under way: what the authenticator app is given (the QR code of `otpauth_url`, or
/// the key typed in). Nothing changes at sign-in until a first code confirms it.
#[derive(Debug, Clone)]
pub struct TwoFactorSetup {
    /// The secret in base32, as authenticator apps take it typed in.
    pub secret: String,
    pub otpauth_url: String,
    /// `otpauth_url` as a QR code, an SVG document.
    pub qr_svg: String,
}

/// What a code is, by its shape: six digits, or a recovery code (hyphens and spaces aside).
enum Code {
    Totp(String),
    Recovery { hash: String },
    Neither,
}

impl Code {
    fn parse(raw: &str) -> Code {
        let plain: String =
            raw.chars().filter(|c| !c.is_whitespace() && *c != '-').flat_map(char::to_lowercase).collect();
        if plain.len() == 6 && plain.bytes().all(|b| b.is_ascii_digit()) {
            Code::Totp(plain)
        } else if plain.len() == CODE_LEN && plain.bytes().all(|b| CODE_ALPHABET.contains(&b)) {
            Code::Recovery { hash: sha256_hex(&plain) }
        } else {
            Code::Neither
        }
    }
}

/// The state a code is checked in: a set-up waiting for its first code, or two-factor sign-in on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    SettingUp,
    On,
}

/// A code's check: right (and what was done with it), or wrong, with the account's count of
/// wrong codes in the window.
enum Checked<T> {
    Right(T),
    Wrong { failures: i64 },
}

fn owner(user: UserId) -> String {
    format!("totp:{user}")
}

fn totp(secret: Vec<u8>, account: &str) -> Result<TOTP, AuthError> {
    // A ':' separates the issuer from the account in the otpauth label.
    let account = account.replace(':', " ");
    // Skew 0: each step is checked on its own (`accept`), to know which one a code was for.
    TOTP::new(Algorithm::SHA1, 6, 0, STEP_SECONDS, secret, Some(ISSUER.into()), account)
        .map_err(|e| AuthError::Unexpected(format!("a TOTP secret: {e}")))
}

fn unix_now() -> u64 {
    u64::try_from(chrono::Utc::now().timestamp()).unwrap_or_default()
}

fn new_recovery_codes() -> Vec<String> {
    (0..RECOVERY_CODES)
        .map(|_| {
            let plain: String =
                (0..CODE_LEN).map(|_| CODE_ALPHABET[rand::random_range(0..CODE_ALPHABET.len())] as char).collect();
            format!("{}-{}-{}", &plain[0..4], &plain[4..8], &plain[8..12])
        })
        .collect()
}

/// Replaces the account's recovery codes with `codes` (kept by their hash).
fn keep_recovery_codes(conn: &mut DbConnection, user: UserId, codes: &[String]) -> Result<(), AuthError> {
    diesel::delete(recovery_codes::table.filter(recovery_codes::user_id.eq(user))).execute(conn)?;
    // One row at a time: a batch insert is not one statement on both backends.
    for code in codes {
        let Code::Recovery { hash } = Code::parse(code) else { unreachable!("a code made here is a recovery code") };
        diesel::insert_into(recovery_codes::table)
            .values((recovery_codes::user_id.eq(user), recovery_codes::code_hash.eq(hash)))
            .execute(conn)?;
    }
    Ok(())
}

fn row(conn: &mut DbConnection, user: UserId) -> QueryResult<Option<(String, Option<NaiveDateTime>, i64)>> {
    two_factor::table
        .filter(two_factor::user_id.eq(user))
        .select((two_factor::secret_sealed, two_factor::enabled_at, two_factor::last_step))
        .first(conn)
        .optional()
}

/// Whether the account signs in with a second factor.
pub(crate) fn is_on(conn: &mut DbConnection, user: UserId) -> QueryResult<bool> {
    Ok(row(conn, user)?.is_some_and(|(_, enabled, _)| enabled.is_some()))
}

impl AuthService {
    pub async fn two_factor_status(&self, user: UserId) -> Result<TwoFactorStatus, AuthError> {
        self.0
            .db
            .run(move |conn| {
                let enabled = is_on(conn, user)?;
                let left = recovery_codes::table.filter(recovery_codes::user_id.eq(user)).count().get_result(conn)?;
                Ok::<_, AuthError>(TwoFactorStatus { enabled, recovery_codes_left: if enabled { left } else { 0 } })
            })
            .await
    }

    /// Starts setting up two-factor sign-in, after the account's password (a stolen session
    /// alone cannot tie the account to someone else's phone): a new secret, sealed, waiting for
    /// its first code. A set-up started earlier and not finished is replaced.
    pub async fn start_two_factor(
        &self,
        user: UserId,
        password: &str,
        client: &str,
    ) -> Result<TwoFactorSetup, AuthError> {
        let account = self.reauthenticate(user, password, client).await?;
        let secret: [u8; 20] = rand::random();
        let totp = totp(secret.to_vec(), account.email.as_deref().unwrap_or(&account.login))?;
        let sealed = self.0.config.sealer.seal(&owner(user), &secret)?;
        self.0
            .db
            .write(move |conn| {
                if is_on(conn, user)? {
                    return Err(AuthError::TwoFactorAlreadyOn);
                }
                diesel::delete(two_factor::table.filter(two_factor::user_id.eq(user))).execute(conn)?;
                diesel::insert_into(two_factor::table)
                    .values((
                        two_factor::user_id.eq(user),
                        two_factor::secret_sealed.eq(&sealed),
                        two_factor::last_step.eq(0),
                        two_factor::created_at.eq(db::time::now()),
                    ))
                    .execute(conn)?;
                Ok(())
            })
            .await?;
        let otpauth_url = totp.get_url();
        let qr_svg = qrcode::QrCode::new(otpauth_url.as_bytes())
            .map_err(|e| AuthError::Unexpected(format!("a QR code: {e}")))?
            .render::<qrcode::render::svg::Color>()
            .min_dimensions(200, 200)
            .quiet_zone(true)
            .build();
        Ok(TwoFactorSetup { secret: totp.get_secret_base32(), otpauth_url, qr_svg })
    }

    /// Finishes the set-up with a first code from the app: two-factor sign-in is on, and the
    /// recovery codes (shown this once) are the answer.
    pub async fn enable_two_factor(&self, user: UserId, code: &str) -> Result<Vec<String>, AuthError> {
        let codes = new_recovery_codes();
        let kept = codes.clone();
        let checked = self
            .with_code(user, code, Stage::SettingUp, move |conn| {
                diesel::update(two_factor::table.filter(two_factor::user_id.eq(user)))
                    .set(two_factor::enabled_at.eq(db::time::now()))
                    .execute(conn)?;
                keep_recovery_codes(conn, user, &kept)
            })
            .await?;
        match checked {
            Checked::Right(()) => {
                self.tell_owner(user, true).await;
                Ok(codes)
            }
            Checked::Wrong { .. } => Err(AuthError::WrongCode),
        }
    }

    /// Mails the owner that two-factor sign-in was turned on or off (a failure is logged: the
    /// change is made).
    async fn tell_owner(&self, user: UserId, on: bool) {
        let account = self.0.db.run(move |conn| Ok::<_, AuthError>(repo::account_by_id(conn, user)?)).await;
        let Ok(Some(crate::Account { email: Some(email), name, .. })) = account else { return };
        let link = self.0.config.sign_in_page.clone();
        if let Err(e) = self.0.mailer.send_two_factor_changed(&email, &name, on, &link).await {
            tracing::warn!(error = %e, "could not tell of a two-factor change");
        }
    }

    /// Ten new recovery codes in place of the old ones, for a code of the app (or one of the old).
    pub async fn renew_recovery_codes(&self, user: UserId, code: &str) -> Result<Vec<String>, AuthError> {
        let codes = new_recovery_codes();
        let kept = codes.clone();
        match self.with_code(user, code, Stage::On, move |conn| keep_recovery_codes(conn, user, &kept)).await? {
            Checked::Right(()) => Ok(codes),
            Checked::Wrong { .. } => Err(AuthError::WrongCode),
        }
    }

    /// Turns two-factor sign-in off, for a code of the app or a recovery code.
    pub async fn disable_two_factor(&self, user: UserId, code: &str) -> Result<(), AuthError> {
        let checked = self
            .with_code(user, code, Stage::On, move |conn| {
                diesel::delete(recovery_codes::table.filter(recovery_codes::user_id.eq(user))).execute(conn)?;
                diesel::delete(two_factor::table.filter(two_factor::user_id.eq(user))).execute(conn)?;
                Ok(())
            })
            .await?;
        match checked {
            Checked::Right(()) => {
                self.tell_owner(user, false).await;
                Ok(())
            }
            Checked::Wrong { .. } => Err(AuthError::WrongCode),
        }
    }

    /// The second step of a password sign-in: nothing for an account without two-factor
    /// sign-in; else its code (or a recovery code) must come with the password. When wrong codes
    /// reach the account's limit, its owner is told by e-mail that someone has their password.
    pub(crate) async fn second_factor(&self, account: &crate::Account, code: Option<&str>) -> Result<(), AuthError> {
        let user = account.id;
        if !self.0.db.run(move |conn| Ok::<_, AuthError>(is_on(conn, user)?)).await? {
            return Ok(());
        }
        let Some(code) = code.filter(|c| !c.trim().is_empty()) else {
            return Err(AuthError::SecondFactorRequired);
        };
        match self.with_code(user, code, Stage::On, |_| Ok(())).await? {
            Checked::Right(()) => Ok(()),
            Checked::Wrong { failures } => {
                if failures == self.0.config.throttle.second_factor_failures.max
                    && let Some(email) = &account.email
                {
                    let link = self.0.config.sign_in_page.clone();
                    if let Err(e) = self.0.mailer.send_second_factor_warning(email, &account.name, &link).await {
                        tracing::warn!(error = %e, "could not warn of wrong two-factor codes");
                    }
                }
                Err(AuthError::WrongSecondFactor)
            }
        }
    }

    /// Checks `code` for `user` in `stage`; when right, uses it up and runs `then`, in one
    /// transaction. The code counts as wrong before it is checked (one atomic statement, as
    /// passwords do), and a right one takes that back: parallel guesses get exactly the limit.
    async fn with_code<T, F>(&self, user: UserId, code: &str, stage: Stage, then: F) -> Result<Checked<T>, AuthError>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, AuthError> + Send + 'static,
        T: Send + 'static,
    {
        // Asking in the wrong state is no guess: told before anything is counted.
        self.0.db.run(move |conn| stage_of(conn, user, stage).map(|_| ())).await?;
        let rule = self.0.config.throttle.second_factor_failures;
        let key = format!("2fa-failed:{user}");
        let failures = self
            .0
            .db
            .write_without_transaction({
                let key = key.clone();
                move |conn| throttle::hit_counting(conn, &key, rule).map_err(AuthError::from)
            })
            .await?;
        let code = Code::parse(code);
        let sealer = self.0.config.sealer.clone();
        self.0
            .db
            .write(move |conn| {
                let right = accept(conn, &sealer, user, &code, stage)?;
                if !right {
                    return Ok(Checked::Wrong { failures });
                }
                throttle::take_back(conn, &key)?;
                Ok(Checked::Right(then(conn)?))
            })
            .await
    }
}

/// The sealed secret and last step of `user`, if their two-factor sign-in is in `stage`.
fn stage_of(conn: &mut DbConnection, user: UserId, stage: Stage) -> Result<(String, i64), AuthError> {
    match (stage, row(conn, user)?) {
        (Stage::SettingUp, None) => Err(AuthError::NoTwoFactorSetup),
        (Stage::On, None | Some((_, None, _))) => Err(AuthError::TwoFactorOff),
        (Stage::SettingUp, Some((_, Some(_), _))) => Err(AuthError::TwoFactorAlreadyOn),
        (_, Some((sealed, _, last_step))) => Ok((sealed, last_step)),
    }
}

/// Whether `code` is right for `user` in `stage`, using it up if so: the step of an app's code
/// is kept (that code, and any earlier one, is refused from now on), a recovery code deleted.
fn accept(
    conn: &mut DbConnection,
    sealer: &crate::seal::Sealer,
    user: UserId,
    code: &Code,
    stage: Stage,
) -> Result<bool, AuthError> {
    let (sealed, last_step) = stage_of(conn, user, stage)?;
    match code {
        Code::Totp(digits) => {
            let totp = totp(sealer.open(&owner(user), &sealed)?, "")?;
            let now = i64::try_from(unix_now() / STEP_SECONDS).unwrap_or_default();
            // The step before and after too: a phone's clock a little off, a code typed as it changed.
            let Some(step) = (now - 1..=now + 1)
                .filter(|s| *s > last_step)
                .find(|s| totp.check(digits, u64::try_from(*s).unwrap_or_default() * STEP_SECONDS))
            else {
                return Ok(false);
            };
            // Conditional, so two requests with one code cannot both use it.
            let used = diesel::update(
                two_factor::table.filter(two_factor::user_id.eq(user)).filter(two_factor::last_step.lt(step)),
            )
            .set(two_factor::last_step.eq(step))
            .execute(conn)?;
            Ok(used == 1)
        }
        Code::Recovery { hash } if stage == Stage::On => {
            let used = diesel::delete(
                recovery_codes::table
                    .filter(recovery_codes::user_id.eq(user))
                    .filter(recovery_codes::code_hash.eq(hash)),
            )
            .execute(conn)?;
            Ok(used == 1)
        }
        Code::Recovery { .. } | Code::Neither => Ok(false),
    }
}

impl AuthService {
    /// The account of a signed-in person who typed their password again, for a change that
    /// needs more than a session (a stolen one must not be enough): checked, throttled and
    /// slowed down as sign-in is.
    pub(crate) async fn reauthenticate(
        &self,
        user: UserId,
        password: &str,
        client: &str,
    ) -> Result<crate::Account, AuthError> {
        let account = self
            .0
            .db
            .run(move |conn| Ok::<_, AuthError>(repo::account_by_id(conn, user)?))
            .await?
            .ok_or(AuthError::Unauthenticated)?;
        if account.password_hash.is_none() {
            return Err(AuthError::NoPasswordYet);
        }
        let email = account.email.as_deref().map(values::Email::parse).transpose()?.ok_or(AuthError::NoPasswordYet)?;
        match self.check_password(&email, password, client).await {
            Ok(_) => Ok(account),
            Err(AuthError::BadCredentials) => Err(AuthError::WrongCurrentPassword),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_told_apart_by_their_shape() {
        assert!(matches!(Code::parse(" 123 456 "), Code::Totp(d) if d == "123456"));
        assert!(matches!(Code::parse("ABCD-efgh-jkmn"), Code::Recovery { .. }));
        assert!(matches!(Code::parse("12345"), Code::Neither));
        assert!(matches!(Code::parse("abcd-efgh-jkm0"), Code::Neither), "0 is not in the alphabet");
        for code in new_recovery_codes() {
            assert!(matches!(Code::parse(&code), Code::Recovery { .. }), "{code}");
            assert_eq!(code.len(), 14);
        }
    }

    #[test]
    fn the_web_app_knows_the_servers_words_for_the_code_step() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../frontend/src/features/auth/two-factor-step.tsx");
        let source = std::fs::read_to_string(path).unwrap();
        assert!(source.contains(&format!("'{SECOND_FACTOR_REQUIRED}'")), "{path} holds another text");
    }

    #[test]
    fn a_code_is_the_rfc_6238_one() {
        // RFC 6238, appendix B: the SHA-1 secret "12345678901234567890" at 59 s is 94287082 (8
        // digits); its last six are what a six-digit app shows.
        let totp = totp(b"12345678901234567890".to_vec(), "a").unwrap();
        assert_eq!(totp.generate(59), "287082");
        assert_eq!(totp.generate(1_111_111_109), "081804");
    }
}
