//! Serves the built web app under `/app/`: files as they are, every other path as `index.html`
//! (history routing) — a post's or a person's with its link preview's tags (`crate::previews`)
//! —, hashed assets cached for a year, the page itself never cached, and a strict
//! Content-Security-Policy on all of it.

use std::path::{Path, PathBuf};

use actix_files::{Files, NamedFile};
use actix_web::dev::{ServiceRequest, ServiceResponse, fn_service};
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::from_fn;
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};

use crate::extract::MaybeUser;
use crate::previews::{self, Previewed};
use crate::state::AppState;

pub const BASE: &str = "/app";

/// The web app runs only its own scripts and styles, talks only to us, and is never framed.
/// Images may come from https (Google profile pictures), media from us or blobs. WebAssembly
/// may be compiled (not JavaScript evaluated): the sampled instruments' Ogg Vorbis decoder is
/// WebAssembly, carried in our own worklet script.
pub const APP_CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
    img-src 'self' data: blob: https:; media-src 'self' blob:; connect-src 'self'; font-src 'self'; \
    object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

async fn cache_headers(
    req: ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    let immutable = req.path().starts_with("/app/assets/");
    // The sampled instruments' SoundFonts are Ogg Vorbis inside: compressing 16 MB again on the
    // fly would cost seconds of CPU and save nothing.
    let compressed = req.path().ends_with(".sf3");
    let mut res = next.call(req).await?;
    let value = if immutable { "public, max-age=31536000, immutable" } else { "no-cache" };
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    if compressed && res.status().is_success() {
        res.headers_mut().insert(header::CONTENT_ENCODING, HeaderValue::from_static("identity"));
    }
    res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(APP_CSP));
    Ok(res)
}

/// The page of a post or a person with its link preview's tags (`crate::previews`), as the one
/// asking may see it; none for any other path, or what they may not see.
async fn with_preview(req: &HttpRequest, index: &Path) -> Option<HttpResponse> {
    let page = Previewed::of_path(req.path().strip_prefix(BASE)?)?;
    let state = req.app_data::<web::Data<AppState>>()?;
    let viewer = MaybeUser::extract(req).await.ok()?.0.map(|u| u.id);
    let tags = previews::tags(state, page, viewer).await?;
    let html = tokio::fs::read_to_string(index).await.ok()?;
    Some(HttpResponse::Ok().content_type("text/html; charset=utf-8").body(previews::into_page(&html, &tags)))
}

pub fn configure(cfg: &mut web::ServiceConfig, web_dir: &Path) {
    let index = web_dir.join("index.html");
    if !index.is_file() {
        tracing::warn!(dir = %web_dir.display(), "the web app is not built; /app/ will say so");
        let dir = web_dir.display().to_string();
        let not_built = move || {
            let dir = dir.clone();
            async move {
                HttpResponse::ServiceUnavailable().content_type("text/plain; charset=utf-8").body(format!(
                    "The SelfSound web app is not built (no index.html in {dir}).\n\
                     Run `make run`, or `npm run build` in frontend/, then reload."
                ))
            }
        };
        cfg.route(BASE, web::get().to(not_built.clone())).route("/app/{tail:.*}", web::get().to(not_built));
        return;
    }
    let index: PathBuf = index;
    cfg.service(web::scope(BASE).wrap(from_fn(cache_headers)).service(
        Files::new("", web_dir).index_file("index.html").redirect_to_slash_directory().use_etag(true).default_handler(
            fn_service(move |req: ServiceRequest| {
                let index = index.clone();
                async move {
                    let (req, _) = req.into_parts();
                    if let Some(page) = with_preview(&req, &index).await {
                        return Ok(ServiceResponse::new(req, page));
                    }
                    let file = NamedFile::open_async(&index).await?;
                    Ok(ServiceResponse::new(req.clone(), file.into_response(&req)))
                }
            }),
        ),
    ));
}
