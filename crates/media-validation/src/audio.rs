//! Audio: every frame decoded (symphonia) for the real duration and, in the same pass, the
//! waveform and the loudness; the title, artist and cover art from the tags (ID3v2, Vorbis comments, FLAC
//! pictures, MP4 `ilst`).
//!
//! Why decode everything: container headers lie or are missing (an MP3 without a Xing header
//! has no duration at all, only a bitrate guess that is wrong for VBR), and the peaks need the
//! samples anyway.

use std::panic::{AssertUnwindSafe, catch_unwind};

use symphonia::core::codecs::audio::AudioDecoderOptions;
use symphonia::core::errors::Error as SymphoniaError;
use symphonia::core::formats::probe::Hint;
use symphonia::core::formats::{FormatId, FormatOptions, FormatReader, TrackType, well_known as formats};
use symphonia::core::io::MediaSourceStream;
use symphonia::core::meta::{MetadataOptions, MetadataRevision, StandardTag, StandardVisualKey, Tag, Visual};

pub use symphonia::core::io::MediaSource;

use crate::image::{ImageKind, sniff_image};
use crate::loudness::{Loudness, LoudnessMeter};
use crate::peaks::{PeakAccumulator, Peaks, TARGET_BINS};
use crate::sniff::AudioKind;
use crate::{MediaError, limits};

/// What decoding an audio file found.
#[derive(Debug, Clone, PartialEq)]
pub struct AudioFacts {
    /// Seconds of decoded audio (encoder delay and padding trimmed when the file says how much).
    pub duration_seconds: f64,
    /// About [`TARGET_BINS`] bins over the whole track (fewer for very short clips).
    pub peaks: Peaks,
    /// Integrated loudness and true peak; none for silence, or a stream whose rate or channels
    /// change midway.
    pub loudness: Option<Loudness>,
    pub title: Option<String>,
    pub artist: Option<String>,
    pub cover: Option<Cover>,
}

/// Embedded cover art: a PNG or JPEG that [`sniff_image`] accepts, at most
/// [`limits::COVER_MAX_BYTES`]. Its own metadata is still inside: strip it before publishing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cover {
    pub kind: ImageKind,
    pub bytes: Vec<u8>,
}

/// Consecutive packets that fail to decode before the file counts as damaged: a glitch is
/// skipped (as players do), a stream of garbage is not decoded for minutes.
const MAX_BAD_PACKETS_IN_A_ROW: u32 = 64;
/// Packets read in all; far above any legitimate file within the upload limit (a 50 MB MP3
/// at the lowest bitrate has under a million frames), it bounds readers that make no progress.
const MAX_PACKETS: u64 = 20_000_000;
/// Longest title or artist kept, in characters.
const MAX_LABEL_CHARS: usize = 300;

/// Decodes every frame of `source`, which [`crate::sniff_audio`] said is `kind`.
///
/// Refuses: `UnsupportedType` when the bytes hold another format after all, `UnsupportedCodec`
/// for a codec that cannot be decoded here (Opus, ALAC…), `NoAudio` for no audio track or no
/// samples, `Malformed` when the container cannot be opened or breaks mid-way, or too many
/// packets in a row do not decode, `AudioTooLong` past [`limits::AUDIO_MAX_SECONDS`].
///
/// A file that simply ends early (cut short, or trailing bytes the reader cannot sync on) keeps
/// the audio before the end: browsers play it that far, and its duration says so. That holds
/// for WAV, FLAC, MP3 and ADTS; an Ogg or MP4 cut short cannot be opened (their readers need
/// the last page or the index at the end) and is refused as `Malformed`.
pub fn analyze_audio(source: impl MediaSource + 'static, kind: AudioKind) -> Result<AudioFacts, MediaError> {
    analyze_audio_within(source, kind, limits::AUDIO_MAX_SECONDS)
}

