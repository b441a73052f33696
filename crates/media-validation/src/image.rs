//! Pictures: what the bytes are (PNG, JPEG, GIF, WebP), how large, and a copy without
//! metadata, made on the container so pixels are untouched and no image codec is needed:
//! - PNG keeps only the chunks that draw the image (IHDR, PLTE, IDAT, IEND, tRNS, gamma and
//!   colour-space chunks) and drops text, EXIF (eXIf), time and every other ancillary chunk;
//! - JPEG drops every APPn segment but JFIF (APP0), the ICC colour profile (APP2 "ICC_PROFILE")
//!   and Adobe's colour-transform marker (APP14), and drops comments; EXIF and XMP (APP1) go,
//!   with camera details and GPS location. The EXIF orientation is kept by writing a fresh,
//!   minimal EXIF block holding only that value, so portrait photos stay upright;
//! - GIF keeps the frames, their timing (graphic control) and the looping and colour-profile
//!   application blocks, and drops comments and every other application block (XMP);
//! - WebP keeps the image, animation, alpha and colour-profile chunks, drops XMP, and keeps of
//!   the EXIF chunk only the orientation, as for JPEG.

use crate::MediaError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    Png,
    Jpeg,
    Gif,
    Webp,
}

impl ImageKind {
    pub fn mime(self) -> &'static str {
        match self {
            ImageKind::Png => "image/png",
            ImageKind::Jpeg => "image/jpeg",
            ImageKind::Gif => "image/gif",
            ImageKind::Webp => "image/webp",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            ImageKind::Png => "png",
            ImageKind::Jpeg => "jpg",
            ImageKind::Gif => "gif",
            ImageKind::Webp => "webp",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageFacts {
    pub kind: ImageKind,
    /// The size as stored, before any EXIF orientation.
    pub width: u32,
    pub height: u32,
    /// Whether the orientation that stripping keeps (JPEG and WebP EXIF) turns the picture a
    /// quarter, so that it shows `height` wide and `width` high.
    pub quarter_turned: bool,
}

impl ImageFacts {
    /// Width and height as the picture is shown (after its orientation).
    pub fn shown_size(&self) -> (u32, u32) {
        if self.quarter_turned { (self.height, self.width) } else { (self.width, self.height) }
    }
}

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// What the bytes are, PNG or JPEG only (avatars, cover art), and how large the picture is,
/// with bounds on the pixel count so a tiny file cannot claim a gigantic image.
pub fn sniff_image(bytes: &[u8], max_side: u32, max_pixels: u64) -> Result<ImageFacts, MediaError> {
    if !(bytes.starts_with(PNG_SIGNATURE) || bytes.starts_with(&[0xFF, 0xD8, 0xFF])) {
        return Err(MediaError::UnsupportedType);
    }
    image_facts(bytes, max_side, max_pixels)
}

/// As [`sniff_image`], for every picture a media post accepts: PNG, JPEG, GIF and WebP. The
/// whole container is walked, so a truncated file is refused.
pub fn image_facts(bytes: &[u8], max_side: u32, max_pixels: u64) -> Result<ImageFacts, MediaError> {
    let facts = if bytes.starts_with(PNG_SIGNATURE) {
        png_facts(bytes)?
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        jpeg_facts(bytes)?
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        gif_facts(bytes, max_pixels)?
    } else if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        webp_facts(bytes)?
    } else {
        return Err(MediaError::UnsupportedType);
    };
    if facts.width == 0 || facts.height == 0 {
        return Err(MediaError::Malformed);
    }
    if facts.width > max_side
        || facts.height > max_side
        || u64::from(facts.width) * u64::from(facts.height) > max_pixels
    {
        return Err(MediaError::TooManyPixels { width: facts.width, height: facts.height, max_side, max_pixels });
    }
    Ok(facts)
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4).map(|s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
}

fn be16(b: &[u8], at: usize) -> Option<u16> {
    b.get(at..at + 2).map(|s| u16::from_be_bytes([s[0], s[1]]))
}

/// A PNG chunk: its type, and its whole bytes (length, type, data, CRC).
type PngChunk<'a> = ([u8; 4], &'a [u8]);
/// A JPEG segment: its marker, and its whole bytes.
type JpegSegment<'a> = (u8, &'a [u8]);

fn png_chunks(bytes: &[u8]) -> Result<Vec<PngChunk<'_>>, MediaError> {
    let mut chunks = Vec::new();
    let mut at = PNG_SIGNATURE.len();
    loop {
        let len = be32(bytes, at).ok_or(MediaError::Malformed)? as usize;
        let end = at.checked_add(12).and_then(|v| v.checked_add(len)).ok_or(MediaError::Malformed)?;
        let chunk = bytes.get(at..end).ok_or(MediaError::Malformed)?;
        let kind = [chunk[4], chunk[5], chunk[6], chunk[7]];
        chunks.push((kind, chunk));
        at = end;
        if &kind == b"IEND" {
            return Ok(chunks);
        }
    }
}

fn png_facts(bytes: &[u8]) -> Result<ImageFacts, MediaError> {
    let chunks = png_chunks(bytes)?;
    let (kind, ihdr) = chunks.first().ok_or(MediaError::Malformed)?;
    if kind != b"IHDR" || ihdr.len() < 8 + 13 + 4 {
        return Err(MediaError::Malformed);
    }
    if !chunks.iter().any(|(k, _)| k == b"IDAT") {
        return Err(MediaError::Malformed);
    }
    Ok(ImageFacts {
        kind: ImageKind::Png,
        width: be32(ihdr, 8).ok_or(MediaError::Malformed)?,
        height: be32(ihdr, 12).ok_or(MediaError::Malformed)?,
        // Stripping drops eXIf, so browsers show a PNG as stored.
        quarter_turned: false,
    })
}

