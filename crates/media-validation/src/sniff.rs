//! What an upload is, from its first bytes only (at most a few KiB), so the server can choose
//! the storage key, the limit and the refusal before the rest of the upload arrives.
//!
//! Sniffing looks at magic numbers and a little structure (an MP3 frame header that makes
//! sense, an ISO-BMFF brand, a Matroska DocType); it does not prove the whole file is sound:
//! [`crate::image_facts`], [`crate::analyze_audio`] and [`crate::parse_musicxml`] do that.
//! Text (HTML, SVG, scripts) never matches: every accepted kind starts with binary magic.

use crate::image::{ImageKind, webp_chunk_is_image};

/// A picture or a video for a media post (spec §5: jpeg, jpg, png, gif, webp, mp4, mov, avi,
/// mkv, webm).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaKind {
    Image(ImageKind),
    Video(VideoKind),
}

impl MediaKind {
    pub fn extension(self) -> &'static str {
        match self {
            MediaKind::Image(k) => k.extension(),
            MediaKind::Video(k) => k.extension(),
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            MediaKind::Image(k) => k.mime(),
            MediaKind::Video(k) => k.mime(),
        }
    }
}

/// A video container. Videos are stored as uploaded; only the container is recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VideoKind {
    Mp4,
    Mov,
    Avi,
    Mkv,
    Webm,
}

impl VideoKind {
    pub fn extension(self) -> &'static str {
        match self {
            VideoKind::Mp4 => "mp4",
            VideoKind::Mov => "mov",
            VideoKind::Avi => "avi",
            VideoKind::Mkv => "mkv",
            VideoKind::Webm => "webm",
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            VideoKind::Mp4 => "video/mp4",
            VideoKind::Mov => "video/quicktime",
            VideoKind::Avi => "video/x-msvideo",
            VideoKind::Mkv => "video/x-matroska",
            VideoKind::Webm => "video/webm",
        }
    }
}

/// An audio container (or raw stream) the server can decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AudioKind {
    /// MPEG-1/2 Layer III, bare or after an ID3v2 tag.
    Mp3,
    /// AAC (or another codec) in an MP4 container.
    M4a,
    /// Raw AAC in ADTS frames.
    Aac,
    Flac,
    Wav,
    Ogg,
}

impl AudioKind {
    pub fn extension(self) -> &'static str {
        match self {
            AudioKind::Mp3 => "mp3",
            AudioKind::M4a => "m4a",
            AudioKind::Aac => "aac",
            AudioKind::Flac => "flac",
            AudioKind::Wav => "wav",
            AudioKind::Ogg => "ogg",
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            AudioKind::Mp3 => "audio/mpeg",
            AudioKind::M4a => "audio/mp4",
            AudioKind::Aac => "audio/aac",
            AudioKind::Flac => "audio/flac",
            AudioKind::Wav => "audio/wav",
            AudioKind::Ogg => "audio/ogg",
        }
    }
}

/// A picture or video container, from the first bytes of the file (4 KiB is plenty).
pub fn sniff_media(head: &[u8]) -> Option<MediaKind> {
    if head.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Some(MediaKind::Image(ImageKind::Png));
    }
    if head.starts_with(&[0xFF, 0xD8, 0xFF]) {
        return Some(MediaKind::Image(ImageKind::Jpeg));
    }
    if head.starts_with(b"GIF87a") || head.starts_with(b"GIF89a") {
        return Some(MediaKind::Image(ImageKind::Gif));
    }
    if let Some(form) = riff_form(head) {
        return match form {
            b"WEBP" if head.get(12..16).is_some_and(webp_chunk_is_image) => Some(MediaKind::Image(ImageKind::Webp)),
            b"AVI " => Some(MediaKind::Video(VideoKind::Avi)),
            _ => None,
        };
    }
    if let Some(brands) = Ftyp::parse(head) {
        return brands.video().map(MediaKind::Video);
    }
    if head.starts_with(&EBML_MAGIC) {
        return match ebml_doc_type(head) {
            DocType::Webm => Some(MediaKind::Video(VideoKind::Webm)),
            DocType::Matroska | DocType::NotInHead => Some(MediaKind::Video(VideoKind::Mkv)),
            DocType::Other => None,
        };
    }
    // QuickTime files from before `ftyp` existed start straight with one of these atoms.
    if head.len() >= 8
        && be32(head, 0).is_some_and(|size| size >= 8)
        && matches!(&head[4..8], b"moov" | b"mdat" | b"wide")
    {
        return Some(MediaKind::Video(VideoKind::Mov));
    }
    None
}

