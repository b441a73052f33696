//! Observability (issue 17, docs/operations.md "Observability"): `/metrics` on an address of its
//! own and nowhere else, counters and gauges that follow what the server does, liveness and
//! readiness, and JSON log lines that carry the id each answer names in `X-Request-Id`.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::Value;
use test_support::TestDb;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::common::{Options, TestApp, spawn_app_with, start_process_with};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// An app serving its metrics at the returned address.
async fn app_with_metrics(db: TestDb, env: &[(&str, &str)], throttle: auth::ThrottleRules) -> (TestApp, String) {
    let metrics = format!("127.0.0.1:{}", free_port());
    let mut vars: Vec<(String, String)> = vec![("SELFSOUND_METRICS_BIND".into(), metrics.clone())];
    vars.extend(env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
    let app = spawn_app_with(db, Options { env: vars, throttle, ..Options::default() }).await;
    (app, format!("http://{metrics}/metrics"))
}

/// The metrics as Prometheus would read them.
async fn scrape(url: &str) -> String {
    let res = reqwest::get(url).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let content_type = res.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(content_type.starts_with("application/openmetrics-text"), "{content_type}");
    let text = res.text().await.unwrap();
    assert!(text.ends_with("# EOF\n"), "a complete exposition");
    text
}

/// The value of one series (`name{labels}` exactly as written), 0 when it has none yet.
fn value(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(series).and_then(|rest| rest.strip_prefix(' ')))
        .map_or(0.0, |v| v.trim().parse().unwrap())
}

