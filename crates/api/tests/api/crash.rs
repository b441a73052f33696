//! Crash consistency: the server is killed with SIGKILL while 20 uploads and comment writes are
//! in flight, ten rounds in a row, on SQLite with a local media folder and on PostgreSQL with
//! Garage. After a restart every request that was answered 2xx is whole, no row points at a
//! missing object (renditions made by the jobs the rounds ran included), the sweep removes the
//! objects no row points at, and SQLite's `PRAGMA integrity_check` is ok.

use std::collections::BTreeSet;
use std::time::Duration;

use db::diesel::prelude::*;
use db::schema::{comments, post_audio, post_media, post_scores};
use reqwest::StatusCode;
use serde_json::{Value, json};
use test_support::TestDb;
use test_support::s3::S3TestServer;

use crate::common::{Part, multipart, person_in, start_process_with};

const ROUNDS: usize = 10;
const UPLOADS: usize = 8;
const COMMENTS: usize = 12;

/// What a write in flight came to.
enum Outcome {
    /// 2xx: a post, whose files must all be served after the restart.
    Post(Value),
    /// 2xx: a comment on the post, with its id.
    Comment(String),
    /// No answer, or a refusal: nothing is promised.
    Lost,
}

/// Where the objects live: a local folder or the Garage bucket.
enum Store<'a> {
    Folder(std::path::PathBuf),
    Garage(&'a S3TestServer),
}

impl Store<'_> {
    async fn keys(&self) -> BTreeSet<String> {
        match self {
            Store::Folder(root) => walk(root, root),
            Store::Garage(s3) => s3.keys().await.into_iter().collect(),
        }
    }
}

/// Every file under `dir`, as keys relative to `root` (a media folder's objects).
pub(crate) fn walk(root: &std::path::Path, dir: &std::path::Path) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            keys.extend(walk(root, &path));
        } else if let Ok(rel) = path.strip_prefix(root) {
            keys.insert(rel.to_string_lossy().into_owned());
        }
    }
    keys
}

/// Every key a row points at.
fn referenced(db: &TestDb) -> BTreeSet<String> {
    let mut conn = db.get().unwrap();
    let mut keys = BTreeSet::new();
    let media: Vec<(String, Option<String>, Option<String>)> = post_media::table
        .select((post_media::file_key, post_media::display_key, post_media::poster_key))
        .load(&mut *conn)
        .unwrap();
    for (file, display, poster) in media {
        keys.insert(file);
        keys.extend(display);
        keys.extend(poster);
    }
    type AudioKeys = (String, Option<String>, Option<String>, Option<String>);
    let audio: Vec<AudioKeys> = post_audio::table
        .select((post_audio::file_key, post_audio::cover_key, post_audio::opus_key, post_audio::aac_key))
        .load(&mut *conn)
        .unwrap();
    for (file, cover, opus, aac) in audio {
        keys.insert(file);
        keys.extend(cover);
        keys.extend(opus);
        keys.extend(aac);
    }
    keys.extend(post_scores::table.select(post_scores::file_key).load::<String>(&mut *conn).unwrap());
    keys
}

/// The URL paths of every file a post answer names.
fn file_paths(post: &Value) -> Vec<String> {
    let mut urls = Vec::new();
    for list in ["media", "audio", "scores"] {
        for item in post[list].as_array().into_iter().flatten() {
            for field in ["file_url", "display_url", "poster_url", "cover_url"] {
                if let Some(url) = item[field].as_str().filter(|u| !u.is_empty()) {
                    urls.push(url.split_once("/media/").map(|(_, k)| format!("/media/{k}")).unwrap_or_default());
                }
            }
        }
    }
    urls
}

async fn write(client: reqwest::Client, url: String, token: String, n: usize, post: String) -> Outcome {
    let sent = if n < UPLOADS {
        // Pictures and tracks of a few hundred kilobytes: long enough to be cut in the middle.
        let parts = if n.is_multiple_of(2) {
            vec![Part::file("files", "p.png", test_support::media::png(300 + n as u32, None))]
        } else {
            vec![Part::file("audio_files", "t.wav", test_support::media::wav(3.0 + n as f32, 440.0, 0.3))]
        };
        let path = if n.is_multiple_of(2) { "/posts/media" } else { "/posts/audio" };
        let (content_type, body) = multipart(&parts);
        client
            .post(format!("{url}{path}"))
            .bearer_auth(&token)
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
    } else {
        client
            .post(format!("{url}/posts/{post}/comments"))
            .bearer_auth(&token)
            .json(&json!({"content": format!("comment {n}")}))
            .send()
            .await
    };
    let Ok(res) = sent else { return Outcome::Lost };
    if !res.status().is_success() {
        return Outcome::Lost;
    }
    let Ok(body) = res.json::<Value>().await else { return Outcome::Lost };
    if n < UPLOADS { Outcome::Post(body) } else { Outcome::Comment(body["comment"]["id"].as_str().unwrap().to_owned()) }
}