/// JPEG segments before the image data: (marker, whole segment bytes), then the offset where
/// the entropy-coded data (from SOS on) begins.
fn jpeg_segments(bytes: &[u8]) -> Result<(Vec<JpegSegment<'_>>, usize), MediaError> {
    let mut segments = Vec::new();
    let mut at = 2; // after SOI
    loop {
        // Markers may be padded with extra 0xFF bytes.
        while bytes.get(at) == Some(&0xFF) && bytes.get(at + 1) == Some(&0xFF) {
            at += 1;
        }
        if bytes.get(at) != Some(&0xFF) {
            return Err(MediaError::Malformed);
        }
        let marker = *bytes.get(at + 1).ok_or(MediaError::Malformed)?;
        if marker == 0xDA {
            return Ok((segments, at)); // SOS: image data follows, kept as is
        }
        if marker == 0xD9 || (0xD0..=0xD7).contains(&marker) || marker == 0x01 {
            return Err(MediaError::Malformed); // EOI or restart before any image data
        }
        let len = usize::from(be16(bytes, at + 2).ok_or(MediaError::Malformed)?);
        if len < 2 {
            return Err(MediaError::Malformed);
        }
        let end = at + 2 + len;
        segments.push((marker, bytes.get(at..end).ok_or(MediaError::Malformed)?));
        at = end;
    }
}

fn is_sof(marker: u8) -> bool {
    matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC)
}

fn jpeg_facts(bytes: &[u8]) -> Result<ImageFacts, MediaError> {
    let (segments, data_start) = jpeg_segments(bytes)?;
    // A JPEG cut short (an interrupted upload) has no end-of-image marker: refused, as other
    // kinds are when truncated, rather than shown half grey.
    if !primary_image_data(bytes, data_start).ends_with(&[0xFF, 0xD9]) {
        return Err(MediaError::Malformed);
    }
    let sof = segments.iter().find(|(m, _)| is_sof(*m)).map(|(_, s)| *s).ok_or(MediaError::Malformed)?;
    Ok(ImageFacts {
        kind: ImageKind::Jpeg,
        height: u32::from(be16(sof, 5).ok_or(MediaError::Malformed)?),
        width: u32::from(be16(sof, 7).ok_or(MediaError::Malformed)?),
        quarter_turned: jpeg_orientation_of(&segments).is_some_and(turns_a_quarter),
    })
}

/// What decoding a JPEG costs depends on: its size, its components' sampling factors
/// (horizontal, vertical), whether it is progressive, and how many components its first scan
/// holds (fewer than all: the decoder keeps every coefficient, as for progressive files).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct JpegFrame {
    pub width: u32,
    pub height: u32,
    pub components: Vec<(u8, u8)>,
    pub progressive: bool,
    pub first_scan_components: u8,
}

/// The frame header (SOF) of a JPEG and its first scan's component count.
pub(crate) fn jpeg_frame(bytes: &[u8]) -> Option<JpegFrame> {
    let (segments, data_start) = jpeg_segments(bytes).ok()?;
    let (marker, sof) = segments.iter().find(|(m, _)| is_sof(*m))?;
    let count = usize::from(*sof.get(9)?);
    let components =
        (0..count).map(|i| sof.get(10 + 3 * i + 1).map(|f| (f >> 4, f & 0x0F))).collect::<Option<Vec<_>>>()?;
    if components.is_empty() || components.iter().any(|&(h, v)| !(1..=4).contains(&h) || !(1..=4).contains(&v)) {
        return None;
    }
    Some(JpegFrame {
        width: u32::from(be16(sof, 7)?),
        height: u32::from(be16(sof, 5)?),
        components,
        progressive: matches!(marker, 0xC2 | 0xC6 | 0xCA | 0xCE),
        first_scan_components: *bytes.get(data_start + 4)?,
    })
}

/// The EXIF orientation (1..=8) of a JPEG, the one its stripped copy keeps.
pub(crate) fn jpeg_orientation(bytes: &[u8]) -> Option<u16> {
    jpeg_segments(bytes).ok().and_then(|(segments, _)| jpeg_orientation_of(&segments))
}

