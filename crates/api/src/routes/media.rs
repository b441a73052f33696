//! Stored media: served with byte ranges, the sniffed content type, `nosniff`, and a day of
//! caching (keys are never reused, so an object never changes; but a deleted post's or avatar's
//! files must not live on in shared caches for long). And the default avatar.

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, get, web};
use futures_util::StreamExt;
use storage::{ByteRange, StorageError};

use crate::error::ApiError;
use crate::state::AppState;

/// Where the default avatar is served. The version in the name changes with the picture, so
/// the address can be cached for good.
pub const DEFAULT_AVATAR_PATH: &str = "/static/default-avatar-v1.svg";
const DEFAULT_AVATAR: &[u8] = include_bytes!("../../assets/default-avatar.svg");
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// People's media: a day at most, so what they delete leaves shared caches within a day.
const USER_MEDIA: &str = "public, max-age=86400";
const MEDIA_CSP: &str = "default-src 'none'; sandbox";

/// Types a browser would show as a page (with scripts, links, forms) rather than as media.
pub fn renders_as_document(content_type: &str) -> bool {
    let t = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    !(t.starts_with("image/") || t.starts_with("audio/") || t.starts_with("video/"))
        || t.contains("xml")
        || t.contains("svg")
        || t.contains("html")
}

/// The picture of everyone who has not chosen one.
#[utoipa::path(tag = "media",
    responses((status = 200, description = "an SVG image", content_type = "image/svg+xml")))]
#[get("/static/default-avatar-v1.svg")]
pub async fn default_avatar() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "image/svg+xml"))
        .insert_header((header::CACHE_CONTROL, IMMUTABLE))
        // An image, never a document: no script in it runs, even if opened directly.
        .insert_header((header::CONTENT_SECURITY_POLICY, "default-src 'none'; style-src 'unsafe-inline'; sandbox"))
        .body(DEFAULT_AVATAR)
}

#[utoipa::path(tag = "media", params(("key" = String, Path)),
    responses((status = 200, description = "the object"), (status = 206, description = "a byte range of it"),
        (status = 404, description = "no such object"), (status = 416, description = "the range is past the end")))]
#[get("/media/{key:.*}")]
pub async fn media(
    state: web::Data<AppState>,
    key: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let key = key.into_inner();
    if key.starts_with(storage::PRIVATE_PREFIX) {
        return Err(StorageError::NotFound.into());
    }
    let object = match read_object(&state, &key, &req).await? {
        Ok(object) => object,
        Err(unsatisfiable) => return Ok(unsatisfiable),
    };
    let content_type = media_validation::content_type_for(&key);
    // XML (MusicXML), SVG and HTML would be documents in a browser tab: download them.
    let disposition = renders_as_document(content_type).then(|| "attachment".to_owned());
    Ok(object_answer(object, content_type, USER_MEDIA, disposition))
}

/// Reads the stored object `key`, or the byte range `req` asks for: the object, or the 416
/// answer when the range is past its end.
pub async fn read_object(
    state: &AppState,
    key: &str,
    req: &HttpRequest,
) -> Result<Result<storage::Object, HttpResponse>, ApiError> {
    let range = req.headers().get(header::RANGE).and_then(|v| v.to_str().ok()).and_then(ByteRange::parse);
    match state.storage.get(key, range).await {
        Ok(o) => Ok(Ok(o)),
        Err(StorageError::RangeNotSatisfiable { size }) => {
            Ok(Err(HttpResponse::build(StatusCode::RANGE_NOT_SATISFIABLE)
                .insert_header((header::CONTENT_RANGE, format!("bytes */{size}")))
                .finish()))
        }
        Err(e) => Err(e.into()),
    }
}

/// The answer streaming `object`: 200, or 206 with its range; ranges accepted, `nosniff`'s
/// policy, and `disposition` when given.
pub fn object_answer(
    object: storage::Object,
    content_type: &str,
    cache: &str,
    disposition: Option<String>,
) -> HttpResponse {
    let mut res = HttpResponse::build(if object.partial { StatusCode::PARTIAL_CONTENT } else { StatusCode::OK });
    res.insert_header((header::CONTENT_TYPE, content_type.to_owned()))
        .insert_header((header::ACCEPT_RANGES, "bytes"))
        .insert_header((header::CACHE_CONTROL, cache.to_owned()))
        // Whatever an object is, opened on its own it runs nothing and reaches nothing.
        .insert_header((header::CONTENT_SECURITY_POLICY, MEDIA_CSP))
        .no_chunking(object.range.end - object.range.start);
    if let Some(disposition) = disposition {
        res.insert_header((header::CONTENT_DISPOSITION, disposition));
    }
    if object.partial {
        res.insert_header((
            header::CONTENT_RANGE,
            format!("bytes {}-{}/{}", object.range.start, object.range.end.saturating_sub(1), object.size),
        ));
    }
    res.streaming(object.body.map(|chunk| chunk.map_err(|e| actix_web::error::ErrorInternalServerError(e.to_string()))))
}
