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
    let mut shape = found[0].clone();
    assert!(shape.as_object_mut().unwrap().remove("search").is_some(), "why it was found, beside the post");
    assert_eq!(shape, app.get("/posts/feed?limit=10", None).await.body[2], "the feeds' shape");
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

/// The pieces of a post's snippet in `field`, its hits in [brackets].
fn snippet(post: &Value, field: &str) -> Option<String> {
    let matches = post["search"]["matches"].as_array()?;
    let found = matches.iter().find(|m| m["field"] == field)?;
    let pieces = found["snippet"].as_array()?.iter().map(|p| {
        let text = p["text"].as_str().unwrap();
        if p["hit"] == json!(true) { format!("[{text}]") } else { text.to_owned() }
    });
    Some(pieces.collect())
}

/// A score that sets words: one syllable a note, "Ave verum corpus natum de Maria" split as
/// a choir sings it.
fn motet() -> String {
    let syllables = [
        ("begin", "A"),
        ("end", "ve"),
        ("begin", "ve"),
        ("end", "rum"),
        ("begin", "cor"),
        ("end", "pus"),
        ("begin", "na"),
        ("end", "tum"),
    ];
    let notes: String = syllables
        .iter()
        .map(|(syllabic, text)| {
            format!(
                "<note><pitch><step>C</step><octave>4</octave></pitch><duration>1</duration><type>quarter</type>\
                 <lyric number=\"1\"><syllabic>{syllabic}</syllabic><text>{text}</text></lyric></note>"
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><score-partwise version=\"4.0\">\
         <work><work-title>Motet</work-title></work>\
         <part-list><score-part id=\"P1\"><part-name>Choir</part-name></score-part></part-list>\
         <part id=\"P1\"><measure number=\"1\"><attributes><divisions>1</divisions></attributes>{notes}</measure></part>\
         </score-partwise>"
    )
}

async fn search_says_why_a_post_was_found(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let song = app
        .post(
            "/posts/lyrics",
            Some(&ana),
            json!({"songTitle": "Harbour Lights", "artistName": "Ana Lima", "parts": [
                {"type": "verse", "lyrics": "Lights on the water\nCarry me home, where the river goes\nDown to the sea"},
                {"type": "chorus", "lyrics": "Harbour lights"}]}),
        )
        .await;
    assert_eq!(song.status, StatusCode::CREATED, "{:?}", song.body);
    let score =
        app.post_form("/posts/musicxml", Some(&ana), &[Part::file("musicxml_files", "motet.musicxml", motet())]).await;
    assert_eq!(score.status, StatusCode::CREATED, "{:?}", score.body);
    let (song_id, score_id) = (song.body["id"].as_str().unwrap(), score.body["id"].as_str().unwrap());

    // The line of the lyrics that has the words, each word marked.
    let found = find(&app, "q=carry+me+home+where+the+river+goes", None).await;
    assert_eq!(ids(&found), [song_id]);
    assert_eq!(found[0]["search"]["every_word"], json!(true));
    assert_eq!(snippet(&found[0], "lyrics").unwrap(), "[Carry] [me] [home], [where] [the] [river] [goes]");
    // Names first, then the words the names do not have; the last word by its start.
    let found = find(&app, "q=harbour+sea+ligh", None).await;
    assert_eq!(snippet(&found[0], "title").unwrap(), "[Harbour] [Lights]");
    assert_eq!(snippet(&found[0], "lyrics").unwrap(), "Down to the [sea]");

    // Words sung in a score are found, and said to be.
    let found = find(&app, "q=verum+natum", None).await;
    assert_eq!(ids(&found), [score_id]);
    assert_eq!(snippet(&found[0], "sung").unwrap(), "Ave [verum] corpus [natum]");

    // No post has every word: the posts with some of them, most words first, said as such.
    let quartet = app
        .post_form(
            "/posts/musicxml",
            Some(&ana),
            &[
                Part::file("musicxml_files", "q.musicxml", musicxml("String Quartet in G", "Joseph Haydn")),
                Part::text("titles", "String Quartet in G"),
            ],
        )
        .await;
    let sonata = app
        .post_form(
            "/posts/musicxml",
            Some(&ana),
            &[Part::file("musicxml_files", "s.musicxml", musicxml("Sonata", "Ludwig van Beethoven"))],
        )
        .await;
    let (quartet_id, sonata_id) = (quartet.body["id"].as_str().unwrap(), sonata.body["id"].as_str().unwrap());
    let found = find(&app, "q=beethoven+string+quartet", None).await;
    assert_eq!(ids(&found), [quartet_id, sonata_id], "two words before one, though older");
    assert!(found.as_array().unwrap().iter().all(|p| p["search"]["every_word"] == json!(false)));
    assert_eq!(snippet(&found[0], "title").unwrap(), "[String] [Quartet] in G");
    assert_eq!(snippet(&found[1], "composer").unwrap(), "Ludwig van [Beethoven]");
    // …in pages, as every search.
    let first = app.get("/posts/search?q=beethoven+string+quartet&limit=1", None).await;
    assert_eq!(ids(&first.body), [quartet_id]);
    assert!(first.headers.get("link").is_some());
    let next = find(&app, &format!("q=beethoven+string+quartet&limit=1&before={quartet_id}"), None).await;
    assert_eq!(ids(&next), [sonata_id]);
    let last = find(&app, &format!("q=beethoven+string+quartet&limit=1&before={sonata_id}"), None).await;
    assert!(last.as_array().unwrap().is_empty());
    // A search whose posts have every word ends where they do, without falling back.
    let found = find(&app, "q=string+quartet", None).await;
    assert_eq!(ids(&found), [quartet_id]);
    let past = find(&app, &format!("q=string+quartet&limit=1&before={quartet_id}"), None).await;
    assert!(past.as_array().unwrap().is_empty(), "{past}");
    // One word found nowhere finds nothing.
    assert!(find(&app, "q=zyzzyva", None).await.as_array().unwrap().is_empty());
    assert!(find(&app, "q=zyzzyva+qwxv", None).await.as_array().unwrap().is_empty());
    let _ = song_id;
}

test_support::both_backends!(search_says_why_a_post_was_found);

/// A score posted before scores' words were read (issue 34): the job migration 31 queues reads
/// them from its file, and the score is found by them.
async fn old_scores_are_found_by_their_sung_words_once_read(db: TestDb) {
    use db::diesel::prelude::*;
    use db::schema::post_scores;
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let score =
        app.post_form("/posts/musicxml", Some(&ana), &[Part::file("musicxml_files", "motet.musicxml", motet())]).await;
    assert_eq!(score.status, StatusCode::CREATED, "{:?}", score.body);
    let id: values::PostId = score.body["id"].as_str().unwrap().parse().unwrap();
    // As it was before: no words kept, none in its index entry.
    let mut conn = app.db.get().unwrap();
    db::diesel::update(post_scores::table.filter(post_scores::post_id.eq(id)))
        .set(post_scores::sung.eq(""))
        .execute(&mut *conn)
        .unwrap();
    db::diesel::sql_query(format!("DELETE FROM posts_search WHERE rowid = {}", id.get())).execute(&mut *conn).unwrap();
    assert_eq!(posts::search::index_missing(&mut conn).unwrap(), 1);
    drop(conn);
    // (A new search: what memory held of the last is of before.)
    assert!(find(&app, "q=natum&limit=3", None).await.as_array().unwrap().is_empty());
    assert_eq!(ids(&find(&app, "q=motet&limit=4", None).await), [id.to_string()]);

    // What migration 31 queues when scores exist.
    let mut conn = app.db.get().unwrap();
    let walk = db::jobs::NewJob {
        kind: values::JobKind::OldScores,
        subject: "after:0".into(),
        payload: "{\"after\":0}".into(),
        owner: None,
    };
    db::jobs::enqueue(&mut conn, &walk, None).unwrap();
    drop(conn);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let found = find(&app, "q=natum", None).await;
        if !found.as_array().unwrap().is_empty() {
            assert_eq!(ids(&found), [id.to_string()]);
            assert_eq!(snippet(&found[0], "sung").unwrap(), "Ave [verum] corpus [natum]".replace("[verum]", "verum"));
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the job never read the score's words");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

test_support::both_backends!(old_scores_are_found_by_their_sung_words_once_read);
