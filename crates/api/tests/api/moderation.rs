//! Reports and the admin panel through the API: who may call what, the report rules of spec §5,
//! resolving a complaint (the post, its files and its notifications go; the audit log says who),
//! analytics, and the admin role given by the command line.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;
use test_support::media::{musicxml, png};

use crate::common::{Options, Part, TestApp, person_in, spawn_app, spawn_app_with};

const ADMIN_CALLS: [(&str, &str); 5] = [
    ("GET", "/admin/reports"),
    ("POST", "/admin/reports/123/resolve"),
    ("GET", "/admin/analytics"),
    ("GET", "/admin/analytics/daily?days=7"),
    ("GET", "/admin/reports?status=pending"),
];

async fn call(app: &TestApp, method: &str, path: &str, token: Option<&str>) -> crate::common::Answer {
    let body = (method == "POST").then(|| json!({"action": "ignore"}));
    app.call(Method::from_bytes(method.as_bytes()).unwrap(), path, token, body).await
}

/// `selfsound admin VERB EMAIL` against the server's database, the way an operator runs it.
pub fn admin_command(app: &TestApp, verb: &str, email: &str) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_selfsound"))
        .args(["admin", verb, email])
        .env("DATABASE_URL", &app.db.url)
        .env("SELFSOUND_DATA_DIR", app.data_dir.path())
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

