//! Comments on a post, deleting one, and the mention picker (spec §7 Posts, §3 Comment).

use actix_web::http::header;
use actix_web::{HttpResponse, delete, get, patch, post, web};
use chrono::{DateTime, Utc};
use posts::{COMMENTS_PAGE, Comment, CommentMoment, MENTION_PAGE, MomentInput};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use values::{CommentId, PostId, UserId};

use crate::error::{ApiError, Detail};
use crate::extract::{Limited, MaybeLimited, Readers, Session};
use crate::limits::{Commenting, DeletingComments, Editing, Searching};
use crate::routes::search_text;
use crate::state::AppState;
use crate::wire::UserJson;

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
    /// When its author last changed it; null if never.
    edited_at: Option<DateTime<Utc>>,
    user: UserJson,
    #[schema(value_type = String)]
    author_id: UserId,
    author_name: String,
    author_login: String,
    author_avatar_url: String,
    author_role: Option<String>,
    mentions: Vec<MentionJson>,
    /// On an audio post, the moment of its track the comment is on: milliseconds into it
    /// (beyond the spec; absent for a comment on the whole post).
    #[serde(skip_serializing_if = "Option::is_none")]
    at_ms: Option<i64>,
    /// Which of the post's tracks `at_ms` is in, or which of its scores `bar` is in, from 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    track: Option<i64>,
    /// On a sheet-music post, the bars of its score the comment is on: the first, counted from
    /// 1 as the score numbers them, and the last (issue 35; absent for any other comment).
    #[serde(skip_serializing_if = "Option::is_none")]
    bar: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bar_end: Option<i64>,
}

fn comment_json(state: &AppState, c: Comment) -> CommentJson {
    CommentJson {
        at_ms: c.moment.and_then(|m| m.at_ms()),
        track: c.moment.map(|m| m.track()),
        bar: c.moment.and_then(|m| m.bars()).map(|(from, _)| from),
        bar_end: c.moment.and_then(|m| m.bars()).map(|(_, to)| to),
        id: c.id,
        content: c.content,
        created_at: c.created_at.and_utc(),
        edited_at: c.edited_at.map(|t| t.and_utc()),
        author_id: c.author.id,
        author_name: c.author.name.clone(),
        author_login: c.author.login.clone(),
        author_avatar_url: state.avatar_url(c.author.avatar_url.as_deref()),
        author_role: c.author.tag_id.clone(),
        user: UserJson::new(state, c.author),
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
    session: Session,
    post_id: web::Path<PostId>,
    q: web::Query<CommentsQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = COMMENTS_PAGE.page(q.limit, q.offset);
    let post = post_id.into_inner();
    let posts = state.posts.clone();
    let found = session
        .answer(
            &state,
            Readers::Anyone,
            |viewer| state.posts.remembered_comments(post, viewer, page),
            move |conn, viewer| posts.comments_on(conn, post, viewer, page),
        )
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(found.into_iter().map(|c| comment_json(&state, c)).collect::<Vec<_>>()))
}

#[derive(Deserialize, ToSchema)]
pub struct NewCommentJson {
    content: String,
    /// On an audio post, a comment on a moment of its track: milliseconds into it (beyond the
    /// spec, optional).
    #[serde(default)]
    at_ms: Option<i64>,
    /// Which of the post's tracks (with `at_ms`) or scores (with `bar`), from 0 (the first when
    /// absent).
    #[serde(default)]
    track: Option<i64>,
    /// On a sheet-music post, a comment on bars of its score: the first, counted from 1, and
    /// the last (`bar` when absent; beyond the spec, optional).
    #[serde(default)]
    bar: Option<i64>,
    #[serde(default)]
    bar_end: Option<i64>,
}

/// The post's comments on a moment of its tracks or on bars of its scores, the newest 200
/// (beyond the spec: the marks along an audio post's waveform, over a score's bars); a post of
/// another kind has none.
#[utoipa::path(tag = "posts", params(("post_id" = String, Path)),
    responses((status = 200, body = [CommentJson]), (status = 404, body = Detail)))]
#[get("/posts/{post_id}/moments")]
pub async fn moments(
    state: web::Data<AppState>,
    session: Session,
    post_id: web::Path<PostId>,
) -> Result<HttpResponse, ApiError> {
    let post = post_id.into_inner();
    let posts = state.posts.clone();
    let found = session.read(&state, move |conn, viewer| posts.moments_on(conn, post, viewer)).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(found.into_iter().map(|c| comment_json(&state, c)).collect::<Vec<_>>()))
}

