//! Stored media: served with byte ranges, the sniffed content type, `nosniff`, and long-lived
//! caching (keys are never reused, so an object never changes). And the default avatar.

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
    let range = req.headers().get(header::RANGE).and_then(|v| v.to_str().ok()).and_then(ByteRange::parse);
    let object = match state.storage.get(&key, range).await {
        Ok(o) => o,
        Err(StorageError::RangeNotSatisfiable { size }) => {
            return Ok(HttpResponse::build(StatusCode::RANGE_NOT_SATISFIABLE)
                .insert_header((header::CONTENT_RANGE, format!("bytes */{size}")))
                .finish());
        }
        Err(e) => return Err(e.into()),
    };
    let mut res = HttpResponse::build(if object.partial { StatusCode::PARTIAL_CONTENT } else { StatusCode::OK });
    res.insert_header((header::CONTENT_TYPE, media_validation::content_type_for(&key)))
        .insert_header((header::ACCEPT_RANGES, "bytes"))
        .insert_header((header::CACHE_CONTROL, IMMUTABLE))
        .no_chunking(object.range.end - object.range.start);
    if object.partial {
        res.insert_header((
            header::CONTENT_RANGE,
            format!("bytes {}-{}/{}", object.range.start, object.range.end.saturating_sub(1), object.size),
        ));
    }
    Ok(res.streaming(
        object.body.map(|chunk| chunk.map_err(|e| actix_web::error::ErrorInternalServerError(e.to_string()))),
    ))
}