/// An audio file, from its first bytes (4 KiB is plenty to see past a small ID3v2 tag).
pub fn sniff_audio(head: &[u8]) -> Option<AudioKind> {
    if let Some(tag_len) = id3v2_len(head) {
        // A tag (cover art makes it large) and then the audio: MP3 almost always, but FLAC and
        // ADTS files are tagged this way too. Past the head, trust the tag.
        return match head.get(tag_len..) {
            None | Some([]) => Some(AudioKind::Mp3),
            Some(rest) => bare_audio(rest).filter(|k| matches!(k, AudioKind::Mp3 | AudioKind::Aac | AudioKind::Flac)),
        };
    }
    bare_audio(head).or_else(|| Ftyp::parse(head).and_then(|brands| brands.audio()))
}

fn bare_audio(head: &[u8]) -> Option<AudioKind> {
    if head.starts_with(b"fLaC") {
        return Some(AudioKind::Flac);
    }
    if head.starts_with(b"OggS") && head.get(4) == Some(&0) {
        return Some(AudioKind::Ogg);
    }
    if riff_form(head) == Some(b"WAVE") {
        return Some(AudioKind::Wav);
    }
    if frames_line_up(head, mp3_frame_len) {
        return Some(AudioKind::Mp3);
    }
    if frames_line_up(head, adts_frame_len) {
        return Some(AudioKind::Aac);
    }
    None
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4).map(|s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
}

/// The form type of a RIFF file (`WAVE`, `AVI `, `WEBP`).
fn riff_form(head: &[u8]) -> Option<&[u8]> {
    (head.starts_with(b"RIFF") && head.len() >= 12).then(|| &head[8..12])
}

/// The length of an ID3v2 tag at the start (header, body and optional footer).
pub(crate) fn id3v2_len(head: &[u8]) -> Option<usize> {
    let h = head.get(0..10)?;
    if &h[0..3] != b"ID3" || !(2..=4).contains(&h[3]) || h[4] == 0xFF || h[6..10].iter().any(|b| b & 0x80 != 0) {
        return None;
    }
    let size = h[6..10].iter().fold(0usize, |acc, b| (acc << 7) | usize::from(*b));
    let footer = if h[3] == 4 && h[5] & 0x10 != 0 { 10 } else { 0 };
    Some(10 + size + footer)
}

/// Whether `head` starts with a frame `frame_len` accepts, and the next frame, when it lies
/// within the head, starts where the first one says. Two frames in a row make a chance match in
/// other data unlikely.
fn frames_line_up(head: &[u8], frame_len: fn(&[u8]) -> Option<usize>) -> bool {
    let Some(first) = frame_len(head) else { return false };
    match head.get(first..) {
        Some(rest) if rest.len() >= 7 => frame_len(rest).is_some(),
        // The file (or the head) ends within or right after the first frame.
        _ => true,
    }
}

/// The length of the MPEG audio Layer III frame whose header starts `b`.
pub(crate) fn mp3_frame_len(b: &[u8]) -> Option<usize> {
    const V1: [u32; 15] = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
    const V2: [u32; 15] = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
    let h = b.get(0..4)?;
    if h[0] != 0xFF || h[1] & 0xE0 != 0xE0 {
        return None;
    }
    let version = (h[1] >> 3) & 3; // 0: MPEG-2.5, 1: reserved, 2: MPEG-2, 3: MPEG-1
    let layer = (h[1] >> 1) & 3; // 1: Layer III
    let bitrate_index = usize::from(h[2] >> 4);
    let rate_index = usize::from((h[2] >> 2) & 3);
    if version == 1 || layer != 1 || bitrate_index == 0 || bitrate_index == 15 || rate_index == 3 {
        return None;
    }
    let padding = u32::from((h[2] >> 1) & 1);
    let (bitrate, rate, per) = match version {
        3 => (V1[bitrate_index], [44100, 48000, 32000][rate_index], 144),
        2 => (V2[bitrate_index], [22050, 24000, 16000][rate_index], 72),
        _ => (V2[bitrate_index], [11025, 12000, 8000][rate_index], 72),
    };
    Some((per * bitrate * 1000 / rate + padding) as usize)
}

