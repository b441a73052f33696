//! What a post is, as the rest of the program sees it, and the rows it is stored in.

use chrono::NaiveDateTime;
use db::model::UserCard;
use db::schema::{comments, post_audio, post_lyrics, post_media, post_scores, posts};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use values::{CommentId, PostId, UserId};

/// The four kinds of post (spec §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PostKind {
    Media,
    Audio,
    MusicXml,
    Lyrics,
}

impl PostKind {
    pub const ALL: [PostKind; 4] = [PostKind::Media, PostKind::Audio, PostKind::MusicXml, PostKind::Lyrics];

    /// The name in the database and on the wire (`type`).
    pub fn as_str(self) -> &'static str {
        match self {
            PostKind::Media => "media",
            PostKind::Audio => "audio",
            PostKind::MusicXml => "musicxml",
            PostKind::Lyrics => "lyrics",
        }
    }

    pub fn parse(s: &str) -> Option<PostKind> {
        PostKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// A post with its author, whether the viewer likes it, and its payload.
#[derive(Debug, Clone, PartialEq)]
pub struct Post {
    pub id: PostId,
    pub caption: Option<String>,
    pub created_at: NaiveDateTime,
    pub likes_count: i64,
    pub comments_count: i64,
    pub user_liked: bool,
    pub author: UserCard,
    pub payload: Payload,
}

impl Post {
    pub fn kind(&self) -> PostKind {
        match self.payload {
            Payload::Media(_) => PostKind::Media,
            Payload::Audio(_) => PostKind::Audio,
            Payload::Scores(_) => PostKind::MusicXml,
            Payload::Lyrics(_) => PostKind::Lyrics,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    Media(Vec<MediaFile>),
    Audio(Vec<AudioTrack>),
    Scores(Vec<Score>),
    Lyrics(Lyrics),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaType {
    Image,
    Video,
}

impl MediaType {
    pub fn as_str(self) -> &'static str {
        match self {
            MediaType::Image => "image",
            MediaType::Video => "video",
        }
    }
}

/// One picture or video of a media post. Keys are storage keys (served under `/media/`).
#[derive(Debug, Clone, PartialEq)]
pub struct MediaFile {
    pub id: i64,
    pub file_key: String,
    pub media_type: MediaType,
    pub width: Option<i64>,
    pub height: Option<i64>,
    /// The ~640 px JPEG feeds show, when the original is larger.
    pub display_key: Option<String>,
    /// A video's first frame, when ffmpeg was there to make it.
    pub poster_key: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AudioTrack {
    pub title: String,
    pub artist: String,
    pub file_key: String,
    pub cover_key: Option<String>,
    pub duration_ms: i64,
    /// base64 of signed 8-bit min,max pairs (docs/posts.md).
    pub peaks: Option<String>,
}

impl AudioTrack {
    /// `m:ss`, as the player shows it (rounded to the nearest second).
    pub fn duration_text(&self) -> String {
        let seconds = (self.duration_ms.max(0) + 500) / 1000;
        format!("{}:{:02}", seconds / 60, seconds % 60)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Score {
    pub title: String,
    pub composer: String,
    pub file_key: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LyricsPart {
    #[serde(rename = "type")]
    pub part_type: String,
    pub lyrics: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Lyrics {
    pub title: String,
    pub artist: String,
    pub parts: Vec<LyricsPart>,
}

impl Lyrics {
    /// The parts as one text, each under a `[Verse]`-style heading, for clients that show the
    /// lyrics as one block (spec §3 `lyrics_text`).
    pub fn text(&self) -> String {
        self.parts
            .iter()
            .map(|p| format!("[{}]\n{}", heading(&p.part_type), p.lyrics.trim_end()))
            .collect::<Vec<_>>()
            .join("\n\n")
    }
}

/// `pre-chorus` → `Pre-Chorus`.
fn heading(part_type: &str) -> String {
    part_type
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect::<String>()).unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join("-")
}

/// A person mentioned in a comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    pub user_id: UserId,
    pub login: String,
    pub name: String,
    pub avatar_url: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Comment {
    pub id: CommentId,
    pub post_id: PostId,
    pub content: String,
    pub created_at: NaiveDateTime,
    pub author: UserCard,
    pub mentions: Vec<Mention>,
}

// --- Rows ----------------------------------------------------------------------------------

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = posts)]
pub(crate) struct PostRow {
    pub id: PostId,
    pub user_id: UserId,
    pub kind: String,
    pub caption: Option<String>,
    pub created_at: NaiveDateTime,
    pub likes_count: i64,
    pub comments_count: i64,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = post_media)]
pub(crate) struct MediaRow {
    pub post_id: PostId,
    pub position: i64,
    pub id: i64,
    pub file_key: String,
    pub file_type: String,
    pub width: Option<i64>,
    pub height: Option<i64>,
    pub display_key: Option<String>,
    pub poster_key: Option<String>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = post_audio)]
pub(crate) struct AudioRow {
    pub post_id: PostId,
    pub position: i64,
    pub title: String,
    pub artist: String,
    pub file_key: String,
    pub cover_key: Option<String>,
    pub duration_ms: i64,
    pub peaks: Option<String>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = post_scores)]
pub(crate) struct ScoreRow {
    pub post_id: PostId,
    pub position: i64,
    pub title: String,
    pub composer: String,
    pub file_key: String,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = post_lyrics)]
pub(crate) struct LyricsRow {
    pub post_id: PostId,
    pub title: String,
    pub artist: String,
    /// JSON array of `{type, lyrics}`.
    pub parts: String,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = comments)]
