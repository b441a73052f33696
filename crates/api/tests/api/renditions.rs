//! Tracks' renditions and the jobs that make them (issue 32), against the real server and real
//! ffmpeg: Opus and AAC files that stream and seek, old tracks measured and encoded by the walk
//! the migration queues, a post deleted while its job runs leaving no file behind, a job done
//! twice with one effect, and the crash drill — `kill -9` during an encode, the job finished on
//! restart (SQLite) and by the surviving process of two (PostgreSQL with Garage).

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use db::diesel::prelude::*;
use db::schema::{jobs, post_audio};
use reqwest::StatusCode;
use serde_json::Value;
use test_support::TestDb;
use test_support::media::wav;
use test_support::s3::S3TestServer;
use values::PostId;

use crate::common::{Options, Part, multipart, person_in, spawn_app, spawn_app_with, start_process_with};

fn has_ffmpeg() -> bool {
    let found = posts::ffmpeg::Ffmpeg::find(std::path::Path::new("ffmpeg")).is_some();
    assert!(found || std::env::var("CI").is_err(), "CI needs ffmpeg for the renditions");
    if !found {
        eprintln!("SKIPPED: no ffmpeg");
    }
    found
}

/// `GET {url}/posts/{id}` until every track has its renditions, within `limit` (the jobs of
/// `db` are shown when they do not come).
async fn with_renditions(db: &TestDb, client: &reqwest::Client, url: &str, id: &str, limit: Duration) -> Value {
    let started = Instant::now();
    loop {
        let post: Value = client.get(format!("{url}/posts/{id}")).send().await.unwrap().json().await.unwrap();
        let tracks = post["audio"].as_array().cloned().unwrap_or_default();
        if !tracks.is_empty() && tracks.iter().all(|t| t["renditions"].as_array().is_some_and(|r| r.len() == 2)) {
            return post;
        }
        if started.elapsed() > limit {
            let jobs = db::jobs::list(&mut db.get().unwrap(), 20).unwrap();
            panic!("no renditions within {limit:?}: {post}\njobs: {jobs:#?}");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn upload(client: &reqwest::Client, url: &str, token: &str, files: &[(&str, Vec<u8>)]) -> Value {
    let parts: Vec<Part> = files.iter().map(|(name, bytes)| Part::file("audio_files", name, bytes.clone())).collect();
    let (content_type, body) = multipart(&parts);
    let res = client
        .post(format!("{url}/posts/audio"))
        .bearer_auth(token)
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    res.json().await.unwrap()
}

/// The job rows, as (kind, state).
fn job_states(db: &TestDb) -> Vec<(String, String)> {
    jobs::table.select((jobs::kind, jobs::state)).load(&mut *db.get().unwrap()).unwrap()
}

async fn until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < limit, "{what}: not within {limit:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Every file in a media folder, as keys.
fn files_in(root: &std::path::Path) -> BTreeSet<String> {
    crate::crash::walk(root, root)
}

/// After upload each track is encoded into Opus (WebM) and AAC (MP4, its index first), served
/// with their types and in ranges (seeking), beside the original, which stays the download.
async fn tracks_are_encoded_for_streaming(db: TestDb) {
    if !has_ffmpeg() {
        return;
    }
    let app = spawn_app(db).await;
    let (token, _) = app.person("Ada", "ada@example.com").await;
    let post =
        upload(&app.client, &app.url, &token, &[("a.wav", wav(4.0, 440.0, 0.5)), ("b.wav", wav(3.0, 660.0, 0.2))])
            .await;
    let id = post["id"].as_str().unwrap();
    assert_eq!(post["audio"][0]["renditions"], serde_json::json!([]), "made after the answer, in the background");
    let post = with_renditions(&app.db, &app.client, &app.url, id, Duration::from_secs(60)).await;
    for track in post["audio"].as_array().unwrap() {
        let original = track["file_url"].as_str().unwrap();
        assert!(original.ends_with(".wav"), "the original stays the download: {original}");
        let r = &track["renditions"];
        assert_eq!(
            (r[0]["mime_type"].as_str(), r[0]["bitrate_kbps"].as_u64()),
            (Some("audio/webm; codecs=\"opus\""), Some(96))
        );
        assert_eq!(
            (r[1]["mime_type"].as_str(), r[1]["bitrate_kbps"].as_u64()),
            (Some("audio/mp4; codecs=\"mp4a.40.2\""), Some(160))
        );
        let opus = app.client.get(r[0]["url"].as_str().unwrap()).send().await.unwrap();
        assert_eq!(opus.headers()["content-type"], "audio/webm");
        let opus = opus.bytes().await.unwrap();
        assert!(opus.starts_with(&[0x1A, 0x45, 0xDF, 0xA3]), "a WebM (EBML) file");
        // Its cues (the index seeking reads) before its first cluster of sound.
        let at_id = |id: &[u8]| opus.windows(4).position(|w| w == id).unwrap_or(usize::MAX);
        assert!(at_id(&[0x1C, 0x53, 0xBB, 0x6B]) < at_id(&[0x1F, 0x43, 0xB6, 0x75]), "cues first");
        let aac_url = r[1]["url"].as_str().unwrap();
        let aac = app.client.get(aac_url).send().await.unwrap();
        assert_eq!(aac.headers()["content-type"], "audio/mp4");
        let aac = aac.bytes().await.unwrap();
        assert_eq!(&aac[4..8], b"ftyp");
        let at = |atom: &[u8]| aac.windows(4).position(|w| w == atom).unwrap_or(usize::MAX);
        assert!(at(b"moov") < at(b"mdat"), "the index before the data: playable before it is all in");
        // Seeking: a range of the middle.
        let part = app.client.get(aac_url).header("range", "bytes=1000-1999").send().await.unwrap();
        assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT);
        assert_eq!(part.bytes().await.unwrap(), aac[1000..2000]);
        // Both say what the track holds: its duration, give or take a frame.
        let seconds = track["duration_seconds"].as_f64().unwrap();
        for bytes in [&opus[..], &aac[..]] {
            let probed = probe_seconds(bytes);
            assert!((probed - seconds).abs() < 0.1, "{probed} s for a track of {seconds} s");
        }
    }
    assert!(job_states(&app.db).is_empty(), "done jobs go");
}

/// The length of an encoded file as ffprobe reads it.
fn probe_seconds(bytes: &[u8]) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    std::fs::write(&path, bytes).unwrap();
    let out = std::process::Command::new("ffprobe")
        .args(["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0"])
        .arg(&path)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap_or(-1.0)
}

/// Tracks uploaded before renditions and loudness: the walk migration 28 queues finds them,
/// queues a job each, and each measures the loudness the track lacks and encodes it.
async fn old_tracks_are_measured_and_encoded(db: TestDb) {
    if !has_ffmpeg() {
        return;
    }
    let off = || Options { env: vec![("SELFSOUND_JOB_WORKERS".into(), "0".into())], ..Options::default() };
    let app = spawn_app_with(db, off()).await;
    let (token, _) = app.person("Ada", "ada@example.com").await;
    let post = upload(&app.client, &app.url, &token, &[("old.wav", wav(2.0, 440.0, 0.5))]).await;
    let id: PostId = post["id"].as_str().unwrap().parse().unwrap();
    // As it was before issue 32: no loudness, no renditions, no job.
    let mut conn = app.db.get().unwrap();
    db::diesel::update(post_audio::table.filter(post_audio::post_id.eq(id)))
        .set((post_audio::loudness_lufs.eq(None::<f64>), post_audio::true_peak_dbtp.eq(None::<f64>)))
        .execute(&mut *conn)
        .unwrap();
    db::diesel::delete(jobs::table).execute(&mut *conn).unwrap();
    // What migration 28 queues when tracks exist.
    let walk = db::jobs::NewJob {
        kind: values::JobKind::OldTracks,
        subject: "after:0".into(),
        payload: "{\"after\":0}".into(),
        owner: None,
    };
    db::jobs::enqueue(&mut conn, &walk, None).unwrap();
    drop(conn);
    app.stop().await;
    // The same database and media folder, now with a worker.
    let (db, data) = (app.db, app.data_dir);
    let same_folder = vec![("SELFSOUND_DATA_DIR".to_owned(), data.path().display().to_string())];
    let app = spawn_app_with(db, Options { env: same_folder, ..Options::default() }).await;
    let post = with_renditions(&app.db, &app.client, &app.url, &id.to_string(), Duration::from_secs(60)).await;
    let lufs = post["audio"][0]["loudness"]["integrated_lufs"].as_f64().expect("measured by the job");
    assert!((-7.5..=-5.5).contains(&lufs), "{lufs}");
    until("the jobs end", Duration::from_secs(10), || job_states(&app.db).is_empty()).await;
}

/// A post deleted while its track is being encoded: the job finds it gone, removes what it
/// stored, and ends; nothing of the post is left in the media folder.
async fn a_post_deleted_mid_encode_leaves_no_files(db: TestDb) {
    if !has_ffmpeg() {
        return;
    }
    let app = spawn_app(db).await;
    let (token, _) = app.person("Ada", "ada@example.com").await;
    // Ten minutes of audio: an encode of several seconds.
    let post = upload(&app.client, &app.url, &token, &[("long.wav", wav(600.0, 440.0, 0.5))]).await;
    let id = post["id"].as_str().unwrap().to_owned();
    until("the job runs", Duration::from_secs(30), || job_states(&app.db).iter().any(|(_, s)| s == "running")).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let deleted = app.client.delete(format!("{}/posts/{id}", app.url)).bearer_auth(&token).send().await.unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    until("the job ends", Duration::from_secs(120), || job_states(&app.db).is_empty()).await;
    let left: Vec<String> = files_in(&app.data_dir.path().join("media"))
        .into_iter()
        .filter(|k| k.starts_with(&format!("posts/{id}/")))
        .collect();
    assert!(left.is_empty(), "files of the deleted post: {left:?}");
}

/// The same track's job run twice (a lapsed lease: two processes at once, or again later) has
/// one effect: one pair of renditions, the second pair removed again.
async fn a_job_done_twice_has_one_effect(db: TestDb) {
    if !has_ffmpeg() {
        return;
    }
    let off = Options { env: vec![("SELFSOUND_JOB_WORKERS".into(), "0".into())], ..Options::default() };
    let app = spawn_app_with(db, off).await;
    let (token, _) = app.person("Ada", "ada@example.com").await;
    let post = upload(&app.client, &app.url, &token, &[("a.wav", wav(5.0, 440.0, 0.5))]).await;
    let id = post["id"].as_str().unwrap().to_owned();
    let media = app.data_dir.path().join("media");
    let before = files_in(&media);
    let storage = storage::Storage::local(&media).unwrap();
    let ffmpeg = posts::ffmpeg::Ffmpeg::find(std::path::Path::new("ffmpeg"));
    let posts = posts::Posts::new(app.db.db.clone(), storage, ffmpeg);
    let claimed = |me: &'static str| {
        let db = app.db.db.clone();
        async move {
            // Leased for no time: the second claim takes it over at once, as after a crash.
            db.write(move |c| Ok::<_, db::DbError>(db::jobs::claim(c, me, Duration::ZERO, true)?))
                .await
                .unwrap()
                .unwrap()
        }
    };
    let first = claimed("one").await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let second = claimed("two").await;
    assert_eq!(first.id, second.id);
    let (a, b) = tokio::join!(posts.run_job(&first), posts.run_job(&second));
    assert_eq!((a, b), (Ok(()), Ok(())));
    posts.run_job(&first).await.unwrap();
    let added: Vec<String> = files_in(&media).difference(&before).cloned().collect();
    assert_eq!(added.len(), 2, "one Opus and one AAC file: {added:?}");
    let post = with_renditions(&app.db, &app.client, &app.url, &id, Duration::from_secs(5)).await;
    for r in post["audio"][0]["renditions"].as_array().unwrap() {
        let key = r["url"].as_str().unwrap().split_once("/media/").unwrap().1;
        assert!(added.contains(&key.to_owned()), "{key} is the pair kept");
    }
}

