//! What people send, parsed into values that cannot hold a bad one: captions, lyrics, comment
//! text, and the @mentions in it (spec §5).

use serde::Deserialize;

use crate::PostError;
use crate::model::{Lyrics, LyricsPart};

pub const CAPTION_MAX_CHARS: usize = 2000;
pub const COMMENT_MAX_CHARS: usize = 2000;
/// A song has at most this many parts (spec §9).
pub const LYRICS_MAX_PARTS: usize = 10;
/// Titles, artists and composers are cut to this many characters.
pub const LABEL_MAX_CHARS: usize = 200;
/// A song's text in all.
const LYRICS_MAX_CHARS: usize = 20_000;
pub const PART_TYPES: [&str; 6] = ["intro", "verse", "pre-chorus", "chorus", "bridge", "outro"];

/// Refuses text with a NUL character (which PostgreSQL cannot store in text), or another
/// character no displayed text may hold (`values::hidden_character`).
pub(crate) fn plain(text: &str) -> Result<&str, PostError> {
    if text.contains('\0') {
        Err(PostError::NulCharacter)
    } else if values::hidden_character(text).is_some() {
        Err(PostError::HiddenCharacters)
    } else {
        Ok(text)
    }
}

/// A post's caption: trimmed, at most [`CAPTION_MAX_CHARS`] characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caption(String);