fn jpeg_orientation_of(segments: &[JpegSegment<'_>]) -> Option<u16> {
    segments.iter().find_map(|(m, s)| (*m == 0xE1).then(|| exif_orientation(s)).flatten())
}

/// Orientations 5 to 8 turn the picture a quarter (with or without a mirror).
fn turns_a_quarter(orientation: u16) -> bool {
    (5..=8).contains(&orientation)
}

const PNG_KEEP: [&[u8; 4]; 10] =
    [b"IHDR", b"PLTE", b"IDAT", b"IEND", b"tRNS", b"gAMA", b"cHRM", b"sRGB", b"iCCP", b"sBIT"];

/// A copy of the image without metadata (see the module comment for what is kept).
pub fn strip_image_metadata(bytes: &[u8], kind: ImageKind) -> Result<Vec<u8>, MediaError> {
    match kind {
        ImageKind::Png => {
            let mut out = Vec::with_capacity(bytes.len());
            out.extend_from_slice(PNG_SIGNATURE);
            for (k, chunk) in png_chunks(bytes)? {
                if PNG_KEEP.contains(&&k) {
                    out.extend_from_slice(chunk);
                }
            }
            Ok(out)
        }
        ImageKind::Jpeg => {
            let (segments, data_start) = jpeg_segments(bytes)?;
            let mut out = Vec::with_capacity(bytes.len());
            out.extend_from_slice(&[0xFF, 0xD8]);
            let orientation = jpeg_orientation_of(&segments);
            let mut wrote_orientation = false;
            for (marker, segment) in &segments {
                let keep = match marker {
                    0xE0 => segment.get(4..9) == Some(b"JFIF\0"),
                    0xE2 => segment.get(4..16) == Some(b"ICC_PROFILE\0"),
                    0xEE => true,
                    0xE1 | 0xE3..=0xEF | 0xFE => false,
                    _ => true,
                };
                // The orientation goes right after the APP0/APP markers, before the tables.
                if !wrote_orientation && !matches!(marker, 0xE0..=0xEF) {
                    if let Some(o) = orientation.filter(|o| *o != 1) {
                        out.extend_from_slice(&minimal_exif(o));
                    }
                    wrote_orientation = true;
                }
                if keep {
                    out.extend_from_slice(segment);
                }
            }
            out.extend_from_slice(&primary_image_data(bytes, data_start));
            Ok(out)
        }
        ImageKind::Gif => strip_gif(bytes),
        ImageKind::Webp => strip_webp(bytes),
    }
}

/// The image data from the first SOS to the end of the primary image, its EOI included, with
/// APPn and comment segments between scans dropped. Whatever follows that EOI is not part of
/// the image: phones append further images there (MPF previews, gain maps, each with its own
/// EXIF and GPS), and anyone can append bytes (even `<script>`), so it is cut off.
fn primary_image_data(bytes: &[u8], start: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() - start.min(bytes.len()));
    let mut at = start;
    loop {
        while bytes.get(at) == Some(&0xFF) && bytes.get(at + 1) == Some(&0xFF) {
            at += 1;
        }
        let marker = match (bytes.get(at), bytes.get(at + 1)) {
            (Some(0xFF), Some(m)) => *m,
            _ => return out, // truncated: the image simply ends here
        };
        if marker == 0xD9 {
            out.extend_from_slice(&[0xFF, 0xD9]);
            return out;
        }
        let Some(len) = be16(bytes, at + 2) else {
            out.extend_from_slice(&bytes[at..]);
            return out;
        };
        let segment_end = (at + 2 + usize::from(len)).min(bytes.len());
        if !matches!(marker, 0xE0..=0xEF | 0xFE) {
            out.extend_from_slice(&bytes[at..segment_end]);
        }
        at = segment_end;
        if marker == 0xDA {
            // Entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a
            // restart marker.
            let data = at;
            while at + 1 < bytes.len() {
                let next = bytes[at + 1];
                if bytes[at] == 0xFF && next != 0x00 && next != 0xFF && !(0xD0..=0xD7).contains(&next) {
                    break;
                }
                at += 1;
            }
            if at + 1 >= bytes.len() {
                out.extend_from_slice(&bytes[data..]);
                return out;
            }
            out.extend_from_slice(&bytes[data..at]);
        }
    }
}

/// The orientation (1..=8) in an APP1 EXIF segment, if there is one.
fn exif_orientation(segment: &[u8]) -> Option<u16> {
    tiff_orientation(segment.get(4..)?.strip_prefix(b"Exif\0\0")?)
}

/// The orientation (1..=8) in IFD0 of a TIFF (EXIF) block.
fn tiff_orientation(tiff: &[u8]) -> Option<u16> {
    let little = match tiff.get(0..2)? {
        b"II" => true,
        b"MM" => false,
        _ => return None,
    };
    let u16_at = |at: usize| {
        tiff.get(at..at.checked_add(2)?)
            .map(|b| if little { u16::from_le_bytes([b[0], b[1]]) } else { u16::from_be_bytes([b[0], b[1]]) })
    };
    let u32_at = |at: usize| {
        tiff.get(at..at.checked_add(4)?).map(|b| {
            if little {
                u32::from_le_bytes([b[0], b[1], b[2], b[3]])
            } else {
                u32::from_be_bytes([b[0], b[1], b[2], b[3]])
            }
        })
    };
    let ifd = u32_at(4)? as usize;
    let count = usize::from(u16_at(ifd)?);
    (0..count.min(512))
        .find_map(|i| {
            let entry = ifd.checked_add(2 + i * 12)?;
            (u16_at(entry)? == 0x0112).then(|| u16_at(entry + 8)).flatten()
        })
        .filter(|o| (1..=8).contains(o))
}

/// A big-endian TIFF block holding only the orientation.
fn minimal_tiff(orientation: u16) -> Vec<u8> {
    let mut tiff = Vec::new();
    tiff.extend_from_slice(b"MM\0\x2a\0\0\0\x08"); // big-endian TIFF, IFD0 at offset 8
    tiff.extend_from_slice(&1u16.to_be_bytes()); // one entry
    tiff.extend_from_slice(&0x0112u16.to_be_bytes()); // Orientation
    tiff.extend_from_slice(&3u16.to_be_bytes()); // SHORT
    tiff.extend_from_slice(&1u32.to_be_bytes()); // count 1
    tiff.extend_from_slice(&orientation.to_be_bytes());
    tiff.extend_from_slice(&[0, 0]); // value padding
    tiff.extend_from_slice(&0u32.to_be_bytes()); // no next IFD
    tiff
}

/// An APP1 segment with a big-endian EXIF block holding only the orientation.
fn minimal_exif(orientation: u16) -> Vec<u8> {
    let tiff = minimal_tiff(orientation);
    let mut seg = vec![0xFF, 0xE1];
    let len = (2 + 6 + tiff.len()) as u16;
    seg.extend_from_slice(&len.to_be_bytes());
    seg.extend_from_slice(b"Exif\0\0");
    seg.extend_from_slice(&tiff);
    seg
}

// --- GIF -------------------------------------------------------------------------------------

/// A GIF block: its bytes, whether stripping keeps it, and for an image its frame (left, top,
/// width, height).
struct GifBlock<'a> {
    bytes: &'a [u8],
    keep: bool,
    frame: Option<[u32; 4]>,
}

