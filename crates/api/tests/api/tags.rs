//! Tags (issue 31; docs/posts.md, "Tags"): `#words` of captions and songs' lyrics, found whatever
//! their case and accents, on a page of the newest posts with the tag, paged by cursor without
//! duplicates, as each viewer may see them; an edit moves a post's tags, a delete takes them.

use reqwest::{Method, StatusCode};
use serde_json::json;
use test_support::TestDb;

use test_support::media::{musicxml, wav};

use crate::common::{Part, TestApp, lyrics_body, make_admin, spawn_app};

impl TestApp {
    /// The ids of a tag page as `token` sees it, and the query of its next page if it is full.
    async fn tagged(&self, token: Option<&str>, path: &str) -> (Vec<String>, Option<String>) {
        let got = self.get(path, token).await;
        assert_eq!(got.status, StatusCode::OK, "{path}: {:?}", got.body);
        let ids = got.body.as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap().to_owned()).collect();
        let next = got.headers.get("link").map(|v| {
            let v = v.to_str().unwrap();
            v[v.find('<').unwrap() + 1..v.find('>').unwrap()].to_owned()
        });
        (ids, next)
    }

    async fn captioned(&self, token: &str, caption: &str) -> String {
        let mut body = lyrics_body("Song");
        body["caption"] = json!(caption);
        let made = self.post("/posts/lyrics", Some(token), body).await;
        assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
        made.body["id"].as_str().unwrap().to_owned()
    }
}

async fn a_tag_page_lists_the_newest_posts_with_the_tag_whatever_its_accents(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let first = app.captioned(&ana, "Morning #Café session").await;
    let second = app.captioned(&bob, "Late #CAFE set, in C#m").await;
    let other = app.captioned(&ana, "Nothing tagged #1").await;
    // A song's lyrics name tags too.
    let mut song = lyrics_body("Sung");
    song["parts"] = json!([{"type": "verse", "lyrics": "la la #cafe la"}]);
    song["caption"] = json!(null);
    let sung = app.post("/posts/lyrics", Some(&bob), song).await.body["id"].as_str().unwrap().to_owned();

    for path in ["/posts/tags/cafe", "/posts/tags/Caf%C3%A9", "/posts/tags/CAFE"] {
        let (ids, next) = app.tagged(None, path).await;
        assert_eq!(ids, [sung.clone(), second.clone(), first.clone()], "{path}: newest first");
        assert_eq!(next, None);
    }
    for path in ["/posts/tags/1", "/posts/tags/cm", "/posts/tags/c", "/posts/tags/session"] {
        assert_eq!(app.tagged(None, path).await.0, Vec::<String>::new(), "{path}: no such tag");
    }
    // A word that can be no tag at all is an empty page, not an error.
    assert_eq!(app.tagged(None, "/posts/tags/no%20tag").await.0, Vec::<String>::new());
    let long = format!("/posts/tags/{}", "a".repeat(300));
    assert_eq!(app.tagged(None, &long).await.0, Vec::<String>::new());

    // Paged by cursor: two a page, then the rest, no post twice.
    let (page1, next) = app.tagged(None, "/posts/tags/cafe?limit=2").await;
    assert_eq!(page1, [sung.clone(), second.clone()]);
    let next = next.expect("a full page says where the next starts");
    assert!(next.starts_with("/posts/tags/cafe?"), "{next}");
    let (page2, _) = app.tagged(None, &next).await;
    assert_eq!(page2, vec![first.clone()]);

    // An edit moves the post's tags; a delete takes them.
    let edited = app
        .call(Method::PATCH, &format!("/posts/{other}"), Some(&ana), Some(json!({"caption": "Now #café too"})))
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{:?}", edited.body);
    let moved =
        app.call(Method::PATCH, &format!("/posts/{first}"), Some(&ana), Some(json!({"caption": "#jazz"}))).await;
    assert_eq!(moved.status, StatusCode::OK);
    // In the order the posts were made, however recently they were edited.
    assert_eq!(app.tagged(None, "/posts/tags/cafe").await.0, [sung.clone(), other.clone(), second.clone()]);
    assert_eq!(app.tagged(None, "/posts/tags/jazz").await.0, vec![first.clone()]);
    let gone = app.call(Method::DELETE, &format!("/posts/{second}"), Some(&bob), None).await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);
    assert_eq!(app.tagged(None, "/posts/tags/cafe").await.0, [sung, other]);
}

