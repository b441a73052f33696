//! What the server remembers between requests to answer pages faster (issue 18: the payloads
//! of posts shown before, the list of the newest posts deep offsets walk) never shows what the
//! database would not: a post of someone in a block pair, a deleted post, a stale like of the
//! viewer or a stale count; and a new post is there at once for its author. Each check runs
//! after the pages were read once, so they are answered with what was remembered. Nor do the
//! sessions a process checked a moment ago outlive the session: however it ends, a read with
//! its token is refused at once, in this process and within moments in another.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;

use std::time::{Duration, Instant};

use crate::common::{Options, PASSWORD, TestApp, make_admin, person_in, spawn_app, spawn_app_with, start_process};

/// The ids of a page of posts, newest first.
fn ids(page: &Value) -> Vec<String> {
    page.as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap().to_owned()).collect()
}

async fn feed(app: &TestApp, path: &str, token: &str) -> Value {
    let page = app.get(path, Some(token)).await;
    assert_eq!(page.status, StatusCode::OK, "{path}: {:?}", page.body);
    page.body
}

/// Reads every page a viewer may be shown `post` on, so that the next reads are answered from
/// what the server keeps.
async fn warm(app: &TestApp, token: &str, author: &str, post: &str) {
    for path in ["/posts/feed?limit=10".to_owned(), format!("/posts/user/{author}?limit=10"), format!("/posts/{post}")]
    {
        app.get(&path, Some(token)).await;
    }
    app.get("/posts/feed?limit=10&offset=1", Some(token)).await;
}

