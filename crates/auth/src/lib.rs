//! Accounts and sign-in: sign-up rules, Argon2id passwords, e-mail verification, sessions behind
//! signed JWTs, throttling, and Google sign-in through OpenID Connect.

mod error;
pub mod mail;
mod model;
pub mod oidc;
pub mod password;
mod repo;
mod service;
pub mod throttle;
pub mod token;

pub use error::{AuthError, GoogleFailure};
pub use model::{Account, CurrentUser};
pub use repo::release_account;
pub use service::{AuthConfig, AuthService, GoogleStart, SignupOutcome, ThrottleRules};
