//! The multipart reader (`api::upload`) against a real server and real storage: limits hold
//! while streaming, failed requests leave nothing behind, and a 100 MB body passes through in
//! bounded memory.

use std::net::TcpListener;
use std::sync::Arc;

use actix_multipart::Multipart;
use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use api::error::ApiError;
use api::upload::{self, FileBody, FileRule, Sink, UploadRules};
use reqwest::StatusCode;
use serde_json::{Value, json};
use storage::Storage;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const MB: u64 = 1024 * 1024;

/// The first bytes decide: `OK` files are accepted and stored under `test/`, others refused.
fn key_for_ok_files() -> upload::KeyFor {
    Arc::new(|head: &[u8]| {
        if head.starts_with(b"OK") {
            Ok(format!("test/{:016x}.bin", rand::random::<u64>()))
        } else {
            Err(ApiError::unsupported_type("Unsupported file type"))
        }
    })
}

fn rules() -> UploadRules {
    UploadRules {
        files: vec![
            FileRule {
                field: "files",
                max_bytes: 200 * MB,
                too_large: |name| format!("{name} exceeds 200MB limit"),
                sink: Sink::Storage(key_for_ok_files()),
                narrow: None,
            },
            FileRule {
                field: "small",
                max_bytes: 1000,
                too_large: |name| format!("{name} exceeds 1000 bytes"),
                sink: Sink::Memory,
                narrow: None,
            },
            FileRule {
                field: "seekable",
                max_bytes: MB,
                too_large: |name| format!("{name} exceeds 1MB limit"),
                sink: Sink::TempFile,
                narrow: None,
            },
        ],
        texts: vec!["titles"],
        max_files: 3,
        too_many_files: "Maximum 3 files allowed",
        max_total: 250 * MB,
        total_too_large: "Total file size exceeds 250MB limit",
    }
}

struct UploadServer {
    url: String,
    media: tempfile::TempDir,
    handle: actix_web::dev::ServerHandle,
}

impl UploadServer {
    async fn start() -> UploadServer {
        let media = tempfile::tempdir().unwrap();
        let storage = Storage::local(media.path()).unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let data = web::Data::new((storage.clone(), rules()));
        let server =
            HttpServer::new(move || App::new().app_data(data.clone()).route("/upload", web::post().to(receive)))
                .workers(1)
                .listen(listener)
                .unwrap()
                .run();
        let handle = server.handle();
        tokio::spawn(server);
        UploadServer { url, media, handle }
    }

    fn stored(&self) -> Vec<std::path::PathBuf> {
        fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
            std::fs::read_dir(dir)
                .map(|d| {
                    d.flatten().flat_map(|e| if e.path().is_dir() { walk(&e.path()) } else { vec![e.path()] }).collect()
                })
                .unwrap_or_default()
        }
        walk(self.media.path())
    }
}

/// Answers what was received: each file's field, name, size and where it went.
async fn receive(
    req: HttpRequest,
    form: Multipart,
    data: web::Data<(Storage, UploadRules)>,
) -> Result<HttpResponse, ApiError> {
    let (storage, rules) = data.get_ref();
    let received = upload::read(&req, form, rules, storage).await?;
    let titles: Vec<&str> = received.texts("titles").collect();
    let files: Vec<Value> = received
        .files
        .iter()
        .map(|f| {
            let body = match &f.body {
                FileBody::Memory(b) => json!({"memory": b.len()}),
                FileBody::TempFile(t) => json!({"temp": std::fs::read(t.path()).map(|b| b.len()).unwrap_or(0)}),
                FileBody::Stored { key } => json!({"key": key}),
            };
            json!({"field": f.field, "name": f.file_name, "size": f.size, "body": body})
        })
        .collect();
    Ok(HttpResponse::Ok().json(json!({"files": files, "titles": titles})))
}

const BOUNDARY: &str = "selfsound-upload-test";

