//! The wire shapes of posts (spec §3 Post): built from the domain's [`Post`], never from rows.

use std::sync::Arc;

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
    /// The track's loudness, measured from the file (EBU R128); null when it is silence or was
    /// not measured. Players may even tracks out with it (docs/posts.md, "Loudness").
    loudness: Option<LoudnessJson>,
    /// The track encoded for streaming (docs/posts.md, "Renditions"), best first: players
    /// stream the first whose `mime_type` they can play, and `file_url` while this is empty
    /// (the renditions are made in the background after upload). `file_url` stays the download.
    renditions: Vec<RenditionJson>,
}

#[derive(Serialize, ToSchema)]
pub struct RenditionJson {
    url: String,
    /// With its codec, for `HTMLMediaElement.canPlayType` (`audio/webm; codecs="opus"`).
    mime_type: &'static str,
    /// The encoder's target bitrate, kbit/s.
    bitrate_kbps: u32,
}

#[derive(Serialize, ToSchema)]
pub struct LoudnessJson {
    /// Integrated loudness over the whole track, LUFS.
    integrated_lufs: f64,
    /// The highest true peak of any channel, dBTP.
    true_peak_dbtp: f64,
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
    /// An audio post's genre, if its author chose one (docs/posts.md, "Genres").
    #[serde(skip_serializing_if = "Option::is_none")]
    genre: Option<String>,
    likes_count: i64,
    comments_count: i64,
    /// How often its tracks or scores were played, counted once per listener, track and hour
    /// (`POST /posts/{post_id}/plays`); 0 for pictures and lyrics.
    plays_count: i64,
    /// How many people reposted it (`POST /posts/{post_id}/repost`).
    reposts_count: i64,
    user_liked: bool,
    /// Whether the viewer reposted it.
    user_reposted: bool,
    user: UserJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    media: Option<Vec<MediaJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    audio: Option<Vec<AudioJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    musicxml: Option<Vec<ScoreJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lyrics: Option<LyricsJson>,
    /// In Listened to: the repost by someone the viewer listens to that placed it there (the
    /// newest); the next page starts below its `id`.
    #[serde(skip_serializing_if = "Option::is_none")]
    reposted_by: Option<RepostedByJson>,
}