/// [`analyze_audio`] with a smaller decoding budget: at most `max_seconds` of audio (never more
/// than [`limits::AUDIO_MAX_SECONDS`]) are decoded; a longer file is refused as `AudioTooLong`
/// naming `max_seconds`. A post's tracks share one budget ([`limits::AUDIO_POST_MAX_SECONDS`]).
pub fn analyze_audio_within(
    source: impl MediaSource + 'static,
    kind: AudioKind,
    max_seconds: u64,
) -> Result<AudioFacts, MediaError> {
    let max_seconds = max_seconds.min(limits::AUDIO_MAX_SECONDS);
    let stream = MediaSourceStream::new(Box::new(source), Default::default());
    // Decoders are complex code run on hostile input; a panic in one (symphonia has had
    // arithmetic overflows and out-of-bounds reads on crafted files) must refuse the file, not
    // take down the request's worker.
    catch_unwind(AssertUnwindSafe(move || analyze(stream, kind, max_seconds))).unwrap_or(Err(MediaError::Malformed))
}

fn expected_format(kind: AudioKind) -> FormatId {
    match kind {
        AudioKind::Mp3 => formats::FORMAT_ID_MP3,
        AudioKind::M4a => formats::FORMAT_ID_ISOMP4,
        AudioKind::Aac => formats::FORMAT_ID_ADTS,
        AudioKind::Flac => formats::FORMAT_ID_FLAC,
        AudioKind::Wav => formats::FORMAT_ID_WAVE,
        AudioKind::Ogg => formats::FORMAT_ID_OGG,
    }
}

