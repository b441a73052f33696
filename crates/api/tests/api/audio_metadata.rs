//! Audio posts publish the audio, not the file's metadata: what `file_url` serves holds no tags
//! and no pictures (the cover is served apart, cleaned), for every accepted kind, made by
//! ffmpeg with tags and a cover whose EXIF holds a location.

use std::path::Path;
use std::process::{Command, Stdio};

use reqwest::StatusCode;
use test_support::TestDb;

use crate::common::{Part, spawn_app};

const TITLE: &str = "Blue in Green";
const ARTIST: &str = "Ana Lima";
/// Tags the post never shows, and the cover's location: none may be served.
const HIDDEN: [&str; 3] = ["Recorded at 12 Rue Oberkampf", "GPS 48.8566N 2.3522E", "2024-05-01"];

/// (file name, ffmpeg arguments after the tone, whether the post shows its tags, whether it
/// has a cover)
fn kinds(dir: &Path, picture_comment: &str) -> Vec<(&'static str, Vec<String>, bool, bool)> {
    let cover = dir.join("cover.jpg").display().to_string();
    let with_cover = ["-i", &cover, "-map", "0", "-map", "1", "-c:v", "copy", "-disposition:v", "attached_pic"];
    let args = |extra: &[&str], cover: bool| -> Vec<String> {
        let mut all: Vec<&str> = if cover { with_cover.to_vec() } else { Vec::new() };
        all.extend_from_slice(extra);
        all.into_iter().map(str::to_owned).collect()
    };
    vec![
        ("song.mp3", args(&["-c:a", "libmp3lame", "-id3v2_version", "3", "-write_id3v1", "1"], true), true, true),
        ("song.flac", args(&["-c:a", "flac"], true), true, true),
        ("song.m4a", args(&["-c:a", "aac"], true), true, true),
        ("song.ogg", args(&["-c:a", "libvorbis", "-metadata", picture_comment], false), true, true),
        // Symphonia reads no WAV tags: the post shows the file name.
        ("song.wav", args(&["-c:a", "pcm_s16le", "-write_id3v2", "1", "-write_bext", "1"], false), false, false),
        (
            "song.aac",
            args(&["-c:a", "aac", "-f", "adts", "-write_id3v2", "1", "-write_apetag", "1"], false),
            true,
            false,
        ),
    ]
}

fn run(program: &str, args: &[&str]) -> Option<std::process::Output> {
    Command::new(program).args(args).stdin(Stdio::null()).output().ok().filter(|o| o.status.success())
}

/// ffmpeg with the encoders these files need, or `None` after a loud message (a failure
/// under CI).
fn have_ffmpeg() -> bool {
    let encoders =
        run("ffmpeg", &["-hide_banner", "-encoders"]).map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
    let needed = ["libmp3lame", "flac", "libvorbis", "aac", "pcm_s16le", "mjpeg"];
    let ok = encoders
        .is_some_and(|list| needed.iter().all(|e| list.lines().any(|l| l.split_whitespace().nth(1) == Some(e))))
        && run("ffprobe", &["-version"]).is_some();
    if !ok {
        assert!(!test_support::ci(), "ffmpeg and ffprobe with {needed:?} are required under CI");
        eprintln!("\n!!!!! SKIPPED: ffmpeg/ffprobe with {needed:?} are not installed !!!!!\n");
    }
    ok
}

fn ffmpeg(dir: &Path, args: &[&str], output: &str) -> Vec<u8> {
    let out = dir.join(output);
    let made = Command::new("ffmpeg")
        .args(["-nostdin", "-hide_banner", "-v", "error", "-y"])
        .args(args)
        .arg(&out)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(made.status.success(), "ffmpeg {args:?}: {}", String::from_utf8_lossy(&made.stderr));
    std::fs::read(out).unwrap()
}

/// ffprobe's view of `bytes`: its streams' types, its tags (`key=value`), and its duration.
fn probe(dir: &Path, name: &str, bytes: &[u8]) -> (Vec<String>, Vec<String>, f64) {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    let path = path.display().to_string();
    let args = ["-v", "error", "-show_entries", "format=duration:format_tags:stream_tags:stream=codec_type"];
    let out = run("ffprobe", &[&args[..], &["-of", "default=noprint_wrappers=1", &path]].concat())
        .unwrap_or_else(|| panic!("ffprobe {name}"));
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect();
    let streams = lines.iter().filter_map(|l| l.strip_prefix("codec_type=")).map(str::to_owned).collect();
    let tags = lines.iter().filter_map(|l| l.strip_prefix("TAG:")).map(str::to_owned).collect();
    let duration = lines.iter().find_map(|l| l.strip_prefix("duration=")?.parse().ok()).unwrap_or(0.0);
    (streams, tags, duration)
}

/// What ffprobe reports of an MP4's structure (brands, the track's language and handler).
const STRUCTURE: [&str; 6] =
    ["major_brand", "minor_version", "compatible_brands", "language", "handler_name", "vendor_id"];

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