#[derive(Serialize, ToSchema)]
pub struct CommentCreatedJson {
    comment: CommentJson,
}

#[utoipa::path(tag = "posts", security(("bearer" = [])), params(("post_id" = String, Path)), request_body = NewCommentJson,
    responses((status = 201, body = CommentCreatedJson),
        (status = 400, body = Detail, description = "blank, or a moment that is not on a track of the post"),
        (status = 404, body = Detail)))]
#[post("/posts/{post_id}/comments")]
pub async fn add_comment(
    state: web::Data<AppState>,
    user: Limited<Commenting>,
    post_id: web::Path<PostId>,
    body: web::Json<NewCommentJson>,
) -> Result<HttpResponse, ApiError> {
    let moment = CommentMoment::parse(MomentInput {
        at_ms: body.at_ms,
        track: body.track,
        bar: body.bar,
        bar_end: body.bar_end,
    })?;
    let c = state.app.comment(&state.posts, user.0.id, post_id.into_inner(), &body.content, moment).await?;
    Ok(HttpResponse::Created().json(CommentCreatedJson { comment: comment_json(&state, c) }))
}

/// Changes the text of one's own comment (shown as edited since). People it now mentions who
/// were never told of it are told, as of a new comment.
#[utoipa::path(tag = "posts", security(("bearer" = [])), params(("post_id" = String, Path), ("comment_id" = String, Path)),
    request_body = NewCommentJson,
    responses((status = 200, body = CommentCreatedJson), (status = 400, body = Detail, description = "blank or too long"),
        (status = 403, body = Detail, description = "not the comment's author"),
        (status = 404, body = Detail, description = "the post is missing or hidden by a block; the comment is missing or not on this post")))]
#[patch("/posts/{post_id}/comments/{comment_id}")]
pub async fn edit_comment(
    state: web::Data<AppState>,
    user: Limited<Editing>,
    path: web::Path<(PostId, CommentId)>,
    body: web::Json<NewCommentJson>,
) -> Result<web::Json<CommentCreatedJson>, ApiError> {
    let (post, comment) = path.into_inner();
    let c = state.app.edit_comment(&state.posts, user.0.id, post, comment, &body.content).await?;
    Ok(web::Json(CommentCreatedJson { comment: comment_json(&state, c) }))
}

/// Deletes a comment: by its author, the post's author, or an admin (whose deletion of
/// someone else's comment is audited and closes the open complaints about it). The post
/// counts one comment less and the notifications about the comment go.
#[utoipa::path(tag = "posts", security(("bearer" = [])), params(("post_id" = String, Path), ("comment_id" = String, Path)),
    responses((status = 204), (status = 403, body = Detail, description = "not the comment's author, the post's author or an admin"),
        (status = 404, body = Detail, description = "the post is missing or hidden by a block; the comment is missing or not on this post")))]
#[delete("/posts/{post_id}/comments/{comment_id}")]
pub async fn delete_comment(
    state: web::Data<AppState>,
    user: Limited<DeletingComments>,
    path: web::Path<(PostId, CommentId)>,
) -> Result<HttpResponse, ApiError> {
    let (post, comment) = path.into_inner();
    let me = &user.0;
    let admin = moderation::Admin::check(me.id, &me.login, me.is_admin).ok();
    state.app.delete_comment(&state.posts, me.id, admin, post, comment).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Deserialize, IntoParams)]
pub struct MentionQuery {
    /// What follows the `@`.
    q: Option<String>,
    /// 1 to 20 (default 10).
    limit: Option<i64>,
}

#[utoipa::path(tag = "posts", params(MentionQuery), responses((status = 200, body = [UserJson])))]
#[get("/posts/users/search")]
pub async fn mention_search(
    state: web::Data<AppState>,
    viewer: MaybeLimited<Searching>,
    q: web::Query<MentionQuery>,
) -> Result<web::Json<Vec<UserJson>>, ApiError> {
    let limit = MENTION_PAGE.page(q.limit, None).limit;
    let found = state.posts.mention_candidates(viewer.0.map(|u| u.id), search_text(q.q.as_deref())?, limit).await?;
    Ok(web::Json(found.into_iter().map(|u| UserJson::without_tag(&state, u)).collect()))
}
