//! Media posts: 1 to 5 pictures and videos (spec §5 Media post). Pictures are published without
//! their metadata, with a ~640 px copy for feeds; videos remuxed by ffmpeg without theirs, with
//! their first frame as a poster (a video whose frames do not decode is refused).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use db::DbConnection;
use db::diesel::prelude::*;
use db::schema::post_media;
use media_validation::{self as mv, ImageKind, MediaError, MediaKind, VideoKind, limits};
use tempfile::{NamedTempFile, TempDir};
use values::{PostId, PostKind};

use super::{KindRows, NewPayload, Processing, UploadKind, grouped};
use crate::create::{Stored, head, key, read_all, unreadable};
use crate::ffmpeg::{Ffmpeg, MAX_PIXELS, RunError};
use crate::model::Payload;
use crate::{PostError, UploadDefect};

/// The width of the copy of an image feeds show.
const DISPLAY_WIDTH: u32 = 640;
/// Copying a video's streams into a clean file reads and writes at most 100 MB: seconds. A
/// file that takes longer is refused.
const REMUX_TIMEOUT: Duration = Duration::from_secs(60);
/// Decoding the first frame: well under a second for any real video.
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

pub(super) const ROWS: KindRows = KindRows { kind: PostKind::Media, load, object_keys, stored: &STORED };

/// The picture or video, its display copy, the video's poster.
const STORED: [db::StoredColumn; 3] = [
    db::StoredColumn {
        column: "post_media.file_key",
        keys: |c| post_media::table.select(post_media::file_key).distinct().load(c),
    },
    db::StoredColumn {
        column: "post_media.display_key",
        keys: |c| {
            post_media::table
                .filter(post_media::display_key.is_not_null())
                .select(post_media::display_key.assume_not_null())
                .distinct()
                .load(c)
        },
    },
    db::StoredColumn {
        column: "post_media.poster_key",
        keys: |c| {
            post_media::table
                .filter(post_media::poster_key.is_not_null())
                .select(post_media::poster_key.assume_not_null())
                .distinct()
                .load(c)
        },
    },
];

