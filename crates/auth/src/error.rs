//! What can go wrong in accounts and sign-in, each with the detail a person should read.

use std::time::Duration;

use values::{DomainError, ErrorKind, InvalidValue};

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// A name or e-mail address that breaks the sign-up rule.
    #[error(transparent)]
    Invalid(#[from] InvalidValue),
    /// The password lacks what the rule asks for (each missing requirement named).
    #[error("Password must include {}", join(.0))]
    WeakPassword(Vec<&'static str>),
    #[error("Password must include no more than 128 characters")]
    PasswordTooLong,
    #[error("This password is too common. Please choose a less common one.")]
    CommonPassword,
    #[error("User already exists and is verified")]
    AlreadyVerified,
    #[error("User already exists but is not verified. A new verification email has been sent.")]
    AlreadyExistsUnverified,
    #[error("Incorrect email or password")]
    BadCredentials,
    #[error("Please verify your email address before signing in. Check your inbox for the verification link.")]
    NotVerified,
    /// An admin suspended the account: no session may start until they lift it.
    #[error("This account is suspended")]
    Suspended,
    #[error("Not authenticated")]
    Unauthenticated,
    #[error("Too many attempts. Please try again in {}.", db::throttle::human_wait(*.0))]
    Throttled(Duration),
    #[error("Please wait {} before requesting another email.", db::throttle::clock_wait(*.0))]
    ResendCooldown(Duration),
    #[error("This verification link is invalid or has expired.")]
    BadVerificationLink,
    #[error("This password reset link is invalid or has expired.")]
    BadResetLink,
    #[error("Current password is incorrect")]
    WrongCurrentPassword,
    #[error("This account has no password yet. Use “Forgot password?” on the sign-in page to set one.")]
    NoPasswordYet,
    #[error("Not found")]
    NoSuchSession,
    /// A right password on an account with two-factor sign-in, without its code (the detail is
    /// `two_factor::SECOND_FACTOR_REQUIRED`, which clients may match).
    #[error("{}", crate::two_factor::SECOND_FACTOR_REQUIRED)]
    SecondFactorRequired,
    #[error("Incorrect two-factor code. Enter the code your authenticator app shows now, or a recovery code.")]
    WrongSecondFactor,
    /// A wrong code in Settings (a 400: the session is fine).
    #[error("That code is not right. Enter the 6-digit code your authenticator app shows now.")]
    WrongCode,
    #[error("Two-factor sign-in is already on")]
    TwoFactorAlreadyOn,
    #[error("Two-factor sign-in is not on")]
    TwoFactorOff,
    #[error("Start setting up two-factor sign-in first")]
    NoTwoFactorSetup,
    #[error("Google sign-in is not set up on this server.")]
    GoogleNotConfigured,
    /// The server is reached by an address passkeys cannot be tied to (an IP address).
    #[error("Passkeys are not available on this server.")]
    PasskeysUnavailable,
    #[error("That passkey request has expired. Please try again.")]
    PasskeyCeremonyExpired,
    /// The authenticator's answer did not verify (wrong challenge, origin or signature).
    #[error("That passkey could not be verified. Please try again.")]
    PasskeyRefused,
    /// A passkey we do not know (removed from the account, or of another site's account).
    #[error("This passkey is not registered with SelfSound. Sign in with your password and add it in Settings.")]
    UnknownPasskey,
    #[error("This passkey is already added to an account")]
    PasskeyAlreadyAdded,
    #[error("You can add at most {} passkeys", crate::passkeys::MOST_PASSKEYS)]
    TooManyPasskeys,
    #[error("Passkey name must be 1 to {} characters", crate::passkeys::NAME_MAX)]
    BadPasskeyName,
    #[error("Passkey not found")]
    NoSuchPasskey,
    /// The provider or its answer failed us; the reason is logged, the person reads this.
    #[error("Google sign-in failed. Please try again.")]
    Google(#[source] GoogleFailure),
    #[error(transparent)]
    Db(#[from] db::DbError),
    /// The work another domain attached to an address being proved failed (`OnVerified`); the
    /// verification is rolled back with it.
    #[error("after verifying an address")]
    AfterVerification(#[source] Box<dyn std::error::Error + Send + Sync>),
    #[error("unexpected error: {0}")]
    Unexpected(String),
}

/// Why Google sign-in failed, for the log.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct GoogleFailure(pub String);

impl AuthError {
    pub(crate) fn google(reason: impl Into<String>) -> AuthError {
        AuthError::Google(GoogleFailure(reason.into()))
    }
}

fn join(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{}, and {last}", init.join(", ")),
    }
}

impl From<db::diesel::result::Error> for AuthError {
    fn from(e: db::diesel::result::Error) -> Self {
        AuthError::Db(e.into())
    }
}

/// A full window is a throttled attempt, in sign-in's words.
impl From<db::throttle::Throttled> for AuthError {
    fn from(e: db::throttle::Throttled) -> Self {
        match e {
            db::throttle::Throttled::Full(wait) => AuthError::Throttled(wait),
            db::throttle::Throttled::Db(e) => AuthError::Db(e),
        }
    }
}

impl DomainError for AuthError {
    fn kind(&self) -> ErrorKind {
        match self {
            // A repeated sign-up is a 400 in the spec's wire contract (§8 Sign-up 400), not a 409.
            AuthError::Invalid(_)
            | AuthError::WeakPassword(_)
            | AuthError::PasswordTooLong
            | AuthError::CommonPassword
            | AuthError::AlreadyVerified
            | AuthError::AlreadyExistsUnverified
            | AuthError::BadVerificationLink
            | AuthError::BadResetLink
            | AuthError::WrongCurrentPassword
            | AuthError::NoPasswordYet
            | AuthError::WrongCode
            | AuthError::TwoFactorAlreadyOn
            | AuthError::TwoFactorOff
            | AuthError::NoTwoFactorSetup
            | AuthError::PasskeyCeremonyExpired
            | AuthError::TooManyPasskeys
            | AuthError::BadPasskeyName => ErrorKind::Invalid,
            AuthError::NoSuchSession | AuthError::NoSuchPasskey => ErrorKind::NotFound,
            AuthError::PasskeyAlreadyAdded => ErrorKind::Conflict,
            AuthError::PasskeyRefused | AuthError::UnknownPasskey => ErrorKind::Unauthenticated,
            AuthError::BadCredentials
            | AuthError::Unauthenticated
            | AuthError::SecondFactorRequired
            | AuthError::WrongSecondFactor => ErrorKind::Unauthenticated,
            AuthError::NotVerified | AuthError::Suspended => ErrorKind::Forbidden,
            AuthError::Throttled(wait) | AuthError::ResendCooldown(wait) => ErrorKind::Throttled { retry_after: *wait },
            AuthError::GoogleNotConfigured | AuthError::PasskeysUnavailable => ErrorKind::Unavailable,
            AuthError::Google(_) => ErrorKind::Upstream,
            AuthError::Db(e) => e.kind(),
            AuthError::AfterVerification(_) | AuthError::Unexpected(_) => ErrorKind::Internal,
        }
    }

    fn is_public(&self) -> bool {
        match self {
            // Not a fault: this server is set up without it, and the sign-in page says so.
            AuthError::GoogleNotConfigured | AuthError::PasskeysUnavailable => true,
            AuthError::Db(e) => e.is_public(),
            other => !matches!(other.kind(), ErrorKind::Internal | ErrorKind::Unavailable),
        }
    }
}
