//! Discover (issue 31; docs/posts.md, "Discover"): trending this week by weighted, decaying
//! activity (one person once per post), new and rising by early engagement, the week's tags,
//! and people the people one listens to listen to; nothing the viewer may not see.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;
use test_support::media::wav;

use crate::common::{Options, Part, TestApp, make_admin, spawn_app_with};

/// A server whose Discover is found afresh for every request.
async fn fresh(db: TestDb) -> TestApp {
    let env = vec![("SELFSOUND_DISCOVER_EVERY".to_owned(), "0".to_owned())];
    spawn_app_with(db, Options { env, ..Default::default() }).await
}

fn titles(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|p| p["lyrics"]["title"].as_str().or_else(|| p["audio"][0]["title"].as_str()).unwrap_or("?").to_owned())
        .collect()
}

async fn discover(app: &TestApp, token: Option<&str>) -> Value {
    let got = app.get("/discover", token).await;
    assert_eq!(got.status, StatusCode::OK, "{:?}", got.body);
    got.body
}

async fn song(app: &TestApp, token: &str, title: &str, caption: &str) -> String {
    let body = json!({"songTitle": title, "artistName": "Band", "caption": caption, "parts": [{"type": "verse", "lyrics": "la"}]});
    let made = app.post("/posts/lyrics", Some(token), body).await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    made.body["id"].as_str().unwrap().to_owned()
}

