//! The data layer on a real SQLite file and a real PostgreSQL database: transactions that
//! compose, paging, a clean first start, and one schema on both backends.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Bool, Text};
use db::schema::users;
use db::{Boxed, DbConnection, DbError, Keyset, PageRule, PoolOptions};
use test_support::{TestDb, insert_user};
use values::UserId;

fn user_count(conn: &mut DbConnection) -> i64 {
    users::table.count().get_result(conn).unwrap()
}

/// A write inside another is refused before it runs anything, and the outer one is not
/// harmed: it can still commit.
async fn a_write_inside_another_is_refused(db: TestDb) {
    let mut c = db.get().unwrap();
    let inner_db = db.db.clone();
    let outer: Result<(), DbError> = db.write_blocking(|tx| {
        insert_user(tx, "Outer", "outer");
        let inner: Result<(), DbError> = inner_db.write_blocking(|tx| {
            insert_user(tx, "Inner", "inner");
            Ok(())
        });
        assert!(matches!(inner, Err(DbError::NestedTransaction)), "{inner:?}");
        Ok(())
    });
    outer.unwrap();
    let logins: Vec<String> = users::table.select(users::login).load(&mut *c).unwrap();
    assert_eq!(logins, vec!["outer"], "the inner closure never ran; the outer write committed");
    assert!(!db::in_transaction(&mut c));
}

/// What a use case wrote before it failed is rolled back with it.
async fn a_failed_write_leaves_nothing(db: TestDb) {
    let mut c = db.get().unwrap();
    let result: Result<(), DbError> = db.write_blocking(|tx| {
        insert_user(tx, "First", "first");
        // The second write breaks the unique login: the whole use case fails.
        diesel::insert_into(users::table)
            .values((
                users::id.eq(UserId::generate()),
                users::name.eq("Second"),
                users::login.eq("first"),
                users::created_at.eq(db::time::now()),
            ))
            .execute(tx)?;
        Ok(())
    });
    assert!(result.as_ref().is_err_and(DbError::is_unique_violation), "{result:?}");
    assert_eq!(user_count(&mut c), 0);
    db.write_blocking(|tx| {
        insert_user(tx, "Again", "again");
        Ok::<_, DbError>(())
    })
    .unwrap();
    assert_eq!(user_count(&mut c), 1, "the connection is usable after a rollback");
}

/// The keyset cursor walks newest first without gaps or repeats; the offset page agrees.
async fn pages_by_keyset_and_offset(db: TestDb) {
    let mut c = db.get().unwrap();
    let mut ids: Vec<UserId> = (0..7).map(|i| insert_user(&mut c, "P", &format!("p{i}"))).collect();
    ids.sort_by(|a, b| b.cmp(a));
    let rule = PageRule::new(3, 50);
    let mut seen = Vec::new();
    let mut before = None;
    loop {
        let keyset: Keyset<UserId> = rule.keyset(before, None);
        let query: Boxed<'_, users::table> = users::table.into_boxed();
        let page: Vec<UserId> = keyset.apply(query, users::id).select(users::id).load(&mut *c).unwrap();
        if page.is_empty() {
            break;
        }
        before = page.last().copied();
        seen.extend(page);
    }
    assert_eq!(seen, ids, "every row once, newest first");
    let second: Vec<UserId> =
        rule.page(None, Some(3)).apply(users::table.order(users::id.desc()).select(users::id)).load(&mut *c).unwrap();
    assert_eq!(second, ids[3..6]);
}

async fn throttle_window_starts_again_after_it_ends(db: TestDb) {
    use db::throttle::{self, Rule, Throttled};
    let rule = Rule { max: 2, window: std::time::Duration::from_secs(1) };
    let mut conn = db.get().unwrap();
    throttle::hit(&mut conn, "k", rule).unwrap();
    throttle::hit(&mut conn, "k", rule).unwrap();
    assert!(matches!(throttle::hit(&mut conn, "k", rule), Err(Throttled::Full(_))));
    std::thread::sleep(std::time::Duration::from_millis(1100));
    assert!(throttle::hit(&mut conn, "k", rule).is_ok(), "a new window");
}

