//! A score that follows a recording (issue 35; docs/posts.md, "A score that follows a
//! recording"): the author of a sheet-music post links a score to a track of an audio post they
//! may see, with a sync map checked to go forward within the track; the link is read from
//! either end by anyone who may see both posts, and goes with either post.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;
use test_support::media::{musicxml, wav};

use crate::common::{Part, TestApp, spawn_app};

async fn audio(app: &TestApp, token: &str, seconds: f32) -> String {
    let parts = [Part::file("audio_files", "take.wav", wav(seconds, 440.0, 0.4))];
    let made = app.post_form("/posts/audio", Some(token), &parts).await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    made.body["id"].as_str().unwrap().to_owned()
}

async fn score(app: &TestApp, token: &str) -> String {
    let parts = [Part::file("musicxml_files", "e.musicxml", musicxml("Étude", "Clara"))];
    let made = app.post_form("/posts/musicxml", Some(token), &parts).await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    made.body["id"].as_str().unwrap().to_owned()
}

fn map(recording: &str, points: &[(i64, i64)]) -> Value {
    let points: Vec<Value> = points.iter().map(|(bar, at_ms)| json!({"bar": bar, "at_ms": at_ms})).collect();
    json!({"recording_id": recording, "points": points})
}

/// The one link a list holds.
fn only(list: &Value) -> &Value {
    let links = list.as_array().unwrap();
    assert_eq!(links.len(), 1, "{list}");
    &links[0]
}

fn points(v: &Value) -> Vec<(i64, i64)> {
    v["points"].as_array().unwrap().iter().map(|p| (p["bar"].as_i64().unwrap(), p["at_ms"].as_i64().unwrap())).collect()
}

async fn a_score_follows_a_recording_its_author_taps_along(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let etude = score(&app, &ana).await;
    let take = audio(&app, &bob, 4.0).await;
    let put = |token: &str, body: Value| {
        let (app, etude, token) = (&app, etude.clone(), token.to_owned());
        async move { app.call(Method::PUT, &format!("/posts/{etude}/recording"), Some(&token), Some(body)).await }
    };

    let none = app.get(&format!("/posts/{etude}/recordings"), None).await;
    assert_eq!((none.status, none.body.clone()), (StatusCode::OK, json!([])));

    // Ana's score follows Bob's take: anyone sees the map with the recording, and the take
    // lists the score.
    let linked = put(&ana, map(&take, &[(0, 120), (1, 1100), (2, 2080), (4, 4000)])).await;
    assert_eq!(linked.status, StatusCode::OK, "{:?}", linked.body);
    assert_eq!((linked.body["post_id"].as_str(), linked.body["recording_id"].as_str()), (Some(&*etude), Some(&*take)));
    let seen = app.get(&format!("/posts/{etude}/recordings"), None).await;
    assert_eq!(seen.status, StatusCode::OK, "{:?}", seen.body);
    let seen = only(&seen.body);
    assert_eq!(points(seen), [(0, 120), (1, 1100), (2, 2080), (4, 4000)]);
    assert_eq!(
        (seen["score"].as_i64(), seen["track"].as_i64(), seen["post"]["id"].as_str()),
        (Some(0), Some(0), Some(&*take))
    );
    assert_eq!(seen["post"]["audio"][0]["duration"].as_str(), Some("0:04"));
    let following = app.get(&format!("/posts/{take}/scores"), Some(&bob)).await;
    assert_eq!(following.status, StatusCode::OK, "{:?}", following.body);
    let listed = following.body.as_array().unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!((listed[0]["post"]["id"].as_str(), listed[0]["score"].as_i64()), (Some(&*etude), Some(0)));
    assert_eq!(points(&listed[0]), [(0, 120), (1, 1100), (2, 2080), (4, 4000)]);

    // A corrected map replaces the old one; the link keeps when it was made.
    let made_at = linked.body["created_at"].clone();
    let again = put(&ana, map(&take, &[(0, 100), (1, 1000)])).await;
    assert_eq!(again.status, StatusCode::OK, "{:?}", again.body);
    assert_eq!(again.body["created_at"], made_at);
    assert_eq!(points(only(&app.get(&format!("/posts/{etude}/recordings"), None).await.body)), [(0, 100), (1, 1000)]);

    // What is refused, and why.
    let lyrics = app.lyrics_post(&ana, "Words").await["id"].as_str().unwrap().to_owned();
    let refused = [
        (map(&take, &[(0, 0)]), StatusCode::BAD_REQUEST, "A sync map needs at least 2 bars"),
        (
            map(&take, &[(0, 0), (1, 900), (1, 1800)]),
            StatusCode::BAD_REQUEST,
            "Point 3 must be a later bar at a later time than the one before",
        ),
        (
            map(&take, &[(0, 500), (1, 400)]),
            StatusCode::BAD_REQUEST,
            "Point 2 must be a later bar at a later time than the one before",
        ),
        (map(&take, &[(0, 0), (1, 4001)]), StatusCode::BAD_REQUEST, "Point 2 is past the end of the track (0:04)"),
        (map(&take, &[(-1, 0), (1, 400)]), StatusCode::BAD_REQUEST, "Bars count from 0 and times from 0 ms"),
        (map(&lyrics, &[(0, 0), (1, 400)]), StatusCode::BAD_REQUEST, "A score follows a track of an audio post"),
        (map("123456789", &[(0, 0), (1, 400)]), StatusCode::NOT_FOUND, "Recording not found"),
        (
            json!({"recording_id": take, "track": 3, "points": [{"bar": 0, "at_ms": 0}, {"bar": 1, "at_ms": 9}]}),
            StatusCode::BAD_REQUEST,
            "This post has no track 3",
        ),
        (
            json!({"recording_id": take, "score": 2, "points": [{"bar": 0, "at_ms": 0}, {"bar": 1, "at_ms": 9}]}),
            StatusCode::BAD_REQUEST,
            "This post has no track 2",
        ),
    ];
    for (body, status, detail) in refused {
        let answer = put(&ana, body.clone()).await;
        assert_eq!((answer.status, answer.detail()), (status, detail), "{body}");
    }
    let many: Vec<(i64, i64)> = (0..1501).map(|i| (i, i)).collect();
    let too_many = put(&ana, map(&take, &many)).await;
    assert_eq!((too_many.status, too_many.detail()), (StatusCode::BAD_REQUEST, "A sync map has at most 1500 bars"));
    let unknown = put(&ana, json!({"recording_id": take, "points": [], "tempo": 1})).await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", unknown.body);
    let bobs = put(&bob, map(&take, &[(0, 0), (1, 400)])).await;
    assert_eq!(
        (bobs.status, bobs.detail()),
        (StatusCode::FORBIDDEN, "You can only link recordings to your own scores")
    );
    let not_score = app
        .call(Method::PUT, &format!("/posts/{take}/recording"), Some(&bob), Some(map(&take, &[(0, 0), (1, 9)])))
        .await;
    assert_eq!(
        (not_score.status, not_score.detail()),
        (StatusCode::BAD_REQUEST, "Only sheet music posts follow a recording")
    );
    let signed_out =
        app.call(Method::PUT, &format!("/posts/{etude}/recording"), None, Some(map(&take, &[(0, 0), (1, 9)]))).await;
    assert_eq!(signed_out.status, StatusCode::UNAUTHORIZED);
    // Nothing refused changed the map.
    assert_eq!(points(only(&app.get(&format!("/posts/{etude}/recordings"), None).await.body)), [(0, 100), (1, 1000)]);

    // Taken away, then made again and gone with the recording.
    let gone = app.call(Method::DELETE, &format!("/posts/{etude}/recording"), Some(&ana), None).await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);
    let twice = app.call(Method::DELETE, &format!("/posts/{etude}/recording"), Some(&ana), None).await;
    assert_eq!((twice.status, twice.detail()), (StatusCode::NOT_FOUND, "This score has no recording"));
    assert_eq!(put(&ana, map(&take, &[(0, 0), (1, 400)])).await.status, StatusCode::OK);
    assert_eq!(
        app.call(Method::DELETE, &format!("/posts/{take}"), Some(&bob), None).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(app.get(&format!("/posts/{etude}/recordings"), None).await.body, json!([]));
    // A post of another kind follows nothing; a post not there is not found.
    assert_eq!(app.get(&format!("/posts/{lyrics}/recordings"), None).await.body, json!([]));
    assert_eq!(app.get(&format!("/posts/{take}/recordings"), None).await.status, StatusCode::NOT_FOUND);
}

