//! Findings of the attacker's review outside accounts (issue 16, docs/security.md): text a
//! database cannot store, what passes between a block pair through a third person, and what a
//! refusal tells. On SQLite and on PostgreSQL.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;

use crate::common::{Part, TestApp, spawn_app, start_process};

/// Notifications of `token`'s person, newest first, as (type, sender login).
async fn notified(app: &TestApp, token: &str) -> Vec<(String, String)> {
    let list = app.get("/notifications?limit=50", Some(token)).await;
    assert_eq!(list.status, StatusCode::OK, "{:?}", list.body);
    list.body
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["type"].as_str().unwrap().to_owned(), n["username"].as_str().unwrap().to_owned()))
        .collect()
}

/// A NUL character in any text a person sends is a 400 with a detail, never a 500 (PostgreSQL
/// cannot store it), and nothing is written.
async fn a_nul_character_in_any_text_is_refused(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let post = app.lyrics_post(&ana, "Song").await;
    let id = post["id"].as_str().unwrap();
    let refused = |answer: crate::common::Answer, what: &str| {
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{what}: {:?}", answer.body);
        assert!(answer.detail().contains("NUL"), "{what}: {:?}", answer.body);
    };

    refused(app.post(&format!("/posts/{id}/comments"), Some(&bob), json!({"content": "hi\u{0}"})).await, "comment");
    let lyrics = json!({"songTitle": "T\u{0}", "artistName": "A", "parts": [{"type": "verse", "lyrics": "la"}]});
    refused(app.post("/posts/lyrics", Some(&ana), lyrics).await, "lyrics title");
    let verse = json!({"songTitle": "T", "artistName": "A", "parts": [{"type": "verse", "lyrics": "l\u{0}a"}]});
    refused(app.post("/posts/lyrics", Some(&ana), verse).await, "lyrics part");
    let caption =
        json!({"songTitle": "T", "artistName": "A", "parts": [{"type": "verse", "lyrics": "la"}], "caption": "\u{0}"});
    refused(app.post("/posts/lyrics", Some(&ana), caption).await, "caption");
    let wav = test_support::media::wav(0.5, 440.0, 0.5);
    let audio = [Part::file("audio_files", "take.wav", wav), Part::text("titles", "Take\u{0}one")];
    refused(app.post_form("/posts/audio", Some(&ana), &audio).await, "audio title");
    let report = json!({"post_id": id, "reason": "Other", "description": "bad\u{0}"});
    refused(app.post("/reports/post", Some(&bob), report).await, "report description");
    refused(app.get("/profiles/search?query=ana%00x", None).await, "search");
    refused(app.get("/profiles/search?query=a%00", None).await, "short search");
    refused(app.get("/posts/users/search?q=an%00a&limit=10", Some(&bob)).await, "mention search");

    assert_eq!(app.get(&format!("/posts/{id}/comments"), None).await.body, json!([]));
    assert_eq!(app.get("/posts/feed", None).await.body.as_array().unwrap().len(), 1, "only the first post");
}

