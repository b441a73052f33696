//! Comments on a moment of an audio post's track (issue 31): `at_ms` and `track` on a new
//! comment, checked against the post's tracks; the post's timed comments for the marks along
//! its waveform (`GET /posts/{id}/moments`), as each viewer may see them.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;
use test_support::media::wav;

use crate::common::{Answer, Part, TestApp, spawn_app};

impl TestApp {
    /// An audio post by `token` of two tracks, 3 s and 5 s long: its id.
    async fn two_track_post(&self, token: &str) -> String {
        let made = self
            .post_form(
                "/posts/audio",
                Some(token),
                &[
                    Part::file("audio_files", "Intro.wav", wav(3.0, 440.0, 0.5)),
                    Part::file("audio_files", "Solo.wav", wav(5.0, 660.0, 0.5)),
                ],
            )
            .await;
        assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
        made.body["id"].as_str().unwrap().to_owned()
    }

    async fn say(&self, token: &str, post: &str, body: Value) -> Answer {
        self.post(&format!("/posts/{post}/comments"), Some(token), body).await
    }

    /// The post's timed comments as `token` sees them: (content, at_ms, track).
    async fn moments(&self, token: Option<&str>, post: &str) -> Vec<(String, i64, i64)> {
        let got = self.get(&format!("/posts/{post}/moments"), token).await;
        assert_eq!(got.status, StatusCode::OK, "{:?}", got.body);
        let mut all: Vec<(String, i64, i64)> = got
            .body
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (c["content"].as_str().unwrap().to_owned(), c["at_ms"].as_i64().unwrap(), c["track"].as_i64().unwrap())
            })
            .collect();
        all.sort_by_key(|(_, at, track)| (*track, *at));
        all
    }
}

