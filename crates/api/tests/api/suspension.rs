//! Suspending an account (issue 16): who may, what it does at once (sessions and live streams
//! end, sign-in answers 403), what it hides while it stands (posts, comments, notifications,
//! search) and what comes back when it is lifted; the audit log. And live streams that end
//! within moments of their session, however it ends — in one process and across two.

use std::time::{Duration, Instant};

use db::diesel::prelude::*;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;

use crate::common::{JWT_SECRET, PASSWORD, TestApp, lyrics_body, make_admin, person_in, spawn_app, start_process};

async fn suspend(app: &TestApp, admin: &str, user: &str, body: Value) -> crate::common::Answer {
    app.post(&format!("/admin/users/{user}/suspend"), Some(admin), body).await
}

async fn lift(app: &TestApp, admin: &str, user: &str) -> crate::common::Answer {
    app.call(Method::DELETE, &format!("/admin/users/{user}/suspend"), Some(admin), None).await
}

async fn only_admins_suspend_and_never_an_admin(db: TestDb) {
    let app = spawn_app(db).await;
    let (rita, rita_id) = app.person("Rita", "rita@example.com").await;
    let (other_admin, other_admin_id) = app.person("Ops", "ops@example.com").await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    make_admin(&app.db, "rita@example.com");
    make_admin(&app.db, "ops@example.com");
    let path = format!("/admin/users/{ana_id}/suspend");
    let reason = json!({"reason": "spam wave"});

    // Signed out 401, anyone else 403, on every call.
    for token in [None, Some(ana.as_str())] {
        let want = if token.is_none() { StatusCode::UNAUTHORIZED } else { StatusCode::FORBIDDEN };
        assert_eq!(app.call(Method::POST, &path, token, Some(reason.clone())).await.status, want);
        assert_eq!(app.call(Method::DELETE, &path, token, None).await.status, want);
        assert_eq!(app.get(&path, token).await.status, want);
        assert_eq!(app.get("/admin/users/suspended", token).await.status, want);
    }
    let refused = app.call(Method::POST, &path, Some(&ana), Some(reason.clone())).await;
    assert_eq!(refused.detail(), "Admin access required");

    // Unknown people 404; bad reasons 400; admins (oneself included) 409 with a clear detail.
    assert_eq!(suspend(&app, &rita, "123456789", reason.clone()).await.status, StatusCode::NOT_FOUND);
    assert_eq!(lift(&app, &rita, "123456789").await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get("/admin/users/123456789/suspend", Some(&rita)).await.status, StatusCode::NOT_FOUND);
    for (body, detail) in [
        (json!({}), "Please give a reason for the suspension."),
        (json!({"reason": "   "}), "Please give a reason for the suspension."),
        (json!({"reason": "x".repeat(501)}), "The reason is too long (at most 500 characters)"),
        (json!({"reason": "spam\u{0}"}), "Text cannot contain a NUL character"),
    ] {
        let a = suspend(&app, &rita, &ana_id, body).await;
        assert_eq!((a.status, a.detail()), (StatusCode::BAD_REQUEST, detail));
    }
    let own = suspend(&app, &rita, &rita_id, reason.clone()).await;
    assert_eq!((own.status, own.detail()), (StatusCode::CONFLICT, "You cannot suspend your own account"));
    let admin = suspend(&app, &rita, &other_admin_id, reason.clone()).await;
    assert_eq!(
        (admin.status, admin.detail()),
        (StatusCode::CONFLICT, "An admin's account cannot be suspended. Revoke the admin role first.")
    );
    let not_yet = lift(&app, &rita, &ana_id).await;
    assert_eq!((not_yet.status, not_yet.detail()), (StatusCode::CONFLICT, "This account is not suspended"));
    assert_eq!(app.get(&path, Some(&rita)).await.body, json!({"suspended": false, "suspension": null}));

    // Suspended: the answer says by whom and why; twice is a conflict.
    let done = suspend(&app, &rita, &ana_id, json!({"reason": "  spam wave  "})).await;
    assert_eq!(done.status, StatusCode::OK, "{:?}", done.body);
    let s = &done.body["suspension"];
    assert_eq!((done.body["suspended"].clone(), s["reason"].clone()), (json!(true), json!("spam wave")));
    assert_eq!((s["user"]["login"].as_str(), s["admin_login"].as_str()), (Some("ana"), Some("rita")));
    assert_eq!(s["admin_id"], rita_id.as_str());
    assert!(s["suspended_at"].as_str().unwrap().ends_with('Z'));
    let again = suspend(&app, &other_admin, &ana_id, reason.clone()).await;
    assert_eq!((again.status, again.detail()), (StatusCode::CONFLICT, "This account is already suspended"));
    assert_eq!(app.get(&path, Some(&other_admin)).await.body["suspension"]["reason"], "spam wave");

    // Lifted: 204, once.
    assert_eq!(lift(&app, &other_admin, &ana_id).await.status, StatusCode::NO_CONTENT);
    assert_eq!(lift(&app, &other_admin, &ana_id).await.status, StatusCode::CONFLICT);
}

