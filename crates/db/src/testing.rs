//! Fresh databases for tests, on either backend.
//!
//! SQLite: a new file in a temporary folder. PostgreSQL: a new database on the server named by
//! `SELFSOUND_TEST_PG_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`), dropped when
//! the test ends. When no PostgreSQL answers, the PostgreSQL half of a test is skipped with a
//! loud message — unless `CI` is set, where a missing backend is a failure.

use diesel::pg::PgConnection;
use diesel::{Connection, RunQueryDsl};
use rand::Rng;

use crate::{Backend, Db, PoolOptions};

const DEFAULT_ADMIN_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

pub struct TestDb {
    pub db: Db,
    /// The URL the app would be configured with.
    pub url: String,
    cleanup: Cleanup,
}

enum Cleanup {
    Sqlite(#[allow(dead_code)] tempfile::TempDir),
    Postgres { admin_url: String, name: String },
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

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

fn url_with_database(admin_url: &str, name: &str) -> String {
    match admin_url.rfind('/') {
        Some(i) if i > "postgres://".len() => format!("{}/{name}", &admin_url[..i]),
        _ => format!("{admin_url}/{name}"),
    }
}

impl TestDb {
    #[allow(clippy::expect_used)]
    pub fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("temporary folder for a test database");
        let url = dir.path().join("test.sqlite3").display().to_string();
        let db = Db::connect(&url, &PoolOptions::default()).expect("fresh SQLite database");
        TestDb { db, url, cleanup: Cleanup::Sqlite(dir) }
    }

    /// A fresh PostgreSQL database, or `None` (after a loud message) when no server answers
    /// and this is not CI.
    #[allow(clippy::expect_used, clippy::panic)]
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
        let name = format!("selfsound_test_{:016x}", rand::rng().random::<u64>());
        diesel::sql_query(format!("CREATE DATABASE {name}")).execute(&mut admin).expect("create a test database");
        let url = url_with_database(&admin_url, &name);
        let options = PoolOptions { max_size: 4, ..PoolOptions::default() };
        let db = Db::connect(&url, &options).expect("fresh PostgreSQL database");
        Some(TestDb { db, url, cleanup: Cleanup::Postgres { admin_url, name } })
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
            let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut admin);
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
                    super::$name($crate::testing::TestDb::sqlite()).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    if let Some(db) = $crate::testing::TestDb::postgres() {
                        super::$name(db).await;
                    }
                }
            }
        )*
    };
}

/// Adds a verified user straight into the database (no password), for tests of other domains.
#[allow(clippy::expect_used)]
pub fn insert_user(conn: &mut crate::DbConnection, name: &str, login: &str) -> crate::Id {
    use crate::schema::users;
    use diesel::prelude::*;
    let id = crate::Id::generate();
    diesel::insert_into(users::table)
        .values((
            users::id.eq(id.0),
            users::name.eq(name),
            users::login.eq(login),
            users::email.eq(format!("{login}@example.com")),
            users::email_verified.eq(true),
            users::created_at.eq(crate::time::now()),
        ))
        .execute(conn)
        .expect("insert a test user");
    id
}
