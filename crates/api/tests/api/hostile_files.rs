//! The hostile-file corpus (issue 16, docs/security.md): files an attacker would upload, made
//! here, each sent to a `selfsound` process of its own. Each is refused with a 4xx, or stored
//! inert (served with its checked type, `nosniff`, nothing of what was appended); each is
//! answered within 5 s; the process's memory grows by a bounded amount; and once the accepted
//! posts are deleted (and the jobs their tracks queued have ended), nothing is left in its media
//! folder or its temporary folder. Processing
//! does not depend on the database: SQLite only.

use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::Value;
use test_support::TestDb;

use crate::common::{Part, multipart, person_in, start_process_with};

/// What a case may come to.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Outcome {
    /// A 4xx (not 5xx).
    Refused,
    /// A 4xx, or a post whose served files are inert.
    RefusedOrInert,
}

struct Case {
    what: String,
    path: &'static str,
    parts: Vec<Part>,
    outcome: Outcome,
}

fn case(what: impl Into<String>, path: &'static str, parts: Vec<Part>, outcome: Outcome) -> Case {
    Case { what: what.into(), path, parts, outcome }
}

fn file(path: &'static str, name: &str, bytes: Vec<u8>) -> Vec<Part> {
    let field = match path {
        "/posts/audio" => "audio_files",
        "/posts/musicxml" => "musicxml_files",
        "/profile/me/avatar" => "avatar",
        _ => "files",
    };
    vec![Part::file(field, name, bytes)]
}

/// ffmpeg's output for `args` (`-y` and the output path added), or a panic: the corpus needs it.
fn ffmpeg(dir: &Path, args: &[&str], out: &str) -> Vec<u8> {
    let path = dir.join(out);
    let status = Command::new("ffmpeg")
        .args(["-nostdin", "-v", "error", "-y"])
        .args(args)
        .arg(&path)
        .status()
        .expect("ffmpeg (the corpus makes its files with it)");
    assert!(status.success(), "ffmpeg {args:?}");
    std::fs::read(path).unwrap()
}

fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated).large_file(false);
    for (name, bytes) in entries {
        w.start_file(*name, options).unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

const HTML: &[u8] = b"<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>";
const SVG: &[u8] =
    b"<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"><script>alert(document.domain)</script></svg>";

fn score(body: &str) -> Vec<u8> {
    format!(
        "<?xml version=\"1.0\"?>{body}<score-partwise version=\"4.0\"><part-list><score-part id=\"P1\"><part-name>x</part-name></score-part></part-list><part id=\"P1\"/></score-partwise>"
    )
    .into_bytes()
}

/// A GIF with a 64×64 picture and one 16000×16000 frame.
fn gif_with_a_huge_frame() -> Vec<u8> {
    let mut g = b"GIF89a".to_vec();
    g.extend_from_slice(&64u16.to_le_bytes());
    g.extend_from_slice(&64u16.to_le_bytes());
    g.extend_from_slice(&[0x80, 0, 0]); // a global colour table of 2
    g.extend_from_slice(&[0, 0, 0, 255, 255, 255]);
    g.push(0x2C);
    g.extend_from_slice(&[0, 0, 0, 0]);
    g.extend_from_slice(&16000u16.to_le_bytes());
    g.extend_from_slice(&16000u16.to_le_bytes());
    g.push(0);
    g.extend_from_slice(&[2, 2, 0x4C, 0x01, 0]); // a tiny LZW stream
    g.push(0x3B);
    g
}

/// A 16-bit mono WAV whose header says its samples take 4 GB; one second of them follows.
fn wav_claiming_4_gb() -> Vec<u8> {
    let mut h = b"RIFF".to_vec();
    h.extend_from_slice(&u32::MAX.to_le_bytes());
    h.extend_from_slice(b"WAVEfmt ");
    h.extend_from_slice(&16u32.to_le_bytes());
    h.extend_from_slice(&[1, 0, 1, 0]);
    h.extend_from_slice(&8000u32.to_le_bytes());
    h.extend_from_slice(&16000u32.to_le_bytes());
    h.extend_from_slice(&[2, 0, 16, 0]);
    h.extend_from_slice(b"data");
    h.extend_from_slice(&(u32::MAX - 64).to_le_bytes());
    h.extend((0..8000).flat_map(|i: i32| ((i % 64 - 32) as i16 * 500).to_le_bytes()));
    h
}

fn corpus(dir: &Path) -> Vec<Case> {
    use Outcome::*;
    let mut cases = Vec::new();
    // Documents dressed as media, under every name a kind accepts.
    for ext in ["jpeg", "jpg", "png", "gif", "webp", "mp4", "mov", "avi", "mkv", "webm"] {
        let name = format!("page.{ext}");
        cases.push(case(
            format!("HTML as {name}"),
            "/posts/media",
            file("/posts/media", &name, HTML.to_vec()),
            Refused,
        ));
        let name = format!("drawing.{ext}");
        cases.push(case(format!("SVG as {name}"), "/posts/media", file("/posts/media", &name, SVG.to_vec()), Refused));
    }
    for ext in ["mp3", "wav", "ogg", "flac", "m4a", "aac"] {
        let name = format!("page.{ext}");
        cases.push(case(
            format!("HTML as {name}"),
            "/posts/audio",
            file("/posts/audio", &name, HTML.to_vec()),
            Refused,
        ));
    }
    for ext in ["musicxml", "xml", "mxl"] {
        let name = format!("page.{ext}");
        let parts = file("/posts/musicxml", &name, HTML.to_vec());
        cases.push(case(format!("HTML as {name}"), "/posts/musicxml", parts, Refused));
    }
    for name in ["me.svg", "me.png", "me.html"] {
        cases.push(case(
            format!("SVG avatar {name}"),
            "/profile/me/avatar",
            file("/profile/me/avatar", name, SVG.to_vec()),
            Refused,
        ));
    }

    // Polyglots.
    let mut gif_js =
        b"GIF89a/*\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
            .to_vec();
    gif_js.extend_from_slice(b"*/=1;alert(document.cookie);//<script>alert(1)</script>");
    cases.push(case("GIF/JS polyglot", "/posts/media", file("/posts/media", "x.gif", gif_js), RefusedOrInert));
    let mut png_zip = test_support::media::png(20, None);
    png_zip.extend(zip(&[("index.html", HTML)]));
    cases.push(case("PNG+ZIP polyglot", "/posts/media", file("/posts/media", "x.png", png_zip), RefusedOrInert));
    let mut png_html = test_support::media::png(20, None);
    png_html.extend_from_slice(HTML);
    cases.push(case(
        "PNG with HTML after IEND",
        "/posts/media",
        file("/posts/media", "x.png", png_html),
        RefusedOrInert,
    ));
    let mut mkv_zip = vec![0x1A, 0x45, 0xDF, 0xA3];
    mkv_zip.extend(zip(&[("index.html", HTML)]));
    cases.push(case("MKV magic + ZIP", "/posts/media", file("/posts/media", "x.mkv", mkv_zip), Refused));
    let mut mp4_zip = b"\0\0\0\x18ftypisom\0\0\x02\0isomiso2".to_vec();
    mp4_zip.extend(zip(&[("index.html", HTML)]));
    cases.push(case("MP4 ftyp + ZIP", "/posts/media", file("/posts/media", "x.mp4", mp4_zip), Refused));

    // Decompression bombs and huge frames.
    let mut claims_huge = test_support::media::png(20, None);
    claims_huge[16..20].copy_from_slice(&60000u32.to_be_bytes());
    claims_huge[20..24].copy_from_slice(&60000u32.to_be_bytes());
    cases.push(case("PNG claiming 60000×60000", "/posts/media", file("/posts/media", "x.png", claims_huge), Refused));
    let bomb = ffmpeg(
        dir,
        &["-f", "lavfi", "-i", "color=white:s=8000x5000", "-frames:v", "1", "-pix_fmt", "rgb48be"],
        "bomb.png",
    );
    assert!(bomb.len() < 2 << 20, "a small file: {}", bomb.len());
    cases.push(case(
        "40 Mpx 16-bit PNG of one colour",
        "/posts/media",
        file("/posts/media", "bomb.png", bomb.clone()),
        RefusedOrInert,
    ));
    cases.push(case(
        "40 Mpx PNG as an avatar",
        "/profile/me/avatar",
        file("/profile/me/avatar", "bomb.png", bomb),
        RefusedOrInert,
    ));
    cases.push(case(
        "GIF with a 16000×16000 frame",
        "/posts/media",
        file("/posts/media", "x.gif", gif_with_a_huge_frame()),
        Refused,
    ));
    // A 64×64 motion-JPEG frame whose JPEG header says 16000×16000: 16 KB that made ffmpeg
    // allocate for the large picture.
    let mut huge_frame = ffmpeg(
        dir,
        &["-f", "lavfi", "-i", "color=black:s=64x64", "-frames:v", "1", "-c:v", "mjpeg", "-pix_fmt", "yuvj420p"],
        "huge.mkv",
    );
    let sof = huge_frame.windows(2).position(|w| w == [0xFF, 0xC0]).expect("a JPEG frame header");
    huge_frame[sof + 5..sof + 7].copy_from_slice(&16000u16.to_be_bytes());
    huge_frame[sof + 7..sof + 9].copy_from_slice(&16000u16.to_be_bytes());
    cases.push(case(
        "MKV with one 16000×16000 frame",
        "/posts/media",
        file("/posts/media", "huge.mkv", huge_frame),
        Refused,
    ));

    // Cut short, lying headers, hours of silence.
    let mp3 = ffmpeg(dir, &["-f", "lavfi", "-i", "sine=d=5", "-c:a", "libmp3lame"], "s.mp3");
    let flac = ffmpeg(dir, &["-f", "lavfi", "-i", "sine=d=5", "-c:a", "flac"], "s.flac");
    let mp4 = test_support::media::video("mp4").expect("ffmpeg");
    for (name, path, bytes) in
        [("cut.mp3", "/posts/audio", mp3), ("cut.flac", "/posts/audio", flac), ("cut.mp4", "/posts/media", mp4)]
    {
        let half = bytes[..bytes.len() / 2].to_vec();
        cases.push(case(format!("{name} cut in half"), path, file(path, name, half), RefusedOrInert));
    }
    cases.push(case(
        "WAV claiming 4 GB",
        "/posts/audio",
        file("/posts/audio", "big.wav", wav_claiming_4_gb()),
        RefusedOrInert,
    ));
    let silence = ffmpeg(
        dir,
        &["-f", "lavfi", "-i", "anullsrc=r=1000:cl=mono", "-t", "16200", "-c:a", "flac", "-frame_size", "65535"],
        "silence.flac",
    );
    cases.push(case("4.5 hours of silence", "/posts/audio", file("/posts/audio", "silence.flac", silence), Refused));

    // Scores: archives and XML.
    let zeros = vec![b' '; 60 << 20];
    let bomb = zip(&[
        ("META-INF/container.xml", b"<container><rootfiles><rootfile full-path=\"s.xml\"/></rootfiles></container>"),
        ("s.xml", &zeros),
    ]);
    drop(zeros);
    cases.push(case(".mxl unpacking to 60 MB", "/posts/musicxml", file("/posts/musicxml", "bomb.mxl", bomb), Refused));
    let many: Vec<(String, Vec<u8>)> = (0..3000).map(|n| (format!("f{n}.xml"), Vec::new())).collect();
    let many: Vec<(&str, &[u8])> = many.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    cases.push(case(".mxl of 3000 files", "/posts/musicxml", file("/posts/musicxml", "many.mxl", zip(&many)), Refused));
    let slip = zip(&[
        ("../../../../tmp/evil.xml", &score("")[..]),
        (
            "META-INF/container.xml",
            b"<container><rootfiles><rootfile full-path=\"../../../../tmp/evil.xml\"/></rootfiles></container>",
        ),
    ]);
    cases.push(case(
        ".mxl with a zip-slip name",
        "/posts/musicxml",
        file("/posts/musicxml", "slip.mxl", slip),
        Refused,
    ));
    let laughs = "<!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\"><!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">]><lolz>&lol3;</lolz>";
    cases.push(case(
        "billion laughs",
        "/posts/musicxml",
        file("/posts/musicxml", "laughs.musicxml", score(laughs)),
        Refused,
    ));
    let external = "<!DOCTYPE score-partwise [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>";
    cases.push(case(
        "external entity",
        "/posts/musicxml",
        file("/posts/musicxml", "xxe.musicxml", score(external)),
        Refused,
    ));
    let deep = format!("<score-partwise>{}{}</score-partwise>", "<a>".repeat(100_000), "</a>".repeat(100_000));
    cases.push(case(
        "100k nested elements",
        "/posts/musicxml",
        file("/posts/musicxml", "deep.xml", deep.into_bytes()),
        Refused,
    ));
    let attributes: String = (0..200_000).map(|n| format!(" a{n}=\"1\"")).collect();
    let wide = score(&format!("<!-- --><x{attributes}/>")).into_iter().collect::<Vec<u8>>();
    cases.push(case(
        "200k attributes on one element",
        "/posts/musicxml",
        file("/posts/musicxml", "wide.xml", wide),
        Refused,
    ));

    // Forms: thousands of parts and fields, names made to escape.
    let parts: Vec<Part> = (0..3000).map(|_| Part::text("caption", "x")).collect();
    cases.push(case("3000 form fields", "/posts/media", parts, Refused));
    let parts: Vec<Part> = (0..3000).map(|n| Part::file("files", &format!("{n}.png"), Vec::new())).collect();
    cases.push(case("3000 empty files", "/posts/media", parts, Refused));
    let wav = test_support::media::wav(0.5, 440.0, 0.3);
    let long = format!("{}passwd.wav", "../".repeat(3000));
    cases.push(case(
        "a 9 KB file name of ../",
        "/posts/audio",
        file("/posts/audio", &long, wav.clone()),
        RefusedOrInert,
    ));
    cases.push(case("a file name with NUL", "/posts/audio", file("/posts/audio", "a\0b.wav", wav), RefusedOrInert));
    cases
}

