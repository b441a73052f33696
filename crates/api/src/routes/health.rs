//! Liveness and readiness for load balancers and supervisors (beyond the spec).

use std::time::Duration;

use actix_web::{HttpResponse, get, web};
use serde::Serialize;

use crate::error::{ApiError, Detail};
use crate::state::AppState;

/// How long readiness waits for each of the database and the store: a probe must answer
/// within a balancer's timeout, whatever the pool's own wait (`PoolOptions`).
const READY_WITHIN: Duration = Duration::from_secs(2);

#[derive(Serialize, utoipa::ToSchema)]
pub struct Health {
    status: &'static str,
    database: &'static str,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct Ready {
    status: &'static str,
}

/// Liveness: 200 while the process serves requests. It does no I/O (a database outage is for
/// `/readyz` to report; restarting a process does not mend a database). `database` names the
/// configured backend.
#[utoipa::path(tag = "health", responses((status = 200, body = Health)))]
#[get("/healthz")]
pub async fn healthz(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let database = match state.db.backend() {
        db::Backend::Sqlite => "sqlite",
        db::Backend::Postgres => "postgres",
    };
    Ok(HttpResponse::Ok().insert_header(("Cache-Control", "no-store")).json(Health { status: "ok", database }))
}

/// Readiness: 200 when a pooled connection answers `SELECT 1` and the media store answers a
/// listing, each within 2 s; else 503 naming what does not answer.
#[utoipa::path(tag = "health",
    responses((status = 200, body = Ready),
        (status = 503, body = crate::error::Detail, description = "the database or the media store does not answer")))]
#[get("/readyz")]
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    let database = async {
        match tokio::time::timeout(READY_WITHIN, state.db.ping(READY_WITHIN)).await {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(values::error_chain(&e)),
            Err(_) => Some(format!("no answer within {READY_WITHIN:?}")),
        }
    };
    let storage = async {
        match tokio::time::timeout(READY_WITHIN, state.storage.check()).await {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(values::error_chain(&e)),
            Err(_) => Some(format!("no answer within {READY_WITHIN:?}")),
        }
    };
    let (database, storage) = tokio::join!(database, storage);
    let down = match (&database, &storage) {
        (None, None) => {
            return HttpResponse::Ok().insert_header(("Cache-Control", "no-store")).json(Ready { status: "ok" });
        }
        (Some(_), None) => "the database does not answer",
        (None, Some(_)) => "the media store does not answer",
        (Some(_), Some(_)) => "the database and the media store do not answer",
    };
    tracing::warn!(database = database.as_deref(), storage = storage.as_deref(), "not ready: {down}");
    HttpResponse::ServiceUnavailable()
        .insert_header(("Cache-Control", "no-store"))
        .json(Detail { detail: format!("Not ready: {down}") })
}
