//! Audio without its metadata, on files ffmpeg makes with tags and a cover picture carrying a
//! location: the copy holds one audio stream, no tag and no picture, and decodes to the same
//! audio.

use std::io::Cursor;
use std::process::{Command, Stdio};

use media_validation::{AudioKind, analyze_audio, sniff_audio, strip_audio_metadata};

use crate::tools::{Ffmpeg, ffmpeg, head};

const TONE: &str = "aevalsrc=0.5*sin(2*PI*440*t):s=44100:d=2";
const LOCATION: &[u8] = b"GPS 48.8566N 2.3522E";
const TAGS: [&str; 8] = [
    "-metadata",
    "title=Secret Title",
    "-metadata",
    "artist=Secret Artist",
    "-metadata",
    "comment=Secret Comment",
    "-metadata",
    "creation_time=2024-05-01T10:00:00Z",
];

/// A JPEG ffmpeg draws, with an EXIF segment holding a location after its SOI.
fn cover(f: &Ffmpeg) -> Vec<u8> {
    let mut jpeg = f.make("plain-cover.jpg", &["-f", "lavfi", "-i", "testsrc2=s=96x96", "-frames:v", "1"]);
    let mut exif = b"Exif\0\0".to_vec();
    exif.extend_from_slice(LOCATION);
    let mut segment = vec![0xFF, 0xE1];
    segment.extend_from_slice(&((exif.len() + 2) as u16).to_be_bytes());
    segment.extend(exif);
    jpeg.splice(2..2, segment);
    std::fs::write(f.path("cover.jpg"), &jpeg).expect("writing the cover");
    jpeg
}

fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            out.push(if i <= chunk.len() { ABC[(n >> (18 - 6 * i)) as usize & 63] as char } else { '=' });
        }
    }
    out
}

/// A FLAC PICTURE block's body, as Vorbis comments carry a cover (`METADATA_BLOCK_PICTURE`).
fn picture_block(jpeg: &[u8]) -> Vec<u8> {
    let mut b = 3u32.to_be_bytes().to_vec(); // front cover
    b.extend_from_slice(&10u32.to_be_bytes());
    b.extend_from_slice(b"image/jpeg");
    b.extend_from_slice(&0u32.to_be_bytes());
    for v in [96u32, 96, 24, 0, jpeg.len() as u32] {
        b.extend_from_slice(&v.to_be_bytes());
    }
    b.extend_from_slice(jpeg);
    b
}