/// Every URL a post's payload points to.
fn urls(post: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for key in ["media", "audio", "musicxml"] {
        for item in post[key].as_array().into_iter().flatten() {
            for field in ["file_url", "display_url", "poster_url", "cover_url"] {
                if let Some(u) = item[field].as_str() {
                    out.push(u.to_owned());
                }
            }
        }
    }
    out
}

fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries.flatten().flat_map(|e| if e.path().is_dir() { files_under(&e.path()) } else { vec![e.path()] }).collect()
}

fn kb(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// The process's memory may grow by this much over the whole corpus (its image decode budget
/// is 384 MB; a picture's display copy is made row by row in a few MB).
const MEMORY_GROWTH_BUDGET_MB: u64 = 400;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hostile_file_corpus_is_refused_or_stored_inert() {
    if Command::new("ffmpeg").arg("-version").output().is_err() {
        assert!(!test_support::ci(), "ffmpeg is required under CI=true");
        eprintln!("\n!!!!! SKIPPED the hostile-file corpus: no ffmpeg !!!!!\n");
        return;
    }
    let made = tempfile::tempdir().unwrap();
    let cases = corpus(made.path());
    let db = TestDb::sqlite();
    let tmp = tempfile::tempdir().unwrap();
    let env = [("TMPDIR", tmp.path().to_str().unwrap()), ("SELFSOUND_WRITE_LIMITS", "post=1000/1h,profile=1000/1h")];
    let server = start_process_with(&db.url, None, &env).await;
    let (token, _) = person_in(&db, "Mallory", "mallory@example.com");
    let client = reqwest::Client::new();
    let before_kb = kb(server.pid(), "VmRSS:");
    let mut accepted = Vec::new();
    let mut avatar: Option<String> = None;
    let mut report = Vec::new();
    for c in &cases {
        let (content_type, body) = multipart(&c.parts);
        let method = if c.path == "/profile/me/avatar" { reqwest::Method::PATCH } else { reqwest::Method::POST };
        let started = Instant::now();
        let res = client
            .request(method, format!("{}{}", server.url, c.path))
            .bearer_auth(&token)
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", c.what));
        let status = res.status();
        let answer: Value = res.json().await.unwrap_or(Value::Null);
        let took = started.elapsed();
        report.push(format!("{:>6} ms  {}  {}", took.as_millis(), status.as_u16(), c.what));
        assert!(took < Duration::from_secs(5), "{}: answered in {took:?}", c.what);
        if status.is_client_error() {
            assert!(answer["detail"].is_string(), "{}: a detail: {answer}", c.what);
            continue;
        }
        assert_eq!(c.outcome, Outcome::RefusedOrInert, "{}: must be refused, got {status} {answer}", c.what);
        assert!(status.is_success(), "{}: {status} {answer}", c.what);
        let served = if c.path == "/profile/me/avatar" {
            let url = answer["avatar_url"].as_str().unwrap().to_owned();
            avatar = Some(url.clone());
            vec![url]
        } else {
            accepted.push(answer["id"].as_str().unwrap().to_owned());
            urls(&answer)
        };
        for url in served.iter().filter(|u| !u.is_empty()) {
            let url = if url.starts_with("http") { url.clone() } else { format!("{}{url}", server.url) };
            let res = client.get(&url).send().await.unwrap();
            assert_eq!(res.status(), StatusCode::OK, "{}: {url}", c.what);
            let header =
                |name: &str| res.headers().get(name).map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
            let (kind, nosniff) = (header("content-type"), header("x-content-type-options"));
            assert_eq!(nosniff, "nosniff", "{}: {url}", c.what);
            assert!(
                ["image/", "audio/", "video/", "application/vnd.recordare"].iter().any(|k| kind.starts_with(k)),
                "{}: {url} served as {kind}",
                c.what
            );
            let bytes = res.bytes().await.unwrap().to_ascii_lowercase();
            for needle in [&b"<script"[..], b"alert(", b"pk\x03\x04", b"<html"] {
                assert!(!bytes.windows(needle.len()).any(|w| w == needle), "{}: {url} carries {needle:?}", c.what);
            }
        }
    }
    let peak_kb = kb(server.pid(), "VmHWM:");
    let growth_mb = peak_kb.saturating_sub(before_kb) / 1024;
    let refused = report.iter().filter(|l| l.split_whitespace().nth(2).is_some_and(|s| s.starts_with('4'))).count();
    println!(
        "hostile-file corpus: {} files, {refused} refused, {} stored inert; peak memory growth {growth_mb} MB",
        cases.len(),
        cases.len() - refused
    );
    for line in &report {
        println!("  {line}");
    }
    assert!(growth_mb <= MEMORY_GROWTH_BUDGET_MB, "memory grew by {growth_mb} MB");

    for id in accepted {
        let res = client.delete(format!("{}/posts/{id}", server.url)).bearer_auth(&token).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
    }
    // The background jobs the tracks queued (their renditions) end: finished, or given up on
    // (a file ffmpeg refuses to encode is kept as a failed job).
    let started = Instant::now();
    loop {
        use db::diesel::prelude::*;
        let busy: i64 = db::schema::jobs::table
            .filter(db::schema::jobs::state.ne("failed"))
            .count()
            .get_result(&mut *db.get().unwrap())
            .unwrap();
        if busy == 0 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "{busy} jobs still running");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // What remains is the avatar in use, if one was taken.
    let in_use = avatar.as_deref().and_then(|u| u.rsplit('/').next()).unwrap_or("-");
    let left: Vec<_> =
        files_under(&server.data_dir().join("media")).into_iter().filter(|p| !p.ends_with(in_use)).collect();
    assert!(left.is_empty(), "media left behind: {left:?}");
    let left = files_under(tmp.path());
    assert!(left.is_empty(), "temporary files left behind: {left:?}");
}