async fn a_tag_page_leaves_out_posts_a_viewer_may_not_see(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let (cy, _) = app.person("Cy", "cyd@example.com").await;
    let (rita, _) = app.person("Rita", "rita@example.com").await;
    make_admin(&app.db, "rita@example.com");
    let anas = app.captioned(&ana, "#folk one").await;
    let bobs = app.captioned(&bob, "#folk two").await;

    let blocked = app.call(Method::POST, &format!("/profiles/blocks/{bob_id}"), Some(&ana), None).await;
    assert_eq!(blocked.status, StatusCode::OK);
    assert_eq!(app.tagged(Some(&ana), "/posts/tags/folk").await.0, vec![anas.clone()], "the blocker");
    assert_eq!(app.tagged(Some(&bob), "/posts/tags/folk").await.0, vec![bobs.clone()], "the blocked");
    assert_eq!(app.tagged(Some(&cy), "/posts/tags/folk").await.0, [bobs.clone(), anas.clone()], "anyone else");
    // The cursor of a hidden post starts a page as well as any.
    let (after, _) = app.tagged(Some(&ana), &format!("/posts/tags/folk?before={bobs}")).await;
    assert_eq!(after, vec![anas.clone()]);

    let suspended = app.post(&format!("/admin/users/{ana_id}/suspend"), Some(&rita), json!({"reason": "spam"})).await;
    assert!(suspended.status.is_success(), "{:?}", suspended.body);
    assert_eq!(app.tagged(None, "/posts/tags/folk").await.0, vec![bobs.clone()], "a suspended author's posts go");
    assert_eq!(app.tagged(Some(&cy), "/posts/tags/folk").await.0, [bobs]);
}

async fn an_audio_post_has_a_genre_of_the_list_which_is_its_tag(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let track = || Part::file("audio_files", "Take.wav", wav(1.0, 440.0, 0.5));
    let made = app.post_form("/posts/audio", Some(&ana), &[track(), Part::text("genre", "hip-hop")]).await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    assert_eq!(made.body["genre"], json!("Hip-hop"));
    let post = made.body["id"].as_str().unwrap().to_owned();
    assert_eq!(app.tagged(None, "/posts/tags/hiphop").await.0, vec![post.clone()], "its genre is its tag");
    assert_eq!(app.get(&format!("/posts/{post}"), None).await.body["genre"], json!("Hip-hop"));

    // A genre not on the list, or on another kind of post, is refused before anything is stored.
    let polka = app.post_form("/posts/audio", Some(&ana), &[track(), Part::text("genre", "polka")]).await;
    assert_eq!(polka.status, StatusCode::BAD_REQUEST, "{:?}", polka.body);
    assert!(polka.detail().starts_with("Unknown genre: polka. Choose one of Acoustic"), "{}", polka.detail());
    let score = app
        .post_form(
            "/posts/musicxml",
            Some(&ana),
            &[Part::file("musicxml_files", "a.musicxml", musicxml("Étude", "Clara")), Part::text("genre", "Jazz")],
        )
        .await;
    assert_eq!((score.status, score.detail()), (StatusCode::BAD_REQUEST, "Only audio posts have a genre"));
    let posts = app.get("/posts/feed", None).await.body;
    assert_eq!(posts.as_array().unwrap().len(), 1, "neither was made");

    // Edited: another genre moves its tag; null takes it away; a lyrics post has none.
    let path = format!("/posts/{post}");
    let edit = |body: serde_json::Value| app.call(Method::PATCH, &path, Some(&ana), Some(body));
    let jazz = edit(json!({"genre": "JAZZ", "caption": "late #jazz"})).await;
    assert_eq!((jazz.status, jazz.body["genre"].clone()), (StatusCode::OK, json!("Jazz")), "{:?}", jazz.body);
    assert_eq!(app.tagged(None, "/posts/tags/hiphop").await.0, Vec::<String>::new());
    assert_eq!(app.tagged(None, "/posts/tags/jazz").await.0, vec![post.clone()], "once, however often it is named");
    let none = edit(json!({"genre": null})).await;
    assert_eq!(none.status, StatusCode::OK);
    assert!(none.body.get("genre").is_none(), "{:?}", none.body);
    assert_eq!(app.tagged(None, "/posts/tags/jazz").await.0, vec![post.clone()], "the caption still names it");
    let unknown = edit(json!({"genre": "polka"})).await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    let song = app.captioned(&ana, "words").await;
    let refused = app.call(Method::PATCH, &format!("/posts/{song}"), Some(&ana), Some(json!({"genre": "Jazz"}))).await;
    assert_eq!(
        (refused.status, refused.detail()),
        (StatusCode::BAD_REQUEST, "genre cannot be changed on a lyrics post")
    );
}

test_support::both_backends!(
    an_audio_post_has_a_genre_of_the_list_which_is_its_tag,
    a_tag_page_lists_the_newest_posts_with_the_tag_whatever_its_accents,
    a_tag_page_leaves_out_posts_a_viewer_may_not_see
);
