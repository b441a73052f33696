//! Posts, feeds, likes, comments and the mention picker (spec §7 Posts; docs/posts.md).

use actix_multipart::Multipart;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use chrono::{DateTime, Utc};
use db::model::UserCard;
use media_validation::{self as mv, MediaKind, limits};
use posts::{
    AudioUpload, COMMENTS_PAGE, Comment, FEED_PAGE, Feed, FeedPage, LyricsInput, MENTION_PAGE, MediaUpload, Payload,
    Post, PostError, ScoreUpload,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use values::{CommentId, PostId, UserId};

use crate::error::{ApiError, Detail};
use crate::extract::{AuthUser, MaybeUser};
use crate::state::AppState;
use crate::upload::{self, FileBody, FileRule, Received, Sink, UploadRules};

// --- Wire shapes ---------------------------------------------------------------------------

/// A post's author.
#[derive(Serialize, ToSchema)]
pub struct PostUserJson {
    #[schema(value_type = String)]
    id: UserId,
    login: String,
    name: String,
    tag_id: Option<String>,
    /// The tag's id again (spec §7 reads the role under either name).
    role: Option<String>,
    /// Never null.
    avatar_url: String,
}

#[derive(Serialize, ToSchema)]
pub struct MediaJson {
    #[schema(value_type = String)]
    id: String,
    file_url: String,
    /// `image` or `video`.
    file_type: &'static str,
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
    kind: &'static str,
    caption: Option<String>,
    created_at: DateTime<Utc>,
    likes_count: i64,
    comments_count: i64,
    user_liked: bool,
    user: PostUserJson,
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
    state.media_url(&posts::url_of(key))
}

fn post_user(state: &AppState, u: UserCard) -> PostUserJson {
    PostUserJson {
        avatar_url: state.avatar_url(u.avatar_url.as_deref()),
        id: u.id,
        login: u.login,
        name: u.name,
        role: u.tag_id.clone(),
        tag_id: u.tag_id,
    }
}

fn post_json(state: &AppState, p: Post) -> PostJson {
    let mut json = PostJson {
        id: p.id,
        kind: p.kind().as_str(),
        caption: p.caption,
        created_at: p.created_at.and_utc(),
        likes_count: p.likes_count,
        comments_count: p.comments_count,
        user_liked: p.user_liked,
        user: post_user(state, p.author),
        media: None,
        audio: None,
        musicxml: None,
        lyrics: None,
    };
    match p.payload {
        Payload::Media(files) => {
            json.media = Some(
                files
                    .into_iter()
                    .map(|m| MediaJson {
                        id: m.id.to_string(),
                        display_url: object_url(state, m.display_key.as_deref().unwrap_or(&m.file_key)),
                        file_url: object_url(state, &m.file_key),
                        file_type: m.media_type.as_str(),
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
                    .into_iter()
                    .map(|t| AudioJson {
                        duration: t.duration_text(),
                        duration_seconds: t.duration_ms as f64 / 1000.0,
                        cover_url: t.cover_key.as_deref().map(|k| object_url(state, k)),
                        file_url: object_url(state, &t.file_key),
                        title: t.title,
                        artist: t.artist,
                        peaks: t.peaks,
                    })
                    .collect(),
            );
        }
        Payload::Scores(scores) => {
            json.musicxml = Some(
                scores
                    .into_iter()
                    .map(|s| ScoreJson {
                        file_url: object_url(state, &s.file_key),
                        title: s.title,
                        composer: s.composer,
                    })
                    .collect(),
            );
        }
        Payload::Lyrics(l) => {
            json.lyrics = Some(LyricsJson {
                lyrics_text: l.text(),
                title: l.title,
                artist: l.artist,
                parts: l
                    .parts
                    .into_iter()
                    .map(|p| LyricsPartJson { part_type: p.part_type, lyrics: p.lyrics })
                    .collect(),
            });
        }
    }
    json
}

// --- Feeds ---------------------------------------------------------------------------------

#[derive(Deserialize, IntoParams)]
pub struct FeedQuery {
    /// 1 to 50 (default 10).
    limit: Option<i64>,
    /// The spec's paging: posts to skip.
    offset: Option<i64>,
    /// The keyset cursor: posts older than this post id (wins over `offset`).
    #[param(value_type = Option<String>)]
    before: Option<PostId>,
}

impl FeedQuery {
    fn page(&self) -> FeedPage {
        match self.before {
            Some(before) => FeedPage::Before(FEED_PAGE.keyset(Some(before), self.limit)),
            None => FeedPage::Offset(FEED_PAGE.page(self.limit, self.offset)),
        }
    }
}

/// A page of posts as a bare array; when the page is full, `Link: <...>; rel="next"` says where
/// the next one starts (by the keyset cursor, so Load More never shows a post twice).
fn feed_response(state: &AppState, req: &HttpRequest, page: FeedPage, found: Vec<Post>) -> HttpResponse {
    let mut res = HttpResponse::Ok();
    res.insert_header((header::CACHE_CONTROL, "no-cache"));
    let limit = page.limit();
    if limit > 0
        && found.len() as i64 == limit
        && let Some(last) = found.last()
    {
        res.insert_header((header::LINK, format!("<{}?limit={limit}&before={}>; rel=\"next\"", req.path(), last.id)));
    }
    res.json(found.into_iter().map(|p| post_json(state, p)).collect::<Vec<_>>())
}

#[utoipa::path(tag = "posts", params(FeedQuery),
    responses((status = 200, body = [PostJson], headers(("Link" = String, description = "rel=\"next\" when the page is full")))))]
#[get("/posts/feed")]
pub async fn feed(
    state: web::Data<AppState>,
    req: HttpRequest,
    viewer: MaybeUser,
    q: web::Query<FeedQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = q.page();
    let found = state.posts.feed(Feed::ForYou, page, viewer.0.map(|u| u.id)).await?;
    Ok(feed_response(&state, &req, page, found))
}

#[utoipa::path(tag = "posts", security(("bearer" = [])), params(FeedQuery),
    responses((status = 200, body = [PostJson])))]
