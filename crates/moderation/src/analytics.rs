//! What the admin panel counts: totals for its cards, and per-day counts for its chart.
//!
//! Totals count rows (an admin opens the panel now and then; keeping site-wide counters on one
//! row would make every like in the product wait for every other). "Since" is a range of a
//! time-ordered primary key ([`values::raw_id_floor`]), so the recent counts and the chart read
//! only the recent rows.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use db::DbConnection;
use db::diesel::dsl::count_star;
use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Text};
use db::schema::{comments, likes, posts, reports, users};

use values::PostKind;

use crate::model::Status;

/// The panel's totals.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Analytics {
    pub users: i64,
    pub new_users_7_days: i64,
    pub posts: i64,
    /// Posts of each kind, every kind present (none is 0).
    pub posts_by_type: BTreeMap<PostKind, i64>,
    pub posts_today: i64,
    pub comments: i64,
    pub likes: i64,
    pub open_reports: i64,
}

/// The start of `now`'s day (UTC).
fn midnight(now: DateTime<Utc>) -> DateTime<Utc> {
    now.date_naive().and_hms_opt(0, 0, 0).map_or(now, |t| t.and_utc())
}

pub fn analytics(conn: &mut DbConnection, now: DateTime<Utc>) -> QueryResult<Analytics> {
    let week_ago = values::raw_id_floor(now - Duration::days(7));
    let today = values::raw_id_floor(midnight(now));
    let counted: BTreeMap<PostKind, i64> =
        posts::table.group_by(posts::kind).select((posts::kind, count_star())).load(conn)?.into_iter().collect();
    let posts_by_type = PostKind::ALL.iter().map(|k| (*k, counted.get(k).copied().unwrap_or(0))).collect();
    Ok(Analytics {
        users: users::table.count().get_result(conn)?,
        new_users_7_days: users::table.filter(users::id.ge(week_ago)).count().get_result(conn)?,
        posts: counted.values().sum(),
        posts_by_type,
        posts_today: posts::table.filter(posts::id.ge(today)).count().get_result(conn)?,
        comments: comments::table.count().get_result(conn)?,
        likes: likes::table.count().get_result(conn)?,
        open_reports: reports::table.filter(reports::status.eq(Status::Pending)).count().get_result(conn)?,
    })
}

/// The chart shows at most a year.
pub const DAILY_MAX_DAYS: u32 = 365;

/// One day of the chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Day {
    pub date: NaiveDate,
    pub sign_ups: i64,
    pub posts: i64,
    pub reports: i64,
}

#[derive(QueryableByName)]
struct DayCount {
    #[diesel(sql_type = Text)]
    day: String,
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// Rows of `table` made on each day since `since` (a primary-key range; the day as the
/// backend spells a date).
fn per_day(conn: &mut DbConnection, table: &str, since: i64) -> QueryResult<BTreeMap<String, i64>> {
    let day = match conn {
        DbConnection::Sqlite(_) => "substr(created_at, 1, 10)",
        DbConnection::Postgres(_) => "to_char(created_at, 'YYYY-MM-DD')",
    };
    let sql = format!("SELECT {day} AS day, count(*) AS n FROM {table} WHERE id >= $1 GROUP BY {day}");
    let rows: Vec<DayCount> = diesel::sql_query(sql).bind::<BigInt, _>(since).load(conn)?;
    Ok(rows.into_iter().map(|r| (r.day, r.n)).collect())
}

/// Sign-ups, posts and reports on each of the last `days` days (today included, oldest first,
/// days without any included as zeros).
pub fn daily(conn: &mut DbConnection, days: u32, now: DateTime<Utc>) -> QueryResult<Vec<Day>> {
    let days = days.clamp(1, DAILY_MAX_DAYS);
    let first = midnight(now) - Duration::days(i64::from(days) - 1);
    let since = values::raw_id_floor(first);
    let sign_ups = per_day(conn, "users", since)?;
    let posts = per_day(conn, "posts", since)?;
    let reports = per_day(conn, "reports", since)?;
    let at = |m: &BTreeMap<String, i64>, key: &str| m.get(key).copied().unwrap_or(0);
    Ok((0..days)
        .map(|i| {
            let date = first.date_naive() + Duration::days(i64::from(i));
            let key = date.format("%Y-%m-%d").to_string();
            Day { date, sign_ups: at(&sign_ups, &key), posts: at(&posts, &key), reports: at(&reports, &key) }
        })
        .collect())
}