/// `selfsound jobs [ARGS]` against `db`, as an operator runs it: its output, or a panic.
fn jobs_command(db: &TestDb, data: &std::path::Path, args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_selfsound"))
        .arg("jobs")
        .args(args)
        .env("DATABASE_URL", &db.url)
        .env("SELFSOUND_DATA_DIR", data)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A job no try can mend (its track's original is gone) is kept as failed with its error, which
/// `selfsound jobs` shows; once the file is back, `selfsound jobs retry ID` queues it again and it
/// runs.
async fn a_failed_job_is_listed_and_retried(db: TestDb) {
    if !has_ffmpeg() {
        return;
    }
    let off = Options { env: vec![("SELFSOUND_JOB_WORKERS".into(), "0".into())], ..Options::default() };
    let app = spawn_app_with(db, off).await;
    let (token, _) = app.person("Ada", "ada@example.com").await;
    let post = upload(&app.client, &app.url, &token, &[("a.wav", wav(2.0, 440.0, 0.5))]).await;
    let id = post["id"].as_str().unwrap().to_owned();
    let key = post["audio"][0]["file_url"].as_str().unwrap().split_once("/media/").unwrap().1.to_owned();
    let media = app.data_dir.path().join("media");
    let (original, aside) = (media.join(&key), app.data_dir.path().join("aside.wav"));
    std::fs::rename(&original, &aside).unwrap();
    app.stop().await;
    let (db, data) = (app.db, app.data_dir);
    let same_folder = vec![("SELFSOUND_DATA_DIR".to_owned(), data.path().display().to_string())];
    let app = spawn_app_with(db, Options { env: same_folder, ..Options::default() }).await;
    until("the job fails", Duration::from_secs(30), || job_states(&app.db).iter().any(|(_, s)| s == "failed")).await;
    let listed = jobs_command(&app.db, data.path(), &[]);
    assert!(listed.starts_with("0 queued, 0 running, 1 failed"), "{listed}");
    assert!(listed.contains("track.renditions") && listed.contains(&format!("{id}/0")), "{listed}");
    assert!(listed.contains(&format!("last error: the original {key} is missing")), "{listed}");
    let job = listed.lines().nth(1).and_then(|l| l.split_whitespace().next()).unwrap().to_owned();

    std::fs::rename(&aside, &original).unwrap();
    assert_eq!(jobs_command(&app.db, data.path(), &["retry", &job]).trim(), "queued again: 1 job");
    with_renditions(&app.db, &app.client, &app.url, &id, Duration::from_secs(30)).await;
    until("the job ends", Duration::from_secs(10), || job_states(&app.db).is_empty()).await;
}

test_support::both_backends!(
    a_failed_job_is_listed_and_retried,
    tracks_are_encoded_for_streaming,
    old_tracks_are_measured_and_encoded,
    a_post_deleted_mid_encode_leaves_no_files,
    a_job_done_twice_has_one_effect,
);

/// Whether some ffmpeg is encoding `original` now (the job's process, or one it left behind).
fn encoding_now() -> bool {
    let out = std::process::Command::new("pgrep").args(["-f", "-c", "ffmpeg.*-i original"]).output();
    out.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim().parse::<u32>().unwrap_or(0) > 0)
}

/// The crash drill: `kill -9` while a track is encoded. `servers` processes share the database
/// and storage; the first (the one encoding) is killed, and the job is finished by the next
/// (restarted on the same data folder when there is one, the survivor when there are two) once
/// the dead one's lease has run out.
async fn killed_mid_encode(db: &TestDb, env: &[(&str, &str)], two: bool, media: Option<&std::path::Path>) {
    let (token, _) = person_in(db, "Ada", "ada@example.com");
    let client = reqwest::Client::new();
    let mut env: Vec<(&str, &str)> = env.to_vec();
    env.push(("SELFSOUND_JOB_LEASE_SECS", "2"));
    // The first process alone runs jobs until it is killed; the other (when two) is started
    // once the job is running, so that it cannot be the one to claim it first.
    let mut first = start_process_with(&db.url, None, &env).await;
    let post = upload(&client, &first.url, &token, &[("long.wav", wav(600.0, 440.0, 0.5))]).await;
    let id = post["id"].as_str().unwrap().to_owned();
    until("the job runs", Duration::from_secs(30), || job_states(db).iter().any(|(_, s)| s == "running")).await;
    until("ffmpeg runs", Duration::from_secs(30), encoding_now).await;
    let second = if two { Some(start_process_with(&db.url, None, &env).await) } else { None };
    tokio::time::sleep(Duration::from_millis(500)).await;
    first.kill();
    let started = Instant::now();
    let next = match second {
        Some(survivor) => survivor,
        None => start_process_with(&db.url, None, &env).await,
    };
    let post = with_renditions(db, &client, &next.url, &id, Duration::from_secs(180)).await;
    eprintln!(
        "killed mid-encode ({}): finished {:.1} s after the kill",
        if two { "two processes" } else { "restart" },
        started.elapsed().as_secs_f64()
    );
    until("the job ends", Duration::from_secs(10), || job_states(db).is_empty()).await;
    // The renditions play: served whole, as long as the track.
    for r in post["audio"][0]["renditions"].as_array().unwrap() {
        let bytes = client.get(r["url"].as_str().unwrap()).send().await.unwrap().bytes().await.unwrap();
        assert!((probe_seconds(&bytes) - 600.0).abs() < 0.1);
    }
    if let Some(media) = media {
        let kept: Vec<String> =
            files_in(media).into_iter().filter(|k| k.starts_with(&format!("posts/{id}/"))).collect();
        assert_eq!(kept.len(), 3, "the original and one pair of renditions: {kept:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_mid_encode_on_sqlite_the_job_finishes_after_a_restart() {
    if !has_ffmpeg() {
        return;
    }
    let db = TestDb::sqlite();
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().display().to_string();
    killed_mid_encode(&db, &[("SELFSOUND_DATA_DIR", &dir)], false, Some(&data.path().join("media"))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_mid_encode_on_postgres_the_survivor_of_two_finishes_the_job() {
    if !has_ffmpeg() {
        return;
    }
    let Some(db) = TestDb::postgres() else { return };
    let Some(s3) = S3TestServer::start("renditions").await else { return };
    let env = s3.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    killed_mid_encode(&db, &env, true, None).await;
    let keys: Vec<String> =
        s3.keys().await.into_iter().filter(|k| k.ends_with(".weba") || k.ends_with(".m4a")).collect();
    assert_eq!(keys.len(), 2, "one pair of renditions in the bucket: {keys:?}");
}
