//! Reposts (issue 31; docs/posts.md, "Reposts"): a person passes someone else's post on to
//! their listeners, whose Listened to shows it at the time of the newest repost by someone they
//! listen to, once however many reposted it, "Reposted by" that person; the author is told once
//! per person and post; undo takes it back. Hidden posts and hidden reposters hide the repost;
//! paging by cursor or offset never shows a post twice.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;

use crate::common::{Answer, TestApp, make_admin, spawn_app};

impl TestApp {
    async fn repost(&self, token: &str, post: &str) -> Answer {
        self.post(&format!("/posts/{post}/repost"), Some(token), json!({})).await
    }

    /// (user_reposted, reposts_count) after a toggle that is answered 200.
    async fn reposted(&self, token: &str, post: &str) -> (bool, i64) {
        let a = self.repost(token, post).await;
        assert_eq!(a.status, StatusCode::OK, "{:?}", a.body);
        (a.body["user_reposted"].as_bool().unwrap(), a.body["reposts_count"].as_i64().unwrap())
    }

    async fn listen_to(&self, token: &str, id: &str) {
        let a = self.call(Method::POST, &format!("/profiles/listening/{id}"), Some(token), None).await;
        assert!(a.status.is_success(), "{:?}", a.body);
    }

    /// Listened to as `token` sees it: (post title, who reposted it) from the top, page by page
    /// of `limit` following each page's `Link`.
    async fn listened_by_cursor(&self, token: &str, limit: usize) -> Vec<(String, Option<String>)> {
        let mut seen = Vec::new();
        let mut path = format!("/posts/listened-to?limit={limit}");
        for _ in 0..20 {
            let page = self.get(&path, Some(token)).await;
            assert_eq!(page.status, StatusCode::OK, "{:?}", page.body);
            seen.extend(page.body.as_array().unwrap().iter().map(entry));
            let Some(link) = page.headers.get("link") else { break };
            let link = link.to_str().unwrap();
            path = link.trim_start_matches('<').split('>').next().unwrap().to_owned();
        }
        seen
    }

    /// The same by offset, as the spec's client pages.
    async fn listened_by_offset(&self, token: &str, limit: usize) -> Vec<(String, Option<String>)> {
        let mut seen = Vec::new();
        for page in 0..20 {
            let got = self.get(&format!("/posts/listened-to?limit={limit}&offset={}", page * limit), Some(token)).await;
            let posts = got.body.as_array().unwrap();
            seen.extend(posts.iter().map(entry));
            if posts.len() < limit {
                break;
            }
        }
        seen
    }
}

/// A lyrics post of Listened to as (its song title, the login of who reposted it).
fn entry(post: &Value) -> (String, Option<String>) {
    let title = post["lyrics"]["title"].as_str().unwrap().to_owned();
    (title, post["reposted_by"]["user"]["login"].as_str().map(str::to_owned))
}

fn e(title: &str, by: Option<&str>) -> (String, Option<String>) {
    (title.to_owned(), by.map(str::to_owned))
}

