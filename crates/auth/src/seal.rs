//! Secrets the server must read back (a TOTP secret checks every code), sealed before they are
//! stored: ChaCha20-Poly1305 under a key derived (HKDF-SHA256) from the server's sealing secret,
//! with what the secret belongs to bound in as associated data. Someone who reads the database
//! (a backup, an admin at the SQL prompt) reads nothing of a sealed secret, and one copied to
//! another account's row does not open there.

use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use ring::aead::{Aad, CHACHA20_POLY1305, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use ring::hkdf;
use ring::rand::{SecureRandom, SystemRandom};

use crate::AuthError;

/// The format's version, the first part of every sealed text.
const VERSION: &str = "v1";

/// Seals and opens secrets with one server key. Cloning shares the key.
#[derive(Clone)]
pub struct Sealer(Arc<LessSafeKey>);

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sealer(***)")
    }
}

impl Sealer {
    /// The sealer of a server secret (at least 32 random bytes, as `SELFSOUND_SEALING_KEY` or the
    /// kept `secrets/sealing-key`).
    pub fn new(secret: &[u8]) -> Sealer {
        let salt = hkdf::Salt::new(hkdf::HKDF_SHA256, b"selfsound sealed secrets");
        let key: UnboundKey = salt
            .extract(secret)
            .expand(&[VERSION.as_bytes()], &CHACHA20_POLY1305)
            .map(UnboundKey::from)
            // expand() fails only for an output longer than 255 hashes; a key is one.
            .unwrap_or_else(|_| unreachable!("a 32-byte key from HKDF-SHA256"));
        Sealer(Arc::new(LessSafeKey::new(key)))
    }

    /// `secret` sealed for `owner` (a fresh random nonce each time), as text.
    pub fn seal(&self, owner: &str, secret: &[u8]) -> Result<String, AuthError> {
        let mut nonce = [0u8; NONCE_LEN];
        SystemRandom::new().fill(&mut nonce).map_err(|_| AuthError::Unexpected("no randomness".into()))?;
        let mut data = secret.to_vec();
        self.0
            .seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::from(owner.as_bytes()), &mut data)
            .map_err(|_| AuthError::Unexpected("sealing a secret".into()))?;
        let mut out = nonce.to_vec();
        out.extend_from_slice(&data);
        Ok(format!("{VERSION}.{}", STANDARD_NO_PAD.encode(out)))
    }

    /// The secret `sealed` holds, if it was sealed for `owner` with this key and not changed since.
    pub fn open(&self, owner: &str, sealed: &str) -> Result<Vec<u8>, AuthError> {
        let broken = || AuthError::Unexpected("a sealed secret does not open with this server's sealing key".into());
        let body = sealed.strip_prefix(VERSION).and_then(|rest| rest.strip_prefix('.')).ok_or_else(broken)?;
        let raw = STANDARD_NO_PAD.decode(body).map_err(|_| broken())?;
        if raw.len() < NONCE_LEN {
            return Err(broken());
        }
        let (nonce, data) = raw.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| broken())?;
        let mut data = data.to_vec();
        let opened = self.0.open_in_place(nonce, Aad::from(owner.as_bytes()), &mut data).map_err(|_| broken())?;
        Ok(opened.to_vec())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_secret_opens_only_for_its_owner_with_its_key() {
        let sealer = Sealer::new(&[7; 32]);
        let sealed = sealer.seal("totp:1", b"the secret").unwrap();
        assert!(!sealed.contains("the secret"));
        assert_ne!(sealed, sealer.seal("totp:1", b"the secret").unwrap(), "a fresh nonce each time");
        assert_eq!(sealer.open("totp:1", &sealed).unwrap(), b"the secret");
        assert!(sealer.open("totp:2", &sealed).is_err(), "copied to another account");
        assert!(Sealer::new(&[8; 32]).open("totp:1", &sealed).is_err(), "another server's key");
        let mut tampered = sealed.clone().into_bytes();
        let last = tampered.len() - 2;
        tampered[last] = if tampered[last] == b'A' { b'B' } else { b'A' };
        assert!(sealer.open("totp:1", std::str::from_utf8(&tampered).unwrap()).is_err(), "changed");
        assert!(sealer.open("totp:1", "v1.").is_err());
        assert!(sealer.open("totp:1", "plain").is_err());
    }
}
