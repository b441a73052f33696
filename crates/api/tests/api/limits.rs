//! Limits on every write (issue 16, docs/security.md "Limits"): each limited call, past a
//! small configured limit, answers 429 with `Retry-After` and a detail, per account and per
//! client address, and another account or client goes on unaffected; and uploads in flight.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::{Answer, Options, Part, TestApp, lyrics_body, multipart, spawn_app_with};

/// Every call: 2 per account and 4 per client address an hour. The tests are the proxy in
/// front of the server, so they choose the client address.
const SMALL: &str = "post=2:4/1h,comment=2:4/1h,like=2:4/1h,listen=2:4/1h,block=2:4/1h,report=2:4/1h,\
                     search=2:4/1h,music_search=2:4/1h,profile=2:4/1h,suspend=2:4/1h,edit=2:4/1h,play=2:4/1h,\
                     repost=2:4/1h,playlist=2:4/1h,discover=2:4/1h,playlist_read=2:4/1h";

async fn small_limits(db: TestDb) -> TestApp {
    let env = [("SELFSOUND_TRUSTED_PROXIES", "127.0.0.1/32"), ("SELFSOUND_WRITE_LIMITS", SMALL)];
    spawn_app_with(
        db,
        Options { env: env.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect(), ..Default::default() },
    )
    .await
}

/// One limited call: how to make it (fresh each time where the call needs a fresh target).
struct Call {
    method: Method,
    path: String,
    body: Option<Value>,
}

impl TestApp {
    async fn call_from(&self, call: &Call, token: Option<&str>, client: &str) -> Answer {
        let mut req = self
            .client
            .request(call.method.clone(), format!("{}{}", self.url, call.path))
            .header("x-forwarded-for", client);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = &call.body {
            req = req.json(b);
        }
        self.raw(req).await
    }
}

fn refused(a: &Answer) -> bool {
    a.status == StatusCode::TOO_MANY_REQUESTS
}

/// A refusal as the issue asks: 429, `Retry-After` of at least a second, a detail that says so.
fn assert_limited(a: &Answer, what: &str) {
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{what}: {:?}", a.body);
    let wait: u64 =
        a.headers.get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok()).unwrap_or(0);
    assert!((1..=3600).contains(&wait), "{what}: Retry-After {wait}");
    assert!(a.detail().starts_with("Too many ") && a.detail().contains("try again in"), "{what}: {}", a.detail());
}

