//! Play counts (issue 31; docs/posts.md, "Plays"): the player tells of a play heard long enough
//! to count, and an author reads their tracks' plays.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use db::PageRule;
use posts::plays::{Listener, TrackPlays};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use values::{PostId, PostKind};

use crate::error::{ApiError, Detail};
use crate::extract::{AuthUser, Client, MaybeLimited};
use crate::limits::Playing;
use crate::state::AppState;

/// What `POST /posts/{post_id}/plays` takes: which track or score was heard.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayJson {
    /// The track's (or score's) place in the post, from 0; 0 when left out.
    #[serde(default)]
    track: i64,
}

#[derive(Serialize, ToSchema)]
pub struct PlayedJson {
    /// Whether this play was counted: not when the same listener's play of the track was
    /// counted within the hour, nor an author's play of their own track.
    counted: bool,
    /// The post's plays, all its tracks or scores together.
    plays_count: i64,
}

/// Tells that a track (or a score's playback) has sounded for 30 s, or to its end if shorter.
/// Counted at most once per listener, track and hour: the person signed in, or the client
/// address signed out.
#[utoipa::path(tag = "posts", params(("post_id" = String, Path)), request_body = PlayJson,
    responses((status = 200, body = PlayedJson),
        (status = 400, body = Detail, description = "not an audio or sheet music post, or no such track"),
        (status = 404, body = Detail)))]
#[post("/posts/{post_id}/plays")]
pub async fn play(
    state: web::Data<AppState>,
    viewer: MaybeLimited<Playing>,
    client: Client,
    post_id: web::Path<PostId>,
    body: web::Json<PlayJson>,
) -> Result<web::Json<PlayedJson>, ApiError> {
    let listener = match viewer.0 {
        Some(me) => Listener::Person(me.id),
        None => Listener::Client(client.0.addr),
    };
    let played = state.posts.count_play(listener, post_id.into_inner(), body.track).await?;
    Ok(web::Json(PlayedJson { counted: played.counted, plays_count: played.plays_count }))
}

/// The plays of one's own tracks: 10 posts' tracks a page by default, at most 50.
const PLAYS_PAGE: PageRule = PageRule::new(10, 50);

#[derive(Deserialize, IntoParams)]
pub struct PlaysQuery {
    /// Posts a page, 1 to 50 (default 10); each brings all its tracks or scores.
    limit: Option<i64>,
    /// Tracks of posts older than this post id.
    #[param(value_type = Option<String>)]
    before: Option<PostId>,
}

/// A track or score of one's own, with its plays.
#[derive(Serialize, ToSchema)]
pub struct TrackPlaysJson {
    #[schema(value_type = String)]
    post_id: PostId,
    /// audio or musicxml
    #[serde(rename = "type")]
    #[schema(value_type = String)]
    kind: PostKind,
    /// Its place in the post, from 0.
    track: i64,
    title: String,
    plays_count: i64,
}

impl From<TrackPlays> for TrackPlaysJson {
    fn from(t: TrackPlays) -> Self {
        TrackPlaysJson {
            post_id: t.post_id,
            kind: t.kind,
            track: t.position,
            title: t.title,
            plays_count: t.plays_count,
        }
    }
}

/// The signed-in person's tracks and scores with their plays, newest post first and each post's
/// in order; when the page is full, `Link: <...>; rel="next"` says where the next one starts.
#[utoipa::path(tag = "posts", security(("bearer" = [])), params(PlaysQuery),
    responses((status = 200, body = [TrackPlaysJson], headers(("Link" = String, description = "rel=\"next\" when the page is full"))),
        (status = 401, body = Detail)))]
#[get("/profile/me/plays")]
pub async fn own_plays(
    state: web::Data<AppState>,
    req: HttpRequest,
    user: AuthUser,
    q: web::Query<PlaysQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = PLAYS_PAGE.keyset(q.before, q.limit);
    let (tracks, next) = state.posts.own_plays(user.0.id, page).await?;
    let mut res = HttpResponse::Ok();
    res.insert_header((header::CACHE_CONTROL, "no-cache"));
    if let Some(last) = next {
        res.insert_header((header::LINK, format!("<{}?limit={}&before={last}>; rel=\"next\"", req.path(), page.limit)));
    }
    let json: Vec<TrackPlaysJson> = tracks.into_iter().map(TrackPlaysJson::from).collect();
    Ok(res.json(json))
}
