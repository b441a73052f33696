//! Turning uploaded files into a post's payload: each file is judged by its bytes
//! (media-validation), its facts read (duration, waveform, tags, cover art, pixels, the score's
//! own title), and it is stored. The bytes decide every type, never the name or the client's
//! MIME type. Files arrive as temporary files (the multipart reader streamed them to disk), so
//! memory stays bounded whatever their size; heavy work runs on blocking threads, at most
//! [`PROCESSING_SLOTS`] at a time in a process.

use std::io::Read;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use base64::Engine;
use bytes::Bytes;
use media_validation::{self as mv, AudioKind, ImageKind, MediaError, MediaKind, ScoreFormat, limits};
use storage::Storage;
use tempfile::NamedTempFile;
use values::PostId;

use crate::error::UploadDefect;
use crate::input::{label, stem};
use crate::model::{AudioRow, MediaRow, ScoreRow};
use crate::{MEDIA_PREFIX, PostError};

/// How many uploads are analysed at once in one process (decoding audio, resizing images):
/// bounds CPU and memory under a burst of uploads.
pub const PROCESSING_SLOTS: usize = 2;
/// The width of the copy of an image feeds show.
const DISPLAY_WIDTH: u32 = 640;
/// Waveform bins sent to clients (docs/posts.md): 500 min,max pairs, 1 KB.
const WIRE_PEAK_BINS: usize = 500;
/// A poster frame that takes longer than this is given up (never blocking the post).
const POSTER_TIMEOUT: Duration = Duration::from_secs(20);

pub struct AudioUpload {
    /// The name the client gave (for messages and the default title only).
    pub file_name: String,
    pub file: NamedTempFile,
    pub title: Option<String>,
    pub artist: Option<String>,
}

pub struct MediaUpload {
    pub file_name: String,
    pub file: NamedTempFile,
}

pub struct ScoreUpload {
    pub file_name: String,
    pub file: NamedTempFile,
    pub title: Option<String>,
    pub composer: Option<String>,
}

/// Objects stored for a post being made; removed again unless the post is committed.
#[derive(Default)]
pub(crate) struct Stored {
    pub keys: Vec<String>,
}

impl Stored {
    async fn put(&mut self, storage: &Storage, key: String, bytes: Vec<u8>) -> Result<String, PostError> {
        storage.put(&key, Bytes::from(bytes)).await?;
        self.keys.push(key.clone());
        Ok(key)
    }

    async fn put_file(&mut self, storage: &Storage, key: String, path: &Path) -> Result<String, PostError> {
        storage.put_file(&key, path).await?;
        self.keys.push(key.clone());
        Ok(key)
    }

    /// Removes everything stored (best effort: what remains is found by the sweep).
    pub async fn discard(self, storage: &Storage) {
        remove_objects(storage, &self.keys).await;
    }
}

pub(crate) async fn remove_objects(storage: &Storage, keys: &[String]) {
    for key in keys {
        if let Err(e) = storage.delete(key).await {
            tracing::warn!(error = %values::error_chain(&e), %key, "could not remove a stored object");
        }
    }
}

/// A fresh storage key for the `n`th file of a post: never reused, so media can be cached
/// for good.
fn key(post: PostId, n: usize, suffix: &str, extension: &str) -> String {
    format!("posts/{post}/{n}-{:016x}{suffix}.{extension}", rand::random::<u64>())
}

/// The media URL path of a storage key.
pub fn url_of(key: &str) -> String {
    format!("{MEDIA_PREFIX}{key}")
}

fn head(path: &Path) -> Result<Vec<u8>, PostError> {
    let mut head = Vec::with_capacity(4096);
    std::fs::File::open(path)
        .and_then(|f| f.take(4096).read_to_end(&mut head))
        .map_err(|e| PostError::Processing(format!("reading an upload: {e}")))?;
    Ok(head)
}

fn read_all(path: &Path) -> Result<Vec<u8>, PostError> {
    std::fs::read(path).map_err(|e| PostError::Processing(format!("reading an upload: {e}")))
}

fn unreadable(file: &str, e: MediaError) -> PostError {
    let defect = match e {
        MediaError::Malformed => UploadDefect::Damaged,
        other => UploadDefect::Media(other),
    };
    PostError::Unreadable { file: file.to_owned(), defect }
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, PostError> + Send + 'static,
) -> Result<T, PostError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| PostError::Processing(format!("a processing task failed: {e}")))?
}

// --- Audio ---------------------------------------------------------------------------------

struct AudioFacts {
    kind: AudioKind,
    title: String,
    artist: String,
    duration_ms: i64,
    peaks: Option<String>,
    cover: Option<(ImageKind, Vec<u8>)>,
}

