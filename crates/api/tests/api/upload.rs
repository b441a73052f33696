//! The multipart reader (`api::upload`) against a real server and real storage: limits hold
//! while streaming, failed requests leave nothing behind, and a 100 MB body passes through in
//! bounded memory.

use std::net::TcpListener;

use actix_multipart::Multipart;
use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use api::error::ApiError;
use api::upload::{self, FileBody, FileRule, Sink, UploadRules};
use reqwest::StatusCode;
use serde_json::{Value, json};
use storage::Storage;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const MB: u64 = 1024 * 1024;

/// The first bytes decide: `OK` files are accepted (and the handler stores them under `test/`,
/// as a post stores its files), others refused before the rest is read.
fn ok_files_only(head: &[u8], _name: &str) -> Result<Option<(u64, String)>, ApiError> {
    if head.starts_with(b"OK") { Ok(None) } else { Err(ApiError::unsupported_type("Unsupported file type")) }
}

fn rules() -> UploadRules {
    UploadRules {
        files: vec![
            FileRule {
                field: "files",
                max_bytes: 200 * MB,
                too_large: |name| format!("{name} exceeds 200MB limit"),
                sink: Sink::TempFile,
                narrow: Some(ok_files_only),
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
        too_many_files: "Maximum 3 files allowed".to_owned(),
        max_total: 250 * MB,
        total_too_large: "Total file size exceeds 250MB limit".to_owned(),
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

/// Answers what was received: each file's field, name, size and where it went. Files of the
/// field `files` are then stored, streamed from their temporary file, as a post stores its own.
async fn receive(
    req: HttpRequest,
    form: Multipart,
    data: web::Data<(Storage, UploadRules)>,
) -> Result<HttpResponse, ApiError> {
    let (storage, rules) = data.get_ref();
    let received = upload::read(&req, form, rules).await?;
    let titles: Vec<&str> = received.texts("titles").collect();
    let mut files: Vec<Value> = Vec::new();
    for f in &received.files {
        let body = match &f.body {
            FileBody::TempFile(t) if f.field == "files" => {
                let key = format!("test/{:016x}.bin", rand::random::<u64>());
                storage.put_file(&key, t.path()).await?;
                json!({"key": key})
            }
            FileBody::Memory(b) => json!({"memory": b.len()}),
            FileBody::TempFile(t) => json!({"temp": std::fs::read(t.path()).map(|b| b.len()).unwrap_or(0)}),
        };
        files.push(json!({"field": f.field, "name": f.file_name, "size": f.size, "body": body}));
    }
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

/// One file streamed as a multipart upload: its bytes are `head`, then filler up to `size`.
struct Streamed<'a> {
    path: &'a str,
    token: Option<&'a str>,
    field: &'a str,
    file_name: &'a str,
    head: Vec<u8>,
    size: u64,
}

/// Sends one multipart body, made and written 64 KiB at a time (the client never holds the
/// body), over a plain TCP connection; answers the status line.
async fn stream_upload(url: &str, file: Streamed<'_>) -> String {
    let addr = url.trim_start_matches("http://");
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{}\"; filename=\"{}\"\r\n\r\n",
        file.field, file.file_name
    );
    let tail = format!("\r\n--{BOUNDARY}--\r\n");
    let length = head.len() as u64 + file.size + tail.len() as u64;
    let auth = file.token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let request = format!(
        "POST {} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n\
         Content-Length: {length}\r\nConnection: close\r\n\r\n{head}",
        file.path
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    tcp.write_all(&file.head).await.unwrap();
    let chunk = vec![0x5a_u8; 64 * 1024];
    let mut left = file.size - file.head.len() as u64;
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

/// The start of a 16-bit mono WAV whose samples make up a file of `size` bytes.
fn wav_head(size: u64) -> Vec<u8> {
    let data = u32::try_from(size - 44).unwrap();
    let mut h = Vec::with_capacity(44);
    h.extend_from_slice(b"RIFF");
    h.extend_from_slice(&(data + 36).to_le_bytes());
    h.extend_from_slice(b"WAVEfmt ");
    h.extend_from_slice(&16u32.to_le_bytes());
    h.extend_from_slice(&1u16.to_le_bytes()); // PCM
    h.extend_from_slice(&1u16.to_le_bytes()); // mono
    h.extend_from_slice(&44_100u32.to_le_bytes());
    h.extend_from_slice(&88_200u32.to_le_bytes());
    h.extend_from_slice(&2u16.to_le_bytes());
    h.extend_from_slice(&16u16.to_le_bytes());
    h.extend_from_slice(b"data");
    h.extend_from_slice(&data.to_le_bytes());
    h
}

/// A real one-second MP4 (made by ffmpeg), then a `free` box holding the rest of `size` bytes:
/// a video whose frames decode, as large as the test needs.
fn mp4_head(size: u64) -> Vec<u8> {
    let mut h = test_support::media::video("mp4").expect("ffmpeg makes the test video");
    h.extend_from_slice(&u32::try_from(size - h.len() as u64).unwrap().to_be_bytes());
    h.extend_from_slice(b"free");
    h
}

/// Streams `file`, with the peak reset just before: answers (status line, peak growth in bytes).
async fn measured(url: &str, file: Streamed<'_>) -> (String, u64) {
    // Linux: writing 5 resets the peak resident size (VmHWM) to the current one.
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
    let before = status_kb("VmRSS:");
    let status = stream_upload(url, file).await;
    (status, status_kb("VmHWM:").saturating_sub(before) * 1024)
}

/// Runs in a process of its own (started by the test below), so nothing else in the test
/// binary moves its memory: for each path, one warm-up upload, then the measured one with the
/// peak reset before it — 100 MB through the reader into storage, a 100 MB video posted, and a
/// 48 MB WAV posted (decoded whole for its duration and waveform).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run by streamed_upload_memory_is_bounded in a process of its own"]
async fn upload_memory_probe() {
    if std::env::var(PROBE_ENV).is_err() {
        return;
    }
    let server = UploadServer::start().await;
    let reader = |size| Streamed {
        path: "/upload",
        token: None,
        field: "files",
        file_name: "big.bin",
        head: b"OK".to_vec(),
        size,
    };
    assert!(stream_upload(&server.url, reader(MB)).await.contains("200"), "warm-up upload");
    let (status, growth) = measured(&server.url, reader(100 * MB)).await;
    println!("PEAK_GROWTH_BYTES reader {growth}");
    assert!(status.contains("200"), "{status}");
    let stored: u64 = server.stored().iter().map(|p| std::fs::metadata(p).unwrap().len()).sum();
    assert_eq!(stored, MB + 100 * MB, "both uploads arrived whole");
    server.handle.stop(false).await;

    let app = crate::common::spawn_app(test_support::TestDb::sqlite()).await;
    let (token, _) = app.person("Ana", "ana@example.com").await;
    for (path, field, name, head, size) in [
        ("/posts/media", "files", "take.mp4", mp4_head as fn(u64) -> Vec<u8>, 100 * MB),
        ("/posts/audio", "audio_files", "take.wav", wav_head, 48 * MB),
    ] {
        let file = |size: u64| Streamed { path, token: Some(&token), field, file_name: name, head: head(size), size };
        assert!(stream_upload(&app.url, file(MB)).await.contains("201"), "warm-up {path}");
        let (status, growth) = measured(&app.url, file(size)).await;
        println!("PEAK_GROWTH_BYTES {path} {growth}");
        assert!(status.contains("201"), "{path}: {status}");
    }
    app.stop().await;
}

/// Uploads stream in bounded memory: 100 MB through the reader into storage, a 100 MB video
/// and a 48 MB WAV through their post calls, each with at most 16 MiB more memory at its peak
/// than before it (measured in a fresh process: the server, the client and the runtime
/// together; `make bench` prints the figures).
#[test]
fn streamed_upload_memory_is_bounded() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["upload::upload_memory_probe", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
        .env(PROBE_ENV, "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the probe failed:\n{text}\n{}", String::from_utf8_lossy(&out.stderr));
    let figures: Vec<(String, u64)> = text
        .lines()
        .filter_map(|l| l.split("PEAK_GROWTH_BYTES ").nth(1))
        .filter_map(|v| {
            let (what, bytes) = v.trim().rsplit_once(' ')?;
            Some((what.to_owned(), bytes.parse().ok()?))
        })
        .collect();
    assert_eq!(figures.len(), 3, "a figure per upload path:\n{text}");
    for (what, growth) in figures {
        println!(
            "streamed upload ({what}): peak memory growth {:.1} MiB (budget {} MiB)",
            growth as f64 / MB as f64,
            MEMORY_BUDGET / MB
        );
        assert!(growth <= MEMORY_BUDGET, "{what}: peak growth {growth} bytes over the {MEMORY_BUDGET} budget");
    }
}