/// The length of the ADTS (raw AAC) frame whose header starts `b`.
pub(crate) fn adts_frame_len(b: &[u8]) -> Option<usize> {
    let h = b.get(0..7)?;
    if h[0] != 0xFF || h[1] & 0xF6 != 0xF0 || (h[2] >> 2) & 0xF >= 13 {
        return None;
    }
    let len = (usize::from(h[3] & 3) << 11) | (usize::from(h[4]) << 3) | usize::from(h[5] >> 5);
    (len >= 7).then_some(len)
}

/// The brands of an ISO base media file (MP4, MOV, M4A, HEIF…).
struct Ftyp<'a> {
    major: &'a [u8],
    compatible: Vec<&'a [u8]>,
}

impl<'a> Ftyp<'a> {
    fn parse(head: &'a [u8]) -> Option<Self> {
        let size = be32(head, 0)? as usize;
        if head.get(4..8)? != b"ftyp" || !(16..=4096).contains(&size) {
            return None;
        }
        let major = head.get(8..12)?;
        let end = size.min(head.len());
        let compatible = head.get(16..end).unwrap_or_default().chunks_exact(4).collect();
        Some(Ftyp { major, compatible })
    }

    fn any(&self, brands: &[&[u8; 4]]) -> bool {
        std::iter::once(self.major).chain(self.compatible.iter().copied()).any(|b| brands.iter().any(|x| &x[..] == b))
    }

    fn video(&self) -> Option<VideoKind> {
        match self.major {
            b"qt  " => Some(VideoKind::Mov),
            // Audio-only (M4A, M4B audiobooks, M4P) and still images (HEIC, AVIF) are not videos.
            b"M4A " | b"M4B " | b"M4P " | b"heic" | b"heix" | b"mif1" | b"msf1" | b"avif" | b"avis" => None,
            _ => self.any(&GENERAL_MP4_BRANDS).then_some(VideoKind::Mp4),
        }
    }

    fn audio(&self) -> Option<AudioKind> {
        match self.major {
            b"M4A " | b"M4B " => Some(AudioKind::M4a),
            b"qt  " | b"heic" | b"heix" | b"mif1" | b"msf1" | b"avif" | b"avis" => None,
            // A general MP4 may hold audio only; decoding tells (no audio track: refused).
            _ => self.any(&GENERAL_MP4_BRANDS).then_some(AudioKind::M4a),
        }
    }
}

const GENERAL_MP4_BRANDS: [&[u8; 4]; 11] =
    [b"isom", b"iso2", b"iso4", b"iso5", b"iso6", b"mp41", b"mp42", b"avc1", b"M4V ", b"dash", b"mmp4"];

const EBML_MAGIC: [u8; 4] = [0x1A, 0x45, 0xDF, 0xA3];

enum DocType {
    Webm,
    Matroska,
    Other,
    NotInHead,
}

/// An EBML variable-length integer at `at`: (its value, with the length marker kept for element
/// ids and removed for sizes, and its length in bytes).
fn vint(b: &[u8], at: usize, keep_marker: bool) -> Option<(u64, usize)> {
    let first = *b.get(at)?;
    let len = first.leading_zeros() as usize + 1;
    if len > 8 {
        return None;
    }
    let bytes = b.get(at..at + len)?;
    let mut value = if keep_marker { u64::from(first) } else { u64::from(first) & (0xFF >> len) };
    for byte in &bytes[1..] {
        value = (value << 8) | u64::from(*byte);
    }
    Some((value, len))
}

