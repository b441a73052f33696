//! The display copy of a picture for feeds: a JPEG about `max_width` pixels wide, upright, so a
//! feed of phone photos does not download megabytes each. The original stays for the full-size
//! view.
//!
//! Only PNG and JPEG get one. GIF and WebP are served as they are: the `image` crate is built
//! with the JPEG and PNG codecs only (each codec is more hostile-input surface and build time),
//! a GIF's animation would be lost in a JPEG, and WebP is already a compact web format the
//! browser scales.

use std::io::Cursor;

use image::{DynamicImage, ImageFormat, ImageReader, Limits, metadata::Orientation};

use crate::image::{ImageKind, image_facts, jpeg_orientation};
use crate::{MediaError, limits};

/// JPEG quality of display copies: no visible loss at feed size, about a third of quality 95.
const QUALITY: u8 = 82;
/// Decoder memory: enough for the largest picture accepted in 8-bit RGBA
/// ([`limits::IMAGE_MAX_PIXELS`] × 4 bytes) with room for the decoder's own buffers; a file
/// that would need more (16-bit channels at the largest size) is refused rather than decoded.
const MAX_DECODER_ALLOC: u64 = 256 * 1024 * 1024;

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
    let format = match kind {
        ImageKind::Png => ImageFormat::Png,
        ImageKind::Jpeg => ImageFormat::Jpeg,
        ImageKind::Gif | ImageKind::Webp => return Ok(None),
    };
    // The header's size first: a tiny file claiming a huge picture is refused before decoding.
    let facts = image_facts(bytes, limits::IMAGE_MAX_SIDE, limits::IMAGE_MAX_PIXELS)?;
    if facts.kind != kind {
        return Err(MediaError::UnsupportedType);
    }
    let orientation = match kind {
        ImageKind::Jpeg => jpeg_orientation(bytes).and_then(|o| u8::try_from(o).ok()).and_then(Orientation::from_exif),
        _ => None,
    }
    .unwrap_or(Orientation::NoTransforms);
    let (shown_width, shown_height) = facts.shown_size();
    if shown_width <= max_width || max_width == 0 {
        return Ok(None);
    }
    let target_width = max_width;
    let target_height = scaled(shown_height, target_width, shown_width);

    let image = std::panic::catch_unwind(|| decode(bytes, format, facts.width, facts.height))
        .unwrap_or(Err(MediaError::Malformed))?;
    // Scale in the stored orientation (the target turned back if needed), then turn the small
    // picture upright: cheaper than turning the large one.
    let (w, h) = if facts.quarter_turned { (target_height, target_width) } else { (target_width, target_height) };
    let mut small = image.thumbnail_exact(w, h);
    drop(image);
    small.apply_orientation(orientation);
    let rgb = on_white(small);
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, QUALITY)
        .encode_image(&rgb)
        .map_err(|_| MediaError::Malformed)?;
    Ok(Some(DisplayCopy { bytes: out, width: rgb.width(), height: rgb.height() }))
}

/// `value × numerator / denominator`, rounded, at least 1.
fn scaled(value: u32, numerator: u32, denominator: u32) -> u32 {
    let exact = u64::from(value) * u64::from(numerator);
    let d = u64::from(denominator.max(1));
    u32::try_from(((exact + d / 2) / d).max(1)).unwrap_or(u32::MAX)
}

fn decode(bytes: &[u8], format: ImageFormat, width: u32, height: u32) -> Result<DynamicImage, MediaError> {
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut bounds = Limits::default();
    bounds.max_image_width = Some(limits::IMAGE_MAX_SIDE);
    bounds.max_image_height = Some(limits::IMAGE_MAX_SIDE);
    bounds.max_alloc = Some(MAX_DECODER_ALLOC);
    reader.limits(bounds);
    reader.decode().map_err(|e| match e {
        image::ImageError::Limits(_) => MediaError::TooManyPixels {
            width,
            height,
            max_side: limits::IMAGE_MAX_SIDE,
            max_pixels: limits::IMAGE_MAX_PIXELS,
        },
        _ => MediaError::Malformed,
    })
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
    use super::*;

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
}