/// The end of the data sub-blocks starting at `at` (after their zero terminator).
fn gif_sub_blocks_end(bytes: &[u8], mut at: usize) -> Result<usize, MediaError> {
    loop {
        let len = usize::from(*bytes.get(at).ok_or(MediaError::Malformed)?);
        at += 1;
        if len == 0 {
            return Ok(at);
        }
        at += len;
    }
}

/// The header with the global colour table, then every block up to the trailer (excluded).
fn gif_blocks(bytes: &[u8]) -> Result<(&[u8], Vec<GifBlock<'_>>), MediaError> {
    let packed = *bytes.get(10).ok_or(MediaError::Malformed)?;
    let table = if packed & 0x80 != 0 { 3 << ((packed & 7) + 1) } else { 0 };
    let header_end = 13 + table;
    let header = bytes.get(..header_end).ok_or(MediaError::Malformed)?;
    let mut blocks = Vec::new();
    let mut at = header_end;
    let mut images = 0usize;
    let le16 = |at: usize| bytes.get(at..at + 2).map(|b| u32::from(u16::from_le_bytes([b[0], b[1]])));
    loop {
        let start = at;
        let mut frame = None;
        let keep = match *bytes.get(at).ok_or(MediaError::Malformed)? {
            0x3B => break,
            0x2C => {
                let field = |n: usize| le16(at + 1 + 2 * n).ok_or(MediaError::Malformed);
                frame = Some([field(0)?, field(1)?, field(2)?, field(3)?]);
                let packed = *bytes.get(at + 9).ok_or(MediaError::Malformed)?;
                let table = if packed & 0x80 != 0 { 3 << ((packed & 7) + 1) } else { 0 };
                // Descriptor, local colour table, LZW minimum code size, then the data.
                at = gif_sub_blocks_end(bytes, at + 10 + table + 1)?;
                images += 1;
                true
            }
            0x21 => {
                let label = *bytes.get(at + 1).ok_or(MediaError::Malformed)?;
                let first = bytes.get(at + 2..at + 2 + 12);
                at = gif_sub_blocks_end(bytes, at + 2)?;
                match label {
                    0xF9 | 0x01 => true, // graphic control (timing, transparency), plain text
                    0xFF => matches!(first.map(|b| &b[1..12]), Some(b"NETSCAPE2.0" | b"ANIMEXTS1.0" | b"ICCRGBG1012")),
                    _ => false, // comments, XMP and other application data
                }
            }
            _ => return Err(MediaError::Malformed),
        };
        blocks.push(GifBlock { bytes: bytes.get(start..at).ok_or(MediaError::Malformed)?, keep, frame });
    }
    if images == 0 {
        return Err(MediaError::Malformed);
    }
    Ok((header, blocks))
}

/// The picture's size, with every frame inside it and all frames together within `max_pixels`:
/// a viewer decodes each frame at its own size (a 97 KB GIF with a 64×64 picture and one
/// 16000×16000 frame took a browser tab to 2.6 GB).
fn gif_facts(bytes: &[u8], max_pixels: u64) -> Result<ImageFacts, MediaError> {
    let (_, blocks) = gif_blocks(bytes)?;
    let le16 = |at: usize| bytes.get(at..at + 2).map(|b| u32::from(u16::from_le_bytes([b[0], b[1]])));
    let (width, height) = (le16(6).ok_or(MediaError::Malformed)?, le16(8).ok_or(MediaError::Malformed)?);
    let mut pixels: u64 = 0;
    for [left, top, w, h] in blocks.iter().filter_map(|b| b.frame) {
        if left + w > width || top + h > height {
            return Err(MediaError::GifFrames { max_pixels });
        }
        pixels += u64::from(w) * u64::from(h);
        if pixels > max_pixels {
            return Err(MediaError::GifFrames { max_pixels });
        }
    }
    Ok(ImageFacts { kind: ImageKind::Gif, width, height, quarter_turned: false })
}

fn strip_gif(bytes: &[u8]) -> Result<Vec<u8>, MediaError> {
    let (header, blocks) = gif_blocks(bytes)?;
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(header);
    for block in blocks.iter().filter(|b| b.keep) {
        out.extend_from_slice(block.bytes);
    }
    out.push(0x3B); // and nothing after the trailer
    Ok(out)
}

// --- WebP ------------------------------------------------------------------------------------

/// Whether a WebP file's first chunk is one an image starts with.
pub(crate) fn webp_chunk_is_image(fourcc: &[u8]) -> bool {
    matches!(fourcc, b"VP8 " | b"VP8L" | b"VP8X")
}

/// A RIFF chunk of a WebP file: its fourcc and data.
type WebpChunk<'a> = ([u8; 4], &'a [u8]);

/// The chunks of a WebP file, within the RIFF size (bytes after it are not part of the image
/// and go).
fn webp_chunks(bytes: &[u8]) -> Result<Vec<WebpChunk<'_>>, MediaError> {
    let le32 = |b: &[u8], at: usize| b.get(at..at + 4).map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as usize);
    let riff_end = le32(bytes, 4).and_then(|size| size.checked_add(8)).ok_or(MediaError::Malformed)?;
    let riff = bytes.get(..riff_end).ok_or(MediaError::Malformed)?;
    let mut chunks = Vec::new();
    let mut at = 12;
    while at < riff.len() {
        let head = riff.get(at..at + 8).ok_or(MediaError::Malformed)?;
        let fourcc = [head[0], head[1], head[2], head[3]];
        let len = le32(head, 4).ok_or(MediaError::Malformed)?;
        let data = at + 8;
        let end = data.checked_add(len).ok_or(MediaError::Malformed)?;
        chunks.push((fourcc, riff.get(data..end).ok_or(MediaError::Malformed)?));
        at = end + (len & 1); // chunks are padded to an even length
        if chunks.len() > 100_000 {
            return Err(MediaError::Malformed);
        }
    }
    Ok(chunks)
}

