//! Making posts of each kind (spec §7 Posts, §5): the multipart limits of each upload call,
//! enforced while streaming (`crate::upload`), then one call of the posts domain.

use actix_multipart::Multipart;
use actix_web::{HttpRequest, HttpResponse, post, web};
use media_validation::{self as mv, MediaKind, limits};
use posts::{AudioUpload, LyricsInput, MediaUpload, Post, PostError, ScoreUpload, UploadKind};
use serde::Deserialize;
use utoipa::ToSchema;

use super::wire::PostJson;
use crate::error::{ApiError, Detail};
use crate::extract::Limited;
use crate::limits::Posting;
use crate::state::AppState;
use crate::upload::{self, FileBody, FileRule, Narrow, Sink, UploadRules};

/// Room for titles, captions and multipart framing on top of the files.
const TEXT_ALLOWANCE: u64 = 1024 * 1024;

fn not_audio(head: &[u8], name: &str) -> Result<Option<(u64, String)>, ApiError> {
    match mv::sniff_audio(head) {
        Some(_) => Ok(None),
        None => Err(PostError::NotAudio(name.to_owned()).into()),
    }
}

fn media_limit(head: &[u8], name: &str) -> Result<Option<(u64, String)>, ApiError> {
    match mv::sniff_media(head) {
        Some(MediaKind::Image(_)) => Ok(Some((
            limits::IMAGE_MAX_BYTES,
            PostError::MediaTooLarge { limit_mb: limits::IMAGE_MAX_BYTES >> 20 }.to_string(),
        ))),
        Some(MediaKind::Video(_)) => Ok(None),
        None => Err(PostError::UnsupportedMedia(name.to_owned()).into()),
    }
}

fn not_score(head: &[u8], name: &str) -> Result<Option<(u64, String)>, ApiError> {
    match mv::sniff_score(head) {
        Some(_) => Ok(None),
        None => Err(PostError::NotMusicXml(name.to_owned()).into()),
    }
}

/// The limits of an upload of files of kind `U`, with its details built from the domain's errors.
fn rules<U: UploadKind>(
    field: &'static str,
    texts: Vec<&'static str>,
    max_bytes: u64,
    too_large: fn(&str) -> String,
    narrow: Narrow,
    total: (u64, PostError),
) -> UploadRules {
    let (max_total, total_too_large) = total;
    UploadRules {
        files: vec![FileRule { field, max_bytes, too_large, sink: Sink::TempFile, narrow: Some(narrow) }],
        texts,
        max_files: U::MAX_FILES,
        too_many_files: U::too_many().to_string(),
        max_total: max_total + TEXT_ALLOWANCE,
        total_too_large: total_too_large.to_string(),
    }
}

/// All the files a kind allows at their largest.
fn all_at_most<U: UploadKind>(max_bytes: u64) -> (u64, PostError) {
    (max_bytes * U::MAX_FILES as u64, PostError::UploadTooLarge { files: U::MAX_FILES, limit_mb: max_bytes >> 20 })
}

fn audio_rules() -> UploadRules {
    rules::<AudioUpload>(
        "audio_files",
        vec!["titles", "artists", "caption", "genre"],
        limits::AUDIO_MAX_BYTES,
        |name| PostError::AudioTooLarge(name.to_owned()).to_string(),
        not_audio,
        all_at_most::<AudioUpload>(limits::AUDIO_MAX_BYTES),
    )
}

fn media_rules() -> UploadRules {
    rules::<MediaUpload>(
        "files",
        // A genre is read so that it can be refused (only audio has one).
        vec!["caption", "genre"],
        limits::VIDEO_MAX_BYTES,
        |_| PostError::MediaTooLarge { limit_mb: limits::VIDEO_MAX_BYTES >> 20 }.to_string(),
        media_limit,
        (limits::MEDIA_MAX_TOTAL, PostError::MediaTotalTooLarge),
    )
}

fn score_rules() -> UploadRules {
    rules::<ScoreUpload>(
        "musicxml_files",
        vec!["titles", "composers", "caption", "genre"],
        limits::MUSICXML_MAX_BYTES,
        |name| PostError::ScoreTooLarge(name.to_owned()).to_string(),
        not_score,
        all_at_most::<ScoreUpload>(limits::MUSICXML_MAX_BYTES),
    )
}

/// One file of an upload call, with what was sent beside it at its position in each label
/// field (the `n`th title belongs to the `n`th file).
struct Sent {
    file_name: String,
    file: tempfile::NamedTempFile,
    labels: Vec<Option<String>>,
}

impl Sent {
    fn label(&mut self, n: usize) -> Option<String> {
        self.labels.get_mut(n).and_then(Option::take)
    }
}

