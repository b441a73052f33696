//! "Download my data" (issue 36; docs/data-export.md): asked for once a day, built by a job,
//! its link e-mailed, the zip holding every post of the person with each original file and its
//! SHA-256, and the rest of their data as JSON; the link works until it expires, then the
//! archive goes; nothing of it is ever served as media.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::time::Duration;

use db::diesel::prelude::*;
use db::schema::{data_exports, jobs, post_audio, post_media, post_scores, posts};
use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use test_support::TestDb;
use test_support::media::{musicxml, png, wav};

use crate::common::{Part, TestApp, spawn_app};

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

async fn status(app: &TestApp, token: &str) -> Value {
    let s = app.get("/account/data-export", Some(token)).await;
    assert_eq!(s.status, StatusCode::OK, "{:?}", s.body);
    assert_eq!(s.headers["cache-control"], "no-store");
    s.body
}

/// Waits for the archive to be ready (its job runs in the server's workers).
async fn until_ready(app: &TestApp, token: &str) -> Value {
    let started = std::time::Instant::now();
    loop {
        let s = status(app, token).await;
        if s["state"] == "ready" {
            return s;
        }
        assert_ne!(s["state"], "failed", "{s}");
        if started.elapsed() > Duration::from_secs(60) {
            let jobs = db::jobs::list(&mut app.db.get().unwrap(), 20).unwrap();
            panic!("no archive within a minute: {s}\njobs: {jobs:#?}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The link of the newest "data is ready" e-mail to `email`.
fn archive_link(app: &TestApp, email: &str) -> String {
    let mut mails: Vec<_> = std::fs::read_dir(app.mail_dir()).unwrap().flatten().map(|e| e.path()).collect();
    mails.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    let text = mails
        .iter()
        .rev()
        .map(|p| std::fs::read_to_string(p).unwrap().replace("=\r\n", "").replace("=3D", "="))
        .find(|t| {
            t.contains(&format!("To: {email}")) && t.contains("Subject: Your SelfSound data is ready to download")
        })
        .expect("the archive's e-mail: the status says ready once it is sent");
    let start = text.find("/data-exports/").expect("a link");
    let start = text[..start].rfind("http").unwrap();
    text[start..].chars().take_while(|c| !c.is_whitespace() && *c != '"' && *c != '<').collect()
}

/// Every entry of a zip, by name.
fn unzip(bytes: &[u8]) -> HashMap<String, Vec<u8>> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut entry = zip.by_index(i).unwrap();
            let mut content = Vec::new();
            entry.read_to_end(&mut content).unwrap();
            (entry.name().to_owned(), content)
        })
        .collect()
}

fn json_of(entries: &HashMap<String, Vec<u8>>, name: &str) -> Value {
    serde_json::from_slice(entries.get(name).unwrap_or_else(|| panic!("no {name}"))).unwrap()
}

/// The stored original files of `author`'s posts, by post id: what the archive must hold.
fn stored_files(db: &TestDb, author: &str) -> HashMap<String, Vec<String>> {
    let author: i64 = author.parse().unwrap();
    let mut conn = db.get().unwrap();
    let ids: Vec<i64> = posts::table.filter(posts::user_id.eq(author)).select(posts::id).load(&mut *conn).unwrap();
    let mut files: HashMap<String, Vec<String>> = ids.iter().map(|id| (id.to_string(), Vec::new())).collect();
    let media: Vec<(i64, String)> = post_media::table
        .filter(post_media::post_id.eq_any(&ids))
        .select((post_media::post_id, post_media::file_key))
        .load(&mut *conn)
        .unwrap();
    let audio: Vec<(i64, String, Option<String>)> = post_audio::table
        .filter(post_audio::post_id.eq_any(&ids))
        .select((post_audio::post_id, post_audio::file_key, post_audio::cover_key))
        .load(&mut *conn)
        .unwrap();
    let scores: Vec<(i64, String)> = post_scores::table
        .filter(post_scores::post_id.eq_any(&ids))
        .select((post_scores::post_id, post_scores::file_key))
        .load(&mut *conn)
        .unwrap();
    let audio = audio.into_iter().flat_map(|(p, k, c)| std::iter::once((p, k)).chain(c.map(|c| (p, c))));
    for (post, key) in media.into_iter().chain(audio).chain(scores) {
        files.get_mut(&post.to_string()).unwrap().push(key);
    }
    files
}

async fn the_archive_holds_every_post_and_file_with_its_hash(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let (_, cy_id) = app.person("Cy", "cyd@example.com").await;
    assert_eq!(status(&app, &ana).await["state"], "none");

    // Everything Ana has: an avatar, posts of every kind, and her part of others'.
    assert_eq!(app.upload_avatar(Some(&ana), "avatar", "me.png", png(64, None)).await.status, StatusCode::OK);
    let pictures = app
        .post_form(
            "/posts/media",
            Some(&ana),
            &[
                Part::file("files", "one.png", png(40, Some("one"))),
                Part::file("files", "two.png", png(48, Some("two"))),
                Part::text("caption", "Two <b>pictures</b> & a song"),
            ],
        )
        .await;
    assert_eq!(pictures.status, StatusCode::CREATED, "{:?}", pictures.body);
    let song =
        app.post_form("/posts/audio", Some(&ana), &[Part::file("audio_files", "Song.wav", wav(1.0, 440.0, 0.5))]).await;
    assert_eq!(song.status, StatusCode::CREATED, "{:?}", song.body);
    let score = app
        .post_form(
            "/posts/musicxml",
            Some(&ana),
            &[Part::file("musicxml_files", "etude.musicxml", musicxml("Étude", "Ana"))],
        )
        .await;
    assert_eq!(score.status, StatusCode::CREATED, "{:?}", score.body);
    let words = app.lyrics_post(&ana, "Words").await;
    let bobs = app.lyrics_post(&bob, "Bob's song").await;
    let bobs_post = bobs["id"].as_str().unwrap();
    let comment =
        app.post(&format!("/posts/{bobs_post}/comments"), Some(&ana), json!({"content": "Lovely chorus"})).await;
    assert_eq!(comment.status, StatusCode::CREATED, "{:?}", comment.body);
    assert_eq!(app.post(&format!("/posts/{bobs_post}/like"), Some(&ana), json!({})).await.status, StatusCode::OK);
    assert_eq!(app.post(&format!("/posts/{bobs_post}/repost"), Some(&ana), json!({})).await.status, StatusCode::OK);
    let list = app.post("/playlists", Some(&ana), json!({"title": "Warm-up"})).await;
    let list_id = list.body["id"].as_str().unwrap();
    let item = app
        .post(&format!("/playlists/{list_id}/items"), Some(&ana), json!({"post_id": song.body["id"], "track": 0}))
        .await;
    assert!(item.status.is_success(), "{:?}", item.body);
    assert!(app.post(&format!("/profiles/listening/{bob_id}"), Some(&ana), json!({})).await.status.is_success());
    assert!(app.post(&format!("/profiles/listening/{ana_id}"), Some(&bob), json!({})).await.status.is_success());
    assert!(app.post(&format!("/profiles/blocks/{cy_id}"), Some(&ana), json!({})).await.status.is_success());
    let words_id = words["id"].as_str().unwrap();
    app.post(&format!("/posts/{words_id}/comments"), Some(&bob), json!({"content": "Sing it!"})).await;

    // Asked for: preparing, and not again today.
    let asked = app.post("/account/data-export", Some(&ana), json!({})).await;
    assert_eq!(asked.status, StatusCode::ACCEPTED, "{:?}", asked.body);
    assert_eq!(asked.body["state"], "preparing");
    let again = app.post("/account/data-export", Some(&ana), json!({})).await;
    assert_eq!(again.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(again.detail(), "You can ask for a copy of your data once a day. You can ask again in 24 hours.");
    let wait: u64 = again.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(wait > 23 * 3600 && wait <= 24 * 3600, "{wait}");
    assert_eq!(app.post("/account/data-export", None, json!({})).await.status, StatusCode::UNAUTHORIZED);

    let ready = until_ready(&app, &ana).await;
    let (asked_at, expires) = (ready["requested_at"].as_str().unwrap(), ready["expires_at"].as_str().unwrap());
    let days = chrono::DateTime::parse_from_rfc3339(expires).unwrap()
        - chrono::DateTime::parse_from_rfc3339(asked_at).unwrap();
    assert_eq!(days.num_days(), 7, "{ready}");
    let next = chrono::DateTime::parse_from_rfc3339(ready["next_request_at"].as_str().unwrap()).unwrap();
    assert_eq!((next - chrono::DateTime::parse_from_rfc3339(asked_at).unwrap()).num_hours(), 24, "one a day");

    // The link: the zip itself, private.
    let link = archive_link(&app, "ana@example.com");
    assert!(link.starts_with(&format!("{}/data-exports/", app.url)), "{link}");
    let res = app.client.get(&link).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/zip");
    assert_eq!(res.headers()["cache-control"], "private, no-store");
    let disposition = res.headers()["content-disposition"].to_str().unwrap().to_owned();
    assert!(
        disposition.starts_with("attachment; filename=\"selfsound-ana-") && disposition.ends_with(".zip\""),
        "{disposition}"
    );
    let bytes = res.bytes().await.unwrap();
    assert_eq!(ready["size_bytes"], json!(bytes.len()));
    let entries = unzip(&bytes);

    // Every post of hers, each stored file in it with its hash, the same bytes as stored.
    let stored = stored_files(&app.db, &ana_id);
    assert_eq!(stored.len(), 4);
    let listed = json_of(&entries, "posts.json");
    let listed = listed.as_array().unwrap();
    let ids: HashSet<&str> = listed.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids, stored.keys().map(String::as_str).collect::<HashSet<_>>());
    let mut checked = 0;
    for post in listed {
        let keys = &stored[post["id"].as_str().unwrap()];
        let files = post["files"].as_array().unwrap();
        assert_eq!(files.len(), keys.len(), "{post}");
        for key in keys {
            let original =
                app.client.get(format!("{}/media/{key}", app.url)).send().await.unwrap().bytes().await.unwrap();
            let name = key.rsplit('/').next().unwrap();
            let file = files.iter().find(|f| f["path"].as_str().unwrap().ends_with(name)).expect("the file listed");
            let path = file["path"].as_str().unwrap();
            assert_eq!(path, format!("files/posts/{}/{name}", post["id"].as_str().unwrap()));
            assert_eq!(file["sha256"], json!(sha256(&original)), "{path}");
            assert_eq!(file["bytes"], json!(original.len()));
            assert_eq!(sha256(&entries[path]), sha256(&original), "{path}: the zip holds the stored bytes");
            checked += 1;
        }
    }
    assert_eq!(checked, 4, "two pictures, a track and a score");
    let of_kind = |kind: &str| listed.iter().find(|p| p["kind"] == kind).unwrap().clone();
    assert_eq!(of_kind("media")["caption"], "Two <b>pictures</b> & a song");
    assert_eq!(of_kind("media")["media"][1]["type"], "image");
    assert_eq!(of_kind("musicxml")["scores"][0]["title"], "Étude");
    assert_eq!(of_kind("lyrics")["lyrics"]["title"], "Words");
    assert_eq!(of_kind("audio")["tracks"][0]["duration_ms"], json!(1000));

    // The rest of her data.
    let profile = json_of(&entries, "profile.json");
    assert_eq!((profile["name"].as_str(), profile["email"].as_str()), (Some("Ana"), Some("ana@example.com")));
    let avatar = profile["avatar"]["path"].as_str().unwrap();
    assert_eq!(sha256(&entries[avatar]), profile["avatar"]["sha256"].as_str().unwrap());
    let comments = json_of(&entries, "comments.json");
    assert_eq!(comments.as_array().unwrap().len(), 1);
    assert_eq!(
        (comments[0]["content"].as_str(), comments[0]["post_id"].as_str()),
        (Some("Lovely chorus"), Some(bobs_post))
    );
    assert_eq!(json_of(&entries, "likes.json")[0]["post_id"], bobs_post);
    assert_eq!(json_of(&entries, "reposts.json")[0]["post_id"], bobs_post);
    let playlists = json_of(&entries, "playlists.json");
    assert_eq!(
        (playlists[0]["title"].as_str(), playlists[0]["items"][0]["post_id"].clone()),
        (Some("Warm-up"), song.body["id"].clone())
    );
    let listens = json_of(&entries, "listens.json");
    assert_eq!(listens["listening_to"][0]["id"], bob_id.as_str());
    assert_eq!(listens["listeners"][0]["login"], "bob");
    assert_eq!(json_of(&entries, "blocks.json")[0]["id"], cy_id.as_str());
    let notes = json_of(&entries, "notifications.json");
    let kinds: HashSet<&str> = notes.as_array().unwrap().iter().map(|n| n["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, HashSet::from(["listening", "comment"]), "{notes}");
    let about = json_of(&entries, "archive.json");
    assert_eq!((about["format"].as_str(), about["version"].as_u64()), (Some("selfsound-data-export"), Some(1)));
    assert_eq!(about["counts"]["posts"], 4);
    assert_eq!(about["counts"]["files"], 5, "four of the posts and the avatar");

    // index.html: readable, her words shown as text, nothing that runs or reaches out.
    let index = String::from_utf8(entries["index.html"].clone()).unwrap();
    assert!(index.contains("Two &lt;b&gt;pictures&lt;/b&gt; &amp; a song"), "{index}");
    assert!(index.contains(&format!(
        "<audio controls preload=\"none\" src=\"files/posts/{}/",
        song.body["id"].as_str().unwrap()
    )));
    assert!(!index.contains("<script") && !index.contains("http"), "{index}");

    // A resumed download: byte ranges.
    let part = app.client.get(&link).header("range", "bytes=0-99").send().await.unwrap();
    assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(part.bytes().await.unwrap().len(), 100);

    // Never as media, whatever its key; a wrong link is a 404 that says what to do.
    let key: String = data_exports::table
        .select(data_exports::file_key.assume_not_null())
        .first(&mut *app.db.get().unwrap())
        .unwrap();
    assert!(key.starts_with("private/"), "{key}");
    assert_eq!(app.get(&format!("/media/{key}"), None).await.status, StatusCode::NOT_FOUND);
    let wrong = app.get("/data-exports/not-a-link", None).await;
    assert_eq!(wrong.status, StatusCode::NOT_FOUND);
    assert_eq!(
        wrong.detail(),
        "This download link has expired or is not valid. Ask for a new copy of your data in Settings."
    );
    // Only the link's hash is kept.
    let token = link.rsplit('/').next().unwrap();
    let hash: String = data_exports::table
        .select(data_exports::token_hash.assume_not_null())
        .first(&mut *app.db.get().unwrap())
        .unwrap();
    assert_eq!(hash, sha256(token.as_bytes()));

    // Seven days on, the link stops working and the archive goes (its job, due then).
    {
        let mut conn = app.db.get().unwrap();
        let past = chrono::Utc::now().naive_utc() - chrono::Duration::minutes(1);
        db::diesel::update(data_exports::table).set(data_exports::expires_at.eq(past)).execute(&mut *conn).unwrap();
        assert_eq!(app.client.get(&link).send().await.unwrap().status(), StatusCode::NOT_FOUND);
        db::diesel::update(jobs::table.filter(jobs::kind.eq("account.export.expiry")))
            .set(jobs::run_after.eq(past))
            .execute(&mut *conn)
            .unwrap();
    }
    let started = std::time::Instant::now();
    while status(&app, &ana).await["state"] != "none" {
        assert!(started.elapsed() < Duration::from_secs(30), "the archive did not go");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(!app.data_dir.path().join("media").join(&key).exists(), "its file went too");
}

/// A file storage lost before the archive was made does not stop it: the post is listed with
/// that file as missing, and the index says so.
async fn a_file_lost_from_storage_is_listed_as_missing(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let made = app.post_form("/posts/media", Some(&ana), &[Part::file("files", "one.png", png(40, None))]).await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    let key = stored_files(&app.db, &ana_id).into_values().flatten().next().unwrap();
    std::fs::remove_file(app.data_dir.path().join("media").join(&key)).unwrap();

    assert_eq!(app.post("/account/data-export", Some(&ana), json!({})).await.status, StatusCode::ACCEPTED);
    until_ready(&app, &ana).await;
    let link = archive_link(&app, "ana@example.com");
    let entries = unzip(&app.client.get(&link).send().await.unwrap().bytes().await.unwrap());
    let posts = json_of(&entries, "posts.json");
    assert_eq!(
        posts[0]["files"][0],
        json!({"role": "image", "position": 0, "path": null, "sha256": null, "bytes": null})
    );
    assert_eq!(json_of(&entries, "archive.json")["counts"]["files"], 0);
    let index = String::from_utf8(entries["index.html"].clone()).unwrap();
    assert!(index.contains("files were missing from storage"), "{index}");
}

/// An account deleted while its archive is kept takes the archive with it.
async fn an_archive_goes_with_its_account(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    app.lyrics_post(&ana, "Words").await;
    assert_eq!(app.post("/account/data-export", Some(&ana), json!({})).await.status, StatusCode::ACCEPTED);
    until_ready(&app, &ana).await;
    let key: String = data_exports::table
        .select(data_exports::file_key.assume_not_null())
        .first(&mut *app.db.get().unwrap())
        .unwrap();
    let file = app.data_dir.path().join("media").join(&key);
    assert!(file.exists(), "{}", file.display());
    let gone = app.call(reqwest::Method::DELETE, "/authorization/me", Some(&ana), None).await;
    assert_eq!(gone.status, StatusCode::OK);
    assert!(!file.exists(), "the archive went with the account");
    let rows: i64 = data_exports::table.count().get_result(&mut *app.db.get().unwrap()).unwrap();
    assert_eq!(rows, 0);
}

test_support::both_backends!(
    the_archive_holds_every_post_and_file_with_its_hash,
    a_file_lost_from_storage_is_listed_as_missing,
    an_archive_goes_with_its_account
);
