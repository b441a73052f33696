//! A score that follows a recording (issue 35; docs/posts.md, "A score that follows a
//! recording"): the author of a sheet-music post links one of its scores to a track of an audio
//! post they may see — their own or anyone's — with a sync map tapped along the recording.
//!
//! The map gives, for bars of the performance (the score's bars as played, repeats played out,
//! counted from 0), the moment of the track each starts at. It is checked here as far as the
//! server can: bars and times both increasing (so at most one point a bar), every time within
//! the track, at most [`SYNC_POINTS_MAX`] points. Which bars the score has is the players' to
//! know (they read the score); a point past its last bar is not used.
//!
//! A score has one recording at most; the link goes with either post. Who may not see the
//! recording (its author suspended, a block either way) sees the score without it. Reading a
//! link is a fixed handful of statements: the row, and the posts as the viewer may see them.

use chrono::NaiveDateTime;
use db::DbConnection;
use db::diesel::prelude::*;
use db::schema::{post_audio, score_recordings};
use values::{PostId, PostKind, UserId};

use crate::PostError;
use crate::model::Post;
use crate::repo::visible;

/// Points a sync map has at most: a long piece's bars, its repeats played out.
pub const SYNC_POINTS_MAX: usize = 1500;
/// Points a sync map has at least: two give the pace between them.
pub const SYNC_POINTS_MIN: usize = 2;
/// The scores following one recording that its page lists at most, newest link first.
pub const FOLLOWING_SHOWN: i64 = 20;

/// A bar of the performance (from 0) and the millisecond of the track it starts at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SyncPoint {
    pub bar: i64,
    pub at_ms: i64,
}

/// What an author sends to link a score to a recording.
#[derive(Debug, Clone)]
pub struct SyncInput {
    pub recording: PostId,
    pub track: i64,
    pub points: Vec<SyncPoint>,
}

/// A score's link to a recording, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreSync {
    pub post_id: PostId,
    pub score: i64,
    pub recording: PostId,
    pub track: i64,
    pub points: Vec<SyncPoint>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// A link with the post at its other end, as the viewer may see it.
#[derive(Debug, Clone, PartialEq)]
pub struct Linked {
    pub sync: ScoreSync,
    pub post: Post,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = score_recordings)]
struct SyncRow {
    post_id: PostId,
    score: i64,
    recording_id: PostId,
    track: i64,
    points: String,
    created_at: NaiveDateTime,
    updated_at: NaiveDateTime,
}

