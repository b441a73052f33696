//! The password rule of sign-up, and Argon2id hashing.
//!
//! Hashing is slow on purpose (tens of milliseconds), so callers run it on blocking threads
//! (`hash_blocking`, `verify_blocking`), never on the threads that serve requests.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::AuthError;

pub const MIN_LEN: usize = 8;
/// Long enough for any passphrase, short enough that hashing a "password" cannot be used to
/// make the server burn memory and time.
pub const MAX_LEN: usize = 128;

/// A password that passed the sign-up rule: 8 to 128 characters with an upper-case letter, a
/// lower-case letter, a digit and a special character.
#[derive(Clone)]
pub struct NewPassword(String);

impl std::fmt::Debug for NewPassword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NewPassword(***)")
    }
}

impl NewPassword {
    pub fn parse(raw: &str) -> Result<NewPassword, AuthError> {
        let mut missing = Vec::new();
        if raw.chars().count() < MIN_LEN {
            missing.push("at least 8 characters");
        }
        if !raw.chars().any(char::is_uppercase) {
            missing.push("an uppercase letter");
        }
        if !raw.chars().any(char::is_lowercase) {
            missing.push("a lowercase letter");
        }
        if !raw.chars().any(|c| c.is_ascii_digit()) {
            missing.push("a number");
        }
        if !raw.chars().any(|c| !c.is_alphanumeric() && !c.is_whitespace()) {
            missing.push("a special character");
        }
        if !missing.is_empty() {
            return Err(AuthError::WeakPassword(missing));
        }
        if raw.chars().count() > MAX_LEN {
            return Err(AuthError::PasswordTooLong);
        }
        if is_common(raw) {
            return Err(AuthError::CommonPassword);
        }
        Ok(NewPassword(raw.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

/// The most common passwords (zxcvbn's list), lower-case, for the check at sign-up and on
/// every password change.
static COMMON: std::sync::LazyLock<std::collections::HashSet<&'static str>> = std::sync::LazyLock::new(|| {
    include_str!("../lists/common-passwords.txt").lines().filter(|l| !l.is_empty() && !l.starts_with('#')).collect()
});

/// A password is common when it is on the list (in any case), or is a listed word with a few
/// digits or symbols around it ("Password123!", "!Sunshine2024"): the character rules alone
/// let those through, and they are the first guesses of every attacker.
fn is_common(raw: &str) -> bool {
    let lower = raw.to_lowercase();
    if COMMON.contains(lower.as_str()) {
        return true;
    }
    let decoration = |c: char| !c.is_alphabetic();
    let core = lower.trim_matches(decoration);
    core.len() >= 4 && lower.len() - core.len() <= 6 && COMMON.contains(core)
}

fn argon2() -> Argon2<'static> {
    // OWASP's first recommended Argon2id setting: 19 MiB, 2 passes, 1 lane.
    let params = Params::new(19 * 1024, 2, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

pub fn hash(password: &str) -> Result<String, AuthError> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| AuthError::Unexpected(format!("hashing a password: {e}")))
}

/// True when `password` matches `stored`. With no stored hash (unknown account, or one made by
/// Google sign-in) a dummy hash is checked, so the answer takes the same time either way.
pub fn verify(password: &str, stored: Option<&str>) -> bool {
    let real = stored.is_some();
    let stored = stored.unwrap_or(DUMMY_HASH.as_str());
    let Ok(parsed) = PasswordHash::new(stored) else { return false };
    argon2().verify_password(password.as_bytes(), &parsed).is_ok() && real
}

/// Argon2id of a random password nobody knows, with the same parameters as real hashes.
static DUMMY_HASH: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let secret: [u8; 16] = rand::random();
    hash(&format!("{secret:?}")).unwrap_or_default()
});

pub async fn hash_blocking(password: NewPassword) -> Result<String, AuthError> {
    tokio::task::spawn_blocking(move || hash(password.expose()))
        .await
        .map_err(|e| AuthError::Unexpected(format!("hashing task: {e}")))?
}

pub async fn verify_blocking(password: String, stored: Option<String>) -> Result<bool, AuthError> {
    tokio::task::spawn_blocking(move || verify(&password, stored.as_deref()))
        .await
        .map_err(|e| AuthError::Unexpected(format!("verifying task: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detail(raw: &str) -> String {
        NewPassword::parse(raw).err().map(|e| e.to_string()).unwrap_or_default()
    }

    #[test]
    fn a_password_with_every_kind_of_character_passes() {
        assert!(NewPassword::parse("Sound#Check9").is_ok());
        assert!(NewPassword::parse("Ünïcode9!").is_ok());
    }

    #[test]
    fn each_missing_requirement_is_named() {
        assert_eq!(detail("Ab1!"), "Password must include at least 8 characters");
        assert_eq!(detail("soundcheck9!"), "Password must include an uppercase letter");
        assert_eq!(detail("SOUNDCHECK9!"), "Password must include a lowercase letter");
        assert_eq!(detail("SoundCheck!"), "Password must include a number");
        assert_eq!(detail("SoundCheck9"), "Password must include a special character");
        assert_eq!(
            detail("sound"),
            "Password must include at least 8 characters, an uppercase letter, a number, and a special character"
        );
    }

    #[test]
    fn every_refusal_starts_with_password_must_include() {
        for raw in ["", "a", "aaaaaaaa", "AAAAAAAA1", &format!("Aa1!{}", "x".repeat(200))] {
            assert!(detail(raw).starts_with("Password must include"), "{raw:?}: {}", detail(raw));
        }
    }

    #[test]
    fn common_passwords_are_refused_in_any_case_and_dressed_up() {
        for raw in ["P@ssw0rd", "Password1!", "Password123!", "!Sunshine2024", "Iloveyou#1", "Qwerty123$"] {
            assert_eq!(detail(raw), "This password is too common. Please choose a less common one.", "{raw}");
        }
        for raw in ["Sound#Check9", "Guitar#Riffs7", "Blue-Note-1959", "Ünïcode9!"] {
            assert!(NewPassword::parse(raw).is_ok(), "{raw}");
        }
    }

    #[test]
    fn hash_then_verify() {
        let h = hash("Sound#Check9").unwrap_or_default();
        assert!(h.starts_with("$argon2id$"), "Argon2id is the algorithm");
        assert!(verify("Sound#Check9", Some(&h)));
        assert!(!verify("Sound#Check8", Some(&h)));
    }

    #[test]
    fn no_stored_hash_never_verifies() {
        assert!(!verify("anything", None));
        assert!(!verify("", Some("not a hash")));
    }

    #[test]
    fn debug_output_hides_the_password() {
        let p = NewPassword::parse("Sound#Check9").ok();
        assert!(!format!("{p:?}").contains("Sound"));
    }
}
