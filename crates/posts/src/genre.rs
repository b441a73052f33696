//! An audio post's genre (issue 31): one of a fixed list, chosen when posting and editable later.
//! A genre is also the post's tag (`Hip-hop` is `#hiphop`), so its tag page lists the genre.

use crate::PostError;

/// The genres a person chooses from, as shown. The web app holds the same list
/// (`posts/components/genre-field.tsx`).
pub const GENRES: [&str; 20] = [
    "Acoustic",
    "Ambient",
    "Blues",
    "Classical",
    "Country",
    "Electronic",
    "Experimental",
    "Folk",
    "Funk",
    "Hip-hop",
    "Jazz",
    "Latin",
    "Metal",
    "Pop",
    "Punk",
    "R&B",
    "Reggae",
    "Rock",
    "Soul",
    "Soundtrack",
];

/// The genre `raw` names (by its name or its tag, whatever the case); blank or none is none.
pub fn parse(raw: Option<&str>) -> Result<Option<&'static str>, PostError> {
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else { return Ok(None) };
    GENRES
        .iter()
        .find(|g| g.eq_ignore_ascii_case(raw) || tag(g) == raw.to_lowercase())
        .copied()
        .map(Some)
        .ok_or_else(|| PostError::UnknownGenre(raw.chars().take(40).collect()))
}

/// The tag a genre files its posts under: its letters, lower case (`R&B` is `rnb`).
pub fn tag(genre: &str) -> String {
    if genre == "R&B" {
        return "rnb".to_owned();
    }
    genre.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_genre_is_named_by_its_name_or_its_tag_whatever_the_case() {
        assert_eq!(parse(Some("jazz")).ok(), Some(Some("Jazz")));
        assert_eq!(parse(Some(" HIP-HOP ")).ok(), Some(Some("Hip-hop")));
        assert_eq!(parse(Some("hiphop")).ok(), Some(Some("Hip-hop")));
        assert_eq!(parse(Some("rnb")).ok(), Some(Some("R&B")));
        assert_eq!(parse(Some("")).ok(), Some(None));
        assert_eq!(parse(None).ok(), Some(None));
        assert!(matches!(parse(Some("polka")), Err(PostError::UnknownGenre(g)) if g == "polka"));
        for g in GENRES {
            assert_eq!(parse(Some(&tag(g))).ok(), Some(Some(g)), "{g}");
            assert_eq!(crate::tags::normalize(&tag(g)).as_deref(), Some(tag(g).as_str()), "{g}'s tag is a tag");
        }
    }
}