async fn crash_rounds(db: TestDb, s3: Option<&S3TestServer>) {
    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().display().to_string();
    let mut env: Vec<(String, String)> = vec![
        ("SELFSOUND_DATA_DIR".into(), data_dir),
        ("SELFSOUND_WRITE_LIMITS".into(), "post=100000/1h,comment=100000/5m".into()),
    ];
    env.extend(s3.map(|s| s.env()).unwrap_or_default());
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let store = match s3 {
        Some(s3) => Store::Garage(s3),
        None => Store::Folder(data.path().join("media")),
    };
    let people: Vec<String> =
        (0..UPLOADS).map(|i| person_in(&db, &format!("P{i}"), &format!("p{i}@example.com")).0).collect();
    let client = reqwest::Client::new();

    let server = start_process_with(&db.url, None, &env).await;
    let host = client
        .post(format!("{}/posts/lyrics", server.url))
        .bearer_auth(&people[0])
        .json(&crate::common::lyrics_body("Commented on"))
        .send()
        .await
        .unwrap();
    assert_eq!(host.status(), StatusCode::CREATED);
    let post = host.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    drop(server);

    let (mut answered_posts, mut answered_comments) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let server = start_process_with(&db.url, None, &env).await;
        let writes: Vec<_> = (0..UPLOADS + COMMENTS)
            .map(|n| {
                tokio::spawn(write(client.clone(), server.url.clone(), people[n % UPLOADS].clone(), n, post.clone()))
            })
            .collect();
        // Cut at a different moment each round: some writes answered, some half done.
        tokio::time::sleep(Duration::from_millis(40 + 70 * round as u64)).await;
        drop(server); // SIGKILL
        for w in writes {
            match w.await.unwrap() {
                Outcome::Post(p) => answered_posts.push(p),
                Outcome::Comment(id) => answered_comments.push(id),
                Outcome::Lost => {}
            }
        }
    }

    // The last server runs no jobs: renditions stored while the objects are counted below
    // would be counted as orphans (the rounds' servers run them, and are killed mid-job too).
    let mut quiet = env.clone();
    quiet.push(("SELFSOUND_JOB_WORKERS", "0"));
    let server = start_process_with(&db.url, None, &quiet).await;
    // Every answered write is whole.
    for p in &answered_posts {
        let id = p["id"].as_str().unwrap();
        let again = client.get(format!("{}/posts/{id}", server.url)).send().await.unwrap();
        assert_eq!(again.status(), StatusCode::OK, "post {id} was answered 201 and is gone");
        let files = file_paths(p);
        assert!(!files.is_empty(), "{p}");
        for path in files {
            let got = client.get(format!("{}{path}", server.url)).send().await.unwrap();
            assert_eq!(got.status(), StatusCode::OK, "{path} of post {id}");
            assert!(!got.bytes().await.unwrap().is_empty());
        }
    }
    let mut conn = db.get().unwrap();
    let stored: Vec<String> =
        comments::table.select(comments::id).load::<i64>(&mut *conn).unwrap().iter().map(i64::to_string).collect();
    for id in &answered_comments {
        assert!(stored.contains(id), "comment {id} was answered 201 and is gone");
    }
    let count: Value = client.get(format!("{}/posts/{post}", server.url)).send().await.unwrap().json().await.unwrap();
    assert_eq!(count["comments_count"].as_i64(), Some(stored.len() as i64), "the counter matches the rows");
    drop(conn);

    // No row points at a missing object.
    let rows = referenced(&db);
    let objects = store.keys().await;
    let missing: Vec<_> = rows.difference(&objects).collect();
    assert!(missing.is_empty(), "rows point at missing objects: {missing:?}");
    // The sweep removes what no row points at (with no margin here; the server waits an hour).
    let storage = match s3 {
        Some(s3) => storage::Storage::s3(&s3.settings).unwrap(),
        None => storage::Storage::local(&data.path().join("media")).unwrap(),
    };
    let unfinished = storage.remove_unfinished_uploads(chrono::Utc::now()).await.unwrap();
    let objects = store.keys().await;
    let posts = posts::Posts::new(db.db.clone(), storage, None);
    let orphans = objects.difference(&rows).count();
    assert_eq!(posts.sweep_orphan_media(Duration::ZERO).await.unwrap(), orphans);
    assert_eq!(store.keys().await, rows, "after the sweep, exactly the referenced objects remain");
    eprintln!(
        "crash rounds: {ROUNDS}, answered posts {}, answered comments {}, orphans swept {orphans}, unfinished uploads {unfinished}",
        answered_posts.len(),
        answered_comments.len()
    );
    assert!(!answered_posts.is_empty() && !answered_comments.is_empty(), "some writes were answered before a kill");

    if db.url.starts_with("postgres") {
        return;
    }
    let mut conn = db.get().unwrap();
    let checks: Vec<String> = db::diesel::select(db::diesel::dsl::sql::<db::diesel::sql_types::Text>(
        "integrity_check FROM pragma_integrity_check()",
    ))
    .load(&mut *conn)
    .unwrap();
    assert_eq!(checks, ["ok"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_mid_write_on_sqlite_loses_nothing_answered() {
    crash_rounds(TestDb::sqlite(), None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_mid_write_on_postgres_and_garage_loses_nothing_answered() {
    let Some(db) = TestDb::postgres() else { return };
    let Some(s3) = S3TestServer::start("crash").await else { return };
    crash_rounds(db, Some(&s3)).await;
}
