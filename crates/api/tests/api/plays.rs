//! Play counts (issue 31; docs/posts.md, "Plays"): a play told by the player is counted once
//! per listener, track and hour (a person signed in, a client address signed out), never the
//! author's own; the post's total is on every answer that shows it, and the author reads each
//! track's own count. Posts a listener may not see are not found.

use db::diesel::prelude::*;
use db::schema::play_marks;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;
use test_support::media::{musicxml, wav};

use crate::common::{Answer, Options, Part, TestApp, make_admin, spawn_app_with};

/// A server that takes the tests for the proxy in front of it, so they choose the client address.
async fn behind_a_proxy(db: TestDb) -> TestApp {
    let env = vec![("SELFSOUND_TRUSTED_PROXIES".to_owned(), "127.0.0.1/32".to_owned())];
    spawn_app_with(db, Options { env, ..Default::default() }).await
}

impl TestApp {
    /// Tells of a play of `track` of `post` by `token` (or signed out) from `client`.
    async fn play(&self, token: Option<&str>, client: &str, post: &str, body: Value) -> Answer {
        let mut req =
            self.client.post(format!("{}/posts/{post}/plays", self.url)).header("x-forwarded-for", client).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        self.raw(req).await
    }

    /// (counted, plays_count) of a play that is answered 200.
    async fn played(&self, token: Option<&str>, client: &str, post: &str, track: i64) -> (bool, i64) {
        let a = self.play(token, client, post, json!({"track": track})).await;
        assert_eq!(a.status, StatusCode::OK, "{:?}", a.body);
        (a.body["counted"].as_bool().unwrap(), a.body["plays_count"].as_i64().unwrap())
    }

    async fn plays_of(&self, post: &str) -> i64 {
        let got = self.get(&format!("/posts/{post}"), None).await;
        assert_eq!(got.status, StatusCode::OK, "{:?}", got.body);
        got.body["plays_count"].as_i64().unwrap()
    }

    /// The author's list: (post, type, track, title, plays) in its order.
    async fn own_plays(&self, token: &str, query: &str) -> (Vec<(String, String, i64, String, i64)>, Option<String>) {
        let got = self.get(&format!("/profile/me/plays{query}"), Some(token)).await;
        assert_eq!(got.status, StatusCode::OK, "{:?}", got.body);
        let rows = got
            .body
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                (
                    t["post_id"].as_str().unwrap().to_owned(),
                    t["type"].as_str().unwrap().to_owned(),
                    t["track"].as_i64().unwrap(),
                    t["title"].as_str().unwrap().to_owned(),
                    t["plays_count"].as_i64().unwrap(),
                )
            })
            .collect();
        let next = got.headers.get("link").map(|v| v.to_str().unwrap().to_owned());
        (rows, next)
    }

    /// Makes every play mark older than the hour, as if that long had passed.
    fn an_hour_passes(&self) {
        let earlier = db::time::now() - chrono::Duration::minutes(61);
        db::diesel::update(play_marks::table)
            .set(play_marks::heard_at.eq(earlier))
            .execute(&mut *self.db.get().unwrap())
            .unwrap();
    }
}

async fn audio_post(app: &TestApp, token: &str, titles: &[&str]) -> String {
    let parts: Vec<Part> =
        titles.iter().map(|t| Part::file("audio_files", &format!("{t}.wav"), wav(1.0, 440.0, 0.5))).collect();
    let made = app.post_form("/posts/audio", Some(token), &parts).await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    assert_eq!(made.body["plays_count"], json!(0), "a new post has no plays");
    made.body["id"].as_str().unwrap().to_owned()
}

