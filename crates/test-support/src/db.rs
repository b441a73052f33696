//! Fresh databases for tests, on either backend.
//!
//! SQLite: a new file in a temporary folder, migrated (a few milliseconds). PostgreSQL: a new
//! database on the server named by `SELFSOUND_TEST_PG_URL` (default
//! `postgres://postgres@127.0.0.1:5432/postgres`), dropped when the test ends. Migrating a
//! PostgreSQL database takes far longer than copying one, so the migrations run once into a
//! template database named after a hash of `migrations/postgres`, and every test database is
//! `CREATE DATABASE ... TEMPLATE` of it. A changed migration makes a new template; an old one is
//! only a cache and may be dropped at any time.
//!
//! When no PostgreSQL answers, the PostgreSQL half of a test is skipped with a loud message,
//! unless `CI` is set, where a missing backend is a failure.

use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use db::diesel::pg::PgConnection;
use db::diesel::prelude::*;
use db::{Backend, Db, PoolOptions};
use rand::Rng;
use values::UserId;

const DEFAULT_ADMIN_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";
/// Serializes template creation between test processes running at once.
const TEMPLATE_LOCK: i64 = 736_572_667_376;

pub struct TestDb {
    pub db: Db,
    /// The URL the app would be configured with.
    pub url: String,
    cleanup: Cleanup,
}

enum Cleanup {
    Sqlite(#[allow(dead_code)] tempfile::TempDir),
    /// A database someone else made and removes (a private cluster's).
    None,
    Postgres {
        admin_url: String,
        name: String,
    },
}

impl std::ops::Deref for TestDb {
    type Target = Db;
    fn deref(&self) -> &Db {
        &self.db
    }
}

fn admin_url() -> String {
    std::env::var("SELFSOUND_TEST_PG_URL").unwrap_or_else(|_| DEFAULT_ADMIN_URL.to_owned())
}

/// True under CI, where every "skipped: not installed" must be a failure instead.
pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

fn url_with_database(admin_url: &str, name: &str) -> String {
    match admin_url.rfind('/') {
        Some(i) if i > "postgres://".len() => format!("{}/{name}", &admin_url[..i]),
        _ => format!("{admin_url}/{name}"),
    }
}

/// A name that changes whenever a PostgreSQL migration does.
fn template_name() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../migrations/postgres");
    let mut files: Vec<_> = walk(&dir);
    files.sort();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for f in files {
        f.strip_prefix(&dir).unwrap_or(&f).hash(&mut hasher);
        std::fs::read(&f).expect("read a migration").hash(&mut hasher);
    }
    format!("selfsound_tpl_{:016x}", hasher.finish())
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("the migrations folder").flatten() {
        let path = entry.path();
        if path.is_dir() { out.extend(walk(&path)) } else { out.push(path) }
    }
    out
}

fn exists(admin: &mut PgConnection, name: &str) -> bool {
    db::diesel::select(db::diesel::dsl::sql::<db::diesel::sql_types::Bool>(&format!(
        "EXISTS (SELECT 1 FROM pg_database WHERE datname = '{name}')"
    )))
    .get_result(admin)
    .expect("look up a database")
}

/// The migrated template, made once per machine and schema (under an advisory lock, so test
/// processes starting together make it once).
fn template(admin: &mut PgConnection, admin_url: &str) -> String {
    static TEMPLATE: OnceLock<String> = OnceLock::new();
    TEMPLATE
        .get_or_init(|| {
            let name = template_name();
            db::diesel::sql_query(format!("SELECT pg_advisory_lock({TEMPLATE_LOCK})")).execute(admin).expect("lock");
            if !exists(admin, &name) {
                // Built under another name and renamed when complete, so a template that
                // exists is always fully migrated.
                let building = format!("{name}_building");
                db::diesel::sql_query(format!("DROP DATABASE IF EXISTS {building} WITH (FORCE)"))
                    .execute(admin)
                    .expect("drop a half-built template");
                db::diesel::sql_query(format!("CREATE DATABASE {building}")).execute(admin).expect("create template");
                let options = PoolOptions { max_size: 1, ..PoolOptions::default() };
                drop(Db::connect(&url_with_database(admin_url, &building), &options).expect("migrate the template"));
                db::diesel::sql_query(format!("ALTER DATABASE {building} RENAME TO {name}"))
                    .execute(admin)
                    .expect("publish the template");
            }
            db::diesel::sql_query(format!("SELECT pg_advisory_unlock({TEMPLATE_LOCK})"))
                .execute(admin)
                .expect("unlock");
            name
        })
        .clone()
}

