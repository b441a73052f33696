//! The Profiles calls of spec §7 over HTTP, on SQLite and on PostgreSQL.

use crate::common::{Options, png_with_location, spawn_app, spawn_app_with};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;

const MUSICIAN: &str = "b361c6f9-9425-4548-8c07-cb408140c304";

async fn signed_out_calls_get_401(db: TestDb) {
    let app = spawn_app(db).await;
    let (_, id) = app.person("Bea", "bea@example.com").await;
    let calls = [
        (Method::GET, "/profile/me/profile".to_owned()),
        (Method::PATCH, "/profile/me".to_owned()),
        (Method::GET, "/profiles/listened".to_owned()),
        (Method::POST, format!("/profiles/listening/{id}")),
        (Method::DELETE, format!("/profiles/listening/{id}")),
        (Method::GET, "/profiles/blocks".to_owned()),
        (Method::GET, format!("/profiles/blocks/check/{id}")),
        (Method::POST, format!("/profiles/blocks/{id}")),
        (Method::DELETE, format!("/profiles/blocks/{id}")),
    ];
    for (method, path) in calls {
        let res = app.call(method.clone(), &path, None, Some(json!({}))).await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED, "{method} {path}");
        assert_eq!(res.detail(), "Not authenticated");
    }
    assert_eq!(app.upload_avatar(None, "avatar", "a.png", png_with_location(2)).await.status, StatusCode::UNAUTHORIZED);
}

async fn bad_ids_are_404_not_500(db: TestDb) {
    let app = spawn_app(db).await;
    let (token, _) = app.person("Ada", "ada@example.com").await;
    for bad in ["abc", "0", "-1", "99999999999999999999999", "1.5", "12345"] {
        for (method, path) in [
            (Method::GET, format!("/profiles/{bad}")),
            (Method::GET, format!("/profiles/{bad}/stats")),
            (Method::GET, format!("/profile/{bad}/stats")),
            (Method::POST, format!("/profiles/listening/{bad}")),
            (Method::DELETE, format!("/profiles/listening/{bad}")),
            (Method::GET, format!("/profiles/blocks/check/{bad}")),
            (Method::POST, format!("/profiles/blocks/{bad}")),
            (Method::DELETE, format!("/profiles/blocks/{bad}")),
        ] {
            let res = app.call(method.clone(), &path, Some(&token), None).await;
            assert_eq!(res.status, StatusCode::NOT_FOUND, "{method} {path}");
            assert!(!res.detail().is_empty());
        }
    }
}

async fn own_profile_edit_and_public_view(db: TestDb) {
    let app = spawn_app(db).await;
    let (ada, ada_id) = app.person("Ada", "ada@example.com").await;
    let (bea, _) = app.person("Bea", "bea@example.com").await;
    let body = json!({"name": "Ada L", "login": "@Ada.Love lace", "description": "I write songs", "tag_id": MUSICIAN});
    let res = app.call(Method::PATCH, "/profile/me", Some(&ada), Some(body)).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.body);
    assert_eq!(res.body["login"], "adalovelace");

    let own = app.get("/profile/me/profile", Some(&ada)).await;
    assert_eq!(own.body["email"], "ada@example.com");
    assert_eq!(own.body["stats"]["listenedTo"], 0);

    let public = app.get(&format!("/profiles/{ada_id}"), Some(&bea)).await;
    assert_eq!(public.status, StatusCode::OK);
    assert_eq!(public.body["id"], ada_id.as_str());
    assert_eq!(public.body["name"], "Ada L");
    assert_eq!(public.body["description"], "I write songs");
    assert_eq!(public.body["biography"], "I write songs");
    assert_eq!(public.body["tag_id"], MUSICIAN);
    // Issue 6 §10: `role` carries the tag's id (spec §3 reads role/tag_id/tag as the tag).
    assert_eq!(public.body["role"], MUSICIAN);
    assert_eq!(public.body["tag"]["color"], "#6D01D0");
    assert!(public.body.get("email").is_none(), "another person's address is never shown");
    let anonymous = app.get(&format!("/profiles/{ada_id}"), None).await;
    assert_eq!(anonymous.status, StatusCode::OK, "profiles are public");

    let cleared =
        app.call(Method::PATCH, "/profile/me", Some(&ada), Some(json!({"tag_id": null, "description": null}))).await;
    assert_eq!((cleared.body["tag_id"].clone(), cleared.body["description"].clone()), (json!(null), json!(null)));
    assert_eq!(cleared.body["name"], "Ada L", "fields left out stay");
    let me = app.get("/authorization/me", Some(&ada)).await;
    assert_eq!(me.body["login"], "adalovelace");
}

