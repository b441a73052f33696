//! The server's VAPID key (RFC 8292): a P-256 key pair made once, whose public half every
//! browser subscription names (`applicationServerKey`) and whose private half signs each push
//! request, so that a push service takes pushes for our subscriptions from us alone.
//!
//! It is kept in the database (`server_secrets`, sealed by the caller with the sealing key):
//! every process behind a load balancer signs with the same key, and a restored backup brings
//! back the devices together with the key their subscriptions were made for.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use db::diesel::prelude::*;
use db::schema::server_secrets;
use db::{Db, DbConnection};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use serde::Serialize;
use url::Url;

use crate::NotificationError;

/// The row the key is kept under.
const NAME: &str = "vapid";
/// How long a signed request stays good (RFC 8292 allows up to a day).
const VALID_FOR: chrono::Duration = chrono::Duration::hours(12);

/// The key pair, ready to sign.
pub struct VapidKey {
    signing: EncodingKey,
    public: Vec<u8>,
}

impl std::fmt::Debug for VapidKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "VapidKey({})", self.public_key())
    }
}

#[derive(Serialize)]
struct Claims<'a> {
    aud: &'a str,
    exp: i64,
    sub: &'a str,
}

impl VapidKey {
    /// A new key pair, as PKCS#8.
    pub fn generate() -> Result<Vec<u8>, NotificationError> {
        EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &SystemRandom::new())
            .map(|doc| doc.as_ref().to_vec())
            .map_err(|_| NotificationError::Unexpected("making the VAPID key".into()))
    }

    /// The key pair of a PKCS#8 document made by [`VapidKey::generate`].
    pub fn from_pkcs8(der: &[u8]) -> Result<VapidKey, NotificationError> {
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, der, &SystemRandom::new())
            .map_err(|e| NotificationError::Unexpected(format!("the kept VAPID key does not read: {e}")))?;
        Ok(VapidKey { signing: EncodingKey::from_ec_der(der), public: pair.public_key().as_ref().to_vec() })
    }

    /// The key kept in the database, opened with `open`; else a new one, sealed with `seal` and
    /// kept. Two processes starting at once: the one whose row lost reads the other's. A kept key
    /// that does not open (a restore without its sealing key) is replaced, and the devices made
    /// for it removed: the server starts, and people turn notifications on again.
    pub async fn kept(
        db: &Db,
        seal: impl Fn(&[u8]) -> Result<String, String> + Send + 'static,
        open: impl Fn(&str) -> Result<Vec<u8>, String> + Clone + Send + 'static,
    ) -> Result<VapidKey, NotificationError> {
        let reopen = {
            let open = open.clone();
            move |sealed: &str| open(sealed).map_err(NotificationError::Unexpected)
        };
        let made = db
            .write(move |conn| {
                let kept = stored(conn)?;
                if let Some(sealed) = &kept {
                    match open(sealed) {
                        Ok(der) => return Ok(Some(der)),
                        // Restored without its sealing key: a new key, and every device must be
                        // turned on again (their subscriptions name the old one).
                        Err(e) => tracing::error!(
                            error = %e,
                            "the kept Web Push key does not open with this sealing key: making a new one; \
                             every device must turn notifications on again"
                        ),
                    }
                }
                let der = VapidKey::generate()?;
                let sealed = seal(&der).map_err(NotificationError::Unexpected)?;
                if kept.is_some() {
                    diesel::update(server_secrets::table.filter(server_secrets::name.eq(NAME)))
                        .set((server_secrets::sealed.eq(&sealed), server_secrets::created_at.eq(db::time::now())))
                        .execute(conn)?;
                    diesel::delete(db::schema::push_devices::table).execute(conn)?;
                    return Ok(Some(der));
                }
                let row = (
                    server_secrets::name.eq(NAME),
                    server_secrets::sealed.eq(&sealed),
                    server_secrets::created_at.eq(db::time::now()),
                );
                match diesel::insert_into(server_secrets::table).values(row).execute(conn) {
                    Ok(_) => {
                        tracing::info!("made the server's Web Push (VAPID) key");
                        Ok(Some(der))
                    }
                    // Another process kept its key first. (On PostgreSQL the failed insert ends
                    // this transaction: the winner's key is read after it.)
                    Err(diesel::result::Error::DatabaseError(
                        diesel::result::DatabaseErrorKind::UniqueViolation,
                        _,
                    )) => Ok(None),
                    Err(e) => Err(e.into()),
                }
            })
            .await;
        let der = match made {
            Ok(Some(der)) => der,
            Ok(None) | Err(NotificationError::Db(db::DbError::Commit(_))) => {
                let sealed = db
                    .run(|conn| Ok::<_, NotificationError>(stored(conn)?))
                    .await?
                    .ok_or_else(|| NotificationError::Unexpected("the VAPID key vanished".into()))?;
                reopen(&sealed)?
            }
            Err(e) => return Err(e),
        };
        VapidKey::from_pkcs8(&der)
    }

    /// The public key as browsers take it (`applicationServerKey`): the uncompressed point,
    /// base64url without padding.
    pub fn public_key(&self) -> String {
        URL_SAFE_NO_PAD.encode(&self.public)
    }

    /// The `Authorization` header of a push to `endpoint`: a token for the endpoint's origin,
    /// good for [`VALID_FOR`], naming `subject` (how the push service's operator reaches ours).
    pub fn authorization(&self, endpoint: &Url, subject: &str) -> Result<String, NotificationError> {
        let audience = endpoint.origin().ascii_serialization();
        let exp = (chrono::Utc::now() + VALID_FOR).timestamp();
        let token = jsonwebtoken::encode(
            &Header::new(Algorithm::ES256),
            &Claims { aud: &audience, exp, sub: subject },
            &self.signing,
        )
        .map_err(|e| NotificationError::Unexpected(format!("signing a push: {e}")))?;
        Ok(format!("vapid t={token}, k={}", self.public_key()))
    }
}

