//! User search: case-insensitive over name and login, index-backed on both backends.
//!
//! Queries of 3+ characters are substring matches through a trigram index (SQLite: an FTS5
//! table with the trigram tokenizer, kept by triggers; PostgreSQL: pg_trgm GIN indexes on
//! `lower(name)` and `login`). Shorter queries are prefix matches on the login index and on
//! `lower(name)`. An empty query lists the newest people. Results put an exact login first,
//! then login and name prefixes, then the rest by name.

use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Text};
use db::model::UserCard;
use db::{DbConnection, Id};

const COLUMNS: &str = "u.id, u.name, u.login, u.avatar_url, u.tag_id";

fn like_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

/// People matching `query` (already trimmed and lower-cased), never `exclude` (the searcher),
/// never accounts that have not verified their address.
pub fn search(conn: &mut DbConnection, query: &str, exclude: Id, limit: i64) -> QueryResult<Vec<UserCard>> {
    let chars = query.chars().count();
    let sqlite = matches!(conn, DbConnection::Sqlite(_));
    if chars == 0 {
        let sql = format!(
            "SELECT {COLUMNS} FROM users u WHERE u.id <> {p1} AND u.email_verified ORDER BY u.id DESC LIMIT {p2}",
            p1 = if sqlite { "?1" } else { "$1" },
            p2 = if sqlite { "?2" } else { "$2" },
        );
        return diesel::sql_query(sql).bind::<BigInt, _>(exclude.0).bind::<BigInt, _>(limit).load(conn);
    }
    let prefix = format!("{}%", like_escape(query));
    if sqlite {
        let (filter, needle) = if chars >= 3 {
            (
                "u.id IN (SELECT rowid FROM users_search WHERE users_search MATCH ?1)",
                format!("\"{}\"", query.replace('"', "\"\"")),
            )
        } else {
            (
                "((u.login >= ?1 AND u.login < ?1 || char(1114111)) OR (lower(u.name) >= ?1 AND lower(u.name) < ?1 || char(1114111)))",
                query.to_owned(),
            )
        };
        let sql = format!(
            "SELECT {COLUMNS} FROM users u WHERE {filter} AND u.id <> ?2 AND u.email_verified \
             ORDER BY (u.login = ?3) DESC, (u.login LIKE ?4 ESCAPE '\\') DESC, (lower(u.name) LIKE ?4 ESCAPE '\\') DESC, \
             lower(u.name), u.id LIMIT ?5"
        );
        diesel::sql_query(sql)
            .bind::<Text, _>(needle)
            .bind::<BigInt, _>(exclude.0)
            .bind::<Text, _>(query)
            .bind::<Text, _>(&prefix)
            .bind::<BigInt, _>(limit)
            .load(conn)
    } else {
        let pattern = if chars >= 3 { format!("%{}%", like_escape(query)) } else { prefix.clone() };
        let sql = format!(
            "SELECT {COLUMNS} FROM users u WHERE (lower(u.name) LIKE $1 OR u.login LIKE $1) AND u.id <> $2 AND u.email_verified \
             ORDER BY (u.login = $3) DESC, (u.login LIKE $4) DESC, (lower(u.name) LIKE $4) DESC, lower(u.name), u.id LIMIT $5"
        );
        diesel::sql_query(sql)
            .bind::<Text, _>(pattern)
            .bind::<BigInt, _>(exclude.0)
            .bind::<Text, _>(query)
            .bind::<Text, _>(&prefix)
            .bind::<BigInt, _>(limit)
            .load(conn)
    }
}
