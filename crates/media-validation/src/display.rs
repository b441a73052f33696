//! Smaller copies of pictures, made by decoding straight to the smaller size ([`crate::scale`])
//! within the decode memory budget ([`crate::budget`]):
//! - the display copy for feeds: a JPEG about `max_width` pixels wide, upright, so a feed of
//!   phone photos does not download megabytes each (the original stays for the full-size view);
//! - avatars, scaled to the size they are shown at.
//!
//! Only PNG and JPEG are scaled. GIF and WebP are served as they are: the `image` crate is built
//! with the JPEG and PNG codecs only (each codec is more hostile-input surface and build time),
//! a GIF's animation would be lost in a JPEG, and WebP is already a compact web format the
//! browser scales.

use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::{DynamicImage, ImageEncoder, metadata::Orientation};

use crate::budget::{DECODE_BUDGET, DecodeBudget};
use crate::image::{ImageFacts, ImageKind, image_facts, jpeg_orientation};
use crate::scale::decode_scaled;
use crate::{MediaError, limits};

/// JPEG quality of display copies: no visible loss at feed size, about a third of quality 95.
const QUALITY: u8 = 82;
/// JPEG quality of avatars: small pictures, looked at closely on a profile.
const AVATAR_QUALITY: u8 = 85;

/// A JPEG copy of a picture for feeds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisplayCopy {
    pub bytes: Vec<u8>,
    /// The copy's size as shown (its pixels are upright: it carries no orientation).
    pub width: u32,
    pub height: u32,
}

/// A JPEG `max_width` pixels wide, of a PNG or JPEG that shows wider than that; `None` when
/// the picture is already narrow enough (serve it as is) or is a GIF or WebP (see the module
/// comment). Give it the stripped bytes that will be served: the copy follows the orientation
/// those keep (a JPEG's EXIF orientation; a PNG's is stripped, so none), so both look alike.
/// Transparent pixels are laid on white.
pub fn display_copy(bytes: &[u8], kind: ImageKind, max_width: u32) -> Result<Option<DisplayCopy>, MediaError> {
    display_copy_within(bytes, kind, max_width, &DECODE_BUDGET)
}

/// [`display_copy`], drawing on `budget`.
pub(crate) fn display_copy_within(
    bytes: &[u8],
    kind: ImageKind,
    max_width: u32,
    budget: &DecodeBudget,
) -> Result<Option<DisplayCopy>, MediaError> {
    if matches!(kind, ImageKind::Gif | ImageKind::Webp) {
        return Ok(None);
    }
    let facts = facts_of(bytes, kind)?;
    let (shown_width, shown_height) = facts.shown_size();
    if shown_width <= max_width || max_width == 0 {
        return Ok(None);
    }
    let target = (max_width, scaled(shown_height, max_width, shown_width));
    let small = shrink(bytes, &facts, target, budget)?;
    let rgb = on_white(small);
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, QUALITY).encode_image(&rgb).map_err(|_| MediaError::Malformed)?;
    Ok(Some(DisplayCopy { bytes: out, width: rgb.width(), height: rgb.height() }))
}

/// A picture re-encoded at a smaller size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScaledPicture {
    pub bytes: Vec<u8>,
    /// PNG when the picture has transparent pixels, else JPEG.
    pub kind: ImageKind,
    /// The picture's size (its pixels are upright: it carries no orientation).
    pub width: u32,
    pub height: u32,
}

/// An avatar scaled down, keeping its proportions, so that neither side is over `max_side`:
/// a PNG if it has transparent pixels (an avatar is shown on the page's own background), else
/// a JPEG. `None` when the picture is already that small (serve the stripped original) or is a
/// GIF or WebP (not scaled: see the module comment). Give it stripped bytes, as to
/// [`display_copy`].
pub fn avatar_copy(bytes: &[u8], kind: ImageKind, max_side: u32) -> Result<Option<ScaledPicture>, MediaError> {
    avatar_copy_within(bytes, kind, max_side, &DECODE_BUDGET)
}

