//! Web Push (issue 36; docs/security.md, "Web Push") against a real push service on loopback:
//! `web-push-testing` (npm, from the web app's packages) takes subscriptions, checks each push's
//! VAPID signature against the key the subscription named, decrypts it (RFC 8291) and lists
//! what each subscription received. The browser's side (the service worker showing it, a click
//! opening the page) is frontend/e2e/web-push.spec.ts.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;

use crate::common::{Options, PASSWORD, TestApp, spawn_app, spawn_app_with};

/// A `web-push-testing` server on a port of its own; stopped when dropped.
struct PushService {
    child: Child,
    url: String,
    http: reqwest::Client,
}

impl Drop for PushService {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl PushService {
    /// Started, or None (with a note) where the web app's packages are not installed and this
    /// is not CI.
    async fn start() -> Option<PushService> {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../frontend/node_modules/web-push-testing/src/bin/server.js");
        if !script.is_file() {
            assert!(!test_support::ci(), "CI: web-push-testing is required ({}; make web-deps)", script.display());
            eprintln!("*** SKIPPED: no web-push-testing (make web-deps) ***");
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new("node")
            .arg(&script)
            .arg(port.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("node runs web-push-testing");
        let service = PushService { child, url: format!("http://localhost:{port}"), http: reqwest::Client::new() };
        for _ in 0..200 {
            if let Ok(r) = service.http.post(format!("{}/status", service.url)).send().await
                && r.status().is_success()
            {
                return Some(service);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("web-push-testing did not start");
    }

    /// A browser's subscription for `key` (the server's VAPID public key): its JSON, and the
    /// service's name for it.
    async fn subscribe(&self, key: &str) -> (Value, String) {
        let r = self
            .http
            .post(format!("{}/subscribe", self.url))
            .json(&json!({"applicationServerKey": key, "userVisibleOnly": "true"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        let data = r.json::<Value>().await.unwrap()["data"].clone();
        let hash = data["clientHash"].as_str().unwrap().to_owned();
        (json!({"endpoint": data["endpoint"], "keys": data["keys"], "expirationTime": null}), hash)
    }

    /// What `hash` received, decrypted, as JSON.
    async fn received(&self, hash: &str) -> Vec<Value> {
        let r = self
            .http
            .post(format!("{}/get-notifications", self.url))
            .json(&json!({"clientHash": hash}))
            .send()
            .await
            .unwrap();
        let body: Value = r.json().await.unwrap();
        body["data"]["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| serde_json::from_str(m.as_str().unwrap()).expect("a pushed message is JSON"))
            .collect()
    }

    /// Waits (the server's job runner sends) until `hash` has received `n` messages.
    async fn until_received(&self, hash: &str, n: usize) -> Vec<Value> {
        for _ in 0..300 {
            let got = self.received(hash).await;
            if got.len() >= n {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("{hash} received {:?}, not {n} messages", self.received(hash).await);
    }

    async fn expire(&self, hash: &str) {
        let r = self.http.post(format!("{}/expire-subscription/{hash}", self.url)).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK);
    }
}

async fn devices(app: &TestApp, token: &str) -> Value {
    let got = app.get("/account/push", Some(token)).await;
    assert_eq!(got.status, StatusCode::OK, "{:?}", got.body);
    got.body["devices"].clone()
}

/// Waits until `token`'s account has `n` devices.
async fn until_devices(app: &TestApp, token: &str, n: usize) {
    for _ in 0..300 {
        if devices(app, token).await.as_array().unwrap().len() == n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("not {n} devices: {}", devices(app, token).await);
}

async fn notifications_reach_devices_through_a_push_service(db: TestDb) {
    let Some(service) = PushService::start().await else { return };
    let app = spawn_app(db).await;
    let ana = app.verified_user("Ana", "ana@example.com").await;
    let bob = app.verified_user("Bob", "bob@example.com").await;
    let carl = app.verified_user("Carl", "carl@example.com").await;

    let push = app.get("/account/push", Some(&ana)).await;
    assert_eq!(push.status, StatusCode::OK);
    assert_eq!(push.headers["cache-control"], "no-store");
    assert_eq!(push.body["devices"], json!([]));
    let key = push.body["public_key"].as_str().unwrap().to_owned();
    let point = URL_SAFE_NO_PAD.decode(&key).unwrap();
    assert_eq!((point.len(), point[0]), (65, 4), "an uncompressed P-256 point");
    assert_eq!(app.get("/account/push", None).await.status, StatusCode::UNAUTHORIZED);

    // Subscriptions a push request may not go to, or that do not encrypt, are refused.
    let (sub, hash) = service.subscribe(&key).await;
    let mut inside = sub.clone();
    inside["endpoint"] = json!("https://169.254.169.254/latest/meta-data");
    let refused = app.post("/account/push/devices", Some(&ana), inside).await;
    assert_eq!(
        (refused.status, refused.detail()),
        (StatusCode::BAD_REQUEST, "The push endpoint must be an https address on the internet.")
    );
    let mut keyless = sub.clone();
    keyless["keys"]["p256dh"] = json!("AAAA");
    let refused = app.post("/account/push/devices", Some(&ana), keyless).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert_eq!(refused.detail(), "The subscription's p256dh key is not a P-256 public key.");

    // Turned on: every kind, this session's; the same subscription again is the same device.
    let mut named = sub.clone();
    named["name"] = json!("Chrome on Linux");
    let added = app.post("/account/push/devices", Some(&ana), named.clone()).await;
    assert_eq!(added.status, StatusCode::CREATED, "{:?}", added.body);
    let device = added.body["id"].as_str().unwrap().to_owned();
    assert_eq!(added.body["name"], "Chrome on Linux");
    assert_eq!(added.body["this_session"], true);
    assert_eq!(
        added.body["kinds"],
        json!({"mentions": true, "comments": true, "listens": true, "likes": true, "reposts": true})
    );
    let again = app.post("/account/push/devices", Some(&ana), named).await;
    assert_eq!((again.status, again.body["id"].as_str()), (StatusCode::OK, Some(device.as_str())));
    assert_eq!(devices(&app, &ana).await.as_array().unwrap().len(), 1);

    // Bob likes Ana's post: her device is told, signed with our key and encrypted to it.
    let post = app.lyrics_post(&ana, "Night song").await["id"].as_str().unwrap().to_owned();
    app.post(&format!("/posts/{post}/like"), Some(&bob), json!({})).await;
    let got = service.until_received(&hash, 1).await;
    assert_eq!(got[0]["title"], "Bob liked your post");
    assert_eq!(got[0]["url"], format!("/app/post/{post}"));
    assert!(got[0]["tag"].as_str().unwrap().starts_with("notification-"));
    let listed = devices(&app, &ana).await;
    assert!(listed[0]["last_sent_at"].is_string(), "{listed}");

    // Likes off: Carl's like is not pushed; Bob's comment is, with its words.
    let off = app
        .call(
            Method::PATCH,
            &format!("/account/push/devices/{device}"),
            Some(&ana),
            Some(json!({"kinds": {"likes": false}})),
        )
        .await;
    assert_eq!(off.status, StatusCode::OK, "{:?}", off.body);
    assert_eq!(off.body["kinds"]["likes"], false);
    assert_eq!(off.body["kinds"]["comments"], true);
    app.post(&format!("/posts/{post}/like"), Some(&carl), json!({})).await;
    app.post(&format!("/posts/{post}/comments"), Some(&bob), json!({"content": "lovely   chords"})).await;
    let got = service.until_received(&hash, 2).await;
    assert_eq!(got[1]["title"], "Bob commented on your post");
    assert_eq!(got[1]["body"], "lovely chords");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(service.received(&hash).await.len(), 2, "Carl's like was not pushed");

    // Someone else can neither change, test nor remove Ana's device.
    let path = format!("/account/push/devices/{device}");
    let theirs = app.call(Method::PATCH, &path, Some(&bob), Some(json!({"kinds": {"likes": true}}))).await;
    assert_eq!(
        (theirs.status, theirs.detail()),
        (StatusCode::NOT_FOUND, "This device is not signed up for notifications.")
    );
    assert_eq!(app.call(Method::DELETE, &path, Some(&bob), None).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.post(&format!("{path}/test"), Some(&bob), json!({})).await.status, StatusCode::NOT_FOUND);

    // A test message.
    let test = app.post(&format!("{path}/test"), Some(&ana), json!({})).await;
    assert_eq!(test.status, StatusCode::ACCEPTED);
    let got = service.until_received(&hash, 3).await;
    assert_eq!(
        (got[2]["title"].as_str(), got[2]["body"].as_str()),
        (Some("SelfSound"), Some("Notifications are on for this device."))
    );

    // The browser dropped the subscription: the push service answers 410, the device goes.
    service.expire(&hash).await;
    let ana_id = app.get("/authorization/me", Some(&ana)).await.body["id"].as_str().unwrap().to_owned();
    app.post(&format!("/profiles/listening/{ana_id}"), Some(&bob), json!({})).await;
    until_devices(&app, &ana, 0).await;

    // A device belongs to its session: signing out there removes it; other sessions' stay.
    let (sub, _) = service.subscribe(&key).await;
    app.post("/account/push/devices", Some(&ana), sub).await;
    let phone = app.log_in("ana@example.com", PASSWORD).await.body["access_token"].as_str().unwrap().to_owned();
    let (sub, _) = service.subscribe(&key).await;
    let on_phone = app.post("/account/push/devices", Some(&phone), sub).await;
    assert_eq!(on_phone.status, StatusCode::CREATED);
    let listed = devices(&app, &ana).await;
    assert_eq!(
        listed.as_array().unwrap().iter().map(|d| d["this_session"].as_bool().unwrap()).collect::<Vec<_>>(),
        [true, false]
    );
    assert_eq!(app.call(Method::POST, "/authorization/logout", Some(&phone), None).await.status, StatusCode::OK);
    assert_eq!(devices(&app, &ana).await.as_array().unwrap().len(), 1);

    // Removed by its owner.
    let left = devices(&app, &ana).await[0]["id"].as_str().unwrap().to_owned();
    let gone = app.call(Method::DELETE, &format!("/account/push/devices/{left}"), Some(&ana), None).await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);
    assert_eq!(devices(&app, &ana).await, json!([]));
}

/// The key is kept in the database (every process shares it, a restart keeps it); restored
/// without its sealing key, the server still starts, with a new key and no devices.
async fn the_key_outlives_a_restart_and_a_lost_sealing_key_starts_afresh(db: TestDb) {
    let Some(service) = PushService::start().await else { return };
    let app = spawn_app(db).await;
    let ana = app.verified_user("Ana", "ana@example.com").await;
    let key = app.get("/account/push", Some(&ana)).await.body["public_key"].as_str().unwrap().to_owned();
    let (sub, _) = service.subscribe(&key).await;
    assert_eq!(app.post("/account/push/devices", Some(&ana), sub).await.status, StatusCode::CREATED);
    app.stop().await;

    let (db, data) = (app.db, app.data_dir);
    let same_folder = vec![("SELFSOUND_DATA_DIR".to_owned(), data.path().display().to_string())];
    let app = spawn_app_with(db, Options { env: same_folder.clone(), ..Options::default() }).await;
    let again = app.get("/account/push", Some(&ana)).await.body;
    assert_eq!(again["public_key"], key.as_str(), "the same key after a restart");
    assert_eq!(again["devices"].as_array().unwrap().len(), 1);
    app.stop().await;

    let (db, data) = (app.db, app.data_dir);
    let mut env = same_folder;
    env.push(("SELFSOUND_SEALING_KEY".to_owned(), "another sealing key, not the one it was sealed with".to_owned()));
    let app = spawn_app_with(db, Options { env, ..Options::default() }).await;
    let _same_folder = data;
    let after = app.get("/account/push", Some(&ana)).await.body;
    assert_ne!(after["public_key"], key.as_str(), "a new key");
    assert_eq!(after["devices"], json!([]), "devices of the old key are gone");
}

/// Processes starting at once (behind a load balancer) end with one key between them.
async fn processes_starting_at_once_share_one_key(db: TestDb) {
    use db::diesel::RunQueryDsl;
    let pool = db::Db::connect(&db.url, &db::PoolOptions::default()).unwrap();
    let sealer = auth::seal::Sealer::new(b"a sealing key of at least thirty-two bytes");
    let start = || {
        let (seal, open) = (sealer.clone(), sealer.clone());
        notifications::push::VapidKey::kept(
            &pool,
            move |der| seal.seal("vapid", der).map_err(|e| e.to_string()),
            move |sealed| open.open("vapid", sealed).map_err(|e| e.to_string()),
        )
    };
    for _ in 0..3 {
        let mut conn = pool.get().unwrap();
        db::diesel::delete(db::schema::server_secrets::table).execute(&mut *conn).unwrap();
        drop(conn);
        let (a, b, c) = tokio::join!(start(), start(), start());
        let keys = [a.unwrap().public_key(), b.unwrap().public_key(), c.unwrap().public_key()];
        assert!(keys.iter().all(|k| *k == keys[0]), "{keys:?}");
    }
}

test_support::both_backends!(
    processes_starting_at_once_share_one_key,
    notifications_reach_devices_through_a_push_service,
    the_key_outlives_a_restart_and_a_lost_sealing_key_starts_afresh
);