async fn a_comment_is_on_a_moment_of_a_track_the_post_has(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let post = app.two_track_post(&ana).await;

    let first = app.say(&bob, &post, json!({"content": "that entrance!", "at_ms": 1500})).await;
    assert_eq!(first.status, StatusCode::CREATED, "{:?}", first.body);
    assert_eq!(
        (first.body["comment"]["at_ms"].clone(), first.body["comment"]["track"].clone()),
        (json!(1500), json!(0))
    );
    let solo = app.say(&bob, &post, json!({"content": "the solo", "at_ms": 4000, "track": 1})).await;
    assert_eq!(solo.status, StatusCode::CREATED, "{:?}", solo.body);
    let end = app.say(&ana, &post, json!({"content": "last note", "at_ms": 4900, "track": 1})).await;
    assert_eq!(end.status, StatusCode::CREATED, "{:?}", end.body);

    // A comment on the whole post says no moment at all (the spec's shape).
    let plain = app.say(&bob, &post, json!({"content": "lovely"})).await;
    assert_eq!(plain.status, StatusCode::CREATED);
    let plain = plain.body["comment"].as_object().unwrap().clone();
    assert!(!plain.contains_key("at_ms") && !plain.contains_key("track"), "{plain:?}");

    // What is refused, each with words for the writer, and nothing written.
    let refused: [(Value, &str); 6] = [
        (json!({"content": "late", "at_ms": 3500}), "The time is past the end of the track (0:0"),
        (json!({"content": "where?", "at_ms": 10, "track": 2}), "This post has no track 2"),
        (json!({"content": "when?", "track": 1}), "A comment on a moment needs at_ms"),
        (json!({"content": "before", "at_ms": -1}), "A comment on a moment needs at_ms"),
        (json!({"content": "odd", "at_ms": 10, "track": -1}), "A comment on a moment needs at_ms"),
        (json!({"content": "way past", "at_ms": 99_000_000_000_i64}), "The time is past the end of the track"),
    ];
    for (body, words) in refused {
        let answer = app.say(&bob, &post, body.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}: {:?}", answer.body);
        assert!(answer.detail().starts_with(words), "{body}: {}", answer.detail());
    }
    for body in [json!({"content": "text", "at_ms": "1500"}), json!({"content": "float", "at_ms": 1.5})] {
        // A body of the wrong shape, as every JSON call answers it.
        let answer = app.say(&bob, &post, body.clone()).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {:?}", answer.body);
        assert!(answer.detail().contains("at_ms") || answer.detail().contains("i64"), "{body}: {}", answer.detail());
    }
    let lyrics = app.lyrics_post(&ana, "Words").await["id"].as_str().unwrap().to_owned();
    let answer = app.say(&bob, &lyrics, json!({"content": "here", "at_ms": 10})).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.detail(), "Only comments on audio posts can be on a moment of a track");

    let count = app.get(&format!("/posts/{post}"), None).await.body["comments_count"].as_i64().unwrap();
    assert_eq!(count, 4, "the refused comments were not written");
    assert_eq!(
        app.moments(None, &post).await,
        vec![
            ("that entrance!".to_owned(), 1500, 0),
            ("the solo".to_owned(), 4000, 1),
            ("last note".to_owned(), 4900, 1)
        ],
        "the timed comments, not the one on the whole post"
    );
    // The comment list says the moment too, and an edit keeps it.
    let list = app.get(&format!("/posts/{post}/comments"), None).await.body;
    let timed = list.as_array().unwrap().iter().find(|c| c["content"] == "the solo").unwrap().clone();
    assert_eq!((timed["at_ms"].clone(), timed["track"].clone()), (json!(4000), json!(1)));
    let id = timed["id"].as_str().unwrap();
    let edited = app
        .call(Method::PATCH, &format!("/posts/{post}/comments/{id}"), Some(&bob), Some(json!({"content": "the solo!"})))
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{:?}", edited.body);
    assert_eq!(edited.body["comment"]["at_ms"], json!(4000));

    assert_eq!(app.moments(None, &lyrics).await, vec![], "a post of another kind has none");
    let missing = app.get("/posts/123456789/moments", None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

async fn moments_leave_out_who_a_viewer_may_not_see(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let (cy, _) = app.person("Cy", "cyd@example.com").await;
    let post = app.two_track_post(&ana).await;
    for (who, text, at) in [(&bob, "bob here", 500), (&cy, "cy here", 900)] {
        let made = app.say(who, &post, json!({"content": text, "at_ms": at})).await;
        assert_eq!(made.status, StatusCode::CREATED);
    }
    let mine = app.say(&bob, &post, json!({"content": "going", "at_ms": 2000})).await.body["comment"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(app.moments(Some(&cy), &post).await.len(), 3);

    let blocked = app.call(Method::POST, &format!("/profiles/blocks/{bob_id}"), Some(&cy), None).await;
    assert_eq!(blocked.status, StatusCode::OK, "{:?}", blocked.body);
    assert_eq!(app.moments(Some(&cy), &post).await, vec![("cy here".to_owned(), 900, 0)], "Bob's are hidden from Cy");
    assert_eq!(app.moments(None, &post).await.len(), 3, "and shown to everyone else");

    let deleted = app.call(Method::DELETE, &format!("/posts/{post}/comments/{mine}"), Some(&bob), None).await;
    assert!(deleted.status.is_success(), "{:?}", deleted.body);
    assert_eq!(app.moments(Some(&ana), &post).await.len(), 2, "a deleted comment leaves the marks");

    // Blocked by the post's author, Bob cannot comment on a moment of it, nor see its marks.
    let unblock = app.call(Method::DELETE, &format!("/profiles/blocks/{bob_id}"), Some(&cy), None).await;
    assert!(unblock.status.is_success());
    let blocked = app.call(Method::POST, &format!("/profiles/blocks/{bob_id}"), Some(&ana), None).await;
    assert_eq!(blocked.status, StatusCode::OK);
    assert_eq!(app.get(&format!("/posts/{post}/moments"), Some(&bob)).await.status, StatusCode::NOT_FOUND);
    let refused = app.say(&bob, &post, json!({"content": "again", "at_ms": 100})).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
}

test_support::both_backends!(
    a_comment_is_on_a_moment_of_a_track_the_post_has,
    moments_leave_out_who_a_viewer_may_not_see
);
