//! A copy of an audio file without its metadata: the audio stream byte for byte, every tag,
//! picture and other hidden data dropped, made on the container without decoding.
//!
//! What each kind keeps (everything else goes):
//! - **MP3** and **ADTS AAC**: the frames. Walking frame by frame from the start drops ID3v2
//!   tags in front (several in a row, with a footer or not) and wherever else they sit, and
//!   ID3v1, APEv2, Lyrics3 and appended ID3v2 tags at the end; bytes that are not frames go
//!   too, as a decoder would skip them. The Xing/Info/VBRI frame is a frame: kept (players
//!   seek with it).
//! - **FLAC**: `fLaC`, STREAMINFO and the first SEEKTABLE (the last one kept carries the
//!   last-block flag), then the frames untouched. VORBIS_COMMENT, PICTURE, APPLICATION,
//!   CUESHEET and PADDING go, and so do ID3 tags in front or at the end.
//! - **WAV**: a fresh RIFF header, then `fmt `, `fact` (when there is one) and `data`, in that
//!   order; `LIST`/`INFO`, `id3 `, `bext`, `iXML` and every other chunk go. A `data` chunk that
//!   claims more than the file holds (a recording cut short, or a streaming writer's
//!   0xFFFFFFFF) keeps what is there, with its size corrected.
//! - **M4A** (ISO BMFF): `ftyp`, `moov`, `mdat` and `moof`. Inside `moov` every `udta`, `meta`,
//!   `uuid`, `free` and `skip` box goes, at any depth (in `trak` too); the creation and
//!   modification times of `mvhd`, `tkhd` and `mdhd` become zero. Every other top-level box
//!   (`free`, `skip`, `wide`, `uuid`, `meta`, `udta`, `sidx`, `mfra`, ...) goes. Chunk offsets
//!   (`stco`, `co64`, and absolute `tfhd` base offsets of fragments) are moved back by the
//!   bytes removed before the data they point at. 64-bit sizes and a last box of size 0 (to
//!   the end of the file) are read. In a fragmented file, boxes between fragments are refused
//!   rather than removed (fragments locate their data relative to themselves).
//! - **Ogg**: the comment header (the second packet: Vorbis comments, where pictures hide as
//!   `METADATA_BLOCK_PICTURE`) is replaced by an empty one (no vendor, no comments), the header
//!   pages are paged anew, and every page after them gets its sequence number moved by the
//!   change in the number of header pages and a new CRC; audio packets are untouched. FLAC in
//!   Ogg likewise keeps its first packet (STREAMINFO) and an empty VORBIS_COMMENT, and drops
//!   every other metadata packet. Streams one after another (chained) are each cleaned;
//!   interleaved streams, and codecs other than Vorbis and FLAC, are refused.
//!
//! Anything that does not follow its container's rules is refused as
//! [`MediaError::Malformed`] (an Ogg page with a wrong CRC, a FLAC block running past the end,
//! an M4A box that does not fit its parent, ...). Memory is bounded (a 64 KiB window, one Ogg
//! page, a few words per box of an M4A index) whatever the size of the file, and no input
//! makes it panic.

use std::io::{self, Read, Seek, SeekFrom, Write};

use crate::MediaError;
use crate::sniff::{AudioKind, adts_frame_len, id3v2_len, mp3_frame_len};

