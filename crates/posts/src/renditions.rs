//! Each track encoded once for streaming (docs/posts.md, "Renditions"): Opus at 96 kbit/s in
//! WebM and AAC-LC at 160 kbit/s in MP4, made by ffmpeg in a background job (`db::jobs`) after
//! the post is written, stored beside the original, which stays the download. Players stream
//! what the browser plays, and the original until the renditions are there.
//!
//! The job is idempotent: it writes its keys only where the track still has the original it
//! encoded and no renditions yet, and removes what it stored when it may not (the post was
//! deleted meanwhile, or another process finished first), so a job done twice (a lapsed lease)
//! or for a deleted post leaves no row pointing at nothing and no file no row points at. The
//! same job measures the loudness of a track uploaded before loudness was measured.

use std::path::Path;
use std::time::Duration;

use db::diesel::prelude::*;
use db::jobs::{Claimed, Failure};
use db::schema::{post_audio, posts};
use db::{DbConnection, Topic};
use futures_util::StreamExt;
use media_validation::{self as mv, AudioKind, limits};
use serde::Deserialize;
use storage::StorageError;
use tokio::io::AsyncWriteExt;
use values::{JobKind, PostId, UserId};

use crate::create::{key, remove_objects};
use crate::ffmpeg::{Ffmpeg, RunError};
use crate::{PostError, Posts};

/// Opus's bitrate, kbit/s: transparent for most music, about 0.7 MB a minute.
pub const OPUS_KBITS: u32 = 96;
/// AAC's, for browsers without Opus (SoundCloud's high-quality stream), about 1.2 MB a minute.
pub const AAC_KBITS: u32 = 160;
/// Posts whose old tracks one [`JobKind::OldTracks`] job queues.
const OLD_TRACKS_BATCH: i64 = 200;

/// The job that makes the renditions of track `position` of `post`: kind, subject, payload.
pub(crate) fn job(post: PostId, position: i64) -> (JobKind, String, String) {
    let payload = serde_json::json!({ "post": post.get(), "position": position }).to_string();
    (JobKind::TrackRenditions, format!("{post}/{position}"), payload)
}

#[derive(Deserialize)]
struct TrackJob {
    post: PostId,
    position: i64,
}

/// A job that walks old posts in batches: where the last batch ended.
#[derive(Deserialize)]
struct OldTracksJob {
    after: i64,
}

/// The longest an encode may take: two minutes, and ten seconds a minute of audio (it takes
/// about 2.5 s a minute here; docs/posts.md).
fn encode_limit(duration_ms: i64) -> Duration {
    Duration::from_secs(120) + Duration::from_millis(duration_ms.max(0) as u64 / 6)
}

/// ffmpeg's demuxer for a sniffed audio file.
fn demuxer(kind: AudioKind) -> &'static str {
    match kind {
        AudioKind::Mp3 => "mp3",
        AudioKind::M4a => "mov",
        AudioKind::Aac => "aac",
        AudioKind::Flac => "flac",
        AudioKind::Wav => "wav",
        AudioKind::Ogg => "ogg",
    }
}

fn retry(what: &str) -> impl FnOnce(PostError) -> Failure + '_ {
    move |e| Failure::Retry(format!("{what}: {}", values::error_chain(&e)))
}

/// What a track needs done, as its row says.
struct Track {
    file_key: String,
    duration_ms: i64,
    needs_renditions: bool,
    needs_loudness: bool,
}

/// What the blocking part made.
struct Made {
    loudness: Option<mv::Loudness>,
    /// The Opus and AAC files, in the job's folder.
    files: Option<(std::path::PathBuf, std::path::PathBuf)>,
}

impl Posts {
    /// Runs a claimed job of this domain (the runner hands it every kind `values::JobKind` says
    /// is posts' work).
    pub async fn run_job(&self, job: &Claimed) -> Result<(), Failure> {
        let bad_payload = |e: serde_json::Error| Failure::GiveUp(format!("the payload is not this kind's: {e}"));
        match job.kind {
            JobKind::TrackRenditions => {
                let p: TrackJob = serde_json::from_str(&job.payload).map_err(bad_payload)?;
                self.make_renditions(p.post, p.position).await
            }
            JobKind::OldTracks => {
                let p: OldTracksJob = serde_json::from_str(&job.payload).map_err(bad_payload)?;
                self.queue_old_tracks(p.after).await.map_err(retry("queueing old tracks"))
            }
            JobKind::OldScores => {
                let p: OldTracksJob = serde_json::from_str(&job.payload).map_err(bad_payload)?;
                self.read_old_scores(p.after).await
            }
            other => Err(Failure::GiveUp(format!("{other} is not posts' work"))),
        }
    }