async fn remembered_pages_follow_likes_deletes_blocks_and_new_posts(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (ben, ben_id) = app.person("Ben", "ben@example.com").await;
    let bens = app.lyrics_post(&ben, "Ben's song").await["id"].as_str().unwrap().to_owned();
    let first = app.lyrics_post(&ana, "First").await["id"].as_str().unwrap().to_owned();
    let second = app.lyrics_post(&ana, "Second").await["id"].as_str().unwrap().to_owned();
    warm(&app, &ben, &ana_id, &first).await;
    warm(&app, &ana, &ana_id, &first).await;

    // The payload read from memory is the post's own.
    let page = app.get(&format!("/posts/{first}"), Some(&ben)).await;
    assert_eq!(page.body["lyrics"]["title"], "First");
    assert_eq!(feed(&app, "/posts/feed?limit=10", &ben).await[0]["lyrics"]["title"], "Second");

    // A like shows at once, with its count, to the one who liked and to everyone else.
    let liked = app.post(&format!("/posts/{first}/like"), Some(&ben), json!({})).await;
    assert_eq!(liked.status, StatusCode::OK);
    let seen = app.get(&format!("/posts/{first}"), Some(&ben)).await.body;
    assert_eq!((seen["user_liked"].clone(), seen["likes_count"].clone()), (json!(true), json!(1)));
    let by_ana = app.get(&format!("/posts/{first}"), Some(&ana)).await.body;
    assert_eq!((by_ana["user_liked"].clone(), by_ana["likes_count"].clone()), (json!(false), json!(1)));
    let listed = feed(&app, "/posts/feed?limit=10", &ben).await;
    let listed = listed.as_array().unwrap().iter().find(|p| p["id"] == first.as_str()).unwrap().clone();
    assert_eq!((listed["user_liked"].clone(), listed["likes_count"].clone()), (json!(true), json!(1)));
    app.post(&format!("/posts/{first}/like"), Some(&ben), json!({})).await;
    let unliked = app.get(&format!("/posts/{first}"), Some(&ben)).await.body;
    assert_eq!((unliked["user_liked"].clone(), unliked["likes_count"].clone()), (json!(false), json!(0)));

    // A comment counts at once.
    let commented = app.post(&format!("/posts/{first}/comments"), Some(&ben), json!({"content": "lovely"})).await;
    assert_eq!(commented.status, StatusCode::CREATED);
    assert_eq!(app.get(&format!("/posts/{first}"), Some(&ana)).await.body["comments_count"], 1);

    // A deleted post is gone from every list and its page, for everyone, at once.
    assert!(app.call(Method::DELETE, &format!("/posts/{second}"), Some(&ana), None).await.status.is_success());
    for token in [&ana, &ben] {
        assert_eq!(ids(&feed(&app, "/posts/feed?limit=10", token).await), vec![first.clone(), bens.clone()]);
        assert_eq!(ids(&feed(&app, &format!("/posts/user/{ana_id}?limit=10"), token).await), vec![first.clone()]);
        assert_eq!(app.get(&format!("/posts/{second}"), Some(token)).await.status, StatusCode::NOT_FOUND);
        assert_eq!(ids(&feed(&app, "/posts/feed?limit=10&offset=1", token).await), vec![bens.clone()]);
    }

    // A new post is there at once for its author, first in every list.
    let third = app.lyrics_post(&ana, "Third").await["id"].as_str().unwrap().to_owned();
    assert_eq!(ids(&feed(&app, "/posts/feed?limit=10", &ana).await)[0], third);
    assert_eq!(ids(&feed(&app, &format!("/posts/user/{ana_id}?limit=10"), &ana).await)[0], third);
    assert_eq!(ids(&feed(&app, "/posts/feed?limit=10&offset=1", &ana).await), vec![first.clone(), bens.clone()]);

    // A block hides both people's posts from each other at once, on every page; lifting it
    // shows them again.
    let block = format!("/profiles/blocks/{ana_id}");
    assert!(app.call(Method::POST, &block, Some(&ben), None).await.status.is_success());
    assert_eq!(ids(&feed(&app, "/posts/feed?limit=10", &ben).await), vec![bens.clone()]);
    assert!(ids(&feed(&app, "/posts/feed?limit=10&offset=1", &ben).await).is_empty());
    assert_eq!(ids(&feed(&app, "/posts/feed?limit=10", &ana).await), vec![third.clone(), first.clone()]);
    assert_eq!(app.get(&format!("/posts/{first}"), Some(&ben)).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get(&format!("/posts/{bens}"), Some(&ana)).await.status, StatusCode::NOT_FOUND);
    assert!(ids(&feed(&app, &format!("/posts/user/{ben_id}?limit=10"), &ana).await).is_empty());
    assert!(app.call(Method::DELETE, &block, Some(&ben), None).await.status.is_success());
    assert_eq!(ids(&feed(&app, "/posts/feed?limit=10", &ben).await), vec![third.clone(), first.clone(), bens.clone()]);
    assert_eq!(ids(&feed(&app, "/posts/feed?limit=10&offset=2", &ben).await), vec![bens.clone()]);
    assert_eq!(app.get(&format!("/posts/{first}"), Some(&ben)).await.body["lyrics"]["title"], "First");

    // A new name shows at once on every post of its author.
    let renamed = app.call(Method::PATCH, "/profile/me", Some(&ana), Some(json!({"name": "Ana Maria"}))).await;
    assert!(renamed.status.is_success(), "{:?}", renamed.body);
    assert_eq!(feed(&app, "/posts/feed?limit=10", &ben).await[0]["user"]["name"], "Ana Maria");
    assert_eq!(app.get(&format!("/posts/{first}"), Some(&ben)).await.body["user"]["name"], "Ana Maria");

    // Listened to follows listening, at once.
    let listened = format!("/profiles/listening/{ana_id}");
    assert!(ids(&feed(&app, "/posts/listened-to?limit=10", &ben).await).is_empty());
    assert!(app.call(Method::POST, &listened, Some(&ben), None).await.status.is_success());
    assert_eq!(ids(&feed(&app, "/posts/listened-to?limit=10", &ben).await), vec![third.clone(), first.clone()]);
    assert!(app.call(Method::DELETE, &listened, Some(&ben), None).await.status.is_success());
    assert!(ids(&feed(&app, "/posts/listened-to?limit=10", &ben).await).is_empty());
}

