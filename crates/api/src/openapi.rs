//! The OpenAPI document at `/openapi.json`. Handlers are registered once (`routes::configure`,
//! through utoipa-actix-web), which both routes them and lists them here. Each handler's
//! annotation names the answers particular to it; the answers every handler of a kind can give
//! are added by [`complete`] from the handler's shape, so a new handler cannot forget them:
//!
//! - every call: 500 and 503 (a fault of ours, a busy database);
//! - signed-in calls: 401; and unsafe ones 403 (a cookie write from a foreign origin);
//! - a JSON body: 413 (over 64 KiB), 415 (not JSON), 422 (not the right shape);
//! - a multipart body: 400, 413, 415;
//! - an id in the path: 404; query parameters: 400.

use actix_web::{HttpResponse, web};
use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, OpenApi as Document, Ref, RefOr, ResponseBuilder};
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::AppExt;

use crate::error::Detail;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, doc: &mut Document) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        );
    }
}

/// The document's frame; the paths come from the registered handlers.
#[derive(OpenApi)]
#[openapi(
    info(title = "SelfSound API", description = "The wire contract of spec §3 and §7. Errors are `{\"detail\": ...}`."),
    components(schemas(Detail)),
    modifiers(&BearerAuth)
)]
pub struct ApiDoc;

fn add(op: &mut Operation, status: u16, description: &str) {
    op.responses.responses.entry(status.to_string()).or_insert_with(|| {
        RefOr::T(
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    ContentBuilder::new().schema(Some(Ref::from_schema_name("Detail"))).build(),
                )
                .build(),
        )
    });
}

/// Adds the answers every handler of a kind can give (see the module's documentation).
pub fn complete(mut doc: Document) -> Document {
    for (path, item) in doc.paths.paths.iter_mut() {
        let operations = [
            (false, &mut item.get),
            (false, &mut item.head),
            (false, &mut item.options),
            (true, &mut item.post),
            (true, &mut item.put),
            (true, &mut item.patch),
            (true, &mut item.delete),
        ];
        for (unsafe_method, op) in operations {
            let Some(op) = op.as_mut() else { continue };
            add(op, 500, "Something went wrong on our side");
            add(op, 503, "The service is busy");
            if op.security.as_ref().is_some_and(|s| !s.is_empty()) {
                add(op, 401, "Not signed in, or the session has ended");
                if unsafe_method {
                    add(op, 403, "A cookie-authenticated write from a foreign origin");
                }
            }
            let body_types: Vec<String> = match &op.request_body {
                Some(RefOr::T(body)) => body.content.keys().cloned().collect(),
                _ => Vec::new(),
            };
            if body_types.iter().any(|t| t == "application/json") {
                add(op, 413, "The body is over 64 KiB");
                add(op, 415, "The body is not JSON");
                add(op, 422, "The body is not of the right shape");
            }
            if body_types.iter().any(|t| t == "multipart/form-data") {
                add(op, 400, "The form cannot be read, or lacks what it needs");
                add(op, 413, "A file or the whole body is over its limit");
                add(op, 415, "Not multipart/form-data, or a file of a kind not accepted");
            }
            if path.contains('{') {
                add(op, 404, "Nothing has this id");
            }
            if op
                .parameters
                .iter()
                .flatten()
                .any(|p| matches!(p, RefOr::T(p) if matches!(p.parameter_in, ParameterIn::Query)))
            {
                add(op, 400, "A query parameter is not valid");
            }
        }
    }
    doc
}

/// The finished document, without serving anything: what `selfsound openapi` prints and the
/// web app's wire types are generated from.
pub fn document() -> Document {
    let (_, doc) = actix_web::App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(crate::routes::configure)
        .split_for_parts();
    complete(doc)
}

/// Serves the finished document.
pub fn service(doc: Document) -> actix_web::Resource {
    let doc = web::Data::new(complete(doc));
    web::resource("/openapi.json")
        .app_data(doc)
        .get(|doc: web::Data<Document>| async move { HttpResponse::Ok().json(doc.get_ref()) })
}
