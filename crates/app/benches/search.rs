//! User search at 100,000 people, on SQLite and PostgreSQL: `make bench`.
//!
//! Fills a fresh database of each backend with 100k verified users (realistic names and
//! logins), then times searches of each kind the screen sends (empty, 1-2 character prefixes,
//! 3+ character substrings, rare and common) and prints the query plans that answer them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::time::{Duration, Instant};

use app::App;
use db::DbConnection;
use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Text, Timestamp};
use test_support::TestDb;
use values::UserId;

const USERS: usize = 100_000;
const RUNS: usize = 40;

const FIRST: [&str; 32] = [
    "Ada",
    "Miles",
    "Nina",
    "Louis",
    "Ella",
    "John",
    "Billie",
    "Ray",
    "Aretha",
    "Herbie",
    "Joni",
    "Thelonious",
    "Clara",
    "Johann",
    "Frederic",
    "Amy",
    "Kurt",
    "Bjork",
    "Fela",
    "Celia",
    "Astor",
    "Nusrat",
    "Ravi",
    "Oum",
    "Youssou",
    "Mahalia",
    "Chet",
    "Dizzy",
    "Sarah",
    "Etta",
    "Django",
    "Wes",
];
const LAST: [&str; 32] = [
    "Lovelace",
    "Davis",
    "Simone",
    "Armstrong",
    "Fitzgerald",
    "Coltrane",
    "Holiday",
    "Charles",
    "Franklin",
    "Hancock",
    "Mitchell",
    "Monk",
    "Schumann",
    "Bach",
    "Chopin",
    "Winehouse",
    "Cobain",
    "Gudmunds",
    "Kuti",
    "Cruz",
    "Piazzolla",
    "Khan",
    "Shankar",
    "Kalthoum",
    "Ndour",
    "Jackson",
    "Baker",
    "Gillespie",
    "Vaughan",
    "James",
    "Reinhardt",
    "Montgomery",
];

fn fill(db: &db::Db, users: usize) {
    let sqlite = db.backend() == db::Backend::Sqlite;
    let started = Instant::now();
    let now = db::time::now();
    let first_id = UserId::generate().get();
    db.write_blocking(|conn| {
        for batch in 0..users / 500 {
            let mut sql =
                String::from("INSERT INTO users (id, name, login, email, email_verified, created_at) VALUES ");
            let mut rows = Vec::new();
            for i in batch * 500..(batch + 1) * 500 {
                let name = format!("{} {}", FIRST[i % 32], LAST[(i / 32) % 32]);
                let name: String = name.chars().take(15).collect();
                let suffix = format!("_{i}");
                let stem: String = format!("{}{}", FIRST[(i * 7) % 32], LAST[(i / 3) % 32])
                    .to_lowercase()
                    .chars()
                    .take(20 - suffix.len())
                    .collect();
                rows.push((first_id + i as i64, name, format!("{stem}{suffix}")));
            }
            for (n, _) in rows.iter().enumerate() {
                let base = n * 4;
                if sqlite {
                    sql.push_str(&format!(
                        "(${}, ${}, ${}, ${}, 1, ${}),",
                        base + 1,
                        base + 2,
                        base + 3,
                        base + 3,
                        base + 4
                    ));
                } else {
                    sql.push_str(&format!(
                        "(${}, ${}, ${}, ${} || '@example.com', TRUE, ${}),",
                        base + 1,
                        base + 2,
                        base + 3,
                        base + 3,
                        base + 4
                    ));
                }
            }
            sql.pop();
            let mut query = diesel::sql_query(sql).into_boxed();
            for (id, name, login) in rows {
                query =
                    query.bind::<BigInt, _>(id).bind::<Text, _>(name).bind::<Text, _>(login).bind::<Timestamp, _>(now);
            }
            query.execute(conn)?;
        }
        Ok::<_, db::DbError>(())
    })
    .unwrap();
    let analyze = if sqlite { "ANALYZE" } else { "ANALYZE users" };
    diesel::sql_query(analyze).execute(&mut *db.get().unwrap()).unwrap();
    println!("  inserted {users} users in {:.1} s", started.elapsed().as_secs_f64());
}

#[derive(QueryableByName)]
struct PlanLine {
    #[diesel(sql_type = Text)]
    line: String,
}

#[derive(QueryableByName)]
struct SqlitePlan {
    #[diesel(sql_type = Text)]
    detail: String,
}