/// The titles of a page of lyrics posts.
fn titles(page: &Value) -> Vec<String> {
    page.as_array().unwrap().iter().map(|p| p["lyrics"]["title"].as_str().unwrap().to_owned()).collect()
}

/// `from` down to `to` (newest first), as Ana's posts are titled.
fn songs(from: i32, to: i32) -> Vec<String> {
    (to..=from).rev().map(|i| format!("s{i}")).collect()
}

async fn deep_offset_pages_follow_deletes_blocks_likes_and_new_posts(db: TestDb) {
    // Pages 100 posts down start from the list of the newest posts the server keeps.
    let options = Options { env: vec![("SELFSOUND_WRITE_LIMITS".into(), "post=1000/1m".into())], ..Options::default() };
    let app = spawn_app_with(db, options).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (ben, _) = app.person("Ben", "ben@example.com").await;
    app.lyrics_post(&ben, "ben").await;
    let mut ids = Vec::new();
    for i in 0..110 {
        ids.push(app.lyrics_post(&ana, &format!("s{i}")).await["id"].as_str().unwrap().to_owned());
    }
    let deep = "/posts/feed?limit=10&offset=100";
    let mut want = songs(9, 0);
    assert_eq!(titles(&feed(&app, deep, &ben).await), want);
    assert_eq!(
        titles(&feed(&app, "/posts/feed?limit=10&offset=105", &ben).await),
        [songs(4, 0), vec!["ben".into()]].concat()
    );

    // A post deleted above the page moves it down by one, at once; one deleted on it is gone.
    assert!(app.call(Method::DELETE, &format!("/posts/{}", ids[50]), Some(&ana), None).await.status.is_success());
    assert!(app.call(Method::DELETE, &format!("/posts/{}", ids[3]), Some(&ana), None).await.status.is_success());
    want = ["s8", "s7", "s6", "s5", "s4", "s2", "s1", "s0", "ben"].map(String::from).to_vec();
    assert_eq!(titles(&feed(&app, deep, &ben).await), want);

    // A new post moves it up by one, at once, for its author and everyone else.
    app.lyrics_post(&ana, "s110").await;
    want.insert(0, "s9".into());
    for token in [&ana, &ben] {
        assert_eq!(titles(&feed(&app, deep, token).await), want);
    }

    // The viewer's like shows on the deep page at once.
    app.post(&format!("/posts/{}/like", ids[5]), Some(&ben), json!({})).await;
    let page = feed(&app, deep, &ben).await;
    let liked: Vec<&Value> = page.as_array().unwrap().iter().filter(|p| p["user_liked"] == true).collect();
    assert_eq!(liked.len(), 1);
    assert_eq!((liked[0]["lyrics"]["title"].clone(), liked[0]["likes_count"].clone()), (json!("s5"), json!(1)));

    // A block: the pair's posts are not counted or shown on either side's deep pages.
    let block = format!("/profiles/blocks/{ana_id}");
    assert!(app.call(Method::POST, &block, Some(&ben), None).await.status.is_success());
    assert!(feed(&app, deep, &ben).await.as_array().unwrap().is_empty());
    assert_eq!(titles(&feed(&app, "/posts/feed?limit=10&offset=0", &ben).await), vec!["ben".to_owned()]);
    let anas = titles(&feed(&app, deep, &ana).await);
    assert!(!anas.contains(&"ben".to_owned()) && anas.len() == 9, "{anas:?}");
    assert!(app.call(Method::DELETE, &block, Some(&ben), None).await.status.is_success());
    assert_eq!(titles(&feed(&app, deep, &ben).await), want);
}

/// A signed-in read (Listened to): 200 while the session stands, 401 once it is gone.
const SIGNED_IN_READ: &str = "/posts/listened-to?limit=10";