/// Every text written for others to read follows the rule names follow for control and
/// text-direction characters: BEL, ESC and U+202E (which turns "txt.exe" into "exe.txt") are a
/// 400 in a caption, a comment, lyrics, a title, a biography, a report and a suspension's
/// reason, and nothing is written; line breaks, tabs and right-to-left writing stay welcome.
async fn control_and_direction_characters_are_refused_in_every_text(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let (rita, _) = app.person("Rita", "rita@example.com").await;
    crate::common::make_admin(&app.db, "rita@example.com");
    let post = app.lyrics_post(&ana, "Song").await;
    let id = post["id"].as_str().unwrap();
    for bad in ["ring\u{7}", "\u{1b}[31mred", "txt\u{202e}exe", "a\u{2066}b"] {
        let refused = |answer: crate::common::Answer, what: &str| {
            assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{what} {bad:?}: {:?}", answer.body);
            assert!(answer.detail().contains("control or text-direction characters"), "{what}: {:?}", answer.body);
        };
        refused(app.post(&format!("/posts/{id}/comments"), Some(&bob), json!({"content": bad})).await, "comment");
        let lyrics = |title: &str, verse: &str, caption: &str| json!({"songTitle": title, "artistName": "A", "parts": [{"type": "verse", "lyrics": verse}], "caption": caption});
        refused(app.post("/posts/lyrics", Some(&ana), lyrics(bad, "la", "c")).await, "lyrics title");
        refused(app.post("/posts/lyrics", Some(&ana), lyrics("T", bad, "c")).await, "lyrics part");
        refused(app.post("/posts/lyrics", Some(&ana), lyrics("T", "la", bad)).await, "caption");
        let edit = app.call(Method::PATCH, &format!("/posts/{id}"), Some(&ana), Some(json!({"caption": bad}))).await;
        refused(edit, "edited caption");
        let wav = test_support::media::wav(0.5, 440.0, 0.5);
        let audio = [Part::file("audio_files", "take.wav", wav), Part::text("titles", bad)];
        refused(app.post_form("/posts/audio", Some(&ana), &audio).await, "audio title");
        let bio = app.call(Method::PATCH, "/profile/me", Some(&ana), Some(json!({"description": bad}))).await;
        assert_eq!(bio.status, StatusCode::BAD_REQUEST, "biography {bad:?}: {:?}", bio.body);
        let report = json!({"post_id": id, "reason": "Other", "description": bad});
        refused(app.post("/reports/post", Some(&bob), report).await, "report description");
        let suspend = json!({"reason": bad});
        refused(app.post(&format!("/admin/users/{bob_id}/suspend"), Some(&rita), suspend).await, "suspension reason");
    }
    assert_eq!(app.get(&format!("/posts/{id}/comments"), None).await.body, json!([]));
    assert_eq!(app.get("/posts/feed", None).await.body.as_array().unwrap().len(), 1, "only the first post");

    // Line breaks, tabs and right-to-left writing are text like any other.
    let fine = "first line\n\tsecond line — שלום، مرحبا";
    let said = app.post(&format!("/posts/{id}/comments"), Some(&bob), json!({"content": fine})).await;
    assert_eq!(said.status, StatusCode::CREATED, "{:?}", said.body);
    let song =
        json!({"songTitle": "שיר", "artistName": "A", "parts": [{"type": "verse", "lyrics": fine}], "caption": fine});
    assert_eq!(app.post("/posts/lyrics", Some(&ana), song).await.status, StatusCode::CREATED);
}