pub(crate) struct CommentRow {
    pub id: CommentId,
    pub post_id: PostId,
    pub user_id: UserId,
    pub content: String,
    pub created_at: NaiveDateTime,
}

impl From<MediaRow> for MediaFile {
    fn from(r: MediaRow) -> Self {
        MediaFile {
            id: r.id,
            file_key: r.file_key,
            media_type: if r.file_type == "image" { MediaType::Image } else { MediaType::Video },
            width: r.width,
            height: r.height,
            display_key: r.display_key,
            poster_key: r.poster_key,
        }
    }
}

impl From<AudioRow> for AudioTrack {
    fn from(r: AudioRow) -> Self {
        AudioTrack {
            title: r.title,
            artist: r.artist,
            file_key: r.file_key,
            cover_key: r.cover_key,
            duration_ms: r.duration_ms,
            peaks: r.peaks,
        }
    }
}

impl From<ScoreRow> for Score {
    fn from(r: ScoreRow) -> Self {
        Score { title: r.title, composer: r.composer, file_key: r.file_key }
    }
}

impl From<LyricsRow> for Lyrics {
    fn from(r: LyricsRow) -> Self {
        // Written by us as JSON; an unreadable value shows as no parts rather than failing a feed.
        let parts = serde_json::from_str(&r.parts).unwrap_or_default();
        Lyrics { title: r.title, artist: r.artist, parts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_minutes_and_seconds() {
        let t = |ms| AudioTrack {
            title: String::new(),
            artist: String::new(),
            file_key: String::new(),
            cover_key: None,
            duration_ms: ms,
            peaks: None,
        };
        assert_eq!(t(0).duration_text(), "0:00");
        assert_eq!(t(1_499).duration_text(), "0:01");
        assert_eq!(t(59_600).duration_text(), "1:00");
        assert_eq!(t(754_000).duration_text(), "12:34");
    }

    #[test]
    fn lyrics_text_puts_each_part_under_its_heading() {
        let l = Lyrics {
            title: "T".into(),
            artist: "A".into(),
            parts: vec![
                LyricsPart { part_type: "verse".into(), lyrics: "la la\n".into() },
                LyricsPart { part_type: "pre-chorus".into(), lyrics: "oh".into() },
            ],
        };
        assert_eq!(l.text(), "[Verse]\nla la\n\n[Pre-Chorus]\noh");
    }
}