#[get("/posts/listened-to")]
pub async fn listened_to(
    state: web::Data<AppState>,
    req: HttpRequest,
    user: AuthUser,
    q: web::Query<FeedQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = q.page();
    let found = state.posts.feed(Feed::ListenedTo, page, Some(user.0.id)).await?;
    Ok(feed_response(&state, &req, page, found))
}

#[utoipa::path(tag = "posts", params(("user_id" = String, Path), FeedQuery),
    responses((status = 200, body = [PostJson]), (status = 404, body = Detail)))]
#[get("/posts/user/{user_id}")]
pub async fn by_user(
    state: web::Data<AppState>,
    req: HttpRequest,
    viewer: MaybeUser,
    user_id: web::Path<UserId>,
    q: web::Query<FeedQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = q.page();
    let found = state.posts.feed(Feed::User(user_id.into_inner()), page, viewer.0.map(|u| u.id)).await?;
    Ok(feed_response(&state, &req, page, found))
}

#[utoipa::path(tag = "posts", params(("post_id" = String, Path)),
    responses((status = 200, body = PostJson), (status = 404, body = Detail)))]
#[get("/posts/{post_id}")]
pub async fn one(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    post_id: web::Path<PostId>,
) -> Result<HttpResponse, ApiError> {
    let p = state.posts.post(post_id.into_inner(), viewer.0.map(|u| u.id)).await?;
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-cache")).json(post_json(&state, p)))
}

#[utoipa::path(tag = "posts", security(("bearer" = [])), params(("post_id" = String, Path)),
    responses((status = 204), (status = 403, body = Detail, description = "not the author"), (status = 404, body = Detail)))]
#[delete("/posts/{post_id}")]
pub async fn remove(
    state: web::Data<AppState>,
    user: AuthUser,
    post_id: web::Path<PostId>,
) -> Result<HttpResponse, ApiError> {
    state.posts.delete(user.0.id, post_id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

// --- Likes ---------------------------------------------------------------------------------

#[derive(Serialize, ToSchema)]
pub struct LikeJson {
    liked: bool,
    user_liked: bool,
    likes_count: i64,
}

#[utoipa::path(tag = "posts", security(("bearer" = [])), params(("post_id" = String, Path)),
    responses((status = 200, body = LikeJson), (status = 404, body = Detail)))]
