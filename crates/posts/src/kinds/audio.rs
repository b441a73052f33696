//! Audio posts: 1 to 10 tracks (spec §5 Audio post), each with its duration, waveform peaks
//! and cover art read from the file.

use std::io::BufWriter;
use std::path::Path;

use base64::Engine;
use db::DbConnection;
use db::diesel::prelude::*;
use db::schema::post_audio;
use media_validation::{self as mv, AudioKind, ImageKind, MediaError, limits};
use tempfile::NamedTempFile;
use values::{JobKind, PostId, PostKind};

use super::{KindRows, NewPayload, Processing, UploadKind, grouped};
use crate::PostError;
use crate::create::{Stored, head, key, unreadable};
use crate::input::{label, stem};
use crate::model::Payload;

/// Waveform bins sent to clients (docs/posts.md): 500 min,max pairs, 1 KB.
const WIRE_PEAK_BINS: usize = 500;

/// One track of an audio post.
#[derive(Debug, Clone, PartialEq)]
pub struct AudioTrack {
    pub title: String,
    pub artist: String,
    pub file_key: String,
    pub cover_key: Option<String>,
    pub duration_ms: i64,
    /// base64 of signed 8-bit min,max pairs (docs/posts.md).
    pub peaks: Option<String>,
    /// Measured from the file when it was uploaded (docs/posts.md, "Loudness").
    pub loudness: Option<mv::Loudness>,
    /// The track encoded for streaming, once its job has made them (docs/posts.md,
    /// "Renditions").
    pub renditions: Option<Renditions>,
}

/// A track's renditions: what players stream in place of the original.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Renditions {
    /// Opus at 96 kbit/s in WebM.
    pub opus_key: String,
    /// AAC-LC at 160 kbit/s in MP4, for browsers without Opus.
    pub aac_key: String,
}

impl AudioTrack {
    /// `m:ss`, as the player shows it (rounded to the nearest second).
    pub fn duration_text(&self) -> String {
        let seconds = (self.duration_ms.max(0) + 500) / 1000;
        format!("{}:{:02}", seconds / 60, seconds % 60)
    }
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = post_audio)]
pub(crate) struct AudioRow {
    pub post_id: PostId,
    pub position: i64,
    pub title: String,
    pub artist: String,
    pub file_key: String,
    pub cover_key: Option<String>,
    pub duration_ms: i64,
    pub peaks: Option<String>,
    pub loudness_lufs: Option<f64>,
    pub true_peak_dbtp: Option<f64>,
    pub opus_key: Option<String>,
    pub aac_key: Option<String>,
}

impl From<AudioRow> for AudioTrack {
    fn from(r: AudioRow) -> Self {
        let loudness = match (r.loudness_lufs, r.true_peak_dbtp) {
            (Some(integrated_lufs), Some(true_peak_dbtp)) => Some(mv::Loudness { integrated_lufs, true_peak_dbtp }),
            _ => None,
        };
        let renditions = match (r.opus_key, r.aac_key) {
            (Some(opus_key), Some(aac_key)) => Some(Renditions { opus_key, aac_key }),
            _ => None,
        };
        AudioTrack {
            title: r.title,
            artist: r.artist,
            file_key: r.file_key,
            cover_key: r.cover_key,
            duration_ms: r.duration_ms,
            peaks: r.peaks,
            loudness,
            renditions,
        }
    }
}

pub(super) const ROWS: KindRows = KindRows { kind: PostKind::Audio, load, object_keys, stored: &STORED };

