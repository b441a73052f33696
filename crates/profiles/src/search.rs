//! User search: case-insensitive over name and login, index-backed on both backends.
//!
//! Queries of 3+ characters are substring matches through a trigram index (SQLite: an FTS5
//! table with the trigram tokenizer, kept by triggers; PostgreSQL: pg_trgm GIN indexes on
//! `lower(name)` and `login`). Shorter queries are prefix matches on the login index and on
//! `lower(name)`. An empty query lists the newest people. Results put an exact login first,
//! then login and name prefixes, then the rest by name.
//!
//! The SQL differs per backend, so it is written here twice, behind one function. Placeholders
//! follow the project's rule (docs/architecture.md): `$1`, `$2`, ... numbered by their first
//! appearance, which PostgreSQL binds by position and SQLite by name, alike.

use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Nullable, Text};
use db::model::UserCard;
use db::{DbConnection, PageRule};
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

/// People matching `query` (already [`normalize`]d), never `exclude` (the searcher),
/// never accounts that have not verified their address or are suspended. Runs in the caller's transaction.
pub fn search(conn: &mut DbConnection, query: &str, exclude: Option<UserId>, limit: i64) -> QueryResult<Vec<UserCard>> {
    let chars = query.chars().count();
    let sqlite = matches!(conn, DbConnection::Sqlite(_));
    if chars == 0 {
        let sql = format!("SELECT {COLUMNS} FROM users u WHERE {} ORDER BY u.id DESC LIMIT $2", who("$1"));
        return diesel::sql_query(sql).bind::<Nullable<BigInt>, _>(exclude).bind::<BigInt, _>(limit).load(conn);
    }
    let prefix = format!("{}%", like_escape(query));
    let (filter, needle, escape) = if sqlite {
        if chars >= 3 {
            (
                "u.id IN (SELECT rowid FROM users_search WHERE users_search MATCH $1)",
                format!("\"{}\"", query.replace('"', "\"\"")),
                " ESCAPE '\\'",
            )
        } else {
            (
                "((u.login >= $1 AND u.login < $1 || char(1114111)) OR (lower(u.name) >= $1 AND lower(u.name) < $1 || char(1114111)))",
                query.to_owned(),
                " ESCAPE '\\'",
            )
        }
    } else {
        let pattern = if chars >= 3 { format!("%{}%", like_escape(query)) } else { prefix.clone() };
        ("(lower(u.name) LIKE $1 OR u.login LIKE $1)", pattern, "")
    };
    let sql = format!(
        "SELECT {COLUMNS} FROM users u WHERE {filter} AND {who} \
         ORDER BY (u.login = $3) DESC, (u.login LIKE $4{escape}) DESC, (lower(u.name) LIKE $4{escape}) DESC, \
         lower(u.name), u.id LIMIT $5",
        who = who("$2")
    );
    diesel::sql_query(sql)
        .bind::<Text, _>(needle)
        .bind::<Nullable<BigInt>, _>(exclude)
        .bind::<Text, _>(query)
        .bind::<Text, _>(&prefix)
        .bind::<BigInt, _>(limit)
        .load(conn)
}
