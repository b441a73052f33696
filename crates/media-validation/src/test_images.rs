//! Pictures for the unit tests, made in the test: PNGs of any depth, colour type and interlacing
//! (written by hand, so interlaced ones too), large 16-bit PNGs (compressed, a few hundred KB),
//! and progressive JPEGs.

use std::sync::OnceLock;

/// CRC-32 of PNG chunks (ISO 3309), bit by bit: test pictures are small.
fn crc32(parts: &[&[u8]]) -> u32 {
    let mut crc = !0u32;
    for byte in parts.iter().flat_map(|p| p.iter()) {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&crc32(&[kind, data]).to_be_bytes());
}

/// A zlib stream of stored (uncompressed) deflate blocks.
fn zlib_stored(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = if data.is_empty() { vec![&[]] } else { data.chunks(65_535).collect() };
    let last = blocks.len() - 1;
    for (i, block) in blocks.into_iter().enumerate() {
        out.push(u8::from(i == last));
        let len = block.len() as u16;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for byte in data {
        a = (a + u32::from(*byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    out.extend_from_slice(&((b << 16) | a).to_be_bytes());
    out
}

/// Adam7 passes: x step, x offset, y step, y offset.
const ADAM7: [[u32; 4]; 7] =
    [[8, 0, 8, 0], [8, 4, 8, 0], [4, 0, 8, 4], [4, 2, 4, 0], [2, 0, 4, 2], [2, 1, 2, 0], [1, 0, 2, 1]];

/// An 8-bit PNG of `channels` (1 grey, 2 grey and alpha, 3 RGB, 4 RGBA), Adam7-interlaced or
/// not, whose pixel (x, y) is `pixel(x, y)` (its first `channels` bytes).
pub(crate) fn png8(
    width: u32,
    height: u32,
    channels: u8,
    interlaced: bool,
    pixel: impl Fn(u32, u32) -> [u8; 4],
) -> Vec<u8> {
    let color = match channels {
        1 => 0,
        2 => 4,
        3 => 2,
        _ => 6,
    };
    let mut raw = Vec::new();
    let mut row = |y: u32, xs: &mut dyn Iterator<Item = u32>| {
        raw.push(0); // filter: none
        for x in xs {
            raw.extend_from_slice(&pixel(x, y)[..usize::from(channels)]);
        }
    };
    if interlaced {
        for [xs, xo, ys, yo] in ADAM7 {
            if width <= xo || height <= yo {
                continue;
            }
            for y in (yo..height).step_by(ys as usize) {
                row(y, &mut (xo..width).step_by(xs as usize));
            }
        }
    } else {
        for y in 0..height {
            row(y, &mut (0..width));
        }
    }
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, color, 0, 0, u8::from(interlaced)]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &zlib_stored(&raw));
    chunk(&mut out, b"IEND", &[]);
    out
}

/// The attacker's picture: 8192×4096, 16-bit RGBA (256 MB decoded), a few hundred KB of file.
/// The top half is red on the left and blue on the right, the bottom half transparent.
pub(crate) fn big_png16() -> &'static [u8] {
    static PNG: OnceLock<Vec<u8>> = OnceLock::new();
    PNG.get_or_init(|| png16(8192, 4096))
}

/// A `width`×`height` 16-bit RGBA PNG as [`big_png16`] describes.
pub(crate) fn png16(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Sixteen);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::Filter::Up);
    let Ok(mut writer) = encoder.write_header() else { return Vec::new() };
    let Ok(mut stream) = writer.stream_writer() else { return Vec::new() };
    let mut top = Vec::with_capacity(width as usize * 8);
    for x in 0..width {
        let px: [u16; 4] = if x < width / 2 { [0xFFFF, 0, 0, 0xFFFF] } else { [0, 0, 0xFFFF, 0xFFFF] };
        top.extend(px.iter().flat_map(|v| v.to_be_bytes()));
    }
    let bottom = vec![0u8; width as usize * 8];
    for y in 0..height {
        let row = if y < height / 2 { &top } else { &bottom };
        if std::io::Write::write_all(&mut stream, row).is_err() {
            return Vec::new();
        }
    }
    let _ = stream.finish();
    drop(writer);
    out
}

/// A progressive JPEG (4:4:4, so the costliest kind to decode) of `pixel(x, y)`.
pub(crate) fn progressive_jpeg(width: u16, height: u16, pixel: impl Fn(u32, u32) -> [u8; 3]) -> Vec<u8> {
    let mut rgb = Vec::with_capacity(usize::from(width) * usize::from(height) * 3);
    for y in 0..u32::from(height) {
        for x in 0..u32::from(width) {
            rgb.extend_from_slice(&pixel(x, y));
        }
    }
    let mut out = Vec::new();
    let mut encoder = jpeg_encoder::Encoder::new(&mut out, 90);
    encoder.set_progressive(true);
    encoder.set_sampling_factor(jpeg_encoder::SamplingFactor::F_1_1);
    let _ = encoder.encode(&rgb, width, height, jpeg_encoder::ColorType::Rgb);
    out
}

/// Decodes a JPEG (a copy this crate made) to check its pixels.
pub(crate) fn decode_jpeg(bytes: &[u8]) -> image::RgbImage {
    image::load_from_memory_with_format(bytes, image::ImageFormat::Jpeg)
        .map(|i| i.into_rgb8())
        .unwrap_or_else(|e| panic!("a JPEG: {e}"))
}

/// Whether two colours are within `by` of each other in every channel.
pub(crate) fn near(a: [u8; 3], b: [u8; 3], by: u8) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= by)
}