/// For each limited call: a burst by one account from one client is refused past the
/// account's limit; another account from that client goes on until the client's limit; then an
/// account from another client is unaffected.
async fn every_limited_call_stops_a_burst_of_one_account_and_one_client(db: TestDb) {
    let app = small_limits(db).await;
    let (owner, owner_id) = app.person("Owner", "owner@example.com").await;
    // Made by the server's owner account from its own client, counted apart from the bursts.
    let mut posts = Vec::new();
    for i in 0..2 {
        let p = app
            .call_from(
                &Call { method: Method::POST, path: "/posts/lyrics".into(), body: Some(lyrics_body(&format!("s{i}"))) },
                Some(&owner),
                "10.9.9.9",
            )
            .await;
        assert_eq!(p.status, StatusCode::CREATED, "{:?}", p.body);
        posts.push(p.body["id"].as_str().unwrap().to_owned());
    }
    let post = posts[0].clone();
    let calls: Vec<(&str, Call)> = vec![
        ("post", Call { method: Method::POST, path: "/posts/lyrics".into(), body: Some(lyrics_body("x")) }),
        (
            "comment",
            Call {
                method: Method::POST,
                path: format!("/posts/{post}/comments"),
                body: Some(json!({"content": "nice"})),
            },
        ),
        ("like", Call { method: Method::POST, path: format!("/posts/{post}/like"), body: None }),
        ("listen", Call { method: Method::POST, path: format!("/profiles/listening/{owner_id}"), body: None }),
        ("unlisten", Call { method: Method::DELETE, path: format!("/profiles/listening/{owner_id}"), body: None }),
        ("block", Call { method: Method::POST, path: format!("/profiles/blocks/{owner_id}"), body: None }),
        ("unblock", Call { method: Method::DELETE, path: format!("/profiles/blocks/{owner_id}"), body: None }),
        (
            "report",
            Call {
                method: Method::POST,
                path: "/reports/post".into(),
                body: Some(json!({"post_id": posts[1], "reason": "Spam"})),
            },
        ),
        ("search", Call { method: Method::GET, path: "/posts/users/search?q=own".into(), body: None }),
        ("music_search", Call { method: Method::GET, path: "/posts/search?q=song".into(), body: None }),
        ("discover", Call { method: Method::GET, path: "/discover".into(), body: None }),
        // Counted before the playlist is looked for: a missing one counts too.
        ("playlist_read", Call { method: Method::GET, path: "/playlists/12345".into(), body: None }),
        (
            "profile",
            Call { method: Method::PATCH, path: "/profile/me".into(), body: Some(json!({"description": "hi"})) },
        ),
        // Counted before the author check, as every limited call is.
        ("edit", Call { method: Method::PATCH, path: format!("/posts/{post}"), body: Some(json!({"caption": "x"})) }),
        // Counted before the post is read: a play of a lyrics post is refused, and counts.
        ("play", Call { method: Method::POST, path: format!("/posts/{post}/plays"), body: Some(json!({"track": 0})) }),
        // Every write to playlists counts, refused ones too (no title here).
        ("playlist", Call { method: Method::POST, path: "/playlists".into(), body: Some(json!({"title": " "})) }),
        // Each toggle counts: a repost and its undo are two.
        ("repost", Call { method: Method::POST, path: format!("/posts/{post}/repost"), body: None }),
        // Counted before the admin check: a stolen session cannot probe it unlimited either.
        (
            "suspend",
            Call {
                method: Method::POST,
                path: format!("/admin/users/{owner_id}/suspend"),
                body: Some(json!({"reason": "spam"})),
            },
        ),
    ];
    for (n, (what, call)) in calls.iter().enumerate() {
        // Fresh people and addresses for each call, so only its own counters are in play
        // (unlisten shares listen's counters, unblock block's: each gets its own people too).
        let (a, _) = app.person("Ann", &format!("ann{n}@example.com")).await;
        let (b, _) = app.person("Bob", &format!("bob{n}@example.com")).await;
        let (c, _) = app.person("Cat", &format!("cat{n}@example.com")).await;
        let (x, y) = (format!("10.1.{n}.1"), format!("10.2.{n}.1"));
        for i in 0..2 {
            let ok = app.call_from(call, Some(&a), &x).await;
            assert!(!refused(&ok) && !ok.status.is_server_error(), "{what} #{i}: {} {:?}", ok.status, ok.body);
        }
        assert_limited(&app.call_from(call, Some(&a), &x).await, &format!("{what}: a third by one account"));
        let other_account = app.call_from(call, Some(&b), &x).await;
        assert!(!refused(&other_account), "{what}: another account from the same client goes on");
        assert_limited(&app.call_from(call, Some(&b), &x).await, &format!("{what}: the client's fifth"));
        let other_client = app.call_from(call, Some(&c), &y).await;
        assert!(!refused(&other_client), "{what}: another client is unaffected: {:?}", other_client.body);
    }
}

/// The four kinds of post share one limit, uploads included; a profile edit and an avatar
/// share theirs; a signed-out mention search counts per client.
async fn post_kinds_share_a_limit_and_signed_out_searches_count_per_client(db: TestDb) {
    let app = small_limits(db).await;
    let (a, _) = app.person("Ann", "ann@example.com").await;
    let lyrics = Call { method: Method::POST, path: "/posts/lyrics".into(), body: Some(lyrics_body("x")) };
    for _ in 0..2 {
        assert_eq!(app.call_from(&lyrics, Some(&a), "10.3.0.1").await.status, StatusCode::CREATED);
    }
    let (content_type, body) = multipart(&[Part::file("files", "a.png", crate::common::png_with_location(4))]);
    for path in ["/posts/audio", "/posts/media", "/posts/musicxml"] {
        let req = app
            .client
            .post(format!("{}{path}", app.url))
            .header("x-forwarded-for", "10.3.0.1")
            .header("content-type", &content_type)
            .bearer_auth(&a)
            .body(body.clone());
        assert_limited(&app.raw(req).await, path);
    }
    let edit = Call { method: Method::PATCH, path: "/profile/me".into(), body: Some(json!({"description": "hi"})) };
    for _ in 0..2 {
        assert_eq!(app.call_from(&edit, Some(&a), "10.3.0.1").await.status, StatusCode::OK);
    }
    let req = app
        .client
        .patch(format!("{}/profile/me/avatar", app.url))
        .header("x-forwarded-for", "10.3.0.1")
        .header("content-type", &content_type)
        .bearer_auth(&a)
        .body(body.clone());
    assert_limited(&app.raw(req).await, "an avatar after two edits");
    let search = Call { method: Method::GET, path: "/posts/users/search?q=ann".into(), body: None };
    for _ in 0..4 {
        assert_eq!(app.call_from(&search, None, "10.4.0.1").await.status, StatusCode::OK);
    }
    assert_limited(&app.call_from(&search, None, "10.4.0.1").await, "a fifth signed-out search from one client");
    assert_eq!(app.call_from(&search, None, "10.4.0.2").await.status, StatusCode::OK, "another client");
}

