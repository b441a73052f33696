//! Google sign-in, as an OpenID Connect relying party: authorization code flow with PKCE,
//! `state` and `nonce`; the ID token's signature (provider JWKS), issuer, audience, expiry and
//! nonce are all checked before its subject is trusted.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tokio::sync::{OnceCell, RwLock};

use crate::AuthError;

pub const GOOGLE_ISSUER: &str = "https://accounts.google.com";

#[derive(Clone, Debug)]
pub struct OidcSettings {
    pub issuer_url: String,
    pub client_id: String,
    pub client_secret: String,
    /// Our callback address, registered with the provider.
    pub redirect_url: String,
}

#[derive(Clone, Debug, Deserialize)]
pub struct ProviderMetadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub jwks_uri: String,
}

/// What we take from a verified ID token.
#[derive(Clone, Debug, Deserialize)]
pub struct IdClaims {
    pub sub: String,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub email_verified: Option<serde_json::Value>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub picture: Option<String>,
    #[serde(default)]
    pub nonce: Option<String>,
}

impl IdClaims {
    /// Google sends a boolean; some providers send the string "true".
    pub fn email_is_verified(&self) -> bool {
        matches!(&self.email_verified, Some(serde_json::Value::Bool(true)))
            || matches!(&self.email_verified, Some(serde_json::Value::String(s)) if s == "true")
    }
}

pub struct OidcClient {
    settings: OidcSettings,
    http: reqwest::Client,
    metadata: OnceCell<ProviderMetadata>,
    jwks: RwLock<Option<JwkSet>>,
}

