//! Time is stored as UTC without a zone (`Timestamp` on both backends) and sent as RFC 3339.

use chrono::{DateTime, NaiveDateTime, Utc};

/// Now, in UTC, truncated to microseconds so a value read back equals the one written on both
/// backends (PostgreSQL keeps microseconds).
pub fn now() -> NaiveDateTime {
    let now = Utc::now().naive_utc();
    let micros = now.and_utc().timestamp_micros();
    DateTime::from_timestamp_micros(micros).map_or(now, |t| t.naive_utc())
}

/// RFC 3339 in UTC with a `Z`, as the API sends timestamps.
pub fn to_rfc3339(t: NaiveDateTime) -> String {
    t.and_utc().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