/// Who reposted a post a feed shows, and when.
#[derive(Serialize, ToSchema)]
pub struct RepostedByJson {
    /// The repost's id: where it stands among the feed's posts (`before` of the next page).
    id: String,
    user: UserJson,
    reposted_at: DateTime<Utc>,
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
            genre: p.genre.clone(),
            likes_count: p.likes_count,
            comments_count: p.comments_count,
            plays_count: p.plays_count,
            reposts_count: p.reposts_count,
            user_liked: p.user_liked,
            user_reposted: p.user_reposted,
            user: UserJson::new(state, p.author.clone()),
            media: None,
            audio: None,
            musicxml: None,
            lyrics: None,
            reposted_by: p.reposted.as_ref().map(|r| RepostedByJson {
                id: r.id.to_string(),
                user: UserJson::new(state, r.by.clone()),
                reposted_at: r.at.and_utc(),
            }),
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
                            loudness: t.loudness.map(|l| LoudnessJson {
                                // Two decimals say all a player can hear (0.01 dB).
                                integrated_lufs: (l.integrated_lufs * 100.0).round() / 100.0,
                                true_peak_dbtp: (l.true_peak_dbtp * 100.0).round() / 100.0,
                            }),
                            renditions: t.renditions.as_ref().map_or_else(Vec::new, |r| {
                                vec![
                                    RenditionJson {
                                        url: object_url(state, &r.opus_key),
                                        mime_type: "audio/webm; codecs=\"opus\"",
                                        bitrate_kbps: posts::renditions::OPUS_KBITS,
                                    },
                                    RenditionJson {
                                        url: object_url(state, &r.aac_key),
                                        mime_type: "audio/mp4; codecs=\"mp4a.40.2\"",
                                        bitrate_kbps: posts::renditions::AAC_KBITS,
                                    },
                                ]
                            }),
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

/// Why a search found a post (issue 34), beside the post in a page of `GET /posts/search`.
#[derive(Serialize, ToSchema)]
pub struct SearchMatchJson {
    /// False when no post has every word of the search, and this one has some of them.
    every_word: bool,
    /// Where it has the words, names first (at most three places).
    matches: Vec<SnippetJson>,
}

/// Some text of a post with the words of a search in it.
#[derive(Serialize, ToSchema)]
pub struct SnippetJson {
    /// title, artist, composer, lyrics, caption or sung (the words a score sets)
    field: &'static str,
    /// The text in pieces, in order; `hit`: a word of the search.
    snippet: Vec<SnippetPieceJson>,
}

#[derive(Serialize, ToSchema)]
pub struct SnippetPieceJson {
    text: String,
    hit: bool,
}

impl SearchMatchJson {
    pub fn new(every_word: bool, snippets: Vec<posts::search::Snippet>) -> Self {
        let matches = snippets
            .into_iter()
            .map(|s| SnippetJson {
                field: s.field.as_str(),
                snippet: s.pieces.into_iter().map(|(text, hit)| SnippetPieceJson { text, hit }).collect(),
            })
            .collect();
        SearchMatchJson { every_word, matches }
    }
}

/// A post found by a search: [`PostJson`] with `search`, why it was found.
#[derive(Serialize, ToSchema)]
#[allow(dead_code)] // the document's shape: [`RenderedPosts::list_with`] writes it
pub struct SearchedPostJson {
    #[serde(flatten)]
    post: PostJson,
    search: SearchMatchJson,
}

/// Posts as JSON, what of each does not change from viewer to viewer written once and kept
/// (issue 30). Every page of posts wrote each post out again for each request: its author's
/// card, its payload's addresses, durations and lyrics, escaped field by field, a tenth of the
/// server's time under the community mix. A post's JSON is its head (id, type, caption, times),
/// the counts and whether the viewer likes it, then its tail (author, payload). Head and tail
/// are kept by post, with what they were written from (its `edited_at`, caption, author's card
/// and payload), and used while the post a page shows is the same in all of these; the counts
/// and the like are written for each request. The bytes are those [`PostJson`] serializes to
/// (`rendered_posts_are_what_serde_writes`).
pub struct RenderedPosts(quick_cache::sync::Cache<PostId, Arc<Written>, ByLength, db::FastHash>);

/// About 32 MB of rendered posts: tens of thousands.
const RENDERED_BYTES: u64 = 32 << 20;

/// The counts and the like as a post with none serializes them: where a rendered post is cut
/// into its head and its tail.
const UNCOUNTED: &str = ",\"likes_count\":0,\"comments_count\":0,\"plays_count\":0,\"reposts_count\":0,\"user_liked\":false,\"user_reposted\":false,";

/// One post's head and tail, and what they were written from.
pub struct Written {
    edited_at: Option<chrono::NaiveDateTime>,
    caption: Option<String>,
    author: db::model::UserCard,
    payload: Arc<Payload>,
    head: String,
    tail: String,
}

impl Written {
    fn of(state: &AppState, p: &Post) -> Option<Written> {
        let mut json = PostJson::new(state, p);
        (json.likes_count, json.comments_count, json.plays_count, json.reposts_count) = (0, 0, 0, 0);
        (json.user_liked, json.user_reposted, json.reposted_by) = (false, false, None);
        let whole = serde_json::to_string(&json).ok()?;
        let cut = whole.find(UNCOUNTED)?;
        Some(Written {
            edited_at: p.edited_at,
            caption: p.caption.clone(),
            author: p.author.clone(),
            payload: p.payload.clone(),
            head: whole.get(1..cut)?.to_owned(),
            tail: whole.get(cut + UNCOUNTED.len()..whole.len() - 1)?.to_owned(),
        })
    }