/// Writes that arrive together (on SQLite they share the writer's commit) do not share their
/// fate: each that succeeds stands and is answered, one that fails leaves nothing of its own,
/// one that panics leaves nothing and its caller hears an error; what each changed is told
/// when its write is answered, and only for writes that stand.
async fn writes_at_once_stand_or_fall_alone(db: TestDb) {
    db.write(|c| {
        insert_user(c, "Taken", "taken");
        Ok::<_, DbError>(())
    })
    .await
    .unwrap();
    let mut calls = Vec::new();
    for i in 0..120 {
        let db = db.db.clone();
        calls.push(tokio::spawn(async move {
            db.write(move |c| {
                let id = insert_user(c, "Writer", &format!("writer{i}"));
                db::changed(c, &[db::Topic::User(id)])?;
                match i % 6 {
                    // Breaks the unique login after its own insert: both go.
                    4 => {
                        insert_user_failing(c, "taken")?;
                    }
                    5 => panic!("a write that panics"),
                    _ => {}
                }
                Ok::<_, DbError>(id)
            })
            .await
        }));
    }
    let mut stood = 0;
    for (i, call) in calls.into_iter().enumerate() {
        let done = call.await.unwrap();
        match i % 6 {
            4 => assert!(done.as_ref().is_err_and(DbError::is_unique_violation), "{done:?}"),
            5 => assert!(done.is_err(), "a panicked write is answered with an error"),
            _ => {
                let id = done.unwrap();
                stood += 1;
                let found: i64 =
                    users::table.filter(users::id.eq(id)).count().get_result(&mut *db.get().unwrap()).unwrap();
                assert_eq!(found, 1, "an answered write is committed");
            }
        }
    }
    assert_eq!(stood, 80);
    assert_eq!(user_count(&mut db.get().unwrap()), 81, "the ones that stood, and the first");
    // What a failed write changed is not told; what one that stood changed is.
    if let Some(seen) = db.changes().seen() {
        let (kept, lost) = (UserId::generate(), UserId::generate());
        let failed: Result<(), DbError> = db
            .write(move |c| {
                db::changed(c, &[db::Topic::Viewer(lost)])?;
                insert_user_failing(c, "taken")
            })
            .await;
        assert!(failed.is_err());
        assert!(db.changes().unchanged(seen, [db::Topic::Viewer(lost)]), "a failed write tells nothing");
        db.write(move |c| Ok::<_, DbError>(db::changed(c, &[db::Topic::Viewer(kept)])?)).await.unwrap();
        assert!(!db.changes().unchanged(seen, [db::Topic::Viewer(kept)]), "told by the time it is answered");
    }
    // The writer goes on after all that.
    db.write(|c| {
        insert_user(c, "After", "after");
        Ok::<_, DbError>(())
    })
    .await
    .unwrap();
    assert_eq!(user_count(&mut db.get().unwrap()), 82);
}

/// Inserts a person with `login`, which must be taken: fails with a unique violation.
fn insert_user_failing(c: &mut DbConnection, login: &str) -> Result<(), DbError> {
    diesel::insert_into(users::table)
        .values((
            users::id.eq(UserId::generate()),
            users::name.eq("Second"),
            users::login.eq(login),
            users::created_at.eq(db::time::now()),
        ))
        .execute(c)?;
    Ok(())
}

