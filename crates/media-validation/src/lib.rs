//! Pure checks of uploaded bytes: what a file really is (by its bytes, never its name), its
//! facts (image size, audio duration and waveform, tags, a score's title), and copies without
//! the metadata a person did not mean to publish.
//!
//! Pure means: bytes or a `Read + Seek` in, facts out; no files, processes or network. Every
//! function is meant to survive any input (fuzzable): no panics, memory bounded by the limits
//! below or by the size of the input the caller already bounded.
//!
//! Modules:
//! - [`sniff`]: the kind of an upload from its first bytes (before the rest arrives);
//! - [`image`]: image facts and container-level metadata stripping;
//! - [`display`]: the JPEG display copy of a large picture for feeds, and avatars scaled to the
//!   size they are shown at;
//! - [`budget`]: the memory budget every image decode reserves its worst case from;
//! - [`audio`]: decoding audio for its real duration, tags, cover art, [`peaks`] and
//!   [`loudness`];
//! - [`audio_clean`]: a copy of an audio file without its tags and pictures, streamed;
//! - [`score`]: MusicXML and `.mxl` archives.

pub mod audio;
pub mod audio_clean;
pub mod budget;
pub mod display;
#[doc(hidden)]
pub mod fuzzing;
pub mod image;
pub mod loudness;
pub mod peaks;
mod scale;
pub mod score;
pub mod sniff;
#[cfg(test)]
mod test_images;

pub use audio::{AudioFacts, Cover, MediaSource, analyze_audio, analyze_audio_within};
pub use audio_clean::{StripError, strip_audio_metadata};
pub use display::{DisplayCopy, ScaledPicture, avatar_copy, display_copy};
pub use image::{ImageFacts, ImageKind, image_facts, sniff_image, strip_image_metadata};
pub use loudness::Loudness;
pub use peaks::Peaks;
pub use score::{MAX_SUNG_CHARS, ScoreFacts, ScoreFormat, parse_musicxml, parse_mxl, sniff_score};
pub use sniff::{AudioKind, MediaKind, VideoKind, sniff_audio, sniff_media};

/// The product's upload limits (spec §5, §9), and the bounds this crate puts on work and memory.
/// A megabyte is 1024 × 1024 bytes, as for avatars.
pub mod limits {
    const MB: u64 = 1024 * 1024;

    pub const AUDIO_MAX_FILES: usize = 10;
    pub const AUDIO_MAX_BYTES: u64 = 50 * MB;
    pub const MEDIA_MAX_FILES: usize = 5;
    pub const IMAGE_MAX_BYTES: u64 = 10 * MB;
    pub const VIDEO_MAX_BYTES: u64 = 100 * MB;
    pub const MEDIA_MAX_TOTAL: u64 = 200 * MB;
    pub const MUSICXML_MAX_FILES: usize = 5;
    pub const MUSICXML_MAX_BYTES: u64 = 10 * MB;

    /// Longest audio decoded. 50 MB holds about 3.6 hours at 32 kbit/s; beyond this a file is
    /// more likely a decompression bomb (a FLAC of constant samples is a few bytes per second)
    /// than music, and decoding it would tie up a processing slot for minutes.
    pub const AUDIO_MAX_SECONDS: u64 = 4 * 3600;
    /// Audio decoded for one post, all its tracks together: an album or a long set fits, ten
    /// files of four hours each (which took 83 s of a processing slot) do not.
    pub const AUDIO_POST_MAX_SECONDS: u64 = 6 * 3600;
    /// Largest embedded cover art kept (larger pictures are ignored, the audio is kept).
    pub const COVER_MAX_BYTES: usize = 5 * 1024 * 1024;
    /// Largest cover art picture, a side and in all.
    pub const COVER_MAX_SIDE: u32 = 4096;
    pub const COVER_MAX_PIXELS: u64 = 16_000_000;
    /// Pictures decoded for a display copy: at most this many pixels a side and in all.
    pub const IMAGE_MAX_SIDE: u32 = 8192;
    pub const IMAGE_MAX_PIXELS: u64 = 40_000_000;
    /// Memory all image decodes of the process may hold at once (see [`crate::budget`]): each
    /// reserves its worst case, estimated from the header, before decoding, and waits while
    /// others hold it. Enough for the costliest picture accepted, a 40 Mpx progressive JPEG
    /// without chroma subsampling (120 MB of pixels and 240 MB of DCT coefficients), so every
    /// picture within the pixel limits can be decoded, one at a time if need be; four large
    /// JPEGs at once took 512 MB more before there was a budget. PNG copies are made row by
    /// row and take a few MB, so many of them fit beside each other.
    pub const DECODE_BUDGET_BYTES: u64 = 384 * MB;
    /// Entries in an `.mxl` archive (real ones hold a handful).
    pub const MXL_MAX_ENTRIES: usize = 1000;
    /// Unpacked bytes of one `.mxl` entry: the same as a plain MusicXML file.
    pub const MXL_MAX_ENTRY_BYTES: u64 = MUSICXML_MAX_BYTES;
    /// Unpacked bytes of a whole `.mxl` archive.
    pub const MXL_MAX_TOTAL_BYTES: u64 = 50 * MB;
    /// Element nesting in MusicXML (real scores nest about 8 deep).
    pub const XML_MAX_DEPTH: usize = 256;
    /// Attributes one element may have: MusicXML's busiest elements have about twenty. (Without a
    /// bound, checking for repeated names was quadratic: 210k attributes took 49 s.)
    pub const XML_MAX_ATTRIBUTES: usize = 128;
}