/// A mention of someone in a block pair with the post's author does not tell them: nothing
/// passes between a block pair through a third person. The comment still links them.
async fn a_mention_does_not_reach_across_a_block_with_the_post_author(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let (cyd, _) = app.person("Cyd", "cyd@example.com").await;
    let (dee, _) = app.person("Dee", "dee@example.com").await;
    app.call(Method::POST, &format!("/profiles/blocks/{bob_id}"), Some(&ana), None).await;
    let post = app.lyrics_post(&ana, "Song").await;
    let made = app
        .post(
            &format!("/posts/{}/comments", post["id"].as_str().unwrap()),
            Some(&cyd),
            json!({"content": "@bob @dee listen"}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    let linked: Vec<&str> =
        made.body["comment"]["mentions"].as_array().unwrap().iter().map(|m| m["login"].as_str().unwrap()).collect();
    assert_eq!(linked, vec!["bob", "dee"]);
    assert!(notified(&app, &bob).await.is_empty(), "Bob blocked by the post's author hears nothing of it");
    assert_eq!(notified(&app, &dee).await, vec![("mention".to_owned(), "cyd".to_owned())]);
}

/// A comment tells at most ten of the people it mentions: the first ten it names.
async fn a_comment_tells_at_most_ten_mentioned_people(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let mut people = Vec::new();
    for i in 0..12 {
        let (token, _) = app.person(&format!("P{i}"), &format!("person{i:02}@example.com")).await;
        people.push(token);
    }
    let post = app.lyrics_post(&ana, "Song").await;
    // Named from the last to the first: the first ten named are person11 .. person02.
    let text: Vec<String> = (0..12).rev().map(|i| format!("@person{i:02}")).collect();
    let made = app
        .post(
            &format!("/posts/{}/comments", post["id"].as_str().unwrap()),
            Some(&ana),
            json!({"content": text.join(" ")}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    assert_eq!(made.body["comment"]["mentions"].as_array().unwrap().len(), 12, "all are linked");
    let told: Vec<bool> = who_was_told(&app, &people).await;
    assert_eq!(told, [vec![false, false], vec![true; 10]].concat());
}

async fn who_was_told(app: &TestApp, tokens: &[String]) -> Vec<bool> {
    let mut told = Vec::new();
    for t in tokens {
        told.push(!notified(app, t).await.is_empty());
    }
    told
}

/// A post hidden by a block is not found on every call, deleting included: the answer does not
/// tell that it exists.
async fn a_post_hidden_by_a_block_is_not_found_on_every_call(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let (cyd, _) = app.person("Cyd", "cyd@example.com").await;
    let post = app.lyrics_post(&ana, "Song").await;
    let path = format!("/posts/{}", post["id"].as_str().unwrap());
    assert_eq!(app.call(Method::DELETE, &path, Some(&cyd), None).await.status, StatusCode::FORBIDDEN, "someone else's");
    app.call(Method::POST, &format!("/profiles/blocks/{bob_id}"), Some(&ana), None).await;
    let report = json!({"post_id": post["id"], "reason": "Spam", "description": Value::Null});
    for (what, answer) in [
        ("page", app.get(&path, Some(&bob)).await),
        ("delete", app.call(Method::DELETE, &path, Some(&bob), None).await),
        ("like", app.call(Method::POST, &format!("{path}/like"), Some(&bob), None).await),
        ("comments", app.get(&format!("{path}/comments"), Some(&bob)).await),
        ("comment", app.post(&format!("{path}/comments"), Some(&bob), json!({"content": "hi"})).await),
        ("report", app.post("/reports/post", Some(&bob), report.clone()).await),
    ] {
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{what}: {:?}", answer.body);
    }
}

/// People's media may be cached for a day at most: what they delete must not live on in shared
/// caches for a year.
async fn media_are_cached_for_a_day_at_most(db: TestDb) {
    let app = spawn_app(db).await;
    let (ada, _) = app.person("Ada", "ada@example.com").await;
    let res = app.upload_avatar(Some(&ada), "avatar", "me.png", test_support::media::png(8, None)).await;
    assert_eq!(res.status, reqwest::StatusCode::OK, "{:?}", res.body);
    let served = app.client.get(res.body["avatar_url"].as_str().unwrap()).send().await.unwrap();
    let cache = served.headers()["cache-control"].to_str().unwrap().to_owned();
    assert!(!cache.contains("immutable"), "{cache}");
    let max_age: u64 =
        cache.split(',').find_map(|d| d.trim().strip_prefix("max-age=")).and_then(|v| v.parse().ok()).unwrap();
    assert!(max_age <= 86_400, "{cache}");
}

/// Refused requests are not logged a line each at the default level: a flood of them cannot
/// fill the disk (each 4xx was a 530-byte WARN line).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_refused_requests_leaves_the_log_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("selfsound.log");
    let server = start_process(&dir.path().join("db.sqlite3").display().to_string(), Some(&log)).await;
    let before = std::fs::metadata(&log).unwrap().len();
    let client = reqwest::Client::new();
    for i in 0..100 {
        let missing = client.get(format!("{}/posts/{i}", server.url)).send().await.unwrap();
        assert_eq!(missing.status(), StatusCode::NOT_FOUND);
        let anonymous = client.get(format!("{}/notifications", server.url)).send().await.unwrap();
        assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
        let malformed =
            client.post(format!("{}/authorization/logindefault", server.url)).body("{").send().await.unwrap();
        assert!(malformed.status().is_client_error());
    }
    drop(server);
    let written = std::fs::read_to_string(&log).unwrap();
    let grown = written.len() as u64 - before;
    assert!(grown < 1024, "300 refusals wrote {grown} bytes of log:\n{}", &written[before as usize..]);
}

/// Successful reads are sampled at the default level: one client reading feeds as fast as it
/// can wrote ~240 bytes a request (7.5 MB/s); now one read in a hundred, every write and every
/// slow read get a line, each with its request id.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn successful_reads_are_sampled_in_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("selfsound.log");
    let server = start_process(&dir.path().join("db.sqlite3").display().to_string(), Some(&log)).await;
    let client = reqwest::Client::new();
    let sign_up = json!({"name": "Ana", "email": "ana@example.com", "password": crate::common::PASSWORD});
    let written = client.post(format!("{}/authorization/signup", server.url)).json(&sign_up).send().await.unwrap();
    assert!(written.status().is_success());
    let write_id = written.headers()["x-request-id"].to_str().unwrap().to_owned();
    let before = std::fs::metadata(&log).unwrap().len();
    for _ in 0..300 {
        let read = client.get(format!("{}/posts/feed?limit=10", server.url)).send().await.unwrap();
        assert_eq!(read.status(), StatusCode::OK);
    }
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    drop(server);
    let text = std::fs::read_to_string(&log).unwrap();
    let reads: Vec<&str> = text[before as usize..].lines().filter(|l| l.contains("/posts/feed")).collect();
    assert!((2..=4).contains(&reads.len()), "300 reads wrote {} lines:\n{}", reads.len(), reads.join("\n"));
    assert!(reads.iter().all(|l| l.contains("sampled=100") && l.contains("request_id=")), "{reads:?}");
    assert!(text.contains(&write_id), "the write's line, with its id:\n{text}");
}

/// A multipart body of many empty parts is refused after at most 128 parts, whatever its
/// length (1.5 GB of empty parts was accepted after 16 s of CPU), and the parts' framing counts
/// against the body's limit.
async fn a_body_of_empty_parts_is_refused(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let parts: Vec<Part> = (0..500).map(|_| Part::text("ignored", "")).collect();
    let answer = app.post_form("/posts/media", Some(&ana), &parts).await;
    assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE, "{:?}", answer.body);
    assert_eq!(answer.detail(), "Too many form fields");
}

/// An upload must keep an average of 10 KiB/s once the request timeout has passed: trickling a
/// few bytes at a time to hold a connection is cut off with a 4xx.
async fn an_upload_trickling_below_the_minimum_rate_is_cut_off(db: TestDb) {
    use std::io::{Read, Write};
    let options = crate::common::Options {
        env: vec![("SELFSOUND_REQUEST_TIMEOUT_SECS".to_owned(), "1".to_owned())],
        ..crate::common::Options::default()
    };
    let app = crate::common::spawn_app_with(db, options).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let addr = app.url.trim_start_matches("http://").to_owned();
    let answer = tokio::task::spawn_blocking(move || {
        let mut tcp = std::net::TcpStream::connect(&addr).unwrap();
        tcp.set_read_timeout(Some(std::time::Duration::from_secs(20))).unwrap();
        let head = format!(
            "POST /posts/media HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ana}\r\n\
             Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 10000000\r\n\r\n\
             --b\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.png\"\r\n\r\n"
        );
        tcp.write_all(head.as_bytes()).unwrap();
        let started = std::time::Instant::now();
        // 100 bytes every 0.2 s: 0.5 KiB/s, under a second between chunks, never a stall.
        while started.elapsed() < std::time::Duration::from_secs(6) {
            if tcp.write_all(&[0u8; 100]).is_err() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
        let mut answer = String::new();
        let _ = tcp.read_to_string(&mut answer);
        answer
    })
    .await
    .unwrap();
    let status: u16 = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    assert!((400..500).contains(&status), "{answer}");
    assert!(answer.contains("too slowly"), "{answer}");
}

test_support::both_backends!(
    a_body_of_empty_parts_is_refused,
    an_upload_trickling_below_the_minimum_rate_is_cut_off,
    media_are_cached_for_a_day_at_most,
    a_nul_character_in_any_text_is_refused,
    control_and_direction_characters_are_refused_in_every_text,
    a_mention_does_not_reach_across_a_block_with_the_post_author,
    a_comment_tells_at_most_ten_mentioned_people,
    a_post_hidden_by_a_block_is_not_found_on_every_call,
);
