//! Access tokens: HS256 JWTs naming a server-side session.
//!
//! The algorithm is pinned (a token claiming another is refused), and expiry, issuer and
//! audience are checked. The token alone is not enough: the session it names must still exist,
//! which is what makes logout and account deletion real.

use std::sync::Arc;
use std::time::Duration;

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use values::{SessionId, UserId};

use crate::AuthError;

pub const ISSUER: &str = "selfsound";
pub const AUDIENCE: &str = "selfsound-api";
/// Matches the 86400 s cookie the app keeps the token in.
pub const LIFETIME: Duration = Duration::from_secs(86_400);

#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    /// The user id.
    pub sub: String,
    /// The session id.
    pub sid: String,
    pub iat: i64,
    pub exp: i64,
    pub iss: String,
    pub aud: String,
}

/// The signing key, the rules a token must meet, and the tokens verified a moment ago.
#[derive(Clone)]
pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    verified: Arc<Verified>,
}

/// Tokens this process verified, by their text, with what they name and when they expire: the
/// same text is the same signature, so it verifies the same way until it expires. Checking the
/// signature and reading the claims of every request's token was 4% of the server's time under
/// the community mix (issue 30). Only tokens that verified are kept (an invalid one is checked
/// each time it comes), at most about [`VERIFIED_BYTES`].
type Verified = quick_cache::sync::Cache<String, (UserId, SessionId, i64), ByLength, db::FastHash>;

/// About this many bytes of verified tokens (a token is about 250 bytes: 40,000 of them).
const VERIFIED_BYTES: u64 = 16 << 20;

#[derive(Clone)]
struct ByLength;

impl quick_cache::Weighter<String, (UserId, SessionId, i64)> for ByLength {
    fn weight(&self, token: &String, _: &(UserId, SessionId, i64)) -> u64 {
        token.len() as u64 + 96
    }
}

impl TokenKeys {
    pub fn new(secret: &[u8]) -> TokenKeys {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 30;
        let verified = Verified::with(
            (VERIFIED_BYTES / 350) as usize,
            VERIFIED_BYTES,
            ByLength,
            db::FastHash::default(),
            Default::default(),
        );
        TokenKeys {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
            verified: Arc::new(verified),
        }
    }

    pub fn issue(
        &self,
        user_id: UserId,
        session_id: SessionId,
        expires_at: chrono::NaiveDateTime,
    ) -> Result<String, AuthError> {
        let now = chrono::Utc::now().timestamp();
        let claims = Claims {
            sub: user_id.to_string(),
            sid: session_id.to_string(),
            iat: now,
            exp: expires_at.and_utc().timestamp(),
            iss: ISSUER.to_owned(),
            aud: AUDIENCE.to_owned(),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| AuthError::Unexpected(format!("signing a token: {e}")))
    }

    /// The (user, session) a valid token names. Any defect is the same `Unauthenticated`.
    pub fn verify(&self, token: &str) -> Result<(UserId, SessionId), AuthError> {
        if token.len() > 4096 {
            return Err(AuthError::Unauthenticated);
        }
        let now = chrono::Utc::now().timestamp();
        if let Some((user, session, exp)) = self.verified.get(token)
            && now < exp.saturating_add(self.validation.leeway as i64)
        {
            return Ok((user, session));
        }
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .map_err(|_| AuthError::Unauthenticated)?;
        let user = data.claims.sub.parse().map_err(|_| AuthError::Unauthenticated)?;
        let session = data.claims.sid.parse().map_err(|_| AuthError::Unauthenticated)?;
        self.verified.insert(token.to_owned(), (user, session, data.claims.exp));
        Ok((user, session))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;

    fn ids(user: i64, session: i64) -> (UserId, SessionId) {
        (
            UserId::try_from(user).unwrap_or_else(|_| UserId::generate()),
            SessionId::try_from(session).unwrap_or_else(|_| SessionId::generate()),
        )
    }

    fn keys() -> TokenKeys {
        TokenKeys::new(b"0123456789abcdef0123456789abcdef")
    }

    fn in_an_hour() -> chrono::NaiveDateTime {
        (chrono::Utc::now() + chrono::Duration::hours(1)).naive_utc()
    }

    #[test]
    fn a_token_round_trips() {
        let (user, session) = ids(42, 7);
        let t = keys().issue(user, session, in_an_hour()).unwrap_or_default();
        assert_eq!(keys().verify(&t).ok(), Some((user, session)));
    }

    #[test]
    fn a_token_verified_before_is_still_refused_once_it_expires() {
        let keys = keys();
        let (user, session) = ids(42, 7);
        // Expires within the leeway from now: verified now, and kept.
        let soon = (chrono::Utc::now() - chrono::Duration::seconds(28)).naive_utc();
        let t = keys.issue(user, session, soon).unwrap_or_default();
        assert_eq!(keys.verify(&t).ok(), Some((user, session)));
        assert_eq!(keys.verify(&t).ok(), Some((user, session)), "from memory");
        std::thread::sleep(std::time::Duration::from_millis(3200));
        assert!(keys.verify(&t).is_err(), "past its expiry and the leeway, kept or not");
        let forged = format!("{}x", &t[..t.len() - 1]);
        assert!(keys.verify(&forged).is_err(), "another text is checked");
    }

    #[test]
    fn an_expired_token_is_refused() {
        let past = (chrono::Utc::now() - chrono::Duration::hours(1)).naive_utc();
        let t = keys().issue(ids(42, 7).0, ids(42, 7).1, past).unwrap_or_default();
        assert!(keys().verify(&t).is_err());
    }

    #[test]
    fn a_token_signed_with_another_key_is_refused() {
        let other = TokenKeys::new(b"another-secret-another-secret-xx");
        let t = other.issue(ids(42, 7).0, ids(42, 7).1, in_an_hour()).unwrap_or_default();
        assert!(keys().verify(&t).is_err());
    }

    #[test]
    fn the_none_algorithm_is_refused() {
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let header = b64.encode(br#"{"alg":"none","typ":"JWT"}"#);
        let exp = chrono::Utc::now().timestamp() + 3600;
        let body = b64
            .encode(format!(r#"{{"sub":"42","sid":"7","iat":0,"exp":{exp},"iss":"selfsound","aud":"selfsound-api"}}"#));
        assert!(keys().verify(&format!("{header}.{body}.")).is_err());
    }

    #[test]
    fn wrong_issuer_or_audience_is_refused() {
        let exp = chrono::Utc::now().timestamp() + 3600;
        for (iss, aud) in [("someone-else", AUDIENCE), (ISSUER, "other-api")] {
            let claims = Claims { sub: "42".into(), sid: "7".into(), iat: 0, exp, iss: iss.into(), aud: aud.into() };
            let key = EncodingKey::from_secret(b"0123456789abcdef0123456789abcdef");
            let t = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &key).unwrap_or_default();
            assert!(keys().verify(&t).is_err(), "{iss} {aud}");
        }
    }

    #[test]
    fn garbage_is_refused() {
        for t in ["", "abc", "a.b.c", &"x".repeat(10_000)] {
            assert!(keys().verify(t).is_err());
        }
    }
}
