//! Fixed-window counters kept in the database, so every process behind a load balancer sees the
//! same count. One atomic upsert per hit: it starts a new window when the old one has ended,
//! otherwise adds one, and answers the count and the window's start. Generic: sign-in throttles
//! (auth) and the write limits of every domain (api) count with it; each caller words its own
//! refusal from the time to wait that [`Throttled::Full`] carries.

use std::time::Duration;

use chrono::NaiveDateTime;
use diesel::sql_types::{BigInt, Text, Timestamp};
use diesel::{QueryableByName, RunQueryDsl};
use values::{DomainError, ErrorKind};

use crate::{DbConnection, DbError};

/// A hit that did not fit in its window, or the database failing to count it.
#[derive(Debug, thiserror::Error)]
pub enum Throttled {
    /// The window is full: try again after this long.
    #[error("Too many requests. Please try again in {}.", human_wait(*.0))]
    Full(Duration),
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<diesel::result::Error> for Throttled {
    fn from(e: diesel::result::Error) -> Self {
        Throttled::Db(e.into())
    }
}

impl DomainError for Throttled {
    fn kind(&self) -> ErrorKind {
        match self {
            Throttled::Full(wait) => ErrorKind::Throttled { retry_after: *wait },
            Throttled::Db(e) => e.kind(),
        }
    }
}

/// At most `max` hits per `window`.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    pub max: i64,
    pub window: Duration,
}

impl Rule {
    pub const fn per_minutes(max: i64, minutes: u64) -> Rule {
        Rule { max, window: Duration::from_secs(minutes * 60) }
    }
}

/// What follows the rows of the upsert: `?` the cutoff twice (`crate::Kept`). Each row carries
/// its hits: one for a hit counted here, several for hits a [`crate::tally::Tally`] counted.
const ON_CONFLICT: &str = " ON CONFLICT (key) DO UPDATE SET \
       hits = CASE WHEN throttle_buckets.window_start <= ? THEN excluded.hits ELSE throttle_buckets.hits + excluded.hits END, \
       window_start = CASE WHEN throttle_buckets.window_start <= ? THEN excluded.window_start ELSE throttle_buckets.window_start END";

/// `hits` on each of `rows`' keys, whose window started at `now` if the one held started at or
/// before `cutoff`; answers each key's count and window start. One text for each number of
/// rows, kept prepared: callers keep the numbers few (one or two, or [`crate::tally`]'s sizes).
pub(crate) fn upsert(rows: &[(&str, i64)], now: NaiveDateTime, cutoff: NaiveDateTime) -> crate::Kept {
    let values = vec!["(?, ?, ?)"; rows.len()].join(", ");
    let sql = format!(
        "INSERT INTO throttle_buckets (key, window_start, hits) VALUES {values}{ON_CONFLICT} RETURNING key, hits, window_start"
    );
    let mut query = crate::Kept::made(sql);
    for (key, hits) in rows {
        query = query.bind::<Text, _>(key.to_string()).bind::<Timestamp, _>(now).bind::<BigInt, _>(*hits);
    }
    query.bind::<Timestamp, _>(cutoff).bind::<Timestamp, _>(cutoff)
}

/// Where a window of `window` ending at `now` started: a count that started then or before is
/// over.
pub(crate) fn window_cutoff(now: NaiveDateTime, window: Duration) -> NaiveDateTime {
    now - chrono::Duration::from_std(window).unwrap_or_default()
}

/// How long until the window of `window` that started at `window_start` ends (at least a
/// second: what `Retry-After` says).
pub(crate) fn remaining(window_start: NaiveDateTime, now: NaiveDateTime, window: Duration) -> Duration {
    let ends = window_start + chrono::Duration::from_std(window).unwrap_or_default();
    (ends - now).to_std().unwrap_or_default().max(Duration::from_secs(1))
}

/// Counts one hit on `key`; refuses with the time left when the window is already full.
pub fn hit(conn: &mut DbConnection, key: &str, rule: Rule) -> Result<(), Throttled> {
    hit_counting(conn, key, rule).map(|_| ())
}