async fn the_suspended_list_pages_newest_first(db: TestDb) {
    let app = spawn_app(db).await;
    let (rita, _) = app.person("Rita", "rita@example.com").await;
    make_admin(&app.db, "rita@example.com");
    let mut ids = Vec::new();
    for i in 0..5 {
        let (_, id) = app.person(&format!("P{i}"), &format!("person{i}@example.com")).await;
        assert_eq!(suspend(&app, &rita, &id, json!({"reason": format!("r{i}")})).await.status, StatusCode::OK);
        // Suspension ids order by the millisecond.
        tokio::time::sleep(Duration::from_millis(2)).await;
        ids.push(id);
    }
    let first = app.get("/admin/users/suspended?limit=3", Some(&rita)).await.body;
    let logins: Vec<&str> = first.as_array().unwrap().iter().map(|s| s["user"]["login"].as_str().unwrap()).collect();
    assert_eq!(logins, ["person4", "person3", "person2"], "the latest first");
    let cursor = first[2]["id"].as_str().unwrap();
    let rest = app.get(&format!("/admin/users/suspended?limit=3&before={cursor}"), Some(&rita)).await.body;
    let logins: Vec<&str> = rest.as_array().unwrap().iter().map(|s| s["user"]["login"].as_str().unwrap()).collect();
    assert_eq!(logins, ["person1", "person0"]);
    assert_eq!(rest[1]["reason"], "r0");
    let bad = app.get("/admin/users/suspended?before=yesterday", Some(&rita)).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    lift(&app, &rita, &ids[4]).await;
    assert_eq!(app.get("/admin/users/suspended", Some(&rita)).await.body.as_array().unwrap().len(), 4);
}

/// The logins of a list of posts' authors.
fn authors(posts: &Value) -> Vec<String> {
    posts.as_array().unwrap().iter().map(|p| p["user"]["login"].as_str().unwrap_or_default().to_owned()).collect()
}

