//! Discover (issue 31): what is trending this week, what is new and rising, the tags people use
//! now. Computed by a bounded job over the week's activity, not by a page: each read is an index
//! range on when things happened (likes by `created_at`, reposts and comments by their
//! time-ordered ids, plays by day), capped at [`READ_AT_MOST`] rows, and the result is held in
//! memory until it is [`Discovery::stale`]; a Discover page then reads only the posts it shows.
//!
//! **Trending this week.** Each post scores, for every like, repost, comment and play of the
//! last [`WINDOW_DAYS`] days, its kind's weight (a play 1, a like 3, a comment 4, a repost 5:
//! the more it costs a person, the more it says) times one half for every [`HALF_LIFE_HOURS`]
//! hours since it happened, so a post liked today outranks one liked as often last week. One
//! person counts once per post and kind: a like and a repost are once per person already, a
//! person's comments on a post count as their newest, and plays are counted at most once per
//! listener and hour (`crate::plays`).
//!
//! **New and rising.** Posts of the last 48 hours by their early engagement: the same weights
//! on their counts, divided by (hours since posting + 2)^1.5, so a post with ten likes in its
//! first hour rises above one with twenty over two days.
//!
//! **Tags trending now.** The tags of the week's posts, by how many posts name them.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use chrono::{NaiveDateTime, Utc};
use db::DbConnection;
use db::diesel::prelude::*;
use db::schema::{comments, likes, plays_daily, post_tags, posts, reposts};
use values::{PostId, UserId};

/// The days of activity trending reads.
pub const WINDOW_DAYS: i64 = 7;
/// Activity counts half as much this many hours later.
pub const HALF_LIFE_HOURS: f64 = 48.0;
/// New and rising: posts at most this many hours old.
pub const RISING_HOURS: i64 = 48;
/// Each of the job's reads stops after this many rows (the newest first where it matters).
pub const READ_AT_MOST: i64 = 200_000;
/// How many of each list are held (a page shows those of them its viewer may see).
pub const HELD: usize = 50;

const WEIGHT_PLAY: f64 = 1.0;
const WEIGHT_LIKE: f64 = 3.0;
const WEIGHT_COMMENT: f64 = 4.0;
const WEIGHT_REPOST: f64 = 5.0;

/// What Discover shows, as the job last found it.
#[derive(Debug, Clone)]
pub struct Discovery {
    /// Best first.
    pub trending: Vec<PostId>,
    pub rising: Vec<PostId>,
    /// Each tag with how many of the week's posts name it, most first.
    pub tags: Vec<(String, i64)>,
    found_at: Instant,
}

impl Discovery {
    /// Whether it was found more than `every` ago.
    pub fn stale(&self, every: Duration) -> bool {
        self.found_at.elapsed() >= every
    }
}

/// The day of `at` (days since 1970-01-01, UTC), as `plays_daily` keeps plays.
pub fn day_of(at: NaiveDateTime) -> i64 {
    at.and_utc().timestamp().div_euclid(86_400)
}

fn hours_between(earlier: NaiveDateTime, now: NaiveDateTime) -> f64 {
    ((now - earlier).num_seconds().max(0) as f64) / 3600.0
}

fn decayed(weight: f64, age_hours: f64) -> f64 {
    weight * 0.5_f64.powf(age_hours / HALF_LIFE_HOURS)
}

/// The best `n` of `scores`, best first (ties: the newer post first).
fn best(scores: HashMap<PostId, f64>, n: usize) -> Vec<PostId> {
    let mut ranked: Vec<(PostId, f64)> = scores.into_iter().filter(|(_, s)| *s > 0.0).collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    ranked.into_iter().take(n).map(|(id, _)| id).collect()
}

