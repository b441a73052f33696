//! The OpenAPI document at `/openapi.json`. Handlers are registered once (`routes::configure`,
//! through utoipa-actix-web), which both routes them and lists them here. Each handler's
//! annotation names the answers particular to it; the answers every handler of a kind can give
//! are added by [`complete`] from the handler's shape, so a new handler cannot forget them:
//!
//! - every call: 500 and 503 (a fault of ours, a busy database);
//! - signed-in calls: 401; and unsafe ones 403 (a cookie write from a foreign origin);
//! - a JSON body: 413 (over 64 KiB), 415 (not JSON), 422 (not the right shape);
//! - a multipart body: 400, 413, 415;
//! - an id in the path: 404; query parameters: 400;
//! - a call with a write limit ([`LIMITED`], checked against the handlers by a test), and an
//!   upload (a multipart body: every upload takes a slot first, `crate::upload_slots`): 429;
//!   every 429 has the `Retry-After` header.

use actix_web::{HttpResponse, web};
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, ObjectBuilder, OpenApi as Document, Ref, RefOr, ResponseBuilder, Type};
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

/// The calls with a write limit (`crate::limits`): method, path, and the limit's name in
/// `SELFSOUND_WRITE_LIMITS`. Each handler takes `Limited<_>`, `MaybeLimited<_>` or `ReadLimited<_>`;
/// `tests::every_limited_handler_and_only_those_is_listed` reads the handlers and fails when one
/// is missing here (or listed under another limit, or listed without a handler).
pub const LIMITED: &[(&str, &str, &str)] = &[
    ("POST", "/posts/audio", "post"),
    ("POST", "/posts/media", "post"),
    ("POST", "/posts/musicxml", "post"),
    ("POST", "/posts/lyrics", "post"),
    ("POST", "/posts/{post_id}/comments", "comment"),
    ("DELETE", "/posts/{post_id}/comments/{comment_id}", "comment_delete"),
    ("POST", "/posts/{post_id}/like", "like"),
    ("POST", "/posts/{post_id}/plays", "play"),
    ("POST", "/posts/{post_id}/repost", "repost"),
    ("POST", "/playlists", "playlist"),
    ("PATCH", "/playlists/{playlist_id}", "playlist"),
    ("DELETE", "/playlists/{playlist_id}", "playlist"),
    ("POST", "/playlists/{playlist_id}/items", "playlist"),
    ("PATCH", "/playlists/{playlist_id}/items/{item_id}", "playlist"),
    ("DELETE", "/playlists/{playlist_id}/items/{item_id}", "playlist"),
    ("PUT", "/posts/{post_id}/recording", "sync"),
    ("DELETE", "/posts/{post_id}/recording", "sync"),
    ("POST", "/authorization/two-factor/setup", "two_factor"),
    ("POST", "/authorization/two-factor/enable", "two_factor"),
    ("POST", "/authorization/two-factor/recovery-codes", "two_factor"),
    ("POST", "/authorization/two-factor/disable", "two_factor"),
    ("POST", "/authorization/passkeys/options", "passkey"),
    ("POST", "/authorization/passkeys", "passkey"),
    ("PATCH", "/authorization/passkeys/{id}", "passkey"),
    ("DELETE", "/authorization/passkeys/{id}", "passkey"),
    ("POST", "/authorization/passkey-sign-in/options", "passkey_sign_in"),
    ("POST", "/authorization/passkey-sign-in", "passkey_sign_in"),
    ("POST", "/account/push/devices", "push"),
    ("PATCH", "/account/push/devices/{id}", "push"),
    ("DELETE", "/account/push/devices/{id}", "push"),
    ("POST", "/account/push/devices/{id}/test", "push"),
    ("POST", "/account/data-export", "data_export"),
    ("GET", "/data-exports/{token}", "data_download"),
    ("PATCH", "/posts/{post_id}", "edit"),
    ("PATCH", "/posts/{post_id}/comments/{comment_id}", "edit"),
    ("POST", "/profiles/listening/{id}", "listen"),
    ("DELETE", "/profiles/listening/{id}", "listen"),
    ("POST", "/profiles/blocks/{id}", "block"),
    ("DELETE", "/profiles/blocks/{id}", "block"),
    ("POST", "/reports/post", "report"),
    ("POST", "/reports/comment", "report"),
    ("GET", "/posts/users/search", "search"),
    ("GET", "/posts/search", "music_search"),
    ("GET", "/discover", "discover"),
    ("GET", "/playlists/{playlist_id}", "playlist_read"),
    ("PATCH", "/profile/me", "profile"),
    ("PATCH", "/profile/me/avatar", "profile"),
    ("POST", "/admin/users/{user_id}/suspend", "suspend"),
    ("DELETE", "/admin/users/{user_id}/suspend", "suspend"),
    ("POST", "/admin/federation/blocked-domains", "suspend"),
    ("DELETE", "/admin/federation/blocked-domains/{domain}", "suspend"),
];