async fn a_suspension_signs_out_hides_and_comes_back_when_lifted(db: TestDb) {
    let app = spawn_app(db).await;
    let (rita, rita_id) = app.person("Rita", "rita@example.com").await;
    make_admin(&app.db, "rita@example.com");
    // Ana signs up and in for real: her password must be refused while she is suspended.
    let ana = app.verified_user("Ana", "ana@example.com").await;
    let ana_id = app.get("/authorization/me", Some(&ana)).await.body["id"].as_str().unwrap().to_owned();
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let anas = app.lyrics_post(&ana, "Ana's song").await["id"].as_str().unwrap().to_owned();
    let bobs = app.lyrics_post(&bob, "Bob's song").await["id"].as_str().unwrap().to_owned();
    let said = app.post(&format!("/posts/{bobs}/comments"), Some(&ana), json!({"content": "love it @bob"})).await;
    assert_eq!(said.status, StatusCode::CREATED);
    app.post(&format!("/posts/{bobs}/like"), Some(&ana), json!({})).await;
    app.post(&format!("/posts/{bobs}/comments"), Some(&rita), json!({"content": "same"})).await;
    let report = app.post("/reports/post", Some(&bob), json!({"post_id": anas, "reason": "Spam"})).await;
    assert_eq!(report.status, StatusCode::CREATED);
    let complaint = app.get("/admin/reports", Some(&rita)).await.body[0]["id"].as_str().unwrap().to_owned();

    let seen = |who: Option<String>| {
        let app = &app;
        let (anas, bobs) = (anas.clone(), bobs.clone());
        let ana_id = ana_id.clone();
        async move {
            let t = who.as_deref();
            (
                authors(&app.get("/posts/feed?limit=10", t).await.body),
                app.get(&format!("/posts/user/{ana_id}"), t).await.body.as_array().map_or(0, Vec::len),
                app.get(&format!("/posts/{anas}"), t).await.status,
                app.get(&format!("/posts/{bobs}/comments"), t).await.body.as_array().unwrap().len(),
                app.get("/profiles/search?query=ana", t).await.body.as_array().unwrap().len(),
            )
        }
    };
    let before = (vec!["bob".to_owned(), "ana".to_owned()], 1, StatusCode::OK, 2, 1);
    assert_eq!(seen(Some(bob.clone())).await, before);
    // Ana's mention and like, Rita's comment.
    assert_eq!(app.get("/notifications/unread-count", Some(&bob)).await.body["unread"], 3);

    // A complaint about someone else's post cannot be given as the reason.
    let (cy, cy_id) = app.person("Cy", "cyd@example.com").await;
    let wrong = suspend(&app, &rita, &cy_id, json!({"reason": "no", "report_id": complaint})).await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST, "{:?}", wrong.body);
    let done = suspend(&app, &rita, &ana_id, json!({"reason": "spam", "report_id": complaint})).await;
    assert_eq!(done.status, StatusCode::OK, "{:?}", done.body);

    // Every session ends at once, and no new one starts, whatever the way in.
    assert_eq!(app.get("/authorization/me", Some(&ana)).await.status, StatusCode::UNAUTHORIZED);
    let signed_in = app.log_in("ana@example.com", PASSWORD).await;
    assert_eq!((signed_in.status, signed_in.detail()), (StatusCode::FORBIDDEN, "This account is suspended"));
    let wrong_password = app.log_in("ana@example.com", "Wrong#Password1").await;
    assert_eq!(wrong_password.status, StatusCode::UNAUTHORIZED, "only the right password learns of it");

    // Out of sight everywhere, for everyone; other people's counters keep counting.
    let hidden = (vec!["bob".to_owned()], 0, StatusCode::NOT_FOUND, 1, 0);
    assert_eq!(seen(Some(bob.clone())).await, hidden);
    assert_eq!(seen(None).await, hidden);
    let post = app.get(&format!("/posts/{bobs}"), Some(&bob)).await.body;
    assert_eq!((post["likes_count"].as_i64(), post["comments_count"].as_i64()), (Some(1), Some(2)));
    let notes = app.get("/notifications", Some(&bob)).await.body;
    assert!(notes.as_array().unwrap().iter().all(|n| n["username"] != "ana"), "{notes:#?}");
    assert_eq!(app.get("/notifications/unread-count", Some(&bob)).await.body["unread"], 1, "Rita's comment");
    assert_eq!(app.get("/posts/users/search?q=ana", Some(&cy)).await.body, json!([]));
    let like = app.post(&format!("/posts/{anas}/like"), Some(&bob), json!({})).await;
    assert_eq!(like.status, StatusCode::NOT_FOUND, "nothing to do with a hidden post");

    // The audit log: the complaint's details show it, and the row keeps the reason.
    let complaints = app.get("/admin/reports", Some(&rita)).await.body;
    let audit = &complaints[0]["audit"];
    assert_eq!(audit[0]["action"], "suspend", "{complaints:#?}");
    assert_eq!(audit[0]["admin_id"], rita_id.as_str());

    // Lifted: all of it is back, and Ana signs in.
    assert_eq!(lift(&app, &rita, &ana_id).await.status, StatusCode::NO_CONTENT);
    assert_eq!(seen(Some(bob.clone())).await, before);
    assert_eq!(seen(None).await, before);
    assert_eq!(app.get("/notifications/unread-count", Some(&bob)).await.body["unread"], 3);
    assert_eq!(app.log_in("ana@example.com", PASSWORD).await.status, StatusCode::OK);
    {
        use db::schema::admin_actions;
        let mut conn = app.db.get().unwrap();
        let rows: Vec<(String, Option<String>)> = admin_actions::table
            .filter(admin_actions::subject_id.eq(ana_id.parse::<i64>().unwrap()))
            .order(admin_actions::created_at)
            .select((admin_actions::action, admin_actions::detail))
            .load(&mut *conn)
            .unwrap();
        assert_eq!(rows, [("suspend".to_owned(), Some("spam".to_owned())), ("lift_suspension".to_owned(), None)]);
    }
}