async fn discover_shows_what_people_do_now_and_nothing_hidden(db: TestDb) {
    let app = fresh(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let (cy, cy_id) = app.person("Cy", "cyd@example.com").await;
    let (dan, dan_id) = app.person("Dan", "dan@example.com").await;
    let (me, me_id) = app.person("Me", "me@example.com").await;
    let quiet = song(&app, &ana, "Quiet", "nothing yet").await;
    let liked = song(&app, &ana, "Liked", "a #jazz tune").await;
    let talked = song(&app, &ana, "Talked", "more #Jazz and #blues").await;
    let track = app
        .post_form("/posts/audio", Some(&dan), &[Part::file("audio_files", "Played.wav", wav(1.0, 440.0, 0.5))])
        .await;
    assert_eq!(track.status, StatusCode::CREATED, "{:?}", track.body);
    let track = track.body["id"].as_str().unwrap().to_owned();
    assert_eq!(titles(&discover(&app, None).await["trending"]), Vec::<String>::new(), "nothing happened yet");

    // Two likes and a repost (11) outrank two comments by one person (4: once) and a play (1).
    assert!(app.post(&format!("/posts/{liked}/like"), Some(&bob), json!({})).await.status.is_success());
    assert!(app.post(&format!("/posts/{liked}/like"), Some(&dan), json!({})).await.status.is_success());
    assert!(app.post(&format!("/posts/{liked}/repost"), Some(&cy), json!({})).await.status.is_success());
    for text in ["nice", "really nice"] {
        let said = app.post(&format!("/posts/{talked}/comments"), Some(&bob), json!({"content": text})).await;
        assert_eq!(said.status, StatusCode::CREATED);
    }
    let played = app.post(&format!("/posts/{track}/plays"), Some(&me), json!({"track": 0})).await;
    assert_eq!(played.body["counted"], json!(true), "{:?}", played.body);
    let found = discover(&app, None).await;
    assert_eq!(titles(&found["trending"]), ["Liked", "Talked", "Played"]);
    assert_eq!(
        titles(&found["rising"]),
        ["Liked", "Talked", "Played"],
        "all new (rising counts comments: 8); Quiet has no engagement"
    );
    assert_eq!(found["tags"], json!([{"tag": "jazz", "posts": 2}, {"tag": "blues", "posts": 1}]));
    assert_eq!(found["people"], json!([]), "signed out");
    let _ = quiet;

    // People to listen to: whom Me's people listen to, most first, not those Me listens to.
    for (who, whom) in [(&me, &bob_id), (&bob, &cy_id), (&bob, &dan_id), (&cy, &dan_id), (&me, &cy_id)] {
        let listened = app.call(Method::POST, &format!("/profiles/listening/{whom}"), Some(who), None).await;
        assert!(listened.status.is_success(), "{:?}", listened.body);
    }
    let people = |found: &Value| -> Vec<(String, i64)> {
        found["people"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["user"]["login"].as_str().unwrap().to_owned(), p["listened_by"].as_i64().unwrap()))
            .collect()
    };
    assert_eq!(people(&discover(&app, Some(&me)).await), vec![("dan".to_owned(), 2)]);
    // Held for the moments after, and found again as soon as Me listens or stops.
    let path = format!("/profiles/listening/{dan_id}");
    assert!(app.call(Method::POST, &path, Some(&me), None).await.status.is_success());
    assert_eq!(people(&discover(&app, Some(&me)).await), vec![], "listened to already");
    assert!(app.call(Method::DELETE, &path, Some(&me), None).await.status.is_success());
    assert_eq!(people(&discover(&app, Some(&me)).await), vec![("dan".to_owned(), 2)]);

    // Nothing across a block: Ana's posts leave Me's lists; Dan blocked is no suggestion.
    let blocked = app.call(Method::POST, &format!("/profiles/blocks/{me_id}"), Some(&ana), None).await;
    assert!(blocked.status.is_success());
    let found = discover(&app, Some(&me)).await;
    assert_eq!(titles(&found["trending"]), ["Played"]);
    assert_eq!(titles(&found["rising"]), ["Played"]);
    let blocks = app.call(Method::POST, &format!("/profiles/blocks/{dan_id}"), Some(&me), None).await;
    assert!(blocks.status.is_success());
    let found = discover(&app, Some(&me)).await;
    assert_eq!(people(&found), vec![]);
    assert_eq!(titles(&found["trending"]), Vec::<String>::new());
    assert_eq!(
        titles(&discover(&app, None).await["trending"]),
        ["Liked", "Talked", "Played"],
        "the rest still see them"
    );

    // A suspended author's posts leave everyone's lists while it stands; a deleted post for good.
    let (rita, _) = app.person("Rita", "rita@example.com").await;
    make_admin(&app.db, "rita@example.com");
    let suspended = app.post(&format!("/admin/users/{dan_id}/suspend"), Some(&rita), json!({"reason": "spam"})).await;
    assert!(suspended.status.is_success(), "{:?}", suspended.body);
    assert_eq!(titles(&discover(&app, None).await["trending"]), ["Liked", "Talked"]);
    let lifted = app.call(Method::DELETE, &format!("/admin/users/{dan_id}/suspend"), Some(&rita), None).await;
    assert!(lifted.status.is_success(), "{:?}", lifted.body);
    assert_eq!(titles(&discover(&app, None).await["trending"]), ["Liked", "Talked", "Played"]);
    let deleted = app.call(Method::DELETE, &format!("/posts/{liked}"), Some(&ana), None).await;
    assert!(deleted.status.is_success(), "{:?}", deleted.body);
    let found = discover(&app, None).await;
    assert_eq!(titles(&found["trending"]), ["Talked", "Played"]);
    assert_eq!(titles(&found["rising"]), ["Talked", "Played"]);
    let _ = ana_id;
}

/// Held lists that went stale are found again in the background: the request that finds them
/// stale is answered from what is held, and a later one sees what happened since.
async fn stale_lists_are_found_again_without_a_request_waiting(db: TestDb) {
    let env = vec![("SELFSOUND_DISCOVER_EVERY".to_owned(), "1".to_owned())];
    let app = spawn_app_with(db, Options { env, ..Default::default() }).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let liked = song(&app, &ana, "Liked", "").await;
    assert_eq!(titles(&discover(&app, None).await["trending"]), Vec::<String>::new(), "found at the first request");
    assert!(app.post(&format!("/posts/{liked}/like"), Some(&bob), json!({})).await.status.is_success());
    assert_eq!(titles(&discover(&app, None).await["trending"]), Vec::<String>::new(), "held for a second");
    tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
    assert_eq!(titles(&discover(&app, None).await["trending"]), Vec::<String>::new(), "stale: what is held, at once");
    let started = std::time::Instant::now();
    loop {
        if titles(&discover(&app, None).await["trending"]) == ["Liked"] {
            break;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "found again in the background");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

test_support::both_backends!(
    discover_shows_what_people_do_now_and_nothing_hidden,
    stale_lists_are_found_again_without_a_request_waiting,
);