/// The defaults leave a person at a human pace alone: a feed's worth of likes, a conversation's
/// comments, a few posts, a mention search and a music search per keystroke.
async fn a_person_at_a_human_pace_never_meets_a_limit(db: TestDb) {
    let app = spawn_app_with(db, Options::default()).await;
    let (me, _) = app.person("Me", "me@example.com").await;
    let (friend, _) = app.person("Friend", "friend@example.com").await;
    let mut posts = Vec::new();
    for i in 0..5 {
        posts.push(app.lyrics_post(&friend, &format!("song {i}")).await["id"].as_str().unwrap().to_owned());
    }
    app.lyrics_post(&me, "mine").await;
    for p in &posts {
        for _ in 0..5 {
            let liked = app.post(&format!("/posts/{p}/like"), Some(&me), json!({})).await;
            assert_eq!(liked.status, StatusCode::OK);
        }
        for i in 0..4 {
            let said =
                app.post(&format!("/posts/{p}/comments"), Some(&me), json!({"content": format!("line {i}")})).await;
            assert_eq!(said.status, StatusCode::CREATED);
        }
    }
    for q in ["f", "fr", "fri", "frie", "frien", "friend"] {
        assert_eq!(app.get(&format!("/posts/users/search?q={q}"), Some(&me)).await.status, StatusCode::OK);
    }
    // Finding music as one types, a pause at every letter, and a few more pages of it.
    let query = "moonlight sonata";
    for end in 1..=query.len() {
        let found = app.get(&format!("/posts/search?q={}", &query[..end]), Some(&me)).await;
        assert_eq!(found.status, StatusCode::OK);
    }
    for _ in 0..10 {
        assert_eq!(app.get("/posts/search?q=song&limit=1", Some(&me)).await.status, StatusCode::OK);
    }
    // Discover looked at now and then, a playlist opened again and again while listening.
    let list = app.post("/playlists", Some(&me), json!({"title": "Mine", "public": true})).await;
    assert_eq!(list.status, StatusCode::CREATED, "{:?}", list.body);
    let list = list.body["id"].as_str().unwrap().to_owned();
    for _ in 0..20 {
        assert_eq!(app.get("/discover", Some(&me)).await.status, StatusCode::OK);
        assert_eq!(app.get(&format!("/playlists/{list}"), Some(&me)).await.status, StatusCode::OK);
    }
}

/// Opens `POST /posts/audio` by `token` whose body is announced but sent only in part (the
/// first part's headers and a few bytes), so the server reads it, and holds its slot, until
/// the connection closes. With `body: false`, only the head is sent.
async fn open_upload(app: &TestApp, token: &str, body: bool) -> TcpStream {
    let addr = app.url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /posts/audio HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: multipart/form-data; boundary=held\r\nContent-Length: 10000000\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    if body {
        let part = "--held\r\nContent-Disposition: form-data; name=\"audio_files\"; filename=\"a.mp3\"\r\n\r\nID3";
        stream.write_all(part.as_bytes()).await.unwrap();
    }
    stream
}

/// The head of the answer on `stream`, which must come within five seconds.
async fn answer_head(stream: &mut TcpStream) -> String {
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    tokio::time::timeout(Duration::from_secs(5), async {
        while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = stream.read(&mut buf).await.unwrap();
            assert!(n > 0, "the connection closed without an answer");
            seen.extend_from_slice(&buf[..n]);
        }
    })
    .await
    .expect("an answer at once, before the body");
    String::from_utf8_lossy(&seen).into_owned()
}

