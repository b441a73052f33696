//! Media posts: 1 to 5 pictures and videos (spec §5 Media post). Pictures are published without
//! their metadata, with a ~640 px copy for feeds; videos with a poster frame when ffmpeg is
//! there to make one.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use db::DbConnection;
use db::diesel::prelude::*;
use db::schema::post_media;
use media_validation::{self as mv, ImageKind, MediaError, MediaKind, limits};
use tempfile::NamedTempFile;
use values::{PostId, PostKind};

use super::{KindRows, NewPayload, Processing, UploadKind, grouped};
use crate::PostError;
use crate::create::{Stored, head, key, read_all, unreadable};
use crate::model::Payload;

/// The width of the copy of an image feeds show.
const DISPLAY_WIDTH: u32 = 640;
/// A poster frame that takes longer than this is given up (never blocking the post).
const POSTER_TIMEOUT: Duration = Duration::from_secs(20);

values::text_enum! {
    /// What a media file is, as stored and sent (`file_type`).
    pub enum MediaType {
        Image = "image",
        Video = "video",
    }
}

/// One picture or video of a media post. Keys are storage keys (served under `/media/`).
#[derive(Debug, Clone, PartialEq)]
pub struct MediaFile {
    pub id: i64,
    pub file_key: String,
    pub media_type: MediaType,
    pub width: Option<i64>,
    pub height: Option<i64>,
    /// The ~640 px JPEG feeds show, when the original is larger.
    pub display_key: Option<String>,
    /// A video's first frame, when ffmpeg was there to make it.
    pub poster_key: Option<String>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = post_media)]
pub(crate) struct MediaRow {
    pub post_id: PostId,
    pub position: i64,
    pub id: i64,
    pub file_key: String,
    pub file_type: MediaType,
    pub width: Option<i64>,
    pub height: Option<i64>,
    pub display_key: Option<String>,
    pub poster_key: Option<String>,
}

impl From<MediaRow> for MediaFile {
    fn from(r: MediaRow) -> Self {
        MediaFile {
            id: r.id,
            file_key: r.file_key,
            media_type: r.file_type,
            width: r.width,
            height: r.height,
            display_key: r.display_key,
            poster_key: r.poster_key,
        }
    }
}

pub(super) const ROWS: KindRows = KindRows { kind: PostKind::Media, load, object_keys };

fn load(conn: &mut DbConnection, ids: &[PostId]) -> QueryResult<Vec<(PostId, Payload)>> {
    let rows: Vec<MediaRow> = post_media::table
        .filter(post_media::post_id.eq_any(ids))
        .order((post_media::post_id, post_media::position))
        .select(MediaRow::as_select())
        .load(conn)?;
    Ok(grouped(rows, |r| r.post_id, MediaFile::from, Payload::Media))
}

fn object_keys(conn: &mut DbConnection, ids: &[PostId]) -> QueryResult<Vec<String>> {
    let rows: Vec<(String, Option<String>, Option<String>)> = post_media::table
        .filter(post_media::post_id.eq_any(ids))
        .select((post_media::file_key, post_media::display_key, post_media::poster_key))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .flat_map(|(file, display, poster)| std::iter::once(file).chain(display).chain(poster))
        .collect())
}

impl NewPayload for Vec<MediaRow> {
    fn insert(&self, conn: &mut DbConnection) -> QueryResult<()> {
        // Row by row: the multi-backend connection has no batch insert (at most five rows here).
        for r in self {
            diesel::insert_into(post_media::table).values(r).execute(conn)?;
        }
        Ok(())
    }
}

/// One uploaded picture or video.
pub struct MediaUpload {
    pub file_name: String,
    pub file: NamedTempFile,
}

impl UploadKind for MediaUpload {
    const KIND: PostKind = PostKind::Media;
    const MAX_FILES: usize = limits::MEDIA_MAX_FILES;

    fn none() -> PostError {
        PostError::NoMedia
    }

    fn too_many() -> PostError {
        PostError::TooManyMedia
    }

    async fn store(
        ctx: &Processing,
        post: PostId,
        uploads: Vec<MediaUpload>,
        stored: &mut Stored,
    ) -> Result<Box<dyn NewPayload>, PostError> {
        let ffmpeg = ffmpeg_available();
        let storage = &ctx.storage;
        let mut rows = Vec::with_capacity(uploads.len());
        for (n, upload) in uploads.into_iter().enumerate() {
            let path = upload.file.path().to_owned();
            let name = upload.file_name.clone();
            let prepared = ctx.analyse(move || prepare(&path, &name, ffmpeg)).await?;
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
                        file_type: MediaType::Image,
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
                        file_type: MediaType::Video,
                        width: None,
                        height: None,
                        display_key: None,
                        poster_key,
                    }
                }
            };
            rows.push(row);
        }
        Ok(Box::new(rows))
    }
}

enum Prepared {
    Image { kind: ImageKind, clean: Vec<u8>, width: u32, height: u32, display: Option<Vec<u8>> },
    Video { extension: &'static str, poster: Option<Vec<u8>> },
}

fn prepare(path: &Path, name: &str, ffmpeg: bool) -> Result<Prepared, PostError> {
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
