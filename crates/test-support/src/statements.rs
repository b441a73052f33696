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
