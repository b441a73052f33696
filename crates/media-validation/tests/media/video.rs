//! Video containers made by ffmpeg are recognised from their first bytes.

use media_validation::{AudioKind, MediaKind, VideoKind, content_type_for, sniff_audio, sniff_media};

use crate::tools::{ffmpeg, head};

#[test]
fn every_video_container_is_sniffed() {
    let Some(f) =
        ffmpeg("every_video_container_is_sniffed", &["libx264", "mpeg4", "libvpx", "aac", "libvorbis", "libmp3lame"])
    else {
        return;
    };
    let source = ["-f", "lavfi", "-i", "testsrc2=s=160x120:d=0.4", "-f", "lavfi", "-i", "sine=d=0.4"];
    let cases: [(&str, &[&str], VideoKind); 5] = [
        ("clip.mp4", &["-c:v", "libx264", "-c:a", "aac"], VideoKind::Mp4),
        ("clip.mov", &["-c:v", "libx264", "-c:a", "aac"], VideoKind::Mov),
        ("clip.avi", &["-c:v", "mpeg4", "-c:a", "libmp3lame"], VideoKind::Avi),
        ("clip.mkv", &["-c:v", "libx264", "-c:a", "aac"], VideoKind::Mkv),
        ("clip.webm", &["-c:v", "libvpx", "-c:a", "libvorbis"], VideoKind::Webm),
    ];
    for (name, codecs, kind) in cases {
        let bytes = f.make(name, &[&source[..], codecs].concat());
        assert_eq!(sniff_media(head(&bytes)), Some(MediaKind::Video(kind)), "{name}");
        assert_eq!(content_type_for(&format!("x.{}", kind.extension())), kind.mime());
        if kind != VideoKind::Mp4 {
            assert_eq!(sniff_audio(head(&bytes)), None, "{name} is not an audio file");
        }
    }
}

#[test]
fn an_m4a_is_audio_not_video() {
    let Some(f) = ffmpeg("an_m4a_is_audio_not_video", &["aac"]) else { return };
    let bytes = f.make("song.m4a", &["-f", "lavfi", "-i", "sine=d=0.4", "-c:a", "aac"]);
    assert_eq!(sniff_media(head(&bytes)), None);
    assert_eq!(sniff_audio(head(&bytes)), Some(AudioKind::M4a));
}
