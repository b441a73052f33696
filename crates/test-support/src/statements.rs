//! What a page costs: the statements a connection runs, counted or recorded with Diesel's
//! instrumentation, and a check that each of them is answered from an index on either backend.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use db::DbConnection;
use db::diesel::connection::{Instrumentation, InstrumentationEvent};
use db::diesel::prelude::*;

/// Counts the statements a connection runs.
struct Counter(Arc<AtomicUsize>);

impl Instrumentation for Counter {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        if let InstrumentationEvent::StartQuery { .. } = event {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// Runs `f` and answers what it returned with the number of statements it ran.
pub fn counted<T>(conn: &mut DbConnection, f: impl FnOnce(&mut DbConnection) -> T) -> (T, usize) {
    let n = Arc::new(AtomicUsize::new(0));
    conn.set_instrumentation(Counter(n.clone()));
    let out = f(conn);
    conn.set_instrumentation(Counter(Arc::new(AtomicUsize::new(0))));
    (out, n.load(Ordering::SeqCst))
}

/// Remembers the statements a connection runs, as SQL with their bind values.
struct Recorder(Arc<Mutex<Vec<String>>>);

impl Instrumentation for Recorder {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        if let InstrumentationEvent::StartQuery { query, .. } = event {
            self.0.lock().expect("the recorder's lock").push(query.to_string());
        }
    }
}

/// Runs `f` and answers the statements it ran, as Diesel prints them (`SQL -- binds: [..]`).
pub fn recorded(conn: &mut DbConnection, f: impl FnOnce(&mut DbConnection)) -> Vec<String> {
    let log = Arc::new(Mutex::new(Vec::new()));
    conn.set_instrumentation(Recorder(log.clone()));
    f(conn);
    conn.set_instrumentation(Recorder(Arc::new(Mutex::new(Vec::new()))));
    log.lock().expect("the recorder's lock").clone()
}

/// Remembers what a connection runs, and what it keeps prepared.
struct Preparations(Arc<Mutex<(Vec<String>, Vec<String>)>>);

impl Instrumentation for Preparations {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        let mut log = self.0.lock().expect("the recorder's lock");
        match event {
            InstrumentationEvent::StartQuery { query, .. } => {
                let text = query.to_string();
                log.0.push(text.split(" -- binds:").next().unwrap_or_default().trim().to_owned());
            }
            InstrumentationEvent::CacheQuery { sql, .. } => log.1.push(sql.trim().to_owned()),
            _ => {}
        }
    }
}

/// The statements `f` runs that Diesel does not keep prepared, so that SQLite parses and plans
/// them (PostgreSQL plans them) on every call; run on a fresh connection to `url`, so that every
/// statement kept is seen being kept.
pub fn prepared_every_time(url: &str, f: impl FnOnce(&mut DbConnection)) -> Vec<String> {
    let mut conn = DbConnection::establish(url).expect("a fresh connection");
    let log = Arc::new(Mutex::new((Vec::new(), Vec::new())));
    conn.set_instrumentation(Preparations(log.clone()));
    f(&mut conn);
    let (ran, kept) = log.lock().expect("the recorder's lock").clone();
    ran.into_iter().filter(|sql| !kept.contains(sql)).collect()
}

/// [`prepared_every_time`] for writes: `f` writes through the doors of a fresh [`db::Db`] of one
/// connection to `url` (what [`db::Db::write_blocking`] writes on), whose statements are seen.
pub fn prepared_every_time_writing(url: &str, f: impl FnOnce(&db::Db)) -> Vec<String> {
    let db = db::Db::connect_without_migrating(url, &db::PoolOptions { max_size: 1, ..Default::default() })
        .expect("a fresh pool of one connection");
    let log = Arc::new(Mutex::new((Vec::new(), Vec::new())));
    db.get().expect("its one connection").set_instrumentation(Preparations(log.clone()));
    f(&db);
    let (ran, kept) = log.lock().expect("the recorder's lock").clone();
    ran.into_iter().filter(|sql| !kept.contains(sql)).collect()
}

