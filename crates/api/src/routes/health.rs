//! Liveness and readiness for load balancers.

use actix_web::{HttpResponse, get, web};
use serde::Serialize;

use crate::error::ApiError;
use crate::state::AppState;

#[derive(Serialize, utoipa::ToSchema)]
pub struct Health {
    status: &'static str,
    database: &'static str,
}

/// Answers 200 when the process runs and its database answers.
#[utoipa::path(tag = "health",
    responses((status = 200, body = Health), (status = 503, body = crate::error::Detail, description = "the database does not answer")))]
#[get("/healthz")]
pub async fn healthz(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    state.db.ping().await.map_err(|_| ApiError::new(values::ErrorKind::Unavailable, "The database does not answer"))?;
    let database = match state.db.backend() {
        db::Backend::Sqlite => "sqlite",
        db::Backend::Postgres => "postgres",
    };
    Ok(HttpResponse::Ok().insert_header(("Cache-Control", "no-store")).json(Health { status: "ok", database }))
}
