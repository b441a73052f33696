//! Audio: sniffing, the duration from decoding every frame, tags, cover art and peaks, on files
//! ffmpeg encodes.

use std::io::Cursor;

use media_validation::{AudioFacts, AudioKind, ImageKind, MediaError, analyze_audio, sniff_audio, sniff_media};

use crate::tools::{Ffmpeg, ffmpeg, head};

/// A 440 Hz tone at half of full scale.
const TONE: &str = "aevalsrc=0.5*sin(2*PI*440*t):s=44100:d=";

/// (file name, encoder arguments, the kind it must sniff as)
const FORMATS: [(&str, &[&str], AudioKind); 6] = [
    ("tone.wav", &["-c:a", "pcm_s16le"], AudioKind::Wav),
    ("tone.mp3", &["-c:a", "libmp3lame", "-b:a", "128k"], AudioKind::Mp3),
    ("tone.flac", &["-c:a", "flac"], AudioKind::Flac),
    ("tone.ogg", &["-c:a", "libvorbis", "-q:a", "4"], AudioKind::Ogg),
    ("tone.m4a", &["-c:a", "aac", "-b:a", "128k"], AudioKind::M4a),
    ("tone.aac", &["-c:a", "aac", "-b:a", "128k", "-f", "adts"], AudioKind::Aac),
];
const ENCODERS: [&str; 4] = ["pcm_s16le", "libmp3lame", "flac", "libvorbis"];

fn tone(f: &Ffmpeg, name: &str, seconds: f32, encoder: &[&str], extra: &[&str]) -> Vec<u8> {
    let source = format!("{TONE}{seconds}");
    let mut args = vec!["-f", "lavfi", "-i", &source];
    args.extend_from_slice(extra);
    args.extend_from_slice(encoder);
    f.make(name, &args)
}

fn analyze(bytes: &[u8]) -> Result<AudioFacts, MediaError> {
    let kind = sniff_audio(head(bytes)).ok_or(MediaError::UnsupportedType)?;
    analyze_audio(Cursor::new(bytes.to_vec()), kind)
}

fn highest(facts: &AudioFacts) -> i8 {
    facts.peaks.bins.iter().map(|(_, hi)| *hi).max().unwrap_or(0)
}

