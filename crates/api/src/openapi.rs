//! The OpenAPI document, generated from the handlers' annotations and served at `/openapi.json`.

use actix_web::{HttpResponse, get};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::routes;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        );
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "SelfSound API", description = "The wire contract of spec §3 and §7."),
    paths(
        routes::health::healthz,
        routes::auth::signup,
        routes::auth::verify,
        routes::auth::resend_verification,
        routes::auth::login,
        routes::auth::me,
        routes::auth::delete_me,
        routes::auth::logout,
        routes::auth::providers,
        routes::auth::google_login,
        routes::auth::google_callback,
        routes::profiles::my_profile,
        routes::profiles::update_profile,
        routes::profiles::upload_avatar,
        routes::profiles::profile,
        routes::profiles::stats,
        routes::profiles::stats_alias,
        routes::profiles::search,
        routes::profiles::listened,
        routes::profiles::listen,
        routes::profiles::unlisten,
        routes::profiles::blocked,
        routes::profiles::block_status,
        routes::profiles::block,
        routes::profiles::unblock,
        routes::media::media,
    ),
    modifiers(&BearerAuth)
)]
pub struct ApiDoc;

#[get("/openapi.json")]
pub async fn openapi_json() -> HttpResponse {
    HttpResponse::Ok().json(ApiDoc::openapi())
}