/// Scrapes until `series` reads `wanted` (what is counted as it happens is read at once; a
/// stream or upload that ends is let go a moment after its client goes).
async fn until_reads(url: &str, series: &str, wanted: f64) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let now = value(&scrape(url).await, series);
        if now == wanted {
            return;
        }
        assert!(Instant::now() < deadline, "{series} reads {now}, not {wanted}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Requests are counted by route pattern and status (never the raw path), timed per route,
/// and the pool's connections and waits are there; none of it on the public address.
async fn metrics_are_served_on_their_own_address_only(db: TestDb) {
    let (app, metrics) = app_with_metrics(db, &[], auth::ThrottleRules::default()).await;
    let public = app.get("/metrics", None).await;
    assert_eq!(public.status, StatusCode::NOT_FOUND, "the public address does not show metrics");

    let missing = r#"selfsound_http_requests_total{method="GET",route="/posts/{post_id}",status="404"}"#;
    let feed = r#"selfsound_http_requests_total{method="GET",route="/posts/feed",status="200"}"#;
    let before = scrape(&metrics).await;
    for id in ["1", "2", "3"] {
        assert_eq!(app.get(&format!("/posts/{id}"), None).await.status, StatusCode::NOT_FOUND);
    }
    assert_eq!(app.get("/posts/feed", None).await.status, StatusCode::OK);
    let after = scrape(&metrics).await;
    assert_eq!(value(&after, missing) - value(&before, missing), 3.0, "three answers, one series:\n{after}");
    assert_eq!(value(&after, feed) - value(&before, feed), 1.0);
    assert!(!after.contains("route=\"/posts/1\""), "no raw paths as labels");
    let timed = r#"selfsound_http_request_duration_seconds_count{method="GET",route="/posts/feed"}"#;
    assert_eq!(value(&after, timed) - value(&before, timed), 1.0);
    let unmatched = app.get("/no/such/page", None).await;
    assert_eq!(unmatched.status, StatusCode::NOT_FOUND);
    let text = scrape(&metrics).await;
    assert_eq!(value(&text, r#"selfsound_http_requests_total{method="GET",route="unmatched",status="404"}"#), 2.0);
    assert!(!text.contains("/no/such/page"));

    // The pool: its size, what is open, and each call's wait.
    assert_eq!(value(&text, "selfsound_db_pool_max_connections"), 10.0);
    assert!(value(&text, "selfsound_db_pool_connections") >= 1.0, "{text}");
    for gauge in ["selfsound_db_pool_idle_connections ", "selfsound_db_pool_waiting ", "selfsound_db_calls_queued "] {
        assert!(text.contains(gauge), "{gauge} in\n{text}");
    }
    let waits = "selfsound_db_pool_wait_seconds_count";
    assert!(value(&after, waits) > value(&before, waits), "the feed's database calls waited for their connections");
    assert_eq!(value(&text, "selfsound_db_pool_timeouts_total"), 0.0);
}

/// A 429 is counted under the name of the limit it met: a write limit's, or auth's own.
async fn refusals_are_counted_by_limit(db: TestDb) {
    let throttle =
        auth::ThrottleRules { login_per_client: db::throttle::Rule::per_minutes(1, 5), ..Default::default() };
    let (app, metrics) = app_with_metrics(db, &[("SELFSOUND_WRITE_LIMITS", "search=1:1/1h")], throttle).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    assert_eq!(app.get("/posts/users/search?q=an", Some(&ana)).await.status, StatusCode::OK);
    let refused = app.get("/posts/users/search?q=an", Some(&ana)).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(app.log_in("nobody@example.com", "Wrong#Pass1").await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.log_in("nobody@example.com", "Wrong#Pass1").await.status, StatusCode::TOO_MANY_REQUESTS);
    let text = scrape(&metrics).await;
    assert_eq!(value(&text, r#"selfsound_http_throttled_total{limit="search"}"#), 1.0, "{text}");
    assert_eq!(value(&text, r#"selfsound_http_throttled_total{limit="auth"}"#), 1.0, "{text}");
    let route = r#"selfsound_http_requests_total{method="GET",route="/posts/users/search",status="429"}"#;
    assert_eq!(value(&text, route), 1.0);
}

/// Uploads in flight and live streams open are read as they are at the scrape.
async fn uploads_and_streams_in_flight_are_gauged(db: TestDb) {
    let (app, metrics) = app_with_metrics(db, &[], auth::ThrottleRules::default()).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let text = scrape(&metrics).await;
    assert_eq!(value(&text, "selfsound_uploads_in_flight"), 0.0);
    assert_eq!(value(&text, "selfsound_uploads_max"), 8.0);
    assert_eq!(value(&text, "selfsound_live_streams_open"), 0.0);
    assert_eq!(value(&text, "selfsound_discover_finds_total"), 0.0, "Discover not read yet");

    // An avatar whose body is still arriving holds its upload slot.
    let boundary = "observability-boundary";
    let head = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"me.png\"\r\nContent-Type: image/png\r\n\r\n"
    );
    let mut upload = TcpStream::connect(app.url.trim_start_matches("http://")).await.unwrap();
    let request = format!(
        "PATCH /profile/me/avatar HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ana}\r\n\
         Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: 100000\r\n\r\n{head}"
    );
    upload.write_all(request.as_bytes()).await.unwrap();
    upload.write_all(&test_support::media::png(8, None)[..40]).await.unwrap();
    until_reads(&metrics, "selfsound_uploads_in_flight", 1.0).await;
    drop(upload);
    until_reads(&metrics, "selfsound_uploads_in_flight", 0.0).await;

    // A stream is open until it ends: signing out ends it at once (a client that merely goes
    // away is noticed at the next keep-alive).
    let _stream = crate::notifications::open_stream(&app.url, &ana).await;
    until_reads(&metrics, "selfsound_live_streams_open", 1.0).await;
    let out = app.call(reqwest::Method::POST, "/auth/logout", Some(&ana), None).await;
    assert!(out.status.is_success(), "{:?}", out.body);
    until_reads(&metrics, "selfsound_live_streams_open", 0.0).await;
}

/// Liveness answers without asking anything; readiness asks the database and the store; each
/// answer names its request in `X-Request-Id`, a new one each time.
async fn health_and_readiness_answer(db: TestDb) {
    let app = crate::common::spawn_app(db).await;
    let live = app.get("/healthz", None).await;
    assert_eq!((live.status, &live.body["status"]), (StatusCode::OK, &Value::from("ok")));
    let ready = app.get("/readyz", None).await;
    assert_eq!((ready.status, &ready.body), (StatusCode::OK, &serde_json::json!({"status": "ok"})));
    let id = |a: &crate::common::Answer| a.headers["x-request-id"].to_str().unwrap().to_owned();
    assert_eq!(id(&live).len(), 36, "a UUID");
    assert_ne!(id(&live), id(&ready));
    // A client's own id is not taken: anyone can write that header.
    let sent = app.client.get(format!("{}/healthz", app.url)).header("x-request-id", "forged").send().await.unwrap();
    assert_ne!(sent.headers()["x-request-id"], "forged");
    let refused = app.get("/notifications", None).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    assert_eq!(id(&refused).len(), 36, "refusals name their request too");
}

/// While PostgreSQL refuses connections to our database, readiness says so (503 naming the
/// database) and liveness does not; once it accepts them again, the server is ready by itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_follows_the_database() {
    use db::diesel::RunQueryDsl;
    let Some(db) = TestDb::postgres() else { return };
    let name = db.url.rsplit('/').next().unwrap().to_owned();
    let admin_url = format!("{}/postgres", db.url.rsplit_once('/').unwrap().0);
    let app = crate::common::spawn_app(db).await;
    assert_eq!(app.get("/readyz", None).await.status, StatusCode::OK);

    let mut admin = <db::diesel::PgConnection as db::diesel::Connection>::establish(&admin_url).unwrap();
    let refuse = |allow: bool, admin: &mut db::diesel::PgConnection| {
        db::diesel::sql_query(format!("ALTER DATABASE {name} ALLOW_CONNECTIONS {allow}")).execute(admin).unwrap();
        if !allow {
            db::diesel::sql_query(format!(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
            ))
            .execute(admin)
            .unwrap();
        }
    };
    refuse(false, &mut admin);
    let down = app.get("/readyz", None).await;
    refuse(true, &mut admin);
    assert_eq!(down.status, StatusCode::SERVICE_UNAVAILABLE, "{:?}", down.body);
    assert_eq!(down.detail(), "Not ready: the database does not answer");
    assert_eq!(app.get("/healthz", None).await.status, StatusCode::OK, "liveness does no I/O");

    let deadline = Instant::now() + Duration::from_secs(30);
    while app.get("/readyz", None).await.status != StatusCode::OK {
        assert!(Instant::now() < deadline, "ready again once the database accepts connections");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A store nobody answers at (an S3 endpoint on a closed port) makes the server unready, named.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_names_a_store_that_does_not_answer() {
    let closed = format!("http://127.0.0.1:{}", free_port());
    let env = [
        ("SELFSOUND_S3_BUCKET", "media"),
        ("AWS_ENDPOINT", closed.as_str()),
        ("AWS_REGION", "garage"),
        ("AWS_ACCESS_KEY_ID", "GKtest"),
        ("AWS_SECRET_ACCESS_KEY", "secret"),
    ];
    let options = Options { env: env.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect(), ..Default::default() };
    let app = spawn_app_with(TestDb::sqlite(), options).await;
    let down = app.get("/readyz", None).await;
    assert_eq!(down.status, StatusCode::SERVICE_UNAVAILABLE, "{:?}", down.body);
    assert_eq!(down.detail(), "Not ready: the media store does not answer");
    assert_eq!(app.get("/healthz", None).await.status, StatusCode::OK);
}

/// With `SELFSOUND_LOG_FORMAT=json` every line of a real process's log is a JSON object, and a
/// request's line carries the id its answer named; its metrics are on their own port.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_log_lines_carry_the_request_id() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("selfsound.log");
    let metrics = format!("127.0.0.1:{}", free_port());
    let env = [("SELFSOUND_LOG_FORMAT", "json"), ("SELFSOUND_METRICS_BIND", metrics.as_str())];
    let server = start_process_with(&dir.path().join("db.sqlite3").display().to_string(), Some(&log), &env).await;
    let res = reqwest::get(format!("{}/posts/feed?limit=5", server.url)).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let id = res.headers()["x-request-id"].to_str().unwrap().to_owned();
    let text = scrape(&format!("http://{metrics}/metrics")).await;
    assert_eq!(value(&text, r#"selfsound_http_requests_total{method="GET",route="/posts/feed",status="200"}"#), 1.0);

    let deadline = Instant::now() + Duration::from_secs(20);
    let line = loop {
        let written = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<Value> = written
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}")))
            .collect();
        let ours = lines
            .into_iter()
            .find(|l| l["spans"].as_array().is_some_and(|spans| spans.iter().any(|s| s["request_id"] == id.as_str())));
        if let Some(line) = ours {
            break line;
        }
        assert!(Instant::now() < deadline, "no line names request {id}:\n{written}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(line["fields"]["message"], "answered", "{line}");
    assert_eq!(line["fields"]["status"], 200);
    assert_eq!(line["target"], "selfsound::access");
    let span = &line["spans"][0];
    assert_eq!(
        (&span["http.route"], &span["http.target"]),
        (&Value::from("/posts/feed"), &Value::from("/posts/feed?limit=5"))
    );
}

test_support::both_backends!(
    metrics_are_served_on_their_own_address_only,
    refusals_are_counted_by_limit,
    uploads_and_streams_in_flight_are_gauged,
    health_and_readiness_answer,
);
