//! Backups the way an operator takes them: `selfsound backup` while a server serves and people
//! keep posting, deleting and changing avatars; `selfsound restore` into a fresh folder; a server
//! on the copy; `selfsound verify` on it. And the command line's own promises: `--help` and
//! `--version` everywhere, usage errors exit with status 2, flags win over the environment.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use db::diesel::prelude::*;
use db::diesel::sql_types::BigInt;
use operations::backup::{Manifest, read_manifest};
use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use test_support::TestDb;
use test_support::media::{png, wav};

use crate::common::{Part, lyrics_body, multipart, person_in, start_process_with};

/// `selfsound ARGS` with only the environment given (none of the caller's settings leak in).
fn selfsound(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_selfsound"))
        .args(args)
        .env_clear()
        .env("RUST_LOG", "warn")
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

fn said(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Rows in each of `tables`, counted in the SQLite file at `path`.
fn row_counts(path: &Path, tables: impl Iterator<Item = String>) -> BTreeMap<String, i64> {
    let mut conn = db::diesel::SqliteConnection::establish(path.to_str().unwrap()).unwrap();
    tables
        .map(|t| {
            let n = db::diesel::select(db::diesel::dsl::sql::<BigInt>(&format!("count(*) FROM \"{t}\"")))
                .get_result(&mut conn)
                .unwrap();
            (t, n)
        })
        .collect()
}

/// Someone writing to the live server until told to stop; counts what they did.
struct Writer {
    url: String,
    token: String,
    client: reqwest::Client,
    done: Arc<AtomicUsize>,
    failures: Arc<std::sync::Mutex<Vec<String>>>,
}

impl Writer {
    async fn send(&self, req: reqwest::RequestBuilder, what: &str) -> Value {
        let res = req.bearer_auth(&self.token).send().await.unwrap();
        let status = res.status();
        let body: Value = res.json().await.unwrap_or(Value::Null);
        if status.is_success() {
            self.done.fetch_add(1, Ordering::SeqCst);
        } else {
            self.failures.lock().unwrap().push(format!("{what}: {status} {body}"));
        }
        body
    }

    /// A form sent with POST, or PATCH for the avatar.
    async fn form(&self, path: &str, parts: &[Part], what: &str) -> Value {
        let (content_type, body) = multipart(parts);
        let method = if path.ends_with("/avatar") { reqwest::Method::PATCH } else { reqwest::Method::POST };
        let req = self.client.request(method, format!("{}{path}", self.url));
        self.send(req.header("content-type", content_type).body(body), what).await
    }

    /// One round of this person's writing: `n` makes each round's files differ.
    async fn round(&self, role: usize, n: usize, others: &[String]) {
        match role {
            // Pictures, and every other round the previous picture post deleted: its files go
            // once its rows are gone, the race a backup must handle.
            0 => {
                let made = self
                    .form("/posts/media", &[Part::file("files", "p.png", png(8 + n as u32, None))], "picture")
                    .await;
                if n % 2 == 1
                    && let Some(id) = made["id"].as_str()
                {
                    let req = self.client.delete(format!("{}/posts/{id}", self.url));
                    self.send(req, "delete").await;
                }
            }
            // Audio posts.
            1 => {
                let tone = wav(0.3, 220.0 + n as f32, 0.4);
                self.form("/posts/audio", &[Part::file("audio_files", "t.wav", tone)], "audio").await;
            }
            // A new avatar each round (the old one is deleted after the swap), and talk.
            _ => {
                self.form("/profile/me/avatar", &[Part::file("avatar", "me.png", png(2 + n as u32, None))], "avatar")
                    .await;
                if let Some(post) = others.get(n % others.len().max(1)) {
                    let comment = self.client.post(format!("{}/posts/{post}/comments", self.url));
                    self.send(comment.json(&json!({"content": format!("take {n}")})), "comment").await;
                    let like = self.client.post(format!("{}/posts/{post}/like", self.url));
                    self.send(like.json(&json!({})), "like").await;
                }
                let lyrics = self.client.post(format!("{}/posts/lyrics", self.url));
                self.send(lyrics.json(&lyrics_body(&format!("song {n}"))), "lyrics").await;
            }
        }
    }
}

/// The drill: data written, a backup taken while three people keep writing (pictures posted and
/// deleted, audio, avatars replaced, comments and likes), restored into a fresh folder, checked
/// file by file and table by table, served by a new server, and verified; then a file deleted
/// from the copy is found missing by `selfsound verify`, and a damaged backup is not restored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_people_write_restores_whole() {
    let db = TestDb::sqlite();
    let live = tempfile::tempdir().unwrap();
    let live_dir = live.path().display().to_string();
    let limits = "post=1000/1h,comment=1000/1h,like=1000/1h,profile=1000/1h";
    let env = [("SELFSOUND_DATA_DIR", live_dir.as_str()), ("SELFSOUND_WRITE_LIMITS", limits)];
    let server = start_process_with(&db.url, None, &env).await;
    let client = reqwest::Client::new();
    let failures = Arc::new(std::sync::Mutex::new(Vec::new()));
    let done = Arc::new(AtomicUsize::new(0));
    let writers: Vec<Arc<Writer>> = ["ana", "bob", "cleo"]
        .iter()
        .map(|name| {
            let (token, _) = person_in(&db, name, &format!("{name}@example.com"));
            Arc::new(Writer {
                url: server.url.clone(),
                token,
                client: client.clone(),
                done: done.clone(),
                failures: failures.clone(),
            })
        })
        .collect();
    // Something to comment on and like.
    let mut targets = Vec::new();
    for n in 0..3 {
        let made = writers[0].form("/posts/media", &[Part::file("files", "a.png", png(40 + n, None))], "first").await;
        targets.push(made["id"].as_str().unwrap().to_owned());
    }
    let targets = Arc::new(targets);

    let stop = Arc::new(AtomicBool::new(false));
    let rounds: Vec<Arc<AtomicUsize>> = (0..writers.len()).map(|_| Arc::new(AtomicUsize::new(0))).collect();
    let mut tasks = Vec::new();
    for (role, writer) in writers.iter().enumerate() {
        let (writer, stop, rounds, targets) = (writer.clone(), stop.clone(), rounds[role].clone(), targets.clone());
        tasks.push(tokio::spawn(async move {
            while !stop.load(Ordering::SeqCst) {
                let n = rounds.load(Ordering::SeqCst);
                writer.round(role, n, &targets).await;
                rounds.fetch_add(1, Ordering::SeqCst);
            }
        }));
    }
    let wait_for_rounds = |at_least: Vec<usize>| {
        let rounds = rounds.clone();
        async move {
            while rounds.iter().zip(&at_least).any(|(r, least)| r.load(Ordering::SeqCst) < *least) {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        }
    };
    // Everyone is writing before the backup starts, and goes on after it ends.
    wait_for_rounds(vec![2, 2, 2]).await;
    // Comments are only ever added here (posts are also deleted), so their count grows with
    // time and places the snapshot between two moments.
    let comments_before = count_comments(&db);
    let writes_before = done.load(Ordering::SeqCst);
    let backup_dir = tempfile::tempdir().unwrap();
    let copy = backup_dir.path().join("copy");
    let (copy_arg, database) = (copy.display().to_string(), db.url.clone());
    let backed_up = tokio::task::spawn_blocking(move || {
        selfsound(&["backup", &copy_arg], &[("DATABASE_URL", &database), ("SELFSOUND_DATA_DIR", &live_dir)])
    })
    .await
    .unwrap();
    let writes_during = done.load(Ordering::SeqCst) - writes_before;
    let after: Vec<usize> = rounds.iter().map(|r| r.load(Ordering::SeqCst) + 1).collect();
    wait_for_rounds(after).await;
    stop.store(true, Ordering::SeqCst);
    for task in tasks {
        task.await.unwrap();
    }
    let comments_after = count_comments(&db);
    assert!(backed_up.status.success(), "{}", said(&backed_up));
    assert!(said(&backed_up).contains("backed up"), "{}", said(&backed_up));
    assert_eq!(*failures.lock().unwrap(), Vec::<String>::new(), "the server served every write during the backup");
    eprintln!("{writes_during} writes completed while the backup ran; {comments_before}..{comments_after} comments");
    eprintln!("{}", said(&backed_up));

    // The manifest: one snapshot of the database, between the counts before and after.
    let manifest: Manifest = read_manifest(&copy).unwrap();
    assert!(manifest.missing.is_empty(), "{:?}", manifest.missing);
    assert_eq!(manifest.version, env!("CARGO_PKG_VERSION"));
    let comments = manifest.row_counts["comments"];
    assert!(
        comments_before <= comments && comments <= comments_after,
        "{comments_before} <= {comments} <= {comments_after}"
    );
    assert!(manifest.row_counts["post_audio"] > 0 && manifest.row_counts["comments"] > 0);
    let media: Vec<_> = manifest.files.iter().filter(|f| f.path.starts_with("media/")).collect();
    assert!(media.iter().any(|f| f.path.starts_with("media/avatars/")), "{media:?}");

    // Restored into a fresh folder (where the database goes by default: inside it).
    let fresh = tempfile::tempdir().unwrap();
    let fresh_dir = fresh.path().display().to_string();
    let restored = selfsound(&["restore", &copy.display().to_string()], &[("SELFSOUND_DATA_DIR", &fresh_dir)]);
    assert!(restored.status.success(), "{}", said(&restored));
    let restored_db = fresh.path().join("selfsound.sqlite3");
    // Every file as it was, but the database, whose sessions a restore ends.
    for file in manifest.files.iter().filter(|f| f.path != manifest.database) {
        let bytes = std::fs::read(fresh.path().join(&file.path)).unwrap();
        assert_eq!((bytes.len() as u64, sha256(&bytes)), (file.size, file.sha256.clone()), "{}", file.path);
    }
    let sessions = manifest.row_counts["sessions"];
    assert!(sessions > 0, "the backup holds the writers' sessions");
    assert!(
        said(&restored).contains(&format!("ended every session the backup held ({sessions})")),
        "{}",
        said(&restored)
    );
    let mut expected = manifest.row_counts.clone();
    expected.insert("sessions".into(), 0);
    assert_eq!(row_counts(&restored_db, manifest.row_counts.keys().cloned()), expected);
    let verified = selfsound(&["verify"], &[("SELFSOUND_DATA_DIR", &fresh_dir)]);
    assert!(verified.status.success(), "no row of the copy points at a missing object: {}", said(&verified));

    // A server on the copy serves its posts and every file as it was.
    let copy_server =
        start_process_with(&restored_db.display().to_string(), None, &[("SELFSOUND_DATA_DIR", &fresh_dir)]).await;
    for target in targets.iter() {
        let post = client.get(format!("{}/posts/{target}", copy_server.url)).send().await.unwrap();
        assert_eq!(post.status(), StatusCode::OK, "{target}");
    }
    for file in &media {
        let res = client.get(format!("{}/{}", copy_server.url, file.path)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{}", file.path);
        assert_eq!(sha256(&res.bytes().await.unwrap()), file.sha256, "{}", file.path);
    }

    // A file gone from the copy: verify names it and fails.
    let first: Value =
        client.get(format!("{}/posts/{}", copy_server.url, targets[0])).send().await.unwrap().json().await.unwrap();
    let url = first["media"][0]["file_url"].as_str().unwrap();
    let key = url.split("/media/").nth(1).unwrap().to_owned();
    std::fs::remove_file(fresh.path().join("media").join(&key)).unwrap();
    let broken = selfsound(&["verify"], &[("SELFSOUND_DATA_DIR", &fresh_dir)]);
    assert_eq!(broken.status.code(), Some(1), "{}", said(&broken));
    assert!(said(&broken).contains(&format!("missing: {key} (post_media.file_key)")), "{}", said(&broken));
    drop(copy_server);

    // A damaged backup is not restored, and leaves the folder as empty as it found it.
    let damaged = media.iter().find(|f| f.path.starts_with("media/avatars/")).unwrap();
    let mut bytes = std::fs::read(copy.join(&damaged.path)).unwrap();
    bytes[0] ^= 0xff;
    std::fs::write(copy.join(&damaged.path), bytes).unwrap();
    let other = tempfile::tempdir().unwrap();
    let refused =
        selfsound(&["restore", &copy.display().to_string(), "--data-dir", &other.path().display().to_string()], &[]);
    assert_eq!(refused.status.code(), Some(1), "{}", said(&refused));
    assert!(
        said(&refused).contains(&format!("{}: its SHA-256 is not the manifest's", damaged.path)),
        "{}",
        said(&refused)
    );
    assert_eq!(std::fs::read_dir(other.path()).unwrap().count(), 0, "nothing is left of a refused restore");
    drop(server);
}

fn count_comments(db: &TestDb) -> i64 {
    use db::schema::comments;
    comments::table.count().get_result(&mut *db.get().unwrap()).unwrap()
}

/// A restore checks tampering as well as damage where the operator keeps a key: with
/// `SELFSOUND_BACKUP_KEY` a backup's manifest is signed, and a restore with the key refuses a
/// manifest changed since (its database's hash recomputed after making everyone an admin), one
/// signed with another key, and one not signed. Whatever the key, a manifest naming a file
/// outside the backup is refused, and so is a link in the backup; a restore ends every
/// session the backup held, so a token signed out since does not come back.
#[test]
fn a_restore_refuses_a_tampered_backup_and_ends_its_sessions() {
    let key = "k".repeat(40);
    let live = tempfile::tempdir().unwrap();
    let live_dir = live.path().display().to_string();
    assert!(selfsound(&["migrate", "--data-dir", &live_dir], &[]).status.success());
    {
        use db::schema::sessions;
        let path = live.path().join("selfsound.sqlite3");
        let mut conn =
            db::DbConnection::Sqlite(db::diesel::SqliteConnection::establish(path.to_str().unwrap()).unwrap());
        let ana = test_support::insert_user(&mut conn, "Ana", "ana");
        let now = db::time::now();
        db::diesel::insert_into(sessions::table)
            .values((
                sessions::id.eq(values::SessionId::generate()),
                sessions::user_id.eq(ana),
                sessions::created_at.eq(now),
                sessions::expires_at.eq(now + chrono::Duration::hours(24)),
            ))
            .execute(&mut conn)
            .unwrap();
    }
    let copies = tempfile::tempdir().unwrap();
    let signed = copies.path().join("signed");
    let with_key = [("SELFSOUND_BACKUP_KEY", key.as_str())];
    let made = selfsound(&["backup", &signed.display().to_string(), "--data-dir", &live_dir], &with_key);
    assert!(made.status.success(), "{}", said(&made));
    let manifest: Value = serde_json::from_slice(&std::fs::read(signed.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["signature"].as_str().map(str::len), Some(64), "{manifest}");

    let restore = |dir: &Path, env: &[(&str, &str)]| {
        let target = tempfile::tempdir().unwrap();
        let out = selfsound(
            &["restore", &dir.display().to_string(), "--data-dir", &target.path().display().to_string()],
            env,
        );
        (out, target)
    };
    // Signed and untouched: restored, its sessions ended.
    let (ok, target) = restore(&signed, &with_key);
    assert!(ok.status.success(), "{}", said(&ok));
    assert!(
        said(&ok).contains("signed with SELFSOUND_BACKUP_KEY")
            && said(&ok).contains("ended every session the backup held (1)")
    );
    let sessions = row_counts(&target.path().join("selfsound.sqlite3"), ["sessions".to_owned()].into_iter());
    assert_eq!(sessions["sessions"], 0);

    // Tampered: the database changed and its size and hash written into the manifest again.
    let tampered = copies.path().join("tampered");
    copy_dir(&signed, &tampered);
    {
        let mut conn =
            db::diesel::SqliteConnection::establish(tampered.join("selfsound.sqlite3").to_str().unwrap()).unwrap();
        db::diesel::sql_query("UPDATE users SET is_admin = 1").execute(&mut conn).unwrap();
    }
    let bytes = std::fs::read(tampered.join("selfsound.sqlite3")).unwrap();
    let mut forged = manifest.clone();
    for f in forged["files"].as_array_mut().unwrap() {
        if f["path"] == "selfsound.sqlite3" {
            f["size"] = json!(bytes.len());
            f["sha256"] = json!(sha256(&bytes));
        }
    }
    std::fs::write(tampered.join("manifest.json"), serde_json::to_vec(&forged).unwrap()).unwrap();
    let (refused, target) = restore(&tampered, &with_key);
    assert_eq!(refused.status.code(), Some(1), "{}", said(&refused));
    assert!(said(&refused).contains("signature does not match SELFSOUND_BACKUP_KEY"), "{}", said(&refused));
    assert_eq!(std::fs::read_dir(target.path()).unwrap().count(), 0, "nothing restored");
    let other_key = "o".repeat(40);
    let (refused, _) = restore(&signed, &[("SELFSOUND_BACKUP_KEY", other_key.as_str())]);
    assert!(said(&refused).contains("signature does not match"), "{}", said(&refused));
    let mut unsigned = forged.clone();
    unsigned.as_object_mut().unwrap().remove("signature");
    std::fs::write(tampered.join("manifest.json"), serde_json::to_vec(&unsigned).unwrap()).unwrap();
    let (refused, _) = restore(&tampered, &with_key);
    assert!(said(&refused).contains("not signed, and SELFSOUND_BACKUP_KEY is set"), "{}", said(&refused));
    // Without a key, the backup is trusted input, and the restore says its signature went unchecked.
    let (trusted, _) = restore(&tampered, &[]);
    assert!(trusted.status.success() && said(&trusted).contains("signature not checked"), "{}", said(&trusted));

    // A database named outside the backup, and a link inside it: refused with or without a key.
    let outside = copies.path().join("outside");
    copy_dir(&signed, &outside);
    let mut escaping = manifest.clone();
    escaping["database"] = json!("/etc/hostname");
    escaping["files"].as_array_mut().unwrap().push(json!({"path": "/etc/hostname", "size": 1, "sha256": "00"}));
    std::fs::write(outside.join("manifest.json"), serde_json::to_vec(&escaping).unwrap()).unwrap();
    let (refused, _) = restore(&outside, &[]);
    assert!(said(&refused).contains("names \"/etc/hostname\" as its database"), "{}", said(&refused));
    let mut climbing = manifest.clone();
    climbing["files"].as_array_mut().unwrap().push(json!({"path": "media/../../x", "size": 1, "sha256": "00"}));
    std::fs::write(outside.join("manifest.json"), serde_json::to_vec(&climbing).unwrap()).unwrap();
    let (refused, _) = restore(&outside, &[]);
    assert!(said(&refused).contains("neither the database nor an object"), "{}", said(&refused));
    let linked = copies.path().join("linked");
    copy_dir(&signed, &linked);
    std::fs::remove_file(linked.join("selfsound.sqlite3")).unwrap();
    std::os::unix::fs::symlink(signed.join("selfsound.sqlite3"), linked.join("selfsound.sqlite3")).unwrap();
    let (refused, _) = restore(&linked, &[]);
    assert!(said(&refused).contains("selfsound.sqlite3 is not a plain file"), "{}", said(&refused));
}

/// Copies a backup folder (files and folders only).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A backup goes only into an empty folder, a restore only into an empty installation; an
/// installation on PostgreSQL is pointed to pg_dump.
#[test]
fn backups_and_restores_refuse_what_they_would_overwrite() {
    let live = tempfile::tempdir().unwrap();
    let live_dir = live.path().display().to_string();
    assert!(selfsound(&["migrate", "--data-dir", &live_dir], &[]).status.success());
    let full = tempfile::tempdir().unwrap();
    std::fs::write(full.path().join("keep.txt"), b"mine").unwrap();
    let full_dir = full.path().display().to_string();

    let into_full = selfsound(&["backup", &full_dir, "--data-dir", &live_dir], &[]);
    assert_eq!(into_full.status.code(), Some(1), "{}", said(&into_full));
    assert!(said(&into_full).contains("must be an empty folder"), "{}", said(&into_full));

    let copy = tempfile::tempdir().unwrap();
    let copy_dir = copy.path().join("b").display().to_string();
    assert!(selfsound(&["backup", &copy_dir, "--data-dir", &live_dir], &[]).status.success());
    let onto_data = selfsound(&["restore", &copy_dir, "--data-dir", &full_dir], &[]);
    assert_eq!(onto_data.status.code(), Some(1), "{}", said(&onto_data));
    assert_eq!(std::fs::read(full.path().join("keep.txt")).unwrap(), b"mine");
    let not_a_backup =
        selfsound(&["restore", &full_dir, "--data-dir", &copy.path().join("new").display().to_string()], &[]);
    assert_eq!(not_a_backup.status.code(), Some(1), "{}", said(&not_a_backup));
    assert!(said(&not_a_backup).contains("manifest.json"), "{}", said(&not_a_backup));

    for command in ["backup", "restore"] {
        let pg = selfsound(&[command, &copy_dir], &[("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/selfsound")]);
        assert_eq!(pg.status.code(), Some(1), "{}", said(&pg));
        assert!(said(&pg).contains("pg_dump"), "{}", said(&pg));
    }
}

#[test]
fn every_command_has_help_and_a_version() {
    let seed = selfsound(&["seed", "--help"], &[]);
    assert_eq!(seed.status.code(), Some(0), "{}", said(&seed));
    assert!(String::from_utf8_lossy(&seed.stdout).contains("--users <N>"), "{}", said(&seed));
    for command in [
        &[][..],
        &["serve"],
        &["migrate"],
        &["admin"],
        &["admin", "grant"],
        &["admin", "revoke"],
        &["openapi"],
        &["backup"],
        &["restore"],
        &["verify"],
    ] {
        let help = selfsound(&[command, &["--help"]].concat(), &[]);
        assert_eq!(help.status.code(), Some(0), "{command:?}: {}", said(&help));
        assert!(String::from_utf8_lossy(&help.stdout).contains("Usage: selfsound"), "{command:?}");
        let version = selfsound(&[command, &["--version"]].concat(), &[]);
        assert_eq!(version.status.code(), Some(0), "{command:?}: {}", said(&version));
        assert!(String::from_utf8_lossy(&version.stdout).contains(env!("CARGO_PKG_VERSION")), "{command:?}");
    }
}

#[test]
fn usage_errors_exit_with_status_2() {
    for args in [
        &["bogus"][..],
        &["seed", "--users", "lots"],
        &["seed", "--help-me"],
        &["admin", "grant"],
        &["admin", "promote", "a@example.com"],
        &["backup"],
        &["--data-dir"],
    ] {
        let out = selfsound(args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", said(&out));
    }
    let bad_setting = selfsound(&["migrate", "--bind", "nonsense"], &[]);
    assert_eq!(bad_setting.status.code(), Some(2), "{}", said(&bad_setting));
    assert!(said(&bad_setting).contains("SELFSOUND_BIND"), "{}", said(&bad_setting));
}

/// A flag wins over its environment variable; the variable still works alone.
#[test]
fn flags_win_over_the_environment() {
    let root = tempfile::tempdir().unwrap();
    let (by_flag, by_env) = (root.path().join("flag"), root.path().join("env"));
    let env_dir = by_env.display().to_string();
    let out =
        selfsound(&["migrate", "--data-dir", &by_flag.display().to_string()], &[("SELFSOUND_DATA_DIR", &env_dir)]);
    assert!(out.status.success(), "{}", said(&out));
    assert!(by_flag.join("selfsound.sqlite3").is_file());
    assert!(!by_env.exists());
    assert!(selfsound(&["migrate"], &[("SELFSOUND_DATA_DIR", &env_dir)]).status.success());
    assert!(by_env.join("selfsound.sqlite3").is_file());
    let elsewhere = root.path().join("elsewhere.sqlite3").display().to_string();
    let out = selfsound(&["--database-url", &elsewhere, "migrate"], &[("SELFSOUND_DATA_DIR", &env_dir)]);
    assert!(out.status.success(), "{}", said(&out));
    assert!(Path::new(&elsewhere).is_file());
}

/// `selfsound verify` on the scaled-out installation, PostgreSQL and a bucket (Garage): every
/// object the rows name is found; one removed from the bucket is named and fails the check.
/// `selfsound backup` refuses this installation and points to pg_dump.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_checks_a_bucket_against_postgresql() {
    let Some(db) = TestDb::postgres() else { return };
    let Some(s3) = test_support::s3::S3TestServer::start("verify").await else { return };
    let bucket_env = s3.env();
    let mut env: Vec<(&str, &str)> = bucket_env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let server = start_process_with(&db.url, None, &env).await;
    let (token, _) = person_in(&db, "Ana", "ana@example.com");
    let (content_type, body) = multipart(&[Part::file("files", "a.png", png(32, None))]);
    let client = reqwest::Client::new();
    let made = client
        .post(format!("{}/posts/media", server.url))
        .bearer_auth(&token)
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(made.status(), StatusCode::CREATED);
    let made: Value = made.json().await.unwrap();
    let url = made["media"][0]["file_url"].as_str().unwrap();
    let key = url.split("/media/").nth(1).unwrap().to_owned();

    env.push(("DATABASE_URL", &db.url));
    let verified = selfsound(&["verify"], &env);
    assert!(verified.status.success(), "{}", said(&verified));
    assert!(said(&verified).contains("S3 bucket verify"), "{}", said(&verified));

    storage::Storage::s3(&s3.settings).unwrap().delete(&key).await.unwrap();
    let broken = selfsound(&["verify"], &env);
    assert_eq!(broken.status.code(), Some(1), "{}", said(&broken));
    assert!(said(&broken).contains(&format!("missing: {key} (post_media.file_key)")), "{}", said(&broken));

    let nowhere = tempfile::tempdir().unwrap();
    let refused = selfsound(&["backup", &nowhere.path().join("b").display().to_string()], &env);
    assert_eq!(refused.status.code(), Some(1), "{}", said(&refused));
    assert!(said(&refused).contains("pg_dump"), "{}", said(&refused));
    assert!(!nowhere.path().join("b").exists(), "nothing was written");
}