// --- Live streams end with their sessions ----------------------------------------------------

/// Opens `GET /notifications/stream` with `token` on the server at `url` and reads its first
/// event (the count).
async fn opened_stream(url: &str, token: &str) -> (reqwest::Response, String) {
    let mut res =
        reqwest::Client::new().get(format!("{url}/notifications/stream")).bearer_auth(token).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let mut buffer = String::new();
    let first = next_event(&mut res, &mut buffer, Duration::from_secs(5)).await;
    assert_eq!(first.map(|(e, _)| e).as_deref(), Some("unread"));
    (res, buffer)
}

/// The next event of a stream (keep-alive comments skipped), or `None` after `wait`.
async fn next_event(res: &mut reqwest::Response, buffer: &mut String, wait: Duration) -> Option<(String, String)> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        if let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            if block.lines().all(|l| l.starts_with(':') || l.starts_with("retry:")) {
                continue;
            }
            let field = |name: &str| block.lines().find_map(|l| l.strip_prefix(name)).unwrap_or_default().to_owned();
            return Some((field("event: "), field("data: ")));
        }
        let chunk = tokio::time::timeout_at(deadline, res.chunk()).await.ok()?.ok()??;
        buffer.push_str(std::str::from_utf8(&chunk).unwrap());
    }
}

/// Waits for `event: signed-out` and then the end of the stream, within two seconds.
async fn ends_signed_out(mut res: reqwest::Response, mut buffer: String, how: &str) {
    let started = Instant::now();
    let event = next_event(&mut res, &mut buffer, Duration::from_secs(2)).await;
    assert_eq!(event.map(|(e, _)| e).as_deref(), Some("signed-out"), "{how}: within 2 s");
    let end = tokio::time::timeout(Duration::from_secs(2), res.chunk()).await;
    assert!(matches!(end, Ok(Ok(None))), "{how}: the stream closes");
    println!("{how}: the stream ended after {:?}", started.elapsed());
}

/// Asserts that nothing arrives on a stream for half a second.
async fn still_open(res: &mut reqwest::Response, buffer: &mut String, how: &str) {
    assert_eq!(next_event(res, buffer, Duration::from_millis(500)).await, None, "{how}: this stream stays");
}

async fn a_stream_ends_within_moments_of_its_session(db: TestDb) {
    let app = spawn_app(db).await;
    let ana = app.verified_user("Ana", "ana@example.com").await;
    let client = &app.client;

    // Sign-out.
    let (stream, buffer) = opened_stream(&app.url, &ana).await;
    assert_eq!(app.post("/authorization/logout", Some(&ana), json!({})).await.status, StatusCode::OK);
    ends_signed_out(stream, buffer, "logout").await;

    // A password change ends the other sessions' streams, and not its own.
    let here = app.log_in("ana@example.com", PASSWORD).await.body["access_token"].as_str().unwrap().to_owned();
    let there = app.log_in("ana@example.com", PASSWORD).await.body["access_token"].as_str().unwrap().to_owned();
    let (mut own, mut own_buffer) = opened_stream(&app.url, &here).await;
    let (stream, buffer) = opened_stream(&app.url, &there).await;
    let new_password = "Brand#New#Tune7";
    let changed = app
        .post(
            "/authorization/password",
            Some(&here),
            json!({"current_password": PASSWORD, "new_password": new_password}),
        )
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{:?}", changed.body);
    ends_signed_out(stream, buffer, "password change").await;
    still_open(&mut own, &mut own_buffer, "password change").await;

    // Ending one session from the sessions list.
    let other = app.log_in("ana@example.com", new_password).await.body["access_token"].as_str().unwrap().to_owned();
    let (stream, buffer) = opened_stream(&app.url, &other).await;
    let sessions = app.get("/authorization/sessions", Some(&here)).await.body;
    let id = sessions.as_array().unwrap().iter().find(|s| s["current"] == false).unwrap()["id"].as_str().unwrap();
    let ended = app.call(Method::DELETE, &format!("/authorization/sessions/{id}"), Some(&here), None).await;
    assert_eq!(ended.status, StatusCode::OK, "{:?}", ended.body);
    ends_signed_out(stream, buffer, "ending one session").await;
    still_open(&mut own, &mut own_buffer, "ending another session").await;

    // Sign out everywhere ends this one too.
    let all = client.post(format!("{}/authorization/logout-all", app.url)).bearer_auth(&here).send().await.unwrap();
    assert!(all.status().is_success());
    ends_signed_out(own, own_buffer, "sign out everywhere").await;

    // A suspension.
    let (rita, _) = app.person("Rita", "rita@example.com").await;
    make_admin(&app.db, "rita@example.com");
    let token = app.log_in("ana@example.com", new_password).await.body["access_token"].as_str().unwrap().to_owned();
    let ana_id = app.get("/authorization/me", Some(&token)).await.body["id"].as_str().unwrap().to_owned();
    let (stream, buffer) = opened_stream(&app.url, &token).await;
    assert_eq!(suspend(&app, &rita, &ana_id, json!({"reason": "spam"})).await.status, StatusCode::OK);
    ends_signed_out(stream, buffer, "suspension").await;

    // Deleting the account.
    let bea = app.verified_user("Bea", "bea@example.com").await;
    let (stream, buffer) = opened_stream(&app.url, &bea).await;
    assert_eq!(app.call(Method::DELETE, "/authorization/me", Some(&bea), None).await.status, StatusCode::OK);
    ends_signed_out(stream, buffer, "account deletion").await;
}