/// Why no clean copy was made.
#[derive(Debug, thiserror::Error)]
pub enum StripError {
    /// The file cannot be read as its kind: refuse it.
    #[error(transparent)]
    Refused(#[from] MediaError),
    /// Reading the source or writing the copy failed (not the file's fault).
    #[error("copying the audio: {0}")]
    Io(#[source] io::Error),
}

type Result<T> = std::result::Result<T, StripError>;

fn malformed<T>() -> Result<T> {
    Err(StripError::Refused(MediaError::Malformed))
}

/// Copies `input`, which [`crate::sniff_audio`] said is `kind`, to `output` without its
/// metadata (see the module's documentation for what is kept). Answers the bytes written.
///
/// `input` is read from its start (offset 0) to its end, seeking as needed; `output` receives
/// the copy in one pass. On an error, what was written so far is not a usable file.
pub fn strip_audio_metadata(kind: AudioKind, input: impl Read + Seek, output: impl Write) -> Result<u64> {
    let mut src = Source::new(input)?;
    let mut out = Sink { inner: output, written: 0 };
    match kind {
        AudioKind::Mp3 => frames(&mut src, &mut out, &MP3)?,
        AudioKind::Aac => frames(&mut src, &mut out, &ADTS)?,
        AudioKind::Flac => flac(&mut src, &mut out)?,
        AudioKind::Wav => wav(&mut src, &mut out)?,
        AudioKind::M4a => mp4(&mut src, &mut out)?,
        AudioKind::Ogg => ogg(&mut src, &mut out)?,
    }
    out.inner.flush().map_err(StripError::Io)?;
    Ok(out.written)
}

// ---------------------------------------------------------------------------------------------
// Reading and writing

const WINDOW: usize = 64 * 1024;

/// The input, read through a window of [`WINDOW`] bytes at any offset.
struct Source<R> {
    inner: R,
    len: u64,
    /// Where `inner` is (to seek only when needed).
    at: u64,
    buf: Vec<u8>,
    /// The file offset of `buf[0]`.
    buf_start: u64,
}

impl<R: Read + Seek> Source<R> {
    fn new(mut inner: R) -> Result<Self> {
        let len = inner.seek(SeekFrom::End(0)).map_err(StripError::Io)?;
        Ok(Source { inner, len, at: len, buf: Vec::with_capacity(WINDOW), buf_start: 0 })
    }

    /// Up to `n` (at most [`WINDOW`]) bytes at `at`: fewer only where the file ends.
    fn peek(&mut self, at: u64, n: usize) -> Result<&[u8]> {
        let n = n.min(WINDOW);
        let want = u64::try_from(n).unwrap_or(u64::MAX).min(self.len.saturating_sub(at));
        let buf_end = self.buf_start + self.buf.len() as u64;
        if !(at >= self.buf_start && at.saturating_add(want) <= buf_end) {
            self.fill(at)?;
        }
        let from = usize::try_from(at - self.buf_start).unwrap_or(usize::MAX);
        let to = from.saturating_add(usize::try_from(want).unwrap_or(usize::MAX));
        self.buf.get(from..to).map_or_else(malformed, Ok)
    }

    fn fill(&mut self, at: u64) -> Result<()> {
        self.buf.clear();
        self.buf_start = at;
        let n = self.len.saturating_sub(at).min(WINDOW as u64);
        if n == 0 {
            return Ok(());
        }
        if self.at != at {
            self.inner.seek(SeekFrom::Start(at)).map_err(StripError::Io)?;
            self.at = at;
        }
        self.buf.resize(n as usize, 0);
        match self.inner.read_exact(&mut self.buf) {
            Ok(()) => {
                self.at = at + n;
                Ok(())
            }
            Err(e) => {
                self.buf.clear();
                self.at = u64::MAX;
                if e.kind() == io::ErrorKind::UnexpectedEof { malformed() } else { Err(StripError::Io(e)) }
            }
        }
    }

    /// Exactly `n` (at most [`WINDOW`]) bytes at `at`, or `Malformed` when the file ends first.
    fn bytes(&mut self, at: u64, n: usize) -> Result<&[u8]> {
        if n > WINDOW || at.checked_add(n as u64).is_none_or(|end| end > self.len) {
            return malformed();
        }
        self.peek(at, n)
    }

    fn array<const N: usize>(&mut self, at: u64) -> Result<[u8; N]> {
        let b = self.bytes(at, N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(b);
        Ok(a)
    }

    /// Copies `start..end` of the input to `out`.
    fn copy(&mut self, start: u64, end: u64, out: &mut Sink<impl Write>) -> Result<()> {
        if end > self.len || start > end {
            return malformed();
        }
        let mut at = start;
        while at < end {
            let chunk = self.peek(at, usize::try_from(end - at).unwrap_or(WINDOW))?;
            if chunk.is_empty() {
                return malformed();
            }
            out.write(chunk)?;
            at += chunk.len() as u64;
        }
        Ok(())
    }
}

struct Sink<W> {
    inner: W,
    written: u64,
}

impl<W: Write> Sink<W> {
    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.inner.write_all(bytes).map_err(StripError::Io)?;
        self.written += bytes.len() as u64;
        Ok(())
    }
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4).map(|s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
}

fn be64(b: &[u8], at: usize) -> Option<u64> {
    b.get(at..at + 8).and_then(|s| s.try_into().ok()).map(u64::from_be_bytes)
}

fn le32(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4).map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

// ---------------------------------------------------------------------------------------------
// Tags around a stream (MP3, ADTS, FLAC, Ogg)

/// The length of a tag that starts `b` (ID3v2, ID3v1, an APEv2 tag with its header), if it
/// starts with one and fits in the `room` bytes left.
fn tag_at(b: &[u8], room: u64) -> Option<u64> {
    let len = if let Some(len) = id3v2_len(b) {
        len as u64
    } else if b.starts_with(b"TAG") {
        128
    } else if b.starts_with(b"APETAGEX") {
        let (size, flags) = (u64::from(le32(b, 12)?), le32(b, 20)?);
        // A header (bit 29) of a tag whose size counts its items and footer, not the header.
        if flags & (1 << 29) == 0 || size < 32 {
            return None;
        }
        size + 32
    } else {
        return None;
    };
    (len <= room).then_some(len)
}

/// Where the stream in `start..end` ends once the tags appended to it are peeled off: ID3v1
/// (and its extended `TAG+` block), APEv2 (with or without its header), Lyrics3 v1 and v2, and
/// an ID3v2.4 tag with a footer, in any order and number.
fn strip_trailing_tags(src: &mut Source<impl Read + Seek>, start: u64, mut end: u64) -> Result<u64> {
    // Each round removes a tag, at least 10 bytes: bounded by the file, but stop early anyway.
    for _ in 0..64 {
        let room = end - start;
        let tail_len = room.min(32) as usize;
        let tail = src.bytes(end - tail_len as u64, tail_len)?.to_vec();
        let ends_with = |magic: &[u8], at_from_end: usize| {
            tail.len() >= at_from_end && tail[tail.len() - at_from_end..].starts_with(magic)
        };
        if room >= 128 && src.bytes(end - 128, 3)? == b"TAG" {
            end -= 128;
            if end - start >= 227 && src.bytes(end - 227, 4)? == b"TAG+" {
                end -= 227;
            }
        } else if ends_with(b"APETAGEX", 32) {
            let size = u64::from(le32(&tail, tail.len() - 20).unwrap_or(0));
            let flags = le32(&tail, tail.len() - 12).unwrap_or(0);
            let has_header = flags & (1 << 31) != 0;
            let total = size + if has_header { 32 } else { 0 };
            if flags & (1 << 29) != 0 || size < 32 || total > room {
                break;
            }
            if has_header && src.bytes(end - total, 8)? != b"APETAGEX" {
                break;
            }
            end -= total;
        } else if ends_with(b"LYRICS200", 9) && room >= 15 {
            let digits = &tail[tail.len() - 15..tail.len() - 9];
            let size = std::str::from_utf8(digits).ok().and_then(|d| d.parse::<u64>().ok());
            let Some(total) = size.map(|s| s + 15).filter(|t| *t <= room && *t >= 26) else { break };
            if src.bytes(end - total, 11)? != b"LYRICSBEGIN" {
                break;
            }
            end -= total;
        } else if ends_with(b"LYRICSEND", 9) {
            // Lyrics3 v1: at most 5100 bytes of lyrics after LYRICSBEGIN.
            let span = room.min(5100 + 11 + 9) as usize;
            let block = src.bytes(end - span as u64, span)?;
            let Some(begin) = block.windows(11).rposition(|w| w == b"LYRICSBEGIN") else { break };
            end -= (span - begin) as u64;
        } else if ends_with(b"3DI", 10) {
            let footer = &tail[tail.len() - 10..];
            if footer[3] != 4 || footer[6..10].iter().any(|b| b & 0x80 != 0) {
                break;
            }
            let size = footer[6..10].iter().fold(0u64, |acc, b| (acc << 7) | u64::from(*b));
            let total = size + 20;
            if total > room || src.bytes(end - total, 3)? != b"ID3" {
                break;
            }
            end -= total;
        } else {
            break;
        }
    }
    Ok(end)
}

// ---------------------------------------------------------------------------------------------
// MP3 and ADTS: frames

struct FrameFormat {
    frame_len: fn(&[u8]) -> Option<usize>,
    /// Whether two frame headers belong to one stream (same version, layer, sample rate...).
    same_stream: fn(&[u8], &[u8]) -> bool,
}

const MP3: FrameFormat = FrameFormat { frame_len: mp3_frame_len, same_stream: same_mp3_stream };
const ADTS: FrameFormat = FrameFormat { frame_len: adts_frame_len, same_stream: same_adts_stream };

/// Same MPEG version and layer, same sample rate.
fn same_mp3_stream(a: &[u8], b: &[u8]) -> bool {
    a.get(1).map(|x| x & 0xFE) == b.get(1).map(|x| x & 0xFE) && a.get(2).map(|x| x & 0x0C) == b.get(2).map(|x| x & 0x0C)
}

/// Same MPEG version, same profile and sample rate.
fn same_adts_stream(a: &[u8], b: &[u8]) -> bool {
    a.get(1).map(|x| x & 0xFE) == b.get(1).map(|x| x & 0xFE) && a.get(2).map(|x| x & 0xFC) == b.get(2).map(|x| x & 0xFC)
}

/// The longest frame (ADTS: 13 bits of length) and the next frame's header.
const LOOKAHEAD: usize = 8192 + 64;

/// Copies every frame: where one frame ends the next is expected; anywhere else (the start,
/// after a tag or junk) a frame counts only when the next one lines up behind it (or the
/// stream ends there), so a chance 0xFF in a tag's picture is not taken for audio.
fn frames(src: &mut Source<impl Read + Seek>, out: &mut Sink<impl Write>, format: &FrameFormat) -> Result<()> {
    let end = strip_trailing_tags(src, 0, src.len)?;
    let (mut at, mut in_sync, mut copied) = (0u64, false, 0u64);
    while at < end {
        let room = end - at;
        let window = src.peek(at, LOOKAHEAD.min(room as usize))?;
        if let Some(len) = tag_at(window, room) {
            at += len;
            in_sync = false;
            continue;
        }
        if let Some(len) = (format.frame_len)(window).filter(|len| *len as u64 <= room) {
            let lines_up = || match window.get(len..) {
                Some(next) if !next.is_empty() => {
                    (format.frame_len)(next).is_some() && (format.same_stream)(window, next)
                        || tag_at(next, room - len as u64).is_some()
                }
                _ => len as u64 == room,
            };
            if in_sync || lines_up() {
                src.copy(at, at + len as u64, out)?;
                at += len as u64;
                in_sync = true;
                copied += 1;
                continue;
            }
        }
        // Not a frame: skip to the next byte that could start one (or a tag).
        in_sync = false;
        let skip =
            window.iter().skip(1).position(|b| matches!(b, 0xFF | b'I' | b'T' | b'A')).map_or(window.len(), |p| p + 1);
        at += skip.max(1) as u64;
    }
    if copied == 0 {
        return Err(StripError::Refused(MediaError::NoAudio));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// FLAC

const FLAC_STREAMINFO: u8 = 0;
const FLAC_SEEKTABLE: u8 = 3;
const FLAC_VORBIS_COMMENT: u8 = 4;

fn flac(src: &mut Source<impl Read + Seek>, out: &mut Sink<impl Write>) -> Result<()> {
    let mut at = 0u64;
    // ID3v2 tags some taggers put in front.
    loop {
        let head = src.peek(at, 10)?;
        match id3v2_len(head) {
            Some(len) if (len as u64) <= src.len - at => at += len as u64,
            _ => break,
        }
    }
    if src.bytes(at, 4)? != b"fLaC" {
        return malformed();
    }
    at += 4;
    // (offset of the block header, its type, its body's length): STREAMINFO and a SEEKTABLE.
    let mut kept: Vec<(u64, u8, u64)> = Vec::with_capacity(2);
    let mut first = true;
    loop {
        let header = src.array::<4>(at)?;
        let (last, kind) = (header[0] & 0x80 != 0, header[0] & 0x7F);
        let len = u64::from(u32::from_be_bytes([0, header[1], header[2], header[3]]));
        let body_end = at + 4 + len;
        if kind == 127 || body_end > src.len || first != (kind == FLAC_STREAMINFO) || (first && len != 34) {
            return malformed();
        }
        if kind == FLAC_STREAMINFO || (kind == FLAC_SEEKTABLE && !kept.iter().any(|k| k.1 == FLAC_SEEKTABLE)) {
            kept.push((at, kind, len));
        }
        first = false;
        at = body_end;
        if last {
            break;
        }
    }
    let frames_end = strip_trailing_tags(src, at, src.len)?;
    if frames_end > at {
        let sync = src.bytes(at, 2)?;
        if sync[0] != 0xFF || sync[1] & 0xFE != 0xF8 {
            return malformed();
        }
    }
    out.write(b"fLaC")?;
    let count = kept.len();
    for (n, (header_at, kind, len)) in kept.into_iter().enumerate() {
        let last = if n + 1 == count { 0x80 } else { 0 };
        let size = (len as u32).to_be_bytes();
        out.write(&[last | kind, size[1], size[2], size[3]])?;
        src.copy(header_at + 4, header_at + 4 + len, out)?;
    }
    src.copy(at, frames_end, out)
}

// ---------------------------------------------------------------------------------------------
// WAV

fn wav(src: &mut Source<impl Read + Seek>, out: &mut Sink<impl Write>) -> Result<()> {
    let head = src.bytes(0, 12)?;
    if &head[0..4] != b"RIFF" || &head[8..12] != b"WAVE" {
        return malformed();
    }
    // (body offset, body length) of the chunks kept, in the order written.
    let mut fmt: Option<(u64, u64)> = None;
    let mut fact: Option<(u64, u64)> = None;
    let mut data: Option<(u64, u64)> = None;
    let mut at = 12u64;
    // The RIFF size is not trusted (streaming writers leave it 0 or 0xFFFFFFFF): chunks are
    // read to the end of the file.
    while src.len - at >= 8 {
        let header = src.array::<8>(at)?;
        let id: [u8; 4] = [header[0], header[1], header[2], header[3]];
        let size = u64::from(u32::from_le_bytes([header[4], header[5], header[6], header[7]]));
        let body = at + 8;
        let room = src.len - body;
        let slot = match &id {
            b"fmt " => Some(&mut fmt),
            b"fact" => Some(&mut fact),
            b"data" => Some(&mut data),
            _ => None,
        };
        match slot {
            Some(slot) if slot.is_none() => {
                if &id == b"data" {
                    // A recording cut short, or a size never filled in: what is there.
                    *slot = Some((body, size.min(room)));
                } else if size > room {
                    return malformed();
                } else {
                    *slot = Some((body, size));
                }
            }
            // A repeated chunk is dropped like any other; one running past the end ends the
            // file (trailing junk).
            _ if size > room => break,
            _ => {}
        }
        at = body.saturating_add(size).saturating_add(size & 1);
        if at >= src.len {
            break;
        }
    }
    let (Some(fmt), Some(data)) = (fmt, data) else { return malformed() };
    let chunks: Vec<(&[u8; 4], (u64, u64))> = [(b"fmt ", Some(fmt)), (b"fact", fact), (b"data", Some(data))]
        .into_iter()
        .filter_map(|(id, c)| c.map(|c| (id, c)))
        .collect();
    let riff_size: u64 = 4 + chunks.iter().map(|(_, (_, len))| 8 + len + (len & 1)).sum::<u64>();
    let Ok(riff_size) = u32::try_from(riff_size) else { return malformed() };
    out.write(b"RIFF")?;
    out.write(&riff_size.to_le_bytes())?;
    out.write(b"WAVE")?;
    for (id, (body, len)) in chunks {
        out.write(id)?;
        out.write(&(len as u32).to_le_bytes())?;
        src.copy(body, body + len, out)?;
        if len & 1 == 1 {
            out.write(&[0])?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// M4A (ISO base media file format)

/// Boxes read in one file: real M4A files have a few dozen (beyond this a file is built to make
/// work).
const MP4_MAX_BOXES: usize = 100_000;
/// Nesting of the containers walked (`moov/trak/mdia/minf/stbl` is five).
const MP4_MAX_DEPTH: usize = 12;

#[derive(Debug, Clone, Copy)]
struct BoxHeader {
    kind: [u8; 4],
    /// Bytes of the header (8, or 16 with a 64-bit size).
    header: u64,
    size: u64,
}

/// The header of the box at `at` within a parent ending at `end`, or `None` when what is there
/// is not a box that fits.
fn box_header(src: &mut Source<impl Read + Seek>, at: u64, end: u64) -> Result<Option<BoxHeader>> {
    let room = end - at;
    if room < 8 {
        return Ok(None);
    }
    let b = src.bytes(at, if room >= 16 { 16 } else { 8 })?;
    let (Some(size32), Some(kind)) = (be32(b, 0), b.get(4..8)) else { return Ok(None) };
    let kind = [kind[0], kind[1], kind[2], kind[3]];
    let (header, size) = match size32 {
        // To the end of the file (or, for a nested box, of its parent).
        0 => (8, room),
        1 => match be64(b, 8) {
            Some(size) => (16, size),
            None => return Ok(None),
        },
        n => (8, u64::from(n)),
    };
    Ok((size >= header && size <= room).then_some(BoxHeader { kind, header, size }))
}

#[derive(Debug, Clone, Copy)]
enum Edit {
    /// `start..end` is left out.
    Drop { start: u64, end: u64 },
    /// A container's header, written again with its new size.
    Header { start: u64, header: BoxHeader, new_size: u64 },
    /// `count` chunk offsets (4 or 8 bytes each) from `start`, moved back.
    Offsets { start: u64, count: u64, wide: bool },
    /// `len` bytes of a time stamp from `start`, written as zeros.
    Zero { start: u64, len: u64 },
}

impl Edit {
    fn start(&self) -> u64 {
        match *self {
            Edit::Drop { start, .. }
            | Edit::Header { start, .. }
            | Edit::Offsets { start, .. }
            | Edit::Zero { start, .. } => start,
        }
    }
}

#[derive(Default)]
struct Mp4Plan {
    edits: Vec<Edit>,
    /// Removed ranges, in order, with the bytes removed before and including each.
    removed: Vec<(u64, u64, u64)>,
    boxes: usize,
}

impl Mp4Plan {
    fn count_box(&mut self) -> Result<()> {
        self.boxes += 1;
        if self.boxes > MP4_MAX_BOXES { malformed() } else { Ok(()) }
    }

    fn drop(&mut self, start: u64, end: u64) {
        if start >= end {
            return;
        }
        self.edits.push(Edit::Drop { start, end });
        let before = self.removed.last().map_or(0, |r| r.2);
        match self.removed.last_mut() {
            Some(last) if last.1 == start => {
                last.1 = end;
                last.2 += end - start;
            }
            _ => self.removed.push((start, end, before + end - start)),
        }
    }

    /// Where the byte at input offset `x` lands in the copy; `Malformed` when it was removed.
    fn moved(&self, x: u64) -> Result<u64> {
        let n = self.removed.partition_point(|r| r.1 <= x);
        if self.removed.get(n).is_some_and(|r| r.0 <= x) {
            return malformed();
        }
        let before = n.checked_sub(1).and_then(|i| self.removed.get(i)).map_or(0, |r| r.2);
        Ok(x - before)
    }
}

/// Boxes inside `moov` walked for what they hold.
const MP4_CONTAINERS: [&[u8; 4]; 8] = [b"moov", b"trak", b"mdia", b"minf", b"stbl", b"edts", b"dinf", b"mvex"];
/// Boxes dropped wherever they are met (tags, cover art, XMP, location, padding).
const MP4_DROPPED: [&[u8; 4]; 5] = [b"udta", b"meta", b"uuid", b"free", b"skip"];

fn mp4(src: &mut Source<impl Read + Seek>, out: &mut Sink<impl Write>) -> Result<()> {
    let mut plan = Mp4Plan::default();
    let (mut at, len) = (0u64, src.len);
    let (mut ftyp, mut moov, mut media) = (false, false, false);
    // A box was removed right after a fragment (between it and its data, probably).
    let (mut last_kept_moof, mut gap_after_moof) = (false, false);
    while at < len {
        plan.count_box()?;
        let Some(header) = box_header(src, at, len)? else {
            // An `mdat` cut short keeps what arrived; anything else that is not a box ends the
            // file (trailing junk, an appended tag).
            let b = src.peek(at, 8)?;
            if b.get(4..8) == Some(b"mdat") && be32(b, 0).is_some_and(|s| s >= 8) {
                media = true;
                break;
            }
            plan.drop(at, len);
            break;
        };
        let end = at + header.size;
        let keep = match &header.kind {
            b"ftyp" => !std::mem::replace(&mut ftyp, true),
            b"moov" if !moov => {
                moov = true;
                walk(src, &mut plan, at, header, 0)?;
                true
            }
            b"mdat" => {
                media = true;
                true
            }
            b"moof" => {
                media = true;
                fragment(src, &mut plan, at, header, 0)?;
                true
            }
            _ => false,
        };
        if keep {
            // A fragment finds its data relative to itself: nothing may go between them.
            if gap_after_moof {
                return malformed();
            }
            last_kept_moof = &header.kind == b"moof";
        } else {
            plan.drop(at, end);
            gap_after_moof |= last_kept_moof;
        }
        at = end;
    }
    if !(ftyp && moov && media) {
        return malformed();
    }
    plan.edits.sort_by_key(Edit::start);
    let mut at = 0u64;
    for edit in &plan.edits {
        src.copy(at, edit.start(), out)?;
        at = match *edit {
            Edit::Drop { end, .. } => end,
            Edit::Header { start, header, new_size } => {
                // Sizes are written out, also for a box that ran to the end (size 0): it
                // still does.
                let mut h = Vec::with_capacity(16);
                if header.header == 16 {
                    h.extend_from_slice(&1u32.to_be_bytes());
                    h.extend_from_slice(&header.kind);
                    h.extend_from_slice(&new_size.to_be_bytes());
                } else {
                    let Ok(size) = u32::try_from(new_size) else { return malformed() };
                    h.extend_from_slice(&size.to_be_bytes());
                    h.extend_from_slice(&header.kind);
                }
                out.write(&h)?;
                start + header.header
            }
            Edit::Offsets { start, count, wide } => {
                let width = if wide { 8 } else { 4 };
                let mut n = 0u64;
                let mut moved = Vec::with_capacity(WINDOW);
                while n < count {
                    let batch = (count - n).min((WINDOW / width) as u64);
                    let bytes = src.bytes(start + n * width as u64, batch as usize * width)?.to_vec();
                    moved.clear();
                    for entry in bytes.chunks_exact(width) {
                        if wide {
                            let x = be64(entry, 0).unwrap_or(0);
                            moved.extend_from_slice(&plan.moved(x)?.to_be_bytes());
                        } else {
                            let x = u64::from(be32(entry, 0).unwrap_or(0));
                            moved.extend_from_slice(&(plan.moved(x)? as u32).to_be_bytes());
                        }
                    }
                    out.write(&moved)?;
                    n += batch;
                }
                start + count * width as u64
            }
            Edit::Zero { start, len } => {
                out.write(&[0u8; 16][..len as usize])?;
                start + len
            }
        };
    }
    src.copy(at, len, out)
}

/// Plans the container at `start`: drops what [`MP4_DROPPED`] names, walks the containers
/// inside, and notes the chunk offsets and time stamps. Answers the container's new size.
fn walk(
    src: &mut Source<impl Read + Seek>,
    plan: &mut Mp4Plan,
    start: u64,
    header: BoxHeader,
    depth: usize,
) -> Result<u64> {
    if depth > MP4_MAX_DEPTH {
        return malformed();
    }
    let end = start + header.size;
    let mut at = start + header.header;
    let mut new_size = header.header;
    while at < end {
        plan.count_box()?;
        let Some(child) = box_header(src, at, end)? else {
            // A few bytes that are not a box (QuickTime ends some lists with 4 zero bytes).
            if end - at < 8 {
                new_size += end - at;
                break;
            }
            return malformed();
        };
        let child_end = at + child.size;
        let payload = at + child.header;
        let payload_len = child.size - child.header;
        match &child.kind {
            kind if MP4_DROPPED.contains(&kind) => plan.drop(at, child_end),
            kind if MP4_CONTAINERS.contains(&kind) => new_size += walk(src, plan, at, child, depth + 1)?,
            kind @ (b"stco" | b"co64") => {
                let wide = kind == b"co64";
                let width = if wide { 8 } else { 4 };
                let count = u64::from(be32(src.bytes(payload, 8)?, 4).unwrap_or(0));
                if 8 + count * width > payload_len {
                    return malformed();
                }
                plan.edits.push(Edit::Offsets { start: payload + 8, count, wide });
                new_size += child.size;
            }
            b"mvhd" | b"tkhd" | b"mdhd" => {
                let version = src.bytes(payload, 1)?[0];
                let len = if version == 1 { 16 } else { 8 };
                if payload_len < 4 + len {
                    return malformed();
                }
                plan.edits.push(Edit::Zero { start: payload + 4, len });
                new_size += child.size;
            }
            _ => new_size += child.size,
        }
        at = child_end;
    }
    if new_size != header.size {
        plan.edits.push(Edit::Header { start, header, new_size });
    }
    Ok(new_size)
}

/// A fragment (`moof`) is kept as it is, but a track fragment's base offset, when it is given
/// as a position in the file, moves like a chunk offset.
fn fragment(
    src: &mut Source<impl Read + Seek>,
    plan: &mut Mp4Plan,
    start: u64,
    header: BoxHeader,
    depth: usize,
) -> Result<()> {
    if depth > MP4_MAX_DEPTH {
        return malformed();
    }
    let end = start + header.size;
    let mut at = start + header.header;
    while at < end {
        plan.count_box()?;
        let Some(child) = box_header(src, at, end)? else { return malformed() };
        let payload = at + child.header;
        match &child.kind {
            b"traf" => fragment(src, plan, at, child, depth + 1)?,
            b"tfhd" => {
                let flags = be32(src.bytes(payload, 4)?, 0).unwrap_or(0) & 0x00FF_FFFF;
                if flags & 1 != 0 {
                    if child.size - child.header < 16 {
                        return malformed();
                    }
                    plan.edits.push(Edit::Offsets { start: payload + 8, count: 1, wide: true });
                }
            }
            _ => {}
        }
        at += child.size;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Ogg

/// The largest Ogg page: header, 255 lacing values, 255 segments of 255 bytes.
const OGG_MAX_PAGE: usize = 27 + 255 + 255 * 255;
const OGG_CONTINUED: u8 = 1;
const OGG_BOS: u8 = 2;
const OGG_EOS: u8 = 4;

const VORBIS_EMPTY_COMMENT: [u8; 16] = *b"\x03vorbis\0\0\0\0\0\0\0\0\x01";
/// A VORBIS_COMMENT metadata block, marked last, with no vendor and no comments.
const FLAC_EMPTY_COMMENT: [u8; 12] = [0x80 | FLAC_VORBIS_COMMENT, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OggCodec {
    Vorbis,
    Flac,
}

/// A header packet being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct HeaderPacket {
    /// Copied to the new header pages (else dropped).
    keep: bool,
    /// The last header: audio starts on the next page.
    last: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Reading header packets after the first: the next one's number, and the one a page
    /// ended inside.
    Headers {
        next: u32,
        open: Option<HeaderPacket>,
    },
    Audio,
    Ended,
}

struct OggStream {
    serial: u32,
    codec: OggCodec,
    phase: Phase,
    pager: Pager,
    /// Audio pages' sequence numbers move back by this (wrapping).
    delta: u32,
}

fn ogg(src: &mut Source<impl Read + Seek>, out: &mut Sink<impl Write>) -> Result<()> {
    let mut stream: Option<OggStream> = None;
    let mut page = Vec::with_capacity(OGG_MAX_PAGE);
    let mut at = 0u64;
    while at < src.len {
        if src.peek(at, 4)? != b"OggS" {
            // Only tags may follow the last page.
            if strip_trailing_tags(src, at, src.len)? == at {
                break;
            }
            return malformed();
        }
        read_page(src, at, &mut page)?;
        at += page.len() as u64;
        on_page(&mut stream, &mut page, out)?;
    }
    match stream {
        Some(s) if matches!(s.phase, Phase::Audio | Phase::Ended) => Ok(()),
        _ => malformed(),
    }
}

/// Reads the page at `at` into `page`, checking its structure and CRC.
fn read_page(src: &mut Source<impl Read + Seek>, at: u64, page: &mut Vec<u8>) -> Result<()> {
    page.clear();
    page.extend_from_slice(src.bytes(at, 27)?);
    if page.get(4) != Some(&0) || page.get(5).is_none_or(|f| f & !(OGG_CONTINUED | OGG_BOS | OGG_EOS) != 0) {
        return malformed();
    }
    let segments = usize::from(page[26]);
    page.extend_from_slice(src.bytes(at + 27, segments)?);
    let body: usize = page[27..].iter().map(|v| usize::from(*v)).sum();
    page.extend_from_slice(src.bytes(at + 27 + segments as u64, body)?);
    let stored = le32(page, 22).unwrap_or(0);
    page[22..26].fill(0);
    if ogg_crc(page) != stored {
        return malformed();
    }
    Ok(())
}

/// The page's segments.
fn segments(page: &[u8]) -> impl Iterator<Item = &[u8]> {
    let count = usize::from(page.get(26).copied().unwrap_or(0));
    let lacing = page.get(27..27 + count).unwrap_or_default();
    let mut at = 27 + count;
    lacing.iter().map(move |v| {
        let seg = page.get(at..at + usize::from(*v)).unwrap_or_default();
        at += usize::from(*v);
        seg
    })
}

fn on_page(stream: &mut Option<OggStream>, page: &mut [u8], out: &mut Sink<impl Write>) -> Result<()> {
    let flags = page[5];
    let serial = le32(page, 14).unwrap_or(0);
    let seq = le32(page, 18).unwrap_or(0);
    let s = match stream {
        Some(s) if s.phase != Phase::Ended => s,
        _ => {
            // A new logical stream (the first, or the next of a chain): its first page holds
            // the identification header alone.
            let count = usize::from(page[26]);
            let lacing = page.get(27..27 + count).unwrap_or_default();
            let one_packet = lacing.last().is_some_and(|v| *v < 255) && lacing.iter().rev().skip(1).all(|v| *v == 255);
            if flags & (OGG_BOS | OGG_CONTINUED | OGG_EOS) != OGG_BOS || !one_packet {
                return malformed();
            }
            let body = 27 + count;
            let codec = if page[body..].starts_with(b"\x01vorbis") {
                OggCodec::Vorbis
            } else if page[body..].starts_with(b"\x7FFLAC")
                && page.len() >= body + 51
                && &page[body + 9..body + 13] == b"fLaC"
            {
                // Exactly one header packet follows (the empty comment), so STREAMINFO is not
                // the last metadata block.
                page[body + 7..body + 9].copy_from_slice(&1u16.to_be_bytes());
                page[body + 13] &= 0x7F;
                OggCodec::Flac
            } else {
                // Opus, Speex, Theora...: not decoded here, so not met after analysis.
                return Err(StripError::Refused(MediaError::UnsupportedCodec));
            };
            write_page(page, seq, out)?;
            *stream = Some(OggStream {
                serial,
                codec,
                phase: Phase::Headers { next: 1, open: None },
                pager: Pager::new(serial, seq.wrapping_add(1)),
                delta: 0,
            });
            return Ok(());
        }
    };
    if serial != s.serial || flags & OGG_BOS != 0 {
        // Interleaved streams (or a new stream before this one ended).
        return malformed();
    }
    match s.phase {
        Phase::Headers { mut next, mut open } => {
            if flags & OGG_EOS != 0 || (flags & OGG_CONTINUED != 0) != open.is_some() {
                return malformed();
            }
            let count = usize::from(page[26]);
            for (n, seg) in segments(page).enumerate() {
                let packet = match open {
                    Some(packet) => packet,
                    None => {
                        let (packet, replacement) = header_packet(s.codec, next, seg)?;
                        if let Some(replacement) = replacement {
                            s.pager.push_packet(replacement, out)?;
                        }
                        packet
                    }
                };
                if packet.keep {
                    s.pager.push_segment(seg, out)?;
                }
                if seg.len() == 255 {
                    open = Some(packet);
                    continue;
                }
                open = None;
                next = next.saturating_add(1);
                if packet.last {
                    // The first audio packet starts a fresh page.
                    if n + 1 != count {
                        return malformed();
                    }
                    s.pager.flush(out)?;
                    s.delta = seq.wrapping_sub(s.pager.seq.wrapping_sub(1));
                    s.phase = Phase::Audio;
                    return Ok(());
                }
            }
            s.phase = Phase::Headers { next, open };
            Ok(())
        }
        Phase::Audio => {
            write_page(page, seq.wrapping_sub(s.delta), out)?;
            if flags & OGG_EOS != 0 {
                s.phase = Phase::Ended;
            }
            Ok(())
        }
        Phase::Ended => malformed(),
    }
}

/// What becomes of header packet number `n` (the identification header is 0), judged by its
/// first segment, and the packet written in its place.
fn header_packet(codec: OggCodec, n: u32, first: &[u8]) -> Result<(HeaderPacket, Option<&'static [u8]>)> {
    let drop = |last| HeaderPacket { keep: false, last };
    match codec {
        OggCodec::Vorbis => match n {
            1 if first.starts_with(b"\x03vorbis") => Ok((drop(false), Some(&VORBIS_EMPTY_COMMENT))),
            2 if first.starts_with(b"\x05vorbis") => Ok((HeaderPacket { keep: true, last: true }, None)),
            _ => malformed(),
        },
        OggCodec::Flac => {
            // Each header packet is one metadata block; the first is VORBIS_COMMENT.
            let Some(&block) = first.first() else { return malformed() };
            let (last, kind) = (block & 0x80 != 0, block & 0x7F);
            if (n == 1) != (kind == FLAC_VORBIS_COMMENT) || kind == 127 || kind == FLAC_STREAMINFO {
                return malformed();
            }
            Ok((drop(last), (n == 1).then_some(&FLAC_EMPTY_COMMENT[..])))
        }
    }
}

/// Writes header packets as pages of one stream.
struct Pager {
    serial: u32,
    /// The next page's sequence number.
    seq: u32,
    lacing: Vec<u8>,
    data: Vec<u8>,
    /// This page starts inside a packet.
    continued: bool,
    /// The last segment pushed left its packet unfinished.
    open: bool,
    /// A packet ends on this page.
    ends_packet: bool,
    page: Vec<u8>,
}

impl Pager {
    fn new(serial: u32, seq: u32) -> Self {
        Pager {
            serial,
            seq,
            lacing: Vec::with_capacity(255),
            data: Vec::new(),
            continued: false,
            open: false,
            ends_packet: false,
            page: Vec::new(),
        }
    }

    fn push_packet(&mut self, packet: &[u8], out: &mut Sink<impl Write>) -> Result<()> {
        let mut chunks = packet.chunks(255).peekable();
        while let Some(chunk) = chunks.next() {
            self.push_segment(chunk, out)?;
            if chunks.peek().is_none() && chunk.len() == 255 {
                self.push_segment(&[], out)?;
            }
        }
        if packet.is_empty() {
            self.push_segment(&[], out)?;
        }
        Ok(())
    }

    fn push_segment(&mut self, seg: &[u8], out: &mut Sink<impl Write>) -> Result<()> {
        if self.lacing.len() == 255 {
            self.flush(out)?;
        }
        self.lacing.push(seg.len() as u8);
        self.data.extend_from_slice(seg);
        self.open = seg.len() == 255;
        self.ends_packet |= !self.open;
        Ok(())
    }

    fn flush(&mut self, out: &mut Sink<impl Write>) -> Result<()> {
        if self.lacing.is_empty() {
            return Ok(());
        }
        let granule: u64 = if self.ends_packet { 0 } else { u64::MAX };
        self.page.clear();
        self.page.extend_from_slice(b"OggS\0");
        self.page.push(if self.continued { OGG_CONTINUED } else { 0 });
        self.page.extend_from_slice(&granule.to_le_bytes());
        self.page.extend_from_slice(&self.serial.to_le_bytes());
        self.page.extend_from_slice(&self.seq.to_le_bytes());
        self.page.extend_from_slice(&[0; 4]);
        self.page.push(self.lacing.len() as u8);
        self.page.extend_from_slice(&self.lacing);
        self.page.extend_from_slice(&self.data);
        let seq = self.seq;
        let mut page = std::mem::take(&mut self.page);
        let written = write_page(&mut page, seq, out);
        self.page = page;
        written?;
        self.seq = self.seq.wrapping_add(1);
        self.continued = self.open;
        self.lacing.clear();
        self.data.clear();
        self.ends_packet = false;
        Ok(())
    }
}

/// Writes `page` with sequence number `seq` and its CRC.
fn write_page(page: &mut [u8], seq: u32, out: &mut Sink<impl Write>) -> Result<()> {
    page[18..22].copy_from_slice(&seq.to_le_bytes());
    page[22..26].fill(0);
    let crc = ogg_crc(page);
    page[22..26].copy_from_slice(&crc.to_le_bytes());
    out.write(page)
}

/// Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, starting from 0, no final xor.
fn ogg_crc(bytes: &[u8]) -> u32 {
    static TABLE: std::sync::OnceLock<[u32; 256]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [0u32; 256];
        for (i, entry) in t.iter_mut().enumerate() {
            let mut r = (i as u32) << 24;
            for _ in 0..8 {
                r = if r & 0x8000_0000 != 0 { (r << 1) ^ 0x04C1_1DB7 } else { r << 1 };
            }
            *entry = r;
        }
        t
    });
    bytes.iter().fold(0u32, |crc, b| (crc << 8) ^ table[usize::from((crc >> 24) as u8 ^ b)])
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    fn strip(kind: AudioKind, bytes: &[u8]) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        let written = strip_audio_metadata(kind, Cursor::new(bytes), &mut out)?;
        assert_eq!(written, out.len() as u64);
        Ok(out)
    }

    fn refused(kind: AudioKind, bytes: &[u8]) -> Option<MediaError> {
        match strip(kind, bytes) {
            Err(StripError::Refused(e)) => Some(e),
            _ => None,
        }
    }

    fn contains(haystack: &[u8], needle: &[u8]) -> bool {
        haystack.windows(needle.len()).any(|w| w == needle)
    }

    /// What a cover picture's EXIF and a tag's text leave behind, for searching the copy.
    const SECRET: &[u8] = b"GPS 48.8566N 2.3522E SecretTitle";

    fn picture() -> Vec<u8> {
        let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xE1, 0, 40];
        jpeg.extend_from_slice(b"Exif\0\0");
        jpeg.extend_from_slice(SECRET);
        // Bytes that look like two MP3 frames in a row, to tempt a scan for frames.
        let mut fake = mp3_frame(7);
        fake.extend(mp3_frame(8));
        jpeg.extend(fake);
        jpeg.extend_from_slice(&[0xFF, 0xD9]);
        jpeg
    }

    fn syncsafe(n: usize) -> [u8; 4] {
        [(n >> 21) as u8 & 0x7F, (n >> 14) as u8 & 0x7F, (n >> 7) as u8 & 0x7F, n as u8 & 0x7F]
    }

    /// An ID3v2 tag (version 3 or 4) holding `body`; with a footer (v4) when asked.
    fn id3v2(version: u8, body: &[u8], footer: bool) -> Vec<u8> {
        let flags = if footer { 0x10 } else { 0 };
        let mut tag = vec![b'I', b'D', b'3', version, 0, flags];
        tag.extend_from_slice(&syncsafe(body.len()));
        tag.extend_from_slice(body);
        if footer {
            tag.extend_from_slice(&[b'3', b'D', b'I', version, 0, flags]);
            tag.extend_from_slice(&syncsafe(body.len()));
        }
        tag
    }

    fn id3v1() -> Vec<u8> {
        let mut tag = b"TAG".to_vec();
        tag.extend_from_slice(SECRET);
        tag.resize(128, 0);
        tag
    }

    /// An APEv2 tag with its header and footer.
    fn apev2() -> Vec<u8> {
        let items = [&b"\x10\0\0\0\0\0\0\0Title\0"[..], SECRET].concat();
        let size = (items.len() + 32) as u32;
        let part = |flags: u32| {
            let mut p = b"APETAGEX".to_vec();
            p.extend_from_slice(&2000u32.to_le_bytes());
            p.extend_from_slice(&size.to_le_bytes());
            p.extend_from_slice(&1u32.to_le_bytes());
            p.extend_from_slice(&flags.to_le_bytes());
            p.extend_from_slice(&[0; 8]);
            p
        };
        [part(0xA000_0000), items, part(0x8000_0000)].concat()
    }

    fn lyrics3v2() -> Vec<u8> {
        let mut body = b"LYRICSBEGININD0000211LYR00032".to_vec();
        body.extend_from_slice(SECRET);
        let size = format!("{:06}", body.len());
        [body, size.into_bytes(), b"LYRICS200".to_vec()].concat()
    }

    /// MPEG-1 Layer III, 128 kbit/s, 44.1 kHz: 417 bytes, filled with `fill`.
    fn mp3_frame(fill: u8) -> Vec<u8> {
        let mut f = vec![0xFF, 0xFB, 0x90, 0x64];
        f.resize(417, fill);
        f
    }

    fn xing_frame() -> Vec<u8> {
        let mut f = mp3_frame(0);
        f[36..40].copy_from_slice(b"Xing");
        f
    }

    #[test]
    fn mp3_keeps_its_frames_and_nothing_else() {
        let frames: Vec<Vec<u8>> = std::iter::once(xing_frame()).chain((1..=6).map(mp3_frame)).collect();
        let mut file = id3v2(3, &[b"APIC".as_slice(), &picture()].concat(), false);
        file.extend(id3v2(4, b"TIT2\0\0\0\x0c\0\0\x03SecretTitle", true));
        file.extend_from_slice(&[0; 100]); // padding past the tag's size, as some taggers leave
        for f in &frames[..4] {
            file.extend_from_slice(f);
        }
        file.extend(id3v2(3, &picture(), false)); // a tag between frames (joined files)
        file.extend_from_slice(b"junk between frames");
        for f in &frames[4..] {
            file.extend_from_slice(f);
        }
        file.extend(apev2());
        file.extend(lyrics3v2());
        file.extend(id3v1());
        let clean = strip(AudioKind::Mp3, &file).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(clean, frames.concat(), "the frames, the Xing frame first, byte for byte");
        assert!(!contains(&clean, b"GPS") && !contains(&clean, b"Secret"));
        // A bare stream is copied whole.
        assert_eq!(strip(AudioKind::Mp3, &frames.concat()).ok(), Some(frames.concat()));
    }

    #[test]
    fn mp3_tags_at_the_end_in_any_order() {
        let audio = [mp3_frame(1), mp3_frame(2)].concat();
        let endings =
            [vec![id3v1()], vec![apev2(), id3v1()], vec![lyrics3v2(), id3v1()], vec![id3v2(4, SECRET, true), apev2()]];
        for ending in endings {
            let file = [audio.clone(), ending.concat()].concat();
            assert_eq!(strip(AudioKind::Mp3, &file).ok(), Some(audio.clone()));
        }
        // An APEv2 tag with only its footer.
        let mut footer_only = [audio.clone(), apev2()[32..].to_vec()].concat();
        let flags = footer_only.len() - 12;
        footer_only[flags + 3] = 0;
        assert_eq!(strip(AudioKind::Mp3, &footer_only).ok(), Some(audio.clone()));
    }

    #[test]
    fn mp3_without_frames_is_refused() {
        let tag_only = id3v2(3, &picture(), false);
        assert_eq!(refused(AudioKind::Mp3, &tag_only), Some(MediaError::NoAudio));
        assert_eq!(refused(AudioKind::Mp3, b""), Some(MediaError::NoAudio));
    }

    fn adts_frame(fill: u8) -> Vec<u8> {
        // AAC LC, 44.1 kHz, stereo, 20 bytes.
        let mut f = vec![0xFF, 0xF1, 0x50, 0x80, 0x02, 0x9F, 0xFC];
        f.resize(20, fill);
        f
    }

    #[test]
    fn adts_keeps_its_frames() {
        let audio = [adts_frame(1), adts_frame(2), adts_frame(3)].concat();
        let file = [id3v2(4, &picture(), false), audio.clone(), apev2(), id3v1()].concat();
        assert_eq!(strip(AudioKind::Aac, &file).ok(), Some(audio));
    }

    fn flac_block(kind: u8, last: bool, body: &[u8]) -> Vec<u8> {
        let len = (body.len() as u32).to_be_bytes();
        let mut b = vec![kind | if last { 0x80 } else { 0 }, len[1], len[2], len[3]];
        b.extend_from_slice(body);
        b
    }

    fn flac_frames() -> Vec<u8> {
        let mut frames = vec![0xFF, 0xF8, 0x69, 0x08, 0x00, 0x00];
        frames.extend((0..500u32).map(|i| (i * 7) as u8));
        frames
    }

    #[test]
    fn flac_keeps_streaminfo_the_seek_table_and_the_frames() {
        let streaminfo = flac_block(0, false, &[0x11; 34]);
        let seektable = flac_block(3, false, &[0x22; 36]);
        let comment = flac_block(4, false, &[b"\x0d\0\0\0reference lib\x01\0\0\0".as_slice(), SECRET].concat());
        let file = [
            id3v2(3, &picture(), false),
            b"fLaC".to_vec(),
            streaminfo.clone(),
            comment,
            flac_block(6, false, &picture()),
            seektable.clone(),
            flac_block(2, false, b"appl data"),
            flac_block(5, false, &[0; 20]),
            flac_block(3, false, &[0x33; 18]), // a second seek table
            flac_block(1, true, &[0; 1000]),
            flac_frames(),
            id3v1(),
        ]
        .concat();
        let clean = strip(AudioKind::Flac, &file).unwrap_or_else(|e| panic!("{e}"));
        let mut last_seektable = seektable.clone();
        last_seektable[0] |= 0x80;
        assert_eq!(clean, [b"fLaC".to_vec(), streaminfo.clone(), last_seektable, flac_frames()].concat());

        // Without a seek table, STREAMINFO is the last block.
        let file = [b"fLaC".to_vec(), streaminfo, flac_block(6, true, &picture()), flac_frames()].concat();
        let clean = strip(AudioKind::Flac, &file).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(clean, [b"fLaC".to_vec(), flac_block(0, true, &[0x11; 34]), flac_frames()].concat());
    }

    #[test]
    fn flac_that_breaks_its_rules_is_refused() {
        let info = flac_block(0, false, &[0; 34]);
        let cases = [
            [b"fLaC".to_vec(), flac_block(4, true, &[0; 8]), flac_frames()].concat(), // no STREAMINFO first
            [b"fLaC".to_vec(), info.clone(), flac_block(1, true, &[0; 8])[..6].to_vec()].concat(), // past the end
            [b"fLaC".to_vec(), info.clone(), flac_block(0, true, &[0; 34]), flac_frames()].concat(), // two
            [b"fLaC".to_vec(), info.clone(), flac_block(127, true, &[]), flac_frames()].concat(),
            [b"fLaC".to_vec(), info.clone(), flac_block(1, true, &[]), b"not a frame".to_vec()].concat(),
            [b"fLaC".to_vec(), info].concat(), // no last block
            b"OggS".to_vec(),
        ];
        for (n, case) in cases.iter().enumerate() {
            assert_eq!(refused(AudioKind::Flac, case), Some(MediaError::Malformed), "case {n}");
        }
    }

    fn chunk(id: &[u8; 4], body: &[u8]) -> Vec<u8> {
        let mut c = id.to_vec();
        c.extend_from_slice(&(body.len() as u32).to_le_bytes());
        c.extend_from_slice(body);
        if body.len() % 2 == 1 {
            c.push(0);
        }
        c
    }

    fn riff(chunks: &[Vec<u8>]) -> Vec<u8> {
        let body = chunks.concat();
        let mut file = b"RIFF".to_vec();
        file.extend_from_slice(&(body.len() as u32 + 4).to_le_bytes());
        file.extend_from_slice(b"WAVE");
        file.extend(body);
        file
    }

    const FMT: [u8; 16] = [1, 0, 1, 0, 0x40, 0x1F, 0, 0, 0x80, 0x3E, 0, 0, 2, 0, 16, 0];

    #[test]
    fn wav_keeps_fmt_fact_and_data() {
        let info = chunk(b"LIST", &[b"INFOINAM\x0c\0\0\0".as_slice(), SECRET].concat());
        let samples: Vec<u8> = (0..1001u32).map(|i| (i * 13) as u8).collect(); // odd: padded
        let file = riff(&[
            info,
            chunk(b"bext", SECRET),
            chunk(b"fmt ", &FMT),
            chunk(b"fact", &[0x10, 0, 0, 0]),
            chunk(b"id3 ", &id3v2(3, &picture(), false)),
            chunk(b"data", &samples),
            chunk(b"iXML", b"<BWFXML>secret</BWFXML>"),
            chunk(b"data", b"a second data chunk is not audio"),
        ]);
        let clean = strip(AudioKind::Wav, &file).unwrap_or_else(|e| panic!("{e}"));
        let expected = riff(&[chunk(b"fmt ", &FMT), chunk(b"fact", &[0x10, 0, 0, 0]), chunk(b"data", &samples)]);
        assert_eq!(clean, expected);
        assert_eq!(le32(&clean, 4), Some(clean.len() as u32 - 8));
        assert!(!contains(&clean, b"GPS") && !contains(&clean, b"secret"));
    }

    #[test]
    fn wav_data_that_claims_more_than_the_file_keeps_what_is_there() {
        let samples = [7u8; 101];
        for claimed in [u32::MAX, 1000] {
            let mut file = riff(&[chunk(b"fmt ", &FMT)]);
            file.extend_from_slice(b"data");
            file.extend_from_slice(&claimed.to_le_bytes());
            file.extend_from_slice(&samples);
            let clean = strip(AudioKind::Wav, &file).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(clean, riff(&[chunk(b"fmt ", &FMT), chunk(b"data", &samples)]));
        }
        // Data before fmt is put after it.
        let file = riff(&[chunk(b"data", &samples), chunk(b"fmt ", &FMT)]);
        assert_eq!(strip(AudioKind::Wav, &file).ok(), Some(riff(&[chunk(b"fmt ", &FMT), chunk(b"data", &samples)])));
        // Without fmt or data, or with a fmt running past the end: refused.
        assert_eq!(refused(AudioKind::Wav, &riff(&[chunk(b"fmt ", &FMT)])), Some(MediaError::Malformed));
        assert_eq!(refused(AudioKind::Wav, &riff(&[chunk(b"data", &samples)])), Some(MediaError::Malformed));
        let cut = riff(&[chunk(b"data", &samples), chunk(b"fmt ", &FMT)]);
        assert_eq!(refused(AudioKind::Wav, &cut[..cut.len() - 4]), Some(MediaError::Malformed));
    }

    // --- M4A -----------------------------------------------------------------------------

    fn mp4_box(kind: &[u8; 4], body: &[u8]) -> Vec<u8> {
        let mut b = ((body.len() + 8) as u32).to_be_bytes().to_vec();
        b.extend_from_slice(kind);
        b.extend_from_slice(body);
        b
    }

    fn mp4_box64(kind: &[u8; 4], body: &[u8]) -> Vec<u8> {
        let mut b = 1u32.to_be_bytes().to_vec();
        b.extend_from_slice(kind);
        b.extend_from_slice(&((body.len() + 16) as u64).to_be_bytes());
        b.extend_from_slice(body);
        b
    }

    fn full_box(kind: &[u8; 4], version: u8, body: &[u8]) -> Vec<u8> {
        mp4_box(kind, &[&[version, 0, 0, 0][..], body].concat())
    }

    /// A time stamp that must not survive (2024, as seconds since 1904).
    const WHEN: u32 = 0xE2A0_0000;

    fn stamped(kind: &[u8; 4], version: u8, rest: &[u8]) -> Vec<u8> {
        let mut body = Vec::new();
        if version == 1 {
            body.extend_from_slice(&u64::from(WHEN).to_be_bytes());
            body.extend_from_slice(&u64::from(WHEN + 1).to_be_bytes());
        } else {
            body.extend_from_slice(&WHEN.to_be_bytes());
            body.extend_from_slice(&(WHEN + 1).to_be_bytes());
        }
        body.extend_from_slice(rest);
        full_box(kind, version, &body)
    }

    fn tags() -> Vec<u8> {
        let covr = mp4_box(b"covr", &mp4_box(b"data", &[&[0, 0, 0, 13, 0, 0, 0, 0][..], &picture()].concat()));
        let ilst = mp4_box(b"ilst", &[mp4_box(b"\xA9nam", &mp4_box(b"data", SECRET)), covr].concat());
        mp4_box(b"udta", &full_box(b"meta", 0, &ilst))
    }

    /// A track whose chunk offsets (`stco`, or `co64` when `wide`) are `offsets`.
    fn moov(offsets: &[u64], wide: bool, version: u8) -> Vec<u8> {
        let table = if wide {
            let mut t = (offsets.len() as u32).to_be_bytes().to_vec();
            offsets.iter().for_each(|o| t.extend_from_slice(&o.to_be_bytes()));
            full_box(b"co64", 0, &t)
        } else {
            let mut t = (offsets.len() as u32).to_be_bytes().to_vec();
            offsets.iter().for_each(|o| t.extend_from_slice(&(*o as u32).to_be_bytes()));
            full_box(b"stco", 0, &t)
        };
        let stbl = mp4_box(b"stbl", &[full_box(b"stsd", 0, &[0, 0, 0, 0]), table].concat());
        let minf = mp4_box(b"minf", &[mp4_box(b"free", &[0; 16]), stbl].concat());
        let mdia = mp4_box(b"mdia", &[stamped(b"mdhd", version, &[0; 12]), minf].concat());
        let trak =
            mp4_box(b"trak", &[stamped(b"tkhd", version, &[0; 68]), mdia, full_box(b"meta", 0, SECRET)].concat());
        mp4_box(b"moov", &[stamped(b"mvhd", version, &[0; 88]), trak, tags()].concat())
    }

    fn ftyp() -> Vec<u8> {
        mp4_box(b"ftyp", b"M4A \0\0\x02\0M4A isom")
    }

    /// The boxes at the top of `file`: (type, offset, size).
    fn top_level(file: &[u8]) -> Vec<(String, usize, usize)> {
        let mut at = 0;
        let mut boxes = Vec::new();
        while at + 8 <= file.len() {
            let mut size = be32(file, at).unwrap_or(0) as usize;
            if size == 1 {
                size = be64(file, at + 8).unwrap_or(0) as usize;
            } else if size == 0 {
                size = file.len() - at;
            }
            boxes.push((String::from_utf8_lossy(&file[at + 4..at + 8]).into_owned(), at, size));
            at += size.max(8);
        }
        boxes
    }

    /// The chunk offsets in the copy, read from its `stco` or `co64`.
    fn chunk_offsets(file: &[u8]) -> Vec<u64> {
        let (table, wide) = match file.windows(4).position(|w| w == b"stco") {
            Some(at) => (at, false),
            None => (file.windows(4).position(|w| w == b"co64").unwrap_or(0), true),
        };
        let count = be32(file, table + 8).unwrap_or(0) as usize;
        (0..count)
            .map(|i| {
                if wide {
                    be64(file, table + 12 + 8 * i).unwrap_or(0)
                } else {
                    u64::from(be32(file, table + 12 + 4 * i).unwrap_or(0))
                }
            })
            .collect()
    }

    /// Checks the copy of an M4A whose `mdat` holds `chunks` at the chunk offsets.
    fn check_m4a(clean: &[u8], chunks: &[&[u8]]) {
        let mut kinds: Vec<String> = top_level(clean).into_iter().map(|b| b.0).collect();
        kinds.sort();
        assert_eq!(kinds, ["ftyp", "mdat", "moov"]);
        assert!(!contains(clean, b"GPS") && !contains(clean, b"udta") && !contains(clean, b"meta"));
        assert!(!contains(clean, b"free") && !contains(clean, &WHEN.to_be_bytes()), "padding and times are gone");
        let offsets = chunk_offsets(clean);
        assert_eq!(offsets.len(), chunks.len());
        for (offset, chunk) in offsets.iter().zip(chunks) {
            assert_eq!(
                clean.get(*offset as usize..*offset as usize + chunk.len()),
                Some(*chunk),
                "the offset {offset}"
            );
        }
        // Every container's size adds up.
        let moov = top_level(clean).into_iter().find(|b| b.0 == "moov").unwrap_or_default();
        assert_eq!(moov.1 + moov.2, top_level(clean).iter().find(|b| b.1 > moov.1).map_or(clean.len(), |b| b.1));
    }

    fn m4a(moov_first: bool, wide: bool, version: u8) -> (Vec<u8>, [&'static [u8]; 2]) {
        let chunks: [&[u8]; 2] = [b"first chunk of audio", b"second chunk"];
        let data = [chunks[0], chunks[1]].concat();
        // Offsets depend on where mdat lands: build once to measure, then for real.
        let build = |offsets: &[u64]| {
            let head =
                [ftyp(), mp4_box(b"free", &[0; 40]), mp4_box(b"uuid", &[[0xBE; 16].as_slice(), SECRET].concat())];
            if moov_first {
                [head.concat(), moov(offsets, wide, version), mp4_box(b"mdat", &data), tags()].concat()
            } else {
                [head.concat(), mp4_box(b"mdat", &data), moov(offsets, wide, version), mp4_box(b"free", &[0; 8])]
                    .concat()
            }
        };
        let probe = build(&[0, 0]);
        let mdat = top_level(&probe).into_iter().find(|b| b.0 == "mdat").map_or(0, |b| b.1 as u64 + 8);
        (build(&[mdat, mdat + chunks[0].len() as u64]), chunks)
    }

    #[test]
    fn m4a_keeps_ftyp_moov_and_mdat_and_moves_chunk_offsets() {
        for moov_first in [true, false] {
            for wide in [false, true] {
                for version in [0, 1] {
                    let (file, chunks) = m4a(moov_first, wide, version);
                    let clean = strip(AudioKind::M4a, &file).unwrap_or_else(|e| panic!("{e}"));
                    check_m4a(&clean, &chunks);
                    assert!(clean.len() < file.len());
                }
            }
        }
    }

    #[test]
    fn m4a_sizes_of_64_bits_and_to_the_end() {
        let chunk: &[u8] = b"the audio";
        // mdat with a 64-bit size, then one running to the end (size 0).
        for last_to_end in [false, true] {
            let build = |offset: u64| {
                let mut mdat = mp4_box64(b"mdat", chunk);
                if last_to_end {
                    mdat = [&[0, 0, 0, 0][..], b"mdat", chunk].concat();
                }
                [ftyp(), mp4_box64(b"free", &[0; 30]), moov(&[offset], false, 0), mdat].concat()
            };
            let probe = build(0);
            let header = if last_to_end { 8 } else { 16 };
            let at = top_level(&probe).into_iter().find(|b| b.0 == "mdat").map_or(0, |b| b.1 + header);
            let clean = strip(AudioKind::M4a, &build(at as u64)).unwrap_or_else(|e| panic!("{e}"));
            check_m4a(&clean, &[chunk]);
        }
    }

    #[test]
    fn m4a_fragments_keep_their_data_and_absolute_offsets_move() {
        let data = b"fragment data";
        let build = |base: u64, gap: bool| {
            let tfhd = full_box(b"tfhd", 0, &[&1u32.to_be_bytes()[..], &base.to_be_bytes()].concat());
            let tfhd = [&tfhd[..9], &[0, 0, 1], &tfhd[12..]].concat(); // flags: base-data-offset-present
            let moof = mp4_box(b"moof", &[full_box(b"mfhd", 0, &[0, 0, 0, 1]), mp4_box(b"traf", &tfhd)].concat());
            let mvex = mp4_box(b"mvex", &full_box(b"trex", 0, &[0; 20]));
            let moov = mp4_box(b"moov", &[stamped(b"mvhd", 0, &[0; 88]), mvex, tags()].concat());
            let gap = if gap { mp4_box(b"free", &[0; 4]) } else { Vec::new() };
            [ftyp(), moov, mp4_box(b"sidx", &[0; 24]), moof, gap, mp4_box(b"mdat", data), mp4_box(b"mfra", &[0; 16])]
                .concat()
        };
        let probe = build(0, false);
        let base = top_level(&probe).into_iter().find(|b| b.0 == "mdat").map_or(0, |b| b.1 as u64 + 8);
        let clean = strip(AudioKind::M4a, &build(base, false)).unwrap_or_else(|e| panic!("{e}"));
        let kinds: Vec<String> = top_level(&clean).into_iter().map(|b| b.0).collect();
        assert_eq!(kinds, ["ftyp", "moov", "moof", "mdat"]);
        let at = clean.windows(4).position(|w| w == b"tfhd").unwrap_or(0) + 12;
        let moved = be64(&clean, at).unwrap_or(0) as usize;
        assert_eq!(clean.get(moved..moved + data.len()), Some(&data[..]));
        // A box between a fragment and its data cannot go without breaking the fragment.
        assert_eq!(refused(AudioKind::M4a, &build(base, true)), Some(MediaError::Malformed));
    }

    #[test]
    fn m4a_that_breaks_its_rules_is_refused() {
        let (file, _) = m4a(true, false, 0);
        let no_moov = [ftyp(), mp4_box(b"mdat", b"x")].concat();
        assert_eq!(refused(AudioKind::M4a, &no_moov), Some(MediaError::Malformed));
        // A chunk offset into a box that goes.
        let into_free = [ftyp(), mp4_box(b"free", &[0; 8]), moov(&[30], false, 0), mp4_box(b"mdat", b"x")].concat();
        assert_eq!(refused(AudioKind::M4a, &into_free), Some(MediaError::Malformed));
        // A box inside moov larger than moov.
        let mut broken = file.clone();
        let at = broken.windows(4).position(|w| w == b"trak").unwrap_or(0) - 4;
        broken[at..at + 4].copy_from_slice(&0x00FF_FFFFu32.to_be_bytes());
        assert_eq!(refused(AudioKind::M4a, &broken), Some(MediaError::Malformed));
        // An stco that counts more entries than it holds.
        let mut broken = file;
        let at = broken.windows(4).position(|w| w == b"stco").unwrap_or(0) + 8;
        broken[at..at + 4].copy_from_slice(&1000u32.to_be_bytes());
        assert_eq!(refused(AudioKind::M4a, &broken), Some(MediaError::Malformed));
    }

    // --- Ogg -----------------------------------------------------------------------------

    /// Pages a stream's packets the way encoders do: the first alone, then `headers` packets
    /// together, then the rest `per_page` to a page; each audio packet's granule is its number.
    fn ogg_stream(serial: u32, packets: &[Vec<u8>], headers: usize, per_page: usize) -> Vec<u8> {
        let mut pages = Vec::new();
        let mut seq = 0u32;
        let mut page = |packets: &[Vec<u8>], flags: u8, granule: u64, seq: &mut u32| {
            // Split into pages of at most 255 segments.
            let mut lacing = Vec::new();
            let mut data = Vec::new();
            for p in packets {
                for chunk in p.chunks(255) {
                    lacing.push(chunk.len() as u8);
                }
                if p.len() % 255 == 0 {
                    lacing.push(0);
                }
                data.extend_from_slice(p);
            }
            let mut continued = false;
            let (mut li, mut di) = (0, 0);
            while li < lacing.len() {
                let n = (lacing.len() - li).min(255);
                let lace = &lacing[li..li + n];
                let len: usize = lace.iter().map(|v| usize::from(*v)).sum();
                let last = li + n == lacing.len();
                let mut h = b"OggS\0".to_vec();
                let f = flags & if li == 0 { 0xFF } else { !OGG_BOS } & if last { 0xFF } else { !OGG_EOS };
                h.push(f | if continued { OGG_CONTINUED } else { 0 });
                h.extend_from_slice(&(if last { granule } else { u64::MAX }).to_le_bytes());
                h.extend_from_slice(&serial.to_le_bytes());
                h.extend_from_slice(&seq.to_le_bytes());
                h.extend_from_slice(&[0; 4]);
                h.push(n as u8);
                h.extend_from_slice(lace);
                h.extend_from_slice(&data[di..di + len]);
                let crc = ogg_crc(&h);
                h[22..26].copy_from_slice(&crc.to_le_bytes());
                pages.extend(h);
                continued = *lace.last().unwrap_or(&0) == 255;
                *seq += 1;
                li += n;
                di += len;
            }
        };
        page(&packets[..1], OGG_BOS, 0, &mut seq);
        page(&packets[1..=headers], 0, 0, &mut seq);
        let audio = &packets[headers + 1..];
        let count = audio.chunks(per_page).count();
        for (i, group) in audio.chunks(per_page).enumerate() {
            let eos = if i + 1 == count { OGG_EOS } else { 0 };
            page(group, eos, ((i + 1) * per_page) as u64, &mut seq);
        }
        pages
    }

    /// A page read back: (flags, granule, serial, sequence number, segments).
    type Page = (u8, u64, u32, u32, Vec<Vec<u8>>);

    /// The pages of `file`, checking each CRC.
    fn ogg_pages(file: &[u8]) -> Vec<Page> {
        let mut at = 0;
        let mut pages = Vec::new();
        while at < file.len() {
            let n = usize::from(file[at + 26]);
            let len: usize = file[at + 27..at + 27 + n].iter().map(|v| usize::from(*v)).sum();
            let mut page = file[at..at + 27 + n + len].to_vec();
            let crc = le32(&page, 22).unwrap_or(0);
            page[22..26].fill(0);
            assert_eq!(ogg_crc(&page), crc, "the CRC of the page at {at}");
            let segs = segments(&page).map(<[u8]>::to_vec).collect();
            pages.push((
                page[5],
                be64(
                    &{
                        let mut g = page[6..14].to_vec();
                        g.reverse();
                        g
                    },
                    0,
                )
                .unwrap_or(0),
                le32(&page, 14).unwrap_or(0),
                le32(&page, 18).unwrap_or(0),
                segs,
            ));
            at += 27 + n + len;
        }
        pages
    }

    /// The packets of a stream of pages, joined from their segments.
    fn packets(pages: &[Page]) -> Vec<Vec<u8>> {
        let mut packets = Vec::new();
        let mut open = Vec::new();
        for (.., segs) in pages {
            for s in segs {
                open.extend_from_slice(s);
                if s.len() < 255 {
                    packets.push(std::mem::take(&mut open));
                }
            }
        }
        packets
    }

    fn vorbis_packets(comment_len: usize) -> Vec<Vec<u8>> {
        let mut ident = b"\x01vorbis".to_vec();
        ident.resize(30, 1);
        let mut comment = b"\x03vorbis\x0d\0\0\0Lavf59.27.100\x01\0\0\0".to_vec();
        comment.extend_from_slice(&(comment_len as u32).to_le_bytes());
        comment.extend_from_slice(b"METADATA_BLOCK_PICTURE=");
        comment.extend_from_slice(SECRET);
        comment.resize(comment_len + 20, b'Q');
        comment.push(1);
        let mut setup = b"\x05vorbis".to_vec();
        setup.extend((0..3000u32).map(|i| (i % 251) as u8));
        let audio = (0..40u32).map(|i| vec![(i * 3) as u8; 100 + i as usize * 20]);
        [ident, comment, setup].into_iter().chain(audio).collect()
    }

    #[test]
    fn ogg_vorbis_gets_an_empty_comment_and_its_pages_renumbered() {
        // A comment of 200 KB (a picture) spans four pages; a small one shares a page.
        for comment_len in [200_000, 50] {
            let sent = vorbis_packets(comment_len);
            let file = ogg_stream(0x1234, &sent, 2, 7);
            let clean = strip(AudioKind::Ogg, &file).unwrap_or_else(|e| panic!("{e}"));
            let pages = ogg_pages(&clean);
            let seqs: Vec<u32> = pages.iter().map(|p| p.3).collect();
            assert_eq!(seqs, (0..pages.len() as u32).collect::<Vec<_>>(), "sequence numbers follow on");
            assert!(pages.iter().all(|p| p.2 == 0x1234));
            assert_eq!(pages[0].0, OGG_BOS);
            assert_eq!(pages.last().map(|p| p.0), Some(OGG_EOS));
            let got = packets(&pages);
            assert_eq!(got[0], sent[0], "identification");
            assert_eq!(got[1], VORBIS_EMPTY_COMMENT.to_vec());
            assert_eq!(got[2..], sent[2..], "setup and audio, byte for byte");
            assert!(!contains(&clean, b"GPS") && !contains(&clean, b"Lavf"));
            // Audio pages keep their granules: the same pages as before, after the headers.
            let before = ogg_pages(&file);
            let audio_pages = |p: &[Page]| {
                p.iter().filter(|p| p.1 != 0 && p.1 != u64::MAX).map(|p| (p.1, p.4.clone())).collect::<Vec<_>>()
            };
            assert_eq!(audio_pages(&pages), audio_pages(&before));
        }
    }

    #[test]
    fn ogg_chains_flac_and_trailing_tags() {
        // Two streams one after the other, then an ID3v1 tag.
        let file =
            [ogg_stream(1, &vorbis_packets(70_000), 2, 5), ogg_stream(2, &vorbis_packets(10), 2, 9), id3v1()].concat();
        let clean = strip(AudioKind::Ogg, &file).unwrap_or_else(|e| panic!("{e}"));
        let pages = ogg_pages(&clean);
        for serial in [1, 2] {
            let stream: Vec<_> = pages.iter().filter(|p| p.2 == serial).cloned().collect();
            let seqs: Vec<u32> = stream.iter().map(|p| p.3).collect();
            assert_eq!(seqs, (0..stream.len() as u32).collect::<Vec<_>>());
            assert_eq!(packets(&stream)[1], VORBIS_EMPTY_COMMENT.to_vec());
        }
        assert!(!contains(&clean, b"GPS") && !contains(&clean, b"TAG"));

        // FLAC in Ogg: STREAMINFO stays, the comment is emptied, PICTURE and PADDING go.
        let mut first = b"\x7FFLAC\x01\x00\x00\x03fLaC".to_vec();
        first.extend(flac_block(0, false, &[0x11; 34]));
        let comment = flac_block(4, false, &[b"\x05\0\0\0hello\x01\0\0\0".as_slice(), SECRET].concat());
        let sent = [first.clone(), comment, flac_block(6, false, &picture()), flac_block(1, true, &[0; 300])]
            .into_iter()
            .chain((0..10u8).map(|i| [0xFF, 0xF8, i, i, i].to_vec()))
            .collect::<Vec<_>>();
        let clean = strip(AudioKind::Ogg, &ogg_stream(9, &sent, 3, 4)).unwrap_or_else(|e| panic!("{e}"));
        let got = packets_of(&clean);
        let mut expected_first = first;
        expected_first[7..9].copy_from_slice(&[0, 1]);
        assert_eq!(got[0], expected_first);
        assert_eq!(got[1], FLAC_EMPTY_COMMENT.to_vec());
        assert_eq!(got[2..], sent[4..]);
    }

    fn packets_of(file: &[u8]) -> Vec<Vec<u8>> {
        packets(&ogg_pages(file))
    }

    #[test]
    fn ogg_that_breaks_its_rules_is_refused() {
        let good = ogg_stream(5, &vorbis_packets(300), 2, 5);
        let mut bad_crc = good.clone();
        let last = bad_crc.len() - 1;
        bad_crc[last] ^= 1;
        assert_eq!(refused(AudioKind::Ogg, &bad_crc), Some(MediaError::Malformed));
        // Two streams interleaved.
        let other = ogg_stream(6, &vorbis_packets(300), 2, 5);
        let first_page = 27 + 1 + usize::from(other[27]);
        let interleaved = [&good[..58], &other[..first_page], &good[58..]].concat();
        assert_eq!(refused(AudioKind::Ogg, &interleaved), Some(MediaError::Malformed));
        // Junk after the last page.
        let junk = [good.clone(), b"<script>alert(1)</script>".to_vec()].concat();
        assert_eq!(refused(AudioKind::Ogg, &junk), Some(MediaError::Malformed));
        // Opus is not Vorbis.
        let mut opus = vorbis_packets(10);
        opus[0] = b"OpusHead\x01\x02\0\0\x80\xBB\0\0\0\0\0".to_vec();
        assert_eq!(refused(AudioKind::Ogg, &ogg_stream(7, &opus, 2, 5)), Some(MediaError::UnsupportedCodec));
        // Headers only.
        assert_eq!(refused(AudioKind::Ogg, &good[..58]), Some(MediaError::Malformed));
    }

    // --- Any input -----------------------------------------------------------------------

    fn samples() -> Vec<Vec<u8>> {
        let (m4a, _) = m4a(true, false, 0);
        vec![
            [id3v2(3, &picture(), false), xing_frame(), mp3_frame(1), id3v1()].concat(),
            [id3v2(4, b"x", false), adts_frame(1), adts_frame(2)].concat(),
            [b"fLaC".to_vec(), flac_block(0, false, &[1; 34]), flac_block(6, true, &picture()), flac_frames()].concat(),
            riff(&[chunk(b"LIST", b"INFO"), chunk(b"fmt ", &FMT), chunk(b"data", &[1, 2, 3])]),
            m4a,
            ogg_stream(3, &vorbis_packets(600), 2, 5),
        ]
    }

    const KINDS: [AudioKind; 6] =
        [AudioKind::Mp3, AudioKind::Aac, AudioKind::Flac, AudioKind::Wav, AudioKind::M4a, AudioKind::Ogg];

    #[test]
    fn every_cut_and_every_kind_is_safe() {
        for sample in samples() {
            let step = (sample.len() / 300).max(1);
            for cut in (0..sample.len()).step_by(step) {
                for kind in KINDS {
                    let _ = strip(kind, &sample[..cut]);
                }
            }
        }
    }

    #[test]
    fn damaged_bytes_never_panic() {
        // A fixed pseudo-random sequence: reproducible.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (sample, kind) in samples().into_iter().zip(KINDS) {
            for _ in 0..400 {
                let mut damaged = sample.clone();
                for _ in 0..1 + next() % 4 {
                    let at = (next() % damaged.len() as u64) as usize;
                    damaged[at] = match next() % 4 {
                        0 => 0xFF,
                        1 => 0,
                        _ => next() as u8,
                    };
                }
                let _ = strip(kind, &damaged);
            }
        }
    }

    #[test]
    fn sizes_that_point_anywhere_are_safe() {
        let huge = [
            [b"fLaC".to_vec(), vec![0x00, 0xFF, 0xFF, 0xFF]].concat(),
            [b"RIFF\xFF\xFF\xFF\xFFWAVEfmt \xFF\xFF\xFF\xFF".to_vec()].concat(),
            [mp4_box(b"ftyp", b"M4A \0\0\0\0"), vec![0, 0, 0, 1], b"moov".to_vec(), vec![0xFF; 8]].concat(),
            [mp4_box(b"ftyp", b"M4A \0\0\0\0"), vec![0xFF, 0xFF, 0xFF, 0xFF], b"moov".to_vec(), vec![0; 8]].concat(),
            b"ID3\x04\0\0\x7F\x7F\x7F\x7F".to_vec(),
            b"OggS\0\x02\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\xFF".to_vec(),
        ];
        for bytes in huge {
            for kind in KINDS {
                assert!(strip(kind, &bytes).is_err(), "{kind:?} {bytes:?}");
            }
        }
    }

    #[test]
    fn the_ogg_crc_is_libogg_s() {
        // The first page of a Vorbis file written by ffmpeg (libogg), with its CRC.
        let mut page = b"\x4f\x67\x67\x53\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x1f\xcd\x0f\x78\x00\x00\x00\x00\x2d\x56\xa8\x5d\x01\x1e\x01\x76\x6f\x72\x62\x69\x73\x00\x00\x00\x00\x01\x44\xac\x00\x00\x00\x00\x00\x00\x80\x38\x01\x00\x00\x00\x00\x00\xb8\x01".to_vec();
        let stored = le32(&page, 22);
        page[22..26].fill(0);
        assert_eq!(Some(ogg_crc(&page)), stored);
    }
}
