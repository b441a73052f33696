//! Accounts and sign-in: sign-up rules, Argon2id passwords, e-mail verification, sessions behind
//! signed JWTs, throttling, password reset and change, the sessions list, and Google sign-in
//! through OpenID Connect, two-factor sign-in (TOTP and recovery codes).

mod error;
mod known;
pub mod mail;
mod model;
pub mod oidc;
pub mod passkeys;
pub mod password;
mod recovery;
mod repo;
pub mod seal;
mod service;
mod sessions;
pub mod token;
pub mod two_factor;

pub use error::{AuthError, GoogleFailure};
pub use known::KNOWN_FOR;
pub use model::{Account, CurrentUser};
pub use repo::{end_sessions, lock_account, release_account};
pub use service::{AuthConfig, AuthService, ClientInfo, GoogleStart, OnVerified, SignupOutcome, ThrottleRules};
pub use sessions::{SessionInfo, describe_device};
