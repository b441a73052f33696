//! Notifications through the API: each kind written once by the call that causes it, the list
//! and read state of spec §7, and the live stream — in one process, and across two `selfsound`
//! processes sharing one PostgreSQL database.

use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;

use crate::common::{TestApp, lyrics_body, person_in, spawn_app, start_process};

async fn list(app: &TestApp, token: &str) -> Vec<Value> {
    let a = app.get("/notifications?limit=20&offset=0", Some(token)).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.body);
    a.body.as_array().unwrap().clone()
}

async fn unread(app: &TestApp, token: &str) -> i64 {
    app.get("/notifications/unread-count", Some(token)).await.body["unread"].as_i64().unwrap()
}

async fn every_kind_arrives_once_and_only_the_owner_reads_it(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let (cy, _) = app.person("Cy", "cyd@example.com").await;
    let post = app.lyrics_post(&ana, "Song").await["id"].as_str().unwrap().to_owned();

    // A like, taken back and given again: one notification.
    for _ in 0..3 {
        app.post(&format!("/posts/{post}/like"), Some(&bob), json!({})).await;
    }
    // A comment that mentions the author: the mention alone; cy is mentioned too.
    let c =
        app.post(&format!("/posts/{post}/comments"), Some(&bob), json!({"content": "@ana @cyd listen to this"})).await;
    assert_eq!(c.status, StatusCode::CREATED);
    // A plain comment, and a listen (twice).
    app.post(&format!("/posts/{post}/comments"), Some(&bob), json!({"content": "so good"})).await;
    for _ in 0..2 {
        app.post(&format!("/profiles/listening/{ana_id}"), Some(&bob), json!({})).await;
        app.call(Method::DELETE, &format!("/profiles/listening/{ana_id}"), Some(&bob), None).await;
    }
    app.post(&format!("/profiles/listening/{ana_id}"), Some(&bob), json!({})).await;
    // Her own actions tell her nothing.
    app.post(&format!("/posts/{post}/like"), Some(&ana), json!({})).await;
    app.post(&format!("/posts/{post}/comments"), Some(&ana), json!({"content": "thanks @ana"})).await;

    let anas = list(&app, &ana).await;
    let kinds: Vec<&str> = anas.iter().map(|n| n["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["listening", "comment", "mention", "other"], "newest first: {anas:#?}");
    let mention = &anas[2];
    assert_eq!(mention["sender_id"], bob_id.as_str());
    assert_eq!(mention["username"], "bob");
    assert_eq!(mention["sender_name"], "Bob");
    assert_eq!(mention["message"], "mentioned you in a comment: \u{201c}@ana @cyd listen to this\u{201d}");
    assert_eq!(mention["post_id"], post.as_str());
    assert_eq!(mention["read"], false);
    assert!(mention["avatar_url"].as_str().unwrap().starts_with("http"));
    assert!(mention["timestamp"].as_str().unwrap().ends_with('Z'));
    assert_eq!(anas[0]["post_id"], Value::Null);
    assert_eq!(anas[3]["message"], "liked your post");
    assert_eq!(list(&app, &cy).await.len(), 1);
    assert_eq!(unread(&app, &ana).await, 4);

    // Only the owner marks hers read; someone else's answers 404 like a missing one.
    let id = anas[2]["id"].as_str().unwrap();
    let path = format!("/notifications/{id}/read");
    assert_eq!(app.call(Method::PATCH, &path, Some(&cy), None).await.status, StatusCode::NOT_FOUND);
    assert_eq!(
        app.call(Method::PATCH, "/notifications/123/read", Some(&ana), None).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(app.call(Method::PATCH, &path, Some(&ana), None).await.status, StatusCode::NO_CONTENT);
    assert_eq!(list(&app, &ana).await[2]["read"], true);
    assert_eq!(unread(&app, &ana).await, 3);
    assert_eq!(app.post("/notifications/read-all", Some(&ana), json!({})).await.status, StatusCode::NO_CONTENT);
    assert_eq!(unread(&app, &ana).await, 0);
    assert_eq!(unread(&app, &cy).await, 1, "cy's stay unread");

    // Signed out: 401 everywhere.
    for (method, path) in [
        (Method::GET, "/notifications"),
        (Method::GET, "/notifications/unread-count"),
        (Method::GET, "/notifications/stream"),
        (Method::PATCH, path.as_str()),
        (Method::POST, "/notifications/read-all"),
    ] {
        assert_eq!(app.call(method, path, None, None).await.status, StatusCode::UNAUTHORIZED, "{path}");
    }

    // A block hides what came before it, and nothing new passes.
    app.post(&format!("/profiles/blocks/{bob_id}"), Some(&ana), json!({})).await;
    assert!(list(&app, &ana).await.is_empty());
    // Deleting the post takes its notifications with it (cy's mention).
    assert_eq!(
        app.call(Method::DELETE, &format!("/posts/{post}"), Some(&ana), None).await.status,
        StatusCode::NO_CONTENT
    );
    assert!(list(&app, &cy).await.is_empty());
}

async fn pages_of_twenty_newest_first(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    for i in 0..23 {
        let (t, _) = app.person(&format!("P{i}"), &format!("person{i}@example.com")).await;
        app.post(&format!("/profiles/listening/{ana_id}"), Some(&t), json!({})).await;
    }
    let first = list(&app, &ana).await;
    let rest = app.get("/notifications?limit=20&offset=20", Some(&ana)).await.body;
    assert_eq!((first.len(), rest.as_array().unwrap().len()), (20, 3));
    assert_eq!(first[0]["username"], "person22");
    assert_eq!(unread(&app, &ana).await, 23);
}

/// The next event of a Server-Sent Events stream: (event name, data), or `None` after `wait`.
/// Comment lines (keep-alives) are skipped.
pub(crate) async fn next_event(
    res: &mut reqwest::Response,
    buffer: &mut String,
    wait: Duration,
) -> Option<(String, String)> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        if let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let (mut event, mut data) = (String::from("message"), String::new());
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("event: ") {
                    event = v.to_owned();
                } else if let Some(v) = line.strip_prefix("data: ") {
                    data = v.to_owned();
                }
            }
            if block.lines().all(|l| l.starts_with(':') || l.starts_with("retry:")) {
                continue;
            }
            return Some((event, data));
        }
        let chunk = tokio::time::timeout_at(deadline, res.chunk()).await.ok()?.ok()??;
        buffer.push_str(std::str::from_utf8(&chunk).unwrap());
    }
}

