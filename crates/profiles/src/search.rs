//! User search: case-insensitive over name and login, index-backed on both backends.
//!
//! Queries of 3+ characters are substring matches through a trigram index (SQLite: an FTS5
//! table with the trigram tokenizer, kept by triggers; PostgreSQL: pg_trgm GIN indexes on
//! `lower(name)` and `login`). Shorter queries are prefix matches on the login index and on
//! `lower(name)`. An empty query lists the newest people. Results put an exact login first,
//! then login and name prefixes, then the rest by name.
//!
//! The SQL differs per backend, so it is written here twice, behind one function, each text kept
//! prepared (`db::Kept`: `?` bound in order).

use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Nullable, Text};
use db::model::UserCard;
use std::sync::Arc;

use db::{Changes, DbConnection, Held, Holdable, Kept, PageRule, Topic};
use values::UserId;

/// 20 people by default, at most 50.
pub const PAGE: PageRule = PageRule::new(20, 50);
/// Longer queries are cut: no name or login is longer.
const QUERY_MAX_CHARS: usize = 100;

/// A query as typed, made ready for [`search`]: trimmed, lower-cased, cut to 100 characters.
pub fn normalize(raw: &str) -> String {
    // Control characters match no name or login, and a NUL cannot even be sent to PostgreSQL
    // (the API refuses it with a 400 before it gets here).
    raw.trim().to_lowercase().chars().filter(|c| !c.is_control()).take(QUERY_MAX_CHARS).collect()
}

const COLUMNS: &str = "u.id, u.name, u.login, u.avatar_url, u.tag_id";
/// Who may be found: verified accounts that are not suspended (a probe of the unique index
/// `suspensions (user_id)`, as `social_graph::fragments::not_suspended` does), never the
/// searcher (bound at placeholder `p`).
fn who(p: &str) -> String {
    format!(
        "({p} IS NULL OR u.id <> {p}) AND u.email_verified \
         AND NOT EXISTS (SELECT 1 FROM suspensions s WHERE s.user_id = u.id)"
    )
}

fn like_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

/// The statements of a search, one text each (so each is kept prepared: on PostgreSQL a
/// search was parsed anew on every call, a third of the database's time in a community's mix,
/// issue 30). `?` are bound in order.
fn statement(sqlite: bool, chars: usize) -> &'static str {
    static TEXTS: std::sync::OnceLock<[String; 4]> = std::sync::OnceLock::new();
    let texts = TEXTS.get_or_init(|| {
        let ranked = |filter: &str, escape: &str| {
            format!(
                "SELECT {COLUMNS} FROM users u WHERE {filter} AND {who} \
                 ORDER BY (u.login = ?) DESC, (u.login LIKE ?{escape}) DESC, (lower(u.name) LIKE ?{escape}) DESC, \
                 lower(u.name), u.id LIMIT ?",
                who = who("?")
            )
        };
        [
            format!("SELECT {COLUMNS} FROM users u WHERE {} ORDER BY u.id DESC LIMIT ?", who("?")),
            ranked("u.id IN (SELECT rowid FROM users_search WHERE users_search MATCH ?)", " ESCAPE '\\'"),
            ranked(
                "((u.login >= ? AND u.login < ? || char(1114111)) OR (lower(u.name) >= ? AND lower(u.name) < ? || char(1114111)))",
                " ESCAPE '\\'",
            ),
            ranked("(lower(u.name) LIKE ? OR u.login LIKE ?)", ""),
        ]
    });
    let i = match (chars, sqlite) {
        (0, _) => 0,
        (3.., true) => 1,
        (_, true) => 2,
        (_, false) => 3,
    };
    &texts[i]
}

/// People matching `query` (already [`normalize`]d), never `exclude` (the searcher),
/// never accounts that have not verified their address or are suspended. Runs in the caller's
/// transaction.
pub fn search(conn: &mut DbConnection, query: &str, exclude: Option<UserId>, limit: i64) -> QueryResult<Vec<UserCard>> {
    let chars = query.chars().count();
    let sqlite = matches!(conn, DbConnection::Sqlite(_));
    let sql = statement(sqlite, chars);
    // `who`'s two mentions of the searcher.
    let who = |kept: Kept| kept.bind::<Nullable<BigInt>, _>(exclude).bind::<Nullable<BigInt>, _>(exclude);
    if chars == 0 {
        return who(Kept::new(sql)).bind::<BigInt, _>(limit).load(conn);
    }
    let prefix = format!("{}%", like_escape(query));
    let found = match (sqlite, chars) {
        (true, 3..) => Kept::new(sql).bind::<Text, _>(format!("\"{}\"", query.replace('"', "\"\""))),
        (true, _) => Kept::new(sql)
            .bind::<Text, _>(query.to_owned())
            .bind::<Text, _>(query.to_owned())
            .bind::<Text, _>(query.to_owned())
            .bind::<Text, _>(query.to_owned()),
        (false, _) => {
            let pattern = if chars >= 3 { format!("%{}%", like_escape(query)) } else { prefix.clone() };
            Kept::new(sql).bind::<Text, _>(pattern.clone()).bind::<Text, _>(pattern)
        }
    };
    who(found)
        .bind::<Text, _>(query.to_owned())
        .bind::<Text, _>(prefix.clone())
        .bind::<Text, _>(prefix)
        .bind::<BigInt, _>(limit)
        .load(conn)
}

/// People found for a query (ranked, the searcher not left out), remembered: a community's
/// searches repeat (first names, and every prefix of one as it is typed), and a search of a
/// common first name sorts hundreds of people (2.3 ms, a quarter of PostgreSQL's time in the
/// community mix, issue 30). Read again when anyone becomes findable or changes what finds
/// them ([`Topic::People`]), or when a card shown changes.
pub struct Found(Vec<UserCard>);

impl Holdable<(String, i64)> for Found {
    fn topics(&self, _: &(String, i64)) -> impl Iterator<Item = Topic> {
        std::iter::once(Topic::People).chain(self.0.iter().map(|u| Topic::User(u.id)))
    }

    fn weight(&self) -> u64 {
        64 + self
            .0
            .iter()
            .map(|u| 96 + (u.name.len() + u.login.len() + u.avatar_url.as_ref().map_or(0, String::len)) as u64)
            .sum::<u64>()
    }
}

/// Remembered people searches, by query and length: at most about 4 MB.
pub type Remembered = Held<(String, i64), Found>;

pub fn remembered(changes: Arc<Changes>) -> Remembered {
    Held::new(changes, 4 << 20, 2048)
}

/// [`search`], answered from `memory` when it holds the query: the page is remembered one
/// longer and without leaving anyone out, and `exclude` is left out of it here.
pub fn search_remembered(
    memory: &Remembered,
    conn: &mut DbConnection,
    query: &str,
    exclude: Option<UserId>,
    limit: i64,
) -> QueryResult<Vec<UserCard>> {
    let key = (query.to_owned(), limit + 1);
    let found = memory.get_or_read(&key, Some(conn), |c| search(c, query, None, limit + 1).map(|v| Some(Found(v))))?;
    let Some(found) = found else { return search(conn, query, exclude, limit) };
    Ok(found.0.iter().filter(|u| Some(u.id) != exclude).take(usize::try_from(limit).unwrap_or(0)).cloned().collect())
}
