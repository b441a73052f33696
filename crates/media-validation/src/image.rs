//! PNG and JPEG: sniffing, dimensions, and metadata stripping without re-encoding.
//!
//! Stripping works on the container, so pixels are untouched and no image codec is needed:
//! - PNG keeps only the chunks that draw the image (IHDR, PLTE, IDAT, IEND, tRNS, gamma and
//!   colour-space chunks) and drops text, EXIF (eXIf), time and every other ancillary chunk;
//! - JPEG drops every APPn segment but JFIF (APP0), the ICC colour profile (APP2 "ICC_PROFILE")
//!   and Adobe's colour-transform marker (APP14), and drops comments; EXIF and XMP (APP1) go,
//!   with camera details and GPS location. The EXIF orientation is kept by writing a fresh,
//!   minimal EXIF block holding only that value, so portrait photos stay upright.

use crate::MediaError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    Png,
    Jpeg,
}

impl ImageKind {
    pub fn mime(self) -> &'static str {
        match self {
            ImageKind::Png => "image/png",
            ImageKind::Jpeg => "image/jpeg",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            ImageKind::Png => "png",
            ImageKind::Jpeg => "jpg",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageFacts {
    pub kind: ImageKind,
    pub width: u32,
    pub height: u32,
}

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// What the bytes are, and how large the picture is, with bounds on the pixel count so a tiny
/// file cannot claim a gigantic image.
pub fn sniff_image(bytes: &[u8], max_side: u32, max_pixels: u64) -> Result<ImageFacts, MediaError> {
    let facts = if bytes.starts_with(PNG_SIGNATURE) {
        png_facts(bytes)?
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        jpeg_facts(bytes)?
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
    let (segments, _) = jpeg_segments(bytes)?;
    let sof = segments.iter().find(|(m, _)| is_sof(*m)).map(|(_, s)| *s).ok_or(MediaError::Malformed)?;
    Ok(ImageFacts {
        kind: ImageKind::Jpeg,
        height: u32::from(be16(sof, 5).ok_or(MediaError::Malformed)?),
        width: u32::from(be16(sof, 7).ok_or(MediaError::Malformed)?),
    })
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
            let orientation = segments.iter().find_map(|(m, s)| (*m == 0xE1).then(|| exif_orientation(s)).flatten());
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
    let tiff = segment.get(4..)?.strip_prefix(b"Exif\0\0")?;
    let little = match tiff.get(0..2)? {
        b"II" => true,
        b"MM" => false,
        _ => return None,
    };
    let u16_at = |at: usize| {
        tiff.get(at..at + 2)
            .map(|b| if little { u16::from_le_bytes([b[0], b[1]]) } else { u16::from_be_bytes([b[0], b[1]]) })
    };
    let u32_at = |at: usize| {
        tiff.get(at..at + 4).map(|b| {
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
            let entry = ifd + 2 + i * 12;
            (u16_at(entry)? == 0x0112).then(|| u16_at(entry + 8)).flatten()
        })
        .filter(|o| (1..=8).contains(o))
}

/// An APP1 segment with a big-endian EXIF block holding only the orientation.
fn minimal_exif(orientation: u16) -> Vec<u8> {
    let mut tiff = Vec::new();
    tiff.extend_from_slice(b"MM\0\x2a\0\0\0\x08"); // big-endian TIFF, IFD0 at offset 8
    tiff.extend_from_slice(&1u16.to_be_bytes()); // one entry
    tiff.extend_from_slice(&0x0112u16.to_be_bytes()); // Orientation
    tiff.extend_from_slice(&3u16.to_be_bytes()); // SHORT
    tiff.extend_from_slice(&1u32.to_be_bytes()); // count 1
    tiff.extend_from_slice(&orientation.to_be_bytes());
    tiff.extend_from_slice(&[0, 0]); // value padding
    tiff.extend_from_slice(&0u32.to_be_bytes()); // no next IFD
    let mut seg = vec![0xFF, 0xE1];
    let len = (2 + 6 + tiff.len()) as u16;
    seg.extend_from_slice(&len.to_be_bytes());
    seg.extend_from_slice(b"Exif\0\0");
    seg.extend_from_slice(&tiff);
    seg
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
        assert_eq!(facts, Ok(ImageFacts { kind: ImageKind::Png, width: 3, height: 2 }));
    }

    #[test]
    fn jpeg_is_recognised_by_its_bytes() {
        let facts = sniff_image(&jpeg_with_exif(6), BIG, 1 << 30);
        assert_eq!(facts, Ok(ImageFacts { kind: ImageKind::Jpeg, width: 640, height: 480 }));
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
}