fn load(conn: &mut DbConnection, ids: &[PostId]) -> QueryResult<Vec<(PostId, Payload)>> {
    let rows: Vec<MediaRow> = post_media::table
        .filter(db::one_of(post_media::post_id, ids.iter().map(|id| id.get())))
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
        let storage = &ctx.storage;
        let mut rows = Vec::with_capacity(uploads.len());
        for (n, upload) in uploads.into_iter().enumerate() {
            let ffmpeg = ctx.ffmpeg.clone();
            // The upload (and its temporary file) moves to the blocking thread and back.
            let (prepared, _upload) = ctx.analyse(move || Ok((prepare(&upload, ffmpeg.as_ref()), upload))).await?;
            let id = values::new_raw_id();
            let row = match prepared? {
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
                Prepared::Video(video) => {
                    let file_key = stored.put_file(storage, key(post, n, "", video.extension), &video.clean).await?;
                    let poster_key = stored.put(storage, key(post, n, "-poster", "jpg"), video.poster).await?;
                    MediaRow {
                        post_id: post,
                        position: n as i64,
                        id,
                        file_key,
                        file_type: MediaType::Video,
                        width: None,
                        height: None,
                        display_key: None,
                        poster_key: Some(poster_key),
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
    Video(CleanVideo),
}

/// A video as it is published: remuxed without metadata, with its first frame as a poster.
struct CleanVideo {
    extension: &'static str,
    clean: PathBuf,
    poster: Vec<u8>,
    /// ffmpeg's folder, holding `clean`: removed when this is dropped.
    _work: TempDir,
}

fn prepare(upload: &MediaUpload, ffmpeg: Option<&Ffmpeg>) -> Result<Prepared, PostError> {
    let (path, name) = (upload.file.path(), upload.file_name.as_str());
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
            let ffmpeg = ffmpeg.ok_or(PostError::VideoUnavailable)?;
            clean_video(ffmpeg, path, name, kind).map(Prepared::Video)
        }
    }
}

/// ffmpeg's demuxer for a sniffed container, and the muxer that writes the same container.
fn formats(kind: VideoKind) -> (&'static str, &'static str) {
    match kind {
        VideoKind::Mp4 => ("mov", "mp4"),
        VideoKind::Mov => ("mov", "mov"),
        VideoKind::Avi => ("avi", "avi"),
        VideoKind::Mkv => ("matroska", "matroska"),
        VideoKind::Webm => ("matroska", "webm"),
    }
}

/// What we store and serve of a video is what we checked: its first video stream (and first
/// sound stream, if any) copied into a new file of the same container without the uploaded
/// file's metadata, chapters, data or subtitle streams (an iPhone `.mov` keeps its location in
/// all three), and refused unless a frame of it decodes. That frame is the poster.
fn clean_video(ffmpeg: &Ffmpeg, upload: &Path, name: &str, kind: VideoKind) -> Result<CleanVideo, PostError> {
    let work = tempfile::tempdir().map_err(|e| PostError::Processing(format!("a folder for ffmpeg: {e}")))?;
    let (demuxer, muxer) = formats(kind);
    let clean_name = format!("clean.{}", kind.extension());
    let mut remux: Vec<&OsStr> = vec!["-protocol_whitelist".as_ref(), "file".as_ref(), "-f".as_ref(), demuxer.as_ref()];
    remux.extend(["-i".as_ref(), upload.as_os_str()]);
    remux.extend(
        [
            "-map",
            "0:v:0",
            "-map",
            "0:a:0?",
            "-map_metadata",
            "-1",
            "-map_chapters",
            "-1",
            "-c",
            "copy",
            "-fflags",
            "+bitexact",
            "-f",
            muxer,
        ]
        .map(OsStr::new),
    );
    if matches!(kind, VideoKind::Mp4 | VideoKind::Mov) {
        // The index first, so a browser can start playing before the whole file is in.
        remux.extend(["-movflags", "+faststart"].map(OsStr::new));
    }
    remux.push(clean_name.as_ref());
    ffmpeg.run(work.path(), remux, REMUX_TIMEOUT).map_err(|e| refused(name, e))?;

    let max_pixels = MAX_PIXELS.to_string();
    let poster = [
        "-protocol_whitelist",
        "file",
        "-f",
        demuxer,
        "-max_pixels",
        &max_pixels,
        "-i",
        &clean_name,
        "-map",
        "0:v:0",
        "-frames:v",
        "1",
        "-vf",
        "scale='min(640,iw)':-2",
        "-q:v",
        "4",
        "-f",
        "image2",
        "-c:v",
        "mjpeg",
        "poster.jpg",
    ];
    ffmpeg.run(work.path(), poster, POSTER_TIMEOUT).map_err(|e| refused(name, e))?;
    let poster = std::fs::read(work.path().join("poster.jpg")).unwrap_or_default();
    // Only what is really a JPEG is published (ffmpeg can succeed writing no frame at all).
    if !matches!(mv::image_facts(&poster, limits::IMAGE_MAX_SIDE, limits::IMAGE_MAX_PIXELS), Ok(f) if f.kind == ImageKind::Jpeg)
    {
        return Err(PostError::Unreadable { file: name.to_owned(), defect: UploadDefect::NoVideoFrame });
    }
    Ok(CleanVideo { extension: kind.extension(), clean: work.path().join(clean_name), poster, _work: work })
}

/// The person's error for a video ffmpeg could not use; why it could not is logged.
fn refused(name: &str, e: RunError) -> PostError {
    let defect = match e {
        RunError::TimedOut => UploadDefect::VideoTooSlow,
        RunError::Refused(said) => {
            tracing::debug!(file = name, ffmpeg = %said, "a video was refused");
            UploadDefect::Damaged
        }
        RunError::NotRun(e) => return PostError::Processing(format!("running ffmpeg: {e}")),
    };
    PostError::Unreadable { file: name.to_owned(), defect }
}
