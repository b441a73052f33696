//! Graceful shutdown of a real `selfsound serve`: on SIGTERM it stops accepting at once, ends
//! live streams with a hint to reconnect, lets an upload in flight finish, and exits 0.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use test_support::TestDb;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::{Part, multipart, person_in, start_process};
use crate::notifications::{next_event, open_stream};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_finishes_uploads_in_flight_ends_streams_and_exits_0() {
    let db = TestDb::sqlite();
    let mut server = start_process(&db.url, None).await;
    let (ana, _) = person_in(&db, "Ana", "ana@example.com");
    let (bob, _) = person_in(&db, "Bob", "bob@example.com");

    let mut stream = open_stream(&server.url, &ana).await;
    let mut buffer = String::new();
    assert!(next_event(&mut stream, &mut buffer, Duration::from_secs(5)).await.is_some(), "the first count");

    // Bob's upload is on its way: the head and a first part of the body are in.
    let (content_type, body) = multipart(&[Part::file("files", "p.png", test_support::media::png(600, None))]);
    let addr = server.url.trim_start_matches("http://").to_owned();
    let mut upload = TcpStream::connect(&addr).await.unwrap();
    let head = format!(
        "POST /posts/media HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {bob}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    upload.write_all(head.as_bytes()).await.unwrap();
    let (first, rest) = body.split_at(body.len() / 3);
    upload.write_all(first).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;

    let stopping = Instant::now();
    server.terminate();

    // New connections are refused once the signal is handled.
    let mut refused = false;
    while stopping.elapsed() < Duration::from_secs(5) {
        if TcpStream::connect(&addr).await.is_err() {
            refused = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(refused, "still accepting new connections 5 s after SIGTERM");

    // The live stream is told to reconnect shortly, and ends.
    let mut told = String::new();
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        while let Ok(Some(chunk)) = stream.chunk().await {
            told.push_str(&String::from_utf8_lossy(&chunk));
        }
    })
    .await;
    assert!(ended.is_ok(), "the live stream was not ended: {told:?}");
    assert!(told.contains("retry: 1000"), "{told:?}");

    // The upload in flight finishes, slowly, and is answered.
    for chunk in rest.chunks(rest.len() / 4 + 1) {
        tokio::time::sleep(Duration::from_millis(200)).await;
        upload.write_all(chunk).await.unwrap();
    }
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(20), async {
        let mut buf = [0u8; 4096];
        loop {
            let n = upload.read(&mut buf).await.unwrap_or(0);
            if n == 0 {
                break;
            }
            answer.extend_from_slice(&buf[..n]);
            if String::from_utf8_lossy(&answer).contains("\"id\"") {
                break;
            }
        }
    })
    .await;
    assert!(read.is_ok());
    let answer = String::from_utf8_lossy(&answer).into_owned();
    assert!(answer.starts_with(&format!("HTTP/1.1 {}", StatusCode::CREATED.as_u16())), "{answer}");

    // Then the process exits, successfully.
    let status = server.exited_within(Duration::from_secs(35)).await;
    assert_eq!(status.map(|s| s.code()), Some(Some(0)), "exit status after SIGTERM");
    eprintln!("graceful shutdown took {:?} with an upload in flight", stopping.elapsed());
}