/// Fails when one of `statements` (as [`recorded`] gives them) scans a table without an index:
/// PostgreSQL is asked with sequential scans priced out, so a plan that still scans has no
/// index to use; SQLite's plan names the index of every scan. Each statement and its plan are
/// printed (`--nocapture` shows them; `bench/query_plans.py` writes docs/query-plans.md).
pub fn assert_index_backed(conn: &mut DbConnection, statements: &[String]) {
    let postgres = matches!(conn, DbConnection::Postgres(_));
    // SQLite plans by the sizes its statistics give: a test's tables are tiny, so it is given
    // those of `make bench`'s million posts, and plans as it would there.
    let at_scale = !postgres && at_a_million_posts(conn, true);
    // An INSERT of values reads no table, a setting (`SET`, `RESET`) none: nothing to plan.
    let plain = |s: &&String| {
        let s = s.trim_start().to_ascii_uppercase();
        !["INSERT", "SET ", "RESET "].iter().any(|w| s.starts_with(w))
    };
    for recorded in statements.iter().filter(plain) {
        let sql = with_binds(recorded, postgres);
        let plan = plan(conn, &sql);
        let backend = if postgres { "PostgreSQL" } else { "SQLite" };
        println!("--- statement ({backend})\n{sql}\n--- plan\n{plan}\n--- end");
        if postgres {
            assert!(!plan.contains("Seq Scan"), "a table scanned without an index:\n{sql}\n{plan}");
        } else {
            // A subquery's rows (a co-routine, or one made before) are read by a SCAN of its
            // name: its own lines say how it reads its tables.
            let made: Vec<&str> = plan
                .lines()
                .filter_map(|l| l.trim().strip_prefix("CO-ROUTINE ").or_else(|| l.trim().strip_prefix("MATERIALIZE ")))
                .collect();
            // A Bloom filter on a joined table is built from all of it at every run of the
            // statement, whatever rows the page needs (a join of `reposts` once cost every feed
            // page 10 ms). One of a list subquery (`CREATE BLOOM FILTER` under it) holds that
            // list's few rows.
            assert!(!plan.contains("BLOOM FILTER ON "), "a Bloom filter of a whole table:\n{sql}\n{plan}");
            for line in plan.lines() {
                let scanned = line.trim().strip_prefix("SCAN ").unwrap_or_default();
                let of_subquery = scanned.starts_with("(subquery-") || made.contains(&scanned);
                // A full-text table read through its index: FTS5 names the constraints it
                // answers (`M` a MATCH, `=` a rowid) after the index number.
                let full_text_index = line.contains(" VIRTUAL TABLE INDEX ")
                    && line.rsplit(':').next().is_some_and(|used| used.contains('M') || used.contains('='));
                let scans_table = line.contains("SCAN ")
                    && !line.contains(" USING ")
                    && !full_text_index
                    && !line.contains("CONSTANT ROW")
                    && !of_subquery;
                assert!(!scans_table, "a table scanned without an index:\n{sql}\n{plan}");
            }
        }
    }
    if at_scale {
        at_a_million_posts(conn, false);
    }
}

/// The statistics SQLite's planner had for `make bench`'s database (20,000 people, a million
/// posts, as `ANALYZE` wrote them): table, index, and its `sqlite_stat1` figures.
const STATS_AT_A_MILLION_POSTS: &[(&str, &str, &str)] = &[
    ("posts", "posts_id_user_id_idx", "1000000 1 1"),
    ("posts", "posts_user_id_idx", "1000000 50 1"),
    ("posts", "sqlite_autoindex_posts_1", "1000000 1"),
    ("likes", "likes_created_idx", "9593749 14"),
    ("likes", "likes_user_id_idx", "9593749 480 1"),
    ("likes", "sqlite_autoindex_likes_1", "9593749 14 1"),
    ("reposts", "reposts_post_idx", "190388 2 1"),
    ("reposts", "reposts_user_idx", "190388 10 1"),
    ("reposts", "reposts_user_post_idx", "190388 10 1"),
    ("reposts", "sqlite_autoindex_reposts_1", "190388 1"),
    ("comments", "comments_user_post_idx", "527534 27 1 1"),
    ("comments", "comments_post_id_idx", "527534 3 1"),
    ("comments", "sqlite_autoindex_comments_1", "527534 1"),
    ("users", "sqlite_autoindex_users_1", "20000 1"),
    ("users", "users_login_key", "20000 1"),
    ("users", "users_email_key", "20000 1"),
    ("listens", "listens_listened_id_idx", "310224 16 1"),
    ("listens", "sqlite_autoindex_listens_1", "310224 16 1"),
    ("post_tags", "post_tags_post_idx", "333334 1"),
    ("post_tags", "sqlite_autoindex_post_tags_1", "333334 41667 1"),
    ("post_audio", "sqlite_autoindex_post_audio_1", "399966 1 1"),
    ("post_lyrics", "sqlite_autoindex_post_lyrics_1", "200076 1"),
    ("post_media", "sqlite_autoindex_post_media_1", "250443 1 1"),
    ("post_scores", "sqlite_autoindex_post_scores_1", "149515 1 1"),
    ("playlist_items", "playlist_items_order_idx", "20000 20 1"),
    ("playlists", "playlists_user_idx", "1000 1 1"),
];

