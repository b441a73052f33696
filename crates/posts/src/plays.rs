//! Play counts (issue 31): how often each track and score was heard, and the post's total.
//!
//! The player counts a play once a track (or a score's playback) has sounded for 30 s, or to
//! its end if shorter, and says so once (`POST /posts/{id}/plays`). Here a play is counted at
//! most once per listener, track and [`PLAY_EVERY`]: a listener is the person signed in, or the
//! client's address signed out ([`Listener`]), and `play_marks` holds when each was last counted
//! for each track. A play of a post its listener may not see (a block, a suspension) is not
//! found; an author's plays of their own tracks are not counted (what they are shown is how
//! often others listened).
//!
//! One transaction of at most five statements, each on a primary key: the post as the listener
//! may see it, the track, the mark (an upsert that says whether it counted), then the track's
//! count and the post's. The post's count is on its row, read with every page like its likes.

use std::time::Duration;

use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Text, Timestamp};
use db::schema::{play_marks, post_audio, post_scores, posts};
use db::{DbConnection, Kept, Topic};
use values::{PostId, PostKind, UserId};

use crate::PostError;
use crate::repo::visible;

/// A listener's plays of one track are counted at most once in this long.
pub const PLAY_EVERY: Duration = Duration::from_secs(3600);

/// Who heard a play: counted apart from everyone else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listener {
    /// Signed in.
    Person(UserId),
    /// Signed out: the client's address as limits key on it (an IPv4 address or an IPv6 /64),
    /// so a household behind one address counts once.
    Client(String),
}

impl Listener {
    fn viewer(&self) -> Option<UserId> {
        match self {
            Listener::Person(me) => Some(*me),
            Listener::Client(_) => None,
        }
    }

    /// Its key in `play_marks`.
    fn key(&self) -> String {
        match self {
            Listener::Person(me) => format!("u:{me}"),
            Listener::Client(addr) => format!("c:{addr}"),
        }
    }
}

/// What a play did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// Whether it was counted now (not within the hour of the listener's last, not the author's).
    pub counted: bool,
    /// The post's plays after it.
    pub plays_count: i64,
}

/// One more play of the post today (what Discover reads: `crate::discover`).
const PLAYED_TODAY: &str = "INSERT INTO plays_daily (post_id, day, plays) VALUES (?, ?, 1) \
     ON CONFLICT (post_id, day) DO UPDATE SET plays = plays_daily.plays + 1";

/// Counts a marked play unless the last was within [`PLAY_EVERY`]: one statement, which
/// changes a row only when it counts.
const MARK: &str = "INSERT INTO play_marks (post_id, position, listener, heard_at) VALUES (?, ?, ?, ?) \
     ON CONFLICT (post_id, position, listener) DO UPDATE SET heard_at = excluded.heard_at \
     WHERE play_marks.heard_at <= ?";

/// That `post` (of `kind`) has a track (or score) at place `track`: an audio post's track or a
/// sheet music post's score, else 400 (pictures and lyrics have none). One probe of the
/// payload's key.
pub(crate) fn track_exists(conn: &mut DbConnection, post: PostId, kind: PostKind, track: i64) -> Result<(), PostError> {
    let exists = match kind {
        PostKind::Audio => post_audio::table
            .filter(post_audio::post_id.eq(post))
            .filter(post_audio::position.eq(track))
            .select(post_audio::position)
            .first::<i64>(conn)
            .optional()?,
        PostKind::MusicXml => post_scores::table
            .filter(post_scores::post_id.eq(post))
            .filter(post_scores::position.eq(track))
            .select(post_scores::position)
            .first::<i64>(conn)
            .optional()?,
        PostKind::Media | PostKind::Lyrics => return Err(PostError::NotPlayable),
    };
    exists.map(|_| ()).ok_or(PostError::NoSuchTrack(track))
}