/// Reads with `token` (its session is then one the server checked a moment ago), runs `end`,
/// and expects the next read with it to be refused.
async fn refused_once_ended<F: std::future::Future<Output = ()>>(app: &TestApp, how: &str, token: &str, end: F) {
    for _ in 0..2 {
        assert_eq!(app.get(SIGNED_IN_READ, Some(token)).await.status, StatusCode::OK, "{how}: before");
    }
    end.await;
    assert_eq!(app.get(SIGNED_IN_READ, Some(token)).await.status, StatusCode::UNAUTHORIZED, "{how}: after");
}

async fn a_session_ended_in_any_way_is_refused_at_once(db: TestDb) {
    let app = spawn_app(db).await;
    let ana = app.verified_user("Ana", "ana@example.com").await;
    let sign_in =
        || async { app.log_in("ana@example.com", PASSWORD).await.body["access_token"].as_str().unwrap().to_owned() };

    let phone = sign_in().await;
    refused_once_ended(&app, "sign-out", &phone, async {
        assert!(app.post("/authorization/logout", Some(&phone), json!({})).await.status.is_success());
    })
    .await;

    let phone = sign_in().await;
    app.get(SIGNED_IN_READ, Some(&phone)).await;
    let listed = app.get("/authorization/sessions", Some(&ana)).await.body;
    let other =
        listed.as_array().unwrap().iter().find(|s| s["current"] == false).unwrap()["id"].as_str().unwrap().to_owned();
    refused_once_ended(&app, "ended from the Sessions list", &phone, async {
        let ended = app.call(Method::DELETE, &format!("/authorization/sessions/{other}"), Some(&ana), None).await;
        assert!(ended.status.is_success());
    })
    .await;

    let phone = sign_in().await;
    refused_once_ended(&app, "a password change on another device", &phone, async {
        let body = json!({"current_password": PASSWORD, "new_password": "Another#Sound2"});
        assert!(app.post("/authorization/password", Some(&ana), body).await.status.is_success());
    })
    .await;
    assert_eq!(app.get(SIGNED_IN_READ, Some(&ana)).await.status, StatusCode::OK, "the device that changed it");

    refused_once_ended(&app, "sign out everywhere", &ana, async {
        assert!(app.post("/authorization/logout-all", Some(&ana), json!({})).await.status.is_success());
    })
    .await;

    let (rita, _) = app.person("Rita", "rita@example.com").await;
    make_admin(&app.db, "rita@example.com");
    let (ben, ben_id) = app.person("Ben", "ben@example.com").await;
    refused_once_ended(&app, "a suspension", &ben, async {
        let done = app.post(&format!("/admin/users/{ben_id}/suspend"), Some(&rita), json!({"reason": "spam"})).await;
        assert_eq!(done.status, StatusCode::OK);
    })
    .await;

    let (cy, _) = app.person("Cy", "cy@example.com").await;
    refused_once_ended(&app, "a deleted account", &cy, async {
        assert!(app.call(Method::DELETE, "/authorization/me", Some(&cy), None).await.status.is_success());
    })
    .await;
}