/// The 429 of a call with a write limit (`limit`, its name) or an upload (`upload`), or both.
fn throttled(limit: Option<&str>, upload: bool) -> String {
    let limit = limit.map(|name| {
        format!("Past this call's write limit (`{name}` in SELFSOUND_WRITE_LIMITS), per account or per client address")
    });
    let upload = upload.then(|| {
        format!(
            "{} uploads in flight (at most {} per account, and a bound per server)",
            if limit.is_some() { "or too many" } else { "Too many" },
            crate::upload_slots::PER_ACCOUNT
        )
    });
    let mut text = [limit, upload].into_iter().flatten().collect::<Vec<_>>().join(", ");
    text.push_str("; `Retry-After` says when to try again");
    text
}

/// Every 429 carries `Retry-After` (`crate::error`) and says what it is: `why` when its handler's
/// annotation does not.
fn retry_after(op: &mut Operation, why: &str) {
    let Some(RefOr::T(response)) = op.responses.responses.get_mut("429") else { return };
    if response.description.is_empty() {
        response.description = why.into();
    }
    response.headers.entry("Retry-After".into()).or_insert_with(|| {
        RefOr::T(
            HeaderBuilder::new()
                .schema(Some(ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(1))))
                .description(Some("Seconds to wait before trying again"))
                .build(),
        )
    });
}

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
            ("GET", false, &mut item.get),
            ("HEAD", false, &mut item.head),
            ("OPTIONS", false, &mut item.options),
            ("POST", true, &mut item.post),
            ("PUT", true, &mut item.put),
            ("PATCH", true, &mut item.patch),
            ("DELETE", true, &mut item.delete),
        ];
        for (method, unsafe_method, op) in operations {
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
            let limit = LIMITED.iter().find(|(m, p, _)| *m == method && p == path).map(|(_, _, name)| *name);
            let upload = body_types.iter().any(|t| t == "multipart/form-data");
            let why = if limit.is_some() || upload {
                let why = throttled(limit, upload);
                add(op, 429, &why);
                why
            } else {
                "Too many attempts in a short time; `Retry-After` says when to try again".into()
            };
            retry_after(op, &why);
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::limits::Action;

    /// A handler as its source says: method and path (from its actix attribute) and the marker of
    /// its `Limited<_>`, `MaybeLimited<_>` or `ReadLimited<_>` argument, if it has one.
    #[derive(Debug)]
    struct Handler {
        method: String,
        path: String,
        marker: Option<String>,
    }

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// Every function under `src/routes` annotated `#[utoipa::path]`, read from its source.
    fn handlers() -> Vec<Handler> {
        let mut files = Vec::new();
        rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/routes"), &mut files);
        let mut found = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            for (at, _) in text.match_indices("#[utoipa::path") {
                let rest = &text[at..];
                let fn_at = rest
                    .match_indices("fn ")
                    .map(|(i, _)| i)
                    .find(|i| rest[..*i].ends_with([' ', '\n']))
                    .unwrap_or_else(|| panic!("{}: no fn after #[utoipa::path", file.display()));
                let attributes = &rest[..fn_at];
                let routes: Vec<(String, String)> = ["get", "post", "put", "patch", "delete"]
                    .into_iter()
                    .filter_map(|m| {
                        let (_, after) = attributes.split_once(&format!("#[{m}(\""))?;
                        Some((m.to_uppercase(), after.split('"').next()?.to_owned()))
                    })
                    .collect();
                let [(method, path)] = routes.as_slice() else {
                    panic!("{}: a handler with {} actix route attributes", file.display(), routes.len())
                };
                let signature = &rest[fn_at..];
                let open = signature.find('(').unwrap_or(0);
                let mut depth = 0;
                let close = signature[open..]
                    .char_indices()
                    .find(|(_, c)| {
                        depth += match c {
                            '(' => 1,
                            ')' => -1,
                            _ => 0,
                        };
                        depth == 0
                    })
                    .map_or(signature.len(), |(i, _)| open + i);
                let marker = signature[open..close]
                    .split_once("Limited<")
                    .map(|(_, after)| after.split('>').next().unwrap_or_default().trim().to_owned());
                found.push(Handler { method: method.clone(), path: without_patterns(path), marker });
            }
        }
        found
    }

    /// An actix path as the document writes it: `{key:.*}` is `{key}`.
    fn without_patterns(path: &str) -> String {
        let mut out = String::new();
        let mut in_pattern = false;
        for c in path.chars() {
            match c {
                ':' if out.rfind('{') > out.rfind('}') => in_pattern = true,
                '}' => {
                    in_pattern = false;
                    out.push(c);
                }
                _ if in_pattern => {}
                _ => out.push(c),
            }
        }
        out
    }

    /// The limit's name of each marker, from `limited_calls!` in limits.rs.
    fn limit_of(marker: &str) -> Option<&'static str> {
        let limits = include_str!("limits.rs");
        let (_, list) = limits.split_once("limited_calls!(\n")?;
        let (list, _) = list.split_once(");")?;
        let variant = list.split(',').find_map(|pair| {
            let (m, a) = pair.split_once("=>")?;
            (m.trim() == marker).then(|| a.trim().to_owned())
        })?;
        Action::ALL.into_iter().find(|a| format!("{a:?}") == variant).map(Action::name)
    }

    fn operations(doc: &Document) -> Vec<(String, String, &Operation)> {
        let mut all = Vec::new();
        for (path, item) in &doc.paths.paths {
            let ops = [("GET", &item.get), ("POST", &item.post), ("PUT", &item.put), ("PATCH", &item.patch)];
            for (method, op) in ops.into_iter().chain([("DELETE", &item.delete)]) {
                if let Some(op) = op {
                    all.push((method.to_owned(), path.clone(), op));
                }
            }
        }
        all
    }

    #[test]
    fn the_source_reader_finds_every_handler_of_the_document() {
        let doc = document();
        let read: BTreeSet<(String, String)> = handlers().into_iter().map(|h| (h.method, h.path)).collect();
        let listed: BTreeSet<(String, String)> = operations(&doc).into_iter().map(|(m, p, _)| (m, p)).collect();
        assert_eq!(read, listed, "the handlers read from src/routes are the document's operations");
    }

    #[test]
    fn every_limited_handler_and_only_those_is_listed() {
        let expected: BTreeSet<(String, String, String)> = handlers()
            .into_iter()
            .filter_map(|h| {
                let marker = h.marker?;
                let limit = limit_of(&marker).unwrap_or_else(|| {
                    panic!("{} {}: {marker} is not in limits.rs's limited_calls!", h.method, h.path)
                });
                Some((h.method, h.path, limit.to_owned()))
            })
            .collect();
        let listed: BTreeSet<(String, String, String)> =
            LIMITED.iter().map(|(m, p, l)| ((*m).to_owned(), (*p).to_owned(), (*l).to_owned())).collect();
        let missing: Vec<_> = expected.difference(&listed).collect();
        let extra: Vec<_> = listed.difference(&expected).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "openapi::LIMITED must list every handler taking a Limited<_> with its limit's name; \
             add {missing:?}, remove {extra:?}"
        );
        assert_eq!(LIMITED.len(), expected.len(), "each call listed once");
    }

    #[test]
    fn every_limited_call_and_upload_answers_429_with_retry_after() {
        let doc = document();
        let mut with_429 = 0;
        for (method, path, op) in operations(&doc) {
            let limited = LIMITED.iter().any(|(m, p, _)| *m == method && *p == path);
            let upload = matches!(&op.request_body, Some(RefOr::T(b)) if b.content.contains_key("multipart/form-data"));
            let Some(RefOr::T(response)) = op.responses.responses.get("429") else {
                assert!(!limited && !upload, "{method} {path} has a limit or takes an upload slot: it lists a 429");
                continue;
            };
            with_429 += 1;
            assert!(!response.description.is_empty(), "{method} {path}: its 429 says what it is");
            assert!(response.headers.contains_key("Retry-After"), "{method} {path}: its 429 says Retry-After");
            let schema = response.content.get("application/json").and_then(|c| match c {
                RefOr::T(c) => c.schema.clone(),
                RefOr::Ref(_) => None,
            });
            assert!(
                matches!(schema, Some(RefOr::Ref(r)) if r.ref_location.ends_with("/Detail")),
                "{method} {path}: its 429 is a Detail"
            );
        }
        assert!(with_429 >= LIMITED.len());
    }
}