fn analyse_audio(path: &Path, upload: &AudioUpload) -> Result<AudioFacts, PostError> {
    let name = &upload.file_name;
    let kind = mv::sniff_audio(&head(path)?).ok_or_else(|| PostError::NotAudio(name.clone()))?;
    let file = std::fs::File::open(path).map_err(|e| PostError::Processing(format!("reading an upload: {e}")))?;
    let facts = mv::analyze_audio(file, kind).map_err(|e| unreadable(name, e))?;
    let peaks = facts.peaks.downsample(WIRE_PEAK_BINS);
    let peaks = if peaks.bins.is_empty() {
        None
    } else {
        Some(base64::engine::general_purpose::STANDARD.encode(peaks.to_bytes()))
    };
    // Cover art is published like any picture: without the metadata inside it.
    let cover = facts.cover.and_then(|c| mv::strip_image_metadata(&c.bytes, c.kind).ok().map(|clean| (c.kind, clean)));
    Ok(AudioFacts {
        kind,
        title: label(upload.title.as_deref()).or_else(|| label(facts.title.as_deref())).unwrap_or_else(|| stem(name)),
        artist: label(upload.artist.as_deref())
            .or_else(|| label(facts.artist.as_deref()))
            .unwrap_or_else(|| "Unknown Artist".to_owned()),
        duration_ms: (facts.duration_seconds * 1000.0).round() as i64,
        peaks,
        cover,
    })
}

pub(crate) async fn store_audio(
    storage: &Storage,
    slots: &tokio::sync::Semaphore,
    post: PostId,
    uploads: Vec<AudioUpload>,
    stored: &mut Stored,
) -> Result<Vec<AudioRow>, PostError> {
    let mut rows = Vec::with_capacity(uploads.len());
    for (n, upload) in uploads.into_iter().enumerate() {
        let path = upload.file.path().to_owned();
        let (facts, upload) = {
            let _slot = slots.acquire().await.map_err(|e| PostError::Processing(e.to_string()))?;
            // The upload (and its temporary file) moves to the blocking thread and back.
            blocking(move || Ok((analyse_audio(&path, &upload), upload))).await?
        };
        let facts = facts?;
        let file_key = stored.put_file(storage, key(post, n, "", facts.kind.extension()), upload.file.path()).await?;
        let cover_key = match facts.cover {
            Some((kind, bytes)) => Some(stored.put(storage, key(post, n, "-cover", kind.extension()), bytes).await?),
            None => None,
        };
        rows.push(AudioRow {
            post_id: post,
            position: n as i64,
            title: facts.title,
            artist: facts.artist,
            file_key,
            cover_key,
            duration_ms: facts.duration_ms,
            peaks: facts.peaks,
        });
    }
    Ok(rows)
}

// --- Pictures and videos -------------------------------------------------------------------