/// The DocType of the EBML header at the start of a Matroska/WebM file.
fn ebml_doc_type(head: &[u8]) -> DocType {
    let Some((header_size, size_len)) = vint(head, 4, false) else { return DocType::NotInHead };
    let start = 4 + size_len;
    let end = usize::try_from(header_size).map_or(head.len(), |s| start.saturating_add(s).min(head.len()));
    let mut at = start;
    while at < end {
        let Some((id, id_len)) = vint(head, at, true) else { return DocType::NotInHead };
        let Some((size, len_len)) = vint(head, at + id_len, false) else { return DocType::NotInHead };
        let data = at + id_len + len_len;
        let Some(data_end) = usize::try_from(size).ok().and_then(|s| data.checked_add(s)) else {
            return DocType::NotInHead;
        };
        if id == 0x4282 {
            return match head.get(data..data_end) {
                Some(name) => match name.split(|b| *b == 0).next().unwrap_or_default() {
                    b"webm" => DocType::Webm,
                    b"matroska" => DocType::Matroska,
                    _ => DocType::Other,
                },
                None => DocType::NotInHead,
            };
        }
        at = data_end;
    }
    DocType::NotInHead
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mp3_frame() -> Vec<u8> {
        // MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, no padding: 417 bytes.
        let mut f = vec![0xFF, 0xFB, 0x90, 0x64];
        f.resize(417, 0);
        f
    }

    #[test]
    fn mp3_frame_lengths_follow_the_tables() {
        assert_eq!(mp3_frame_len(&[0xFF, 0xFB, 0x90, 0x64]), Some(417));
        assert_eq!(mp3_frame_len(&[0xFF, 0xFB, 0x92, 0x64]), Some(418), "padding");
        assert_eq!(mp3_frame_len(&[0xFF, 0xF3, 0x18, 0xC4]), Some(72 * 8000 / 16000), "MPEG-2 8 kbit/s at 16 kHz");
        assert_eq!(mp3_frame_len(&[0xFF, 0xFB, 0xF0, 0x64]), None, "bad bitrate");
        assert_eq!(mp3_frame_len(&[0xFF, 0xFB, 0x9C, 0x64]), None, "bad sample rate");
        assert_eq!(mp3_frame_len(&[0xFF, 0xFD, 0x90, 0x64]), None, "layer II");
    }

    #[test]
    fn bare_mp3_needs_two_frames_that_line_up() {
        let mut two = mp3_frame();
        two.extend(mp3_frame());
        assert_eq!(sniff_audio(&two), Some(AudioKind::Mp3));
        let mut wrong = mp3_frame();
        wrong.extend_from_slice(b"<html><body>not a second frame</body></html>");
        assert_eq!(sniff_audio(&wrong), None);
    }

    #[test]
    fn id3_tag_then_audio() {
        let mut tagged = b"ID3\x03\x00\x00\x00\x00\x00\x0A".to_vec();
        tagged.extend_from_slice(&[0; 10]);
        let mut mp3 = tagged.clone();
        mp3.extend(mp3_frame());
        assert_eq!(sniff_audio(&mp3), Some(AudioKind::Mp3));
        let mut flac = tagged.clone();
        flac.extend_from_slice(b"fLaC\0\0\0\x22");
        assert_eq!(sniff_audio(&flac), Some(AudioKind::Flac));
        let mut html = tagged.clone();
        html.extend_from_slice(b"<html>");
        assert_eq!(sniff_audio(&html), None);
        // A tag larger than the head: trusted.
        assert_eq!(sniff_audio(b"ID3\x04\x00\x00\x00\x01\x00\x00"), Some(AudioKind::Mp3));
        assert_eq!(sniff_audio(b"ID3\x04\x00\x00\x80\x01\x00\x00"), None, "sizes are 7-bit");
    }

    #[test]
    fn adts_frames() {
        // AAC LC, 44.1 kHz, stereo, frame length 20.
        let frame = [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x9F, 0xFC, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let mut two = frame.to_vec();
        two.extend_from_slice(&frame);
        assert_eq!(sniff_audio(&two), Some(AudioKind::Aac));
    }

    #[test]
    fn containers_by_magic() {
        assert_eq!(sniff_audio(b"fLaC\0\0\0\x22"), Some(AudioKind::Flac));
        assert_eq!(sniff_audio(b"OggS\0\x02\0\0"), Some(AudioKind::Ogg));
        assert_eq!(sniff_audio(b"RIFF\x24\0\0\0WAVEfmt "), Some(AudioKind::Wav));
        assert_eq!(sniff_audio(b"RIFF\x24\0\0\0AVI LIST"), None);
        assert_eq!(sniff_media(b"RIFF\x24\0\0\0AVI LIST"), Some(MediaKind::Video(VideoKind::Avi)));
        assert_eq!(sniff_media(b"RIFF\x24\0\0\0WAVEfmt "), None);
        assert_eq!(sniff_media(b"RIFF\x24\0\0\0WEBPVP8 "), Some(MediaKind::Image(ImageKind::Webp)));
        assert_eq!(sniff_media(b"RIFF\x24\0\0\0WEBPJUNK"), None);
        assert_eq!(sniff_media(b"GIF89a\x01\0\x01\0"), Some(MediaKind::Image(ImageKind::Gif)));
    }

    fn ftyp(major: &[u8; 4], compatible: &[&[u8; 4]]) -> Vec<u8> {
        let mut b = ((16 + 4 * compatible.len()) as u32).to_be_bytes().to_vec();
        b.extend_from_slice(b"ftyp");
        b.extend_from_slice(major);
        b.extend_from_slice(&[0, 0, 2, 0]);
        for c in compatible {
            b.extend_from_slice(*c);
        }
        b
    }

    #[test]
    fn iso_brands() {
        let mp4 = ftyp(b"isom", &[b"isom", b"iso2", b"avc1", b"mp41"]);
        assert_eq!(sniff_media(&mp4), Some(MediaKind::Video(VideoKind::Mp4)));
        assert_eq!(sniff_audio(&mp4), Some(AudioKind::M4a));
        let mov = ftyp(b"qt  ", &[b"qt  "]);
        assert_eq!(sniff_media(&mov), Some(MediaKind::Video(VideoKind::Mov)));
        assert_eq!(sniff_audio(&mov), None);
        let m4a = ftyp(b"M4A ", &[b"M4A ", b"mp42", b"isom"]);
        assert_eq!(sniff_audio(&m4a), Some(AudioKind::M4a));
        assert_eq!(sniff_media(&m4a), None);
        let heic = ftyp(b"heic", &[b"mif1", b"heic"]);
        assert_eq!((sniff_media(&heic), sniff_audio(&heic)), (None, None));
        let unknown = ftyp(b"abcd", &[b"efgh"]);
        assert_eq!((sniff_media(&unknown), sniff_audio(&unknown)), (None, None));
    }

    #[test]
    fn matroska_doc_types() {
        let ebml = |doc: &[u8]| {
            let mut body = vec![0x42, 0x86, 0x81, 0x01]; // EBMLVersion 1
            body.extend_from_slice(&[0x42, 0x82, 0x80 | doc.len() as u8]);
            body.extend_from_slice(doc);
            let mut b = EBML_MAGIC.to_vec();
            b.push(0x80 | body.len() as u8);
            b.extend(body);
            b
        };
        assert_eq!(sniff_media(&ebml(b"webm")), Some(MediaKind::Video(VideoKind::Webm)));
        assert_eq!(sniff_media(&ebml(b"matroska")), Some(MediaKind::Video(VideoKind::Mkv)));
        assert_eq!(sniff_media(&ebml(b"something")), None);
        assert_eq!(sniff_media(&EBML_MAGIC), Some(MediaKind::Video(VideoKind::Mkv)), "DocType beyond the head");
        // Sizes that point anywhere do not panic.
        let mut hostile = EBML_MAGIC.to_vec();
        hostile.extend_from_slice(&[0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x42, 0x82, 0x01, 0xFF]);
        let _ = sniff_media(&hostile);
    }

    #[test]
    fn text_is_never_media() {
        for text in
            [&b"<!DOCTYPE html><html>"[..], b"<svg xmlns=\"http://www.w3.org/2000/svg\">", b"hello", b"", b"\xFF"]
        {
            assert_eq!(sniff_media(text), None);
            assert_eq!(sniff_audio(text), None);
        }
    }

    #[test]
    fn every_prefix_of_every_magic_is_safe() {
        let mut samples = vec![ftyp(b"isom", &[b"mp42"]), mp3_frame(), b"ID3\x03\0\0\0\0\0\x0A".to_vec()];
        samples.push(b"RIFF\x24\0\0\0WEBPVP8X".to_vec());
        for s in &samples {
            for cut in 0..s.len().min(64) {
                let _ = (sniff_media(&s[..cut]), sniff_audio(&s[..cut]));
            }
        }
    }
}