    /// Makes the renditions of track `position` of `post` (and measures its loudness when it
    /// was not), as the module says.
    async fn make_renditions(&self, post: PostId, position: i64) -> Result<(), Failure> {
        let read = move |conn: &mut DbConnection| -> Result<Option<Track>, PostError> {
            let row: Option<(String, i64, Option<String>, Option<f64>)> = post_audio::table
                .find((post, position))
                .select((
                    post_audio::file_key,
                    post_audio::duration_ms,
                    post_audio::opus_key,
                    post_audio::loudness_lufs,
                ))
                .first(conn)
                .optional()?;
            Ok(row.map(|(file_key, duration_ms, opus, lufs)| Track {
                file_key,
                duration_ms,
                needs_renditions: opus.is_none(),
                needs_loudness: lufs.is_none() && opus.is_none(),
            }))
        };
        // Deleted meanwhile, or done already: nothing to do.
        let Some(track) = self.db.run(read).await.map_err(retry("reading the track"))? else { return Ok(()) };
        if !track.needs_renditions {
            return Ok(());
        }
        let ffmpeg = self.processing.ffmpeg.clone().ok_or_else(|| {
            Failure::Retry("ffmpeg is not installed: renditions wait for it (apt-get install ffmpeg)".into())
        })?;
        let work = tempfile::tempdir().map_err(|e| Failure::Retry(format!("a folder for the job: {e}")))?;
        let original = work.path().join("original");
        self.download(&track.file_key, &original).await?;
        let (folder, duration_ms, needs_loudness) = (work.path().to_owned(), track.duration_ms, track.needs_loudness);
        let made = tokio::task::spawn_blocking(move || encode(&ffmpeg, &folder, duration_ms, needs_loudness))
            .await
            .map_err(|e| Failure::Retry(format!("the encoding task failed: {e}")))??;
        let Some((opus_file, aac_file)) = made.files else { return Ok(()) };
        let storage = self.storage().clone();
        let opus_key = key(post, position as usize, "-opus", "weba");
        let aac_key = key(post, position as usize, "-aac", "m4a");
        let stored = [opus_key.clone(), aac_key.clone()];
        let put = async {
            storage.put_file(&opus_key, &opus_file).await?;
            storage.put_file(&aac_key, &aac_file).await
        };
        if let Err(e) = put.await {
            remove_objects(&storage, &stored).await;
            return Err(Failure::Retry(format!("storing the renditions: {}", values::error_chain(&e))));
        }
        let (file_key, keys) = (track.file_key, stored.clone());
        let loudness = made.loudness;
        let write = move |conn: &mut DbConnection| -> Result<bool, PostError> {
            let this = post_audio::table
                .filter(post_audio::post_id.eq(post))
                .filter(post_audio::position.eq(position))
                .filter(post_audio::file_key.eq(file_key))
                .filter(post_audio::opus_key.is_null());
            let [opus, aac] = keys;
            let written =
                diesel::update(this).set((post_audio::opus_key.eq(opus), post_audio::aac_key.eq(aac))).execute(conn)?;
            if written == 1
                && let Some(l) = loudness
            {
                diesel::update(post_audio::table.find((post, position)))
                    .set((
                        post_audio::loudness_lufs.eq(l.integrated_lufs),
                        post_audio::true_peak_dbtp.eq(l.true_peak_dbtp),
                    ))
                    .execute(conn)?;
            }
            if written == 1 {
                // A new version of the payload (`crate::memory::payloads`).
                diesel::update(posts::table.find(post))
                    .set(posts::payload_rev.eq(posts::payload_rev + 1))
                    .execute(conn)?;
                db::changed(conn, &[Topic::Post(post)])?;
            }
            Ok(written == 1)
        };
        match self.db.write(write).await {
            Ok(true) => Ok(()),
            // The post went, or another process wrote its renditions first: ours are nobody's.
            Ok(false) => {
                remove_objects(&storage, &stored).await;
                Ok(())
            }
            Err(e) => {
                remove_objects(&storage, &stored).await;
                Err(retry("writing the renditions")(e))
            }
        }
    }