/// Hits counted in two processes' tallies meet in the database's counter: each process holds
/// the limit exactly on its own, learns at its flush what the other counted, and refuses from
/// then on; a flush of many counters of several windows adds each its own hits.
async fn tallies_of_two_processes_meet_in_the_database(db: TestDb) {
    use db::tally::Tally;
    use db::throttle::Throttled;
    use std::sync::Arc;
    use std::time::Duration;
    const HOUR: Duration = Duration::from_secs(3600);
    let (a, b) = (Arc::new(Tally::default()), Arc::new(Tally::default()));
    let flush = |tally: &Arc<Tally>| {
        let tally = tally.clone();
        db.db.write_without_transaction(move |c| tally.flush(c))
    };
    for _ in 0..3 {
        assert!(matches!(a.hit_all(&[("write:like:user:1", 3)], HOUR), Some(Ok(()))));
    }
    assert!(matches!(a.hit_all(&[("write:like:user:1", 3)], HOUR), Some(Err(Throttled::Full(_)))), "a fourth in A");
    assert!(matches!(b.hit_all(&[("write:like:user:1", 3)], HOUR), Some(Ok(()))), "B knows nothing before a flush");
    assert_eq!(flush(&a).await.unwrap(), 1);
    assert_eq!(flush(&b).await.unwrap(), 1);
    assert!(!a.has_pending() && !b.has_pending());
    let Some(Err(Throttled::Full(wait))) = b.hit_all(&[("write:like:user:1", 3)], HOUR) else {
        panic!("B refuses once it heard of A's hits")
    };
    assert!(wait > Duration::from_secs(3500), "{wait:?}");
    let hits = |key: &str| -> i64 {
        use db::schema::throttle_buckets::dsl as t;
        t::throttle_buckets.filter(t::key.eq(key)).select(t::hits).get_result(&mut db.get().unwrap()).unwrap()
    };
    assert_eq!(hits("write:like:user:1"), 5, "every hit counted, the refused included");

    // 70 counters of an hour and 3 of a minute, some hit twice: statements of 64, 4, 1 and 1
    // rows, and 1 and 1 and 1.
    let keys: Vec<String> = (0..73).map(|i| format!("k{i}")).collect();
    for (i, key) in keys.iter().enumerate() {
        let window = if i < 70 { HOUR } else { Duration::from_secs(60) };
        let times = 1 + i % 2;
        for _ in 0..times {
            assert!(matches!(a.hit_all(&[(key.as_str(), 10)], window), Some(Ok(()))));
        }
    }
    assert_eq!(flush(&a).await.unwrap(), 73);
    for (i, key) in keys.iter().enumerate() {
        assert_eq!(hits(key), 1 + i as i64 % 2, "{key}");
    }
}

/// A flush that fails (the counters' table gone for a moment) loses nothing: its hits are sent
/// with the next flush, and the process kept counting them meanwhile.
async fn a_failed_flush_sends_its_hits_again(db: TestDb) {
    use db::tally::Tally;
    use std::sync::Arc;
    const HOUR: std::time::Duration = std::time::Duration::from_secs(3600);
    let tally = Arc::new(Tally::default());
    let flush = |tally: &Arc<Tally>| {
        let tally = tally.clone();
        db.db.write_without_transaction(move |c| tally.flush(c))
    };
    let rename = |from: &str, to: &str| {
        diesel::sql_query(format!("ALTER TABLE {from} RENAME TO {to}")).execute(&mut db.get().unwrap()).unwrap();
    };
    for _ in 0..2 {
        assert!(matches!(tally.hit_all(&[("k", 2)], HOUR), Some(Ok(()))));
    }
    rename("throttle_buckets", "throttle_buckets_away");
    assert!(flush(&tally).await.is_err());
    assert!(tally.has_pending(), "kept for the next flush");
    assert!(matches!(tally.hit_all(&[("k", 2)], HOUR), Some(Err(_))), "and still counted here");
    rename("throttle_buckets_away", "throttle_buckets");
    assert_eq!(flush(&tally).await.unwrap(), 1);
    use db::schema::throttle_buckets::dsl as t;
    let hits: i64 =
        t::throttle_buckets.filter(t::key.eq("k")).select(t::hits).get_result(&mut db.get().unwrap()).unwrap();
    assert_eq!(hits, 3);
}