/// An upload call: reads the form under `rules`, makes each file a `U` (given its labels from
/// the fields `labels`, in order) and creates the post with the `caption` sent.
async fn create_from<U: UploadKind>(
    state: &AppState,
    user: Limited<Posting>,
    req: &HttpRequest,
    form: Multipart,
    rules: UploadRules,
    labels: &[&str],
    make: fn(Sent) -> U,
) -> Result<HttpResponse, ApiError> {
    // Before the body is read; held until the post is made and its temporary files are gone.
    let _slot = state.uploads.take(user.0.id)?;
    let received = upload::read(req, form, &rules).await?;
    let caption = received.texts("caption").next().map(str::to_owned);
    let genre = received.texts("genre").next().map(str::to_owned);
    let fields: Vec<Vec<String>> =
        labels.iter().map(|field| received.texts(field).map(str::to_owned).collect()).collect();
    let uploads = received
        .files
        .into_iter()
        .filter_map(|f| match f.body {
            FileBody::TempFile(file) => Some((f.file_name, file)),
            FileBody::Memory(_) => None,
        })
        .enumerate()
        .map(|(n, (file_name, file))| {
            make(Sent { file_name, file, labels: fields.iter().map(|values| values.get(n).cloned()).collect() })
        })
        .collect();
    let p = state.posts.create(user.0.id, caption.as_deref(), genre.as_deref(), uploads).await?;
    Ok(created(state, p))
}

fn created(state: &AppState, p: Post) -> HttpResponse {
    HttpResponse::Created().json(PostJson::new(state, &p))
}

#[utoipa::path(tag = "posts", security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "`audio_files` (1 to 10, 50MB each), `titles` and `artists` (one per file, in order; blank takes the file's tags, then the file name and 'Unknown Artist'), `caption`, `genre` (one of the list in docs/posts.md, \"Genres\"; optional)"),
    responses((status = 201, body = PostJson)))]
#[post("/posts/audio")]
pub async fn create_audio(
    state: web::Data<AppState>,
    user: Limited<Posting>,
    req: HttpRequest,
    form: Multipart,
) -> Result<HttpResponse, ApiError> {
    create_from(&state, user, &req, form, audio_rules(), &["titles", "artists"], |mut f| AudioUpload {
        title: f.label(0),
        artist: f.label(1),
        file_name: f.file_name,
        file: f.file,
    })
    .await
}

#[utoipa::path(tag = "posts", security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "`files` (1 to 5 pictures or videos: jpeg, png, gif, webp up to 10MB; mp4, mov, avi, mkv, webm up to 100MB; 200MB in all), `caption`"),
    responses((status = 201, body = PostJson)))]
#[post("/posts/media")]
pub async fn create_media(
    state: web::Data<AppState>,
    user: Limited<Posting>,
    req: HttpRequest,
    form: Multipart,
) -> Result<HttpResponse, ApiError> {
    create_from(&state, user, &req, form, media_rules(), &[], |f| MediaUpload { file_name: f.file_name, file: f.file })
        .await
}

#[utoipa::path(tag = "posts", security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "`musicxml_files` (1 to 5 .musicxml, .xml or .mxl, 10MB each), `titles` and `composers` (one per file, in order; blank takes the score's own, then the file name and 'Unknown Composer'), `caption`"),
    responses((status = 201, body = PostJson)))]
#[post("/posts/musicxml")]
pub async fn create_musicxml(
    state: web::Data<AppState>,
    user: Limited<Posting>,
    req: HttpRequest,
    form: Multipart,
) -> Result<HttpResponse, ApiError> {
    create_from(&state, user, &req, form, score_rules(), &["titles", "composers"], |mut f| ScoreUpload {
        title: f.label(0),
        composer: f.label(1),
        file_name: f.file_name,
        file: f.file,
    })
    .await
}

/// `POST /posts/lyrics` (spec §3 Lyrics post), with an optional `caption`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LyricsPostJson {
    #[serde(default)]
    song_title: Option<String>,
    #[serde(default)]
    artist_name: Option<String>,
    #[serde(default)]
    parts: Vec<LyricsPartIn>,
    #[serde(default)]
    caption: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct LyricsPartIn {
    /// intro, verse, pre-chorus, chorus, bridge or outro
    #[serde(default, rename = "type")]
    part_type: Option<String>,
    #[serde(default)]
    lyrics: Option<String>,
}

impl LyricsPartIn {
    pub(super) fn into_input(self) -> posts::LyricsPartInput {
        posts::LyricsPartInput { part_type: self.part_type, lyrics: self.lyrics }
    }
}

#[utoipa::path(tag = "posts", security(("bearer" = [])), request_body = LyricsPostJson,
    responses((status = 201, body = PostJson), (status = 400, body = Detail)))]
#[post("/posts/lyrics")]
pub async fn create_lyrics(
    state: web::Data<AppState>,
    user: Limited<Posting>,
    body: web::Json<LyricsPostJson>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let input = LyricsInput {
        song_title: body.song_title,
        artist_name: body.artist_name,
        parts: body.parts.into_iter().map(LyricsPartIn::into_input).collect(),
        caption: body.caption,
    };
    let p = state.posts.create_lyrics(user.0.id, input).await?;
    Ok(created(&state, p))
}