    /// Copies the stored object `key` to the file `to`, chunk by chunk.
    pub(crate) async fn download(&self, key: &str, to: &Path) -> Result<(), Failure> {
        let object = match self.storage().get(key, None).await {
            Ok(o) => o,
            Err(StorageError::NotFound) => return Err(Failure::GiveUp(format!("the original {key} is missing"))),
            Err(e) => return Err(Failure::Retry(format!("reading {key}: {}", values::error_chain(&e)))),
        };
        let io = |e: std::io::Error| Failure::Retry(format!("copying {key} for the job: {e}"));
        let mut file = tokio::fs::File::create(to).await.map_err(io)?;
        let mut body = object.body;
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(|e| Failure::Retry(format!("reading {key}: {}", values::error_chain(&e))))?;
            file.write_all(&chunk).await.map_err(io)?;
        }
        file.flush().await.map_err(io)
    }

    /// Queues the renditions of the tracks of the next [`OLD_TRACKS_BATCH`] audio posts after
    /// `after` that have none (each for its author, so they take turns with new uploads), and
    /// the next batch's job after them: one transaction.
    async fn queue_old_tracks(&self, after: i64) -> Result<(), PostError> {
        self.db
            .write(move |conn| {
                let ids: Vec<PostId> = post_audio::table
                    .filter(post_audio::post_id.gt(after))
                    .select(post_audio::post_id)
                    .distinct()
                    .order(post_audio::post_id)
                    .limit(OLD_TRACKS_BATCH)
                    .load(conn)?;
                let tracks: Vec<(PostId, i64, UserId)> = post_audio::table
                    .inner_join(posts::table)
                    .filter(post_audio::post_id.eq_any(&ids))
                    .filter(post_audio::opus_key.is_null())
                    .select((post_audio::post_id, post_audio::position, posts::user_id))
                    .load(conn)?;
                for (post, position, author) in tracks {
                    let (kind, subject, payload) = job(post, position);
                    let new = db::jobs::NewJob { kind, subject, payload, owner: Some(author) };
                    db::jobs::enqueue(conn, &new, None)?;
                }
                if let Some(last) = ids.last().filter(|_| ids.len() as i64 == OLD_TRACKS_BATCH) {
                    let next = db::jobs::NewJob {
                        kind: JobKind::OldTracks,
                        subject: format!("after:{last}"),
                        payload: serde_json::json!({ "after": last.get() }).to_string(),
                        owner: None,
                    };
                    db::jobs::enqueue(conn, &next, None)?;
                }
                Ok::<_, PostError>(())
            })
            .await
    }
}

/// The blocking part of a track's job, in `folder` (which holds `original`): its loudness when
/// asked, and both renditions in one ffmpeg run (one decode, two encodes).
fn encode(ffmpeg: &Ffmpeg, folder: &Path, duration_ms: i64, measure: bool) -> Result<Made, Failure> {
    let original = folder.join("original");
    let head = crate::create::head(&original).map_err(|e| Failure::Retry(values::error_chain(&e)))?;
    let Some(kind) = mv::sniff_audio(&head) else {
        return Err(Failure::GiveUp("the stored original is not audio any more".into()));
    };
    let loudness = if measure {
        let file = std::fs::File::open(&original).map_err(|e| Failure::Retry(format!("reading the original: {e}")))?;
        mv::analyze_audio_within(file, kind, limits::AUDIO_MAX_SECONDS).ok().and_then(|f| f.loudness)
    } else {
        None
    };
    let (opus, aac) = ("opus.weba", "aac.m4a");
    let mut args: Vec<String> =
        ["-protocol_whitelist", "file", "-f", demuxer(kind), "-i", "original"].into_iter().map(str::to_owned).collect();
    // The first sound stream only, without the original's metadata or pictures, in each output;
    // each file with its index first (MP4's moov, WebM's cues), so that a browser can start
    // playing and seek anywhere without first fetching the end of the file.
    for (codec, kbits, format, file) in [("libopus", OPUS_KBITS, "webm", opus), ("aac", AAC_KBITS, "mp4", aac)] {
        args.extend(["-map", "0:a:0", "-map_metadata", "-1", "-vn", "-sn", "-dn", "-c:a", codec].map(str::to_owned));
        args.extend(["-b:a".to_owned(), format!("{kbits}k")]);
        let index_first = if format == "mp4" { ["-movflags", "+faststart"] } else { ["-cues_to_front", "1"] };
        args.extend(index_first.map(str::to_owned));
        args.extend(["-f", format, file].map(str::to_owned));
    }
    match ffmpeg.run(folder, args, encode_limit(duration_ms)) {
        Ok(()) => Ok(Made { loudness, files: Some((folder.join(opus), folder.join(aac))) }),
        Err(RunError::Refused(said)) => Err(Failure::GiveUp(format!("ffmpeg could not encode it: {said}"))),
        Err(RunError::TimedOut) => {
            Err(Failure::GiveUp(format!("encoding took longer than {:?}", encode_limit(duration_ms))))
        }
        Err(RunError::NotRun(e)) => Err(Failure::Retry(format!("ffmpeg could not be run: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_are_bounded_by_the_tracks_length() {
        assert_eq!(encode_limit(0), Duration::from_secs(120));
        assert_eq!(encode_limit(60_000), Duration::from_secs(130));
        assert_eq!(encode_limit(4 * 3600 * 1000), Duration::from_secs(120 + 2400));
    }
}