/// Gives (or takes) the admin role the way an operator does; answers what the command printed.
fn grant(app: &TestApp, email: &str, verb: &str) -> String {
    let out = admin_command(app, verb, email);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

async fn only_admins_use_the_admin_calls(db: TestDb) {
    let app = spawn_app(db).await;
    let (root, _) = app.person("Root", "root@example.com").await;
    for (method, path) in ADMIN_CALLS {
        assert_eq!(call(&app, method, path, None).await.status, StatusCode::UNAUTHORIZED, "{path}");
        let a = call(&app, method, path, Some(&root)).await;
        assert_eq!((a.status, a.detail()), (StatusCode::FORBIDDEN, "Admin access required"), "{path}");
    }
    assert_eq!(grant(&app, "ROOT@example.com", "grant"), "root@example.com is an admin now");
    assert_eq!(grant(&app, "root@example.com", "grant"), "root@example.com was an admin already");
    assert_eq!(app.get("/authorization/me", Some(&root)).await.body["is_admin"], true);
    assert_eq!(app.get("/admin/reports", Some(&root)).await.status, StatusCode::OK, "at once, same session");
    assert_eq!(app.get("/admin/analytics", Some(&root)).await.status, StatusCode::OK);
    assert_eq!(grant(&app, "root@example.com", "revoke"), "root@example.com is no longer an admin");
    assert_eq!(app.get("/admin/reports", Some(&root)).await.status, StatusCode::FORBIDDEN, "revoked at once");
}

async fn admin_emails_grant_the_role_at_start(db: TestDb) {
    let (root, _) = person_in(&db, "Root", "root@example.com");
    let env = vec![("ADMIN_EMAILS".to_owned(), "Root@example.com, not-yet@example.com".to_owned())];
    let app = spawn_app_with(db, Options { env, ..Options::default() }).await;
    assert_eq!(app.get("/admin/analytics", Some(&root)).await.status, StatusCode::OK);
}

async fn a_report_follows_the_rules_of_the_spec(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let post = app.post_form("/posts/media", Some(&ana), &[Part::file("files", "a.png", png(64, None))]).await;
    let id = post.body["id"].as_str().unwrap();
    let report =
        |reason: Value, description: Value| json!({"post_id": id, "reason": reason, "description": description});

    assert_eq!(
        app.post("/reports/post", None, report(json!("Spam"), Value::Null)).await.status,
        StatusCode::UNAUTHORIZED
    );
    for (reason, description) in
        [(json!("Other"), json!("  ")), (json!("Rude"), Value::Null), (Value::Null, Value::Null)]
    {
        let a = app.post("/reports/post", Some(&bob), report(reason, description)).await;
        assert_eq!((a.status, a.detail()), (StatusCode::BAD_REQUEST, "Please select or enter a reason."));
    }
    let own = app.post("/reports/post", Some(&ana), report(json!("Spam"), Value::Null)).await;
    assert_eq!((own.status, own.detail()), (StatusCode::BAD_REQUEST, "You cannot report your own post"));
    let missing =
        app.post("/reports/post", Some(&bob), json!({"post_id": "123", "reason": "Spam", "description": null})).await;
    assert_eq!((missing.status, missing.detail()), (StatusCode::NOT_FOUND, "Post not found"));
    let malformed = app.post("/reports/post", Some(&bob), json!({"reason": "Spam"})).await;
    assert_eq!(malformed.status, StatusCode::UNPROCESSABLE_ENTITY);

    let first = app.post("/reports/post", Some(&bob), report(json!("Other"), json!(" not their song "))).await;
    assert_eq!(first.status, StatusCode::CREATED, "{:?}", first.body);
    let again = app.post("/reports/post", Some(&bob), report(json!("Spam"), Value::Null)).await;
    assert_eq!(again.status, StatusCode::OK, "a repeat succeeds without a second report");
    let rows: i64 = {
        use db::diesel::prelude::*;
        db::schema::reports::table.count().get_result(&mut app.db.get().unwrap()).unwrap()
    };
    assert_eq!(rows, 1);
}

async fn deleting_the_post_of_a_complaint_takes_everything_and_is_audited(db: TestDb) {
    let app = spawn_app(db).await;
    let (root, _) = app.person("Root", "root@example.com").await;
    grant(&app, "root@example.com", "grant");
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let (cy, _) = app.person("Cy", "cyd@example.com").await;
    let post = app.post_form("/posts/media", Some(&ana), &[Part::file("files", "a.png", png(900, None))]).await;
    let id = post.body["id"].as_str().unwrap().to_owned();
    let file = post.body["media"][0]["file_url"].as_str().unwrap().to_owned();
    let display = post.body["media"][0]["display_url"].as_str().unwrap().to_owned();
    app.post(&format!("/posts/{id}/like"), Some(&bob), json!({})).await;
    app.post(&format!("/posts/{id}/comments"), Some(&cy), json!({"content": "@bob look"})).await;
    assert_eq!(app.get("/notifications", Some(&ana)).await.body.as_array().unwrap().len(), 2);

    for (token, reason) in [(&bob, "Spam"), (&cy, "Harassment")] {
        let filed =
            app.post("/reports/post", Some(token), json!({"post_id": id, "reason": reason, "description": null}));
        assert_eq!(filed.await.status, StatusCode::CREATED);
    }
    let other = app.lyrics_post(&ana, "S").await["id"].as_str().unwrap().to_owned();
    let fine =
        app.post("/reports/post", Some(&bob), json!({"post_id": other, "reason": "Other", "description": "meh"})).await;
    assert_eq!(fine.status, StatusCode::CREATED);

    let list = app.get("/admin/reports", Some(&root)).await.body;
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 3);
    let spam = list.iter().find(|c| c["reason"] == "Spam").unwrap();
    assert_eq!(spam["title"], "Spam: media post by @ana");
    assert!(spam["data"].as_str().unwrap().starts_with("Reported by Bob on "), "{spam}");
    assert_eq!(spam["reporter_name"], "Bob");
    assert_eq!(spam["status"], "pending");
    assert_eq!(spam["description"], Value::Null);
    assert_eq!(spam["post_id"], id.as_str());
    assert_eq!(spam["post_link"], format!("{}/app/post/{id}", app.url));
    assert_eq!(spam["post_exists"], true);
    let meh = list.iter().find(|c| c["reason"] == "Other").unwrap();
    assert_eq!(meh["description"], "meh");

    // Ignore one; delete the post of another: both reports on it close.
    let ignore = app
        .post(
            &format!("/admin/reports/{}/resolve", meh["id"].as_str().unwrap()),
            Some(&root),
            json!({"action": "ignore"}),
        )
        .await;
    assert_eq!((ignore.status, ignore.body["message"].as_str()), (StatusCode::OK, Some("Report ignored successfully")));
    let path = format!("/admin/reports/{}/resolve", spam["id"].as_str().unwrap());
    let bad = app.post(&path, Some(&root), json!({"action": "ban"})).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let deleted = app.post(&path, Some(&root), json!({"action": "delete_post"})).await;
    assert_eq!(
        (deleted.status, deleted.body["message"].as_str()),
        (StatusCode::OK, Some("Report deleted successfully"))
    );
    assert_eq!(deleted.body["resolved"].as_array().unwrap().len(), 2);
    assert_eq!(app.post(&path, Some(&root), json!({"action": "ignore"})).await.status, StatusCode::CONFLICT);

    // The post, its files and its notifications are gone; other posts stay.
    assert_eq!(app.get(&format!("/posts/{id}"), None).await.status, StatusCode::NOT_FOUND);
    for url in [&file, &display] {
        assert_eq!(app.client.get(url).send().await.unwrap().status(), StatusCode::NOT_FOUND, "{url}");
    }
    let feed = app.get("/posts/feed", None).await.body;
    assert_eq!(
        feed.as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect::<Vec<_>>(),
        vec![other.as_str()]
    );
    assert!(app.get("/notifications", Some(&ana)).await.body.as_array().unwrap().is_empty());
    assert!(app.get("/notifications", Some(&bob)).await.body.as_array().unwrap().is_empty(), "the mention too");

    // The complaints say what happened, and who did it. The list without a status is the
    // to-do list: pending complaints only (the spec's client reloads it after each decision).
    let pending = app.get("/admin/reports?status=pending", Some(&root)).await.body;
    assert!(pending.as_array().unwrap().is_empty());
    assert_eq!(app.get("/admin/reports", Some(&root)).await.body, json!([]));
    assert_eq!(app.get("/admin/reports?status=all", Some(&root)).await.body.as_array().unwrap().len(), 3);
    let resolved = app.get("/admin/reports?status=resolved", Some(&root)).await.body;
    let resolved = resolved.as_array().unwrap();
    assert_eq!(resolved.len(), 3);
    let spam = resolved.iter().find(|c| c["reason"] == "Spam").unwrap();
    assert_eq!((spam["status"].as_str(), spam["post_exists"].as_bool()), (Some("deleted"), Some(false)));
    assert_eq!(spam["audit"][0]["action"], "delete_post");
    assert_eq!(spam["audit"][0]["admin_login"], "root_user", "the login sign-up would give root@");
    assert!(spam["resolved_at"].is_string());
    assert_eq!(app.get("/admin/reports?status=odd", Some(&root)).await.status, StatusCode::BAD_REQUEST);

    // Sheet music is called a score, not a "musicxml post".
    let files = [Part::file("musicxml_files", "etude.musicxml", musicxml("Étude", "Clara"))];
    let score = app.post_form("/posts/musicxml", Some(&ana), &files).await.body["id"].as_str().unwrap().to_owned();
    let filed = app.post("/reports/post", Some(&bob), json!({"post_id": score, "reason": "Spam", "description": null}));
    assert_eq!(filed.await.status, StatusCode::CREATED);
    let list = app.get("/admin/reports", Some(&root)).await.body;
    let complaint = list.as_array().unwrap().iter().find(|c| c["post_id"] == score.as_str()).unwrap().clone();
    assert_eq!(complaint["title"], "Spam: score by @ana");
}

