//! Profile edits parsed into values that cannot break a rule.

use crate::ProfileError;

pub const LOGIN_MAX: usize = 20;
pub const BIOGRAPHY_MAX: usize = 130;

/// A login: `@`, spaces and dots stripped, lower-cased, 1 to 20 of letters, digits, `_`, `-`
/// (what @mentions can match).
pub fn parse_login(raw: &str) -> Result<String, ProfileError> {
    let login: String =
        raw.chars().filter(|c| *c != '@' && *c != '.' && !c.is_whitespace()).collect::<String>().to_lowercase();
    if login.is_empty() {
        return Err(ProfileError::Invalid("Login cannot be empty".into()));
    }
    if login.chars().count() > LOGIN_MAX {
        return Err(ProfileError::Invalid("Login must be 20 characters or less".into()));
    }
    if !login.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(ProfileError::Invalid("Login can only contain letters, numbers, underscores and hyphens".into()));
    }
    Ok(login)
}

/// A biography: trimmed, at most 130 characters; empty means none.
pub fn parse_biography(raw: &str) -> Result<Option<String>, ProfileError> {
    let bio = raw.trim();
    if bio.chars().count() > BIOGRAPHY_MAX {
        return Err(ProfileError::Invalid("Biography must be 130 characters or less".into()));
    }
    Ok((!bio.is_empty()).then(|| bio.to_owned()))
}

pub fn parse_name(raw: &str) -> Result<String, ProfileError> {
    auth::validate::Name::parse(raw)
        .map(auth::validate::Name::into_inner)
        .map_err(|e| ProfileError::Invalid(e.to_string()))
}

pub fn parse_tag(raw: Option<&str>) -> Result<Option<String>, ProfileError> {
    match raw.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(id) => crate::tags::by_id(id)
            .map(|t| Some(t.id.to_owned()))
            .ok_or_else(|| ProfileError::Invalid("Unknown tag".into())),
    }
}

/// What `PATCH /profile/me` may change. A field left out stays as it is; `description` and
/// `tag_id` sent as null are cleared.
#[derive(Debug, Default, Clone)]
pub struct ProfilePatch {
    pub name: Option<String>,
    pub login: Option<String>,
    pub description: Option<Option<String>>,
    pub tag_id: Option<Option<String>>,
}

/// A checked patch.
pub(crate) struct CheckedPatch {
    pub name: Option<String>,
    pub login: Option<String>,
    pub description: Option<Option<String>>,
    pub tag_id: Option<Option<String>>,
}

impl ProfilePatch {
    pub(crate) fn check(self) -> Result<CheckedPatch, ProfileError> {
        Ok(CheckedPatch {
            name: self.name.as_deref().map(parse_name).transpose()?,
            login: self.login.as_deref().map(parse_login).transpose()?,
            description: self
                .description
                .map(|d| d.as_deref().map(parse_biography).transpose().map(Option::flatten))
                .transpose()?,
            tag_id: self.tag_id.map(|t| parse_tag(t.as_deref())).transpose()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err<T: std::fmt::Debug>(r: Result<T, ProfileError>) -> String {
        r.err().map(|e| e.to_string()).unwrap_or_default()
    }

    #[test]
    fn logins_lose_at_signs_spaces_and_dots() {
        assert_eq!(parse_login("@DJ. Max").ok(), Some("djmax".into()));
        assert_eq!(parse_login(" a.b.c ").ok(), Some("abc".into()));
    }

    #[test]
    fn login_limits() {
        assert!(parse_login(&"a".repeat(20)).is_ok());
        assert_eq!(err(parse_login(&"a".repeat(21))), "Login must be 20 characters or less");
        assert_eq!(err(parse_login("@. ")), "Login cannot be empty");
        assert!(err(parse_login("a/b")).starts_with("Login can only contain"));
        assert!(err(parse_login("<script>")).starts_with("Login can only contain"));
    }

    #[test]
    fn biography_limits() {
        assert_eq!(parse_biography(&"b".repeat(130)).ok().flatten().map(|b| b.len()), Some(130));
        assert_eq!(err(parse_biography(&"b".repeat(131))), "Biography must be 130 characters or less");
        assert_eq!(parse_biography("   ").ok(), Some(None));
    }

    #[test]
    fn names_follow_the_sign_up_rule() {
        assert_eq!(err(parse_name(" ")), "Name cannot be empty");
        assert_eq!(err(parse_name(&"n".repeat(16))), "Name must be 15 characters or less");
    }

    #[test]
    fn only_the_three_tags_or_none() {
        assert_eq!(
            parse_tag(Some("b361c6f9-9425-4548-8c07-cb408140c304")).ok().flatten().as_deref(),
            Some("b361c6f9-9425-4548-8c07-cb408140c304")
        );
        assert_eq!(parse_tag(None).ok(), Some(None));
        assert_eq!(parse_tag(Some("")).ok(), Some(None));
        assert_eq!(err(parse_tag(Some("admin"))), "Unknown tag");
    }
}