async fn a_repost_places_a_post_in_listeners_feeds_once(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let (cy, cy_id) = app.person("Cy", "cyd@example.com").await;
    let (me, _) = app.person("Me", "me@example.com").await;
    let id = |v: Value| v["id"].as_str().unwrap().to_owned();
    let one = id(app.lyrics_post(&ana, "One").await);
    let two = id(app.lyrics_post(&ana, "Two").await);
    app.lyrics_post(&ana, "Three").await;
    app.listen_to(&me, &bob_id).await;
    app.listen_to(&me, &cy_id).await;
    assert_eq!(app.listened_by_cursor(&me, 10).await, vec![], "Bob and Cy have posted nothing");

    assert_eq!(app.reposted(&bob, &one).await, (true, 1));
    assert_eq!(app.listened_by_cursor(&me, 10).await, vec![e("One", Some("bob"))]);
    assert_eq!(app.reposted(&cy, &one).await, (true, 2));
    assert_eq!(app.listened_by_cursor(&me, 10).await, vec![e("One", Some("cyd"))], "once, by the newest repost");
    assert_eq!(app.reposted(&bob, &two).await, (true, 1));
    assert_eq!(app.listened_by_cursor(&me, 10).await, vec![e("Two", Some("bob")), e("One", Some("cyd"))]);

    // Listening to the author too: her posts stand at their own places unless reposted.
    app.listen_to(&me, &ana_id).await;
    let expected = vec![e("Two", Some("bob")), e("One", Some("cyd")), e("Three", None)];
    for limit in [1, 2, 10] {
        assert_eq!(app.listened_by_cursor(&me, limit).await, expected, "by cursor, {limit} a page");
        assert_eq!(app.listened_by_offset(&me, limit).await, expected, "by offset, {limit} a page");
    }

    // The post carries its count and the viewer's own repost, on every answer.
    let post = app.get(&format!("/posts/{one}"), Some(&bob)).await.body;
    assert_eq!((post["reposts_count"].clone(), post["user_reposted"].clone()), (json!(2), json!(true)));
    let post = app.get(&format!("/posts/{one}"), Some(&me)).await.body;
    assert_eq!(post["user_reposted"], json!(false));
    assert!(post.get("reposted_by").is_none(), "only a feed says who placed it");
    for _ in 0..2 {
        // Twice: the second answered from memory, as it is.
        let feed = app.get("/posts/feed", Some(&bob)).await.body;
        let flags: Vec<(Value, Value)> = feed
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["lyrics"]["title"].clone(), p["user_reposted"].clone()))
            .collect();
        assert_eq!(
            flags,
            vec![(json!("Three"), json!(false)), (json!("Two"), json!(true)), (json!("One"), json!(true))]
        );
    }

    // Undone: the post goes back to its own place (Me listens to Ana), its count down.
    assert_eq!(app.reposted(&bob, &two).await, (false, 0));
    assert_eq!(app.get(&format!("/posts/{two}"), Some(&bob)).await.body["user_reposted"], json!(false));
    let expected = vec![e("One", Some("cyd")), e("Three", None), e("Two", None)];
    assert_eq!(app.listened_by_cursor(&me, 1).await, expected);
    assert_eq!(app.listened_by_offset(&me, 2).await, expected);

    // The author is told once per person and post, as of a like.
    assert_eq!(app.reposted(&bob, &two).await, (true, 1));
    let told = app.get("/notifications", Some(&ana)).await.body;
    let messages: Vec<(Value, Value, Value)> = told
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["type"] == json!("other"))
        .map(|n| (n["type"].clone(), n["username"].clone(), n["message"].clone()))
        .collect();
    assert_eq!(
        messages,
        vec![
            (json!("other"), json!("bob"), json!("reposted your post")),
            (json!("other"), json!("cyd"), json!("reposted your post")),
            (json!("other"), json!("bob"), json!("reposted your post")),
        ],
        "Bob's second repost of Two told nothing new"
    );

    // What cannot be reposted.
    let own = app.repost(&ana, &one).await;
    assert_eq!((own.status, own.detail()), (StatusCode::BAD_REQUEST, "You cannot repost your own post"));
    assert_eq!(app.repost(&bob, "123456789").await.status, StatusCode::NOT_FOUND);
    let anonymous = app.post(&format!("/posts/{one}/repost"), None, json!({})).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.get(&format!("/posts/{one}"), None).await.body["reposts_count"], json!(2));
}

