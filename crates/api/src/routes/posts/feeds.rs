//! The lists of posts and the one post of the post page (spec §7 Posts).

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};
use db::DbConnection;
use posts::{FEED_PAGE, Feed, FeedPage};
use serde::Deserialize;
use utoipa::IntoParams;
use values::{PostId, UserId};

use super::wire::{PostJson, SearchMatchJson, SearchedPostJson};
use crate::error::{ApiError, Detail};
use crate::extract::{ReadLimited, Readers, Session};
use crate::limits::SearchingMusic;
use crate::routes::search_text;
use crate::state::AppState;

#[derive(Deserialize, IntoParams)]
pub struct FeedQuery {
    /// 1 to 50 (default 10).
    limit: Option<i64>,
    /// The spec's paging: posts to skip.
    offset: Option<i64>,
    /// The keyset cursor: posts older than this post id (wins over `offset`); in Listened to,
    /// the id of the repost that placed the last post of a page, where one did.
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
    let readers = if list == Feed::ListenedTo { Readers::SignedIn } else { Readers::Anyone };
    let posts = state.posts.clone();
    let found = session
        .answer(
            state,
            readers,
            |viewer| state.posts.remembered_list(list, page, viewer),
            move |conn: &mut DbConnection, viewer| posts.list_on(conn, list, page, viewer),
        )
        .await?;
    Ok(list_answer(state, req, found, page.limit(), &[]))
}

/// A list of posts as the lists answer it: the feeds' shape, never cached by the browser, and
/// when the page is full, `Link: <path?params&limit=..&before=<last id>>; rel="next"` (the
/// keyset cursor, so Load More never shows a post twice).
fn list_answer(
    state: &AppState,
    req: &HttpRequest,
    found: Vec<posts::Post>,
    limit: i64,
    params: &[(&str, &str)],
) -> HttpResponse {
    let body = state.rendered.list(state, &found);
    list_written(req, &found, body, limit, params)
}

/// [`list_answer`] with its body written: a page of `found`, `Link: <...>; rel="next"` when it
/// is full.
fn list_written(
    req: &HttpRequest,
    found: &[posts::Post],
    body: String,
    limit: i64,
    params: &[(&str, &str)],
) -> HttpResponse {
    let mut res = HttpResponse::Ok();
    res.insert_header((header::CACHE_CONTROL, "no-cache"));
    if limit > 0
        && found.len() as i64 == limit
        && let Some(last) = found.last()
    {
        let mut next = url::form_urlencoded::Serializer::new(String::new());
        // A post a repost placed stands where the repost does.
        let at = last.reposted.as_ref().map_or(last.id.get(), |r| r.id);
        next.extend_pairs(params).append_pair("limit", &limit.to_string()).append_pair("before", &at.to_string());
        res.insert_header((header::LINK, format!("<{}?{}>; rel=\"next\"", req.path(), next.finish())));
    }
    res.content_type(actix_web::http::header::ContentType::json()).body(body)
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

#[derive(Deserialize, IntoParams)]
pub struct TagQuery {
    /// 1 to 50 (default 10).
    limit: Option<i64>,
    /// The next page: posts older than this post id.
    #[param(value_type = Option<String>)]
    before: Option<PostId>,
}

/// The newest posts with a tag (`#jazz` in a caption or a song's lyrics; case and accents do
/// not matter: `Café` is `cafe`), as the session's person may see them, in the feeds' shape;
/// `Link: <...>; rel="next"` when the page is full. A word that is no tag has no posts.
#[utoipa::path(tag = "posts", params(("tag" = String, Path), TagQuery),
    responses((status = 200, body = [PostJson], headers(("Link" = String, description = "rel=\"next\" when the page is full")))))]
#[get("/posts/tags/{tag}")]
pub async fn by_tag(
    state: web::Data<AppState>,
    req: HttpRequest,
    session: Session,
    tag: web::Path<String>,
    q: web::Query<TagQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = FEED_PAGE.keyset(q.before, q.limit);
    let tag = tag.into_inner();
    let posts = state.posts.clone();
    let found = session
        .answer(
            &state,
            Readers::Anyone,
            |_| None,
            move |conn: &mut DbConnection, viewer| posts.tag_page_on(conn, &tag, page, viewer),
        )
        .await?;
    Ok(list_answer(&state, &req, found, page.limit, &[]))
}

#[derive(Deserialize, IntoParams)]
pub struct PostSearchQuery {
    /// What to find: words of titles, artists, composers, lyrics or captions (each may be the
    /// start of a word; accents and case do not matter). No words, no posts.
    q: Option<String>,
    /// 1 to 50 (default 10).
    limit: Option<i64>,
    /// The next page: the last post of the page before.
    #[param(value_type = Option<String>)]
    before: Option<PostId>,
    /// Only posts of this kind: `audio`, `musicxml`, `lyrics` or `media`.
    #[serde(rename = "type")]
    #[param(rename = "type")]
    kind: Option<String>,
}

/// Posts matching the words of `q`, best matches first (`posts::search`), as the session's
/// person may see them, in the feeds' shape with `search` beside each post: where it has the
/// words, marked. When no post has every word (of two or more), the posts with some of them,
/// most words first, each with `every_word: false`. `Link: <...>; rel="next"` when the page is
/// full.
#[utoipa::path(tag = "posts", params(PostSearchQuery),
    responses((status = 200, body = [SearchedPostJson], headers(("Link" = String, description = "rel=\"next\" when the page is full"))),
        (status = 400, body = Detail)))]
#[get("/posts/search")]
pub async fn search_posts(
    state: web::Data<AppState>,
    req: HttpRequest,
    viewer: ReadLimited<SearchingMusic>,
    q: web::Query<PostSearchQuery>,
) -> Result<HttpResponse, ApiError> {
    let viewer = viewer.0;
    let kind = match q.kind.as_deref().map(str::trim).filter(|k| !k.is_empty()) {
        None => None,
        Some(word) => Some(values::PostKind::parse(word).ok_or_else(|| {
            ApiError::invalid("Unknown type of post: type is one of audio, musicxml, lyrics and media")
        })?),
    };
    let text = search_text(q.q.as_deref())?;
    let limit = posts::search::SEARCH_PAGE.keyset(q.before, q.limit).limit;
    let mut params = vec![("q", text)];
    if let Some(kind) = kind {
        params.push(("type", kind.as_str()));
    }
    let Some(words) = posts::search::SearchText::parse(text) else {
        return Ok(list_answer(&state, &req, Vec::new(), limit, &params));
    };
    let search = posts::search::Search { text: words.clone(), kind, before: q.before, limit };
    let found = match state.posts.remembered_found(&search, viewer) {
        Some(found) => found,
        None => {
            let posts = state.posts.clone();
            state.db.read(move |conn| posts.search_found_on(conn, &search, viewer)).await?
        }
    };
    let none = Vec::new();
    let body = state.rendered.list_with(&state, &found.posts, |p| {
        let snippets = posts::search::snippets(&words, p, found.sung.get(&p.id).unwrap_or(&none));
        let json = SearchMatchJson::new(found.every_word, snippets);
        format!("\"search\":{}", serde_json::to_string(&json).unwrap_or_else(|_| "null".into()))
    });
    Ok(list_written(&req, &found.posts, body, limit, &params))
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
    let p = session
        .answer(
            &state,
            Readers::Anyone,
            |viewer| state.posts.remembered_post(id, viewer),
            move |conn, viewer| posts.post_on(conn, id, viewer),
        )
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .content_type(actix_web::http::header::ContentType::json())
        .body(state.rendered.one(&state, &p)))
}
