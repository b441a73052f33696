//! Playlists (issue 31; docs/posts.md, "Playlists"): a person makes named playlists, public or
//! private, of tracks and scores of any post they may see, in an order they choose; a playlist
//! has its page and appears among its owner's playlists. An item whose post is gone or hidden
//! leaves the playlist for that viewer and shows as no longer available to its owner; at most
//! 500 items a playlist.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;
use test_support::media::{musicxml, wav};

use crate::common::{Answer, Part, TestApp, make_admin, spawn_app};

impl TestApp {
    async fn playlist(&self, token: &str, body: Value) -> String {
        let made = self.post("/playlists", Some(token), body).await;
        assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
        made.body["id"].as_str().unwrap().to_owned()
    }

    async fn add(&self, token: &str, playlist: &str, post: &str, track: i64) -> Answer {
        self.post(&format!("/playlists/{playlist}/items"), Some(token), json!({"post_id": post, "track": track})).await
    }

    /// The items of a playlist as `token` sees it: (the track's title, whether available).
    async fn items(&self, token: Option<&str>, playlist: &str) -> Vec<(String, bool)> {
        let page = self.get(&format!("/playlists/{playlist}"), token).await;
        assert_eq!(page.status, StatusCode::OK, "{:?}", page.body);
        page.body["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                let track = i["track"].as_u64().unwrap() as usize;
                let post = &i["post"];
                let title =
                    post["audio"][track]["title"].as_str().or_else(|| post["musicxml"][track]["title"].as_str());
                (title.unwrap_or("-").to_owned(), i["available"].as_bool().unwrap())
            })
            .collect()
    }

    async fn item_ids(&self, token: &str, playlist: &str) -> Vec<String> {
        let page = self.get(&format!("/playlists/{playlist}"), Some(token)).await;
        page.body["items"].as_array().unwrap().iter().map(|i| i["id"].as_str().unwrap().to_owned()).collect()
    }
}

fn t(title: &str, available: bool) -> (String, bool) {
    (title.to_owned(), available)
}

async fn audio(app: &TestApp, token: &str, titles: &[&str]) -> String {
    let parts: Vec<Part> =
        titles.iter().map(|t| Part::file("audio_files", &format!("{t}.wav"), wav(0.5, 440.0, 0.4))).collect();
    let made = app.post_form("/posts/audio", Some(token), &parts).await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    made.body["id"].as_str().unwrap().to_owned()
}