/// Counts a play of track `track` (from 0) of `post` by `listener`, inside the caller's
/// transaction.
pub fn count(conn: &mut DbConnection, listener: &Listener, post: PostId, track: i64) -> Result<Played, PostError> {
    let found = visible(conn, post, listener.viewer())?.ok_or(PostError::NotFound)?;
    track_exists(conn, post, found.kind, track)?;
    let counted = listener.viewer() != Some(found.author) && {
        let now = db::time::now();
        let last_counted_before = now - chrono::Duration::from_std(PLAY_EVERY).unwrap_or_default();
        Kept::new(MARK)
            .bind::<BigInt, _>(post)
            .bind::<BigInt, _>(track)
            .bind::<Text, _>(listener.key())
            .bind::<Timestamp, _>(now)
            .bind::<Timestamp, _>(last_counted_before)
            .execute(conn)?
            > 0
    };
    if !counted {
        let plays_count = posts::table.filter(posts::id.eq(post)).select(posts::plays_count).first(conn)?;
        return Ok(Played { counted, plays_count });
    }
    match found.kind {
        PostKind::Audio => diesel::update(post_audio::table.find((post, track)))
            .set(post_audio::plays_count.eq(post_audio::plays_count + 1))
            .execute(conn)?,
        _ => diesel::update(post_scores::table.find((post, track)))
            .set(post_scores::plays_count.eq(post_scores::plays_count + 1))
            .execute(conn)?,
    };
    let plays_count = Kept::new("UPDATE posts SET plays_count = plays_count + 1 WHERE id = ? RETURNING plays_count")
        .bind::<BigInt, _>(post)
        .get_result::<PlaysCount>(conn)?
        .plays_count;
    Kept::new(PLAYED_TODAY)
        .bind::<BigInt, _>(post)
        .bind::<BigInt, _>(crate::discover::day_of(db::time::now()))
        .execute(conn)?;
    db::changed(conn, &[Topic::Post(post)])?;
    Ok(Played { counted, plays_count })
}

/// A post's play count, as an update returns it.
#[derive(diesel::QueryableByName)]
struct PlaysCount {
    #[diesel(sql_type = BigInt)]
    plays_count: i64,
}

/// Forgets marks older than [`PLAY_EVERY`] (they no longer stop a play from counting): the
/// hourly sweep's.
pub fn sweep_marks(conn: &mut DbConnection) -> QueryResult<usize> {
    let cutoff = db::time::now() - chrono::Duration::from_std(PLAY_EVERY).unwrap_or_default();
    let marks = diesel::delete(play_marks::table.filter(play_marks::heard_at.le(cutoff))).execute(conn)?;
    // Days Discover no longer reads.
    let past = crate::discover::day_of(db::time::now()) - crate::discover::WINDOW_DAYS - 1;
    let days =
        diesel::delete(db::schema::plays_daily::table.filter(db::schema::plays_daily::day.lt(past))).execute(conn)?;
    Ok(marks + days)
}

/// One track or score of a person's, with its plays (what their profile shows them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackPlays {
    pub post_id: PostId,
    pub kind: PostKind,
    /// Its place in the post, from 0.
    pub position: i64,
    pub title: String,
    pub plays_count: i64,
}

/// The tracks and scores of `author`'s posts older than `before` (all when none), newest post
/// first and each post's in order, `limit` posts of them: three statements, on
/// `posts (user_id, id)` and the tracks' and scores' keys. Answers the tracks, and the last
/// post's id when the page was full (where the next one starts).
pub fn of_author(
    conn: &mut DbConnection,
    author: UserId,
    before: Option<PostId>,
    limit: i64,
) -> QueryResult<(Vec<TrackPlays>, Option<PostId>)> {
    let mut q = posts::table
        .filter(posts::user_id.eq(author))
        .filter(posts::kind.eq_any([PostKind::Audio, PostKind::MusicXml]))
        .select((posts::id, posts::kind))
        .order(posts::id.desc())
        .limit(limit)
        .into_boxed();
    if let Some(before) = before {
        q = q.filter(posts::id.lt(before));
    }
    let found: Vec<(PostId, PostKind)> = q.load(conn)?;
    let next = if found.len() as i64 == limit { found.last().map(|(id, _)| *id) } else { None };
    let ids = |kind: PostKind| -> Vec<PostId> { found.iter().filter(|(_, k)| *k == kind).map(|(id, _)| *id).collect() };
    let (audio, scores) = (ids(PostKind::Audio), ids(PostKind::MusicXml));
    let mut rows: Vec<(PostId, i64, String, i64, PostKind)> = Vec::new();
    if !audio.is_empty() {
        let tracks: Vec<(PostId, i64, String, i64)> = post_audio::table
            .filter(post_audio::post_id.eq_any(&audio))
            .select((post_audio::post_id, post_audio::position, post_audio::title, post_audio::plays_count))
            .load(conn)?;
        rows.extend(tracks.into_iter().map(|(p, n, t, c)| (p, n, t, c, PostKind::Audio)));
    }
    if !scores.is_empty() {
        let tracks: Vec<(PostId, i64, String, i64)> = post_scores::table
            .filter(post_scores::post_id.eq_any(&scores))
            .select((post_scores::post_id, post_scores::position, post_scores::title, post_scores::plays_count))
            .load(conn)?;
        rows.extend(tracks.into_iter().map(|(p, n, t, c)| (p, n, t, c, PostKind::MusicXml)));
    }
    rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let tracks = rows
        .into_iter()
        .map(|(post_id, position, title, plays_count, kind)| TrackPlays {
            post_id,
            kind,
            position,
            title,
            plays_count: plays_count.max(0),
        })
        .collect();
    Ok((tracks, next))
}