fn avatar_copy_within(
    bytes: &[u8],
    kind: ImageKind,
    max_side: u32,
    budget: &DecodeBudget,
) -> Result<Option<ScaledPicture>, MediaError> {
    if matches!(kind, ImageKind::Gif | ImageKind::Webp) {
        return Ok(None);
    }
    let facts = facts_of(bytes, kind)?;
    let (shown_width, shown_height) = facts.shown_size();
    let longer = shown_width.max(shown_height);
    if longer <= max_side || max_side == 0 {
        return Ok(None);
    }
    let target = (scaled(shown_width, max_side, longer), scaled(shown_height, max_side, longer));
    let small = shrink(bytes, &facts, target, budget)?;
    let (width, height) = (small.width(), small.height());
    let transparent = small.as_rgba8().is_some_and(|p| p.pixels().any(|px| px.0[3] < 255));
    let mut out = Vec::new();
    let kind = if transparent {
        let rgba = small.into_rgba8();
        PngEncoder::new(&mut out)
            .write_image(rgba.as_raw(), width, height, image::ExtendedColorType::Rgba8)
            .map_err(|_| MediaError::Malformed)?;
        ImageKind::Png
    } else {
        JpegEncoder::new_with_quality(&mut out, AVATAR_QUALITY)
            .encode_image(&on_white(small))
            .map_err(|_| MediaError::Malformed)?;
        ImageKind::Jpeg
    };
    Ok(Some(ScaledPicture { bytes: out, kind, width, height }))
}

/// The facts of a PNG or JPEG that `kind` says it is, within the pixel limits: a tiny file
/// claiming a huge picture is refused before decoding.
fn facts_of(bytes: &[u8], kind: ImageKind) -> Result<ImageFacts, MediaError> {
    let facts = image_facts(bytes, limits::IMAGE_MAX_SIDE, limits::IMAGE_MAX_PIXELS)?;
    if facts.kind != kind {
        return Err(MediaError::UnsupportedType);
    }
    Ok(facts)
}

/// The picture decoded at `target` (its size as shown) and turned upright.
fn shrink(
    bytes: &[u8],
    facts: &ImageFacts,
    (width, height): (u32, u32),
    budget: &DecodeBudget,
) -> Result<DynamicImage, MediaError> {
    let orientation = match facts.kind {
        ImageKind::Jpeg => jpeg_orientation(bytes).and_then(|o| u8::try_from(o).ok()).and_then(Orientation::from_exif),
        _ => None,
    }
    .unwrap_or(Orientation::NoTransforms);
    // Scaled in the stored orientation (the target turned back if need be), then the small
    // picture is turned upright: cheaper than turning the large one.
    let stored_target = if facts.quarter_turned { (height, width) } else { (width, height) };
    let mut small = decode_scaled(bytes, facts.kind, (facts.width, facts.height), stored_target, budget)?;
    small.apply_orientation(orientation);
    Ok(small)
}

/// `value × numerator / denominator`, rounded, at least 1.
fn scaled(value: u32, numerator: u32, denominator: u32) -> u32 {
    let exact = u64::from(value) * u64::from(numerator);
    let d = u64::from(denominator.max(1));
    u32::try_from(((exact + d / 2) / d).max(1)).unwrap_or(u32::MAX)
}

