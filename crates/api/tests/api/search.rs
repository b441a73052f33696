//! Finding music (issue 20): `GET /posts/search` finds posts by the words of their titles,
//! artists, composers, lyrics and captions, best matches first, in the feeds' shape, pages by
//! `before`, filters by `type`, and follows every list's rules.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;
use test_support::media::{musicxml, wav};

use crate::common::{Part, TestApp, spawn_app};

fn ids(found: &Value) -> Vec<&str> {
    found.as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect()
}

async fn find(app: &TestApp, query: &str, token: Option<&str>) -> Value {
    let found = app.get(&format!("/posts/search?{query}"), token).await;
    assert_eq!(found.status, StatusCode::OK, "{query}: {:?}", found.body);
    found.body
}

async fn music_is_found_by_its_words_in_the_feeds_shape(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let song = app.lyrics_post(&ana, "Moonlight Drive").await;
    let track = app
        .post_form(
            "/posts/audio",
            Some(&ana),
            &[
                Part::file("audio_files", "take.wav", wav(0.5, 220.0, 0.3)),
                Part::text("titles", "Nocturne in Blue"),
                Part::text("artists", "Frédéric Trio"),
            ],
        )
        .await;
    assert_eq!(track.status, StatusCode::CREATED, "{:?}", track.body);
    let score = app
        .post_form(
            "/posts/musicxml",
            Some(&bob),
            &[
                Part::file("musicxml_files", "etude.musicxml", musicxml("Étude", "Clara")),
                Part::text("titles", "Étude in Blue"),
                Part::text("composers", "Clara Schumann"),
            ],
        )
        .await;
    assert_eq!(score.status, StatusCode::CREATED, "{:?}", score.body);
    let (song_id, track_id, score_id) =
        (song["id"].as_str().unwrap(), track.body["id"].as_str().unwrap(), score.body["id"].as_str().unwrap());

    // Each post in the shape the feeds send, found by any of its words, accents and case aside.
    let found = find(&app, "q=moonlight", None).await;
    assert_eq!(ids(&found), [song_id]);
    assert_eq!(found[0], app.get("/posts/feed?limit=10", None).await.body[2], "the feeds' shape");
    assert_eq!(ids(&find(&app, "q=FREDERIC", None).await), [track_id]);
    assert_eq!(ids(&find(&app, "q=etude", None).await), [score_id]);
    assert_eq!(ids(&find(&app, "q=schum", None).await), [score_id]);
    assert_eq!(ids(&find(&app, "q=blue", None).await), [score_id, track_id], "equal matches newest first");
    assert_eq!(ids(&find(&app, "q=blue&type=audio", None).await), [track_id]);
    assert_eq!(ids(&find(&app, "q=blue&type=musicxml", None).await), [score_id]);
    assert!(find(&app, "q=blue&type=lyrics", None).await.as_array().unwrap().is_empty());
    for empty in ["", "q=", "q=%20%20", "q=***"] {
        assert_eq!(find(&app, empty, None).await, json!([]), "{empty}");
    }

    // Pages: `limit`, and `before` the last one shown, with a Link to the next when full.
    let first = app.get("/posts/search?q=blue&limit=1", None).await;
    assert_eq!(ids(&first.body), [score_id]);
    let link = first.headers.get("link").unwrap().to_str().unwrap();
    assert_eq!(link, format!("</posts/search?q=blue&limit=1&before={score_id}>; rel=\"next\""));
    let next = find(&app, &format!("q=blue&limit=1&before={score_id}"), None).await;
    assert_eq!(ids(&next), [track_id]);
    assert!(find(&app, &format!("q=blue&limit=1&before={track_id}"), None).await.as_array().unwrap().is_empty());

    // The viewer's own like shows, as on the feeds.
    let liked = app.call(Method::POST, &format!("/posts/{track_id}/like"), Some(&bob), None).await;
    assert_eq!(liked.status, StatusCode::OK);
    let seen = find(&app, "q=nocturne", Some(&bob)).await;
    assert_eq!((seen[0]["user_liked"].clone(), seen[0]["likes_count"].clone()), (json!(true), json!(1)));

    // Edited words are found at once; a deleted post is gone at once.
    let edited =
        app.call(Method::PATCH, &format!("/posts/{song_id}"), Some(&ana), Some(json!({"songTitle": "Sunrise"}))).await;
    assert_eq!(edited.status, StatusCode::OK, "{:?}", edited.body);
    assert!(find(&app, "q=moonlight", None).await.as_array().unwrap().is_empty());
    assert_eq!(ids(&find(&app, "q=sunrise", None).await), [song_id]);
    assert_eq!(
        app.call(Method::DELETE, &format!("/posts/{song_id}"), Some(&ana), None).await.status,
        StatusCode::NO_CONTENT
    );
    assert!(find(&app, "q=sunrise", None).await.as_array().unwrap().is_empty());

    // A block hides both sides' posts from each other.
    let blocked = app.call(Method::POST, &format!("/profiles/blocks/{bob_id}"), Some(&ana), None).await;
    assert!(blocked.status.is_success(), "{:?}", blocked.body);
    assert_eq!(ids(&find(&app, "q=blue", Some(&ana)).await), [track_id]);
    assert_eq!(ids(&find(&app, "q=blue", Some(&bob)).await), [score_id]);
    assert_eq!(ids(&find(&app, "q=blue", None).await), [score_id, track_id]);

    // Bad input is a clear 400.
    let bad = app.get("/posts/search?q=blue&type=video", None).await;
    assert_eq!(
        (bad.status, bad.detail()),
        (StatusCode::BAD_REQUEST, "Unknown type of post: type is one of audio, musicxml, lyrics and media")
    );
    let nul = app.get("/posts/search?q=a%00b", None).await;
    assert_eq!(nul.status, StatusCode::BAD_REQUEST);
    assert_eq!(app.get("/posts/search?q=blue&before=abc", None).await.status, StatusCode::BAD_REQUEST);
}

test_support::both_backends!(music_is_found_by_its_words_in_the_feeds_shape);