/// The track, its cover and its renditions.
const STORED: [db::StoredColumn; 4] = [
    db::StoredColumn {
        column: "post_audio.file_key",
        keys: |c| post_audio::table.select(post_audio::file_key).distinct().load(c),
    },
    db::StoredColumn {
        column: "post_audio.cover_key",
        keys: |c| {
            post_audio::table
                .filter(post_audio::cover_key.is_not_null())
                .select(post_audio::cover_key.assume_not_null())
                .distinct()
                .load(c)
        },
    },
    db::StoredColumn {
        column: "post_audio.opus_key",
        keys: |c| {
            post_audio::table
                .filter(post_audio::opus_key.is_not_null())
                .select(post_audio::opus_key.assume_not_null())
                .distinct()
                .load(c)
        },
    },
    db::StoredColumn {
        column: "post_audio.aac_key",
        keys: |c| {
            post_audio::table
                .filter(post_audio::aac_key.is_not_null())
                .select(post_audio::aac_key.assume_not_null())
                .distinct()
                .load(c)
        },
    },
];

fn load(conn: &mut DbConnection, ids: &[PostId]) -> QueryResult<Vec<(PostId, Payload)>> {
    let rows: Vec<AudioRow> = post_audio::table
        .filter(db::one_of(post_audio::post_id, ids.iter().map(|id| id.get())))
        .order((post_audio::post_id, post_audio::position))
        .select(AudioRow::as_select())
        .load(conn)?;
    Ok(grouped(rows, |r| r.post_id, AudioTrack::from, Payload::Audio))
}

fn object_keys(conn: &mut DbConnection, ids: &[PostId]) -> QueryResult<Vec<String>> {
    type Keys = (String, Option<String>, Option<String>, Option<String>);
    let rows: Vec<Keys> = post_audio::table
        .filter(post_audio::post_id.eq_any(ids))
        .select((post_audio::file_key, post_audio::cover_key, post_audio::opus_key, post_audio::aac_key))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .flat_map(|(file, cover, opus, aac)| std::iter::once(file).chain(cover).chain(opus).chain(aac))
        .collect())
}

impl NewPayload for Vec<AudioRow> {
    fn insert(&self, conn: &mut DbConnection) -> QueryResult<()> {
        // Row by row: the multi-backend connection has no batch insert (at most ten rows here).
        for r in self {
            diesel::insert_into(post_audio::table).values(r).execute(conn)?;
        }
        Ok(())
    }

    fn jobs(&self) -> Vec<(JobKind, String, String)> {
        self.iter().map(|r| crate::renditions::job(r.post_id, r.position)).collect()
    }
}

/// One uploaded track, with the title and artist sent beside it (blank ones are taken from
/// the file's tags, then the spec's defaults: the file name, 'Unknown Artist').
pub struct AudioUpload {
    /// The name the client gave (for messages and the default title only).
    pub file_name: String,
    pub file: NamedTempFile,
    pub title: Option<String>,
    pub artist: Option<String>,
}

impl UploadKind for AudioUpload {
    const KIND: PostKind = PostKind::Audio;
    const MAX_FILES: usize = limits::AUDIO_MAX_FILES;

    fn none() -> PostError {
        PostError::NoAudio
    }

    fn too_many() -> PostError {
        PostError::TooManyAudio
    }

    async fn store(
        ctx: &Processing,
        post: PostId,
        uploads: Vec<AudioUpload>,
        stored: &mut Stored,
    ) -> Result<Box<dyn NewPayload>, PostError> {
        let mut rows = Vec::with_capacity(uploads.len());
        // The post's tracks share one decoding budget (`limits::AUDIO_POST_MAX_SECONDS`).
        let mut budget_ms = limits::AUDIO_POST_MAX_SECONDS * 1000;
        for (n, upload) in uploads.into_iter().enumerate() {
            let within = budget_ms / 1000;
            // The upload moves to the blocking thread, where its temporary file is removed once
            // the copy to publish is made.
            let facts = ctx.analyse(move || analyse(&upload, within)).await?;
            budget_ms = budget_ms.saturating_sub(facts.duration_ms.max(0) as u64);
            let file_key =
                stored.put_file(&ctx.storage, key(post, n, "", facts.kind.extension()), facts.clean.path()).await?;
            let cover_key = match facts.cover {
                Some((kind, bytes)) => {
                    Some(stored.put(&ctx.storage, key(post, n, "-cover", kind.extension()), bytes).await?)
                }
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
                loudness_lufs: facts.loudness.map(|l| l.integrated_lufs),
                true_peak_dbtp: facts.loudness.map(|l| l.true_peak_dbtp),
                opus_key: None,
                aac_key: None,
            });
        }
        Ok(Box::new(rows))
    }
}