async fn served_audio_has_no_tags_and_no_pictures(db: TestDb) {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    // The cover: a JPEG with an EXIF segment holding a location.
    let mut jpeg = ffmpeg(dir, &["-f", "lavfi", "-i", "testsrc2=s=96x96", "-frames:v", "1"], "plain.jpg");
    let exif = [&b"Exif\0\0"[..], HIDDEN[1].as_bytes()].concat();
    let segment = [&[0xFF, 0xE1][..], &((exif.len() + 2) as u16).to_be_bytes(), &exif].concat();
    jpeg.splice(2..2, segment);
    std::fs::write(dir.join("cover.jpg"), &jpeg).unwrap();
    // Ogg carries its cover as a FLAC picture block in a comment.
    let mut block = 3u32.to_be_bytes().to_vec();
    block.extend_from_slice(&10u32.to_be_bytes());
    block.extend_from_slice(b"image/jpeg");
    for v in [0u32, 96, 96, 24, 0, jpeg.len() as u32] {
        block.extend_from_slice(&v.to_be_bytes());
    }
    block.extend_from_slice(&jpeg);
    let picture_comment = format!("METADATA_BLOCK_PICTURE={}", base64(&block));

    let tags = [
        format!("title={TITLE}"),
        format!("artist={ARTIST}"),
        format!("comment={}", HIDDEN[0]),
        format!("creation_time={}T10:00:00Z", HIDDEN[2]),
    ];
    let mut files = Vec::new();
    for (name, encode, ..) in kinds(dir, &picture_comment) {
        let mut args = vec!["-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*440*t):s=44100:d=2"];
        args.extend(encode.iter().map(String::as_str));
        for tag in &tags {
            args.extend(["-metadata", tag.as_str()]);
        }
        let bytes = ffmpeg(dir, &args, name);
        let (_, before, _) = probe(dir, &format!("original-{name}"), &bytes);
        assert!(before.iter().any(|t| t.contains(HIDDEN[0])), "{name} was made with its tags: {before:?}");
        files.push((name, bytes));
    }

    let app = spawn_app(db).await;
    let (token, _) = app.person("Ana", "ana@example.com").await;
    let mut parts: Vec<Part> =
        files.iter().map(|(name, bytes)| Part::file("audio_files", name, bytes.clone())).collect();
    parts.push(Part::text("caption", "six kinds"));
    let post = app.post_form("/posts/audio", Some(&token), &parts).await;
    assert_eq!(post.status, StatusCode::CREATED, "{:?}", post.body);
    let tracks = post.body["audio"].as_array().unwrap().clone();
    assert_eq!(tracks.len(), files.len());

    for ((track, (name, original)), (.., tagged, has_cover)) in tracks.iter().zip(&files).zip(kinds(dir, "")) {
        // The post shows what the tags said.
        let stem = name.split('.').next().unwrap();
        let (title, artist) = if tagged { (TITLE, ARTIST) } else { (stem, "Unknown Artist") };
        assert_eq!((track["title"].as_str(), track["artist"].as_str()), (Some(title), Some(artist)), "{name}");
        assert!((track["duration_seconds"].as_f64().unwrap() - 2.0).abs() < 0.1, "{name}: {track}");
        match track["cover_url"].as_str() {
            Some(url) => {
                assert!(has_cover, "{name}");
                let cover = app.client.get(url).send().await.unwrap().bytes().await.unwrap();
                assert!(cover.starts_with(&[0xFF, 0xD8]), "{name}: the cover is a JPEG");
                assert!(!contains(&cover, HIDDEN[1].as_bytes()), "{name}: the cover's location is gone");
            }
            None => assert!(!has_cover, "{name} has its cover: {track}"),
        }

        let res = app.client.get(track["file_url"].as_str().unwrap()).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let served = res.bytes().await.unwrap().to_vec();
        assert!(served.len() < original.len(), "{name}: something was removed");
        for secret in [TITLE, ARTIST, HIDDEN[0], HIDDEN[1], "METADATA_BLOCK_PICTURE"] {
            assert!(!contains(&served, secret.as_bytes()), "{name} still holds {secret:?}");
        }
        assert!(!contains(&served, &jpeg[jpeg.len() - 64..]), "{name} still holds the picture");
        let (streams, tags, duration) = probe(dir, &format!("served-{name}"), &served);
        assert_eq!(streams, ["audio"], "{name}: one audio stream, no picture");
        let tags: Vec<&String> =
            tags.iter().filter(|t| !STRUCTURE.iter().any(|k| t.starts_with(&format!("{k}=")))).collect();
        assert!(tags.is_empty(), "{name} keeps tags: {tags:?}");
        let (_, _, was) = probe(dir, &format!("original-{name}"), original);
        assert!((duration - was).abs() < 0.03, "{name}: {duration} s, was {was} s");
    }
}

test_support::both_backends!(served_audio_has_no_tags_and_no_pictures);