async fn a_recording_hidden_from_the_viewer_is_not_followed(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let (cy, _) = app.person("Cy", "cy@example.com").await;
    let etude = score(&app, &ana).await;
    let take = audio(&app, &bob, 2.0).await;
    let linked = app
        .call(Method::PUT, &format!("/posts/{etude}/recording"), Some(&ana), Some(map(&take, &[(0, 0), (1, 900)])))
        .await;
    assert_eq!(linked.status, StatusCode::OK, "{:?}", linked.body);

    // Cy blocks Bob: she sees Ana's score without his take, and his take is not there for her.
    let blocked = app.call(Method::POST, &format!("/profiles/blocks/{bob_id}"), Some(&cy), None).await;
    assert_eq!(blocked.status, StatusCode::OK);
    let for_cy = app.get(&format!("/posts/{etude}/recordings"), Some(&cy)).await;
    assert_eq!((for_cy.status, for_cy.body), (StatusCode::OK, json!([])));
    assert_eq!(app.get(&format!("/posts/{take}/scores"), Some(&cy)).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get(&format!("/posts/{etude}/recordings"), None).await.body.as_array().map(Vec::len), Some(1));

    // Bob blocks Ana: she can no longer link her score to his take.
    assert_eq!(
        app.call(Method::POST, &format!("/profiles/blocks/{ana_id}"), Some(&bob), None).await.status,
        StatusCode::OK
    );
    let refused = app
        .call(Method::PUT, &format!("/posts/{etude}/recording"), Some(&ana), Some(map(&take, &[(0, 0), (1, 800)])))
        .await;
    assert_eq!((refused.status, refused.detail()), (StatusCode::NOT_FOUND, "Recording not found"));
    // A deleted score leaves the take's list.
    assert_eq!(
        app.call(Method::DELETE, &format!("/posts/{etude}"), Some(&ana), None).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(app.get(&format!("/posts/{take}/scores"), None).await.body, json!([]));
}

test_support::both_backends!(
    a_score_follows_a_recording_its_author_taps_along,
    a_recording_hidden_from_the_viewer_is_not_followed
);
