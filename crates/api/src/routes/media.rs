//! Stored media: served with byte ranges, the sniffed content type, `nosniff`, and long-lived
//! caching (keys are never reused, so an object never changes).

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, get, web};
use futures_util::StreamExt;
use storage::{ByteRange, StorageError};

use crate::error::ApiError;
use crate::state::AppState;

#[utoipa::path(get, path = "/media/{key}", tag = "media", params(("key" = String, Path)),
    responses((status = 200, description = "the object"), (status = 206, description = "a byte range of it"), (status = 404), (status = 416)))]
#[get("/media/{key:.*}")]
pub async fn media(
    state: web::Data<AppState>,
    key: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let key = key.into_inner();
    let range = req.headers().get(header::RANGE).and_then(|v| v.to_str().ok()).and_then(ByteRange::parse);
    let object = match state.profiles.storage().get(&key, range).await {
        Ok(o) => o,
        Err(StorageError::NotFound | StorageError::InvalidKey) => return Err(ApiError::NotFound("Not found".into())),
        Err(StorageError::RangeNotSatisfiable { size }) => {
            return Ok(HttpResponse::build(StatusCode::RANGE_NOT_SATISFIABLE)
                .insert_header((header::CONTENT_RANGE, format!("bytes */{size}")))
                .finish());
        }
        Err(e) => return Err(ApiError::Unavailable(format!("Media storage: {e}"))),
    };
    let mut res = HttpResponse::build(if object.partial { StatusCode::PARTIAL_CONTENT } else { StatusCode::OK });
    res.insert_header((header::CONTENT_TYPE, media_validation::content_type_for(&key)))
        .insert_header((header::ACCEPT_RANGES, "bytes"))
        .insert_header((header::CACHE_CONTROL, "public, max-age=31536000, immutable"))
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