fn stored(conn: &mut DbConnection) -> QueryResult<Option<String>> {
    server_secrets::table.filter(server_secrets::name.eq(NAME)).select(server_secrets::sealed).first(conn).optional()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonwebtoken::{DecodingKey, Validation};

    #[test]
    fn a_push_is_signed_for_the_endpoints_origin() {
        let key = VapidKey::from_pkcs8(&VapidKey::generate().unwrap_or_default()).unwrap_or_else(|e| panic!("{e}"));
        let public = URL_SAFE_NO_PAD.decode(key.public_key()).unwrap_or_default();
        assert_eq!((public.len(), public[0]), (65, 4), "an uncompressed P-256 point");
        let endpoint = Url::parse("https://push.example.net:8443/send/abc?x=1").unwrap_or_else(|e| panic!("{e}"));
        let header = key.authorization(&endpoint, "https://selfsound.example").unwrap_or_else(|e| panic!("{e}"));
        let (token, k) = header.strip_prefix("vapid t=").and_then(|h| h.split_once(", k=")).unwrap_or_default();
        assert_eq!(k, key.public_key());
        let (x, y) = (URL_SAFE_NO_PAD.encode(&public[1..33]), URL_SAFE_NO_PAD.encode(&public[33..]));
        let decoding = DecodingKey::from_ec_components(&x, &y).unwrap_or_else(|e| panic!("{e}"));
        let mut validation = Validation::new(Algorithm::ES256);
        validation.set_audience(&["https://push.example.net:8443"]);
        let claims = jsonwebtoken::decode::<serde_json::Value>(token, &decoding, &validation)
            .unwrap_or_else(|e| panic!("{e}"))
            .claims;
        assert_eq!(claims["sub"], "https://selfsound.example");
        let exp = claims["exp"].as_i64().unwrap_or_default() - chrono::Utc::now().timestamp();
        assert!((11 * 3600..=12 * 3600).contains(&exp), "{exp}");
    }
}
