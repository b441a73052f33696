//! The three role tags. Their identifiers are fixed: clients already know them.

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

pub fn by_id(id: &str) -> Option<Tag> {
    ALL.into_iter().find(|t| t.id == id)
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
}