async fn a_playlist_gathers_tracks_in_the_order_its_owner_chooses(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let mine = audio(&app, &ana, &["Intro", "Solo"]).await;
    let theirs = audio(&app, &bob, &["Groove"]).await;
    let score = app
        .post_form(
            "/posts/musicxml",
            Some(&bob),
            &[Part::file("musicxml_files", "e.musicxml", musicxml("Étude", "Clara"))],
        )
        .await;
    assert_eq!(score.status, StatusCode::CREATED, "{:?}", score.body);
    let score = score.body["id"].as_str().unwrap().to_owned();
    let lyrics = app.lyrics_post(&bob, "Words").await["id"].as_str().unwrap().to_owned();

    let list = app.playlist(&ana, json!({"title": "  Late night  ", "description": "for the drive"})).await;
    for (post, track) in [(&mine, 1), (&theirs, 0), (&score, 0), (&mine, 0)] {
        let added = app.add(&ana, &list, post, track).await;
        assert_eq!(added.status, StatusCode::CREATED, "{:?}", added.body);
        assert_eq!(added.body["available"], json!(true));
    }
    let page = app.get(&format!("/playlists/{list}"), None).await.body;
    assert_eq!((page["title"].clone(), page["description"].clone()), (json!("Late night"), json!("for the drive")));
    assert_eq!((page["public"].clone(), page["items_count"].clone()), (json!(true), json!(4)));
    assert_eq!(page["user"]["id"], json!(ana_id));
    let order = vec![t("Solo", true), t("Groove", true), t("Étude", true), t("Intro", true)];
    assert_eq!(app.items(None, &list).await, order, "anyone sees a public playlist");

    // What cannot be added.
    let cases: [(&str, i64, StatusCode, &str); 5] = [
        (&mine, 1, StatusCode::CONFLICT, "This track is already in the playlist"),
        (&mine, 2, StatusCode::BAD_REQUEST, "This post has no track 2"),
        (&lyrics, 0, StatusCode::BAD_REQUEST, "Only audio tracks and scores go in a playlist"),
        ("123456789", 0, StatusCode::NOT_FOUND, "Post not found"),
        (&theirs, -1, StatusCode::BAD_REQUEST, "This post has no track -1"),
    ];
    for (post, track, status, detail) in cases {
        let a = app.add(&ana, &list, post, track).await;
        assert_eq!((a.status, a.detail()), (status, detail), "{post} {track}");
    }
    let by_bob = app.add(&bob, &list, &theirs, 0).await;
    assert_eq!((by_bob.status, by_bob.detail()), (StatusCode::FORBIDDEN, "You can only change your own playlists"));

    // Moved: the first to the end, then the last to the front; then one removed.
    let ids = app.item_ids(&ana, &list).await;
    let moved = app
        .call(Method::PATCH, &format!("/playlists/{list}/items/{}", ids[0]), Some(&ana), Some(json!({"position": 9})))
        .await;
    assert_eq!(moved.status, StatusCode::NO_CONTENT, "{:?}", moved.body);
    assert_eq!(
        app.items(None, &list).await,
        vec![t("Groove", true), t("Étude", true), t("Intro", true), t("Solo", true)]
    );
    let moved = app
        .call(Method::PATCH, &format!("/playlists/{list}/items/{}", ids[3]), Some(&ana), Some(json!({"position": 0})))
        .await;
    assert_eq!(moved.status, StatusCode::NO_CONTENT);
    assert_eq!(
        app.items(None, &list).await,
        vec![t("Intro", true), t("Groove", true), t("Étude", true), t("Solo", true)]
    );
    let removed = app.call(Method::DELETE, &format!("/playlists/{list}/items/{}", ids[1]), Some(&ana), None).await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT);
    assert_eq!(app.items(None, &list).await, vec![t("Intro", true), t("Étude", true), t("Solo", true)]);
    let moved = app
        .call(Method::PATCH, &format!("/playlists/{list}/items/{}", ids[0]), Some(&ana), Some(json!({"position": 1})))
        .await;
    assert_eq!(moved.status, StatusCode::NO_CONTENT);
    assert_eq!(app.items(None, &list).await, vec![t("Intro", true), t("Solo", true), t("Étude", true)], "after a gap");
    let again = app.call(Method::DELETE, &format!("/playlists/{list}/items/{}", ids[1]), Some(&ana), None).await;
    assert_eq!((again.status, again.detail()), (StatusCode::NOT_FOUND, "This track is not in the playlist"));
    let negative = app
        .call(Method::PATCH, &format!("/playlists/{list}/items/{}", ids[0]), Some(&ana), Some(json!({"position": -1})))
        .await;
    assert_eq!(negative.status, StatusCode::BAD_REQUEST);

    // Private: only its owner sees it, on its page and among her playlists.
    let secret = app.playlist(&ana, json!({"title": "Drafts", "public": false})).await;
    assert_eq!(app.get(&format!("/playlists/{secret}"), Some(&bob)).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get(&format!("/playlists/{secret}"), None).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get(&format!("/playlists/{secret}"), Some(&ana)).await.status, StatusCode::OK);
    let titles = |body: &Value| body.as_array().unwrap().iter().map(|p| p["title"].clone()).collect::<Vec<_>>();
    assert_eq!(
        titles(&app.get(&format!("/playlists/user/{ana_id}"), Some(&ana)).await.body),
        vec![json!("Drafts"), json!("Late night")]
    );
    assert_eq!(
        titles(&app.get(&format!("/playlists/user/{ana_id}"), Some(&bob)).await.body),
        vec![json!("Late night")]
    );
    let paged = app.get(&format!("/playlists/user/{ana_id}?limit=1"), Some(&ana)).await;
    let next = paged.headers.get("link").unwrap().to_str().unwrap().to_owned();
    assert!(next.contains("limit=1&before="), "{next}");
    let bobs_edit =
        app.call(Method::PATCH, &format!("/playlists/{secret}"), Some(&bob), Some(json!({"title": "mine"}))).await;
    assert_eq!(bobs_edit.status, StatusCode::NOT_FOUND, "someone else's private playlist is not there");

    // Edited, then deleted.
    let edited = app
        .call(
            Method::PATCH,
            &format!("/playlists/{secret}"),
            Some(&ana),
            Some(json!({"title": "Ready", "description": null, "public": true})),
        )
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{:?}", edited.body);
    assert_eq!((edited.body["title"].clone(), edited.body["public"].clone()), (json!("Ready"), json!(true)));
    for (body, detail) in [
        (json!({"title": " "}), "A playlist needs a title"),
        (json!({"title": "x".repeat(101)}), "A playlist's title can be at most 100 characters"),
        (json!({"description": "x".repeat(1001)}), "A playlist's description can be at most 1000 characters"),
    ] {
        let a = app.call(Method::PATCH, &format!("/playlists/{secret}"), Some(&ana), Some(body)).await;
        assert_eq!((a.status, a.detail()), (StatusCode::BAD_REQUEST, detail));
    }
    let deleted = app.call(Method::DELETE, &format!("/playlists/{secret}"), Some(&ana), None).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_eq!(app.get(&format!("/playlists/{secret}"), Some(&ana)).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.post("/playlists", None, json!({"title": "x"})).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.get("/playlists/user/123456789", None).await.status, StatusCode::NOT_FOUND);
}

