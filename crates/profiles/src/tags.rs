//! The three role tags. This list is the one source of them: their identifiers are fixed
//! (clients already know them) and their names and colours are the spec's (§3 Tag).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tag {
    pub id: &'static str,
    pub name: &'static str,
    /// Badge colour: Musician purple, Learner dark blue, Listener white (with black text).
    pub color: &'static str,
}

pub const LISTENER: Tag = Tag { id: "146fb41a-2f3e-48c7-bef9-01de0279dfd7", name: "Listener", color: "#FFFFFF" };
pub const MUSICIAN: Tag = Tag { id: "b361c6f9-9425-4548-8c07-cb408140c304", name: "Musician", color: "#6D01D0" };
pub const LEARNER: Tag = Tag { id: "5ee121a6-b467-4ead-b3f7-00e1ce6097d5", name: "Learner", color: "#000C9C" };

pub const ALL: [Tag; 3] = [LISTENER, MUSICIAN, LEARNER];

/// What the profile screen shows on its "no tag" chip; a client may send it back meaning none.
pub const NO_TAG_LABEL: &str = "Add tag";

pub fn by_id(id: &str) -> Option<Tag> {
    ALL.into_iter().find(|t| t.id == id)
}

/// A tag by its id or its name in any case (`"Musician"`, `"musician"`).
pub fn by_id_or_name(raw: &str) -> Option<Tag> {
    ALL.into_iter().find(|t| t.id == raw || t.name.eq_ignore_ascii_case(raw))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_tags_keep_their_identifiers() {
        assert_eq!(by_id("b361c6f9-9425-4548-8c07-cb408140c304").map(|t| t.name), Some("Musician"));
        assert_eq!(by_id("5ee121a6-b467-4ead-b3f7-00e1ce6097d5").map(|t| t.color), Some("#000C9C"));
        assert_eq!(by_id("146fb41a-2f3e-48c7-bef9-01de0279dfd7").map(|t| t.name), Some("Listener"));
        assert_eq!(by_id("nope"), None);
    }

    #[test]
    fn tags_are_found_by_name_in_any_case() {
        assert_eq!(by_id_or_name("LEARNER"), Some(LEARNER));
        assert_eq!(by_id_or_name("musician"), Some(MUSICIAN));
        assert_eq!(by_id_or_name(MUSICIAN.id), Some(MUSICIAN));
        assert_eq!(by_id_or_name("Musicians"), None);
        assert_eq!(by_id("Musician"), None, "by_id takes ids only");
    }
}
