//! The lists of posts and the one post of the post page (spec §7 Posts).

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};
use db::DbConnection;
use posts::{FEED_PAGE, Feed, FeedPage};
use serde::Deserialize;
use utoipa::IntoParams;
use values::{PostId, UserId};

use super::wire::PostJson;
use crate::error::{ApiError, Detail};
use crate::extract::Session;
use crate::state::AppState;

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

/// A page of `list` as the session's person may see it (the session lookup and the page on one
/// connection), as a bare array; when the page is full, `Link: <...>; rel="next"` says where
/// the next one starts (by the keyset cursor, so Load More never shows a post twice).
async fn page_of(
    state: &AppState,
    req: &HttpRequest,
    list: Feed,
    session: Session,
    q: &FeedQuery,
) -> Result<HttpResponse, ApiError> {
    let page = q.page();
    let posts = state.posts.clone();
    // A page memory holds whole, for a session known a moment ago, asks the database nothing.
    let remembered = session.known_viewer(state).and_then(|viewer| posts.remembered_list(list, page, viewer));
    let read = move |conn: &mut DbConnection, viewer| posts.list_on(conn, list, page, viewer);
    let found = match (remembered, list) {
        (Some(found), _) => found,
        (None, Feed::ListenedTo) => session.read_signed_in(state, move |conn, me| read(conn, Some(me))).await?,
        (None, Feed::ForYou | Feed::User(_)) => session.read(state, read).await?,
    };
    let mut res = HttpResponse::Ok();
    res.insert_header((header::CACHE_CONTROL, "no-cache"));
    let limit = page.limit();
    if limit > 0
        && found.len() as i64 == limit
        && let Some(last) = found.last()
    {
        res.insert_header((header::LINK, format!("<{}?limit={limit}&before={}>; rel=\"next\"", req.path(), last.id)));
    }
    Ok(res.json(found.into_iter().map(|p| PostJson::new(state, p)).collect::<Vec<_>>()))
}

#[utoipa::path(tag = "posts", params(FeedQuery),
    responses((status = 200, body = [PostJson], headers(("Link" = String, description = "rel=\"next\" when the page is full")))))]
#[get("/posts/feed")]
pub async fn feed(
    state: web::Data<AppState>,
    req: HttpRequest,
    session: Session,
    q: web::Query<FeedQuery>,
) -> Result<HttpResponse, ApiError> {
    page_of(&state, &req, Feed::ForYou, session, &q).await
}

#[utoipa::path(tag = "posts", security(("bearer" = [])), params(FeedQuery),
    responses((status = 200, body = [PostJson])))]
#[get("/posts/listened-to")]
pub async fn listened_to(
    state: web::Data<AppState>,
    req: HttpRequest,
    session: Session,
    q: web::Query<FeedQuery>,
) -> Result<HttpResponse, ApiError> {
    page_of(&state, &req, Feed::ListenedTo, session, &q).await
}

#[utoipa::path(tag = "posts", params(("user_id" = String, Path), FeedQuery),
    responses((status = 200, body = [PostJson]), (status = 404, body = Detail)))]
#[get("/posts/user/{user_id}")]
pub async fn by_user(
    state: web::Data<AppState>,
    req: HttpRequest,
    session: Session,
    user_id: web::Path<UserId>,
    q: web::Query<FeedQuery>,
) -> Result<HttpResponse, ApiError> {
    page_of(&state, &req, Feed::User(user_id.into_inner()), session, &q).await
}

#[utoipa::path(tag = "posts", params(("post_id" = String, Path)),
    responses((status = 200, body = PostJson), (status = 404, body = Detail)))]
#[get("/posts/{post_id}")]
pub async fn one(
    state: web::Data<AppState>,
    session: Session,
    post_id: web::Path<PostId>,
) -> Result<HttpResponse, ApiError> {
    let id = post_id.into_inner();
    let posts = state.posts.clone();
    let p = match session.known_viewer(&state).and_then(|viewer| posts.remembered_post(id, viewer)) {
        Some(p) => p,
        None => session.read(&state, move |conn, viewer| posts.post_on(conn, id, viewer)).await?,
    };
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-cache")).json(PostJson::new(&state, p)))
}