async fn profile_edit_rules(db: TestDb) {
    let app = spawn_app(db).await;
    let (ada, _) = app.person("Ada", "ada@example.com").await;
    app.person("Bea", "bea@example.com").await;
    let cases = [
        (json!({"login": "bea"}), StatusCode::CONFLICT),
        (json!({"login": "B.E.A"}), StatusCode::CONFLICT),
        (json!({"name": ""}), StatusCode::BAD_REQUEST),
        (json!({"name": "x".repeat(16)}), StatusCode::BAD_REQUEST),
        (json!({"login": "x".repeat(21)}), StatusCode::BAD_REQUEST),
        (json!({"login": "a/b"}), StatusCode::BAD_REQUEST),
        (json!({"description": "d".repeat(131)}), StatusCode::BAD_REQUEST),
        (json!({"tag_id": "not-a-tag"}), StatusCode::BAD_REQUEST),
        (json!({"name": 5}), StatusCode::UNPROCESSABLE_ENTITY),
        (json!({"tag_id": ["x"]}), StatusCode::UNPROCESSABLE_ENTITY),
        (json!("string"), StatusCode::UNPROCESSABLE_ENTITY),
    ];
    for (body, status) in cases {
        let res = app.call(Method::PATCH, "/profile/me", Some(&ada), Some(body.clone())).await;
        assert_eq!(res.status, status, "{body}: {:?}", res.body);
        assert!(!res.detail().is_empty());
    }
    let taken = app.call(Method::PATCH, "/profile/me", Some(&ada), Some(json!({"login": "bea"}))).await;
    assert_eq!(taken.detail(), "This login is already taken");
    let huge = app
        .raw(
            app.client
                .patch(format!("{}/profile/me", app.url))
                .bearer_auth(&ada)
                .header("content-type", "application/json")
                .body(format!("{{\"name\": \"{}\"}}", "x".repeat(100_000))),
        )
        .await;
    assert_eq!(huge.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(app.get("/profile/me/profile", Some(&ada)).await.body["name"], "Ada", "nothing changed");
}

async fn listening_changes_stats_and_is_idempotent(db: TestDb) {
    let app = spawn_app(db).await;
    let (ada, ada_id) = app.person("Ada", "ada@example.com").await;
    let (_, bea_id) = app.person("Bea", "bea@example.com").await;
    for _ in 0..2 {
        let res = app.call(Method::POST, &format!("/profiles/listening/{bea_id}"), Some(&ada), None).await;
        assert_eq!(res.status, StatusCode::OK);
        assert!(res.body["message"].is_string());
    }
    let stats = app.get(&format!("/profiles/{bea_id}/stats"), None).await;
    assert_eq!((stats.body["listeners"].clone(), stats.body["posts"].clone()), (json!(1), json!(0)));
    let mine = app.get(&format!("/profile/{ada_id}/stats"), Some(&ada)).await;
    assert_eq!((mine.body["listenedTo"].clone(), mine.body["listened_to"].clone()), (json!(1), json!(1)));
    let listened = app.get("/profiles/listened", Some(&ada)).await;
    assert_eq!(listened.body.as_array().unwrap().len(), 1);
    assert_eq!(listened.body[0]["id"], bea_id.as_str());
    // Her listeners and whom he listens to, signed out too: a page of cards and where it ends.
    let hers = app.get(&format!("/profiles/{bea_id}/listeners"), None).await;
    assert_eq!(hers.status, StatusCode::OK);
    assert_eq!(hers.body["people"][0]["id"], ada_id.as_str());
    assert_eq!(hers.body["people"][0]["login"], "ada");
    assert_eq!(hers.body["next"], Value::Null);
    let his = app.get(&format!("/profiles/{ada_id}/listened-to?limit=1"), Some(&ada)).await;
    assert_eq!(his.body["people"][0]["id"], bea_id.as_str());
    let odd = app.get(&format!("/profiles/{bea_id}/listeners?after=yesterday"), None).await;
    assert_eq!(
        (odd.status, odd.detail()),
        (StatusCode::BAD_REQUEST, "This page marker (after) is not one this server gave")
    );
    assert_eq!(app.get("/profiles/12345/listeners", None).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get("/profiles/nobody/listened-to", None).await.status, StatusCode::NOT_FOUND);

    let own = app.call(Method::POST, &format!("/profiles/listening/{ada_id}"), Some(&ada), None).await;
    assert_eq!((own.status, own.detail()), (StatusCode::BAD_REQUEST, "You cannot listen to yourself"));

    for _ in 0..2 {
        let res = app.call(Method::DELETE, &format!("/profiles/listening/{bea_id}"), Some(&ada), None).await;
        assert_eq!(res.status, StatusCode::OK);
    }
    assert_eq!(app.get(&format!("/profiles/{bea_id}/stats"), None).await.body["listeners"], 0);
}

async fn blocking_rules_over_http(db: TestDb) {
    let app = spawn_app(db).await;
    let (ada, ada_id) = app.person("Ada", "ada@example.com").await;
    let (bea, bea_id) = app.person("Bea", "bea@example.com").await;
    app.call(Method::POST, &format!("/profiles/listening/{bea_id}"), Some(&ada), None).await;
    app.call(Method::POST, &format!("/profiles/listening/{ada_id}"), Some(&bea), None).await;

    let res = app.call(Method::POST, &format!("/profiles/blocks/{bea_id}"), Some(&ada), None).await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(app.get(&format!("/profiles/blocks/check/{bea_id}"), Some(&ada)).await.body["is_blocked"], true);
    assert_eq!(app.get(&format!("/profiles/blocks/check/{ada_id}"), Some(&bea)).await.body["is_blocked"], false);
    for (who, id) in [(&ada, &ada_id), (&bea, &bea_id)] {
        let s = app.get(&format!("/profiles/{id}/stats"), Some(who)).await.body;
        assert_eq!(
            (s["listeners"].clone(), s["listenedTo"].clone()),
            (json!(0), json!(0)),
            "listening ended both ways"
        );
    }
    let denied = app.call(Method::POST, &format!("/profiles/listening/{ada_id}"), Some(&bea), None).await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN);
    assert_eq!(
        denied.detail(),
        "Cannot listen to this user because either you have blocked them or they have blocked you."
    );
    let denied = app.call(Method::POST, &format!("/profiles/listening/{bea_id}"), Some(&ada), None).await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN);

    let list = app.get("/profiles/blocks", Some(&ada)).await;
    assert_eq!(list.body.as_array().unwrap().len(), 1);
    assert_eq!(list.body[0]["login"], "bea");
    for field in ["id", "name", "login", "avatar_url"] {
        assert!(list.body[0].get(field).is_some(), "{field}");
    }
    let own = app.call(Method::POST, &format!("/profiles/blocks/{ada_id}"), Some(&ada), None).await;
    assert_eq!(own.status, StatusCode::BAD_REQUEST);

    assert_eq!(
        app.call(Method::DELETE, &format!("/profiles/blocks/{bea_id}"), Some(&ada), None).await.status,
        StatusCode::OK
    );
    assert_eq!(app.get("/profiles/blocks", Some(&ada)).await.body, json!([]));
    assert_eq!(
        app.call(Method::POST, &format!("/profiles/listening/{ada_id}"), Some(&bea), None).await.status,
        StatusCode::OK
    );
}

