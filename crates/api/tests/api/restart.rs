//! A database restart under steady load: a server on a PostgreSQL cluster of the test's own,
//! which is stopped (`pg_ctl stop -m fast`, as a restart does) and started again while people
//! read, like and comment. While it is down requests are answered 503 with `{"detail": …}`, none
//! waits longer than the pool's timeout; the server recovers by itself, with no error from
//! 10 s after the database is back; the live-notification listener connects again.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use test_support::TestDb;
use test_support::pg_cluster::PgCluster;
use tokio::sync::Mutex;

use crate::common::{lyrics_body, person_in, start_process_with};
use crate::notifications::{next_event, open_stream};

/// One request of the load: when it was sent, how long it took, and what came back.
struct Sample {
    sent: Instant,
    took: Duration,
    status: Option<StatusCode>,
    body: Value,
}

async fn load(url: String, token: String, post: String, stop: Arc<AtomicBool>, samples: Arc<Mutex<Vec<Sample>>>) {
    let client = reqwest::Client::builder().timeout(Duration::from_secs(40)).build().unwrap();
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        n += 1;
        let req = match n % 3 {
            0 => client.get(format!("{url}/posts/feed?limit=10")),
            1 => client.post(format!("{url}/posts/{post}/like")),
            _ => client.post(format!("{url}/posts/{post}/comments")).json(&json!({"content": format!("steady {n}")})),
        };
        let sent = Instant::now();
        let res = req.bearer_auth(&token).send().await;
        let took = sent.elapsed();
        let (status, body) = match res {
            Ok(r) => (Some(r.status()), r.json::<Value>().await.unwrap_or(Value::Null)),
            Err(_) => (None, Value::Null),
        };
        samples.lock().await.push(Sample { sent, took, status, body });
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_restart_under_load_fails_fast_and_recovers_by_itself() {
    let Some(cluster) = PgCluster::start() else { return };
    let db = TestDb::at(&cluster.url());
    let limits = [("SELFSOUND_WRITE_LIMITS", "comment=100000/5m,like=100000/10m")];
    let log = cluster.dir().join("selfsound.log");
    let server = start_process_with(&db.url, Some(&log), &limits).await;
    let people: Vec<(String, String)> =
        (0..4).map(|i| person_in(&db, &format!("P{i}"), &format!("p{i}@example.com"))).collect();
    let client = reqwest::Client::new();
    let made = client.post(format!("{}/posts/lyrics", server.url)).bearer_auth(&people[0].0).json(&lyrics_body("Up"));
    let post = made.send().await.unwrap().json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    // The author listens live all along.
    let mut stream = open_stream(&server.url, &people[0].0).await;
    let mut buffer = String::new();
    assert!(next_event(&mut stream, &mut buffer, Duration::from_secs(5)).await.is_some(), "the first count");

    let (stop, samples) = (Arc::new(AtomicBool::new(false)), Arc::new(Mutex::new(Vec::new())));
    let workers: Vec<_> = people[1..]
        .iter()
        .map(|(token, _)| {
            tokio::spawn(load(server.url.clone(), token.clone(), post.clone(), stop.clone(), samples.clone()))
        })
        .collect();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let down = Instant::now();
    cluster.stop();
    tokio::time::sleep(Duration::from_secs(8)).await;
    cluster.start_again();
    let back = Instant::now();
    tokio::time::sleep(Duration::from_secs(15)).await;
    stop.store(true, Ordering::Relaxed);
    for w in workers {
        w.await.unwrap();
    }

    let samples = samples.lock().await;
    let during: Vec<&Sample> =
        samples.iter().filter(|s| s.sent > down + Duration::from_millis(500) && s.sent < back).collect();
    assert!(!during.is_empty(), "requests were sent while the database was down");
    for s in &during {
        assert!(s.took < Duration::from_secs(8), "a request waited {:?} while the database was down", s.took);
        if let Some(status) = s.status.filter(|st| !st.is_success()) {
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{:?}", s.body);
            assert!(s.body["detail"].as_str().is_some_and(|d| !d.is_empty()), "{:?}", s.body);
        }
    }
    assert!(during.iter().any(|s| s.status == Some(StatusCode::SERVICE_UNAVAILABLE)), "the outage was answered 503");
    let settled = back + Duration::from_secs(10);
    let after: Vec<&Sample> = samples.iter().filter(|s| s.sent > settled).collect();
    assert!(after.len() > 10, "the load went on after the database came back");
    let failed: Vec<_> =
        after.iter().filter(|s| s.status.is_none_or(|st| !st.is_success())).map(|s| (s.status, &s.body)).collect();
    assert!(failed.is_empty(), "errors 10 s after the database came back: {failed:?}");
    let first_ok = samples
        .iter()
        .filter(|s| s.sent > back && s.status.is_some_and(|st| st.is_success()))
        .map(|s| s.sent - back)
        .min();
    let answered_503 = samples.iter().filter(|s| s.status == Some(StatusCode::SERVICE_UNAVAILABLE)).count();
    let longest_503 =
        samples.iter().filter(|s| s.status == Some(StatusCode::SERVICE_UNAVAILABLE)).map(|s| s.took).max();
    eprintln!(
        "database restart: {} requests, {answered_503} answered 503 (longest wait {longest_503:?}), first success {first_ok:?} after the database was back",
        samples.len()
    );
    drop(samples);

    // The live listener connected again: someone's first notification after the restart reaches
    // their open stream (Bo's: the author's count is past the 100 it counts to).
    let (bo, bo_id) = &people[1];
    let mut stream = open_stream(&server.url, bo).await;
    let mut buffer = String::new();
    assert_eq!(
        next_event(&mut stream, &mut buffer, Duration::from_secs(5)).await.map(|e| e.1),
        Some(r#"{"unread":0}"#.into())
    );
    let listen = client.post(format!("{}/profiles/listening/{bo_id}", server.url)).bearer_auth(&people[3].0);
    assert!(listen.send().await.unwrap().status().is_success());
    let heard = next_event(&mut stream, &mut buffer, Duration::from_secs(10)).await;
    let listener: Vec<String> = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains("listener") || l.contains("LISTEN"))
        .map(str::to_owned)
        .collect();
    assert!(
        heard.as_ref().is_some_and(|(event, data)| event == "unread" && data == r#"{"unread":1}"#),
        "a live notification after the restart: {heard:?}; the listener's log: {listener:#?}"
    );
}
