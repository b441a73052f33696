//! Profile edits parsed into values that cannot break a rule.

use values::{Biography, Login, Name};

use crate::error::InvalidEdit;
use crate::tags::{self, NO_TAG_LABEL};

/// A tag as a client may send it: an id, a name in any case (`"Musician"`), or nothing —
/// `null`, `""` or the "Add tag" placeholder all mean "no tag".
pub fn parse_tag(raw: Option<&str>) -> Result<Option<&'static str>, InvalidEdit> {
    match raw.map(str::trim).filter(|t| !t.is_empty() && !t.eq_ignore_ascii_case(NO_TAG_LABEL)) {
        None => Ok(None),
        Some(raw) => tags::by_id_or_name(raw).map(|t| Some(t.id)).ok_or(InvalidEdit::UnknownTag),
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

/// A checked patch: each field left out (`None`) or a valid new value.
pub(crate) struct CheckedPatch {
    pub name: Option<Name>,
    pub login: Option<Login>,
    pub description: Option<Option<Biography>>,
    pub tag_id: Option<Option<&'static str>>,
}

impl CheckedPatch {
    pub fn is_empty(&self) -> bool {
        self.name.is_none() && self.login.is_none() && self.description.is_none() && self.tag_id.is_none()
    }
}

impl ProfilePatch {
    /// Checks every field the patch carries. The login is judged only when it changes:
    /// `current_login` sent back as it is (the spec's client sends every field) stays, even one
    /// from before a rule (shorter than 3 characters, reserved since).
    pub(crate) fn check(self, current_login: &str) -> Result<CheckedPatch, InvalidEdit> {
        let login = self.login.filter(|raw| Login::normalize(raw) != current_login);
        Ok(CheckedPatch {
            name: self.name.as_deref().map(Name::parse).transpose()?,
            login: login.as_deref().map(Login::parse).transpose()?,
            description: self
                .description
                .map(|d| d.as_deref().map(Biography::parse).transpose().map(Option::flatten))
                .transpose()?,
            tag_id: self.tag_id.map(|t| parse_tag(t.as_deref())).transpose()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_is_sent_by_id_or_by_name() {
        assert_eq!(parse_tag(Some("b361c6f9-9425-4548-8c07-cb408140c304")), Ok(Some(tags::MUSICIAN.id)));
        assert_eq!(parse_tag(Some("Musician")), Ok(Some(tags::MUSICIAN.id)));
        assert_eq!(parse_tag(Some(" learner ")), Ok(Some(tags::LEARNER.id)));
        assert_eq!(parse_tag(Some("LISTENER")), Ok(Some(tags::LISTENER.id)));
    }

    #[test]
    fn null_empty_and_the_placeholder_clear_the_tag() {
        for none in [None, Some(""), Some("  "), Some("Add tag"), Some("add TAG")] {
            assert_eq!(parse_tag(none), Ok(None), "{none:?}");
        }
    }

    #[test]
    fn unknown_tags_are_refused() {
        assert_eq!(parse_tag(Some("admin")), Err(InvalidEdit::UnknownTag));
        assert_eq!(InvalidEdit::UnknownTag.to_string(), "Unknown tag");
    }

    #[test]
    fn a_patch_checks_every_field_it_carries() {
        let bad_name = ProfilePatch { name: Some("n".repeat(16)), ..Default::default() };
        assert_eq!(
            bad_name.check("ada").err().map(|e| e.to_string()).as_deref(),
            Some("Name must be 15 characters or less")
        );
        let cleared = ProfilePatch { description: Some(Some("   ".into())), ..Default::default() }.check("ada");
        assert!(matches!(cleared.map(|p| p.description), Ok(Some(None))), "blank clears the biography");
        assert!(ProfilePatch::default().check("ada").is_ok_and(|p| p.is_empty()));
    }

    #[test]
    fn a_login_is_judged_only_when_it_changes() {
        let login = |l: &str| ProfilePatch { login: Some(l.into()), ..Default::default() };
        assert!(login("@Al").check("al").is_ok_and(|p| p.login.is_none()), "an old short login stays");
        assert!(login("admin").check("admin").is_ok_and(|p| p.login.is_none()), "so does an old reserved one");
        assert_eq!(
            login("Admin").check("ada").err().map(|e| e.to_string()).as_deref(),
            Some("This login is reserved. Please choose another one.")
        );
        assert_eq!(
            login("al").check("ada").err().map(|e| e.to_string()).as_deref(),
            Some("Login must be at least 3 characters")
        );
    }
}