impl Caption {
    /// A caption as sent; blank (or none) is no caption.
    pub fn parse(raw: Option<&str>) -> Result<Option<Caption>, PostError> {
        let Some(text) = raw.map(str::trim).filter(|t| !t.is_empty()) else { return Ok(None) };
        plain(text)?;
        if text.chars().count() > CAPTION_MAX_CHARS {
            return Err(PostError::CaptionTooLong);
        }
        Ok(Some(Caption(text.to_owned())))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

/// A title, artist or composer: trimmed, one line, bounded, without control or text-direction
/// characters (tags read from files may carry NULs and the like: they part words); blank is
/// none. What people send is refused with such characters before it gets here (the multipart
/// reader; [`LyricsInput::check`]; edits).
pub fn label(text: Option<&str>) -> Option<String> {
    let text: String = text?
        .split(|c: char| c.is_whitespace() || values::hides(c))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if text.is_empty() { None } else { Some(text.chars().take(LABEL_MAX_CHARS).collect()) }
}

/// A file name without its extension (the spec's default title).
pub fn stem(file_name: &str) -> String {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    let stem = match base.rfind('.') {
        Some(i) if i > 0 => &base[..i],
        _ => base,
    };
    label(Some(stem)).unwrap_or_else(|| "Untitled".to_owned())
}

/// The extensions of a score's file, which a title never keeps (music software writes
/// "bwv110.7.mxl" as the title of the score it exports).
const SCORE_EXTENSIONS: [&str; 3] = [".musicxml", ".mxl", ".xml"];

/// `text` without a score file's extension at its end, in any case.
fn without_score_extension(text: &str) -> &str {
    let lower = text.to_ascii_lowercase();
    SCORE_EXTENSIONS
        .iter()
        .find(|ext| lower.ends_with(*ext))
        .map_or(text, |ext| text[..text.len() - ext.len()].trim_end())
}

/// Whether text read from a file reads as a title or a name: not a broken encoding (U+FFFD,
/// characters text hardly has such as `\` or `{`), and mostly letters and digits, as "Op. 18,
/// No. 1" is and `\J.D. 'JUa..J..UU` is not.
fn plausible(text: &str) -> bool {
    let marks = text.chars().filter(|c| !c.is_whitespace());
    let (mut words, mut all) = (0, 0);
    for c in marks {
        if c == '\u{FFFD}' || matches!(c, '\\' | '|' | '^' | '~' | '{' | '}' | '`') {
            return false;
        }
        all += 1;
        if c.is_alphanumeric() {
            words += 1;
        }
    }
    words > 0 && words * 2 >= all
}

/// A score's title or composer as sent or as read from its file: a [`label`] without a file
/// extension. What the file says is kept only if it reads as text ([`plausible`]); what a
/// person typed is theirs.
pub fn score_label(text: Option<&str>, from_file: bool) -> Option<String> {
    let text = label(text)?;
    let text = without_score_extension(&text);
    (!text.is_empty() && (!from_file || plausible(text))).then(|| text.to_owned())
}

/// A score's file name made a title: no extension, underscores as spaces, and a name all in
/// lower case begun with a capital ("joplin_maple_leaf_rag.mxl" → "Joplin maple leaf rag").
pub fn score_stem(file_name: &str) -> String {
    let spaced = stem(file_name).replace('_', " ");
    let title = label(Some(&spaced)).unwrap_or_else(|| "Untitled".to_owned());
    if title.chars().any(char::is_uppercase) {
        return title;
    }
    let mut chars = title.chars();
    chars.next().map_or(title.clone(), |first| first.to_uppercase().chain(chars).collect())
}

/// `POST /posts/lyrics` as sent (spec §3 Lyrics post).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LyricsInput {
    #[serde(default)]
    pub song_title: Option<String>,
    #[serde(default)]
    pub artist_name: Option<String>,
    #[serde(default)]
    pub parts: Vec<LyricsPartInput>,
    #[serde(default)]
    pub caption: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct LyricsPartInput {
    #[serde(default, rename = "type")]
    pub part_type: Option<String>,
    #[serde(default)]
    pub lyrics: Option<String>,
}

impl LyricsInput {
    /// Song title, artist and at least one part are required; every part needs a known type and
    /// non-blank lyrics; at most ten parts.
    pub fn check(self) -> Result<(Lyrics, Option<Caption>), PostError> {
        let sent = [&self.song_title, &self.artist_name]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .chain(self.parts.iter().flat_map(|p| [p.part_type.as_deref(), p.lyrics.as_deref()]).flatten());
        for text in sent {
            plain(text)?;
        }
        let title = label(self.song_title.as_deref()).ok_or(PostError::LyricsIncomplete)?;
        let artist = label(self.artist_name.as_deref()).ok_or(PostError::LyricsIncomplete)?;
        if self.parts.is_empty() {
            return Err(PostError::LyricsIncomplete);
        }
        if self.parts.len() > LYRICS_MAX_PARTS {
            return Err(PostError::TooManyParts);
        }
        let mut parts = Vec::with_capacity(self.parts.len());
        let mut total = 0;
        for p in self.parts {
            let part_type = p.part_type.as_deref().map(str::trim).unwrap_or_default().to_ascii_lowercase();
            if part_type.is_empty() {
                return Err(PostError::LyricsIncomplete);
            }
            if !PART_TYPES.contains(&part_type.as_str()) {
                return Err(PostError::UnknownPartType(part_type.chars().take(40).collect()));
            }
            let lyrics = p.lyrics.as_deref().map(|l| l.trim_matches(['\n', '\r', ' ', '\t'])).unwrap_or_default();
            if lyrics.is_empty() {
                return Err(PostError::LyricsIncomplete);
            }
            total += lyrics.chars().count();
            if total > LYRICS_MAX_CHARS {
                return Err(PostError::LyricsIncomplete);
            }
            parts.push(LyricsPart { part_type, lyrics: lyrics.replace("\r\n", "\n") });
        }
        Ok((Lyrics { title, artist, parts }, Caption::parse(self.caption.as_deref())?))
    }
}

/// A comment's text: trimmed, not blank (spec §5), at most [`COMMENT_MAX_CHARS`] characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommentText(String);

impl CommentText {
    pub fn parse(raw: &str) -> Result<CommentText, PostError> {
        let text = plain(raw.trim())?;
        if text.is_empty() {
            return Err(PostError::EmptyComment);
        }
        if text.chars().count() > COMMENT_MAX_CHARS {
            return Err(PostError::CommentTooLong);
        }
        Ok(CommentText(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

/// The longest time a comment's moment can name on a track whose length is not known: the
/// tracks of one post last at most this long in all (`limits::AUDIO_POST_MAX_SECONDS`).
pub const MOMENT_MAX_MS: i64 = (media_validation::limits::AUDIO_POST_MAX_SECONDS as i64) * 1000;

/// The moment of an audio post's track a comment is on, as sent: `at_ms` milliseconds into
/// track `track` (the first when not named). Whether the post has that track, and that long, is
/// checked against the post (`comments::add`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentMoment {
    /// A moment of an audio post's track (0 for the first), in milliseconds from its start.
    Time { track: i64, at_ms: i64 },
    /// Bars `from` to `to` (counted from 1, as the score numbers them) of a sheet-music post's
    /// score (0 for the first): issue 35.
    Bars { score: i64, from: i64, to: i64 },
}

/// The last bar a comment may name: far past any score's.
pub const BAR_MAX: i64 = 100_000;

/// Where a comment is, as it is sent: a time (`at_ms`), bars (`bar`, `bar_end`), or neither;
/// `track` names the track or score (the first when not given).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MomentInput {
    pub at_ms: Option<i64>,
    pub track: Option<i64>,
    pub bar: Option<i64>,
    pub bar_end: Option<i64>,
}

impl CommentMoment {
    /// None for a comment on the whole post (nothing sent); a track without a time or bars,
    /// a time and bars both, bars that end before they start, or any number below its start
    /// is refused.
    pub fn parse(input: MomentInput) -> Result<Option<CommentMoment>, PostError> {
        let MomentInput { at_ms, track, bar, bar_end } = input;
        let place = track.unwrap_or(0);
        match (at_ms, bar) {
            (None, None) if track.is_none() && bar_end.is_none() => Ok(None),
            (Some(at_ms), None) if bar_end.is_none() && at_ms >= 0 && place >= 0 => {
                if at_ms > MOMENT_MAX_MS {
                    return Err(PostError::MomentPastEnd(clock(MOMENT_MAX_MS)));
                }
                Ok(Some(CommentMoment::Time { track: place, at_ms }))
            }
            (None, Some(from)) if from >= 1 && place >= 0 && bar_end.is_none_or(|to| to >= from) => {
                let to = bar_end.unwrap_or(from);
                if to > BAR_MAX {
                    return Err(PostError::BarsUnclear);
                }
                Ok(Some(CommentMoment::Bars { score: place, from, to }))
            }
            (None, _) if bar.is_some() || bar_end.is_some() => Err(PostError::BarsUnclear),
            _ => Err(PostError::MomentUnclear),
        }
    }

    /// Which of the post's tracks or scores it is on.
    pub fn track(&self) -> i64 {
        match *self {
            CommentMoment::Time { track, .. } => track,
            CommentMoment::Bars { score, .. } => score,
        }
    }

    pub fn at_ms(&self) -> Option<i64> {
        match *self {
            CommentMoment::Time { at_ms, .. } => Some(at_ms),
            CommentMoment::Bars { .. } => None,
        }
    }

    /// The first and last bar, for a comment on bars.
    pub fn bars(&self) -> Option<(i64, i64)> {
        match *self {
            CommentMoment::Bars { from, to, .. } => Some((from, to)),
            CommentMoment::Time { .. } => None,
        }
    }
}

/// Milliseconds as a person reads a track's time: m:ss, or h:mm:ss past an hour.
pub fn clock(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    let (h, m, s) = (s / 3600, (s / 60) % 60, s % 60);
    if h > 0 { format!("{h}:{m:02}:{s:02}") } else { format!("{m}:{s:02}") }
}

fn login_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// The logins a text mentions (spec §5: an `@` at the start or after whitespace, then 3 or more
/// letters, digits, `_` or `-`), lower-cased as logins are stored, each once, in order.
pub fn mentioned_logins(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut previous: Option<char> = None;
    for (i, c) in text.char_indices() {
        if c == '@' && previous.is_none_or(char::is_whitespace) {
            let rest = &text[i + 1..];
            let end = rest.find(|c: char| !login_char(c)).unwrap_or(rest.len());
            let login = rest[..end].to_ascii_lowercase();
            // `@name@server`: a person of another server (federation), not one of ours.
            let elsewhere = rest[end..].starts_with('@');
            if !elsewhere && login.len() >= 3 && login.len() <= 20 && !found.contains(&login) {
                found.push(login);
            }
        }
        previous = Some(c);
        if found.len() >= 20 {
            break;
        }
    }
    found
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn part(t: &str, l: &str) -> LyricsPartInput {
        LyricsPartInput { part_type: Some(t.into()), lyrics: Some(l.into()) }
    }

    fn lyrics(title: &str, artist: &str, parts: Vec<LyricsPartInput>) -> LyricsInput {
        LyricsInput { song_title: Some(title.into()), artist_name: Some(artist.into()), parts, caption: None }
    }

    #[test]
    fn lyrics_need_title_artist_and_complete_parts() {
        assert!(lyrics("Song", "Me", vec![part("verse", "la")]).check().is_ok());
        for bad in [
            lyrics(" ", "Me", vec![part("verse", "la")]),
            lyrics("Song", "", vec![part("verse", "la")]),
            lyrics("Song", "Me", vec![]),
            lyrics("Song", "Me", vec![part("verse", "  \n ")]),
            lyrics("Song", "Me", vec![part("", "la")]),
        ] {
            assert!(matches!(bad.check(), Err(PostError::LyricsIncomplete)));
        }
    }

    #[test]
    fn lyrics_have_at_most_ten_parts_of_known_types() {
        let eleven = (0..11).map(|_| part("chorus", "oh")).collect();
        assert!(matches!(lyrics("S", "A", eleven).check(), Err(PostError::TooManyParts)));
        let ten = (0..10).map(|_| part("Chorus", "oh")).collect();
        let (l, _) = lyrics("S", "A", ten).check().unwrap();
        assert_eq!(l.parts[0].part_type, "chorus");
        assert!(matches!(lyrics("S", "A", vec![part("solo", "x")]).check(), Err(PostError::UnknownPartType(_))));
        for t in PART_TYPES {
            assert!(lyrics("S", "A", vec![part(t, "x")]).check().is_ok(), "{t}");
        }
    }

    #[test]
    fn mentions_need_three_login_characters_after_a_space_or_the_start() {
        assert_eq!(mentioned_logins("@ana hi @Bob_1 and @bo x@mail.com @ana"), vec!["ana", "bob_1"]);
        assert_eq!(mentioned_logins("thanks @jo-el!"), vec!["jo-el"]);
        assert_eq!(mentioned_logins("@@ana"), Vec::<String>::new());
        assert_eq!(mentioned_logins("line\n@zed"), vec!["zed"]);
        assert!(mentioned_logins("no mentions").is_empty());
        assert_eq!(mentioned_logins("@bob@elsewhere.example and @ana"), vec!["ana"], "a handle elsewhere is not ours");
    }

    #[test]
    fn comments_are_trimmed_and_never_blank() {
        assert_eq!(CommentText::parse("  hi \n").unwrap().as_str(), "hi");
        assert!(matches!(CommentText::parse(" \n\t "), Err(PostError::EmptyComment)));
        assert!(matches!(CommentText::parse(&"x".repeat(2001)), Err(PostError::CommentTooLong)));
    }

    #[test]
    fn labels_and_default_titles() {
        assert_eq!(label(Some("  My   song \n")), Some("My song".into()));
        assert_eq!(label(Some("   ")), None);
        assert_eq!(label(Some("Tag\0\0 from\u{1}a file")), Some("Tag from a file".into()));
        assert!(matches!(CommentText::parse("a\0b"), Err(PostError::NulCharacter)));
        assert!(matches!(Caption::parse(Some("a\0")), Err(PostError::NulCharacter)));
        let nul_part = lyrics("Song", "Me", vec![part("verse", "la\0")]);
        assert!(matches!(nul_part.check(), Err(PostError::NulCharacter)));
        assert_eq!(stem("take 3.final.mp3"), "take 3.final");
        assert_eq!(stem(".hidden"), ".hidden");
        assert_eq!(stem("C:\\music\\a.wav"), "a");
        assert_eq!(Caption::parse(Some("  ")).unwrap(), None);
        assert_eq!(Caption::parse(Some(" hi ")).unwrap().map(Caption::into_inner).as_deref(), Some("hi"));
    }

    #[test]
    fn score_titles_lose_extensions_and_text_that_is_not_text() {
        assert_eq!(score_label(Some("bwv110.7.mxl"), true).as_deref(), Some("bwv110.7"));
        assert_eq!(score_label(Some("Etude.MusicXML"), false).as_deref(), Some("Etude"));
        assert_eq!(score_label(Some("Op. 18, No. 1"), true).as_deref(), Some("Op. 18, No. 1"));
        assert_eq!(score_label(Some("Rock & Roll — <live>"), true).as_deref(), Some("Rock & Roll — <live>"));
        for broken in ["\\J.D. 'JUa..J..UU", "Ã©tude \u{FFFD}", "--- ... ---", ".xml", "{\\rtf1}"] {
            assert_eq!(score_label(Some(broken), true), None, "{broken}");
        }
        // What a person typed is kept, but not an extension.
        assert_eq!(score_label(Some("--- ... ---"), false).as_deref(), Some("--- ... ---"));
        assert_eq!(score_stem("joplin_maple_leaf_rag.mxl"), "Joplin maple leaf rag");
        assert_eq!(score_stem("bach_bwv110.7.musicxml"), "Bach bwv110.7");
        assert_eq!(score_stem("Maple Leaf Rag.xml"), "Maple Leaf Rag");
        assert_eq!(score_stem("__.xml"), "Untitled");
    }

    #[test]
    fn a_moment_is_a_time_and_a_track() {
        let time = |at_ms, track| MomentInput { at_ms, track, ..MomentInput::default() };
        let bars = |bar, bar_end, track| MomentInput { bar, bar_end, track, ..MomentInput::default() };
        assert_eq!(CommentMoment::parse(MomentInput::default()).unwrap(), None);
        assert_eq!(
            CommentMoment::parse(time(Some(83_000), None)).unwrap(),
            Some(CommentMoment::Time { track: 0, at_ms: 83_000 })
        );
        assert_eq!(
            CommentMoment::parse(time(Some(0), Some(2))).unwrap(),
            Some(CommentMoment::Time { track: 2, at_ms: 0 })
        );
        for (at, track) in [(None, Some(1)), (Some(-1), None), (Some(5), Some(-1))] {
            assert!(matches!(CommentMoment::parse(time(at, track)), Err(PostError::MomentUnclear)), "{at:?} {track:?}");
        }
        assert!(matches!(CommentMoment::parse(time(Some(MOMENT_MAX_MS + 1), None)), Err(PostError::MomentPastEnd(_))));
        assert_eq!(
            CommentMoment::parse(bars(Some(9), Some(16), None)).unwrap(),
            Some(CommentMoment::Bars { score: 0, from: 9, to: 16 })
        );
        assert_eq!(
            CommentMoment::parse(bars(Some(3), None, Some(1))).unwrap(),
            Some(CommentMoment::Bars { score: 1, from: 3, to: 3 })
        );
        for (bar, end) in [(Some(0), None), (Some(5), Some(4)), (None, Some(4)), (Some(1), Some(BAR_MAX + 1))] {
            assert!(
                matches!(CommentMoment::parse(bars(bar, end, None)), Err(PostError::BarsUnclear)),
                "{bar:?} {end:?}"
            );
        }
        let both = MomentInput { at_ms: Some(1), bar: Some(1), ..MomentInput::default() };
        assert!(matches!(CommentMoment::parse(both), Err(PostError::MomentUnclear)));
        assert_eq!(
            (clock(0), clock(83_999), clock(3_600_000 + 61_000)),
            ("0:00".into(), "1:23".into(), "1:01:01".into())
        );
    }
}