fn print_plans(conn: &mut DbConnection) {
    match conn {
        DbConnection::Postgres(_) => {
            for (label, pattern) in [("3+ characters", "%lace%"), ("1-2 characters", "mi%")] {
                println!("  plan ({label}):");
                let sql = format!(
                    "EXPLAIN ANALYZE SELECT u.id FROM users u WHERE (lower(u.name) LIKE '{pattern}' OR u.login LIKE '{pattern}') \
                     AND u.id <> 0 AND u.email_verified ORDER BY (u.login = 'x') DESC, lower(u.name), u.id LIMIT 20"
                );
                let rows: Vec<PlanLine> = diesel::sql_query(format!("SELECT \"QUERY PLAN\" AS line FROM ({sql}) p"))
                    .load(conn)
                    .or_else(|_| plan_via_function(conn, &sql))
                    .unwrap();
                for r in rows {
                    println!("    {}", r.line);
                }
            }
        }
        DbConnection::Sqlite(_) => {
            for (label, filter) in [
                ("3+ characters", "u.id IN (SELECT rowid FROM users_search WHERE users_search MATCH '\"lace\"')"),
                (
                    "1-2 characters",
                    "((u.login >= 'mi' AND u.login < 'mi' || char(1114111)) OR (lower(u.name) >= 'mi' AND lower(u.name) < 'mi' || char(1114111)))",
                ),
            ] {
                println!("  plan ({label}):");
                let sql =
                    format!("EXPLAIN QUERY PLAN SELECT u.id FROM users u WHERE {filter} AND u.email_verified LIMIT 20");
                let rows: Vec<SqlitePlan> = diesel::sql_query(sql).load(conn).unwrap();
                for r in rows {
                    println!("    {}", r.detail);
                }
            }
        }
    }
}

/// PostgreSQL cannot select from EXPLAIN directly; a throwaway function returns its lines.
fn plan_via_function(conn: &mut DbConnection, sql: &str) -> QueryResult<Vec<PlanLine>> {
    diesel::sql_query(
        "CREATE OR REPLACE FUNCTION bench_plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS \
         $$ DECLARE r record; BEGIN FOR r IN EXECUTE q LOOP RETURN NEXT r.\"QUERY PLAN\"; END LOOP; END $$",
    )
    .execute(conn)?;
    diesel::sql_query("SELECT bench_plan($1) AS line").bind::<Text, _>(sql).load(conn)
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

async fn run(label: &str, test_db: TestDb) {
    println!("\n== {label} ==");
    fill(&test_db, USERS);
    let media = tempfile::tempdir().unwrap();
    let storage = storage::Storage::local(media.path()).unwrap();
    let app = App::new(test_db.db.clone(), storage.clone());
    let posts = posts::Posts::new(test_db.db.clone(), storage, None);
    let viewer = Some(UserId::try_from(1).unwrap());
    println!("  {:<34} {:>8} {:>8} {:>8} {:>7}", "query", "median", "p95", "max", "hits");
    for (what, q) in [
        ("empty (newest people)", ""),
        ("1 character prefix", "m"),
        ("2 character prefix", "el"),
        ("3+ substring, common", "son"),
        ("3+ substring, name", "lovelace"),
        ("3+ substring, login", "davis_12"),
        ("3+ substring, rare", "xyzzy"),
        ("mixed case with spaces", "  Ella Fitz "),
    ] {
        let mut times = Vec::with_capacity(RUNS);
        let mut hits = 0;
        for _ in 0..RUNS {
            let t = Instant::now();
            hits = app.search_people(&posts, viewer, q, Some(20)).await.unwrap().len();
            times.push(t.elapsed());
        }
        times.sort();
        println!(
            "  {:<34} {:>6.2}ms {:>6.2}ms {:>6.2}ms {:>7}",
            format!("{what} {q:?}"),
            percentile(&times, 0.5),
            percentile(&times, 0.95),
            percentile(&times, 1.0),
            hits
        );
    }
    print_plans(&mut test_db.get().unwrap());
}

#[tokio::main]
async fn main() {
    // `cargo test --all-targets` builds and starts every bench target too (its `--benches` takes
    // no notice of `test = false`), without `--bench`: there this only has to compile, which
    // `make lint` checks as well. `cargo bench` passes `--bench` and measures.
    if !std::env::args().any(|a| a == "--bench") {
        println!("user search: measured by `make bench` only");
        return;
    }
    println!(
        "User search over {USERS} users, {RUNS} runs per query, through App::search_people (pool + query + listening flags)"
    );
    run("SQLite (FTS5 trigram + prefix indexes)", TestDb::sqlite()).await;
    match TestDb::postgres() {
        Some(db) => run("PostgreSQL (pg_trgm GIN + text_pattern_ops)", db).await,
        None => println!("\n== PostgreSQL: skipped, no server =="),
    }
}
