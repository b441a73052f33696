//! The memory a display copy takes, measured: a counting global allocator sees every byte the
//! decoders allocate. It counts the whole process, so this binary holds one test, which measures
//! one thing at a time.

#![allow(clippy::expect_used)]

use media_validation::budget::DECODE_BUDGET;
use media_validation::{ImageKind, display_copy};
use peak_alloc::PeakAlloc;

#[global_allocator]
static ALLOCATED: PeakAlloc = PeakAlloc;

const MB: usize = 1024 * 1024;

/// The attacker's PNG: 8192×4096 16-bit RGBA, 256 MB decoded, a few hundred KB of file.
fn png16(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Sixteen);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::Filter::Up);
    let mut writer = encoder.write_header().expect("a header");
    let mut stream = writer.stream_writer().expect("a stream");
    let row: Vec<u8> =
        (0..width).flat_map(|x| [(x % 65_536) as u16, 0x8000, 0x1234, 0xFFFF]).flat_map(u16::to_be_bytes).collect();
    for _ in 0..height {
        std::io::Write::write_all(&mut stream, &row).expect("a row");
    }
    stream.finish().expect("the end");
    drop(writer);
    out
}

fn make_jpeg(width: u16, height: u16, progressive: bool) -> Vec<u8> {
    let rgb: Vec<u8> =
        (0..u32::from(height)).flat_map(|y| (0..u32::from(width)).flat_map(move |x| [x as u8, y as u8, 128])).collect();
    let mut out = Vec::new();
    let mut encoder = jpeg_encoder::Encoder::new(&mut out, 90);
    if progressive {
        encoder.set_progressive(true);
        encoder.set_sampling_factor(jpeg_encoder::SamplingFactor::F_1_1);
    }
    encoder.encode(&rgb, width, height, jpeg_encoder::ColorType::Rgb).expect("a JPEG");
    out
}

/// The most bytes allocated at once while `f` runs, beyond what was allocated before.
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATED.current_usage();
    ALLOCATED.reset_peak_usage();
    let out = f();
    (out, ALLOCATED.peak_usage().saturating_sub(before))
}

#[test]
fn display_copies_take_memory_by_their_output_not_their_source() {
    // A 16-bit 8192×4096 PNG: 256 MB when decoded whole (as it was), a few MB row by row.
    let png = png16(8192, 4096);
    assert!(png.len() < 4 * MB, "{} bytes", png.len());
    let (copy, peak) = peak_during(|| display_copy(&png, ImageKind::Png, 640));
    let copy = copy.expect("a copy").expect("a copy");
    assert_eq!((copy.width, copy.height), (640, 320));
    assert!(peak < 64 * MB, "a PNG display copy took {} MB at its peak", peak / MB);
    eprintln!("16-bit 8192×4096 PNG: {:.1} MB at the peak", peak as f64 / MB as f64);
    assert_eq!(DECODE_BUDGET.in_use(), 0, "the budget is given back");

    // A progressive 4:4:4 JPEG is decoded whole, with every DCT coefficient: its peak is what the
    // budget reserves for it (pixels 3 bytes and coefficients 6 bytes a pixel), not more.
    let (width, height) = (3000u16, 2000u16);
    let jpeg = make_jpeg(width, height, true);
    let (copy, peak) = peak_during(|| display_copy(&jpeg, ImageKind::Jpeg, 640));
    let copy = copy.expect("a copy").expect("a copy");
    assert_eq!((copy.width, copy.height), (640, 427));
    let reserved = usize::from(width) * usize::from(height) * 9 + jpeg.len() + 2 * MB;
    assert!(peak <= reserved, "a progressive JPEG took {} MB, {} MB reserved", peak / MB, reserved / MB);
    eprintln!("progressive 3000×2000 JPEG: {:.1} MB at the peak", peak as f64 / MB as f64);

    // A baseline 4:2:0 JPEG keeps one row of blocks at a time besides its pixels.
    let jpeg = make_jpeg(width, height, false);
    let (copy, peak) = peak_during(|| display_copy(&jpeg, ImageKind::Jpeg, 640));
    assert!(matches!(copy, Ok(Some(_))));
    let reserved = usize::from(width) * usize::from(height) * 3 + jpeg.len() + 3 * MB;
    assert!(peak <= reserved, "a baseline JPEG took {} MB, {} MB reserved", peak / MB, reserved / MB);
    eprintln!("baseline 3000×2000 JPEG: {:.1} MB at the peak", peak as f64 / MB as f64);
}
