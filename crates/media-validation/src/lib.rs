//! Pure checks of uploaded bytes: what a file really is (by its bytes, never its name), its
//! facts (image size), and a copy without the metadata a person did not mean to publish.

pub mod image;

pub use image::{ImageFacts, ImageKind, sniff_image, strip_image_metadata};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MediaError {
    /// The bytes are not one of the accepted kinds.
    #[error("unsupported file type")]
    UnsupportedType,
    /// The bytes claim to be an accepted kind but cannot be read as one.
    #[error("the file is damaged or incomplete")]
    Malformed,
    #[error(
        "the image is {width}×{height} pixels; at most {max_side} pixels a side and {max_pixels} pixels in all are accepted"
    )]
    TooManyPixels { width: u32, height: u32, max_side: u32, max_pixels: u64 },
}

/// The content type to serve a stored object with, from the extension the server gave it after
/// sniffing its bytes. Unknown extensions are served as opaque bytes.
pub fn content_type_for(key: &str) -> &'static str {
    match key.rsplit('.').next().unwrap_or_default() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "mp4" => "video/mp4",
        "mov" => "video/quicktime",
        "webm" => "video/webm",
        "mkv" => "video/x-matroska",
        "avi" => "video/x-msvideo",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "ogg" => "audio/ogg",
        "flac" => "audio/flac",
        "m4a" => "audio/mp4",
        "musicxml" | "xml" => "application/vnd.recordare.musicxml+xml",
        "mxl" => "application/vnd.recordare.musicxml",
        _ => "application/octet-stream",
    }
}