struct AudioFacts {
    kind: AudioKind,
    title: String,
    artist: String,
    duration_ms: i64,
    peaks: Option<String>,
    loudness: Option<mv::Loudness>,
    cover: Option<(ImageKind, Vec<u8>)>,
    /// The file to publish: the audio without its tags, pictures or anything else it carried.
    clean: NamedTempFile,
}

/// Decodes at most `within` seconds of audio: less than a file may hold once earlier tracks of
/// the post have used part of the post's budget.
fn analyse(upload: &AudioUpload, within: u64) -> Result<AudioFacts, PostError> {
    let (path, name) = (upload.file.path(), &upload.file_name);
    let kind = mv::sniff_audio(&head(path)?).ok_or_else(|| PostError::NotAudio(name.clone()))?;
    let file = std::fs::File::open(path).map_err(|e| PostError::Processing(format!("reading an upload: {e}")))?;
    let facts = mv::analyze_audio_within(file, kind, within).map_err(|e| match e {
        MediaError::AudioTooLong { .. } if within < limits::AUDIO_MAX_SECONDS => {
            PostError::AudioTotalTooLong { hours: limits::AUDIO_POST_MAX_SECONDS / 3600 }
        }
        other => unreadable(name, other),
    })?;
    let peaks = facts.peaks.downsample(WIRE_PEAK_BINS);
    let peaks = if peaks.bins.is_empty() {
        None
    } else {
        Some(base64::engine::general_purpose::STANDARD.encode(peaks.to_bytes()))
    };
    // Cover art is published like any picture: without the metadata inside it.
    let cover = facts.cover.and_then(|c| mv::strip_image_metadata(&c.bytes, c.kind).ok().map(|clean| (c.kind, clean)));
    // The file is published without its tags: the post shows what they said (title, artist,
    // cover), and nothing else of them (comments, GPS in the cover's EXIF, ...).
    let clean = clean_copy(path, kind, name)?;
    Ok(AudioFacts {
        kind,
        title: label(upload.title.as_deref()).or_else(|| label(facts.title.as_deref())).unwrap_or_else(|| stem(name)),
        artist: label(upload.artist.as_deref())
            .or_else(|| label(facts.artist.as_deref()))
            .unwrap_or_else(|| "Unknown Artist".to_owned()),
        duration_ms: (facts.duration_seconds * 1000.0).round() as i64,
        peaks,
        loudness: facts.loudness,
        cover,
        clean,
    })
}

/// A copy of the upload at `path` without metadata (`media_validation::audio_clean`), in a
/// temporary file beside it.
fn clean_copy(path: &Path, kind: AudioKind, name: &str) -> Result<NamedTempFile, PostError> {
    let io = |e: std::io::Error| PostError::Processing(format!("copying an upload without its tags: {e}"));
    let source = std::fs::File::open(path).map_err(io)?;
    let mut clean = path.parent().map_or_else(NamedTempFile::new, NamedTempFile::new_in).map_err(io)?;
    mv::strip_audio_metadata(kind, source, BufWriter::new(clean.as_file_mut())).map_err(|e| match e {
        mv::StripError::Refused(e) => unreadable(name, e),
        mv::StripError::Io(e) => io(e),
    })?;
    Ok(clean)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_minutes_and_seconds() {
        let t = |ms| AudioTrack {
            title: String::new(),
            artist: String::new(),
            file_key: String::new(),
            cover_key: None,
            duration_ms: ms,
            peaks: None,
            loudness: None,
            renditions: None,
        };
        assert_eq!(t(0).duration_text(), "0:00");
        assert_eq!(t(1_499).duration_text(), "0:01");
        assert_eq!(t(59_600).duration_text(), "1:00");
        assert_eq!(t(754_000).duration_text(), "12:34");
    }
}