async fn analytics_count_the_site(db: TestDb) {
    let app = spawn_app(db).await;
    let (root, _) = app.person("Root", "root@example.com").await;
    grant(&app, "root@example.com", "grant");
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let post = app.lyrics_post(&ana, "S").await;
    let id = post["id"].as_str().unwrap();
    app.post(&format!("/posts/{id}/like"), Some(&root), json!({})).await;
    app.post(&format!("/posts/{id}/comments"), Some(&root), json!({"content": "nice"})).await;
    app.post("/reports/post", Some(&root), json!({"post_id": id, "reason": "Spam", "description": null})).await;

    let cards = app.get("/admin/analytics", Some(&root)).await.body;
    let card = |title: &str| {
        cards.as_array().unwrap().iter().find(|c| c["posts_title"] == title).unwrap_or_else(|| panic!("{title}"))["posts_data"]
            .as_i64()
            .unwrap()
    };
    assert_eq!(
        [card("Users"), card("New users (7 days)"), card("Posts"), card("Lyrics posts"), card("Audio posts")],
        [2, 2, 1, 1, 0]
    );
    assert_eq!([card("Posts today"), card("Comments"), card("Likes"), card("Open reports")], [1, 1, 1, 1]);

    let days = app.get("/admin/analytics/daily?days=7", Some(&root)).await.body;
    let days = days.as_array().unwrap();
    assert_eq!(days.len(), 7);
    let today = days.last().unwrap();
    assert_eq!(today["date"], chrono::Utc::now().date_naive().format("%Y-%m-%d").to_string());
    assert_eq!(
        (today["sign_ups"].as_i64(), today["posts"].as_i64(), today["reports"].as_i64()),
        (Some(2), Some(1), Some(1))
    );
    assert_eq!(app.get("/admin/analytics/daily?days=abc", Some(&root)).await.status, StatusCode::BAD_REQUEST);
}

/// A client that routes with `#/` (the original SelfSound client) gets complaints whose post
/// link opens the post there (`SELFSOUND_POST_LINK`), not its home feed.
#[tokio::test]
async fn a_complaints_post_link_follows_the_configured_client() {
    let env = vec![("SELFSOUND_POST_LINK".into(), "https://client.example/#/post/{id}".into())];
    let app = spawn_app_with(TestDb::sqlite(), Options { env, ..Options::default() }).await;
    let (root, _) = app.person("Root", "root@example.com").await;
    grant(&app, "root@example.com", "grant");
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let id = app.lyrics_post(&ana, "Song").await["id"].as_str().unwrap().to_owned();
    let filed = app.post("/reports/post", Some(&bob), json!({"post_id": id, "reason": "Spam"})).await;
    assert_eq!(filed.status, StatusCode::CREATED);
    let complaint = app.get("/admin/reports", Some(&root)).await.body[0].clone();
    assert_eq!(complaint["post_link"], format!("https://client.example/#/post/{id}"));
    let groups = app.get("/admin/reports/groups", Some(&root)).await.body;
    assert_eq!(groups[0]["post_link"], format!("https://client.example/#/post/{id}"), "{groups}");
}

test_support::both_backends!(
    only_admins_use_the_admin_calls,
    admin_emails_grant_the_role_at_start,
    a_report_follows_the_rules_of_the_spec,
    deleting_the_post_of_a_complaint_takes_everything_and_is_audited,
    analytics_count_the_site,
);