async fn search_over_http(db: TestDb) {
    let app = spawn_app(db).await;
    let (ada, ada_id) = app.person("Ada", "ada@example.com").await;
    let (_, bea_id) = app.person("Beatrice", "bea@example.com").await;
    app.person("Beau", "beau@example.com").await;
    app.call(Method::POST, &format!("/profiles/listening/{bea_id}"), Some(&ada), None).await;
    let res = app.get("/profiles/search?query=%20BEA%20", Some(&ada)).await;
    assert_eq!(res.status, StatusCode::OK);
    let hits = res.body.as_array().unwrap();
    assert_eq!(hits.len(), 2);
    let bea = hits.iter().find(|h| h["id"] == bea_id.as_str()).unwrap();
    assert_eq!(bea["active"], true);
    assert!(bea.get("email").is_some_and(|e| e.is_null()), "the field exists, the address is not disclosed");
    assert!(hits.iter().all(|h| h["id"] != ada_id.as_str()));
    let everyone = app.get("/profiles/search", None).await;
    assert_eq!(everyone.body.as_array().unwrap().len(), 3, "an empty query lists people");
    assert!(everyone.body.as_array().unwrap().iter().all(|h| h["active"] == false));
    assert_eq!(app.get("/profiles/search?query=zzz", None).await.body, json!([]));
    assert_eq!(app.get("/profiles/search?query=b&limit=1", None).await.body.as_array().unwrap().len(), 1);
    assert_eq!(app.get("/profiles/search?limit=abc", None).await.status, StatusCode::BAD_REQUEST);
    let long = format!("/profiles/search?query={}", "q".repeat(5000));
    assert_eq!(app.get(&long, None).await.status, StatusCode::OK);
}