fn analyze(stream: MediaSourceStream<'static>, kind: AudioKind, max_seconds: u64) -> Result<AudioFacts, MediaError> {
    let mut hint = Hint::new();
    hint.with_extension(kind.extension());
    let mut format = symphonia::default::get_probe()
        .probe(&hint, stream, FormatOptions::default(), MetadataOptions::default())
        // The first bytes said it is this kind: a reader that cannot open it (an MP4 whose
        // index is missing, an Ogg whose last page is cut) means a damaged file.
        .map_err(|_| MediaError::Malformed)?;
    // The probe scans past junk for any format it knows: what it found must be what the
    // first bytes said (the stored file keeps the sniffed extension and content type).
    if format.format_info().format != expected_format(kind) {
        return Err(MediaError::UnsupportedType);
    }
    let mut tags = Tags::default();
    tags.take_all(format.as_mut());

    let track = format.default_track(TrackType::Audio).ok_or(MediaError::NoAudio)?;
    let track_id = track.id;
    let params = track.codec_params.as_ref().and_then(|p| p.audio()).ok_or(MediaError::NoAudio)?;
    let mut decoder = symphonia::default::get_codecs()
        .make_audio_decoder(params, &AudioDecoderOptions::default())
        .map_err(|e| match e {
            SymphoniaError::Unsupported(_) => MediaError::UnsupportedCodec,
            _ => MediaError::Malformed,
        })?;

    let mut peaks = PeakAccumulator::new();
    let mut loudness = LoudnessMeter::default();
    let mut samples: Vec<f32> = Vec::new();
    let mut seconds = 0.0f64;
    let mut frames = 0u64;
    let mut channel_samples = 0u64;
    // Decoded samples over all channels at up to 48 kHz stereo for the longest audio accepted:
    // bounds the work of a file with a high sample rate or many channels too.
    let max_samples = max_seconds * 48_000 * 2;
    let too_long = MediaError::AudioTooLong { max_seconds };
    let mut bad_in_a_row = 0u32;
    let mut packets = 0u64;
    loop {
        packets += 1;
        if packets > MAX_PACKETS {
            return Err(MediaError::Malformed);
        }
        let packet = match format.next_packet() {
            Ok(Some(packet)) => packet,
            Ok(None) => break,
            // A new chained Ogg stream: the first one is the track.
            Err(SymphoniaError::ResetRequired) => break,
            // Cut short: what came before is the audio (see the function comment).
            Err(SymphoniaError::IoError(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(_) => return Err(MediaError::Malformed),
        };
        tags.take_new(format.as_mut());
        if packet.track_id != track_id {
            continue;
        }
        match decoder.decode(&packet) {
            Ok(buffer) => {
                bad_in_a_row = 0;
                let rate = buffer.spec().rate();
                let channels = buffer.num_planes();
                let n = buffer.frames();
                if n == 0 {
                    continue;
                }
                if rate == 0 || channels == 0 {
                    return Err(MediaError::Malformed);
                }
                // Per packet: the sample rate of an MP3 stream may change between frames.
                seconds += n as f64 / f64::from(rate);
                frames += n as u64;
                channel_samples += (n * channels) as u64;
                if seconds > max_seconds as f64 || channel_samples > max_samples {
                    return Err(too_long);
                }
                buffer.copy_to_vec_interleaved(&mut samples);
                peaks.push_interleaved(&samples, channels);
                loudness.push_interleaved(&samples, channels, rate);
            }
            Err(SymphoniaError::DecodeError(_) | SymphoniaError::IoError(_)) => {
                bad_in_a_row += 1;
                if bad_in_a_row > MAX_BAD_PACKETS_IN_A_ROW {
                    return Err(MediaError::Malformed);
                }
            }
            Err(SymphoniaError::Unsupported(_)) => return Err(MediaError::UnsupportedCodec),
            Err(_) => return Err(MediaError::Malformed),
        }
    }
    if frames == 0 {
        return Err(if bad_in_a_row > 0 { MediaError::Malformed } else { MediaError::NoAudio });
    }
    tags.take_all(format.as_mut());
    Ok(AudioFacts {
        duration_seconds: seconds,
        peaks: peaks.finish(TARGET_BINS),
        loudness: loudness.finish(),
        title: tags.title,
        artist: tags.artist,
        cover: tags.front_cover.or(tags.other_cover),
    })
}

/// The first title, artist and covers met in the metadata revisions, in file order.
#[derive(Default)]
struct Tags {
    title: Option<String>,
    artist: Option<String>,
    front_cover: Option<Cover>,
    other_cover: Option<Cover>,
}

impl Tags {
    /// Reads the revisions queued since the last call, leaving the latest in the log (the
    /// log keeps one; it is read by [`Tags::take_all`] at the end). Popping as decoding goes
    /// keeps the queue short whatever the file holds.
    fn take_new(&mut self, format: &mut dyn FormatReader) {
        let mut metadata = format.metadata();
        while let Some(revision) = metadata.pop() {
            self.read(&revision);
        }
    }

    fn take_all(&mut self, format: &mut dyn FormatReader) {
        self.take_new(format);
        if let Some(latest) = format.metadata().current() {
            self.read(latest);
        }
    }

    fn read(&mut self, revision: &MetadataRevision) {
        let containers = std::iter::once(&revision.media).chain(revision.per_track.iter().map(|t| &t.metadata));
        for container in containers {
            for tag in &container.tags {
                self.read_tag(tag);
            }
            for visual in &container.visuals {
                self.read_visual(visual);
            }
        }
    }

    fn read_tag(&mut self, tag: &Tag) {
        let (slot, value) = match &tag.std {
            Some(StandardTag::TrackTitle(v)) => (&mut self.title, v.as_str()),
            Some(StandardTag::Artist(v)) => (&mut self.artist, v.as_str()),
            _ => return,
        };
        if slot.is_none() {
            *slot = label(value);
        }
    }

    fn read_visual(&mut self, visual: &Visual) {
        let front = visual.usage == Some(StandardVisualKey::FrontCover);
        let slot = if front { &mut self.front_cover } else { &mut self.other_cover };
        if slot.is_some() || visual.data.len() > limits::COVER_MAX_BYTES {
            return;
        }
        // By its bytes, not its declared media type; pictures too large to draw are ignored.
        if let Ok(facts) = sniff_image(&visual.data, limits::COVER_MAX_SIDE, limits::COVER_MAX_PIXELS) {
            *slot = Some(Cover { kind: facts.kind, bytes: visual.data.to_vec() });
        }
    }
}

/// A tag value as a label: control characters (ID3's NUL separators among them) become
/// spaces, whitespace is collapsed, the length bounded; blank is none.
fn label(raw: &str) -> Option<String> {
    let cleaned: String = raw.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    let joined = words.join(" ");
    let bounded: String = joined.chars().take(MAX_LABEL_CHARS).collect();
    let trimmed = bounded.trim_end();
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_cleaned() {
        assert_eq!(label("  Blue\0 in  Green\n"), Some("Blue in Green".to_owned()));
        assert_eq!(label(" \0\t"), None);
        assert_eq!(label(&"é".repeat(1000)).map(|l| l.chars().count()), Some(MAX_LABEL_CHARS));
    }

    fn wav(frames: u32, sample: i16) -> Vec<u8> {
        wav_at(8000, frames, sample)
    }

    /// 16-bit mono PCM at `rate` Hz, alternating ±`sample`.
    fn wav_at(rate: u32, frames: u32, sample: i16) -> Vec<u8> {
        let data_len = frames * 2;
        let mut out = b"RIFF".to_vec();
        out.extend_from_slice(&(36 + data_len).to_le_bytes());
        out.extend_from_slice(b"WAVEfmt ");
        out.extend_from_slice(&16u32.to_le_bytes());
        out.extend_from_slice(&[1, 0, 1, 0]); // PCM, mono
        out.extend_from_slice(&rate.to_le_bytes());
        out.extend_from_slice(&(rate * 2).to_le_bytes());
        out.extend_from_slice(&[2, 0, 16, 0]);
        out.extend_from_slice(b"data");
        out.extend_from_slice(&data_len.to_le_bytes());
        for i in 0..frames {
            let s = if i % 2 == 0 { sample } else { -sample };
            out.extend_from_slice(&s.to_le_bytes());
        }
        out
    }

    #[test]
    fn a_wav_made_in_memory() {
        let facts = analyze_audio(std::io::Cursor::new(wav(8000, 16384)), AudioKind::Wav);
        let facts = facts.unwrap_or_else(|e| panic!("{e}"));
        assert!((facts.duration_seconds - 1.0).abs() < 1e-9);
        assert_eq!(facts.peaks.bins.len(), TARGET_BINS);
        assert!(facts.peaks.bins.iter().all(|b| *b == (-64, 64)), "half scale is 64, not normalised to 127");
        assert_eq!((facts.title, facts.artist, facts.cover), (None, None, None));
    }

    #[test]
    fn hours_of_audio_are_refused_past_the_limit() {
        // At one sample a second, four hours and a minute take 29 KB.
        let over = (limits::AUDIO_MAX_SECONDS + 60) as u32;
        let result = analyze_audio(std::io::Cursor::new(wav_at(1, over, 100)), AudioKind::Wav);
        assert_eq!(result.map(|_| ()), Err(MediaError::AudioTooLong { max_seconds: limits::AUDIO_MAX_SECONDS }));
        let under = (limits::AUDIO_MAX_SECONDS - 60) as u32;
        let facts = analyze_audio(std::io::Cursor::new(wav_at(1, under, 100)), AudioKind::Wav);
        assert_eq!(facts.map(|f| f.duration_seconds.round()), Ok(f64::from(under)));
    }

    #[test]
    fn a_wav_without_samples_has_no_audio() {
        assert_eq!(analyze_audio(std::io::Cursor::new(wav(0, 0)), AudioKind::Wav), Err(MediaError::NoAudio));
    }

    #[test]
    fn the_sniffed_kind_must_be_what_is_inside() {
        let result = analyze_audio(std::io::Cursor::new(wav(800, 100)), AudioKind::Flac);
        assert_eq!(result, Err(MediaError::UnsupportedType));
    }

    #[test]
    fn garbage_is_refused_without_a_panic() {
        for bytes in [vec![], vec![0u8; 10_000], b"RIFF\xff\xff\xff\xffWAVEfmt ".to_vec()] {
            let result = analyze_audio(std::io::Cursor::new(bytes), AudioKind::Wav);
            assert!(result.is_err(), "{result:?}");
        }
    }
}