/// Waits until `check` holds, for up to five seconds.
async fn eventually<F: std::future::Future<Output = bool>>(mut check: impl FnMut() -> F) -> bool {
    for _ in 0..50 {
        if check().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

/// Three requests once held 628 MB of temporary files: an account has at most two uploads in
/// flight, the process a bound (here 3); one beyond is refused with 429 before its body is
/// sent, while another account's upload goes through; a finished upload frees its slot.
async fn uploads_in_flight_are_two_an_account_and_bounded_in_all(db: TestDb) {
    let env = [("SELFSOUND_UPLOADS_IN_FLIGHT", "3")];
    let app = spawn_app_with(
        db,
        Options { env: env.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect(), ..Default::default() },
    )
    .await;
    let (a, _) = app.person("Ann", "ann@example.com").await;
    let (b, _) = app.person("Bob", "bob@example.com").await;
    let (c, _) = app.person("Cat", "cat@example.com").await;
    let mut held = vec![open_upload(&app, &a, true).await, open_upload(&app, &a, true).await];
    let avatar = || crate::common::png_with_location(64);
    // Once both hold their slots, a third of Ann's is refused on its head alone.
    // Time for both to reach their handlers: a body-less third that found a slot free would
    // hang (and fail the test) instead of answering.
    tokio::time::sleep(Duration::from_millis(700)).await;
    let mut head = String::new();
    for _ in 0..50 {
        head = answer_head(&mut open_upload(&app, &a, false).await).await;
        if head.starts_with("HTTP/1.1 429") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(head.starts_with("HTTP/1.1 429"), "{head}");
    let head = head.to_ascii_lowercase();
    assert!(head.contains("retry-after:"), "{head}");
    assert_eq!(
        app.upload_avatar(Some(&b), "avatar", "me.png", avatar()).await.status,
        StatusCode::OK,
        "another account"
    );
    // Bob holds the process's last slot (nothing else is in flight while he takes it): Cat is
    // refused, the server being busy.
    held.push(open_upload(&app, &b, true).await);
    tokio::time::sleep(Duration::from_millis(700)).await;
    let busy = app.upload_avatar(Some(&c), "avatar", "me.png", avatar()).await;
    assert_eq!(busy.status, StatusCode::TOO_MANY_REQUESTS, "{:?}", busy.body);
    assert!(busy.detail().contains("busy") && busy.headers.contains_key("retry-after"), "{}", busy.detail());
    drop(held);
    assert!(
        eventually(|| async {
            app.upload_avatar(Some(&a), "avatar", "me.png", avatar()).await.status == StatusCode::OK
        })
        .await,
        "closed uploads free their slots"
    );
    assert_eq!(app.upload_avatar(Some(&c), "avatar", "me.png", avatar()).await.status, StatusCode::OK);
}

/// Behind a trusted proxy, the client is counted by its IPv4 address or the /64 of its IPv6 one
/// (one subscriber has a whole /64), an IPv4 address written as IPv6 is that address, and a hop
/// the proxy wrote with its port is the address.
async fn clients_are_counted_by_address_and_ipv6_by_its_64(db: TestDb) {
    let app = small_limits(db).await;
    let search = Call { method: Method::GET, path: "/posts/users/search?q=an".into(), body: None };
    for (burst, beyond, apart) in [
        (
            ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:aaaa::3", "[2001:db8:1:2::4]:443"],
            "2001:db8:1:2:ffff:ffff:ffff:ffff",
            "2001:db8:1:3::1",
        ),
        (["10.4.0.1", "::ffff:10.4.0.1", "10.4.0.1:5555", "[::ffff:10.4.0.1]:80"], "10.4.0.1", "10.4.0.2"),
    ] {
        for client in burst {
            let a = app.call_from(&search, None, client).await;
            assert_eq!(a.status, StatusCode::OK, "{client}: {:?}", a.body);
        }
        assert_limited(&app.call_from(&search, None, beyond).await, beyond);
        assert_eq!(app.call_from(&search, None, apart).await.status, StatusCode::OK, "{apart} is another client");
    }
}

test_support::both_backends!(
    every_limited_call_stops_a_burst_of_one_account_and_one_client,
    post_kinds_share_a_limit_and_signed_out_searches_count_per_client,
    a_person_at_a_human_pace_never_meets_a_limit,
    uploads_in_flight_are_two_an_account_and_bounded_in_all,
    clients_are_counted_by_address_and_ipv6_by_its_64
);