impl SyncRow {
    fn into_sync(self) -> Result<ScoreSync, PostError> {
        // Written by `link` alone; a row it cannot read is the server's fault.
        let pairs: Vec<(i64, i64)> = serde_json::from_str(&self.points)
            .map_err(|e| PostError::Processing(format!("sync map of post {}: {e}", self.post_id)))?;
        Ok(ScoreSync {
            post_id: self.post_id,
            score: self.score,
            recording: self.recording_id,
            track: self.track,
            points: pairs.into_iter().map(|(bar, at_ms)| SyncPoint { bar, at_ms }).collect(),
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

/// `m:ss` of `ms`, as the player shows a time.
fn clock(ms: i64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

/// Checks a sync map against a track of `duration_ms`.
pub fn check_points(points: &[SyncPoint], duration_ms: i64) -> Result<(), PostError> {
    if points.len() < SYNC_POINTS_MIN {
        return Err(PostError::SyncTooShort);
    }
    if points.len() > SYNC_POINTS_MAX {
        return Err(PostError::SyncTooLong);
    }
    if points.iter().any(|p| p.bar < 0 || p.at_ms < 0) {
        return Err(PostError::SyncNegative);
    }
    if let Some(n) = points.windows(2).position(|w| w[1].bar <= w[0].bar || w[1].at_ms <= w[0].at_ms) {
        return Err(PostError::SyncNotIncreasing(n + 2));
    }
    if let Some(n) = points.iter().position(|p| p.at_ms > duration_ms) {
        return Err(PostError::SyncPastEnd { point: n + 1, end: clock(duration_ms) });
    }
    Ok(())
}

/// Score `score` of `me`'s sheet-music post `post`: not found when there is none (or it is
/// hidden from `me`), forbidden when the post is someone else's.
fn own_score(conn: &mut DbConnection, me: UserId, post: PostId, score: i64) -> Result<(), PostError> {
    let found = visible(conn, post, Some(me))?.ok_or(PostError::NotFound)?;
    if found.kind != PostKind::MusicXml {
        return Err(PostError::NotAScore);
    }
    if found.author != me {
        return Err(PostError::NotSyncAuthor);
    }
    crate::plays::track_exists(conn, post, found.kind, score)
}

/// Links score `score` of `me`'s post `post` to a track of a recording `me` may see, with its
/// sync map, in place of any link it had.
pub fn link(
    conn: &mut DbConnection,
    me: UserId,
    post: PostId,
    score: i64,
    input: SyncInput,
) -> Result<ScoreSync, PostError> {
    own_score(conn, me, post, score)?;
    let recording = visible(conn, input.recording, Some(me))?.ok_or(PostError::RecordingNotFound)?;
    if recording.kind != PostKind::Audio {
        return Err(PostError::RecordingNotAudio);
    }
    let duration_ms: Option<i64> = post_audio::table
        .filter(post_audio::post_id.eq(input.recording))
        .filter(post_audio::position.eq(input.track))
        .select(post_audio::duration_ms)
        .first(conn)
        .optional()?;
    let duration_ms = duration_ms.ok_or(PostError::NoSuchTrack(input.track))?;
    check_points(&input.points, duration_ms)?;
    let pairs: Vec<(i64, i64)> = input.points.iter().map(|p| (p.bar, p.at_ms)).collect();
    let points = serde_json::to_string(&pairs).map_err(|e| PostError::Processing(e.to_string()))?;
    let now = db::time::now();
    let kept: Option<NaiveDateTime> = score_recordings::table
        .filter(score_recordings::post_id.eq(post))
        .filter(score_recordings::score.eq(score))
        .select(score_recordings::created_at)
        .first(conn)
        .optional()?;
    let row = SyncRow {
        post_id: post,
        score,
        recording_id: input.recording,
        track: input.track,
        points,
        created_at: kept.unwrap_or(now),
        updated_at: now,
    };
    diesel::delete(
        score_recordings::table.filter(score_recordings::post_id.eq(post)).filter(score_recordings::score.eq(score)),
    )
    .execute(conn)?;
    diesel::insert_into(score_recordings::table).values(&row).execute(conn)?;
    row.into_sync()
}

/// Takes the recording away from score `score` of `me`'s post `post`.
pub fn unlink(conn: &mut DbConnection, me: UserId, post: PostId, score: i64) -> Result<(), PostError> {
    own_score(conn, me, post, score)?;
    let gone = diesel::delete(
        score_recordings::table.filter(score_recordings::post_id.eq(post)).filter(score_recordings::score.eq(score)),
    )
    .execute(conn)?;
    if gone == 0 {
        return Err(PostError::NoRecording);
    }
    Ok(())
}

/// The recordings the scores of `post` follow, by score, each as `viewer` may see it: not found
/// when the post is not there for them; none for a post of another kind, a score without a
/// recording, or one whose recording they may not see.
pub(crate) fn recordings_of(
    conn: &mut DbConnection,
    post: PostId,
    viewer: Option<UserId>,
    memory: Option<&crate::memory::Memory>,
) -> Result<Vec<Linked>, PostError> {
    let found = visible(conn, post, viewer)?.ok_or(PostError::NotFound)?;
    if found.kind != PostKind::MusicXml {
        return Ok(Vec::new());
    }
    let rows: Vec<SyncRow> = score_recordings::table
        .filter(score_recordings::post_id.eq(post))
        .order(score_recordings::score)
        .select(SyncRow::as_select())
        .load(conn)?;
    let posts = crate::feed::these_by_id(conn, rows.iter().map(|r| r.recording_id), viewer, memory)?;
    rows.into_iter()
        .filter_map(|r| {
            // The track must still be there.
            let recording = posts.get(&r.recording_id).filter(|p| has_track(p, r.track)).cloned();
            recording.map(|post| (r, post))
        })
        .map(|(r, post)| Ok(Linked { sync: r.into_sync()?, post }))
        .collect()
}

fn has_track(post: &Post, track: i64) -> bool {
    matches!(&*post.payload, crate::Payload::Audio(t) if usize::try_from(track).is_ok_and(|i| i < t.len()))
}

/// The scores following a track of the audio post `post` that `viewer` may see, newest link
/// first, at most [`FOLLOWING_SHOWN`].
pub(crate) fn following(
    conn: &mut DbConnection,
    post: PostId,
    viewer: Option<UserId>,
    memory: Option<&crate::memory::Memory>,
) -> Result<Vec<Linked>, PostError> {
    visible(conn, post, viewer)?.ok_or(PostError::NotFound)?;
    let rows: Vec<SyncRow> = score_recordings::table
        .filter(score_recordings::recording_id.eq(post))
        .order(score_recordings::updated_at.desc())
        .limit(FOLLOWING_SHOWN)
        .select(SyncRow::as_select())
        .load(conn)?;
    let posts = crate::feed::these_by_id(conn, rows.iter().map(|r| r.post_id), viewer, memory)?;
    rows.into_iter()
        .filter_map(|r| posts.get(&r.post_id).cloned().map(|p| (r, p)))
        .map(|(r, post)| Ok(Linked { sync: r.into_sync()?, post }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(bar: i64, at_ms: i64) -> SyncPoint {
        SyncPoint { bar, at_ms }
    }

    #[test]
    fn a_sync_map_goes_forward_within_its_track() {
        assert!(check_points(&[p(0, 0), p(1, 2000), p(3, 6000)], 6000).is_ok());
        let detail =
            |points: &[SyncPoint]| check_points(points, 10_000).err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(detail(&[p(0, 0)]), "A sync map needs at least 2 bars");
        assert_eq!(detail(&[p(0, 0), p(-1, 100)]), "Bars count from 0 and times from 0 ms");
        assert_eq!(
            detail(&[p(0, 0), p(1, 900), p(1, 1800)]),
            "Point 3 must be a later bar at a later time than the one before"
        );
        assert_eq!(
            detail(&[p(0, 0), p(1, 900), p(2, 800)]),
            "Point 3 must be a later bar at a later time than the one before"
        );
        assert_eq!(detail(&[p(0, 0), p(1, 10_001)]), "Point 2 is past the end of the track (0:10)");
        let many: Vec<SyncPoint> = (0..=SYNC_POINTS_MAX as i64).map(|i| p(i, i)).collect();
        assert_eq!(detail(&many), "A sync map has at most 1500 bars");
    }
}