#[post("/posts/{post_id}/like")]
pub async fn like(
    state: web::Data<AppState>,
    user: AuthUser,
    post_id: web::Path<PostId>,
) -> Result<web::Json<LikeJson>, ApiError> {
    let l = state.app.toggle_like(user.0.id, post_id.into_inner()).await?;
    Ok(web::Json(LikeJson { liked: l.liked, user_liked: l.liked, likes_count: l.likes_count }))
}

// --- Comments ------------------------------------------------------------------------------

#[derive(Serialize, ToSchema)]
pub struct CommentUserJson {
    #[schema(value_type = String)]
    id: UserId,
    name: String,
    login: String,
    avatar_url: String,
    role: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct MentionJson {
    #[schema(value_type = String)]
    user_id: UserId,
    login: String,
    name: String,
    avatar_url: String,
}

/// A comment (spec §3), with its author both nested and flat.
#[derive(Serialize, ToSchema)]
pub struct CommentJson {
    #[schema(value_type = String)]
    id: CommentId,
    content: String,
    created_at: DateTime<Utc>,
    user: CommentUserJson,
    #[schema(value_type = String)]
    author_id: UserId,
    author_name: String,
    author_login: String,
    author_avatar_url: String,
    author_role: Option<String>,
    mentions: Vec<MentionJson>,
}

fn comment_json(state: &AppState, c: Comment) -> CommentJson {
    let avatar = state.avatar_url(c.author.avatar_url.as_deref());
    CommentJson {
        id: c.id,
        content: c.content,
        created_at: c.created_at.and_utc(),
        author_id: c.author.id,
        author_name: c.author.name.clone(),
        author_login: c.author.login.clone(),
        author_avatar_url: avatar.clone(),
        author_role: c.author.tag_id.clone(),
        user: CommentUserJson {
            id: c.author.id,
            name: c.author.name,
            login: c.author.login,
            avatar_url: avatar,
            role: c.author.tag_id,
        },
        mentions: c
            .mentions
            .into_iter()
            .map(|m| MentionJson {
                avatar_url: state.avatar_url(m.avatar_url.as_deref()),
                user_id: m.user_id,
                login: m.login,
                name: m.name,
            })
            .collect(),
    }
}

#[derive(Deserialize, IntoParams)]
pub struct CommentsQuery {
    /// 1 to 50 (default 20).
    limit: Option<i64>,
    offset: Option<i64>,
}

#[utoipa::path(tag = "posts", params(("post_id" = String, Path), CommentsQuery),
    responses((status = 200, body = [CommentJson]), (status = 404, body = Detail)))]
#[get("/posts/{post_id}/comments")]
pub async fn comments(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    post_id: web::Path<PostId>,
    q: web::Query<CommentsQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = COMMENTS_PAGE.page(q.limit, q.offset);
    let found = state.posts.comments(post_id.into_inner(), viewer.0.map(|u| u.id), page).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(found.into_iter().map(|c| comment_json(&state, c)).collect::<Vec<_>>()))
}

#[derive(Deserialize, ToSchema)]
pub struct NewCommentJson {
    content: String,
}

#[derive(Serialize, ToSchema)]
pub struct CommentCreatedJson {
    comment: CommentJson,
}

#[utoipa::path(tag = "posts", security(("bearer" = [])), params(("post_id" = String, Path)), request_body = NewCommentJson,
    responses((status = 201, body = CommentCreatedJson), (status = 400, body = Detail, description = "blank"), (status = 404, body = Detail)))]
#[post("/posts/{post_id}/comments")]
pub async fn add_comment(
    state: web::Data<AppState>,
    user: AuthUser,
    post_id: web::Path<PostId>,
    body: web::Json<NewCommentJson>,
) -> Result<HttpResponse, ApiError> {
    let c = state.app.comment(user.0.id, post_id.into_inner(), &body.content).await?;
    Ok(HttpResponse::Created().json(CommentCreatedJson { comment: comment_json(&state, c) }))
}