/// A light write (a toggle) is a whole transaction like any other: it commits, tells what it
/// changed, rolls back whole on failure; on PostgreSQL it alone commits without waiting for the
/// disk, and the connection it leaves in the pool waits again for the next write.
async fn a_light_write_is_a_whole_transaction(db: TestDb) {
    #[derive(QueryableByName)]
    struct Setting {
        #[diesel(sql_type = Text)]
        synchronous_commit: String,
    }
    let setting = |c: &mut DbConnection| -> Result<String, DbError> {
        if matches!(c, DbConnection::Sqlite(_)) {
            return Ok("sqlite".into());
        }
        Ok(diesel::sql_query("SHOW synchronous_commit").get_result::<Setting>(c)?.synchronous_commit)
    };
    let seen = db.changes().seen();
    let (id, lazily) = db
        .write_lightly(move |c| {
            let id = insert_user(c, "Light", "light");
            db::changed(c, &[db::Topic::User(id)])?;
            Ok::<_, DbError>((id, setting(c)?))
        })
        .await
        .unwrap();
    let durably = db.write(move |c| setting(c)).await.unwrap();
    if db.backend() == db::Backend::Postgres {
        assert_eq!((lazily.as_str(), durably.as_str()), ("off", "on"), "only the light write skips the wait");
    }
    assert_eq!(user_count(&mut db.get().unwrap()), 1, "committed");
    if let Some(seen) = seen {
        assert!(!db.changes().unchanged(seen, [db::Topic::User(id)]), "told by the time it is answered");
    }
    let failed: Result<(), DbError> = db
        .write_lightly(|c| {
            insert_user(c, "Gone", "gone");
            insert_user_failing(c, "light")
        })
        .await;
    assert!(failed.as_ref().is_err_and(DbError::is_unique_violation), "{failed:?}");
    assert_eq!(user_count(&mut db.get().unwrap()), 1, "a failed light write leaves nothing");
    for _ in 0..4 {
        assert_ne!(db.write(move |c| setting(c)).await.unwrap(), "off", "no pooled connection keeps the setting");
    }
}

test_support::both_backends!(
    a_light_write_is_a_whole_transaction,
    tallies_of_two_processes_meet_in_the_database,
    a_failed_flush_sends_its_hits_again,
    writes_at_once_stand_or_fall_alone,
    a_write_inside_another_is_refused,
    a_failed_write_leaves_nothing,
    pages_by_keyset_and_offset,
    throttle_window_starts_again_after_it_ends
);

/// A first start on a new SQLite file opens its whole pool without a single error (the pool's
/// connections used to race to switch the file to WAL and log "database is locked").
#[test]
fn a_fresh_sqlite_database_starts_cleanly() {
    for _ in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let url = dir.path().join("fresh.sqlite3").display().to_string();
        let db = db::Db::connect(&url, &PoolOptions::default()).unwrap();
        // Hold every connection at once, so the pool has opened all ten.
        let held: Vec<_> = (0..PoolOptions::default().max_size).map(|_| db.get().unwrap()).collect();
        assert_eq!(db.pool_errors(), 0);
        drop(held);
        let mut c = db.get().unwrap();
        let mode: Vec<String> = diesel::sql_query("PRAGMA journal_mode")
            .load::<JournalMode>(&mut *c)
            .unwrap()
            .into_iter()
            .map(|m| m.journal_mode)
            .collect();
        assert_eq!(mode, vec!["wal"]);
    }
}