/// A random value for `state`, `nonce` or a PKCE verifier: 32 bytes, base64url.
pub fn random_token() -> String {
    let bytes: [u8; 32] = rand::random();
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The S256 PKCE challenge of a verifier.
pub fn pkce_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

fn google_err(what: &str, e: impl std::fmt::Display) -> AuthError {
    AuthError::google(format!("{what}: {e}"))
}

impl OidcClient {
    pub fn new(settings: OidcSettings) -> Result<OidcClient, AuthError> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| AuthError::Unexpected(format!("HTTP client: {e}")))?;
        Ok(OidcClient { settings, http, metadata: OnceCell::new(), jwks: RwLock::new(None) })
    }

    /// The provider's discovery document, fetched once (and again after a failure).
    pub async fn metadata(&self) -> Result<&ProviderMetadata, AuthError> {
        self.metadata
            .get_or_try_init(|| async {
                let url =
                    format!("{}/.well-known/openid-configuration", self.settings.issuer_url.trim_end_matches('/'));
                let meta: ProviderMetadata = self
                    .http
                    .get(&url)
                    .send()
                    .await
                    .and_then(reqwest::Response::error_for_status)
                    .map_err(|e| google_err("discovery", e))?
                    .json()
                    .await
                    .map_err(|e| google_err("discovery document", e))?;
                if meta.issuer.trim_end_matches('/') != self.settings.issuer_url.trim_end_matches('/') {
                    return Err(AuthError::google(format!(
                        "the provider says its issuer is {}, not {}",
                        meta.issuer, self.settings.issuer_url
                    )));
                }
                Ok(meta)
            })
            .await
    }

    /// Where to send the browser to sign in.
    pub async fn authorization_url(&self, state: &str, nonce: &str, pkce_verifier: &str) -> Result<String, AuthError> {
        let meta = self.metadata().await?;
        let mut url =
            url::Url::parse(&meta.authorization_endpoint).map_err(|e| google_err("authorization endpoint", e))?;
        url.query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("client_id", &self.settings.client_id)
            .append_pair("redirect_uri", &self.settings.redirect_url)
            .append_pair("scope", "openid email profile")
            .append_pair("state", state)
            .append_pair("nonce", nonce)
            .append_pair("code_challenge", &pkce_challenge(pkce_verifier))
            .append_pair("code_challenge_method", "S256");
        Ok(url.into())
    }

    /// Trades the code for tokens and returns the verified ID token's claims.
    pub async fn exchange(&self, code: &str, pkce_verifier: &str, nonce: &str) -> Result<IdClaims, AuthError> {
        #[derive(Deserialize)]
        struct TokenResponse {
            id_token: String,
        }
        let meta = self.metadata().await?;
        let response: TokenResponse = self
            .http
            .post(&meta.token_endpoint)
            .form(&[
                ("grant_type", "authorization_code"),
                ("code", code),
                ("redirect_uri", &self.settings.redirect_url),
                ("client_id", &self.settings.client_id),
                ("client_secret", &self.settings.client_secret),
                ("code_verifier", pkce_verifier),
            ])
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|e| google_err("token exchange", e))?
            .json()
            .await
            .map_err(|e| google_err("token response", e))?;
        let claims = self.verify_id_token(&response.id_token).await?;
        if claims.nonce.as_deref() != Some(nonce) {
            return Err(AuthError::google("the ID token's nonce does not match"));
        }
        Ok(claims)
    }

    async fn verify_id_token(&self, token: &str) -> Result<IdClaims, AuthError> {
        let header = jsonwebtoken::decode_header(token).map_err(|e| google_err("ID token", e))?;
        // Asymmetric algorithms only: a provider's public key must never double as an HMAC secret.
        if !matches!(
            header.alg,
            Algorithm::RS256 | Algorithm::RS384 | Algorithm::RS512 | Algorithm::ES256 | Algorithm::ES384
        ) {
            return Err(AuthError::google(format!("ID token algorithm {:?} is not accepted", header.alg)));
        }
        let key = self.key_for(header.kid.as_deref()).await?;
        let meta = self.metadata().await?;
        let mut validation = Validation::new(header.alg);
        let mut issuers = vec![meta.issuer.clone()];
        if meta.issuer == GOOGLE_ISSUER {
            issuers.push("accounts.google.com".to_owned()); // Google uses both spellings
        }
        validation.set_issuer(&issuers);
        validation.set_audience(&[&self.settings.client_id]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 60;
        jsonwebtoken::decode::<IdClaims>(token, &key, &validation)
            .map(|d| d.claims)
            .map_err(|e| google_err("ID token rejected", e))
    }

    /// The provider key with id `kid`; the key set is fetched again once when the id is new
    /// (providers rotate keys).
    async fn key_for(&self, kid: Option<&str>) -> Result<DecodingKey, AuthError> {
        for refresh in [false, true] {
            if refresh || self.jwks.read().await.is_none() {
                let meta = self.metadata().await?;
                let set: JwkSet = self
                    .http
                    .get(&meta.jwks_uri)
                    .send()
                    .await
                    .and_then(reqwest::Response::error_for_status)
                    .map_err(|e| google_err("key set", e))?
                    .json()
                    .await
                    .map_err(|e| google_err("key set document", e))?;
                *self.jwks.write().await = Some(set);
            }
            let guard = self.jwks.read().await;
            let jwk = match (guard.as_ref(), kid) {
                (Some(set), Some(kid)) => set.find(kid),
                (Some(set), None) => set.keys.first(),
                (None, _) => None,
            };
            if let Some(jwk) = jwk {
                return DecodingKey::from_jwk(jwk).map_err(|e| google_err("provider key", e));
            }
        }
        Err(AuthError::google("the ID token was signed with an unknown key"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pkce_challenge_matches_rfc7636_example() {
        // RFC 7636, appendix B.
        assert_eq!(
            pkce_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn random_tokens_are_long_and_distinct() {
        let a = random_token();
        assert_eq!(a.len(), 43);
        assert_ne!(a, random_token());
    }

    #[test]
    fn email_verified_reads_both_spellings() {
        let mut c =
            IdClaims { sub: "1".into(), email: None, email_verified: None, name: None, picture: None, nonce: None };
        assert!(!c.email_is_verified());
        c.email_verified = Some(serde_json::json!(true));
        assert!(c.email_is_verified());
        c.email_verified = Some(serde_json::json!("true"));
        assert!(c.email_is_verified());
        c.email_verified = Some(serde_json::json!(false));
        assert!(!c.email_is_verified());
    }
}