async fn a_play_counts_once_per_listener_track_and_hour(db: TestDb) {
    let app = behind_a_proxy(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let (cy, _) = app.person("Cy", "cyd@example.com").await;
    let post = audio_post(&app, &ana, &["Intro", "Solo"]).await;

    assert_eq!(app.played(Some(&bob), "10.0.0.1", &post, 0).await, (true, 1));
    assert_eq!(app.played(Some(&bob), "10.0.0.1", &post, 0).await, (false, 1), "again within the hour");
    assert_eq!(app.played(Some(&bob), "10.0.0.9", &post, 0).await, (false, 1), "from another address too");
    assert_eq!(app.played(Some(&bob), "10.0.0.1", &post, 1).await, (true, 2), "another track counts");
    assert_eq!(app.played(Some(&cy), "10.0.0.1", &post, 0).await, (true, 3), "another person counts");
    // Signed out, each client address counts once.
    assert_eq!(app.played(None, "10.0.0.1", &post, 0).await, (true, 4));
    assert_eq!(app.played(None, "10.0.0.1", &post, 0).await, (false, 4));
    assert_eq!(app.played(None, "10.0.0.2", &post, 0).await, (true, 5));
    // The author's own plays are not counted.
    assert_eq!(app.played(Some(&ana), "10.0.0.3", &post, 0).await, (false, 5));
    // A body may leave the track out: the first.
    let first = app.play(Some(&cy), "10.0.0.1", &post, json!({})).await;
    assert_eq!((first.status, first.body["counted"].clone()), (StatusCode::OK, json!(false)));

    assert_eq!(app.plays_of(&post).await, 5, "the post page shows the total");
    let feed = app.get("/posts/feed", Some(&bob)).await.body;
    assert_eq!(feed[0]["plays_count"], json!(5), "and so does every list");

    app.an_hour_passes();
    assert_eq!(app.played(Some(&bob), "10.0.0.1", &post, 0).await, (true, 6), "an hour later it counts again");
    assert_eq!(app.played(Some(&bob), "10.0.0.1", &post, 0).await, (false, 6));

    // The author sees each track's own count.
    let (rows, next) = app.own_plays(&ana, "").await;
    assert_eq!(
        rows,
        vec![
            (post.clone(), "audio".to_owned(), 0, "Intro".to_owned(), 5),
            (post.clone(), "audio".to_owned(), 1, "Solo".to_owned(), 1),
        ]
    );
    assert_eq!(next, None, "one post: no next page");
    assert_eq!(app.get("/profile/me/plays", None).await.status, StatusCode::UNAUTHORIZED);
    let (others, _) = app.own_plays(&bob, "").await;
    assert_eq!(others, vec![], "Bob has no tracks of his own");
}

async fn what_cannot_be_played_is_refused_and_counts_nothing(db: TestDb) {
    let app = behind_a_proxy(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let post = audio_post(&app, &ana, &["Only"]).await;
    let lyrics = app.lyrics_post(&ana, "Words").await["id"].as_str().unwrap().to_owned();

    let cases: [(&str, Value, StatusCode, &str); 6] = [
        (&post, json!({"track": 1}), StatusCode::BAD_REQUEST, "This post has no track 1"),
        (&post, json!({"track": -1}), StatusCode::BAD_REQUEST, "This post has no track -1"),
        (&lyrics, json!({"track": 0}), StatusCode::BAD_REQUEST, "Only audio tracks and scores are played"),
        ("123456789", json!({"track": 0}), StatusCode::NOT_FOUND, "Post not found"),
        ("not-an-id", json!({"track": 0}), StatusCode::NOT_FOUND, ""),
        (&post, json!({"track": 0, "seconds": 31}), StatusCode::UNPROCESSABLE_ENTITY, "unknown field"),
    ];
    for (target, body, status, words) in cases {
        let a = app.play(Some(&bob), "10.0.0.1", target, body.clone()).await;
        assert_eq!(a.status, status, "{target} {body}: {:?}", a.body);
        assert!(a.detail().contains(words), "{target} {body}: {}", a.detail());
    }
    let text =
        app.raw(app.client.post(format!("{}/posts/{post}/plays", app.url)).bearer_auth(&bob).body("track=0")).await;
    assert!(text.status.is_client_error(), "a body that is not JSON: {:?}", text.body);
    assert_eq!(app.plays_of(&post).await, 0, "nothing was counted");
}

async fn plays_of_hidden_posts_are_not_found_and_scores_count_too(db: TestDb) {
    let app = behind_a_proxy(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let (rita, _) = app.person("Rita", "rita@example.com").await;
    make_admin(&app.db, "rita@example.com");
    let score = app
        .post_form(
            "/posts/musicxml",
            Some(&ana),
            &[
                Part::file("musicxml_files", "a.musicxml", musicxml("Étude", "Clara")),
                Part::file("musicxml_files", "b.musicxml", musicxml("Nocturne", "Clara")),
            ],
        )
        .await;
    assert_eq!(score.status, StatusCode::CREATED, "{:?}", score.body);
    let score = score.body["id"].as_str().unwrap().to_owned();
    let audio = audio_post(&app, &ana, &["Track"]).await;
    assert_eq!(app.played(Some(&bob), "10.0.0.1", &score, 1).await, (true, 1), "a score's playback counts");

    // A block either way hides the post from Bob: his plays are not found, and count nothing.
    let blocked = app.call(Method::POST, &format!("/profiles/blocks/{bob_id}"), Some(&ana), None).await;
    assert_eq!(blocked.status, StatusCode::OK, "{:?}", blocked.body);
    assert_eq!(app.play(Some(&bob), "10.0.0.1", &audio, json!({})).await.status, StatusCode::NOT_FOUND);
    let unblocked = app.call(Method::DELETE, &format!("/profiles/blocks/{bob_id}"), Some(&ana), None).await;
    assert!(unblocked.status.is_success());
    let blocks = app.call(Method::POST, &format!("/profiles/blocks/{ana_id}"), Some(&bob), None).await;
    assert_eq!(blocks.status, StatusCode::OK);
    assert_eq!(app.play(Some(&bob), "10.0.0.1", &audio, json!({})).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.plays_of(&audio).await, 0);

    let (rows, _) = app.own_plays(&ana, "").await;
    assert_eq!(
        rows,
        vec![
            (audio.clone(), "audio".to_owned(), 0, "Track".to_owned(), 0),
            (score.clone(), "musicxml".to_owned(), 0, "Étude".to_owned(), 0),
            (score.clone(), "musicxml".to_owned(), 1, "Nocturne".to_owned(), 1),
        ],
        "newest post first, each post's tracks in order"
    );
    // Paged by post: a page of one post, then the next from its Link.
    let (first, next) = app.own_plays(&ana, "?limit=1").await;
    assert_eq!(first.len(), 1);
    let next = next.expect("a full page says where the next starts");
    let query = next.split_once('?').unwrap().1.split_once('>').unwrap().0.to_owned();
    let (second, _) = app.own_plays(&ana, &format!("?{query}")).await;
    assert_eq!(second.iter().map(|r| r.3.as_str()).collect::<Vec<_>>(), ["Étude", "Nocturne"]);

    // Deleting the post takes its plays and marks with it.
    let deleted = app.call(Method::DELETE, &format!("/posts/{score}"), Some(&ana), None).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    let marks: i64 = play_marks::table.count().get_result(&mut *app.db.get().unwrap()).unwrap();
    assert_eq!(marks, 0, "the score's marks went with it");

    // A suspended author's posts are not found by anyone, signed in or not.
    let suspended = app.post(&format!("/admin/users/{ana_id}/suspend"), Some(&rita), json!({"reason": "spam"})).await;
    assert!(suspended.status.is_success(), "{:?}", suspended.body);
    assert_eq!(app.play(None, "10.0.0.5", &audio, json!({})).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.play(Some(&rita), "10.0.0.5", &audio, json!({"track": 0})).await.status, StatusCode::NOT_FOUND);
}

test_support::both_backends!(
    a_play_counts_once_per_listener_track_and_hour,
    what_cannot_be_played_is_refused_and_counts_nothing,
    plays_of_hidden_posts_are_not_found_and_scores_count_too
);