/// Every tag and stream ffprobe reads: `TAG:key=value` and `codec_type=...` lines.
fn probe(f: &Ffmpeg, name: &str, bytes: &[u8]) -> Vec<String> {
    let path = f.path(name);
    std::fs::write(&path, bytes).expect("writing a file");
    let out = Command::new("ffprobe")
        .args(["-v", "error", "-show_entries", "format_tags:stream_tags:stream=codec_type"])
        .args(["-of", "default=noprint_wrappers=1", &path])
        .stdin(Stdio::null())
        .output()
        .expect("running ffprobe");
    assert!(out.status.success(), "ffprobe {name}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect()
}

/// What ffprobe reports of an MP4's structure (brands, the track's language and handler),
/// which is no one's metadata.
const STRUCTURE: [&str; 6] =
    ["major_brand", "minor_version", "compatible_brands", "language", "handler_name", "vendor_id"];

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn every_kind_loses_its_tags_and_pictures_and_keeps_its_audio() {
    let needed = ["libmp3lame", "flac", "libvorbis", "aac", "pcm_s16le", "mjpeg"];
    let Some(f) = ffmpeg("every_kind_loses_its_tags_and_pictures_and_keeps_its_audio", &needed) else { return };
    let jpeg = cover(&f);
    let picture = format!("METADATA_BLOCK_PICTURE={}", base64(&picture_block(&jpeg)));
    let with_cover =
        ["-i", &f.path("cover.jpg"), "-map", "0", "-map", "1", "-c:v", "copy", "-disposition:v", "attached_pic"];
    let cases: Vec<(&str, Vec<&str>, AudioKind, bool)> = vec![
        (
            "cover.mp3",
            [&with_cover[..], &["-c:a", "libmp3lame", "-id3v2_version", "3", "-write_id3v1", "1"]].concat(),
            AudioKind::Mp3,
            true,
        ),
        (
            "cover24.mp3",
            [&with_cover[..], &["-c:a", "libmp3lame", "-id3v2_version", "4"]].concat(),
            AudioKind::Mp3,
            true,
        ),
        ("cover.flac", [&with_cover[..], &["-c:a", "flac"]].concat(), AudioKind::Flac, true),
        ("cover.m4a", [&with_cover[..], &["-c:a", "aac", "-movflags", "+faststart"]].concat(), AudioKind::M4a, true),
        ("moov-last.m4a", [&with_cover[..], &["-c:a", "aac"]].concat(), AudioKind::M4a, true),
        (
            "fragments.m4a",
            vec!["-c:a", "aac", "-movflags", "frag_keyframe+empty_moov+default_base_moof", "-frag_duration", "500000"],
            AudioKind::M4a,
            false,
        ),
        ("cover.ogg", vec!["-c:a", "libvorbis", "-metadata", &picture], AudioKind::Ogg, true),
        ("flac.oga", vec!["-c:a", "flac", "-f", "ogg", "-metadata", &picture], AudioKind::Ogg, true),
        ("tags.wav", vec!["-c:a", "pcm_s16le", "-write_id3v2", "1", "-write_bext", "1"], AudioKind::Wav, false),
        (
            "tags.aac",
            vec!["-c:a", "aac", "-f", "adts", "-write_id3v2", "1", "-write_apetag", "1"],
            AudioKind::Aac,
            false,
        ),
    ];
    for (name, encode, kind, has_cover) in cases {
        let mut args = vec!["-f", "lavfi", "-i", TONE];
        args.extend(encode);
        args.extend(TAGS);
        let original = f.make(name, &args);
        assert_eq!(sniff_audio(head(&original)), Some(kind), "{name}");
        let before = probe(&f, name, &original);
        assert!(before.iter().any(|l| l.contains("Secret Title")), "{name} was made with its tags: {before:?}");
        let facts = analyze_audio(Cursor::new(original.clone()), kind).unwrap_or_else(|e| panic!("{name}: {e}"));
        // (Symphonia reads no tags of WAV and ADTS files; ffprobe does, above.)
        if !matches!(kind, AudioKind::Wav | AudioKind::Aac) {
            assert_eq!(facts.title.as_deref(), Some("Secret Title"), "{name}");
        }
        assert_eq!(facts.cover.is_some(), has_cover, "{name}");

        let mut clean = Vec::new();
        let written =
            strip_audio_metadata(kind, Cursor::new(&original), &mut clean).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(written, clean.len() as u64);
        assert_eq!(sniff_audio(head(&clean)), Some(kind), "{name} is still what it was");
        if kind == AudioKind::Mp3 {
            assert!(contains(&clean, b"Info") || contains(&clean, b"Xing"), "{name} keeps its Info frame");
        }

        // Nothing of the tags or the picture is left in the bytes.
        for secret in [&b"Secret"[..], LOCATION, b"METADATA_BLOCK_PICTURE", &jpeg[jpeg.len() - 64..]] {
            assert!(!contains(&clean, secret), "{name} still holds {:?}", String::from_utf8_lossy(secret));
        }
        // ffprobe sees one audio stream and no tags (an MP4's structure aside).
        let after = probe(&f, &format!("clean-{name}"), &clean);
        let streams: Vec<&String> = after.iter().filter(|l| l.starts_with("codec_type=")).collect();
        assert_eq!(streams, ["codec_type=audio"], "{name}: {after:?}");
        let tags: Vec<&String> = after
            .iter()
            .filter(|l| l.starts_with("TAG:") && !STRUCTURE.iter().any(|k| l.starts_with(&format!("TAG:{k}="))))
            .collect();
        assert!(tags.is_empty(), "{name} keeps tags: {tags:?}");

        // The same audio: ffmpeg decodes it without a complaint, to the same length.
        assert!(f.decodes(&format!("decoded-{name}"), &clean), "{name} decodes");
        let again = analyze_audio(Cursor::new(clean.clone()), kind).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            (again.duration_seconds - facts.duration_seconds).abs() < 1e-6,
            "{name}: {} s, was {} s",
            again.duration_seconds,
            facts.duration_seconds
        );
        assert_eq!(again.peaks, facts.peaks, "{name}: the same samples");
        assert_eq!((again.title, again.artist, again.cover), (None, None, None), "{name}");
    }
}
