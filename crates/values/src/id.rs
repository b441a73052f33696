//! 64-bit, time-ordered ids made by the application, one type per kind of entity.
//!
//! Layout: 42 bits of milliseconds since 2024-01-01 (good for ~139 years), then 21 random bits.
//! Ids sort by creation time (so `WHERE id < :before ORDER BY id DESC` pages by time), are not
//! guessable in sequence, and need no database counter, so several processes can make them at
//! once. In the database they are `BIGINT` on both backends; in JSON they travel as strings,
//! because JavaScript numbers lose precision past 2^53.
//!
//! Every id is positive: there is no "zero id" meaning "nobody". Where something may be absent,
//! the type says so with `Option`.

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::BigInt;
use std::sync::atomic::{AtomicI64, Ordering};

use rand::Rng;

const EPOCH_MS: i64 = 1_704_067_200_000; // 2024-01-01T00:00:00Z
const RANDOM_BITS: u32 = 21;

/// A fresh raw id: time-ordered, with random low bits, and never one this process made before.
/// Prefer the typed `generate()`s.
///
/// Random bits alone collided: at 2,600 comments a second (`make bench`) two comments drew the
/// same bits in the same millisecond about once in a run, and the second insert failed. So an
/// id drawn at or below the last one made here becomes the last one plus one: ids of a process
/// strictly increase, still in time order (the low bits only spill into the next millisecond's
/// range under thousands of ids a millisecond). Across processes the random bits still keep
/// them apart.
pub fn new_raw_id() -> i64 {
    static LAST: AtomicI64 = AtomicI64::new(0);
    let drawn = raw_id_at(chrono::Utc::now());
    let previous = LAST
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |last| Some(drawn.max(last + 1)))
        .unwrap_or_else(|last| last);
    drawn.max(previous + 1)
}

/// A raw id for something made at `time` (data made up for benchmarks carries its own past).
pub fn raw_id_at(time: chrono::DateTime<chrono::Utc>) -> i64 {
    let ms = time.timestamp_millis() - EPOCH_MS;
    let random: i64 = rand::rng().random_range(0..(1 << RANDOM_BITS));
    ((ms.max(1)) << RANDOM_BITS) | random
}

/// The smallest raw id of anything made at or after `time`: ids sort by time, so "made since"
/// is a range of a primary key (`id >= raw_id_floor(t)`), no index on a time column needed.
pub fn raw_id_floor(time: chrono::DateTime<chrono::Utc>) -> i64 {
    (time.timestamp_millis() - EPOCH_MS).max(0) << RANDOM_BITS
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("not a valid id")]
pub struct InvalidId;

macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
            diesel::expression::AsExpression, diesel::deserialize::FromSqlRow,
        )]
        #[diesel(sql_type = BigInt)]
        pub struct $name(i64);

        impl $name {
            /// A fresh id for a new row.
            pub fn generate() -> $name {
                $name(new_raw_id())
            }

            /// The number as stored.
            pub fn get(self) -> i64 {
                self.0
            }
        }

        impl TryFrom<i64> for $name {
            type Error = InvalidId;
            fn try_from(v: i64) -> Result<Self, InvalidId> {
                if v > 0 { Ok($name(v)) } else { Err(InvalidId) }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}", self.0)
            }
        }

        impl std::str::FromStr for $name {
            type Err = InvalidId;
            fn from_str(s: &str) -> Result<Self, InvalidId> {
                s.parse::<i64>().map_err(|_| InvalidId).and_then($name::try_from)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(&self.0)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            /// Accepts the string form we send, and a plain integer from lenient clients.
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                raw_from_json(d).map($name)
            }
        }

        impl<DB: Backend> ToSql<BigInt, DB> for $name
        where
            i64: ToSql<BigInt, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                self.0.to_sql(out)
            }
        }

        impl<DB: Backend> FromSql<BigInt, DB> for $name
        where
            i64: FromSql<BigInt, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
                i64::from_sql(bytes).map($name)
            }
        }
    };
}

fn raw_from_json<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Text(String),
        Number(i64),
    }
    let raw = match <Raw as serde::Deserialize>::deserialize(d)? {
        Raw::Text(s) => s.parse::<i64>().map_err(|_| serde::de::Error::custom(InvalidId))?,
        Raw::Number(n) => n,
    };
    if raw > 0 { Ok(raw) } else { Err(serde::de::Error::custom(InvalidId)) }
}

typed_id!(
    /// A person's account.
    UserId
);
typed_id!(
    /// A signed-in session (a row an access token names).
    SessionId
);
typed_id!(
    /// A post of any type.
    PostId
);
typed_id!(
    /// A comment on a post.
    CommentId
);
typed_id!(
    /// A notification to a person.
    NotificationId
);
typed_id!(
    /// A report of a post.
    ReportId
);
typed_id!(
    /// A person's playlist of tracks and scores.
    PlaylistId
);
typed_id!(
    /// One entry of a playlist: a track or score of a post.
    PlaylistItemId
);
typed_id!(
    /// A piece of background work (`db::jobs`).
    JobId
);
typed_id!(
    /// An archive of a person's data they asked for ("Download my data").
    ExportId
);
typed_id!(
    /// One of a person's passkeys.
    PasskeyId
);
typed_id!(
    /// A device a person turned Web Push notifications on for.
    PushDeviceId
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_positive_and_time_ordered() {
        let a = UserId::generate();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let b = UserId::generate();
        assert!(a.get() > 0);
        assert!(b > a, "a later id sorts after an earlier one");
    }

    #[test]
    fn the_floor_of_a_time_is_below_every_id_made_then_and_above_those_before() {
        let t = chrono::Utc::now();
        let before = raw_id_at(t - chrono::Duration::milliseconds(1));
        let at = raw_id_at(t);
        assert!(before < raw_id_floor(t) && raw_id_floor(t) <= at);
    }

    #[test]
    fn ids_made_at_once_on_many_threads_never_repeat() {
        let made: Vec<Vec<i64>> = std::thread::scope(|s| {
            let threads: Vec<_> =
                (0..4).map(|_| s.spawn(|| (0..50_000).map(|_| new_raw_id()).collect::<Vec<_>>())).collect();
            threads.into_iter().map(|t| t.join().unwrap_or_default()).collect()
        });
        for ids in &made {
            assert!(ids.windows(2).all(|w| w[0] < w[1]), "each thread's ids increase");
        }
        let all: std::collections::HashSet<i64> = made.iter().flatten().copied().collect();
        assert_eq!(all.len(), 200_000, "200,000 ids, thousands a millisecond, none twice");
    }

    #[test]
    fn ids_travel_as_strings_in_json() {
        let id = UserId(9_007_199_254_740_993); // 2^53 + 1: a JavaScript number would round it
        let json = serde_json::to_string(&id).unwrap_or_default();
        assert_eq!(json, "\"9007199254740993\"");
        let back: Option<UserId> = serde_json::from_str(&json).ok();
        assert_eq!(back, Some(id));
        let lenient: Option<UserId> = serde_json::from_str("42").ok();
        assert_eq!(lenient, Some(UserId(42)));
    }

    #[test]
    fn bad_ids_do_not_parse() {
        for s in ["", "abc", "-5", "0", "99999999999999999999999"] {
            assert!(s.parse::<UserId>().is_err(), "{s:?} must not parse");
        }
        for json in ["0", "-1", "\"0\"", "\"x\"", "null", "1.5"] {
            assert!(serde_json::from_str::<UserId>(json).is_err(), "{json} must not parse");
        }
        assert_eq!(UserId::try_from(0), Err(InvalidId), "no zero sentinel");
    }
}