#[derive(Deserialize, IntoParams)]
pub struct MentionQuery {
    /// What follows the `@`.
    q: Option<String>,
    /// 1 to 20 (default 10).
    limit: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct MentionUserJson {
    #[schema(value_type = String)]
    id: UserId,
    login: String,
    name: String,
    avatar_url: String,
}

#[utoipa::path(tag = "posts", params(MentionQuery), responses((status = 200, body = [MentionUserJson])))]
#[get("/posts/users/search")]
pub async fn mention_search(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    q: web::Query<MentionQuery>,
) -> Result<web::Json<Vec<MentionUserJson>>, ApiError> {
    let limit = MENTION_PAGE.page(q.limit, None).limit;
    let found =
        state.posts.mention_candidates(viewer.0.map(|u| u.id), q.q.as_deref().unwrap_or_default(), limit).await?;
    Ok(web::Json(
        found
            .into_iter()
            .map(|u| MentionUserJson {
                avatar_url: state.avatar_url(u.avatar_url.as_deref()),
                id: u.id,
                login: u.login,
                name: u.name,
            })
            .collect(),
    ))
}

// --- Creating posts ------------------------------------------------------------------------

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

fn audio_rules() -> UploadRules {
    UploadRules {
        files: vec![FileRule {
            field: "audio_files",
            max_bytes: limits::AUDIO_MAX_BYTES,
            too_large: |name| PostError::AudioTooLarge(name.to_owned()).to_string(),
            sink: Sink::TempFile,
            narrow: Some(not_audio),
        }],
        texts: vec!["titles", "artists", "caption"],
        max_files: limits::AUDIO_MAX_FILES,
        too_many_files: "Maximum 10 audio files allowed per post",
        max_total: limits::AUDIO_MAX_BYTES * limits::AUDIO_MAX_FILES as u64 + TEXT_ALLOWANCE,
        total_too_large: "The upload is too large: at most 10 files of 50MB",
    }
}

fn media_rules() -> UploadRules {
    UploadRules {
        files: vec![FileRule {
            field: "files",
            max_bytes: limits::VIDEO_MAX_BYTES,
            too_large: |_| PostError::MediaTooLarge { limit_mb: limits::VIDEO_MAX_BYTES >> 20 }.to_string(),
            sink: Sink::TempFile,
            narrow: Some(media_limit),
        }],
        texts: vec!["caption"],
        max_files: limits::MEDIA_MAX_FILES,
        too_many_files: "Maximum 5 files allowed per post",
        max_total: limits::MEDIA_MAX_TOTAL + TEXT_ALLOWANCE,
        total_too_large: "Total file size exceeds 200MB limit",
    }
}

fn score_rules() -> UploadRules {
    UploadRules {
        files: vec![FileRule {
            field: "musicxml_files",
            max_bytes: limits::MUSICXML_MAX_BYTES,
            too_large: |name| PostError::ScoreTooLarge(name.to_owned()).to_string(),
            sink: Sink::TempFile,
            narrow: Some(not_score),
        }],
        texts: vec!["titles", "composers", "caption"],
        max_files: limits::MUSICXML_MAX_FILES,
        too_many_files: "Maximum 5 MusicXML files allowed per post",
        max_total: limits::MUSICXML_MAX_BYTES * limits::MUSICXML_MAX_FILES as u64 + TEXT_ALLOWANCE,
        total_too_large: "The upload is too large: at most 5 files of 10MB",
    }
}

/// The files of a request, in the order sent (the `n`th title belongs to the `n`th file).
fn temp_files(received: &mut Received) -> Vec<(String, tempfile::NamedTempFile)> {
    std::mem::take(&mut received.files)
        .into_iter()
        .filter_map(|f| match f.body {
            FileBody::TempFile(file) => Some((f.file_name, file)),
            _ => None,
        })
        .collect()
}

/// The values of a repeated text field, in order.
fn texts(received: &Received, field: &str) -> Vec<String> {
    received.texts(field).map(str::to_owned).collect()
}

fn caption_of(received: &Received) -> Option<String> {
    received.texts("caption").next().map(str::to_owned)
}

fn created(state: &AppState, p: Post) -> HttpResponse {
    HttpResponse::Created().json(post_json(state, p))
}

#[utoipa::path(tag = "posts", security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "`audio_files` (1 to 10, 50MB each), `titles` and `artists` (one per file, in order; blank takes the file's tags, then the file name and 'Unknown Artist'), `caption`"),
    responses((status = 201, body = PostJson)))]
