//! A score that follows a recording (issue 35; docs/posts.md, "A score that follows a
//! recording"): a sheet-music post's score linked to an audio post's track with a sync map, read
//! from either end. Every write counts against the `sync` limit.

use actix_web::http::header;
use actix_web::{HttpResponse, delete, get, put, web};
use chrono::{DateTime, Utc};
use posts::syncs::{Linked, ScoreSync, SyncInput, SyncPoint};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use values::PostId;

use crate::error::{ApiError, Detail};
use crate::extract::{Limited, MaybeUser};
use crate::limits::Syncing;
use crate::routes::posts::{Embedded, PostJson};
use crate::state::AppState;

/// A bar of the performance and when the recording reaches it.
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SyncPointJson {
    /// The bar as played, from 0: the score's bars in the order a performance plays them, each
    /// repeat played out.
    bar: i64,
    /// Milliseconds into the track where the bar starts.
    at_ms: i64,
}

/// What `PUT /posts/{post_id}/recording` takes.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SyncEditJson {
    /// Which score of the post, from 0; 0 when left out.
    #[serde(default)]
    score: i64,
    /// An audio post the author may see: theirs or anyone's.
    #[schema(value_type = String)]
    recording_id: PostId,
    /// Which of its tracks, from 0; 0 when left out.
    #[serde(default)]
    track: i64,
    /// 2 to 1500 points, bars and times both increasing, every time within the track.
    points: Vec<SyncPointJson>,
}

/// A score's link to a recording.
#[derive(Serialize, ToSchema)]
pub struct SyncJson {
    /// The sheet-music post.
    #[schema(value_type = String)]
    post_id: PostId,
    score: i64,
    /// The audio post.
    #[schema(value_type = String)]
    recording_id: PostId,
    track: i64,
    points: Vec<SyncPointJson>,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
}

impl From<&ScoreSync> for SyncJson {
    fn from(s: &ScoreSync) -> Self {
        SyncJson {
            post_id: s.post_id,
            score: s.score,
            recording_id: s.recording,
            track: s.track,
            points: s.points.iter().map(|p| SyncPointJson { bar: p.bar, at_ms: p.at_ms }).collect(),
            created_at: s.created_at.and_utc(),
            updated_at: s.updated_at.and_utc(),
        }
    }
}

/// A link with the post at its other end: the recording (from the score) or the score (from
/// the recording), as feeds show posts.
#[derive(Serialize, ToSchema)]
pub struct LinkedJson {
    #[serde(flatten)]
    sync: SyncJson,
    post: PostJson,
}

/// [`LinkedJson`] as it is written: its post as the feeds write it (kept rendered).
#[derive(Serialize)]
struct LinkedOut {
    #[serde(flatten)]
    sync: SyncJson,
    post: Embedded,
}

fn linked_json(state: &AppState, l: &Linked) -> LinkedOut {
    LinkedOut { sync: SyncJson::from(&l.sync), post: state.rendered.embedded(state, &l.post) }
}

#[derive(Deserialize, IntoParams)]
pub struct ScoreQuery {
    /// Which score of the post, from 0 (default 0).
    #[serde(default)]
    score: i64,
}

/// Links a score of one's sheet-music post to a track of an audio post, with the sync map
/// tapped along it, in place of the link it had.
#[utoipa::path(tag = "posts", security(("bearer" = [])), params(("post_id" = String, Path)), request_body = SyncEditJson,
    responses((status = 200, body = SyncJson),
        (status = 400, body = Detail, description = "not a score, not audio, no such track, a map that does not go forward within the track"),
        (status = 403, body = Detail, description = "someone else's score"), (status = 404, body = Detail, description = "no such post or recording")))]
#[put("/posts/{post_id}/recording")]
pub async fn link_recording(
    state: web::Data<AppState>,
    user: Limited<Syncing>,
    post_id: web::Path<PostId>,
    body: web::Json<SyncEditJson>,
) -> Result<web::Json<SyncJson>, ApiError> {
    let body = body.into_inner();
    let input = SyncInput {
        recording: body.recording_id,
        track: body.track,
        points: body.points.into_iter().map(|p| SyncPoint { bar: p.bar, at_ms: p.at_ms }).collect(),
    };
    let made = state.posts.link_recording(user.0.id, post_id.into_inner(), body.score, input).await?;
    Ok(web::Json(SyncJson::from(&made)))
}

/// Takes the recording away from a score of one's post.
#[utoipa::path(tag = "posts", security(("bearer" = [])), params(("post_id" = String, Path), ScoreQuery),
    responses((status = 204), (status = 403, body = Detail, description = "someone else's score"),
        (status = 404, body = Detail, description = "no such post, or no recording")))]
#[delete("/posts/{post_id}/recording")]
pub async fn unlink_recording(
    state: web::Data<AppState>,
    user: Limited<Syncing>,
    post_id: web::Path<PostId>,
    q: web::Query<ScoreQuery>,
) -> Result<HttpResponse, ApiError> {
    state.posts.unlink_recording(user.0.id, post_id.into_inner(), q.score).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The recordings a sheet-music post's scores follow (signed in or not), by score, each with its
/// sync map and the audio post; none for a score without one the viewer may see, or a post of
/// another kind.
#[utoipa::path(tag = "posts", params(("post_id" = String, Path)),
    responses((status = 200, body = [LinkedJson]), (status = 404, body = Detail)))]
#[get("/posts/{post_id}/recordings")]
pub async fn recordings(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    post_id: web::Path<PostId>,
) -> Result<HttpResponse, ApiError> {
    let found = state.posts.recordings_of(post_id.into_inner(), viewer.0.map(|u| u.id)).await?;
    Ok(linked_list(&state, &found))
}

/// The scores following an audio post's tracks (signed in or not), the newest 20 links, each
/// with its sync map and the sheet-music post; none for a post of another kind.
#[utoipa::path(tag = "posts", params(("post_id" = String, Path)),
    responses((status = 200, body = [LinkedJson]), (status = 404, body = Detail)))]
#[get("/posts/{post_id}/scores")]
pub async fn scores_following(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    post_id: web::Path<PostId>,
) -> Result<HttpResponse, ApiError> {
    let found = state.posts.scores_following(post_id.into_inner(), viewer.0.map(|u| u.id)).await?;
    Ok(linked_list(&state, &found))
}

fn linked_list(state: &AppState, found: &[Linked]) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(found.iter().map(|l| linked_json(state, l)).collect::<Vec<_>>())
}