enum Prepared {
    Image { kind: ImageKind, clean: Vec<u8>, width: u32, height: u32, display: Option<Vec<u8>> },
    Video { extension: &'static str, poster: Option<Vec<u8>> },
}

fn prepare_media(path: &Path, name: &str, ffmpeg: bool) -> Result<Prepared, PostError> {
    let unsupported = || PostError::UnsupportedMedia(name.to_owned());
    let size = std::fs::metadata(path).map_err(|e| PostError::Processing(e.to_string()))?.len();
    match mv::sniff_media(&head(path)?).ok_or_else(unsupported)? {
        MediaKind::Image(_) => {
            if size > limits::IMAGE_MAX_BYTES {
                return Err(PostError::MediaTooLarge { limit_mb: limits::IMAGE_MAX_BYTES >> 20 });
            }
            let bytes = read_all(path)?;
            let facts =
                mv::image_facts(&bytes, limits::IMAGE_MAX_SIDE, limits::IMAGE_MAX_PIXELS).map_err(|e| match e {
                    MediaError::UnsupportedType => unsupported(),
                    other => unreadable(name, other),
                })?;
            let clean = mv::strip_image_metadata(&bytes, facts.kind).map_err(|e| unreadable(name, e))?;
            drop(bytes);
            let display = mv::display_copy(&clean, facts.kind, DISPLAY_WIDTH).map_err(|e| unreadable(name, e))?;
            // As shown: a photo whose EXIF orientation turns it a quarter is as wide as it is high.
            let (width, height) = facts.shown_size();
            Ok(Prepared::Image { kind: facts.kind, clean, width, height, display: display.map(|d| d.bytes) })
        }
        MediaKind::Video(kind) => {
            if size > limits::VIDEO_MAX_BYTES {
                return Err(PostError::MediaTooLarge { limit_mb: limits::VIDEO_MAX_BYTES >> 20 });
            }
            let poster = if ffmpeg { poster_frame(path) } else { None };
            Ok(Prepared::Video { extension: kind.extension(), poster })
        }
    }
}

/// A video's first frame as a JPEG about 640 px wide, made by ffmpeg when it is installed.
/// Best effort: any failure or a slow run gives none, and the page shows the video's own first
/// frame (`preload="metadata"`).
fn poster_frame(video: &Path) -> Option<Vec<u8>> {
    let out = tempfile::Builder::new().suffix(".jpg").tempfile().ok()?;
    let mut child = std::process::Command::new("ffmpeg")
        .args(["-nostdin", "-v", "error", "-y", "-i"])
        .arg(video)
        .args(["-frames:v", "1", "-vf", "scale='min(640,iw)':-2", "-q:v", "4", "-f", "image2", "-c:v", "mjpeg"])
        .arg(out.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let started = std::time::Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => break,
            Ok(Some(_)) | Err(_) => return None,
            Ok(None) if started.elapsed() > POSTER_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                tracing::warn!("ffmpeg took too long to make a poster frame; the video has none");
                return None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
    let bytes = std::fs::read(out.path()).ok()?;
    // Only what is really a JPEG is published.
    matches!(mv::image_facts(&bytes, limits::IMAGE_MAX_SIDE, limits::IMAGE_MAX_PIXELS), Ok(f) if f.kind == ImageKind::Jpeg)
        .then_some(bytes)
}

/// Whether ffmpeg can be run here (checked once; it is optional).
pub fn ffmpeg_available() -> bool {
    static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FOUND.get_or_init(|| {
        std::process::Command::new("ffmpeg")
            .arg("-version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

pub(crate) async fn store_media(
    storage: &Storage,
    slots: &tokio::sync::Semaphore,
    post: PostId,
    uploads: Vec<MediaUpload>,
    stored: &mut Stored,
) -> Result<Vec<MediaRow>, PostError> {
    let ffmpeg = ffmpeg_available();
    let mut rows = Vec::with_capacity(uploads.len());
    for (n, upload) in uploads.into_iter().enumerate() {
        let prepared = {
            let _slot = slots.acquire().await.map_err(|e| PostError::Processing(e.to_string()))?;
            let path = upload.file.path().to_owned();
            let name = upload.file_name.clone();
            blocking(move || prepare_media(&path, &name, ffmpeg)).await?
        };
        let id = values::new_raw_id();
        let row = match prepared {
            Prepared::Image { kind, clean, width, height, display } => {
                let file_key = stored.put(storage, key(post, n, "", kind.extension()), clean).await?;
                let display_key = match display {
                    Some(bytes) => Some(stored.put(storage, key(post, n, "-display", "jpg"), bytes).await?),
                    None => None,
                };
                MediaRow {
                    post_id: post,
                    position: n as i64,
                    id,
                    file_key,
                    file_type: "image".into(),
                    width: Some(i64::from(width)),
                    height: Some(i64::from(height)),
                    display_key,
                    poster_key: None,
                }
            }
            Prepared::Video { extension, poster } => {
                let file_key = stored.put_file(storage, key(post, n, "", extension), upload.file.path()).await?;
                let poster_key = match poster {
                    Some(bytes) => Some(stored.put(storage, key(post, n, "-poster", "jpg"), bytes).await?),
                    None => None,
                };
                MediaRow {
                    post_id: post,
                    position: n as i64,
                    id,
                    file_key,
                    file_type: "video".into(),
                    width: None,
                    height: None,
                    display_key: None,
                    poster_key,
                }
            }
        };
        rows.push(row);
    }
    Ok(rows)
}

// --- Sheet music ---------------------------------------------------------------------------

fn analyse_score(path: &Path, upload: &ScoreUpload) -> Result<(ScoreFormat, String, String), PostError> {
    let name = &upload.file_name;
    let not_score = || PostError::NotMusicXml(name.clone());
    let format = mv::sniff_score(&head(path)?).ok_or_else(not_score)?;
    let facts = match format {
        ScoreFormat::Xml => mv::parse_musicxml(&read_all(path)?),
        ScoreFormat::Mxl => {
            let file = std::fs::File::open(path).map_err(|e| PostError::Processing(e.to_string()))?;
            mv::parse_mxl(file)
        }
    }
    .map_err(|e| match e {
        MediaError::UnsupportedType | MediaError::NotMusicXml => not_score(),
        other => unreadable(name, other),
    })?;
    let title = label(upload.title.as_deref()).or_else(|| label(facts.title.as_deref())).unwrap_or_else(|| stem(name));
    let composer = label(upload.composer.as_deref())
        .or_else(|| label(facts.composer.as_deref()))
        .unwrap_or_else(|| "Unknown Composer".to_owned());
    Ok((format, title, composer))
}

pub(crate) async fn store_scores(
    storage: &Storage,
    slots: &tokio::sync::Semaphore,
    post: PostId,
    uploads: Vec<ScoreUpload>,
    stored: &mut Stored,
) -> Result<Vec<ScoreRow>, PostError> {
    let mut rows = Vec::with_capacity(uploads.len());
    for (n, upload) in uploads.into_iter().enumerate() {
        let path = upload.file.path().to_owned();
        let (result, upload) = {
            let _slot = slots.acquire().await.map_err(|e| PostError::Processing(e.to_string()))?;
            blocking(move || Ok((analyse_score(&path, &upload), upload))).await?
        };
        let (format, title, composer) = result?;
        let extension = match format {
            ScoreFormat::Xml => "musicxml",
            ScoreFormat::Mxl => "mxl",
        };
        let file_key = stored.put_file(storage, key(post, n, "", extension), upload.file.path()).await?;
        rows.push(ScoreRow { post_id: post, position: n as i64, title, composer, file_key });
    }
    Ok(rows)
}
