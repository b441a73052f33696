//! Sign-up and sign-in inputs parsed into types that cannot hold a bad value.

use crate::AuthError;

pub const NAME_MAX: usize = 15;
pub const EMAIL_MAX: usize = 254;

/// A display name: trimmed, 1 to 15 characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name(String);

impl Name {
    pub fn parse(raw: &str) -> Result<Name, AuthError> {
        let name = raw.trim();
        if name.is_empty() {
            return Err(AuthError::Invalid("Name cannot be empty".into()));
        }
        if name.chars().count() > NAME_MAX {
            return Err(AuthError::Invalid("Name must be 15 characters or less".into()));
        }
        if name.chars().any(char::is_control) {
            return Err(AuthError::Invalid("Name cannot contain control characters".into()));
        }
        Ok(Name(name.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

/// An e-mail address: trimmed, lower-cased, of a valid shape, at most 254 characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Email, AuthError> {
        let email = raw.trim().to_lowercase();
        if email.is_empty() {
            return Err(AuthError::Invalid("Email is required".into()));
        }
        if email.len() > EMAIL_MAX || !validator::ValidateEmail::validate_email(&email) {
            return Err(AuthError::Invalid("Please enter a valid email address".into()));
        }
        Ok(Email(email))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The part before the `@`, used to propose a login.
    pub fn local_part(&self) -> &str {
        self.0.split('@').next().unwrap_or_default()
    }
}

/// Proposes a login from an e-mail's local part or a name: lower-case letters, digits and
/// underscores, at most 15 characters (room for a numeric suffix within the 20 allowed).
pub fn login_base(seed: &str) -> String {
    let base: String = seed
        .chars()
        .filter_map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_alphanumeric() || c == '_' {
                Some(c)
            } else if c == '-' || c == '.' || c == '+' {
                Some('_')
            } else {
                None
            }
        })
        .take(15)
        .collect();
    let base = base.trim_matches('_').to_owned();
    if base.is_empty() { "user".to_owned() } else { base }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detail<T: std::fmt::Debug>(r: Result<T, AuthError>) -> String {
        r.err().map(|e| e.to_string()).unwrap_or_default()
    }

    #[test]
    fn name_is_trimmed_and_kept() {
        assert_eq!(Name::parse("  Ada  ").map(Name::into_inner).ok(), Some("Ada".into()));
    }

    #[test]
    fn empty_name_is_refused_with_the_spec_detail() {
        assert_eq!(detail(Name::parse("")), "Name cannot be empty");
        assert_eq!(detail(Name::parse("   ")), "Name cannot be empty");
    }

    #[test]
    fn name_of_15_characters_passes_and_16_does_not() {
        assert!(Name::parse("abcdefghijklmno").is_ok());
        assert!(Name::parse("Åßçđéƒĝħîĵķłḿñø").is_ok(), "characters, not bytes, are counted");
        assert_eq!(detail(Name::parse("abcdefghijklmnop")), "Name must be 15 characters or less");
    }

    #[test]
    fn email_is_lower_cased_and_trimmed() {
        assert_eq!(Email::parse(" Ada@Example.COM ").ok().map(|e| e.0), Some("ada@example.com".into()));
    }

    #[test]
    fn malformed_emails_are_refused() {
        for bad in ["ada", "ada@", "@example.com", "a b@example.com", "ada@@example.com"] {
            assert_eq!(detail(Email::parse(bad)), "Please enter a valid email address", "{bad}");
        }
        assert_eq!(detail(Email::parse("")), "Email is required");
        let huge = format!("{}@example.com", "a".repeat(300));
        assert_eq!(detail(Email::parse(&huge)), "Please enter a valid email address");
    }

    #[test]
    fn login_base_keeps_safe_characters() {
        assert_eq!(login_base("Ada.Lovelace+music"), "ada_lovelace_mu");
        assert_eq!(login_base("..."), "user");
        assert_eq!(login_base("Zoë"), "zo");
    }
}
