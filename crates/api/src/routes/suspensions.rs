//! Suspending accounts (issue 16, beyond the spec): the admin panel's calls. Signed out 401,
//! not an admin 403; an unknown person 404; an admin (oneself included) or an account already
//! in that state 409. The writes count against the `suspend` limit.

use actix_web::http::header;
use actix_web::{HttpResponse, delete, get, post, web};
use chrono::{DateTime, Utc};
use moderation::Suspension;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use values::{ReportId, UserId};

use crate::error::{ApiError, Detail};
use crate::extract::{AdminUser, Limited};
use crate::limits::Suspending;
use crate::state::AppState;
use crate::wire::UserJson;

/// A standing suspension.
#[derive(Serialize, ToSchema)]
pub struct SuspensionJson {
    /// The suspension's id: the list's `before` cursor.
    id: String,
    user: UserJson,
    /// Why, as the admin wrote it.
    reason: String,
    /// The admin who suspended the account; null once their account is gone.
    #[schema(value_type = Option<String>)]
    admin_id: Option<UserId>,
    admin_login: String,
    suspended_at: DateTime<Utc>,
}

fn suspension_json(state: &AppState, s: Suspension) -> SuspensionJson {
    SuspensionJson {
        id: s.id.to_string(),
        user: UserJson::new(state, s.user),
        reason: s.reason,
        admin_id: s.admin_id,
        admin_login: s.admin_login,
        suspended_at: s.at.and_utc(),
    }
}

#[derive(Deserialize, ToSchema)]
pub struct SuspendJson {
    /// Why (1 to 500 characters): kept with the suspension and in the audit log.
    #[serde(default)]
    reason: Option<String>,
    /// The complaint this answers, if any: the audit entry is then listed with it. Its post or
    /// comment must be this person's.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    report_id: Option<ReportId>,
}

/// Whether a person is suspended, and the suspension when they are.
#[derive(Serialize, ToSchema)]
pub struct SuspensionStateJson {
    suspended: bool,
    suspension: Option<SuspensionJson>,
}

/// Suspends an account: every session of it ends at once (live streams included), it cannot
/// sign in (403 "This account is suspended"), and its posts and comments are hidden everywhere
/// until the suspension is lifted.
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(("user_id" = String, Path)),
    request_body = SuspendJson,
    responses((status = 200, body = SuspensionStateJson, description = "suspended"),
        (status = 400, body = Detail, description = "no reason, one over 500 characters, or a complaint about someone else"),
        (status = 403, body = Detail, description = "not an admin"),
        (status = 404, body = Detail, description = "no such person (or complaint)"),
        (status = 409, body = Detail, description = "an admin (oneself included), or already suspended"),
        (status = 429, body = Detail)))]
#[post("/admin/users/{user_id}/suspend")]
pub async fn suspend(
    state: web::Data<AppState>,
    user: Limited<Suspending>,
    id: web::Path<UserId>,
    body: web::Json<SuspendJson>,
) -> Result<web::Json<SuspensionStateJson>, ApiError> {
    let admin = moderation::Admin::check(user.0.id, &user.0.login, user.0.is_admin)?;
    let id = id.into_inner();
    state.app.suspend(&admin, id, body.reason.as_deref().unwrap_or_default(), body.report_id).await?;
    let suspension = state.app.suspension_of(&admin, id).await?;
    Ok(web::Json(SuspensionStateJson {
        suspended: suspension.is_some(),
        suspension: suspension.map(|s| suspension_json(&state, s)),
    }))
}

/// Lifts a suspension: the person may sign in again, and their posts and comments show again.
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(("user_id" = String, Path)),
    responses((status = 204, description = "lifted"), (status = 403, body = Detail, description = "not an admin"),
        (status = 404, body = Detail, description = "no such person"),
        (status = 409, body = Detail, description = "not suspended"), (status = 429, body = Detail)))]
#[delete("/admin/users/{user_id}/suspend")]
pub async fn lift(
    state: web::Data<AppState>,
    user: Limited<Suspending>,
    id: web::Path<UserId>,
) -> Result<HttpResponse, ApiError> {
    let admin = moderation::Admin::check(user.0.id, &user.0.login, user.0.is_admin)?;
    state.app.lift_suspension(&admin, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Whether a person is suspended (the complaint details ask before offering Suspend or Lift).
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(("user_id" = String, Path)),
    responses((status = 200, body = SuspensionStateJson), (status = 403, body = Detail, description = "not an admin"),
        (status = 404, body = Detail, description = "no such person")))]
#[get("/admin/users/{user_id}/suspend")]
pub async fn state_of(
    state: web::Data<AppState>,
    admin: AdminUser,
    id: web::Path<UserId>,
) -> Result<HttpResponse, ApiError> {
    let suspension = state.app.suspension_of(&admin.0, id.into_inner()).await?;
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-cache")).json(SuspensionStateJson {
        suspended: suspension.is_some(),
        suspension: suspension.map(|s| suspension_json(&state, s)),
    }))
}

#[derive(Deserialize, IntoParams)]
pub struct SuspendedQuery {
    /// 1 to 200 (default 50).
    limit: Option<i64>,
    /// The `id` of the last suspension of the previous page: older ones follow.
    before: Option<String>,
}

/// The suspended accounts, the latest suspended first, a page at a time (`limit`, `before`).
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(SuspendedQuery),
    responses((status = 200, body = [SuspensionJson]), (status = 400, body = Detail, description = "a bad cursor"),
        (status = 403, body = Detail, description = "not an admin")))]
#[get("/admin/users/suspended")]
pub async fn suspended(
    state: web::Data<AppState>,
    admin: AdminUser,
    q: web::Query<SuspendedQuery>,
) -> Result<HttpResponse, ApiError> {
    let before = match q.before.as_deref() {
        None | Some("") => None,
        Some(raw) => Some(
            raw.parse::<i64>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| ApiError::invalid("before must be the id of a suspension the list gave"))?,
        ),
    };
    let found = state.app.suspensions(&admin.0, before, q.limit).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(found.into_iter().map(|s| suspension_json(&state, s)).collect::<Vec<_>>()))
}

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(suspended).service(suspend).service(lift).service(state_of);
}