    /// Whether it was written from `p` as `p` is now.
    fn is_of(&self, p: &Post) -> bool {
        self.edited_at == p.edited_at
            && self.caption == p.caption
            && self.author == p.author
            && (Arc::ptr_eq(&self.payload, &p.payload) || self.payload == p.payload)
    }
}

#[derive(Clone)]
pub struct ByLength;

impl quick_cache::Weighter<PostId, Arc<Written>> for ByLength {
    fn weight(&self, _: &PostId, w: &Arc<Written>) -> u64 {
        (256 + w.head.len() + w.tail.len() + w.caption.as_deref().map_or(0, str::len)) as u64
    }
}

impl Default for RenderedPosts {
    fn default() -> Self {
        let items = (RENDERED_BYTES / 1024) as usize;
        RenderedPosts(quick_cache::sync::Cache::with(
            items,
            RENDERED_BYTES,
            ByLength,
            db::FastHash::default(),
            Default::default(),
        ))
    }
}

/// Posts (or one) inside another answer (Discover, a playlist's page): as written from what is
/// kept rendered, the same bytes the feeds send; serialized anew only if that were not JSON.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Embedded {
    Written(Box<serde_json::value::RawValue>),
    Posts(Vec<PostJson>),
    Post(Box<PostJson>),
}

impl RenderedPosts {
    /// `posts` as a JSON array of [`PostJson`].
    pub fn list(&self, state: &AppState, posts: &[Post]) -> String {
        let mut out = String::with_capacity(64 + posts.len() * 1024);
        out.push('[');
        for (i, p) in posts.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            self.write(state, p, &mut out);
        }
        out.push(']');
        out
    }

    /// `posts` as a JSON array of [`PostJson`], each with the fields `more` gives it (JSON of
    /// an object's members, after a comma: `"search":{...}`).
    pub fn list_with(&self, state: &AppState, posts: &[Post], more: impl Fn(&Post) -> String) -> String {
        let mut out = String::with_capacity(64 + posts.len() * 1280);
        out.push('[');
        for (i, p) in posts.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            self.write(state, p, &mut out);
            if out.ends_with('}') {
                out.pop();
                out.push(',');
                out.push_str(&more(p));
                out.push('}');
            }
        }
        out.push(']');
        out
    }

    /// `posts` as a JSON array of [`PostJson`], to be embedded in another answer's JSON.
    pub fn embedded_list(&self, state: &AppState, posts: &[Post]) -> Embedded {
        match serde_json::value::RawValue::from_string(self.list(state, posts)) {
            Ok(raw) => Embedded::Written(raw),
            Err(_) => Embedded::Posts(posts.iter().map(|p| PostJson::new(state, p)).collect()),
        }
    }

    /// `p` as the JSON of one [`PostJson`], to be embedded in another answer's JSON.
    pub fn embedded(&self, state: &AppState, p: &Post) -> Embedded {
        match serde_json::value::RawValue::from_string(self.one(state, p)) {
            Ok(raw) => Embedded::Written(raw),
            Err(_) => Embedded::Post(Box::new(PostJson::new(state, p))),
        }
    }

    /// `p` as the JSON of one [`PostJson`].
    pub fn one(&self, state: &AppState, p: &Post) -> String {
        let mut out = String::with_capacity(1024);
        self.write(state, p, &mut out);
        out
    }

    fn write(&self, state: &AppState, p: &Post, out: &mut String) {
        use std::fmt::Write as _;
        let written = match self.0.get(&p.id) {
            Some(w) if w.is_of(p) => Some(w),
            _ => Written::of(state, p).map(|w| {
                let w = Arc::new(w);
                self.0.insert(p.id, w.clone());
                w
            }),
        };
        let Some(w) = written else {
            // Never met: a post serializes as an object with its counts (the test says so).
            out.push_str(&serde_json::to_string(&PostJson::new(state, p)).unwrap_or_default());
            return;
        };
        out.push('{');
        out.push_str(&w.head);
        let _ = write!(
            out,
            ",\"likes_count\":{},\"comments_count\":{},\"plays_count\":{},\"reposts_count\":{},\"user_liked\":{},\"user_reposted\":{},",
            p.likes_count, p.comments_count, p.plays_count, p.reposts_count, p.user_liked, p.user_reposted
        );
        out.push_str(&w.tail);
        if let Some(r) = &p.reposted {
            let by = RepostedByJson {
                id: r.id.to_string(),
                user: UserJson::new(state, r.by.clone()),
                reposted_at: r.at.and_utc(),
            };
            out.push_str(",\"reposted_by\":");
            out.push_str(&serde_json::to_string(&by).unwrap_or_else(|_| "null".into()));
        }
        out.push('}');
    }
}
