//! Discover (issue 31; docs/posts.md, "Discover"): trending this week, new and rising, tags
//! trending now, and, signed in, people to listen to.

use actix_web::http::header;
use actix_web::{HttpResponse, get, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::extract::ReadLimited;
use crate::limits::Discovering;
use crate::routes::posts::{Embedded, PostJson};
use crate::state::AppState;
use crate::wire::UserJson;

/// Posts each list shows.
const SHOWN: usize = 10;
/// People to listen to shown.
const PEOPLE: i64 = 8;

#[derive(Serialize, ToSchema)]
pub struct TrendingTagJson {
    tag: String,
    /// How many of the week's posts name it.
    posts: i64,
}

#[derive(Serialize, ToSchema)]
pub struct SuggestedJson {
    user: UserJson,
    /// How many of the people the viewer listens to listen to them.
    listened_by: i64,
}

#[derive(Serialize, ToSchema)]
pub struct DiscoverJson {
    /// By the week's plays, likes, reposts and comments, older activity counting less.
    trending: Vec<PostJson>,
    /// Posts of the last 48 hours by their early engagement.
    rising: Vec<PostJson>,
    tags: Vec<TrendingTagJson>,
    /// Signed in: people the people one listens to listen to; empty signed out.
    people: Vec<SuggestedJson>,
}

/// What Discover shows the viewer (signed in or not), what they may see of it only.
#[utoipa::path(tag = "posts", responses((status = 200, body = DiscoverJson)))]
#[get("/discover")]
pub async fn discover(state: web::Data<AppState>, viewer: ReadLimited<Discovering>) -> Result<HttpResponse, ApiError> {
    let viewer = viewer.0;
    let found = state.posts.discover(viewer, state.config.discover_every, SHOWN).await?;
    let people = match viewer {
        Some(me) => state.graph.suggestions(me, PEOPLE).await?,
        None => Vec::new(),
    };
    // The posts as the feeds write them (kept rendered): the shape of `DiscoverJson`.
    let json = DiscoverOut {
        trending: state.rendered.embedded_list(&state, &found.trending),
        rising: state.rendered.embedded_list(&state, &found.rising),
        tags: found.tags.into_iter().map(|(tag, posts)| TrendingTagJson { tag, posts }).collect(),
        people: people
            .into_iter()
            .map(|(card, n)| SuggestedJson { user: UserJson::new(&state, card), listened_by: n })
            .collect(),
    };
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-cache")).json(json))
}

/// [`DiscoverJson`] as it is written.
#[derive(Serialize)]
struct DiscoverOut {
    trending: Embedded,
    rising: Embedded,
    tags: Vec<TrendingTagJson>,
    people: Vec<SuggestedJson>,
}
