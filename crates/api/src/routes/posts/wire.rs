//! The wire shapes of posts (spec §3 Post): built from the domain's [`Post`], never from rows.

use chrono::{DateTime, Utc};
use posts::{Payload, Post};
use serde::Serialize;
use utoipa::ToSchema;
use values::{PostId, PostKind};

use crate::state::AppState;
use crate::wire::UserJson;

#[derive(Serialize, ToSchema)]
pub struct MediaJson {
    #[schema(value_type = String)]
    id: String,
    file_url: String,
    /// `image` or `video`.
    #[schema(value_type = String)]
    file_type: posts::MediaType,
    width: Option<i64>,
    height: Option<i64>,
    /// A video's first frame, when one could be made.
    poster_url: Option<String>,
    /// What feeds show: a JPEG about 640 px wide, or the original when it is small.
    display_url: String,
}

#[derive(Serialize, ToSchema)]
pub struct AudioJson {
    title: String,
    artist: String,
    cover_url: Option<String>,
    /// `m:ss`
    duration: String,
    duration_seconds: f64,
    file_url: String,
    /// base64 of signed 8-bit min,max pairs, one pair per bin (about 500); full scale ±127.
    peaks: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ScoreJson {
    title: String,
    composer: String,
    file_url: String,
}

#[derive(Serialize, ToSchema)]
pub struct LyricsPartJson {
    #[serde(rename = "type")]
    part_type: String,
    lyrics: String,
}

#[derive(Serialize, ToSchema)]
pub struct LyricsJson {
    title: String,
    artist: String,
    lyrics_text: String,
    parts: Vec<LyricsPartJson>,
}

/// A post (spec §3), its payload under a key named after its type.
#[derive(Serialize, ToSchema)]
pub struct PostJson {
    #[schema(value_type = String)]
    id: PostId,
    /// media, audio, musicxml or lyrics
    #[serde(rename = "type")]
    #[schema(value_type = String)]
    kind: PostKind,
    caption: Option<String>,
    created_at: DateTime<Utc>,
    /// When its author last changed its words (caption, titles, lyrics); null if never.
    edited_at: Option<DateTime<Utc>>,
    likes_count: i64,
    comments_count: i64,
    user_liked: bool,
    user: UserJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    media: Option<Vec<MediaJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    audio: Option<Vec<AudioJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    musicxml: Option<Vec<ScoreJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lyrics: Option<LyricsJson>,
}

fn object_url(state: &AppState, key: &str) -> String {
    state.media_url(&storage::url_of(key))
}

impl PostJson {
    pub fn new(state: &AppState, p: &Post) -> PostJson {
        let mut json = PostJson {
            id: p.id,
            kind: p.kind(),
            caption: p.caption.clone(),
            created_at: p.created_at.and_utc(),
            edited_at: p.edited_at.map(|t| t.and_utc()),
            likes_count: p.likes_count,
            comments_count: p.comments_count,
            user_liked: p.user_liked,
            user: UserJson::new(state, p.author.clone()),
            media: None,
            audio: None,
            musicxml: None,
            lyrics: None,
        };
        match &*p.payload {
            Payload::Media(files) => {
                json.media = Some(
                    files
                        .iter()
                        .map(|m| MediaJson {
                            id: m.id.to_string(),
                            display_url: object_url(state, m.display_key.as_deref().unwrap_or(&m.file_key)),
                            file_url: object_url(state, &m.file_key),
                            file_type: m.media_type,
                            width: m.width,
                            height: m.height,
                            poster_url: m.poster_key.as_deref().map(|k| object_url(state, k)),
                        })
                        .collect(),
                );
            }
            Payload::Audio(tracks) => {
                json.audio = Some(
                    tracks
                        .iter()
                        .map(|t| AudioJson {
                            duration: t.duration_text(),
                            duration_seconds: t.duration_ms as f64 / 1000.0,
                            cover_url: t.cover_key.as_deref().map(|k| object_url(state, k)),
                            file_url: object_url(state, &t.file_key),
                            title: t.title.clone(),
                            artist: t.artist.clone(),
                            peaks: t.peaks.clone(),
                        })
                        .collect(),
                );
            }
            Payload::Scores(scores) => {
                json.musicxml = Some(
                    scores
                        .iter()
                        .map(|s| ScoreJson {
                            file_url: object_url(state, &s.file_key),
                            title: s.title.clone(),
                            composer: s.composer.clone(),
                        })
                        .collect(),
                );
            }
            Payload::Lyrics(l) => {
                json.lyrics = Some(LyricsJson {
                    lyrics_text: l.text(),
                    title: l.title.clone(),
                    artist: l.artist.clone(),
                    parts: l
                        .parts
                        .iter()
                        .map(|p| LyricsPartJson { part_type: p.part_type.clone(), lyrics: p.lyrics.clone() })
                        .collect(),
                });
            }
        }
        json
    }
}