/// The log of a SQLite file is copied back into it by a thread of its own soon after writes,
/// long before SQLite's own checkpoint (past 10,000 pages) would stop a committing writer for
/// it. Read from the log's index (`-shm`, native byte order): its last frame (`mxFrame`, in the
/// header) and how far it has been copied back (`nBackfill`, after the header's two copies).
#[tokio::test]
async fn the_log_is_copied_back_by_a_thread_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log.sqlite3").display().to_string();
    let db = db::Db::connect(&path, &PoolOptions::default()).unwrap();
    for i in 0..50 {
        db.write(move |tx| {
            insert_user(tx, &format!("Player {i}"), &format!("player{i}"));
            Ok::<_, DbError>(())
        })
        .await
        .unwrap();
    }
    let since = std::time::Instant::now();
    loop {
        let index = std::fs::read(format!("{path}-shm")).unwrap();
        let word = |at: usize| u32::from_ne_bytes(index[at..at + 4].try_into().unwrap());
        let (last, copied) = (word(16), word(96));
        if last > 0 && copied == last {
            break;
        }
        assert!(
            since.elapsed() < std::time::Duration::from_secs(10),
            "{copied} of the log's {last} frames copied back"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(user_count(&mut db.get().unwrap()), 50);
}

/// Start-up waits for its own pool: a pool slower to open its connections than a request may
/// wait for one (here 1 ms; once a loaded machine's 5 s) still starts, on both backends, where
/// it once failed with "timed out waiting for connection". A wrong address still fails at once.
#[test]
fn a_start_waits_for_a_pool_slower_than_a_requests_wait() {
    let impatient = PoolOptions { max_size: 10, connection_timeout: std::time::Duration::from_millis(1) };
    let dir = tempfile::tempdir().unwrap();
    let mut urls = vec![dir.path().join("slow.sqlite3").display().to_string()];
    let pg = TestDb::postgres();
    urls.extend(pg.as_ref().map(|pg| pg.url.clone()));
    for url in urls {
        let db = db::Db::connect(&url, &impatient).unwrap_or_else(|e| panic!("{url}: {e}"));
        let since = std::time::Instant::now();
        while db.get().is_err() {
            assert!(since.elapsed() < std::time::Duration::from_secs(10), "{url}: no connection");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
    let wrong = db::Db::connect("postgres://nobody@127.0.0.1:1/none", &PoolOptions::default());
    assert!(matches!(wrong, Err(db::DbError::Connect(_))), "a wrong address fails at once");
}

#[derive(QueryableByName)]
struct JournalMode {
    #[diesel(sql_type = Text)]
    journal_mode: String,
}

// --- One schema on both backends ---

#[derive(QueryableByName, Debug)]
struct ColumnRow {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
    #[diesel(sql_type = Text)]
    data_type: String,
    #[diesel(sql_type = Bool)]
    nullable: bool,
    #[diesel(sql_type = BigInt)]
    pk: i64,
}

#[derive(QueryableByName, Debug)]
struct IndexRow {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    index_name: String,
    #[diesel(sql_type = Bool)]
    is_unique: bool,
    #[diesel(sql_type = Text)]
    columns: String,
}

#[derive(QueryableByName, Debug)]
struct ForeignKeyRow {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
    #[diesel(sql_type = Text)]
    target: String,
    #[diesel(sql_type = Text)]
    on_delete: String,
}

const SQLITE_COLUMNS: &str = "SELECT m.name AS table_name, p.name AS column_name, lower(p.type) AS data_type, \
     p.\"notnull\" = 0 AS nullable, p.pk AS pk \
     FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table'";
const SQLITE_INDEXES: &str = "SELECT m.name AS table_name, il.name AS index_name, il.\"unique\" <> 0 AS is_unique, \
     (SELECT group_concat(coalesce(ii.name, '<expression>'), ',' ORDER BY ii.seqno) FROM pragma_index_info(il.name) ii) AS columns \
     FROM sqlite_master m JOIN pragma_index_list(m.name) il WHERE m.type = 'table' AND il.origin = 'c'";
const SQLITE_FOREIGN_KEYS: &str = "SELECT m.name AS table_name, f.\"from\" AS column_name, \
     f.\"table\" || '.' || f.\"to\" AS target, lower(f.on_delete) AS on_delete \
     FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f WHERE m.type = 'table'";

const PG_COLUMNS: &str = "SELECT c.table_name::text AS table_name, c.column_name::text AS column_name, \
     c.data_type::text AS data_type, c.is_nullable = 'YES' AS nullable, \
     coalesce((SELECT k.ordinal_position FROM information_schema.table_constraints t \
        JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_name = t.table_name \
        WHERE t.table_name = c.table_name AND t.constraint_type = 'PRIMARY KEY' AND k.column_name = c.column_name), 0)::bigint AS pk \
     FROM information_schema.columns c WHERE c.table_schema = 'public'";
const PG_INDEXES: &str = "SELECT t.relname::text AS table_name, i.relname::text AS index_name, ix.indisunique AS is_unique, \
     array_to_string(array(SELECT coalesce(a.attname::text, '<expression>') FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, ord) \
        LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.ord), ',') AS columns \
     FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_class i ON i.oid = ix.indexrelid \
     JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public' AND NOT ix.indisprimary";
const PG_FOREIGN_KEYS: &str = "SELECT cl.relname::text AS table_name, a.attname::text AS column_name, \
     rt.relname::text || '.' || ra.attname::text AS target, \
     CASE c.confdeltype WHEN 'c' THEN 'cascade' WHEN 'n' THEN 'set null' WHEN 'r' THEN 'restrict' ELSE 'no action' END AS on_delete \
     FROM pg_constraint c JOIN pg_class cl ON cl.oid = c.conrelid JOIN pg_class rt ON rt.oid = c.confrelid \
     JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] \
     JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[1] \
     JOIN pg_namespace n ON n.oid = cl.relnamespace WHERE c.contype = 'f' AND n.nspname = 'public'";

/// Structures only one backend has, on purpose: user search and post search are built from
/// what each backend offers (SQLite: FTS5 tables and their shadow tables, and an index on
/// lower(name); PostgreSQL: pg_trgm GIN indexes, pattern-ops b-trees, and a tsvector table under
/// a GIN index). See docs/architecture.md.
const SQLITE_ONLY: &[&str] = &[
    "users_search",
    "users_search_config",
    "users_search_content",
    "users_search_data",
    "users_search_docsize",
    "users_search_idx",
    "users_name_lower_idx",
    "posts_search",
    "posts_search_config",
    "posts_search_data",
    "posts_search_docsize",
    "posts_search_idx",
];
const PG_ONLY: &[&str] = &[
    "users_name_trgm_idx",
    "users_login_trgm_idx",
    "users_name_prefix_idx",
    "users_login_prefix_idx",
    "posts_search",
    "posts_search_document_idx",
];

/// The schema reduced to what must agree: every table's columns with a portable type,
/// nullability and primary-key position; every index with its columns and uniqueness; every
/// foreign key with its target and delete rule.
#[derive(Debug, PartialEq, Eq, Default)]
struct Schema {
    columns: BTreeMap<(String, String), (String, bool, i64)>,
    indexes: BTreeMap<String, (String, bool, String)>,
    foreign_keys: BTreeSet<(String, String, String, String)>,
}

fn portable_type(t: &str) -> String {
    match t {
        "bigint" => "bigint",
        "text" => "text",
        "boolean" | "bool" => "boolean",
        "timestamp" | "timestamp without time zone" => "timestamp",
        "double" | "double precision" => "double",
        other => other,
    }
    .to_owned()
}

fn skip(name: &str, only_here: &[&str]) -> bool {
    name.starts_with("__diesel") || name.starts_with("sqlite_") || only_here.contains(&name)
}

fn schema(conn: &mut DbConnection, columns: &str, indexes: &str, foreign_keys: &str, only_here: &[&str]) -> Schema {
    let mut s = Schema::default();
    for c in diesel::sql_query(columns).load::<ColumnRow>(conn).unwrap() {
        if !skip(&c.table_name, only_here) {
            s.columns.insert((c.table_name, c.column_name), (portable_type(&c.data_type), c.nullable, c.pk));
        }
    }
    for i in diesel::sql_query(indexes).load::<IndexRow>(conn).unwrap() {
        if !skip(&i.table_name, only_here) && !skip(&i.index_name, only_here) {
            s.indexes.insert(i.index_name, (i.table_name, i.is_unique, i.columns));
        }
    }
    for f in diesel::sql_query(foreign_keys).load::<ForeignKeyRow>(conn).unwrap() {
        if !skip(&f.table_name, only_here) {
            s.foreign_keys.insert((f.table_name, f.column_name, f.target, f.on_delete));
        }
    }
    s
}

#[test]
fn both_backends_have_the_same_schema() {
    let Some(pg) = TestDb::postgres() else { return };
    let lite = TestDb::sqlite();
    let a = schema(&mut lite.get().unwrap(), SQLITE_COLUMNS, SQLITE_INDEXES, SQLITE_FOREIGN_KEYS, SQLITE_ONLY);
    let b = schema(&mut pg.get().unwrap(), PG_COLUMNS, PG_INDEXES, PG_FOREIGN_KEYS, PG_ONLY);
    assert!(
        a.columns.len() > 30 && a.indexes.len() > 8 && a.foreign_keys.len() > 4,
        "the introspection found the schema: {a:#?}"
    );
    for (what, x, y) in [
        ("columns", format!("{:#?}", a.columns), format!("{:#?}", b.columns)),
        ("indexes", format!("{:#?}", a.indexes), format!("{:#?}", b.indexes)),
        ("foreign keys", format!("{:#?}", a.foreign_keys), format!("{:#?}", b.foreign_keys)),
    ] {
        assert_eq!(x, y, "SQLite (left) and PostgreSQL (right) differ in their {what}");
    }
}