async fn an_item_gone_or_hidden_leaves_the_playlist_for_that_viewer(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let (cy, cy_id) = app.person("Cy", "cyd@example.com").await;
    let (rita, _) = app.person("Rita", "rita@example.com").await;
    make_admin(&app.db, "rita@example.com");
    let own = audio(&app, &ana, &["Mine"]).await;
    let bobs = audio(&app, &bob, &["Bobs"]).await;
    let cys = audio(&app, &cy, &["Cys"]).await;
    let list = app.playlist(&ana, json!({"title": "Mixed"})).await;
    for post in [&own, &bobs, &cys] {
        assert_eq!(app.add(&ana, &list, post, 0).await.status, StatusCode::CREATED);
    }
    let all = vec![t("Mine", true), t("Bobs", true), t("Cys", true)];
    assert_eq!(app.items(Some(&cy), &list).await, all);

    // Cy blocks Bob: Cy no longer sees Bob's track there; Ana still does.
    let blocked = app.call(Method::POST, &format!("/profiles/blocks/{bob_id}"), Some(&cy), None).await;
    assert_eq!(blocked.status, StatusCode::OK);
    assert_eq!(app.items(Some(&cy), &list).await, vec![t("Mine", true), t("Cys", true)]);
    assert_eq!(app.items(Some(&ana), &list).await, all);

    // Bob suspended: gone for everyone but the owner, who sees it as no longer available.
    let suspended = app.post(&format!("/admin/users/{bob_id}/suspend"), Some(&rita), json!({"reason": "spam"})).await;
    assert!(suspended.status.is_success(), "{:?}", suspended.body);
    assert_eq!(app.items(None, &list).await, vec![t("Mine", true), t("Cys", true)]);
    assert_eq!(app.items(Some(&ana), &list).await, vec![t("Mine", true), t("-", false), t("Cys", true)]);
    let page = app.get(&format!("/playlists/{list}"), Some(&ana)).await.body;
    assert_eq!(page["items"][1]["post"], Value::Null, "nothing of its content");
    let lifted = app.call(Method::DELETE, &format!("/admin/users/{bob_id}/suspend"), Some(&rita), None).await;
    assert!(lifted.status.is_success());

    // Cy deletes the post: the same.
    let deleted = app.call(Method::DELETE, &format!("/posts/{cys}"), Some(&cy), None).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_eq!(app.items(Some(&ana), &list).await, vec![t("Mine", true), t("Bobs", true), t("-", false)]);
    assert_eq!(app.items(None, &list).await, vec![t("Mine", true), t("Bobs", true)]);
    // A track one may not see cannot be added.
    let ana_blocks = app.call(Method::POST, &format!("/profiles/blocks/{bob_id}"), Some(&ana), None).await;
    assert_eq!(ana_blocks.status, StatusCode::OK);
    let other = app.playlist(&ana, json!({"title": "Other"})).await;
    assert_eq!(app.add(&ana, &other, &bobs, 0).await.status, StatusCode::NOT_FOUND);

    // The owner in a block pair with the viewer: the playlist is not there for them.
    let ana_blocks_cy = app.call(Method::POST, &format!("/profiles/blocks/{cy_id}"), Some(&ana), None).await;
    assert_eq!(ana_blocks_cy.status, StatusCode::OK);
    assert_eq!(app.get(&format!("/playlists/{list}"), Some(&cy)).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get(&format!("/playlists/user/{ana_id}"), Some(&cy)).await.body, json!([]));
    assert_eq!(app.get(&format!("/playlists/{list}"), None).await.status, StatusCode::OK);
}

async fn a_playlist_holds_at_most_500_tracks(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let post = audio(&app, &ana, &["One", "Two"]).await;
    let list = app.playlist(&ana, json!({"title": "Full"})).await;
    assert_eq!(app.add(&ana, &list, &post, 0).await.status, StatusCode::CREATED);
    // As if 499 more had been added.
    {
        use db::diesel::prelude::*;
        use db::schema::playlists;
        let id: i64 = list.parse().unwrap();
        db::diesel::update(playlists::table.filter(playlists::id.eq(id)))
            .set(playlists::items_count.eq(500_i64))
            .execute(&mut *app.db.get().unwrap())
            .unwrap();
    }
    let full = app.add(&ana, &list, &post, 1).await;
    assert_eq!((full.status, full.detail()), (StatusCode::BAD_REQUEST, "A playlist holds at most 500 tracks"));
}

test_support::both_backends!(
    a_playlist_gathers_tracks_in_the_order_its_owner_chooses,
    an_item_gone_or_hidden_leaves_the_playlist_for_that_viewer,
    a_playlist_holds_at_most_500_tracks
);
