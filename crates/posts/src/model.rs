//! What a post is, as the rest of the program sees it, and the rows it is stored in.

use chrono::NaiveDateTime;
use db::model::UserCard;
use db::schema::{comments, posts};
use diesel::prelude::*;
use values::{CommentId, PostId, PostKind, UserId};

use crate::input::CommentMoment;

pub use crate::kinds::audio::AudioTrack;
pub use crate::kinds::lyrics::{Lyrics, LyricsPart};
pub use crate::kinds::media::{MediaFile, MediaType};
pub use crate::kinds::scores::Score;

/// A post with its author, whether the viewer likes it, and its payload (shared with what
/// memory holds of it: a page clones no track or lyrics).
#[derive(Debug, Clone, PartialEq)]
pub struct Post {
    pub id: PostId,
    pub caption: Option<String>,
    pub created_at: NaiveDateTime,
    /// When its author last changed its words; none if never.
    pub edited_at: Option<NaiveDateTime>,
    pub likes_count: i64,
    pub comments_count: i64,
    /// Counted plays of all its tracks or scores (0 for other kinds).
    pub plays_count: i64,
    /// An audio post's genre (`crate::genre`).
    pub genre: Option<String>,
    /// How many people reposted it.
    pub reposts_count: i64,
    pub user_liked: bool,
    /// Whether the viewer reposted it.
    pub user_reposted: bool,
    pub author: UserCard,
    pub payload: std::sync::Arc<Payload>,
    /// In Listened to: the repost by someone the viewer listens to that placed it there (the
    /// newest such), when a repost did.
    pub reposted: Option<RepostMark>,
}

/// Who reposted a post a feed shows, and when: the repost's id orders it among posts.
#[derive(Debug, Clone, PartialEq)]
pub struct RepostMark {
    pub id: i64,
    pub by: UserCard,
    pub at: NaiveDateTime,
}

impl Post {
    pub fn kind(&self) -> PostKind {
        match *self.payload {
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

impl Payload {
    /// Roughly the bytes it holds (what the payload cache weighs it by).
    pub(crate) fn approximate_size(&self) -> usize {
        let text = |s: &str| s.len() + 24;
        let maybe = |s: &Option<String>| s.as_deref().map_or(0, text);
        64 + match self {
            Payload::Media(files) => {
                files.iter().map(|f| 48 + text(&f.file_key) + maybe(&f.display_key) + maybe(&f.poster_key)).sum()
            }
            Payload::Audio(tracks) => tracks
                .iter()
                .map(|t| {
                    16 + text(&t.title) + text(&t.artist) + text(&t.file_key) + maybe(&t.cover_key) + maybe(&t.peaks)
                })
                .sum(),
            Payload::Scores(scores) => {
                scores.iter().map(|s| text(&s.title) + text(&s.composer) + text(&s.file_key)).sum()
            }
            Payload::Lyrics(l) => {
                text(&l.title)
                    + text(&l.artist)
                    + l.parts.iter().map(|p| text(&p.part_type) + text(&p.lyrics)).sum::<usize>()
            }
        }
    }
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
    /// When its author last changed it; none if never.
    pub edited_at: Option<NaiveDateTime>,
    pub author: UserCard,
    pub mentions: Vec<Mention>,
    /// The moment of the post's track it is on (a timed comment), if any.
    pub moment: Option<CommentMoment>,
}

// --- Rows ----------------------------------------------------------------------------------

// `None` is written as NULL, not `DEFAULT`: one text, kept prepared (`db::Kept`).
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = posts, treat_none_as_default_value = false)]
pub(crate) struct PostRow {
    pub id: PostId,
    pub user_id: UserId,
    pub kind: PostKind,
    pub caption: Option<String>,
    pub created_at: NaiveDateTime,
    pub likes_count: i64,
    pub comments_count: i64,
    pub edited_at: Option<NaiveDateTime>,
    pub plays_count: i64,
    pub genre: Option<String>,
    pub reposts_count: i64,
    /// Changes background work made to its payload: with `edited_at`, its payload's version.
    pub payload_rev: i64,
}

impl PostRow {
    /// The version its payload is kept under in memory (`crate::memory::payloads`).
    pub(crate) fn payload_version(&self) -> crate::memory::PayloadVersion {
        (self.edited_at, self.payload_rev)
    }
}

// `None` is written as NULL, not `DEFAULT`: one text, kept prepared (`db::Kept`).
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = comments, treat_none_as_default_value = false)]
pub struct CommentRow {
    pub id: CommentId,
    pub post_id: PostId,
    pub user_id: UserId,
    pub content: String,
    pub created_at: NaiveDateTime,
    pub edited_at: Option<NaiveDateTime>,
    pub at_ms: Option<i64>,
    pub track: Option<i64>,
    pub bar: Option<i64>,
    pub bar_end: Option<i64>,
}

impl CommentRow {
    /// The moment it is on: its columns are written together (`comments::add`).
    pub(crate) fn moment(&self) -> Option<CommentMoment> {
        let track = self.track.unwrap_or(0);
        match (self.at_ms, self.bar) {
            (Some(at_ms), _) => Some(CommentMoment::Time { track, at_ms }),
            (None, Some(from)) => Some(CommentMoment::Bars { score: track, from, to: self.bar_end.unwrap_or(from) }),
            (None, None) => None,
        }
    }
}