/// However a session ends, the process that ended it may die the moment it has answered, and
/// the session is still refused everywhere at once: the news goes out in the transaction that
/// ends it (on PostgreSQL its `NOTIFY`, delivered on commit), not from a task afterwards, which
/// a crash once cut off (another process served the session for up to 10 s). On PostgreSQL a
/// second process, which had just checked the session, must refuse it within a second; on
/// SQLite (one process) the process started again on the same database refuses it.
async fn a_session_ended_by_a_process_that_dies_at_once_is_refused(db: TestDb) {
    let postgres = db.url.starts_with("postgres");
    let client = reqwest::Client::new();
    let other = if postgres { Some(start_process(&db.url, None).await) } else { None };
    let ways = ["sign-out", "ended from the Sessions list", "sign out everywhere", "a password change"];
    for (n, way) in ways.into_iter().enumerate() {
        let email = format!("p{n}@example.com");
        let (token, id) = person_in(&db, "Pat", &email);
        {
            use db::diesel::prelude::*;
            let hash = auth::password::hash(PASSWORD).unwrap();
            db::diesel::update(db::schema::users::table.filter(db::schema::users::id.eq(id.parse::<i64>().unwrap())))
                .set(db::schema::users::password_hash.eq(hash))
                .execute(&mut *db.get().unwrap())
                .unwrap();
        }
        let mut ending = start_process(&db.url, None).await;
        // A second session of the same person, on the process that will end the first.
        let signed_in = client
            .post(format!("{}/authorization/logindefault", ending.url))
            .json(&json!({"email": email, "password": PASSWORD}))
            .send()
            .await
            .unwrap();
        assert!(signed_in.status().is_success(), "{way}: sign-in");
        let device: Value = signed_in.json().await.unwrap();
        let device = device["access_token"].as_str().unwrap().to_owned();
        let read = |base: String, token: String| {
            let client = client.clone();
            async move { client.get(format!("{base}{SIGNED_IN_READ}")).bearer_auth(token).send().await.unwrap().status() }
        };
        if let Some(other) = &other {
            assert_eq!(read(other.url.clone(), token.clone()).await, StatusCode::OK, "{way}: before");
            // Its listening connection comes up beside its first requests.
            tokio::time::sleep(Duration::from_millis(300)).await;
            assert_eq!(read(other.url.clone(), token.clone()).await, StatusCode::OK, "{way}: checked");
        }
        let url = |path: &str| format!("{}{path}", ending.url);
        let ended = match way {
            "sign-out" => client.post(url("/authorization/logout")).bearer_auth(&token).send().await,
            "ended from the Sessions list" => {
                let listed: Value = client
                    .get(url("/authorization/sessions"))
                    .bearer_auth(&device)
                    .send()
                    .await
                    .unwrap()
                    .json()
                    .await
                    .unwrap();
                let first = listed.as_array().unwrap().iter().find(|s| s["current"] == false).unwrap()["id"].clone();
                let first = first.as_str().unwrap().to_owned();
                client.delete(url(&format!("/authorization/sessions/{first}"))).bearer_auth(&device).send().await
            }
            "sign out everywhere" => client.post(url("/authorization/logout-all")).bearer_auth(&device).send().await,
            _ => {
                let body = json!({"current_password": PASSWORD, "new_password": "Another#Sound2"});
                client.post(url("/authorization/password")).bearer_auth(&device).json(&body).send().await
            }
        };
        assert!(ended.unwrap().status().is_success(), "{way}");
        ending.kill();
        let since = Instant::now();
        let reader = match &other {
            Some(other) => other.url.clone(),
            None => {
                ending = start_process(&db.url, None).await;
                ending.url.clone()
            }
        };
        while read(reader.clone(), token.clone()).await == StatusCode::OK {
            assert!(since.elapsed() < Duration::from_secs(1), "{way}: still taken a second after");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        println!("{way}, its process killed at once: refused after {:?}", since.elapsed());
    }
}

test_support::both_backends!(
    remembered_pages_follow_likes_deletes_blocks_and_new_posts,
    deep_offset_pages_follow_deletes_blocks_likes_and_new_posts,
    a_session_ended_in_any_way_is_refused_at_once,
    a_session_ended_by_a_process_that_dies_at_once_is_refused,
);

/// Two processes on one PostgreSQL database: pages one of them answers from memory follow what
/// is written through the other within moments (its `NOTIFY`): a like, a new name, a new post,
/// a block, a deleted post.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_held_by_one_process_follow_writes_through_another() {
    let Some(db) = TestDb::postgres() else { return };
    let (one, two) = (start_process(&db.url, None).await, start_process(&db.url, None).await);
    let ((ana, ana_id), (ben, ben_id)) =
        (person_in(&db, "Ana", "ana@example.com"), person_in(&db, "Ben", "ben@example.com"));
    let client = reqwest::Client::new();
    let write = |method: Method, path: String, token: &str, body: Option<Value>| {
        let mut req = client.request(method, format!("{}{path}", one.url)).bearer_auth(token);
        if let Some(body) = body {
            req = req.json(&body);
        }
        async move {
            let res = req.send().await.unwrap();
            assert!(res.status().is_success(), "{path}: {}", res.status());
            res.json::<Value>().await.unwrap_or(Value::Null)
        }
    };
    let read = |path: &str, token: &str| {
        let req = client.get(format!("{}{path}", two.url)).bearer_auth(token);
        async move { req.send().await.unwrap().json::<Value>().await.unwrap() }
    };
    let first = write(Method::POST, "/posts/lyrics".into(), &ana, Some(crate::common::lyrics_body("First"))).await;
    let first = first["id"].as_str().unwrap().to_owned();
    // The second process's listening connection comes up beside its first requests; then its
    // pages are read twice, so that the next are answered from what it holds.
    tokio::time::sleep(Duration::from_millis(500)).await;
    for _ in 0..2 {
        read("/posts/feed?limit=10", &ben).await;
        read(&format!("/posts/{first}"), &ben).await;
    }
    // Polls the second process until `done` holds of the page at `path`.
    async fn until(what: &str, mut done: impl AsyncFnMut() -> bool) {
        let since = Instant::now();
        while !done().await {
            assert!(since.elapsed() < Duration::from_secs(2), "{what}: not seen after 2 s");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        println!("{what}: seen by the other process after {:?}", since.elapsed());
    }

    write(Method::POST, format!("/posts/{first}/like"), &ben, None).await;
    until("a like", async || {
        let p = read(&format!("/posts/{first}"), &ben).await;
        p["user_liked"] == true && p["likes_count"] == 1
    })
    .await;
    until("its count on the feed", async || read("/posts/feed?limit=10", &ben).await[0]["likes_count"] == 1).await;
    write(Method::PATCH, "/profile/me".into(), &ana, Some(json!({"name": "Ana Maria"}))).await;
    until("a new name", async || read("/posts/feed?limit=10", &ben).await[0]["user"]["name"] == "Ana Maria").await;
    let second = write(Method::POST, "/posts/lyrics".into(), &ana, Some(crate::common::lyrics_body("Second"))).await;
    let second = second["id"].as_str().unwrap().to_owned();
    until("a new post", async || ids(&read("/posts/feed?limit=10", &ben).await) == [second.clone(), first.clone()])
        .await;
    write(Method::POST, format!("/profiles/blocks/{ben_id}"), &ana, None).await;
    until("a block", async || ids(&read("/posts/feed?limit=10", &ben).await).is_empty()).await;
    write(Method::DELETE, format!("/profiles/blocks/{ben_id}"), &ana, None).await;
    until("a lifted block", async || ids(&read("/posts/feed?limit=10", &ben).await).len() == 2).await;
    write(Method::DELETE, format!("/posts/{second}"), &ana, None).await;
    until("a deleted post", async || {
        ids(&read(&format!("/posts/user/{ana_id}?limit=10"), &ben).await) == [first.clone()]
    })
    .await;
}

/// Two processes on one PostgreSQL database: a session signed out through one is refused by
/// the other within moments (its `NOTIFY`), though the other had just checked it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_signed_out_through_one_process_is_refused_by_another() {
    let Some(db) = TestDb::postgres() else { return };
    let (one, two) = (start_process(&db.url, None).await, start_process(&db.url, None).await);
    let (ana, _) = person_in(&db, "Ana", "ana@example.com");
    let client = reqwest::Client::new();
    let read = |base: &str| client.get(format!("{base}{SIGNED_IN_READ}")).bearer_auth(&ana).send();
    assert_eq!(read(&two.url).await.unwrap().status(), StatusCode::OK);
    // The second process's listening connection comes up beside its first requests.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(read(&two.url).await.unwrap().status(), StatusCode::OK);

    let out = client.post(format!("{}/authorization/logout", one.url)).bearer_auth(&ana).send().await.unwrap();
    assert!(out.status().is_success());
    let ended = Instant::now();
    while read(&two.url).await.unwrap().status() == StatusCode::OK {
        assert!(ended.elapsed() < Duration::from_secs(1), "still taken after a second");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    println!("a sign-out through one process was refused by the other after {:?}", ended.elapsed());
}