/// The EXIF orientation of a WebP file's EXIF chunk (raw TIFF, or TIFF after "Exif\0\0").
fn webp_orientation(chunks: &[WebpChunk<'_>]) -> Option<u16> {
    let (_, exif) = chunks.iter().find(|(k, _)| k == b"EXIF")?;
    tiff_orientation(exif.strip_prefix(b"Exif\0\0").unwrap_or(exif))
}

fn webp_facts(bytes: &[u8]) -> Result<ImageFacts, MediaError> {
    let chunks = webp_chunks(bytes)?;
    let (first, data) = chunks.first().ok_or(MediaError::Malformed)?;
    let le24 = |at: usize| data.get(at..at + 3).map(|b| u32::from_le_bytes([b[0], b[1], b[2], 0]));
    let (width, height) = match first {
        b"VP8X" => {
            if !chunks.iter().any(|(k, _)| matches!(k, b"VP8 " | b"VP8L" | b"ANMF")) {
                return Err(MediaError::Malformed);
            }
            (le24(4).ok_or(MediaError::Malformed)? + 1, le24(7).ok_or(MediaError::Malformed)? + 1)
        }
        b"VP8 " => {
            // A key frame: frame tag, start code 9D 01 2A, then 14-bit width and height.
            if data.get(3..6) != Some(&[0x9D, 0x01, 0x2A]) {
                return Err(MediaError::Malformed);
            }
            let w = data.get(6..8).map(|b| u32::from(u16::from_le_bytes([b[0], b[1]]) & 0x3FFF));
            let h = data.get(8..10).map(|b| u32::from(u16::from_le_bytes([b[0], b[1]]) & 0x3FFF));
            (w.ok_or(MediaError::Malformed)?, h.ok_or(MediaError::Malformed)?)
        }
        b"VP8L" => {
            let bits = data.get(1..5).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            match (data.first(), bits) {
                (Some(0x2F), Some(bits)) => ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1),
                _ => return Err(MediaError::Malformed),
            }
        }
        _ => return Err(MediaError::Malformed),
    };
    let quarter_turned = first == b"VP8X" && webp_orientation(&chunks).is_some_and(turns_a_quarter);
    Ok(ImageFacts { kind: ImageKind::Webp, width, height, quarter_turned })
}

