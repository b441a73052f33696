//! 64-bit, time-ordered ids made by the application.
//!
//! Layout: 42 bits of milliseconds since 2024-01-01 (good for ~139 years), then 21 random bits.
//! Ids sort by creation time, are not guessable in sequence, and need no database counter, so
//! several processes can make them at once. In JSON they travel as strings, because JavaScript
//! numbers lose precision past 2^53.

use std::fmt;
use std::str::FromStr;

use rand::Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

const EPOCH_MS: i64 = 1_704_067_200_000; // 2024-01-01T00:00:00Z
const RANDOM_BITS: u32 = 21;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Id(pub i64);

impl Id {
    /// A fresh id for a new row.
    pub fn generate() -> Id {
        let ms = chrono::Utc::now().timestamp_millis() - EPOCH_MS;
        let random: i64 = rand::rng().random_range(0..(1 << RANDOM_BITS));
        Id((ms << RANDOM_BITS) | random)
    }

    pub fn get(self) -> i64 {
        self.0
    }
}

impl From<i64> for Id {
    fn from(v: i64) -> Self {
        Id(v)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[derive(Debug, thiserror::Error)]
#[error("not a valid id")]
pub struct InvalidId;

impl FromStr for Id {
    type Err = InvalidId;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.parse::<i64>() {
            Ok(v) if v > 0 => Ok(Id(v)),
            _ => Err(InvalidId),
        }
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Id {
    /// Accepts the string form we send, and a plain integer from lenient clients.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Text(String),
            Number(i64),
        }
        match Raw::deserialize(d)? {
            Raw::Text(s) => s.parse().map_err(serde::de::Error::custom),
            Raw::Number(n) if n > 0 => Ok(Id(n)),
            Raw::Number(_) => Err(serde::de::Error::custom(InvalidId)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_positive_and_time_ordered() {
        let a = Id::generate();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let b = Id::generate();
        assert!(a.0 > 0);
        assert!(b > a, "a later id sorts after an earlier one");
    }

    #[test]
    fn ids_made_in_the_same_millisecond_differ() {
        let ids: std::collections::HashSet<_> = (0..1000).map(|_| Id::generate()).collect();
        assert!(ids.len() > 990, "random low bits keep ids apart");
    }

    #[test]
    fn ids_travel_as_strings_in_json() {
        let id = Id(9_007_199_254_740_993); // 2^53 + 1: a JavaScript number would round it
        let json = serde_json::to_string(&id).unwrap_or_default();
        assert_eq!(json, "\"9007199254740993\"");
        let back: Id = serde_json::from_str(&json).unwrap_or(Id(0));
        assert_eq!(back, id);
    }

    #[test]
    fn bad_ids_do_not_parse() {
        for s in ["", "abc", "-5", "0", "99999999999999999999999"] {
            assert!(s.parse::<Id>().is_err(), "{s:?} must not parse");
        }
    }
}
