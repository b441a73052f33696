//! Text a person types that must follow a rule, parsed into types that cannot hold a bad value.
//! The messages are the spec's (§5, §8) where it gives one; clients show them as they are.

pub const NAME_MAX: usize = 15;
pub const EMAIL_MAX: usize = 254;
pub const LOGIN_MAX: usize = 20;
pub const BIOGRAPHY_MAX: usize = 130;

/// Why a piece of text was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum InvalidValue {
    #[error("Name cannot be empty")]
    NameEmpty,
    #[error("Name must be 15 characters or less")]
    NameTooLong,
    #[error("Name cannot contain control characters")]
    NameControlCharacters,
    #[error("Email is required")]
    EmailMissing,
    #[error("Please enter a valid email address")]
    EmailMalformed,
    #[error("Login cannot be empty")]
    LoginEmpty,
    #[error("Login must be 20 characters or less")]
    LoginTooLong,
    #[error("Login can only contain letters, numbers, underscores and hyphens")]
    LoginCharacters,
    #[error("Biography must be 130 characters or less")]
    BiographyTooLong,
}

impl crate::DomainError for InvalidValue {
    fn kind(&self) -> crate::ErrorKind {
        crate::ErrorKind::Invalid
    }
}

/// A display name: trimmed, 1 to 15 characters, no control characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name(String);

impl Name {
    pub fn parse(raw: &str) -> Result<Name, InvalidValue> {
        let name = raw.trim();
        if name.is_empty() {
            return Err(InvalidValue::NameEmpty);
        }
        if name.chars().count() > NAME_MAX {
            return Err(InvalidValue::NameTooLong);
        }
        if name.chars().any(char::is_control) {
            return Err(InvalidValue::NameControlCharacters);
        }
        Ok(Name(name.to_owned()))
    }

    /// A name made from outside data (a Google profile), cut to fit instead of refused;
    /// `None` when nothing usable is left.
    pub fn fitted(raw: &str) -> Option<Name> {
        let cut: String = raw.trim().chars().filter(|c| !c.is_control()).take(NAME_MAX).collect();
        Name::parse(&cut).ok()
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
    pub fn parse(raw: &str) -> Result<Email, InvalidValue> {
        let email = raw.trim().to_lowercase();
        if email.is_empty() {
            return Err(InvalidValue::EmailMissing);
        }
        if email.len() > EMAIL_MAX || !validator::ValidateEmail::validate_email(&email) {
            return Err(InvalidValue::EmailMalformed);
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

/// A login (the @handle): `@`, spaces and dots stripped, lower-cased, 1 to 20 of letters,
/// digits, `_` and `-` (what @mentions can match).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Login(String);

impl Login {
    pub fn parse(raw: &str) -> Result<Login, InvalidValue> {
        let login: String =
            raw.chars().filter(|c| *c != '@' && *c != '.' && !c.is_whitespace()).collect::<String>().to_lowercase();
        if login.is_empty() {
            return Err(InvalidValue::LoginEmpty);
        }
        if login.chars().count() > LOGIN_MAX {
            return Err(InvalidValue::LoginTooLong);
        }
        if !login.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err(InvalidValue::LoginCharacters);
        }
        Ok(Login(login))
    }

    /// A login proposed from an e-mail's local part or a name: lower-case letters, digits and
    /// underscores, at most 15 characters (room for a numeric suffix within the 20 allowed).
    pub fn base_from(seed: &str) -> Login {
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
        let base = base.trim_matches('_');
        Login(if base.is_empty() { "user".to_owned() } else { base.to_owned() })
    }

    /// This login with a number after it (`ada4521`), still within the limit.
    pub fn with_suffix(&self, n: u32) -> Login {
        let digits = n.to_string();
        let keep = LOGIN_MAX.saturating_sub(digits.len());
        Login(format!("{}{digits}", self.0.chars().take(keep).collect::<String>()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

/// A biography: trimmed, at most 130 characters, never empty (empty text means "none").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Biography(String);

impl Biography {
    /// `None` for blank text: a cleared biography.
    pub fn parse(raw: &str) -> Result<Option<Biography>, InvalidValue> {
        let bio = raw.trim();
        if bio.chars().count() > BIOGRAPHY_MAX {
            return Err(InvalidValue::BiographyTooLong);
        }
        Ok((!bio.is_empty()).then(|| Biography(bio.to_owned())))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detail<T: std::fmt::Debug>(r: Result<T, InvalidValue>) -> String {
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
    fn outside_names_are_cut_to_fit() {
        assert_eq!(
            Name::fitted("Gina Google With A Long Name").map(Name::into_inner).as_deref(),
            Some("Gina Google Wit")
        );
        assert_eq!(Name::fitted("  \u{7}  "), None);
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
    fn logins_lose_at_signs_spaces_and_dots() {
        assert_eq!(Login::parse("@DJ. Max").ok().map(Login::into_inner), Some("djmax".into()));
        assert_eq!(Login::parse(" a.b.c ").ok().map(Login::into_inner), Some("abc".into()));
    }

    #[test]
    fn login_limits() {
        assert!(Login::parse(&"a".repeat(20)).is_ok());
        assert_eq!(detail(Login::parse(&"a".repeat(21))), "Login must be 20 characters or less");
        assert_eq!(detail(Login::parse("@. ")), "Login cannot be empty");
        assert!(detail(Login::parse("a/b")).starts_with("Login can only contain"));
        assert!(detail(Login::parse("<script>")).starts_with("Login can only contain"));
    }

    #[test]
    fn proposed_logins_keep_safe_characters() {
        assert_eq!(Login::base_from("Ada.Lovelace+music").as_str(), "ada_lovelace_mu");
        assert_eq!(Login::base_from("...").as_str(), "user");
        assert_eq!(Login::base_from("Zoë").as_str(), "zo");
        assert_eq!(Login::base_from("ada").with_suffix(4521).as_str(), "ada4521");
        assert!(Login::parse(Login::base_from(&"x".repeat(40)).with_suffix(99_999).as_str()).is_ok());
    }

    #[test]
    fn biography_limits() {
        assert_eq!(Biography::parse(&"b".repeat(130)).ok().flatten().map(|b| b.0.len()), Some(130));
        assert_eq!(detail(Biography::parse(&"b".repeat(131))), "Biography must be 130 characters or less");
        assert_eq!(Biography::parse("   "), Ok(None));
    }
}