#[test]
fn every_format_is_sniffed_and_decoded_to_its_real_duration() {
    let Some(f) = ffmpeg("every_format_is_sniffed_and_decoded_to_its_real_duration", &ENCODERS) else { return };
    for (name, encoder, kind) in FORMATS {
        let bytes = tone(&f, name, 2.0, encoder, &[]);
        assert_eq!(sniff_audio(head(&bytes)), Some(kind), "{name}");
        assert_eq!(sniff_media(head(&bytes)), None, "{name} is not a picture or a video");
        let facts = analyze(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!((facts.duration_seconds - 2.0).abs() < 0.1, "{name}: {} s", facts.duration_seconds);
        assert_eq!(facts.peaks.bins.len(), 1000, "{name}");
        // Half of full scale is about 64 of 127: the level as recorded, not stretched. (The
        // middle only: lossy codecs overshoot where the tone starts.)
        let middle = facts.peaks.bins[100..900].iter().map(|(_, hi)| *hi).max();
        assert!(middle.is_some_and(|hi| (60..=68).contains(&hi)), "{name}: highest peak {middle:?}");
        assert_eq!((facts.title, facts.artist, facts.cover), (None, None, None), "{name}");
    }
}

#[test]
fn an_mp3_without_a_xing_header_is_measured_by_decoding() {
    let Some(f) = ffmpeg("an_mp3_without_a_xing_header_is_measured_by_decoding", &["libmp3lame"]) else { return };
    // Variable bitrate over silence then noise: the frames differ wildly in size, so the
    // duration guessed from the first frame's bitrate and the file size would be far off.
    let source = "aevalsrc=if(lt(t\\,1.5)\\,0\\,0.5*(2*random(0)-1)):s=44100:d=3";
    let bytes =
        f.make("vbr.mp3", &["-f", "lavfi", "-i", source, "-c:a", "libmp3lame", "-q:a", "2", "-write_xing", "0"]);
    assert!(!bytes.windows(4).any(|w| w == b"Xing" || w == b"Info"), "no Xing/Info header");
    let first_frame_bitrate_guess = {
        let kbps = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
        let at = bytes.iter().position(|b| *b == 0xFF).unwrap_or(0);
        let index = usize::from(bytes[at + 2] >> 4);
        (bytes.len() as f64 * 8.0) / (f64::from(kbps[index]) * 1000.0)
    };
    assert!((first_frame_bitrate_guess - 3.0).abs() > 0.5, "the guess would be wrong: {first_frame_bitrate_guess}");
    let facts = analyze(&bytes).unwrap_or_else(|e| panic!("{e}"));
    assert!((facts.duration_seconds - 3.0).abs() < 0.1, "{} s", facts.duration_seconds);
}

#[test]
fn titles_and_artists_come_from_each_kind_of_tag() {
    let Some(f) = ffmpeg("titles_and_artists_come_from_each_kind_of_tag", &ENCODERS) else { return };
    let tags = ["-metadata", "title=Blue in Green", "-metadata", "artist=Ana Lima"];
    // ID3v2 (MP3), Vorbis comments (FLAC, Ogg), MP4 ilst (M4A).
    for (name, encoder, _) in FORMATS.iter().filter(|(n, ..)| !n.ends_with(".wav") && !n.ends_with(".aac")) {
        let bytes = tone(&f, name, 1.0, encoder, &tags);
        let facts = analyze(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(facts.title.as_deref(), Some("Blue in Green"), "{name}");
        assert_eq!(facts.artist.as_deref(), Some("Ana Lima"), "{name}");
    }
}

#[test]
fn embedded_cover_art_is_found() {
    let Some(f) = ffmpeg("embedded_cover_art_is_found", &["libmp3lame", "flac", "png", "mjpeg"]) else { return };
    let png = f.make("cover.png", &["-f", "lavfi", "-i", "testsrc2=s=300x300", "-frames:v", "1"]);
    let jpeg = f.make("cover.jpg", &["-f", "lavfi", "-i", "testsrc2=s=200x200", "-frames:v", "1"]);
    tone(&f, "plain.mp3", 1.0, &["-c:a", "libmp3lame"], &[]);
    tone(&f, "plain.flac", 1.0, &["-c:a", "flac"], &[]);
    let attach = |audio: &str, cover: &str, out: &str, extra: &[&str]| {
        let (audio, cover) = (f.path(audio), f.path(cover));
        let mut args = vec!["-i", &audio, "-i", &cover, "-map", "0", "-map", "1", "-c", "copy"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["-disposition:v", "attached_pic"]);
        f.make(out, &args)
    };
    let cases = [
        (attach("plain.mp3", "cover.png", "png-cover.mp3", &["-id3v2_version", "3"]), ImageKind::Png, &png),
        (attach("plain.mp3", "cover.jpg", "jpeg-cover.mp3", &["-id3v2_version", "4"]), ImageKind::Jpeg, &jpeg),
        (attach("plain.flac", "cover.png", "png-cover.flac", &[]), ImageKind::Png, &png),
    ];
    for (bytes, kind, picture) in cases {
        let facts = analyze(&bytes).unwrap_or_else(|e| panic!("{e}"));
        let cover = facts.cover.unwrap_or_else(|| panic!("a {kind:?} cover"));
        assert_eq!(cover.kind, kind);
        assert_eq!(&cover.bytes, picture, "the picture as embedded");
        assert!((facts.duration_seconds - 1.0).abs() < 0.1, "the picture is not audio");
    }
}

#[test]
fn peaks_show_quiet_then_loud_without_normalising() {
    let Some(f) = ffmpeg("peaks_show_quiet_then_loud_without_normalising", &["pcm_s16le", "libmp3lame"]) else {
        return;
    };
    let source = "aevalsrc=if(lt(t\\,1)\\,0.05\\,0.9)*sin(2*PI*440*t):s=44100:d=2";
    for (name, encoder) in [("steps.wav", "pcm_s16le"), ("steps.mp3", "libmp3lame")] {
        let bytes = f.make(name, &["-f", "lavfi", "-i", source, "-c:a", encoder]);
        let facts = analyze(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let bins = &facts.peaks.bins;
        assert_eq!(bins.len(), 1000);
        // 0.05 of full scale is about 6; 0.9 about 114. Skip the bins around the step (and the
        // MP3's encoder delay). A bin holds 88 samples, a little less than the tone's period,
        // so a bin may miss the very top of a wave.
        let quiet = &bins[50..450];
        let loud = &bins[550..950];
        assert!(quiet.iter().all(|(lo, hi)| (-9..=-2).contains(lo) && (2..=9).contains(hi)), "{name}: {quiet:?}");
        assert!(loud.iter().all(|(lo, hi)| (-122..=-80).contains(lo) && (80..=122).contains(hi)), "{name}: {loud:?}");
        let top = loud.iter().map(|(_, hi)| *hi).max();
        assert!(top.is_some_and(|hi| (105..=120).contains(&hi)), "{name}: {top:?}");
        let wire = facts.peaks.downsample(500);
        assert_eq!(wire.bins.len(), 500);
        assert_eq!(wire.to_bytes().len(), 1000);
    }
    // A quiet recording stays quiet: nothing is scaled up to full height.
    let quiet = tone(&f, "quiet.wav", 1.0, &["-c:a", "pcm_s16le"], &["-af", "volume=0.1"]);
    let facts = analyze(&quiet).unwrap_or_else(|e| panic!("{e}"));
    assert!((5..=7).contains(&highest(&facts)), "{}", highest(&facts));
}

#[test]
fn a_sound_in_one_channel_shows_in_the_peaks() {
    let Some(f) = ffmpeg("a_sound_in_one_channel_shows_in_the_peaks", &["pcm_s16le"]) else { return };
    let source = "aevalsrc=0|0.8*sin(2*PI*440*t):s=44100:d=1";
    let bytes = f.make("right.wav", &["-f", "lavfi", "-i", source, "-c:a", "pcm_s16le"]);
    let facts = analyze(&bytes).unwrap_or_else(|e| panic!("{e}"));
    assert!((100..=103).contains(&highest(&facts)), "{}", highest(&facts));
}

#[test]
fn truncated_audio_keeps_what_was_received_or_is_refused() {
    let Some(f) = ffmpeg("truncated_audio_keeps_what_was_received_or_is_refused", &ENCODERS) else { return };
    for (name, encoder, kind) in FORMATS {
        let bytes = tone(&f, name, 2.0, encoder, &[]);
        let half = &bytes[..bytes.len() / 2];
        match kind {
            // Streams: the part before the cut is what a browser plays, and what is measured.
            AudioKind::Wav | AudioKind::Flac | AudioKind::Mp3 | AudioKind::Aac => {
                let facts = analyze(half).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert!((facts.duration_seconds - 1.0).abs() < 0.2, "{name}: {} s", facts.duration_seconds);
            }
            // Their readers need what is at the end (the MP4 index, the last Ogg page).
            AudioKind::M4a | AudioKind::Ogg => {
                assert_eq!(analyze(half).map(|_| ()), Err(MediaError::Malformed), "{name}")
            }
        }
        // Cut within the headers: refused.
        for cut in [0, 1, 4, 12, 30, 60] {
            let result = analyze(&bytes[..cut.min(bytes.len())]);
            assert!(result.is_err(), "{name} cut at {cut}: {result:?}");
        }
    }
}

#[test]
fn damaged_audio_is_refused_or_measured_without_spinning() {
    let Some(f) = ffmpeg("damaged_audio_is_refused_or_measured_without_spinning", &ENCODERS) else { return };
    for (name, encoder, kind) in FORMATS {
        let bytes = tone(&f, name, 2.0, encoder, &[]);
        // The first 4 KiB kept (the header sniffs fine), everything after overwritten by a
        // repeating pattern.
        let mut damaged = bytes.clone();
        for (i, b) in damaged.iter_mut().enumerate().skip(4096) {
            *b = (i % 251) as u8;
        }
        let started = std::time::Instant::now();
        let result = analyze_audio(Cursor::new(damaged), kind).map(|facts| facts.duration_seconds);
        assert!(started.elapsed().as_secs() < 10, "{name}: took {:?}", started.elapsed());
        match kind {
            // PCM has no structure to break: it is noise now, still two seconds of it.
            AudioKind::Wav => assert!(result.as_ref().is_ok_and(|s| (s - 2.0).abs() < 0.01), "{name}: {result:?}"),
            // The MP3 and ADTS readers look for the next frame and find the end of the file:
            // what decoded before the damage is the audio.
            AudioKind::Mp3 | AudioKind::Aac => assert!(result.as_ref().is_ok_and(|s| *s < 0.6), "{name}: {result:?}"),
            // Packets that fail their checks, an index pointing at garbage: damaged.
            AudioKind::Flac | AudioKind::Ogg | AudioKind::M4a => {
                assert_eq!(result, Err(MediaError::Malformed), "{name}")
            }
        }
    }
}

#[test]
fn opus_is_an_ogg_that_cannot_be_decoded_here() {
    let Some(f) = ffmpeg("opus_is_an_ogg_that_cannot_be_decoded_here", &["libopus"]) else { return };
    let bytes = tone(&f, "tone.opus", 1.0, &["-c:a", "libopus", "-f", "ogg"], &[]);
    assert_eq!(sniff_audio(head(&bytes)), Some(AudioKind::Ogg));
    assert_eq!(analyze(&bytes).map(|_| ()), Err(MediaError::UnsupportedCodec));
}

#[test]
fn a_video_without_sound_has_no_audio() {
    let Some(f) = ffmpeg("a_video_without_sound_has_no_audio", &["libx264"]) else { return };
    let bytes = f.make("silent.mp4", &["-f", "lavfi", "-i", "testsrc2=s=160x120:d=0.5", "-c:v", "libx264", "-an"]);
    assert_eq!(sniff_audio(head(&bytes)), Some(AudioKind::M4a), "an MP4 may hold only sound: decoding tells");
    assert_eq!(analyze(&bytes).map(|_| ()), Err(MediaError::NoAudio));
}

#[test]
fn other_files_are_not_audio() {
    let html = b"<!DOCTYPE html><html><body><script>alert(1)</script></body></html>";
    let svg = b"<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>";
    for bytes in [&html[..], svg, b"just some text\n", b"\x89PNG\r\n\x1a\n", b""] {
        assert_eq!(sniff_audio(bytes), None);
    }
    // Handed in with a kind anyway: refused, never a panic.
    for kind in [AudioKind::Mp3, AudioKind::M4a, AudioKind::Aac, AudioKind::Flac, AudioKind::Wav, AudioKind::Ogg] {
        for bytes in [&html[..], svg, b"", &[0xFF; 5000]] {
            assert!(analyze_audio(Cursor::new(bytes.to_vec()), kind).is_err(), "{kind:?}");
        }
    }
}