/// Opaque 8-bit RGB, transparent pixels blended onto white (JPEG has no alpha; black, the
/// default of dropping alpha, turns a transparent logo into a black square).
fn on_white(image: DynamicImage) -> image::RgbImage {
    if !image.color().has_alpha() {
        return image.into_rgb8();
    }
    let rgba = image.into_rgba8();
    let mut rgb = image::RgbImage::new(rgba.width(), rgba.height());
    for (out, px) in rgb.pixels_mut().zip(rgba.pixels()) {
        let [r, g, b, a] = px.0;
        let blend = |c: u8| ((u16::from(c) * u16::from(a) + 255 * (255 - u16::from(a)) + 127) / 255) as u8;
        *out = image::Rgb([blend(r), blend(g), blend(b)]);
    }
    rgb
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;
    use std::thread;

    use image::ImageFormat;

    use super::*;
    use crate::test_images::{big_png16, decode_jpeg, near, png8, png16, progressive_jpeg};

    #[test]
    fn scaling_rounds_and_never_reaches_zero() {
        assert_eq!(scaled(1000, 640, 2000), 320);
        assert_eq!(scaled(1, 640, 8000), 1);
        assert_eq!(scaled(333, 640, 1000), 213);
        assert_eq!(scaled(5, 5, 0), 25);
    }

    #[test]
    fn transparency_lies_on_white() {
        let mut rgba = image::RgbaImage::new(2, 1);
        rgba.put_pixel(0, 0, image::Rgba([0, 0, 0, 0]));
        rgba.put_pixel(1, 0, image::Rgba([0, 0, 0, 255]));
        let rgb = on_white(DynamicImage::ImageRgba8(rgba));
        assert_eq!(rgb.get_pixel(0, 0).0, [255, 255, 255]);
        assert_eq!(rgb.get_pixel(1, 0).0, [0, 0, 0]);
    }

    #[test]
    fn gif_and_webp_have_no_display_copy() {
        assert_eq!(display_copy(b"GIF89a", ImageKind::Gif, 640), Ok(None));
        assert_eq!(display_copy(b"RIFF", ImageKind::Webp, 640), Ok(None));
    }

    #[test]
    fn the_kind_must_match_the_bytes() {
        let png = test_png(700, 10);
        assert_eq!(display_copy(&png, ImageKind::Jpeg, 640), Err(MediaError::UnsupportedType));
        assert_eq!(display_copy(b"<svg>", ImageKind::Png, 640), Err(MediaError::UnsupportedType));
    }

    fn test_png(width: u32, height: u32) -> Vec<u8> {
        let image = DynamicImage::ImageRgb8(image::RgbImage::from_pixel(width, height, image::Rgb([10, 200, 30])));
        let mut out = Cursor::new(Vec::new());
        let _ = image.write_to(&mut out, ImageFormat::Png);
        out.into_inner()
    }

    #[test]
    fn a_wide_png_becomes_a_narrow_jpeg() {
        let copy = display_copy(&test_png(1300, 100), ImageKind::Png, 640).unwrap_or_default();
        let copy = copy.unwrap_or_else(|| panic!("a copy"));
        assert_eq!((copy.width, copy.height), (640, 49));
        assert!(copy.bytes.starts_with(&[0xFF, 0xD8, 0xFF]));
        assert_eq!(display_copy(&test_png(640, 100), ImageKind::Png, 640), Ok(None), "narrow enough");
    }

    #[test]
    fn a_header_that_lies_about_the_size_is_refused_before_decoding() {
        let mut png = test_png(700, 10);
        png[16..20].copy_from_slice(&9000u32.to_be_bytes()); // IHDR width
        assert!(matches!(display_copy(&png, ImageKind::Png, 640), Err(MediaError::TooManyPixels { .. })));
        let mut png = test_png(700, 10);
        png[20..24].copy_from_slice(&5000u32.to_be_bytes()); // height: within bounds, but lies
        assert_eq!(display_copy(&png, ImageKind::Png, 640), Err(MediaError::Malformed));
    }

    /// The copy a call made, or the test fails saying why not.
    fn made<T>(result: Result<Option<T>, MediaError>) -> T {
        match result {
            Ok(Some(copy)) => copy,
            Ok(None) => panic!("no copy made"),
            Err(e) => panic!("{e}"),
        }
    }

    const RED: [u8; 3] = [255, 0, 0];
    const BLUE: [u8; 3] = [0, 0, 255];
    const WHITE: [u8; 3] = [255, 255, 255];

    #[test]
    fn a_16_bit_8192_by_4096_png_makes_a_correct_640_pixel_copy() {
        let png = big_png16();
        assert!(png.len() < 2 * 1024 * 1024, "a small file: {} bytes", png.len());
        let copy = made(display_copy(png, ImageKind::Png, 640));
        assert_eq!((copy.width, copy.height), (640, 320));
        let pixels = decode_jpeg(&copy.bytes);
        assert_eq!(pixels.dimensions(), (640, 320));
        // Red and blue meet in the middle; the transparent half lies on white.
        for (x, y, colour) in [(100, 50, RED), (310, 150, RED), (330, 150, BLUE), (600, 10, BLUE), (320, 250, WHITE)] {
            assert!(near(pixels.get_pixel(x, y).0, colour, 8), "({x}, {y}): {:?}", pixels.get_pixel(x, y));
        }
    }

    #[test]
    fn a_large_progressive_jpeg_makes_a_correct_copy() {
        // Upper half green, lower half a dark-to-light grey ramp from left to right.
        let jpeg =
            progressive_jpeg(3000, 2000, |x, y| if y < 1000 { [0, 200, 0] } else { [(x * 255 / 2999) as u8; 3] });
        let Some(frame) = crate::image::jpeg_frame(&jpeg) else { panic!("a frame") };
        assert!(frame.progressive && frame.components == [(1, 1); 3]);
        let copy = made(display_copy(&jpeg, ImageKind::Jpeg, 640));
        assert_eq!((copy.width, copy.height), (640, 427));
        let pixels = decode_jpeg(&copy.bytes);
        assert!(near(pixels.get_pixel(320, 100).0, [0, 200, 0], 10), "{:?}", pixels.get_pixel(320, 100));
        assert!(near(pixels.get_pixel(5, 400).0, [2, 2, 2], 10), "{:?}", pixels.get_pixel(5, 400));
        assert!(near(pixels.get_pixel(320, 400).0, [128, 128, 128], 10), "{:?}", pixels.get_pixel(320, 400));
        assert!(near(pixels.get_pixel(635, 400).0, [253, 253, 253], 10), "{:?}", pixels.get_pixel(635, 400));
    }

    #[test]
    fn a_progressive_jpeg_reserves_its_coefficients() {
        let jpeg = progressive_jpeg(1000, 800, |_, _| [90, 90, 90]);
        let Some(frame) = crate::image::jpeg_frame(&jpeg) else { panic!("a frame") };
        let estimate = crate::scale::jpeg_estimate(&frame, jpeg.len(), (640, 512));
        // Pixels (3 bytes) and coefficients (3 components × 2 bytes) of 1000×800.
        assert!(estimate >= 1000 * 800 * 9, "{estimate}");
        let short = DecodeBudget::new(1000 * 800 * 3);
        assert!(matches!(
            display_copy_within(&jpeg, ImageKind::Jpeg, 640, &short),
            Err(MediaError::TooLargeToDecode { width: 1000, height: 800, .. })
        ));
        let enough = DecodeBudget::new(estimate);
        assert!(matches!(display_copy_within(&jpeg, ImageKind::Jpeg, 640, &enough), Ok(Some(_))));
        assert_eq!(enough.in_use(), 0, "given back");
    }

    #[test]
    fn an_interlaced_png_makes_the_same_copy_as_a_plain_one() {
        let pixel = |x: u32, y: u32| [(x * 255 / 1299) as u8, (y * 255 / 699) as u8, ((x ^ y) & 0xFF) as u8, 255];
        let plain = png8(1300, 700, 3, false, pixel);
        let interlaced = png8(1300, 700, 3, true, pixel);
        assert_ne!(plain, interlaced);
        let copy = made(display_copy(&interlaced, ImageKind::Png, 640));
        assert_eq!((copy.width, copy.height), (640, 345));
        // The same pixels either way (before JPEG, whose rounding could differ by more).
        let scaled = |bytes: &[u8]| {
            let budget = DecodeBudget::new(64 * 1024 * 1024);
            crate::scale::decode_scaled(bytes, ImageKind::Png, (1300, 700), (640, 345), &budget)
                .map(|i| i.into_rgb8())
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let (a, b) = (scaled(&plain), scaled(&interlaced));
        let worst =
            a.pixels().zip(b.pixels()).flat_map(|(p, q)| p.0.into_iter().zip(q.0).map(|(x, y)| x.abs_diff(y))).max();
        assert!(worst.unwrap_or(255) <= 1, "the same picture either way: {worst:?}");
        let shown = decode_jpeg(&copy.bytes);
        assert!(near(shown.get_pixel(320, 172).0, a.get_pixel(320, 172).0, 16));
        // And a small interlaced picture (passes without pixels) with transparency.
        let tiny = png8(700, 5, 2, true, |x, _| [0, if x < 350 { 0 } else { 255 }, 0, 0]);
        let copy = made(display_copy(&tiny, ImageKind::Png, 640));
        let pixels = decode_jpeg(&copy.bytes);
        assert!(near(pixels.get_pixel(10, 2).0, WHITE, 8) && near(pixels.get_pixel(630, 2).0, [0, 0, 0], 8));
    }

    #[test]
    fn a_picture_beyond_the_whole_budget_is_refused_and_one_that_does_not_fit_waits() {
        let png = test_png(2000, 1000);
        let small = DecodeBudget::new(1024 * 1024);
        assert!(matches!(
            display_copy_within(&png, ImageKind::Png, 640, &small),
            Err(MediaError::TooLargeToDecode { width: 2000, height: 1000, .. })
        ));
        let budget = DecodeBudget::new(16 * 1024 * 1024);
        let held = budget.reserve(15 * 1024 * 1024, 1, 1);
        thread::scope(|s| {
            let copy = s.spawn(|| display_copy_within(&png, ImageKind::Png, 640, &budget));
            while budget.waiting() == 0 {
                thread::yield_now();
            }
            assert!(!copy.is_finished());
            drop(held);
            let copy = copy.join().unwrap_or(Err(MediaError::Malformed));
            assert_eq!(copy.map(|c| c.map(|c| (c.width, c.height))), Ok(Some((640, 320))));
        });
    }

    #[test]
    fn avatars_are_scaled_to_fit_and_keep_their_proportions() {
        let photo = png8(4000, 3000, 3, false, |x, _| if x < 2000 { [255, 0, 0, 255] } else { [0, 0, 255, 255] });
        let avatar = made(avatar_copy(&photo, ImageKind::Png, 512));
        assert_eq!((avatar.kind, avatar.width, avatar.height), (ImageKind::Jpeg, 512, 384), "opaque: a JPEG");
        let pixels = decode_jpeg(&avatar.bytes);
        assert_eq!(pixels.dimensions(), (512, 384));
        assert!(near(pixels.get_pixel(100, 100).0, RED, 8) && near(pixels.get_pixel(400, 300).0, BLUE, 8));
        // Tall, and already small enough.
        let tall = png8(300, 1200, 1, false, |_, _| [128; 4]);
        let avatar = made(avatar_copy(&tall, ImageKind::Png, 512));
        assert_eq!((avatar.width, avatar.height), (128, 512));
        assert_eq!(avatar_copy(&png8(512, 300, 3, false, |_, _| [1; 4]), ImageKind::Png, 512), Ok(None));
        assert_eq!(avatar_copy(b"GIF89a", ImageKind::Gif, 512), Ok(None));
    }

    #[test]
    fn transparent_avatars_stay_png_and_opaque_alpha_becomes_jpeg() {
        let logo = png8(1000, 1000, 4, false, |x, y| [200, 0, 0, if (x / 100 + y / 100) % 2 == 0 { 0 } else { 255 }]);
        let avatar = made(avatar_copy(&logo, ImageKind::Png, 512));
        assert_eq!((avatar.kind, avatar.width, avatar.height), (ImageKind::Png, 512, 512));
        let pixels = image::load_from_memory_with_format(&avatar.bytes, ImageFormat::Png).map(|i| i.into_rgba8());
        let pixels = pixels.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(pixels.get_pixel(20, 20).0[3], 0, "transparent stays transparent");
        assert_eq!(pixels.get_pixel(70, 20).0, [200, 0, 0, 255]);
        let opaque = png8(1000, 1000, 4, false, |_, _| [0, 90, 0, 255]);
        let avatar = made(avatar_copy(&opaque, ImageKind::Png, 512));
        assert_eq!(avatar.kind, ImageKind::Jpeg, "an alpha channel with nothing transparent");
    }

    #[test]
    fn a_16_bit_png_avatar_is_scaled() {
        let png = png16(2048, 1024);
        let avatar = made(avatar_copy(&png, ImageKind::Png, 512));
        assert_eq!((avatar.kind, avatar.width, avatar.height), (ImageKind::Png, 512, 256), "half is transparent");
    }
}