/// Finds what Discover shows now: six reads, each an index range capped at [`READ_AT_MOST`].
pub fn find(conn: &mut DbConnection) -> QueryResult<Discovery> {
    let now = db::time::now();
    let week_ago = now - chrono::Duration::days(WINDOW_DAYS);
    let week_floor = values::raw_id_floor(Utc::now() - chrono::Duration::days(WINDOW_DAYS));
    let mut scores: HashMap<PostId, f64> = HashMap::new();
    let mut add = |post: PostId, weight: f64, at: NaiveDateTime| {
        *scores.entry(post).or_default() += decayed(weight, hours_between(at, now));
    };

    let liked: Vec<(PostId, NaiveDateTime)> = likes::table
        .filter(likes::created_at.ge(week_ago))
        .select((likes::post_id, likes::created_at))
        .limit(READ_AT_MOST)
        .load(conn)?;
    for (post, at) in liked {
        add(post, WEIGHT_LIKE, at);
    }
    let reposted: Vec<(PostId, NaiveDateTime)> = reposts::table
        .filter(reposts::id.ge(week_floor))
        .order(reposts::id.desc())
        .select((reposts::post_id, reposts::created_at))
        .limit(READ_AT_MOST)
        .load(conn)?;
    for (post, at) in reposted {
        add(post, WEIGHT_REPOST, at);
    }
    let commented: Vec<(PostId, UserId, NaiveDateTime)> = comments::table
        .filter(comments::id.ge(week_floor))
        .order(comments::id.desc())
        .select((comments::post_id, comments::user_id, comments::created_at))
        .limit(READ_AT_MOST)
        .load(conn)?;
    // A person's comments on a post count once, as their newest (read first).
    let mut counted = std::collections::HashSet::new();
    for (post, by, at) in commented {
        if counted.insert((post, by)) {
            add(post, WEIGHT_COMMENT, at);
        }
    }
    let played: Vec<(PostId, i64, i64)> = plays_daily::table
        .filter(plays_daily::day.ge(day_of(week_ago)))
        .select((plays_daily::post_id, plays_daily::day, plays_daily::plays))
        .limit(READ_AT_MOST)
        .load(conn)?;
    for (post, day, plays) in played {
        // A day's plays as if at its noon (at most now).
        let noon = chrono::DateTime::from_timestamp(day * 86_400 + 43_200, 0).map_or(now, |t| t.naive_utc()).min(now);
        add(post, WEIGHT_PLAY * plays as f64, noon);
    }
    let trending = best(scores, HELD);

    let rising_floor = values::raw_id_floor(Utc::now() - chrono::Duration::hours(RISING_HOURS));
    let fresh: Vec<(PostId, NaiveDateTime, i64, i64, i64, i64)> = posts::table
        .filter(posts::id.ge(rising_floor))
        .order(posts::id.desc())
        .select((
            posts::id,
            posts::created_at,
            posts::likes_count,
            posts::comments_count,
            posts::reposts_count,
            posts::plays_count,
        ))
        .limit(READ_AT_MOST.min(20_000))
        .load(conn)?;
    let rising = best(
        fresh
            .into_iter()
            .map(|(id, at, likes, comments, reposts, plays)| {
                let engagement = WEIGHT_LIKE * likes as f64
                    + WEIGHT_COMMENT * comments as f64
                    + WEIGHT_REPOST * reposts as f64
                    + WEIGHT_PLAY * plays as f64;
                (id, engagement / (hours_between(at, now) + 2.0).powf(1.5))
            })
            .collect(),
        HELD,
    );

    let tagged: Vec<String> = post_tags::table
        .filter(post_tags::post_id.ge(week_floor))
        .select(post_tags::tag)
        .limit(READ_AT_MOST)
        .load(conn)?;
    let mut by_tag: HashMap<String, i64> = HashMap::new();
    for tag in tagged {
        *by_tag.entry(tag).or_default() += 1;
    }
    let mut tags: Vec<(String, i64)> = by_tag.into_iter().collect();
    tags.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    tags.truncate(20);

    Ok(Discovery { trending, rising, tags, found_at: Instant::now() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn activity_counts_half_as_much_every_two_days() {
        assert!((decayed(4.0, 0.0) - 4.0).abs() < 1e-9);
        assert!((decayed(4.0, 48.0) - 2.0).abs() < 1e-9);
        assert!((decayed(4.0, 96.0) - 1.0).abs() < 1e-9);
        // A like today outranks two likes five days ago.
        assert!(decayed(WEIGHT_LIKE, 1.0) > 2.0 * decayed(WEIGHT_LIKE, 120.0));
    }

    #[test]
    fn the_best_come_first_and_nothing_scores_without_activity() {
        let (a, b, c) = (PostId::generate(), PostId::generate(), PostId::generate());
        let scores = HashMap::from([(a, 1.0), (b, 3.0), (c, 0.0)]);
        assert_eq!(best(scores, 10), vec![b, a]);
    }

    #[test]
    fn days_are_counted_from_1970_in_utc() {
        let at = chrono::DateTime::from_timestamp(86_400 * 3 + 5, 0).map(|t| t.naive_utc());
        assert_eq!(at.map(day_of), Some(3));
    }
}