async fn avatar_upload_is_checked_stored_and_served(db: TestDb) {
    let app = spawn_app(db).await;
    let (ada, ada_id) = app.person("Ada", "ada@example.com").await;
    let res = app.upload_avatar(Some(&ada), "avatar", "me.png", png_with_location(4)).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.body);
    let url = res.body["avatar_url"].as_str().unwrap().to_owned();
    assert!(url.starts_with(&format!("{}/media/avatars/{ada_id}/", app.url)), "{url}");

    let served = app.client.get(&url).send().await.unwrap();
    assert_eq!(served.status(), StatusCode::OK);
    assert_eq!(served.headers()["content-type"], "image/png");
    assert_eq!(served.headers()["x-content-type-options"], "nosniff");
    assert!(served.headers()["cache-control"].to_str().unwrap().contains("max-age"));
    let bytes = served.bytes().await.unwrap();
    assert!(bytes.starts_with(b"\x89PNG"));
    assert!(!String::from_utf8_lossy(&bytes).contains("51.5N"), "metadata is stripped before storing");
    let part = app.client.get(&url).header("range", "bytes=0-3").send().await.unwrap();
    assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(part.bytes().await.unwrap().as_ref(), b"\x89PNG");

    assert_eq!(app.get(&format!("/profiles/{ada_id}"), None).await.body["avatar_url"], url.as_str());
    assert_eq!(app.get("/authorization/me", Some(&ada)).await.body["avatar_url"], url.as_str());

    let second = app.upload_avatar(Some(&ada), "avatar", "again.png", png_with_location(3)).await;
    assert_eq!(second.status, StatusCode::OK);
    assert_eq!(app.client.get(&url).send().await.unwrap().status(), StatusCode::NOT_FOUND, "the old avatar is removed");
}

