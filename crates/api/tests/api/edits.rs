//! Edits (issue 19): an author changes the words of their post (caption, titles, artists,
//! composers, lyrics) and of their comments; every page shows the edit at once, marked with
//! `edited_at`; a mention added by an edit tells its person once.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;
use test_support::media::{musicxml, png, wav};

use crate::common::{Answer, Part, TestApp, spawn_app};

async fn patch(app: &TestApp, path: &str, token: Option<&str>, body: Value) -> Answer {
    app.call(Method::PATCH, path, token, Some(body)).await
}

async fn authors_edit_the_words_of_each_kind_of_post(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;

    // Lyrics: what is sent changes, the rest stays; the page read before the edit (and kept in
    // memory) shows the edit at once.
    let song = app.lyrics_post(&ana, "Old title").await;
    let id = song["id"].as_str().unwrap();
    let path = format!("/posts/{id}");
    assert_eq!(song["edited_at"], Value::Null);
    assert_eq!(app.get(&path, Some(&bob)).await.body["lyrics"]["title"], "Old title");
    assert_eq!(app.get("/posts/feed", None).await.body[0]["lyrics"]["title"], "Old title");
    let edited = patch(
        &app,
        &path,
        Some(&ana),
        json!({"songTitle": " New  title ", "parts": [{"type": "Chorus", "lyrics": "la la\n"}], "caption": "with a caption"}),
    )
    .await;
    assert_eq!(edited.status, StatusCode::OK, "{:?}", edited.body);
    assert_eq!(edited.body["lyrics"]["title"], "New title");
    assert_eq!(edited.body["lyrics"]["artist"], song["lyrics"]["artist"]);
    assert_eq!(edited.body["lyrics"]["parts"], json!([{"type": "chorus", "lyrics": "la la"}]));
    assert_eq!(edited.body["lyrics"]["lyrics_text"], "[Chorus]\nla la");
    assert_eq!(edited.body["caption"], "with a caption");
    assert!(edited.body["edited_at"].is_string(), "{:?}", edited.body);
    assert_eq!(edited.body["created_at"], song["created_at"]);
    for (viewer, seen) in [(Some(bob.as_str()), app.get(&path, Some(&bob)).await), (None, app.get(&path, None).await)] {
        assert_eq!(seen.body["lyrics"], edited.body["lyrics"], "{viewer:?}");
        assert_eq!(seen.body["edited_at"], edited.body["edited_at"]);
    }
    let feed = app.get("/posts/feed", None).await;
    assert_eq!(feed.body[0]["lyrics"]["title"], "New title");
    assert_eq!(feed.body[0]["caption"], "with a caption");

    // The same words again change nothing: no new `edited_at`.
    let again = patch(&app, &path, Some(&ana), json!({"songTitle": "New title", "caption": "with a caption "})).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.body["edited_at"], edited.body["edited_at"]);
    // A song is checked whole, as a new one is.
    for (body, detail) in [
        (json!({"parts": []}), "Please fill in all required fields"),
        (
            json!({"parts": [{"type": "solo", "lyrics": "x"}]}),
            "Unknown part type: solo. Use intro, verse, pre-chorus, chorus, bridge or outro",
        ),
        (json!({"artistName": "  "}), "Please fill in all required fields"),
        (json!({"titles": ["x"]}), "titles cannot be changed on a lyrics post"),
        (json!({"caption": "x".repeat(2001)}), "The caption is too long (at most 2000 characters)"),
    ] {
        let refused = patch(&app, &path, Some(&ana), body.clone()).await;
        assert_eq!((refused.status, refused.detail()), (StatusCode::BAD_REQUEST, detail), "{body}");
    }

    // Who may: the author only; a missing post, a signed-out call, a field no post has.
    let bobs = patch(&app, &path, Some(&bob), json!({"caption": "mine now"})).await;
    assert_eq!((bobs.status, bobs.detail()), (StatusCode::FORBIDDEN, "You can only edit your own posts"));
    assert_eq!(patch(&app, &path, None, json!({"caption": "x"})).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(patch(&app, "/posts/12345", Some(&ana), json!({"caption": "x"})).await.status, StatusCode::NOT_FOUND);
    let unknown = patch(&app, &path, Some(&ana), json!({"title": "x"})).await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", unknown.body);
    assert!(unknown.detail().contains("unknown field `title`"), "{:?}", unknown.body);
    assert_eq!(app.get(&path, None).await.body["caption"], "with a caption", "nothing refused was written");

    // Audio: one title and artist for each track, none blank; composers are not an audio post's.
    let audio = app
        .post_form(
            "/posts/audio",
            Some(&ana),
            &[
                Part::file("audio_files", "one.wav", wav(0.5, 220.0, 0.3)),
                Part::file("audio_files", "two.wav", wav(0.5, 330.0, 0.3)),
            ],
        )
        .await;
    assert_eq!(audio.status, StatusCode::CREATED, "{:?}", audio.body);
    let audio_path = format!("/posts/{}", audio.body["id"].as_str().unwrap());
    let tracks =
        patch(&app, &audio_path, Some(&ana), json!({"titles": ["Intro", "Outro"], "artists": ["Ana", " The  Band "]}))
            .await;
    assert_eq!(tracks.status, StatusCode::OK, "{:?}", tracks.body);
    let shown: Vec<(&str, &str)> = tracks.body["audio"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["title"].as_str().unwrap(), t["artist"].as_str().unwrap()))
        .collect();
    assert_eq!(shown, [("Intro", "Ana"), ("Outro", "The Band")]);
    assert_eq!(tracks.body["audio"][0]["file_url"], audio.body["audio"][0]["file_url"], "files never change");
    assert_eq!(app.get(&audio_path, None).await.body["audio"], tracks.body["audio"]);
    for (body, detail) in [
        (json!({"titles": ["Only one"]}), "Send 2 titles, one for each track of the post"),
        (json!({"titles": ["", "Two"]}), "A title cannot be blank"),
        (json!({"artists": ["a", "\u{0}"]}), "Text cannot contain a NUL character"),
        (json!({"composers": ["x", "y"]}), "composers cannot be changed on an audio post"),
        (json!({"songTitle": "x"}), "songTitle, artistName and parts cannot be changed on an audio post"),
    ] {
        let refused = patch(&app, &audio_path, Some(&ana), body.clone()).await;
        assert_eq!((refused.status, refused.detail()), (StatusCode::BAD_REQUEST, detail), "{body}");
    }

    // Sheet music: titles and composers.
    let score = app
        .post_form(
            "/posts/musicxml",
            Some(&ana),
            &[Part::file("musicxml_files", "etude.musicxml", musicxml("Étude", "Clara"))],
        )
        .await;
    let score_path = format!("/posts/{}", score.body["id"].as_str().unwrap());
    let scored = patch(&app, &score_path, Some(&ana), json!({"composers": ["Clara Schumann"]})).await;
    assert_eq!(scored.status, StatusCode::OK, "{:?}", scored.body);
    assert_eq!(scored.body["musicxml"][0]["title"], "Étude");
    assert_eq!(scored.body["musicxml"][0]["composer"], "Clara Schumann");
    let refused = patch(&app, &score_path, Some(&ana), json!({"artists": ["x"]})).await;
    assert_eq!(refused.detail(), "artists cannot be changed on a sheet music post");

    // Pictures and video: the caption only; null or blank takes it away.
    let media = app
        .post_form(
            "/posts/media",
            Some(&ana),
            &[Part::file("files", "p.png", png(64, None)), Part::text("caption", "first")],
        )
        .await;
    let media_path = format!("/posts/{}", media.body["id"].as_str().unwrap());
    assert_eq!(media.body["caption"], "first");
    let cleared = patch(&app, &media_path, Some(&ana), json!({"caption": null})).await;
    assert_eq!((cleared.status, &cleared.body["caption"]), (StatusCode::OK, &Value::Null));
    assert!(cleared.body["edited_at"].is_string());
    let refused = patch(&app, &media_path, Some(&ana), json!({"titles": ["x"]})).await;
    assert_eq!(refused.detail(), "titles cannot be changed on a picture or video post");
    let profile = app.get(&format!("/posts/user/{}", media.body["user"]["id"].as_str().unwrap()), None).await;
    assert_eq!(profile.body[0]["caption"], Value::Null);
}