fn part(field: &str, file_name: Option<&str>, body: &[u8]) -> Vec<u8> {
    let disposition = match file_name {
        Some(f) => format!("form-data; name=\"{field}\"; filename=\"{f}\""),
        None => format!("form-data; name=\"{field}\""),
    };
    let mut out = format!("--{BOUNDARY}\r\nContent-Disposition: {disposition}\r\n\r\n").into_bytes();
    out.extend_from_slice(body);
    out.extend_from_slice(b"\r\n");
    out
}

fn form(parts: &[Vec<u8>]) -> Vec<u8> {
    let mut body: Vec<u8> = parts.concat();
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

async fn post(server: &UploadServer, body: Vec<u8>) -> (StatusCode, Value) {
    let res = reqwest::Client::new()
        .post(format!("{}/upload", server.url))
        .header("content-type", format!("multipart/form-data; boundary={BOUNDARY}"))
        .body(body)
        .send()
        .await
        .unwrap();
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_go_where_their_rule_says_and_texts_are_read() {
    let server = UploadServer::start().await;
    let big = [b"OK".as_slice(), &vec![7u8; 300_000]].concat();
    let (status, body) = post(
        &server,
        form(&[
            part("titles", None, b"First"),
            part("files", Some("song.bin"), &big),
            part("small", Some("tiny.txt"), b"tiny"),
            part("seekable", Some("score.mxl"), &[1u8; 5000]),
            part("ignored", Some("other.bin"), b"skipped"),
            part("titles", None, b"Second"),
        ]),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["titles"], json!(["First", "Second"]));
    assert_eq!(body["files"][0]["size"], 300_002);
    assert_eq!(body["files"][0]["name"], "song.bin");
    assert_eq!(body["files"][1]["body"], json!({"memory": 4}));
    assert_eq!(body["files"][2]["body"], json!({"temp": 5000}));
    let key = body["files"][0]["body"]["key"].as_str().unwrap();
    assert_eq!(std::fs::read(server.media.path().join(key)).unwrap(), big, "stored whole, byte for byte");
    server.handle.stop(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_hold_while_streaming_and_a_refusal_leaves_nothing_stored() {
    let server = UploadServer::start().await;
    let ok = |n: usize| [b"OK".as_slice(), &vec![1u8; n]].concat();

    // A second file over its own limit: the first, already stored, is removed again.
    let (status, body) = post(
        &server,
        form(&[part("files", Some("a.bin"), &ok(100_000)), part("small", Some("big.txt"), &[0u8; 1001])]),
    )
    .await;
    assert_eq!((status, body["detail"].clone()), (StatusCode::PAYLOAD_TOO_LARGE, json!("big.txt exceeds 1000 bytes")));
    assert!(server.stored().is_empty(), "{:?}", server.stored());

    // One file too many.
    let four: Vec<Vec<u8>> = (0..4).map(|i| part("files", Some(&format!("{i}.bin")), &ok(10))).collect();
    let (status, body) = post(&server, form(&four)).await;
    assert_eq!((status, body["detail"].clone()), (StatusCode::PAYLOAD_TOO_LARGE, json!("Maximum 3 files allowed")));
    assert!(server.stored().is_empty());

    // Bytes of a kind not accepted: refused from the first bytes, nothing written.
    let (status, body) = post(&server, form(&[part("files", Some("x.exe"), b"MZ\x90\x00 not ok")])).await;
    assert_eq!((status, body["detail"].clone()), (StatusCode::UNSUPPORTED_MEDIA_TYPE, json!("Unsupported file type")));
    assert!(server.stored().is_empty());

    // Not multipart at all.
    let res = reqwest::Client::new().post(format!("{}/upload", server.url)).json(&json!({})).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);

    // A body that declares more than the whole limit is refused before it is read.
    let res = reqwest::Client::new()
        .post(format!("{}/upload", server.url))
        .header("content-type", format!("multipart/form-data; boundary={BOUNDARY}"))
        .header("content-length", (300 * MB).to_string())
        .body(vec![0u8; 10])
        .send()
        .await;
    if let Ok(res) = res {
        assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    }

    // A broken body is a 400, never a 500.
    let (status, _) =
        post(&server, b"--selfsound-upload-test\r\nContent-Disposition: form-data; name=\"files\"; filena".to_vec())
            .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(server.stored().is_empty());
    server.handle.stop(false).await;
}

// --- Memory ---

/// The peak memory growth allowed while 100 MB stream through the reader into storage.
const MEMORY_BUDGET: u64 = 16 * MB;
const PROBE_ENV: &str = "SELFSOUND_UPLOAD_MEMORY_PROBE";

fn status_kb(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// Sends one multipart body of `size` bytes, made and written 64 KiB at a time (the client
/// never holds the body), over a plain TCP connection; answers the status line.
async fn stream_upload(url: &str, size: u64) -> String {
    let addr = url.trim_start_matches("http://");
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head =
        format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"big.bin\"\r\n\r\nOK");
    let tail = format!("\r\n--{BOUNDARY}--\r\n");
    let length = head.len() as u64 + size + tail.len() as u64;
    let request = format!(
        "POST /upload HTTP/1.1\r\nHost: {addr}\r\nContent-Type: multipart/form-data; boundary={BOUNDARY}\r\n\
         Content-Length: {length}\r\nConnection: close\r\n\r\n{head}"
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let chunk = vec![0x5a_u8; 64 * 1024];
    let mut left = size;
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        tcp.write_all(&chunk[..n]).await.unwrap();
        left -= n as u64;
    }
    tcp.write_all(tail.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tcp.read_to_end(&mut answer).await.unwrap();
    String::from_utf8_lossy(&answer).lines().next().unwrap_or_default().to_owned()
}

/// Runs in a process of its own (started by the test below), so nothing else in the test
/// binary moves its memory: starts the server, warms it up, resets the peak, streams 100 MB.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run by streamed_upload_memory_is_bounded in a process of its own"]
async fn upload_memory_probe() {
    if std::env::var(PROBE_ENV).is_err() {
        return;
    }
    let server = UploadServer::start().await;
    assert!(stream_upload(&server.url, MB).await.contains("200"), "warm-up upload");
    // Linux: writing 5 resets the peak resident size (VmHWM) to the current one.
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
    let before = status_kb("VmRSS:");
    let status = stream_upload(&server.url, 100 * MB).await;
    let peak = status_kb("VmHWM:");
    println!("PEAK_GROWTH_BYTES={}", (peak.saturating_sub(before)) * 1024);
    assert!(status.contains("200"), "{status}");
    let stored: u64 = server.stored().iter().map(|p| std::fs::metadata(p).unwrap().len()).sum();
    assert_eq!(stored, MB + 2 + 100 * MB + 2, "both uploads arrived whole");
    server.handle.stop(false).await;
}

/// A 100 MB upload streams through the reader to storage with at most 16 MiB more memory at
/// its peak than before it (measured in a fresh process: the server, the client and the
/// runtime together).
#[test]
fn streamed_upload_memory_is_bounded() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["upload::upload_memory_probe", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
        .env(PROBE_ENV, "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the probe failed:\n{text}\n{}", String::from_utf8_lossy(&out.stderr));
    let growth: u64 = text
        .lines()
        .find_map(|l| l.split("PEAK_GROWTH_BYTES=").nth(1))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no figure from the probe:\n{text}"));
    println!(
        "streamed 100 MB: peak memory growth {:.1} MiB (budget {} MiB)",
        growth as f64 / MB as f64,
        MEMORY_BUDGET / MB
    );
    assert!(growth <= MEMORY_BUDGET, "peak growth {growth} bytes over the {MEMORY_BUDGET} budget");
}
