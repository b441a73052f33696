//! What a post is, as the rest of the program sees it, and the rows it is stored in.

use chrono::NaiveDateTime;
use db::model::UserCard;
use db::schema::{comments, posts};
use diesel::prelude::*;
use values::{CommentId, PostId, PostKind, UserId};

pub use crate::kinds::audio::AudioTrack;
pub use crate::kinds::lyrics::{Lyrics, LyricsPart};
pub use crate::kinds::media::{MediaFile, MediaType};
pub use crate::kinds::scores::Score;

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
    pub kind: PostKind,
    pub caption: Option<String>,
    pub created_at: NaiveDateTime,
    pub likes_count: i64,
    pub comments_count: i64,
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