#[post("/posts/audio")]
pub async fn create_audio(
    state: web::Data<AppState>,
    user: AuthUser,
    req: HttpRequest,
    form: Multipart,
) -> Result<HttpResponse, ApiError> {
    let mut received = upload::read(&req, form, &audio_rules(), &state.storage).await?;
    let caption = caption_of(&received);
    let (titles, artists) = (texts(&received, "titles"), texts(&received, "artists"));
    let uploads = temp_files(&mut received)
        .into_iter()
        .enumerate()
        .map(|(n, (file_name, file))| AudioUpload {
            file_name,
            file,
            title: titles.get(n).cloned(),
            artist: artists.get(n).cloned(),
        })
        .collect();
    let p = state.posts.create_audio(user.0.id, caption.as_deref(), uploads).await?;
    Ok(created(&state, p))
}

#[utoipa::path(tag = "posts", security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "`files` (1 to 5 pictures or videos: jpeg, png, gif, webp up to 10MB; mp4, mov, avi, mkv, webm up to 100MB; 200MB in all), `caption`"),
    responses((status = 201, body = PostJson)))]
#[post("/posts/media")]
pub async fn create_media(
    state: web::Data<AppState>,
    user: AuthUser,
    req: HttpRequest,
    form: Multipart,
) -> Result<HttpResponse, ApiError> {
    let mut received = upload::read(&req, form, &media_rules(), &state.storage).await?;
    let caption = caption_of(&received);
    let uploads =
        temp_files(&mut received).into_iter().map(|(file_name, file)| MediaUpload { file_name, file }).collect();
    let p = state.posts.create_media(user.0.id, caption.as_deref(), uploads).await?;
    Ok(created(&state, p))
}

#[utoipa::path(tag = "posts", security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "`musicxml_files` (1 to 5 .musicxml, .xml or .mxl, 10MB each), `titles` and `composers` (one per file, in order; blank takes the score's own, then the file name and 'Unknown Composer'), `caption`"),
    responses((status = 201, body = PostJson)))]
#[post("/posts/musicxml")]
pub async fn create_musicxml(
    state: web::Data<AppState>,
    user: AuthUser,
    req: HttpRequest,
    form: Multipart,
) -> Result<HttpResponse, ApiError> {
    let mut received = upload::read(&req, form, &score_rules(), &state.storage).await?;
    let caption = caption_of(&received);
    let (titles, composers) = (texts(&received, "titles"), texts(&received, "composers"));
    let uploads = temp_files(&mut received)
        .into_iter()
        .enumerate()
        .map(|(n, (file_name, file))| ScoreUpload {
            file_name,
            file,
            title: titles.get(n).cloned(),
            composer: composers.get(n).cloned(),
        })
        .collect();
    let p = state.posts.create_scores(user.0.id, caption.as_deref(), uploads).await?;
    Ok(created(&state, p))
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
    #[schema(value_type = Vec<Object>)]
    parts: Vec<LyricsPartIn>,
    #[serde(default)]
    caption: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct LyricsPartIn {
    #[serde(default, rename = "type")]
    part_type: Option<String>,
    #[serde(default)]
    lyrics: Option<String>,
}

#[utoipa::path(tag = "posts", security(("bearer" = [])), request_body = LyricsPostJson,
    responses((status = 201, body = PostJson), (status = 400, body = Detail)))]
#[post("/posts/lyrics")]
pub async fn create_lyrics(
    state: web::Data<AppState>,
    user: AuthUser,
    body: web::Json<LyricsPostJson>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let input = LyricsInput {
        song_title: body.song_title,
        artist_name: body.artist_name,
        parts: body
            .parts
            .into_iter()
            .map(|p| posts::LyricsPartInput { part_type: p.part_type, lyrics: p.lyrics })
            .collect(),
        caption: body.caption,
    };
    let p = state.posts.create_lyrics(user.0.id, input).await?;
    Ok(created(&state, p))
}

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    // Fixed paths before `/posts/{post_id}`, which would otherwise take "feed" for an id.
    cfg.service(feed)
        .service(listened_to)
        .service(by_user)
        .service(mention_search)
        .service(create_audio)
        .service(create_media)
        .service(create_musicxml)
        .service(create_lyrics)
        .service(like)
        .service(comments)
        .service(add_comment)
        .service(remove)
        .service(one);
}