async fn avatar_upload_refusals(db: TestDb) {
    let app = spawn_app(db).await;
    let (ada, _) = app.person("Ada", "ada@example.com").await;
    let gif = app.upload_avatar(Some(&ada), "avatar", "looks-like.png", b"GIF89a\x01\x00\x01\x00".to_vec()).await;
    assert_eq!((gif.status, gif.detail()), (StatusCode::UNSUPPORTED_MEDIA_TYPE, "Please select a PNG or JPEG image"));
    let mut big = png_with_location(2);
    big.resize(5 * 1024 * 1024 + 10, 0);
    let big = app.upload_avatar(Some(&ada), "avatar", "big.png", big).await;
    assert_eq!((big.status, big.detail()), (StatusCode::PAYLOAD_TOO_LARGE, "Image must be smaller than 5MB"));
    let wrong_field = app.upload_avatar(Some(&ada), "file", "me.png", png_with_location(2)).await;
    assert_eq!(wrong_field.status, StatusCode::BAD_REQUEST);
    let broken = app.upload_avatar(Some(&ada), "avatar", "me.png", png_with_location(2)[..30].to_vec()).await;
    assert_eq!(broken.status, StatusCode::BAD_REQUEST);
    let not_multipart = app
        .raw(app.client.patch(format!("{}/profile/me/avatar", app.url)).bearer_auth(&ada).json(&json!({"avatar": "x"})))
        .await;
    assert_eq!(not_multipart.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // Issue 6 §10: never null; nothing changed, so still the default picture.
    let default_avatar = format!("{}/static/default-avatar-v1.svg", app.url);
    assert_eq!(app.get("/profile/me/profile", Some(&ada)).await.body["avatar_url"], default_avatar.as_str());
    assert_eq!(app.get("/media/avatars/nothing.png", None).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get("/media/../secrets/jwt-secret", None).await.status, StatusCode::NOT_FOUND);
}

/// Issue 16: avatars were stored and served as uploaded (a 40 Mpx PNG too). They are stored at
/// the size they are shown at: 512 px on the longer side, a JPEG, or a PNG when transparent.
async fn a_large_avatar_is_served_at_the_size_it_is_shown(db: TestDb) {
    let app = spawn_app(db).await;
    let (ada, _) = app.person("Ada", "ada@example.com").await;
    for (name, bytes, mime, size) in [
        ("photo.jpg", test_support::media::photo_jpeg(4000, 3000), "image/jpeg", (512, 384)),
        ("photo.png", test_support::media::transparent_png(3000, 4000), "image/png", (384, 512)),
    ] {
        let res = app.upload_avatar(Some(&ada), "avatar", name, bytes).await;
        assert_eq!(res.status, StatusCode::OK, "{name}: {:?}", res.body);
        let url = res.body["avatar_url"].as_str().unwrap().to_owned();
        let served = app.client.get(&url).send().await.unwrap();
        assert_eq!(served.status(), StatusCode::OK);
        assert_eq!(served.headers()["content-type"], mime, "{name}");
        let bytes = served.bytes().await.unwrap();
        let facts = media_validation::image_facts(&bytes, 10_000, 1 << 30).unwrap();
        assert_eq!((facts.width, facts.height), size, "{name}");
        assert!(bytes.len() < 100_000, "{name}: {} bytes", bytes.len());
    }
}

async fn deleting_an_account_updates_others_and_search(db: TestDb) {
    let app = spawn_app(db).await;
    let (ada, _) = app.person("Ada", "ada@example.com").await;
    let (bea, bea_id) = app.person("Bea", "bea@example.com").await;
    app.call(Method::POST, &format!("/profiles/listening/{bea_id}"), Some(&ada), None).await;
    let avatar = app.upload_avatar(Some(&ada), "avatar", "me.png", png_with_location(2)).await.body["avatar_url"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(app.get(&format!("/profiles/{bea_id}/stats"), None).await.body["listeners"], 1);
    assert_eq!(app.call(Method::DELETE, "/authorization/me", Some(&ada), None).await.status, StatusCode::OK);
    assert_eq!(app.get(&format!("/profiles/{bea_id}/stats"), None).await.body["listeners"], 0);
    assert_eq!(app.get("/profiles/search?query=ada", Some(&bea)).await.body, json!([]));
    assert_eq!(app.client.get(&avatar).send().await.unwrap().status(), StatusCode::NOT_FOUND, "the avatar went too");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn avatars_live_in_an_s3_bucket_when_configured() {
    let Some(s3) = test_support::s3::S3TestServer::start("selfsound-media").await else { return };
    let env = s3.env();
    let app = spawn_app_with(TestDb::sqlite(), Options { env, ..Options::default() }).await;
    let (ada, _) = app.person("Ada", "ada@example.com").await;
    let first = app.upload_avatar(Some(&ada), "avatar", "me.png", png_with_location(4)).await;
    assert_eq!(first.status, StatusCode::OK, "{:?}", first.body);
    let url = first.body["avatar_url"].as_str().unwrap().to_owned();
    let served = app.client.get(&url).header("range", "bytes=0-3").send().await.unwrap();
    assert_eq!(served.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(served.headers()["content-type"], "image/png");
    assert_eq!(served.bytes().await.unwrap().as_ref(), b"\x89PNG");
    assert!(!app.data_dir.path().join("media").exists(), "nothing went to the local folder");
    app.upload_avatar(Some(&ada), "avatar", "again.png", png_with_location(2)).await;
    assert_eq!(
        app.client.get(&url).send().await.unwrap().status(),
        StatusCode::NOT_FOUND,
        "the old one left the bucket"
    );
}

/// People searches are remembered, and follow everything that changes who is found: a new
/// account once its address is proved, a new name (found by it, no longer by the old), a new
/// picture, a suspension; the searcher is never among the people found.
async fn remembered_people_searches_follow_who_may_be_found(db: TestDb) {
    let app = spawn_app(db).await;
    let (rita, _) = app.person("Rita", "rita@example.com").await;
    crate::common::make_admin(&app.db, "rita@example.com");
    let (anna, anna_id) = app.person("Anna Bell", "anna@example.com").await;
    let found = |query: &'static str, token: Option<String>| {
        let app = &app;
        async move {
            let res = app.get(&format!("/profiles/search?query={query}"), token.as_deref()).await;
            assert_eq!(res.status, StatusCode::OK);
            res.body.as_array().unwrap().iter().map(|h| h["name"].as_str().unwrap().to_owned()).collect::<Vec<_>>()
        }
    };
    assert_eq!(found("ann", None).await, ["Anna Bell"]);
    assert_eq!(found("ann", None).await, ["Anna Bell"], "again, remembered");
    assert!(found("ann", Some(anna.clone())).await.is_empty(), "never oneself");

    app.verified_user("Annie", "annie@example.com").await;
    assert_eq!(found("ann", None).await, ["Anna Bell", "Annie"], "a proved address makes one findable");

    let renamed = app.call(Method::PATCH, "/profile/me", Some(&anna), Some(json!({"name": "Hanna"}))).await;
    assert_eq!(renamed.status, StatusCode::OK, "{:?}", renamed.body);
    assert_eq!(found("ann", None).await, ["Annie", "Hanna"]);
    assert_eq!(found("bell", None).await, Vec::<String>::new());
    assert_eq!(found("hanna", None).await, ["Hanna"]);

    let suspended = app.post(&format!("/admin/users/{anna_id}/suspend"), Some(&rita), json!({"reason": "spam"})).await;
    assert_eq!(suspended.status, StatusCode::OK);
    assert_eq!(found("ann", None).await, ["Annie"], "a suspended account is not found");
}

test_support::both_backends!(
    signed_out_calls_get_401,
    bad_ids_are_404_not_500,
    own_profile_edit_and_public_view,
    profile_edit_rules,
    listening_changes_stats_and_is_idempotent,
    blocking_rules_over_http,
    search_over_http,
    avatar_upload_is_checked_stored_and_served,
    avatar_upload_refusals,
    a_large_avatar_is_served_at_the_size_it_is_shown,
    deleting_an_account_updates_others_and_search,
    remembered_people_searches_follow_who_may_be_found,
);
