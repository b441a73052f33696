//! Posts, feeds, likes, comments and the mention picker (spec §7 Posts; docs/posts.md): the
//! wire shapes in `wire`, the lists in `feeds`, comments in `comments`, making posts in `create`;
//! play counts in `plays`; here deleting and liking.

mod comments;
mod create;
mod feeds;
mod plays;
mod recordings;
mod wire;

pub use wire::{Embedded, PostJson, RenderedPosts, SearchMatchJson, SearchedPostJson, SnippetJson, SnippetPieceJson};

use actix_web::{HttpResponse, delete, patch, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use values::PostId;

use crate::error::{ApiError, Detail};
use crate::extract::{AuthUser, Limited};
use crate::limits::{Editing, Liking, Reposting};
use crate::state::AppState;

/// What `PATCH /posts/{post_id}` takes: each field left out stays as it is.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PostEditJson {
    /// Any post; null or blank takes the caption away.
    #[serde(default, deserialize_with = "crate::wire::present")]
    #[schema(nullable)]
    caption: Option<Option<String>>,
    /// Audio and sheet music: one title for each track or score, in order.
    titles: Option<Vec<String>>,
    /// Audio: one artist for each track, in order.
    artists: Option<Vec<String>>,
    /// Sheet music: one composer for each score, in order.
    composers: Option<Vec<String>>,
    /// Lyrics, as `POST /posts/lyrics` takes them.
    song_title: Option<String>,
    artist_name: Option<String>,
    parts: Option<Vec<create::LyricsPartIn>>,
    /// Audio: a genre of the list (docs/posts.md, "Genres"); null or blank takes it away.
    #[serde(default, deserialize_with = "crate::wire::present")]
    #[schema(nullable)]
    genre: Option<Option<String>>,
}

impl From<PostEditJson> for posts::PostEdit {
    fn from(e: PostEditJson) -> Self {
        posts::PostEdit {
            caption: e.caption,
            titles: e.titles,
            artists: e.artists,
            composers: e.composers,
            song_title: e.song_title,
            artist_name: e.artist_name,
            parts: e.parts.map(|parts| parts.into_iter().map(create::LyricsPartIn::into_input).collect()),
            genre: e.genre,
        }
    }
}

/// Changes the words of one's own post: its caption, the titles and artists of its tracks, the
/// titles and composers of its scores, or its song's title, artist and parts (never its
/// files). Answers the post as it now is, `edited_at` set when anything changed.
#[utoipa::path(tag = "posts", security(("bearer" = [])), params(("post_id" = String, Path)), request_body = PostEditJson,
    responses((status = 200, body = PostJson), (status = 400, body = Detail, description = "a field the post's kind does not have, a count that does not match, a blank title"),
        (status = 403, body = Detail, description = "not the author"), (status = 404, body = Detail)))]
#[patch("/posts/{post_id}")]
pub async fn edit(
    state: web::Data<AppState>,
    user: Limited<Editing>,
    post_id: web::Path<PostId>,
    body: web::Json<PostEditJson>,
) -> Result<web::Json<PostJson>, ApiError> {
    let p = state.posts.edit(user.0.id, post_id.into_inner(), body.into_inner().into()).await?;
    Ok(web::Json(PostJson::new(&state, &p)))
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
    user: Limited<Liking>,
    post_id: web::Path<PostId>,
) -> Result<web::Json<LikeJson>, ApiError> {
    let l = state.app.toggle_like(user.0.id, post_id.into_inner()).await?;
    Ok(web::Json(LikeJson { liked: l.liked, user_liked: l.liked, likes_count: l.likes_count }))
}

#[derive(Serialize, ToSchema)]
pub struct RepostJson {
    user_reposted: bool,
    reposts_count: i64,
}

/// Reposts someone else's post to one's listeners (their Listened to shows it, "Reposted by"
/// one), or takes the repost back; the author is told of a first repost.
#[utoipa::path(tag = "posts", security(("bearer" = [])), params(("post_id" = String, Path)),
    responses((status = 200, body = RepostJson), (status = 400, body = Detail, description = "one's own post"),
        (status = 404, body = Detail)))]
#[post("/posts/{post_id}/repost")]
pub async fn repost(
    state: web::Data<AppState>,
    user: Limited<Reposting>,
    post_id: web::Path<PostId>,
) -> Result<web::Json<RepostJson>, ApiError> {
    let r = state.app.toggle_repost(user.0.id, post_id.into_inner()).await?;
    Ok(web::Json(RepostJson { user_reposted: r.reposted, reposts_count: r.reposts_count }))
}

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    // Fixed paths before `/posts/{post_id}`, which would otherwise take "feed" for an id.
    cfg.service(feeds::feed)
        .service(feeds::listened_to)
        .service(feeds::by_user)
        .service(feeds::search_posts)
        .service(feeds::by_tag)
        .service(comments::mention_search)
        .service(create::create_audio)
        .service(create::create_media)
        .service(create::create_musicxml)
        .service(create::create_lyrics)
        .service(like)
        .service(repost)
        .service(plays::play)
        .service(plays::own_plays)
        .service(comments::comments)
        .service(comments::add_comment)
        .service(comments::moments)
        .service(recordings::link_recording)
        .service(recordings::unlink_recording)
        .service(recordings::recordings)
        .service(recordings::scores_following)
        .service(comments::delete_comment)
        .service(comments::edit_comment)
        .service(edit)
        .service(remove)
        .service(feeds::one);
}