/// What one person has been told: the messages of their notifications of `kind`.
async fn told(app: &TestApp, token: &str, kind: &str) -> Vec<String> {
    let list = app.get("/notifications?limit=50&offset=0", Some(token)).await.body;
    list.as_array().unwrap().iter().filter(|n| n["type"] == kind).map(|n| n["message"].to_string()).collect()
}

async fn comment_edits_show_and_tell_new_mentions_once(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let (cara, _) = app.person("Cara", "cara@example.com").await;
    let (dan, dan_id) = app.person("Dan", "dan@example.com").await;
    let post = app.lyrics_post(&ana, "Song").await;
    let id = post["id"].as_str().unwrap();
    let made = app.post(&format!("/posts/{id}/comments"), Some(&bob), json!({"content": "hi @cara"})).await;
    let comment = made.body["comment"]["id"].as_str().unwrap().to_owned();
    let path = format!("/posts/{id}/comments/{comment}");
    assert_eq!(made.body["comment"]["edited_at"], Value::Null);
    assert_eq!(told(&app, &cara, "mention").await.len(), 1);
    // The comments page read before the edit, kept in memory, shows it at once.
    assert_eq!(app.get(&format!("/posts/{id}/comments"), None).await.body[0]["content"], "hi @cara");

    let edited = patch(&app, &path, Some(&bob), json!({"content": "  hi @cara and @dan "})).await;
    assert_eq!(edited.status, StatusCode::OK, "{:?}", edited.body);
    let c = &edited.body["comment"];
    assert_eq!(c["content"], "hi @cara and @dan");
    assert!(c["edited_at"].is_string());
    assert_eq!(c["created_at"], made.body["comment"]["created_at"]);
    let logins: Vec<&str> = c["mentions"].as_array().unwrap().iter().map(|m| m["login"].as_str().unwrap()).collect();
    assert_eq!(logins, ["cara", "dan"]);
    let list = app.get(&format!("/posts/{id}/comments"), None).await;
    assert_eq!(list.body[0], *c);
    assert_eq!(app.get(&format!("/posts/{id}"), None).await.body["comments_count"], 1, "an edit is not a new comment");
    assert_eq!(told(&app, &dan, "mention").await.len(), 1, "a new mention tells its person");
    assert_eq!(told(&app, &cara, "mention").await.len(), 1, "one mentioned before is not told again");
    let anas = app.get("/notifications?limit=50&offset=0", Some(&ana)).await.body;
    assert_eq!(anas.as_array().unwrap().len(), 1, "the post's author is told of the comment once: {anas:?}");

    // Dropped and added again: still told once. The mentions follow the text.
    let dropped = patch(&app, &path, Some(&bob), json!({"content": "hi @cara"})).await;
    assert_eq!(dropped.body["comment"]["mentions"].as_array().unwrap().len(), 1);
    let back = patch(&app, &path, Some(&bob), json!({"content": "hi @dan"})).await;
    assert_eq!(back.body["comment"]["mentions"][0]["user_id"], dan_id.as_str());
    assert_eq!(told(&app, &dan, "mention").await.len(), 1);
    let plain = patch(&app, &path, Some(&bob), json!({"content": "no one"})).await;
    assert_eq!(plain.body["comment"]["mentions"], json!([]));
    assert_eq!(app.get(&format!("/posts/{id}/comments"), None).await.body[0]["mentions"], json!([]));

    // The same text writes nothing.
    let same = patch(&app, &path, Some(&bob), json!({"content": "no one"})).await;
    assert_eq!(same.body["comment"]["edited_at"], plain.body["comment"]["edited_at"]);

    // Only its author; blank and too long are refused as for a new comment; a comment on
    // another post, or none, is not found.
    let anas_try = patch(&app, &path, Some(&ana), json!({"content": "moderated"})).await;
    assert_eq!((anas_try.status, anas_try.detail()), (StatusCode::FORBIDDEN, "You can only edit your own comments"));
    let blank = patch(&app, &path, Some(&bob), json!({"content": "  "})).await;
    assert_eq!((blank.status, blank.detail()), (StatusCode::BAD_REQUEST, "Write something before publishing"));
    let long = patch(&app, &path, Some(&bob), json!({"content": "x".repeat(2001)})).await;
    assert_eq!(long.status, StatusCode::BAD_REQUEST);
    let other = app.lyrics_post(&ana, "Other").await;
    let elsewhere = format!("/posts/{}/comments/{comment}", other["id"].as_str().unwrap());
    assert_eq!(patch(&app, &elsewhere, Some(&bob), json!({"content": "x"})).await.status, StatusCode::NOT_FOUND);
    assert_eq!(
        patch(&app, &format!("/posts/{id}/comments/999"), Some(&bob), json!({"content": "x"})).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(patch(&app, &path, None, json!({"content": "x"})).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.get(&format!("/posts/{id}/comments"), None).await.body[0]["content"], "no one");
}

/// A mention added by an edit passes no block: not to someone the post's author blocked.
async fn a_mention_added_by_an_edit_respects_blocks(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let (eve, eve_id) = app.person("Eve", "eve@example.com").await;
    let blocked = app.call(Method::POST, &format!("/profiles/blocks/{eve_id}"), Some(&ana), None).await;
    assert!(blocked.status.is_success(), "{:?}", blocked.body);
    let post = app.lyrics_post(&ana, "Song").await;
    let id = post["id"].as_str().unwrap();
    let made = app.post(&format!("/posts/{id}/comments"), Some(&bob), json!({"content": "hi"})).await;
    let path = format!("/posts/{id}/comments/{}", made.body["comment"]["id"].as_str().unwrap());
    let edited = patch(&app, &path, Some(&bob), json!({"content": "hi @eve"})).await;
    assert_eq!(edited.status, StatusCode::OK);
    assert!(told(&app, &eve, "mention").await.is_empty());
}

/// A comment tells at most ten people of their mentions over its life: edits that mention ten
/// others each tell nobody more (once, one comment edited twice told 30).
async fn edits_share_a_comments_cap_on_mentions_told(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let mut people = Vec::new();
    for i in 0..25 {
        people.push(app.person(&format!("P{i}"), &format!("pal{i:02}@example.com")).await.0);
    }
    let post = app.lyrics_post(&ana, "Song").await;
    let id = post["id"].as_str().unwrap();
    let mentioning = |from: usize, to: usize| (from..to).map(|i| format!("@pal{i:02}")).collect::<Vec<_>>().join(" ");
    let made = app.post(&format!("/posts/{id}/comments"), Some(&bob), json!({"content": mentioning(0, 8)})).await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    let path = format!("/posts/{id}/comments/{}", made.body["comment"]["id"].as_str().unwrap());
    for (from, to) in [(8, 15), (15, 25)] {
        let edited = patch(&app, &path, Some(&bob), json!({"content": mentioning(from, to)})).await;
        assert_eq!(edited.status, StatusCode::OK, "{:?}", edited.body);
        assert_eq!(edited.body["comment"]["mentions"].as_array().unwrap().len(), to - from, "every mention links");
    }
    let mut told_count = 0;
    for (i, token) in people.iter().enumerate() {
        let n = told(&app, token, "mention").await.len();
        assert!(n <= 1, "pal{i:02} told {n} times");
        assert_eq!(n == 1, i < 10, "pal{i:02}: the first ten named are told, in order");
        told_count += n;
    }
    assert_eq!(told_count, 10);
}

test_support::both_backends!(
    authors_edit_the_words_of_each_kind_of_post,
    comment_edits_show_and_tell_new_mentions_once,
    a_mention_added_by_an_edit_respects_blocks,
    edits_share_a_comments_cap_on_mentions_told,
);