pub(crate) async fn open_stream(url: &str, token: &str) -> reqwest::Response {
    let res =
        reqwest::Client::new().get(format!("{url}/notifications/stream")).bearer_auth(token).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "text/event-stream");
    assert_eq!(res.headers()["x-accel-buffering"], "no");
    res
}

async fn the_stream_tells_the_count_at_once_and_on_every_change(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let post = app.lyrics_post(&ana, "Song").await["id"].as_str().unwrap().to_owned();
    let mut stream = open_stream(&app.url, &ana).await;
    let mut buffer = String::new();
    let wait = Duration::from_secs(5);
    assert_eq!(next_event(&mut stream, &mut buffer, wait).await, Some(("unread".into(), r#"{"unread":0}"#.into())));

    app.post(&format!("/posts/{post}/comments"), Some(&bob), json!({"content": "hey @ana"})).await;
    assert_eq!(next_event(&mut stream, &mut buffer, wait).await, Some(("unread".into(), r#"{"unread":1}"#.into())));
    // Someone else's news is not hers.
    let bobs = app.lyrics_post(&bob, "Song").await;
    app.post(&format!("/posts/{}/like", bobs["id"].as_str().unwrap()), Some(&ana), json!({})).await;
    app.post("/notifications/read-all", Some(&ana), json!({})).await;
    assert_eq!(next_event(&mut stream, &mut buffer, wait).await, Some(("unread".into(), r#"{"unread":0}"#.into())));
}

test_support::both_backends!(
    every_kind_arrives_once_and_only_the_owner_reads_it,
    pages_of_twenty_newest_first,
    the_stream_tells_the_count_at_once_and_on_every_change,
);

/// Two processes behind one load balancer: a comment made through one reaches the stream held
/// open by the other, through PostgreSQL's NOTIFY.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_comment_through_one_process_reaches_a_stream_on_another() {
    let Some(db) = TestDb::postgres() else { return };
    let (one, two) = (start_process(&db.url, None).await, start_process(&db.url, None).await);
    let (ana, _) = person_in(&db, "Ana", "ana@example.com");
    let (bob, _) = person_in(&db, "Bob", "bob@example.com");
    let client = reqwest::Client::new();
    let post: Value = client
        .post(format!("{}/posts/lyrics", one.url))
        .bearer_auth(&ana)
        .json(&lyrics_body("Song"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut stream = open_stream(&two.url, &ana).await;
    let mut buffer = String::new();
    let first = next_event(&mut stream, &mut buffer, Duration::from_secs(5)).await;
    assert_eq!(first, Some(("unread".into(), r#"{"unread":0}"#.into())));
    // The second process's listening connection comes up beside its first requests.
    tokio::time::sleep(Duration::from_millis(500)).await;

    let sent = Instant::now();
    let comment = client
        .post(format!("{}/posts/{}/comments", one.url, post["id"].as_str().unwrap()))
        .bearer_auth(&bob)
        .json(&json!({"content": "great take"}))
        .send()
        .await
        .unwrap();
    assert_eq!(comment.status(), StatusCode::CREATED);
    let arrived = next_event(&mut stream, &mut buffer, Duration::from_secs(1)).await;
    let took = sent.elapsed();
    assert_eq!(arrived, Some(("unread".into(), r#"{"unread":1}"#.into())), "within a second");
    println!("a comment through one process reached the other's stream in {took:?}");
}