/// Why bytes were refused. The messages are shown to people after the file name
/// ("song.mp3: the file holds no audio").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MediaError {
    /// The bytes are not one of the accepted kinds.
    #[error("unsupported file type")]
    UnsupportedType,
    /// The bytes claim to be an accepted kind but cannot be read as one.
    #[error("the file is damaged or incomplete")]
    Malformed,
    #[error(
        "the image is {width}×{height} pixels; at most {max_side} pixels a side and {max_pixels} pixels in all are accepted"
    )]
    TooManyPixels { width: u32, height: u32, max_side: u32, max_pixels: u64 },
    /// A picture within the pixel limits whose decoding would take more memory than the whole
    /// decode budget (a progressive CMYK JPEG at the largest size).
    #[error(
        "the image is {width}×{height} pixels and would take {needed_mb} MB of memory to read; at most {max_mb} MB are available for one picture"
    )]
    TooLargeToDecode { width: u32, height: u32, needed_mb: u64, max_mb: u64 },
    /// An animation with a frame outside its picture, or more pixels in all its frames than a
    /// picture may have.
    #[error("the animation has a frame larger than the picture, or more than {max_pixels} pixels in all its frames")]
    GifFrames { max_pixels: u64 },
    /// An audio container with no audio track, or one that decodes to no samples.
    #[error("the file holds no audio")]
    NoAudio,
    /// An accepted audio container holding a codec this server cannot decode (Opus, ALAC, ADPCM…).
    #[error("the audio is encoded in a format that is not supported")]
    UnsupportedCodec,
    #[error("the audio is longer than {} hours", max_seconds / 3600)]
    AudioTooLong { max_seconds: u64 },
    /// Well-formed XML (or an archive) that is not a MusicXML score.
    #[error("the file is not a MusicXML score")]
    NotMusicXml,
    /// An XML document declaring entities (in an internal DTD subset) or referring to any
    /// entity but the five predefined ones: the way to billion-laughs and external-entity attacks.
    #[error("the score declares or uses XML entities, which are not accepted")]
    XmlEntity,
    #[error("the score nests elements more than {max_depth} deep")]
    XmlTooDeep { max_depth: usize },
    #[error("an element of the score has more than {max} attributes")]
    XmlTooManyAttributes { max: usize },
    #[error("the archive unpacks to more than {} MB", max_bytes >> 20)]
    ArchiveTooLarge { max_bytes: u64 },
    #[error("the archive holds more than {max} files")]
    TooManyEntries { max: usize },
    /// An archive entry whose name would land outside the folder it is unpacked in
    /// (`../x`, `/etc/x`, `..\x`), or a symbolic link.
    #[error("the archive holds a file whose name points outside it")]
    UnsafeArchivePath,
    #[error("the archive is encrypted")]
    EncryptedArchive,
}

/// The content type to serve a stored object with, from the extension the server gave it after
/// sniffing its bytes. Unknown extensions are served as opaque bytes.
pub fn content_type_for(key: &str) -> &'static str {
    match key.rsplit('.').next().unwrap_or_default() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "mp4" => "video/mp4",
        "mov" => "video/quicktime",
        "webm" => "video/webm",
        // A track's Opus rendition (`posts::renditions`).
        "weba" => "audio/webm",
        "mkv" => "video/x-matroska",
        "avi" => "video/x-msvideo",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "ogg" => "audio/ogg",
        "flac" => "audio/flac",
        "m4a" => "audio/mp4",
        "aac" => "audio/aac",
        "musicxml" | "xml" => "application/vnd.recordare.musicxml+xml",
        "mxl" => "application/vnd.recordare.musicxml",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sniffed_extension_has_its_content_type() {
        let images = [ImageKind::Png, ImageKind::Jpeg, ImageKind::Gif, ImageKind::Webp];
        for kind in images {
            assert_eq!(content_type_for(&format!("k.{}", kind.extension())), kind.mime());
        }
        let videos = [VideoKind::Mp4, VideoKind::Mov, VideoKind::Avi, VideoKind::Mkv, VideoKind::Webm];
        for kind in videos {
            assert_eq!(content_type_for(&format!("k.{}", kind.extension())), kind.mime());
        }
        let audio = [AudioKind::Mp3, AudioKind::M4a, AudioKind::Aac, AudioKind::Flac, AudioKind::Wav, AudioKind::Ogg];
        for kind in audio {
            assert_eq!(content_type_for(&format!("k.{}", kind.extension())), kind.mime());
        }
        assert_eq!(content_type_for("k.exe"), "application/octet-stream");
        assert_eq!(content_type_for("no-extension"), "application/octet-stream");
    }

    #[test]
    fn messages_read_well_after_a_file_name() {
        assert_eq!(MediaError::AudioTooLong { max_seconds: 4 * 3600 }.to_string(), "the audio is longer than 4 hours");
        assert_eq!(
            MediaError::ArchiveTooLarge { max_bytes: 50 * 1024 * 1024 }.to_string(),
            "the archive unpacks to more than 50 MB"
        );
    }
}