fn strip_webp(bytes: &[u8]) -> Result<Vec<u8>, MediaError> {
    const VP8X_XMP: u8 = 0x04;
    const VP8X_EXIF: u8 = 0x08;
    let chunks = webp_chunks(bytes)?;
    // Only the extended format (VP8X) may carry EXIF; its flags say which chunks follow.
    let orientation =
        webp_orientation(&chunks).filter(|o| *o != 1 && chunks.first().is_some_and(|(k, _)| k == b"VP8X"));
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(b"RIFF\0\0\0\0WEBP");
    let mut push = |fourcc: &[u8; 4], data: &[u8]| {
        out.extend_from_slice(fourcc);
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
        if data.len() % 2 == 1 {
            out.push(0);
        }
    };
    for (fourcc, data) in &chunks {
        match fourcc {
            b"VP8X" => {
                let mut header = data.to_vec();
                if let Some(flags) = header.first_mut() {
                    *flags &= !(VP8X_XMP | VP8X_EXIF);
                    if orientation.is_some() {
                        *flags |= VP8X_EXIF;
                    }
                }
                push(fourcc, &header);
            }
            b"VP8 " | b"VP8L" | b"ALPH" | b"ANIM" | b"ANMF" | b"ICCP" => push(fourcc, data),
            _ => {} // EXIF, XMP and anything unknown
        }
    }
    if let Some(o) = orientation {
        push(b"EXIF", &minimal_tiff(o)); // EXIF comes after the image data
    }
    let size = (out.len() - 8) as u32;
    out[4..8].copy_from_slice(&size.to_le_bytes());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A valid 1×1 PNG with a tEXt chunk and an eXIf chunk added.
    fn png_with_metadata() -> Vec<u8> {
        fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
            let mut c = (data.len() as u32).to_be_bytes().to_vec();
            c.extend_from_slice(kind);
            c.extend_from_slice(data);
            c.extend_from_slice(&[0, 0, 0, 0]); // CRC is not checked by the stripper
            c
        }
        let mut png = PNG_SIGNATURE.to_vec();
        png.extend(chunk(b"IHDR", &[0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0]));
        png.extend(chunk(b"tEXt", b"Comment\0secret location"));
        png.extend(chunk(b"eXIf", b"MM\0*GPS"));
        png.extend(chunk(b"IDAT", &[1, 2, 3]));
        png.extend(chunk(b"IEND", &[]));
        png
    }

    fn jpeg_with_exif(orientation: u16) -> Vec<u8> {
        let mut j = vec![0xFF, 0xD8];
        j.extend_from_slice(&[0xFF, 0xE0, 0, 16]);
        j.extend_from_slice(b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0");
        // APP1 EXIF (little-endian) with orientation and a fake GPS marker string.
        let mut tiff = b"II*\0\x08\0\0\0".to_vec();
        tiff.extend_from_slice(&2u16.to_le_bytes());
        tiff.extend_from_slice(&0x0112u16.to_le_bytes());
        tiff.extend_from_slice(&3u16.to_le_bytes());
        tiff.extend_from_slice(&1u32.to_le_bytes());
        tiff.extend_from_slice(&orientation.to_le_bytes());
        tiff.extend_from_slice(&[0, 0]);
        tiff.extend_from_slice(&0x8825u16.to_le_bytes()); // GPS IFD pointer
        tiff.extend_from_slice(&4u16.to_le_bytes());
        tiff.extend_from_slice(&1u32.to_le_bytes());
        tiff.extend_from_slice(&0u32.to_le_bytes());
        tiff.extend_from_slice(&0u32.to_le_bytes());
        tiff.extend_from_slice(b"GPS 51.5N 0.1W");
        let mut app1 = b"Exif\0\0".to_vec();
        app1.extend_from_slice(&tiff);
        j.extend_from_slice(&[0xFF, 0xE1]);
        j.extend_from_slice(&((app1.len() + 2) as u16).to_be_bytes());
        j.extend_from_slice(&app1);
        j.extend_from_slice(&[0xFF, 0xFE, 0, 9]);
        j.extend_from_slice(b"comment");
        // SOF0: 8-bit, height 480, width 640, 1 component.
        j.extend_from_slice(&[0xFF, 0xC0, 0, 11, 8, 0x01, 0xE0, 0x02, 0x80, 1, 1, 0x11, 0]);
        j.extend_from_slice(&[0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 0x3F, 0]);
        j.extend_from_slice(&[0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD9]);
        j
    }

    const BIG: u32 = 10_000;

    #[test]
    fn png_is_recognised_by_its_bytes() {
        let facts = sniff_image(&png_with_metadata(), BIG, 1 << 30);
        assert_eq!(facts, Ok(ImageFacts { kind: ImageKind::Png, width: 3, height: 2, quarter_turned: false }));
    }

    #[test]
    fn jpeg_is_recognised_by_its_bytes() {
        let facts = sniff_image(&jpeg_with_exif(6), BIG, 1 << 30);
        assert_eq!(facts, Ok(ImageFacts { kind: ImageKind::Jpeg, width: 640, height: 480, quarter_turned: true }));
        assert_eq!(facts.map(|f| f.shown_size()), Ok((480, 640)), "orientation 6 turns it a quarter");
        let upright = sniff_image(&jpeg_with_exif(1), BIG, 1 << 30).map(|f| f.shown_size());
        assert_eq!(upright, Ok((640, 480)));
    }

    #[test]
    fn other_bytes_are_not_images() {
        for bytes in [&b"GIF89a......"[..], b"<svg xmlns=...>", b"", b"\x89PN", b"RIFF....WEBPVP8 "] {
            assert_eq!(sniff_image(bytes, BIG, 1 << 30), Err(MediaError::UnsupportedType));
        }
    }

    #[test]
    fn truncated_images_are_malformed_not_a_panic() {
        let png = png_with_metadata();
        let jpeg = jpeg_with_exif(1);
        for cut in [9, 20, 33, 50] {
            assert_eq!(sniff_image(&png[..cut], BIG, 1 << 30), Err(MediaError::Malformed), "png cut at {cut}");
        }
        for cut in [4, 10, 30, 60] {
            assert!(sniff_image(&jpeg[..cut], BIG, 1 << 30).is_err(), "jpeg cut at {cut}");
        }
        // Cut within the image data: the header is whole, the end-of-image marker is not there.
        for cut in jpeg.len() - 6..jpeg.len() {
            assert_eq!(sniff_image(&jpeg[..cut], BIG, 1 << 30), Err(MediaError::Malformed), "jpeg cut at {cut}");
        }
        // A chunk length that points past the end.
        let mut bad = png.clone();
        bad[8..12].copy_from_slice(&u32::MAX.to_be_bytes());
        assert_eq!(sniff_image(&bad, BIG, 1 << 30), Err(MediaError::Malformed));
    }

    #[test]
    fn pixel_bounds_are_enforced() {
        assert!(matches!(sniff_image(&jpeg_with_exif(1), 600, 1 << 30), Err(MediaError::TooManyPixels { .. })));
        assert!(matches!(sniff_image(&jpeg_with_exif(1), BIG, 640 * 480 - 1), Err(MediaError::TooManyPixels { .. })));
    }

    #[test]
    fn png_metadata_is_stripped_and_pixels_kept() {
        let stripped = strip_image_metadata(&png_with_metadata(), ImageKind::Png).unwrap_or_default();
        let text = String::from_utf8_lossy(&stripped);
        assert!(!text.contains("secret location") && !text.contains("eXIf"));
        assert!(text.contains("IHDR") && text.contains("IDAT") && text.contains("IEND"));
        assert_eq!(sniff_image(&stripped, BIG, 1 << 30).map(|f| (f.width, f.height)), Ok((3, 2)));
    }

    #[test]
    fn jpeg_exif_and_comments_go_but_orientation_stays() {
        let original = jpeg_with_exif(6);
        let stripped = strip_image_metadata(&original, ImageKind::Jpeg).unwrap_or_default();
        let text = String::from_utf8_lossy(&stripped);
        assert!(!text.contains("GPS") && !text.contains("comment"), "location and comments are gone");
        assert!(text.contains("JFIF"));
        assert!(stripped.ends_with(&[0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD9]), "image data untouched");
        let app1 = jpeg_segments(&stripped).unwrap_or_default().0.into_iter().find(|(m, _)| *m == 0xE1);
        assert_eq!(app1.and_then(|(_, s)| exif_orientation(s)), Some(6), "a rotated photo stays upright");
        assert_eq!(sniff_image(&stripped, BIG, 1 << 30).map(|f| (f.width, f.height)), Ok((640, 480)));
    }

    #[test]
    fn jpeg_ends_at_the_primary_images_eoi() {
        // A phone's JPEG: the primary image, then an appended preview with its own EXIF and GPS
        // (MPF), then trailing bytes someone added.
        let mut bytes = jpeg_with_exif(1);
        let mut appended = jpeg_with_exif(6);
        appended.splice(4..4, b"GPS 51.5N".iter().copied());
        bytes.extend_from_slice(&appended);
        bytes.extend_from_slice(b"<script>alert(1)</script>");
        let stripped = strip_image_metadata(&bytes, ImageKind::Jpeg).unwrap_or_default();
        assert!(stripped.ends_with(&[0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD9]), "cut at the first EOI");
        assert_eq!(stripped.windows(2).filter(|w| *w == [0xFF, 0xD8]).count(), 1, "one image only");
        let text = String::from_utf8_lossy(&stripped);
        assert!(!text.contains("GPS") && !text.contains("script") && !text.contains("Exif"), "{text}");
    }

    #[test]
    fn progressive_scans_are_kept_whole() {
        let mut bytes = jpeg_with_exif(1);
        let eoi = bytes.len() - 2;
        // A second scan: tables, a comment between scans (dropped), and another SOS with data.
        let second: Vec<u8> = [
            &[0xFF, 0xC4, 0, 4, 0x10, 0][..],
            &[0xFF, 0xFE, 0, 5, b'h', b'i', b'!'][..],
            &[0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 0x3F, 0, 0x77, 0xFF, 0xD3, 0x88][..],
        ]
        .concat();
        bytes.splice(eoi..eoi, second);
        let stripped = strip_image_metadata(&bytes, ImageKind::Jpeg).unwrap_or_default();
        assert!(stripped.ends_with(&[
            0xFF, 0xC4, 0, 4, 0x10, 0, 0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 0x3F, 0, 0x77, 0xFF, 0xD3, 0x88, 0xFF, 0xD9
        ]));
    }

    #[test]
    fn upright_jpeg_gets_no_exif_at_all() {
        let stripped = strip_image_metadata(&jpeg_with_exif(1), ImageKind::Jpeg).unwrap_or_default();
        assert!(!String::from_utf8_lossy(&stripped).contains("Exif"));
    }

    /// A GIF: 4×3, global colour table, a comment, an XMP application block, the looping
    /// block, a graphic control block and one frame.
    fn gif() -> Vec<u8> {
        let mut g = b"GIF89a".to_vec();
        g.extend_from_slice(&[4, 0, 3, 0, 0x80, 0, 0]); // global table of 2 colours
        g.extend_from_slice(&[0, 0, 0, 255, 255, 255]);
        g.extend_from_slice(&[0x21, 0xFE, 8]);
        g.extend_from_slice(b"GPS here");
        g.push(0);
        g.extend_from_slice(&[0x21, 0xFF, 11]);
        g.extend_from_slice(b"XMP DataXMP");
        g.extend_from_slice(&[5, b's', b'e', b'c', b'r', b't', 0]);
        g.extend_from_slice(&[0x21, 0xFF, 11]);
        g.extend_from_slice(b"NETSCAPE2.0");
        g.extend_from_slice(&[3, 1, 0, 0, 0]);
        g.extend_from_slice(&[0x21, 0xF9, 4, 0, 10, 0, 0, 0]);
        g.extend_from_slice(&[0x2C, 0, 0, 0, 0, 4, 0, 3, 0, 0]);
        g.extend_from_slice(&[2, 2, 0x44, 0x01, 0]); // LZW data (content not checked)
        g.push(0x3B);
        g.extend_from_slice(b"<script>");
        g
    }

    /// [`gif`] with its frame replaced by one at (`left`, `top`) of `w`×`h`, `frames` times.
    fn gif_with_frames(left: u16, top: u16, w: u16, h: u16, frames: usize) -> Vec<u8> {
        let base = gif();
        let at = base.windows(2).position(|p| p == [0x2C, 0]).unwrap_or_default();
        let mut g = base[..at].to_vec();
        for _ in 0..frames {
            g.push(0x2C);
            for v in [left, top, w, h] {
                g.extend_from_slice(&v.to_le_bytes());
            }
            g.extend_from_slice(&[0, 2, 2, 0x44, 0x01, 0]);
        }
        g.push(0x3B);
        g
    }

    #[test]
    fn gif_frames_stay_inside_the_picture_and_within_the_pixel_budget() {
        let fine = gif_with_frames(1, 1, 3, 2, 3);
        assert!(image_facts(&fine, BIG, 1 << 30).is_ok());
        let huge_frame = gif_with_frames(0, 0, 16_000, 16_000, 1);
        assert_eq!(image_facts(&huge_frame, BIG, 1 << 30), Err(MediaError::GifFrames { max_pixels: 1 << 30 }));
        let outside = gif_with_frames(3, 0, 2, 3, 1);
        assert_eq!(image_facts(&outside, BIG, 1 << 30), Err(MediaError::GifFrames { max_pixels: 1 << 30 }));
        // 12 pixels a frame: 10 frames are 120 pixels.
        let many = gif_with_frames(0, 0, 4, 3, 10);
        assert!(image_facts(&many, BIG, 120).is_ok());
        assert_eq!(
            image_facts(&gif_with_frames(0, 0, 4, 3, 11), BIG, 120),
            Err(MediaError::GifFrames { max_pixels: 120 })
        );
    }

    #[test]
    fn gif_facts_and_stripping() {
        let bytes = gif();
        assert_eq!(
            image_facts(&bytes, BIG, 1 << 30),
            Ok(ImageFacts { kind: ImageKind::Gif, width: 4, height: 3, quarter_turned: false })
        );
        assert_eq!(sniff_image(&bytes, BIG, 1 << 30), Err(MediaError::UnsupportedType), "not for avatars");
        let stripped = strip_image_metadata(&bytes, ImageKind::Gif).unwrap_or_default();
        let text = String::from_utf8_lossy(&stripped);
        assert!(!text.contains("GPS") && !text.contains("XMP") && !text.contains("secrt") && !text.contains("script"));
        assert!(text.contains("NETSCAPE2.0"), "animations keep looping");
        assert!(stripped.ends_with(&[2, 2, 0x44, 0x01, 0, 0x3B]));
        assert_eq!(image_facts(&stripped, BIG, 1 << 30).map(|f| (f.width, f.height)), Ok((4, 3)));
        for cut in 6..bytes.len() - 9 {
            assert!(image_facts(&bytes[..cut], BIG, 1 << 30).is_err(), "cut at {cut}");
        }
    }

    fn webp_chunk(fourcc: &[u8; 4], data: &[u8]) -> Vec<u8> {
        let mut c = fourcc.to_vec();
        c.extend_from_slice(&(data.len() as u32).to_le_bytes());
        c.extend_from_slice(data);
        if data.len() % 2 == 1 {
            c.push(0);
        }
        c
    }

    fn webp(chunks: &[Vec<u8>]) -> Vec<u8> {
        let body: Vec<u8> = chunks.concat();
        let mut w = b"RIFF".to_vec();
        w.extend_from_slice(&((body.len() + 4) as u32).to_le_bytes());
        w.extend_from_slice(b"WEBP");
        w.extend(body);
        w
    }

    fn vp8l(width: u32, height: u32) -> Vec<u8> {
        let bits = (width - 1) | ((height - 1) << 14);
        let mut d = vec![0x2F];
        d.extend_from_slice(&bits.to_le_bytes());
        d.extend_from_slice(&[0, 0, 0]);
        webp_chunk(b"VP8L", &d)
    }

    #[test]
    fn webp_sizes_of_each_flavour() {
        let lossless = webp(&[vp8l(300, 200)]);
        assert_eq!(
            image_facts(&lossless, BIG, 1 << 30).map(|f| (f.kind, f.width, f.height)),
            Ok((ImageKind::Webp, 300, 200))
        );
        let mut vp8 = vec![0x10, 0x02, 0x00, 0x9D, 0x01, 0x2A];
        vp8.extend_from_slice(&640u16.to_le_bytes());
        vp8.extend_from_slice(&480u16.to_le_bytes());
        let lossy = webp(&[webp_chunk(b"VP8 ", &vp8)]);
        assert_eq!(image_facts(&lossy, BIG, 1 << 30).map(|f| (f.width, f.height)), Ok((640, 480)));
        let mut vp8x = vec![0x08, 0, 0, 0];
        vp8x.extend_from_slice(&[0x1F, 0x03, 0x00, 0x57, 0x02, 0x00]); // 800×600
        let extended = webp(&[webp_chunk(b"VP8X", &vp8x), vp8l(800, 600)]);
        assert_eq!(image_facts(&extended, BIG, 1 << 30).map(|f| (f.width, f.height)), Ok((800, 600)));
        let no_image = webp(&[webp_chunk(b"VP8X", &vp8x)]);
        assert_eq!(image_facts(&no_image, BIG, 1 << 30), Err(MediaError::Malformed));
        assert!(matches!(image_facts(&lossless, 100, 1 << 30), Err(MediaError::TooManyPixels { .. })));
        for cut in 0..lossless.len() {
            assert!(image_facts(&lossless[..cut], BIG, 1 << 30).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn webp_exif_and_xmp_go_but_orientation_stays() {
        let mut exif = b"Exif\0\0II*\0\x08\0\0\0".to_vec();
        exif.extend_from_slice(&2u16.to_le_bytes());
        exif.extend_from_slice(&[0x12, 0x01, 3, 0, 1, 0, 0, 0, 8, 0, 0, 0]); // orientation 8
        exif.extend_from_slice(&[0x25, 0x88, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
        exif.extend_from_slice(b"GPS 51.5N");
        let mut vp8x = vec![0x0C, 0, 0, 0];
        vp8x.extend_from_slice(&[0x1F, 0x03, 0x00, 0x57, 0x02, 0x00]);
        let original = webp(&[
            webp_chunk(b"VP8X", &vp8x),
            vp8l(800, 600),
            webp_chunk(b"EXIF", &exif),
            webp_chunk(b"XMP ", b"<x:xmpmeta>secret</x:xmpmeta>"),
        ]);
        let facts = image_facts(&original, BIG, 1 << 30);
        assert_eq!(facts.clone().map(|f| f.shown_size()), Ok((600, 800)));
        let stripped = strip_image_metadata(&original, ImageKind::Webp).unwrap_or_default();
        let text = String::from_utf8_lossy(&stripped);
        assert!(!text.contains("GPS") && !text.contains("secret") && !text.contains("XMP "), "{text}");
        let chunks = webp_chunks(&stripped).unwrap_or_default();
        assert_eq!(chunks.iter().map(|(k, _)| *k).collect::<Vec<_>>(), [*b"VP8X", *b"VP8L", *b"EXIF"]);
        assert_eq!(webp_orientation(&chunks), Some(8));
        assert_eq!(chunks[0].1[0], 0x08, "the XMP flag is cleared, the EXIF one kept");
        assert_eq!(image_facts(&stripped, BIG, 1 << 30), facts);

        // Upright: no EXIF at all, and the flag says so.
        let upright = webp(&[webp_chunk(b"VP8X", &vp8x), vp8l(800, 600), webp_chunk(b"XMP ", b"secret")]);
        let stripped = strip_image_metadata(&upright, ImageKind::Webp).unwrap_or_default();
        let chunks = webp_chunks(&stripped).unwrap_or_default();
        assert_eq!(chunks.len(), 2);
        assert_eq!(chunks[0].1[0], 0);
    }
}
