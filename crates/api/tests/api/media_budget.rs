//! Media work has a budget (issue 16, docs/security.md): a person's uploads are processed one
//! after another, so nobody takes every processing slot, and a post's tracks share one
//! decoding budget.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use test_support::TestDb;

use crate::common::{Part, TestApp, spawn_app};

/// A 16-bit mono WAV at one sample a second: hours of audio in a few kilobytes, decoded at once.
fn slow_wav(seconds: u32) -> Vec<u8> {
    let data_len = seconds * 2;
    let mut out = b"RIFF".to_vec();
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&[1, 0, 1, 0]);
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&[2, 0, 16, 0]);
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    out.extend((0..seconds).flat_map(|i| if i % 2 == 0 { 1000i16 } else { -1000 }.to_le_bytes()));
    out
}

/// Ten files of four hours each once held a processing slot for 83 s. A post's tracks share a
/// budget of six hours of decoded audio: the track that goes past it is refused, and no more
/// is decoded.
async fn a_posts_tracks_share_one_decoding_budget(db: TestDb) {
    let app = spawn_app(db).await;
    let (token, _) = app.person("Ana", "ana@example.com").await;
    let three_hours = slow_wav(3 * 3600);
    let files: Vec<Part> =
        (1..=3).map(|n| Part::file("audio_files", &format!("set {n}.wav"), three_hours.clone())).collect();
    let refused = app.post_form("/posts/audio", Some(&token), &files).await;
    assert_eq!(refused.status, StatusCode::PAYLOAD_TOO_LARGE, "{:?}", refused.body);
    assert_eq!(refused.detail(), "The tracks of a post can last at most 6 hours in all");
    let two = app.post_form("/posts/audio", Some(&token), &files[..2]).await;
    assert_eq!(two.status, StatusCode::CREATED, "six hours fit: {:?}", two.body);
    let over = slow_wav(4 * 3600 + 60);
    let one = app.post_form("/posts/audio", Some(&token), &[Part::file("audio_files", "long.wav", over)]).await;
    assert_eq!((one.status, one.detail()), (StatusCode::BAD_REQUEST, "long.wav: the audio is longer than 4 hours"));
}

/// Three and a half hours of silence in FLAC, made by ffmpeg: 30 KB that take seconds to
/// decode in a debug build.
fn silence_flac() -> Option<Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("silence.flac");
    let made = std::process::Command::new("ffmpeg")
        .args(["-nostdin", "-v", "error", "-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono", "-t", "12600"])
        .args(["-c:a", "flac", "-frame_size", "65535"])
        .arg(&out)
        .status();
    match made {
        Ok(s) if s.success() => Some(std::fs::read(&out).unwrap()),
        _ if test_support::ci() => panic!("ffmpeg is required under CI=true"),
        _ => {
            eprintln!("\n!!!!! SKIPPED: ffmpeg is not installed !!!!!\n");
            None
        }
    }
}

async fn audio_post(app: &TestApp, token: &str, bytes: Vec<u8>) -> StatusCode {
    app.post_form("/posts/audio", Some(token), &[Part::file("audio_files", "silence.flac", bytes)]).await.status
}

/// Two slow audio posts from one person once took both processing slots, and another
/// person's picture waited for them. A person's posts are processed one after another, so the
/// picture goes through the other slot at once: it is answered before the first slow post is
/// even half done (a ratio of the run's own times, not a time limit: without lanes the picture
/// is answered together with the first slow post). Processing does not touch the database:
/// SQLite only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_persons_uploads_never_take_every_processing_slot() {
    let Some(silence) = silence_flac() else { return };
    let app = std::sync::Arc::new(spawn_app(TestDb::sqlite()).await);
    let (attacker, _) = app.person("Mallory", "mallory@example.com").await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let started = Instant::now();
    let slow: Vec<_> = (0..2)
        .map(|_| {
            let (app, token, bytes) = (app.clone(), attacker.clone(), silence.clone());
            tokio::spawn(async move { (audio_post(&app, &token, bytes).await, started.elapsed()) })
        })
        .collect();
    // Both are in (their bodies are small) and the first is being decoded.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let picture = Part::file("files", "p.png", test_support::media::png(40, None));
    let posted = app.post_form("/posts/media", Some(&ana), &[picture]).await;
    let picture_answered = started.elapsed();
    assert_eq!(posted.status, StatusCode::CREATED, "{:?}", posted.body);
    let mut answered = Vec::new();
    for s in slow {
        let (status, at) = s.await.unwrap();
        assert_eq!(status, StatusCode::CREATED);
        answered.push(at);
    }
    let first_slow = answered.into_iter().min().unwrap();
    assert!(
        picture_answered < first_slow / 2,
        "the picture ({picture_answered:?}) waited for the slow posts (the first answered at {first_slow:?})"
    );
}

test_support::both_backends!(a_posts_tracks_share_one_decoding_budget);