impl TestDb {
    pub fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("temporary folder for a test database");
        let url = dir.path().join("test.sqlite3").display().to_string();
        let db = Db::connect(&url, &PoolOptions::default()).expect("fresh SQLite database");
        TestDb { db, url, cleanup: Cleanup::Sqlite(dir) }
    }

    /// A fresh PostgreSQL database, or `None` (after a loud message) when no server answers
    /// and this is not CI.
    pub fn postgres() -> Option<TestDb> {
        let admin_url = admin_url();
        let mut admin = match PgConnection::establish(&admin_url) {
            Ok(c) => c,
            Err(e) if !ci() => {
                eprintln!(
                    "\n*** SKIPPED: no PostgreSQL at {admin_url} ({e}); \
                     set SELFSOUND_TEST_PG_URL or start one. Under CI=true this fails. ***\n"
                );
                return None;
            }
            Err(e) => panic!("CI needs PostgreSQL at {admin_url}: {e}"),
        };
        let template = template(&mut admin, &admin_url);
        let name = format!("selfsound_test_{:016x}", rand::rng().random::<u64>());
        let create = format!("CREATE DATABASE {name} TEMPLATE {template}");
        // Copies of one template may collide for a moment ("source database is being
        // accessed"): try again shortly.
        let mut tries = 0;
        while let Err(e) = db::diesel::sql_query(&create).execute(&mut admin) {
            tries += 1;
            assert!(tries < 50, "create a test database from {template}: {e}");
            std::thread::sleep(Duration::from_millis(100));
        }
        let url = url_with_database(&admin_url, &name);
        let options = PoolOptions { max_size: 4, ..PoolOptions::default() };
        let db = Db::connect_without_migrating(&url, &options).expect("fresh PostgreSQL database");
        Some(TestDb { db, url, cleanup: Cleanup::Postgres { admin_url, name } })
    }

    /// The migrated database at `url`, which its owner removes (e.g. a private cluster's).
    pub fn at(url: &str) -> TestDb {
        let options = PoolOptions { max_size: 2, ..PoolOptions::default() };
        let db = Db::connect(url, &options).expect("connect and migrate");
        TestDb { db, url: url.to_owned(), cleanup: Cleanup::None }
    }

    pub fn of(backend: Backend) -> Option<TestDb> {
        match backend {
            Backend::Sqlite => Some(TestDb::sqlite()),
            Backend::Postgres => TestDb::postgres(),
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Cleanup::Postgres { admin_url, name } = &self.cleanup
            && let Ok(mut admin) = PgConnection::establish(admin_url)
        {
            let _ = db::diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut admin);
        }
    }
}

/// Declares each listed `async fn name(db: TestDb)` as two tests, `name::sqlite` and
/// `name::postgres`, so every repository rule is checked on both backends.
#[macro_export]
macro_rules! both_backends {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    super::$name($crate::TestDb::sqlite()).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    if let Some(db) = $crate::TestDb::postgres() {
                        super::$name(db).await;
                    }
                }
            }
        )*
    };
}

/// Adds a verified user straight into the database (no password), for tests of other domains;
/// the address is `{login}@example.com`.
pub fn insert_user(conn: &mut db::DbConnection, name: &str, login: &str) -> UserId {
    insert_user_with_email(conn, name, login, &format!("{login}@example.com"))
}

/// [`insert_user`] at a given address, for tests that sign in with it.
pub fn insert_user_with_email(conn: &mut db::DbConnection, name: &str, login: &str, email: &str) -> UserId {
    use db::schema::users;
    let id = UserId::generate();
    db::diesel::insert_into(users::table)
        .values((
            users::id.eq(id),
            users::name.eq(name),
            users::login.eq(login),
            users::email.eq(email),
            users::email_verified.eq(true),
            users::created_at.eq(db::time::now()),
        ))
        .execute(conn)
        .expect("insert a test user");
    id
}

/// Adds a bare post row by `author` straight into the database (a lyrics post without its
/// payload: enough for tests of what hangs on posts), counted on the author's row.
pub fn insert_post(conn: &mut db::DbConnection, author: UserId) -> values::PostId {
    use db::schema::{posts, users};
    let id = values::PostId::generate();
    db::diesel::insert_into(posts::table)
        .values((
            posts::id.eq(id),
            posts::user_id.eq(author),
            posts::kind.eq("lyrics"),
            posts::created_at.eq(db::time::now()),
        ))
        .execute(conn)
        .expect("insert a test post");
    db::diesel::update(users::table.filter(users::id.eq(author)))
        .set(users::posts_count.eq(users::posts_count + 1))
        .execute(conn)
        .expect("count the test post");
    id
}
