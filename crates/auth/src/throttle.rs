//! Fixed-window counters kept in the database, so every process behind a load balancer sees the
//! same count. One atomic upsert per hit: it starts a new window when the old one has ended,
//! otherwise adds one, and answers the count and the window's start.

use std::time::Duration;

use chrono::NaiveDateTime;
use db::DbConnection;
use db::diesel::sql_types::{BigInt, Text, Timestamp};
use db::diesel::{QueryableByName, RunQueryDsl};

use crate::AuthError;

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

#[derive(QueryableByName)]
struct Bucket {
    #[diesel(sql_type = BigInt)]
    hits: i64,
    #[diesel(sql_type = Timestamp)]
    window_start: NaiveDateTime,
}

// `$1`..`$3` first appear in order, which both PostgreSQL (positional) and SQLite (named
// parameters numbered by first appearance) bind the same way.
const UPSERT: &str = "INSERT INTO throttle_buckets (key, window_start, hits) VALUES ($1, $2, 1) \
     ON CONFLICT (key) DO UPDATE SET \
       hits = CASE WHEN throttle_buckets.window_start <= $3 THEN 1 ELSE throttle_buckets.hits + 1 END, \
       window_start = CASE WHEN throttle_buckets.window_start <= $3 THEN $2 ELSE throttle_buckets.window_start END \
     RETURNING hits, window_start";

fn window_cutoff(now: NaiveDateTime, rule: Rule) -> NaiveDateTime {
    now - chrono::Duration::from_std(rule.window).unwrap_or_default()
}

fn remaining(window_start: NaiveDateTime, now: NaiveDateTime, rule: Rule) -> Duration {
    let ends = window_start + chrono::Duration::from_std(rule.window).unwrap_or_default();
    (ends - now).to_std().unwrap_or_default().max(Duration::from_secs(1))
}

/// Counts one hit on `key`; refuses with the time left when the window is already full.
pub fn hit(conn: &mut DbConnection, key: &str, rule: Rule) -> Result<(), AuthError> {
    let now = db::time::now();
    let bucket: Bucket = db::diesel::sql_query(UPSERT)
        .bind::<Text, _>(key)
        .bind::<Timestamp, _>(now)
        .bind::<Timestamp, _>(window_cutoff(now, rule))
        .get_result(conn)?;
    if bucket.hits > rule.max {
        return Err(AuthError::Throttled(remaining(bucket.window_start, now, rule)));
    }
    Ok(())
}

/// Counts one hit on `key` without refusing: for events that are recorded now and checked
/// later (failed sign-ins, e-mails sent).
pub fn record(conn: &mut DbConnection, key: &str, rule: Rule) -> Result<(), AuthError> {
    match hit(conn, key, rule) {
        Ok(()) | Err(AuthError::Throttled(_)) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Refuses, without counting, when `key` has used up its window; used to check an account's
/// failed sign-ins before the password is even looked at.
pub fn check(conn: &mut DbConnection, key: &str, rule: Rule) -> Result<(), AuthError> {
    use db::diesel::prelude::*;
    use db::schema::throttle_buckets::dsl as t;
    let now = db::time::now();
    let bucket: Option<(i64, NaiveDateTime)> = t::throttle_buckets
        .filter(t::key.eq(key))
        .filter(t::window_start.gt(window_cutoff(now, rule)))
        .select((t::hits, t::window_start))
        .first(conn)
        .optional()?;
    match bucket {
        Some((hits, start)) if hits >= rule.max => Err(AuthError::Throttled(remaining(start, now, rule))),
        _ => Ok(()),
    }
}

/// The hits `key` has in its current window (0 when the window has ended).
pub fn count(conn: &mut DbConnection, key: &str, rule: Rule) -> Result<i64, AuthError> {
    use db::diesel::prelude::*;
    use db::schema::throttle_buckets::dsl as t;
    let cutoff = window_cutoff(db::time::now(), rule);
    let hits: Option<i64> = t::throttle_buckets
        .filter(t::key.eq(key))
        .filter(t::window_start.gt(cutoff))
        .select(t::hits)
        .first(conn)
        .optional()?;
    Ok(hits.unwrap_or(0))
}

/// Time left before `key` may be hit again, if it was hit within the rule's window; used for
/// cooldowns (one hit per window).
pub fn cooldown(conn: &mut DbConnection, key: &str, rule: Rule) -> Result<Option<Duration>, AuthError> {
    match check(conn, key, Rule { max: 1, ..rule }) {
        Ok(()) => Ok(None),
        Err(AuthError::Throttled(left)) => Ok(Some(left)),
        Err(e) => Err(e),
    }
}

/// Forgets counters whose window ended long ago.
pub fn sweep(conn: &mut DbConnection, older_than: Duration) -> Result<usize, AuthError> {
    use db::diesel::prelude::*;
    use db::schema::throttle_buckets::dsl as t;
    let cutoff = db::time::now() - chrono::Duration::from_std(older_than).unwrap_or_default();
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