/// Gives SQLite's planner the statistics of a million posts (`on`), or takes them away again;
/// answers whether it did.
fn at_a_million_posts(conn: &mut DbConnection, on: bool) -> bool {
    use db::diesel::connection::SimpleConnection;
    let mut sql = String::from("ANALYZE; DELETE FROM sqlite_stat1;");
    if on {
        for (table, index, stat) in STATS_AT_A_MILLION_POSTS {
            sql.push_str(&format!(
                "INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('{table}', '{index}', '{stat}');"
            ));
        }
    }
    // Read again by the planner.
    sql.push_str("ANALYZE sqlite_schema;");
    conn.batch_execute(&sql).is_ok()
}

/// `SQL -- binds: [..]` as runnable SQL: the bind values (numbers, booleans and NULLs on these
/// pages) put in place of the placeholders.
fn with_binds(recorded: &str, postgres: bool) -> String {
    let (sql, binds) = recorded.split_once(" -- binds: ").unwrap_or((recorded, "[]"));
    let values: Vec<String> = bind_values(binds, postgres);
    let mut out = String::new();
    let mut n = 0;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if !postgres && c == '?' {
            out.push_str(&values[n]);
            n += 1;
        } else if postgres && c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            let mut digits = String::new();
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                digits.push(*d);
                chars.next();
            }
            let i: usize = digits.parse().expect("a placeholder number");
            out.push_str(&values[i - 1]);
        } else {
            out.push(c);
        }
    }
    out
}

/// The values of a Debug-printed bind list: integers (inside `Some(PostId(..))` or bare),
/// booleans, strings, timestamps, `None`, and lists of integers or strings (PostgreSQL's `= ANY($n)`), as
/// SQL literals.
fn bind_values(binds: &str, postgres: bool) -> Vec<String> {
    let inner = binds.trim().strip_prefix('[').and_then(|b| b.strip_suffix(']')).unwrap_or_default();
    items(inner).iter().map(|v| literal(v.trim(), postgres)).collect()
}

/// Splits a Debug-printed list at its top-level commas (not inside brackets or strings).
fn items(list: &str) -> Vec<String> {
    let mut items = Vec::new();
    let (mut depth, mut in_string, mut escaped, mut current) = (0, false, false, String::new());
    for c in list.chars() {
        if in_string {
            in_string = c != '"' || escaped;
            escaped = c == '\\' && !escaped;
        } else {
            match c {
                '"' => in_string = true,
                '[' | '(' => depth += 1,
                ']' | ')' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(std::mem::take(&mut current));
                    continue;
                }
                _ => {}
            }
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        items.push(current);
    }
    items
}

fn literal(v: &str, postgres: bool) -> String {
    if let Some(text) = v.strip_prefix("Some(").and_then(|t| t.strip_suffix(')')).filter(|t| t.starts_with('"')) {
        return literal(text, postgres);
    }
    if v.contains("None") {
        "NULL".to_owned()
    } else if v == "true" || v == "false" {
        if postgres { v.to_owned() } else { u8::from(v == "true").to_string() }
    } else if let Some(text) = v.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        format!("'{}'", text.replace("\\\"", "\"").replace('\'', "''"))
    } else if v.len() >= 19 && v.as_bytes()[4] == b'-' && v.contains(':') {
        // A timestamp (`2026-11-24T02:31:05.123`).
        format!("'{}'", v.replace('T', " "))
    } else if let Some(list) = v.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
        let values: Vec<String> = items(list).iter().map(|i| literal(i.trim(), postgres)).collect();
        let kind = if values.first().is_some_and(|x| x.starts_with('\'')) { "text" } else { "bigint" };
        format!("ARRAY[{}]::{kind}[]", values.join(","))
    } else {
        v.chars().filter(|c| c.is_ascii_digit() || *c == '-').collect()
    }
}

fn plan(conn: &mut DbConnection, sql: &str) -> String {
    #[derive(QueryableByName)]
    struct SqliteRow {
        #[diesel(sql_type = db::diesel::sql_types::Text)]
        detail: String,
    }
    #[derive(QueryableByName)]
    struct PgRow {
        #[diesel(sql_type = db::diesel::sql_types::Text, column_name = "QUERY PLAN")]
        line: String,
    }
    match conn {
        DbConnection::Sqlite(_) => db::diesel::sql_query(format!("EXPLAIN QUERY PLAN {sql}"))
            .load::<SqliteRow>(conn)
            .expect("a plan")
            .into_iter()
            .map(|r| r.detail)
            .collect::<Vec<_>>()
            .join("\n"),
        DbConnection::Postgres(_) => {
            // With sequential scans priced out, a query still scanning a table has no index.
            db::diesel::sql_query("SET enable_seqscan = off").execute(conn).expect("planner setting");
            let lines = db::diesel::sql_query(format!("EXPLAIN {sql}")).load::<PgRow>(conn).expect("a plan");
            db::diesel::sql_query("RESET enable_seqscan").execute(conn).expect("planner setting");
            lines.into_iter().map(|r| r.line).collect::<Vec<_>>().join("\n")
        }
    }
}