async fn reposts_of_hidden_posts_or_by_hidden_people_are_hidden(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let (cy, cy_id) = app.person("Cy", "cyd@example.com").await;
    let (me, me_id) = app.person("Me", "me@example.com").await;
    let (rita, _) = app.person("Rita", "rita@example.com").await;
    make_admin(&app.db, "rita@example.com");
    let id = |v: Value| v["id"].as_str().unwrap().to_owned();
    let song = id(app.lyrics_post(&ana, "Song").await);
    app.listen_to(&me, &bob_id).await;
    app.listen_to(&me, &cy_id).await;
    assert_eq!(app.reposted(&bob, &song).await, (true, 1));
    assert_eq!(app.reposted(&cy, &song).await, (true, 2));
    assert_eq!(app.listened_by_cursor(&me, 10).await, vec![e("Song", Some("cyd"))]);

    // The newest reposter hidden from Me (a block either way): the one before places it.
    let blocked = app.call(Method::POST, &format!("/profiles/blocks/{cy_id}"), Some(&me), None).await;
    assert_eq!(blocked.status, StatusCode::OK, "{:?}", blocked.body);
    assert_eq!(app.listened_by_cursor(&me, 10).await, vec![e("Song", Some("bob"))]);
    assert_eq!(app.listened_by_offset(&me, 1).await, vec![e("Song", Some("bob"))]);

    // The post's author in a block pair with Me: no repost of it shows.
    let ana_blocks = app.call(Method::POST, &format!("/profiles/blocks/{me_id}"), Some(&ana), None).await;
    assert_eq!(ana_blocks.status, StatusCode::OK);
    assert_eq!(app.listened_by_cursor(&me, 10).await, vec![]);
    let lifted = app.call(Method::DELETE, &format!("/profiles/blocks/{me_id}"), Some(&ana), None).await;
    assert!(lifted.status.is_success());
    assert_eq!(app.listened_by_cursor(&me, 10).await, vec![e("Song", Some("bob"))]);

    // A deleted post takes its reposts with it.
    let tune = id(app.lyrics_post(&ana, "Tune").await);
    assert_eq!(app.reposted(&bob, &tune).await, (true, 1));
    assert_eq!(app.listened_by_cursor(&me, 1).await, vec![e("Tune", Some("bob")), e("Song", Some("bob"))]);
    let deleted = app.call(Method::DELETE, &format!("/posts/{tune}"), Some(&ana), None).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_eq!(app.listened_by_cursor(&me, 1).await, vec![e("Song", Some("bob"))]);
    assert_eq!(app.repost(&bob, &tune).await.status, StatusCode::NOT_FOUND);

    // An account deleted: the posts it reposted lose its count.
    let (dan, _) = app.person("Dan", "dan@example.com").await;
    assert_eq!(app.reposted(&dan, &song).await, (true, 3));
    let gone = app.call(Method::DELETE, "/authorization/me", Some(&dan), None).await;
    assert!(gone.status.is_success(), "{:?}", gone.body);
    assert_eq!(app.get(&format!("/posts/{song}"), None).await.body["reposts_count"], json!(2));

    // The reposter suspended: hidden while it stands.
    let suspended = app.post(&format!("/admin/users/{bob_id}/suspend"), Some(&rita), json!({"reason": "spam"})).await;
    assert!(suspended.status.is_success(), "{:?}", suspended.body);
    assert_eq!(app.listened_by_cursor(&me, 10).await, vec![]);
    let lifted = app.call(Method::DELETE, &format!("/admin/users/{bob_id}/suspend"), Some(&rita), None).await;
    assert!(lifted.status.is_success(), "{:?}", lifted.body);
    assert_eq!(app.listened_by_cursor(&me, 10).await, vec![e("Song", Some("bob"))]);

    // The author suspended: the post is hidden, so is every repost of it, and none is made.
    let suspended = app.post(&format!("/admin/users/{ana_id}/suspend"), Some(&rita), json!({"reason": "spam"})).await;
    assert!(suspended.status.is_success());
    assert_eq!(app.listened_by_cursor(&me, 10).await, vec![]);
    assert_eq!(app.repost(&me, &song).await.status, StatusCode::NOT_FOUND);
}

test_support::both_backends!(
    a_repost_places_a_post_in_listeners_feeds_once,
    reposts_of_hidden_posts_or_by_hidden_people_are_hidden
);