test_support::both_backends!(
    only_admins_suspend_and_never_an_admin,
    the_suspended_list_pages_newest_first,
    a_suspension_signs_out_hides_and_comes_back_when_lifted,
    a_stream_ends_within_moments_of_its_session,
);

/// Two processes sharing one PostgreSQL database: a stream held open by one ends within moments
/// when its session is ended through the other (sign-out, then a suspension), through the same
/// `LISTEN/NOTIFY` channel that carries live counts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_on_one_process_ends_when_its_session_ends_through_another() {
    let Some(db) = TestDb::postgres() else { return };
    let (one, two) = (start_process(&db.url, None).await, start_process(&db.url, None).await);
    let (ana, ana_id) = person_in(&db, "Ana", "ana@example.com");
    let (rita, _) = person_in(&db, "Rita", "rita@example.com");
    make_admin(&db, "rita@example.com");
    let client = reqwest::Client::new();
    let posted = client.post(format!("{}/posts/lyrics", one.url)).bearer_auth(&ana).json(&lyrics_body("S")).send();
    assert_eq!(posted.await.unwrap().status(), StatusCode::CREATED);
    let (stream, buffer) = opened_stream(&two.url, &ana).await;
    // The second process's listening connection comes up beside its first requests.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let out = client.post(format!("{}/authorization/logout", one.url)).bearer_auth(&ana).send().await.unwrap();
    assert!(out.status().is_success());
    ends_signed_out(stream, buffer, "logout through another process").await;

    // Signed in again, then suspended through the first process.
    let again = session_of(&db, &ana_id);
    let (stream, buffer) = opened_stream(&two.url, &again).await;
    let suspended = client
        .post(format!("{}/admin/users/{ana_id}/suspend", one.url))
        .bearer_auth(&rita)
        .json(&json!({"reason": "spam"}))
        .send()
        .await
        .unwrap();
    assert_eq!(suspended.status(), StatusCode::OK);
    ends_signed_out(stream, buffer, "suspension through another process").await;
}

/// A new session of an existing person, made straight in the database; answers its token.
fn session_of(db: &TestDb, user: &str) -> String {
    use db::schema::sessions;
    let (session, now) = (values::SessionId::generate(), db::time::now());
    let expires = now + chrono::Duration::hours(24);
    let user = values::UserId::try_from(user.parse::<i64>().unwrap()).unwrap();
    let mut conn = db.get().unwrap();
    db::diesel::insert_into(sessions::table)
        .values((
            sessions::id.eq(session),
            sessions::user_id.eq(user),
            sessions::created_at.eq(now),
            sessions::expires_at.eq(expires),
        ))
        .execute(&mut *conn)
        .unwrap();
    auth::token::TokenKeys::new(JWT_SECRET.as_bytes()).issue(user, session, expires).unwrap()
}