/// Counts one hit on `key` and answers how many the window holds with it; refuses with the
/// time left when the window is already full. One statement, so attempts made at the same
/// moment each see the count the others left: no more than `max` of them ever get through.
pub fn hit_counting(conn: &mut DbConnection, key: &str, rule: Rule) -> Result<i64, Throttled> {
    let now = crate::time::now();
    let bucket: KeyedBucket = upsert(&[(key, 1)], now, window_cutoff(now, rule.window)).get_result(conn)?;
    if bucket.hits > rule.max {
        return Err(Throttled::Full(remaining(bucket.window_start, now, rule.window)));
    }
    Ok(bucket.hits)
}

/// A counter as the upsert answers it.
#[derive(QueryableByName)]
pub(crate) struct KeyedBucket {
    #[diesel(sql_type = Text)]
    pub key: String,
    #[diesel(sql_type = BigInt)]
    pub hits: i64,
    #[diesel(sql_type = Timestamp)]
    pub window_start: NaiveDateTime,
}

/// Counts one hit on each of `counters` (a key and its most hits per `window`) in one
/// statement: a write limited per account and per client costs one round trip, not two. Every
/// counter counts even when another is full; refuses with the longest wait among full ones.
pub fn hit_all(conn: &mut DbConnection, counters: &[(&str, i64)], window: Duration) -> Result<(), Throttled> {
    if counters.is_empty() {
        return Ok(());
    }
    let now = crate::time::now();
    let rows: Vec<(&str, i64)> = counters.iter().map(|(key, _)| (*key, 1)).collect();
    let buckets: Vec<KeyedBucket> = upsert(&rows, now, window_cutoff(now, window)).load(conn)?;
    let wait = buckets
        .iter()
        .filter(|b| counters.iter().any(|(key, max)| *key == b.key && b.hits > *max))
        .map(|b| remaining(b.window_start, now, window))
        .max();
    match wait {
        Some(wait) => Err(Throttled::Full(wait)),
        None => Ok(()),
    }
}

/// Takes back one hit on `key`: an attempt counted before its outcome was known (a sign-in
/// counted as failed until its password proves right) that turned out not to count.
pub fn take_back(conn: &mut DbConnection, key: &str) -> Result<(), DbError> {
    use crate::schema::throttle_buckets::dsl as t;
    use diesel::prelude::*;
    diesel::update(t::throttle_buckets.filter(t::key.eq(key)).filter(t::hits.gt(0)))
        .set(t::hits.eq(t::hits - 1))
        .execute(conn)?;
    Ok(())
}

/// Forgets counters whose window ended long ago.
pub fn sweep(conn: &mut DbConnection, older_than: Duration) -> Result<usize, DbError> {
    use crate::schema::throttle_buckets::dsl as t;
    use diesel::prelude::*;
    let cutoff = crate::time::now() - chrono::Duration::from_std(older_than).unwrap_or_default();
    Ok(diesel::delete(t::throttle_buckets.filter(t::window_start.lt(cutoff))).execute(conn)?)
}

/// "2 minutes", "45 seconds": for messages.
pub fn human_wait(d: Duration) -> String {
    let secs = d.as_secs().max(1);
    if secs >= 120 {
        format!("{} minutes", secs.div_ceil(60))
    } else if secs >= 60 {
        "1 minute".to_owned()
    } else if secs == 1 {
        "1 second".to_owned()
    } else {
        format!("{secs} seconds")
    }
}

/// "2:41": the m:ss the Verify page counts down with.
pub fn clock_wait(d: Duration) -> String {
    let secs = d.as_secs().max(1);
    format!("{}:{:02}", secs / 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_read_well() {
        assert_eq!(human_wait(Duration::from_secs(1)), "1 second");
        assert_eq!(human_wait(Duration::from_secs(30)), "30 seconds");
        assert_eq!(human_wait(Duration::from_secs(61)), "1 minute");
        assert_eq!(human_wait(Duration::from_secs(601)), "11 minutes");
        assert_eq!(clock_wait(Duration::from_secs(161)), "2:41");
        assert_eq!(clock_wait(Duration::from_secs(180)), "3:00");
        assert_eq!(clock_wait(Duration::from_millis(10)), "0:01");
    }
}
