//! Posts, feeds, likes, comments and the mention picker (spec §7 Posts; docs/posts.md): the
//! wire shapes in `wire`, the lists in `feeds`, comments in `comments`, making posts in `create`;
//! here deleting and liking.

mod comments;
mod create;
mod feeds;
mod wire;

use actix_web::{HttpResponse, delete, post, web};
use serde::Serialize;
use utoipa::ToSchema;
use values::PostId;

use crate::error::{ApiError, Detail};
use crate::extract::{AuthUser, Limited};
use crate::limits::Liking;
use crate::state::AppState;

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

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    // Fixed paths before `/posts/{post_id}`, which would otherwise take "feed" for an id.
    cfg.service(feeds::feed)
        .service(feeds::listened_to)
        .service(feeds::by_user)
        .service(comments::mention_search)
        .service(create::create_audio)
        .service(create::create_media)
        .service(create::create_musicxml)
        .service(create::create_lyrics)
        .service(like)
        .service(comments::comments)
        .service(comments::add_comment)
        .service(comments::delete_comment)
        .service(remove)
        .service(feeds::one);
}
