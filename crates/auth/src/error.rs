//! What can go wrong in accounts and sign-in, each with the detail a person should read.

use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// Input that breaks a sign-up or sign-in rule; the text is shown to the person as is.
    #[error("{0}")]
    Invalid(String),
    #[error("User already exists and is verified")]
    AlreadyVerified,
    #[error("User already exists but is not verified. A new verification email has been sent.")]
    AlreadyExistsUnverified,
    #[error("Incorrect email or password")]
    BadCredentials,
    #[error("Please verify your email address before signing in. Check your inbox for the verification link.")]
    NotVerified,
    #[error("Not authenticated")]
    Unauthenticated,
    #[error("Too many attempts. Please try again in {}.", crate::throttle::human_wait(*.0))]
    Throttled(Duration),
    #[error("Please wait {} before requesting another email.", crate::throttle::clock_wait(*.0))]
    ResendCooldown(Duration),
    #[error("This verification link is invalid or has expired.")]
    BadVerificationLink,
    #[error("Google sign-in is not set up on this server.")]
    GoogleNotConfigured,
    #[error("Google sign-in failed: {0}")]
    Google(String),
    #[error(transparent)]
    Db(#[from] db::DbError),
    #[error("unexpected error: {0}")]
    Unexpected(String),
}

impl From<db::diesel::result::Error> for AuthError {
    fn from(e: db::diesel::result::Error) -> Self {
        AuthError::Db(e.into())
    }
}
