//! Pictures: sniffing, facts, stripping that still decodes, display copies (size, orientation,
//! transparency), and what is refused.

use media_validation::{
    ImageKind, MediaError, MediaKind, display_copy, image_facts, limits, sniff_image, sniff_media, strip_image_metadata,
};

use crate::tools::{ffmpeg, head};

const BIG: u32 = 10_000;

/// Decodes a display copy (a JPEG) to check its pixels.
fn decode_jpeg(bytes: &[u8]) -> image::RgbImage {
    image::load_from_memory_with_format(bytes, image::ImageFormat::Jpeg).expect("a JPEG").into_rgb8()
}

#[test]
fn a_wide_png_or_jpeg_gets_a_640_pixel_jpeg_copy() {
    let Some(f) = ffmpeg("a_wide_png_or_jpeg_gets_a_640_pixel_jpeg_copy", &["png", "mjpeg"]) else { return };
    for (name, kind) in [("wide.png", ImageKind::Png), ("wide.jpg", ImageKind::Jpeg)] {
        let bytes = f.make(name, &["-f", "lavfi", "-i", "testsrc2=s=2000x1000", "-frames:v", "1"]);
        assert_eq!(sniff_media(head(&bytes)), Some(MediaKind::Image(kind)));
        let facts = image_facts(&bytes, BIG, 1 << 30).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((facts.kind, facts.width, facts.height, facts.quarter_turned), (kind, 2000, 1000, false));
        assert_eq!(sniff_image(&bytes, BIG, 1 << 30), Ok(facts), "avatars accept it too");
        let clean = strip_image_metadata(&bytes, kind).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(f.decodes(&format!("clean-{name}"), &clean), "{name}: the stripped copy decodes");
        let copy = display_copy(&clean, kind, 640).unwrap_or_else(|e| panic!("{name}: {e}")).expect("a copy");
        assert_eq!((copy.width, copy.height), (640, 320), "{name}");
        assert_eq!(decode_jpeg(&copy.bytes).dimensions(), (640, 320));
        assert!(copy.bytes.len() < clean.len(), "{name}: smaller than the original");
    }
}

#[test]
fn small_pictures_are_served_as_they_are() {
    let Some(f) = ffmpeg("small_pictures_are_served_as_they_are", &["png", "mjpeg"]) else { return };
    for (name, kind) in [("small.png", ImageKind::Png), ("small.jpg", ImageKind::Jpeg)] {
        let bytes = f.make(name, &["-f", "lavfi", "-i", "testsrc2=s=640x900", "-frames:v", "1"]);
        assert_eq!(display_copy(&bytes, kind, 640), Ok(None), "{name}");
    }
}

/// An APP1 EXIF segment (little-endian TIFF) with an orientation and a GPS pointer.
fn exif_segment(orientation: u16) -> Vec<u8> {
    let mut tiff = b"II*\0\x08\0\0\0".to_vec();
    tiff.extend_from_slice(&2u16.to_le_bytes());
    tiff.extend_from_slice(&[0x12, 0x01, 3, 0, 1, 0, 0, 0]);
    tiff.extend_from_slice(&orientation.to_le_bytes());
    tiff.extend_from_slice(&[0, 0]);
    tiff.extend_from_slice(&[0x25, 0x88, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    tiff.extend_from_slice(&[0, 0, 0, 0]);
    tiff.extend_from_slice(b"GPS 48.8566N 2.3522E");
    let mut segment = vec![0xFF, 0xE1];
    segment.extend_from_slice(&((tiff.len() + 8) as u16).to_be_bytes());
    segment.extend_from_slice(b"Exif\0\0");
    segment.extend(tiff);
    segment
}

#[test]
fn an_exif_rotated_photo_gets_an_upright_copy() {
    let Some(f) = ffmpeg("an_exif_rotated_photo_gets_an_upright_copy", &["mjpeg"]) else { return };
    // Stored landscape, 1200×800: red on the left, blue on the right. Orientation 6 shows it
    // turned a quarter clockwise: portrait 800×1200, red on top.
    let stored = f.make(
        "stored.jpg",
        &[
            "-f",
            "lavfi",
            "-i",
            "color=red:s=600x800",
            "-f",
            "lavfi",
            "-i",
            "color=blue:s=600x800",
            "-filter_complex",
            "hstack",
            "-frames:v",
            "1",
            "-q:v",
            "2",
        ],
    );
    let mut photo = stored[..2].to_vec();
    photo.extend(exif_segment(6));
    photo.extend_from_slice(&stored[2..]);

    let facts = image_facts(&photo, BIG, 1 << 30).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((facts.width, facts.height, facts.quarter_turned), (1200, 800, true));
    assert_eq!(facts.shown_size(), (800, 1200));
    let clean = strip_image_metadata(&photo, ImageKind::Jpeg).unwrap_or_else(|e| panic!("{e}"));
    assert!(!String::from_utf8_lossy(&clean).contains("GPS"), "the location is gone");
    assert_eq!(image_facts(&clean, BIG, 1 << 30), Ok(facts), "the orientation stays");
    assert!(f.decodes("clean.jpg", &clean));

    let copy = display_copy(&clean, ImageKind::Jpeg, 640).unwrap_or_else(|e| panic!("{e}")).expect("a copy");
    assert_eq!((copy.width, copy.height), (640, 960));
    let pixels = decode_jpeg(&copy.bytes);
    assert_eq!(pixels.dimensions(), (640, 960), "turned in its pixels: the copy has no orientation");
    let [r, _, b] = pixels.get_pixel(320, 200).0;
    assert!(r > 200 && b < 60, "red on top: {:?}", pixels.get_pixel(320, 200));
    let [r, _, b] = pixels.get_pixel(320, 760).0;
    assert!(b > 200 && r < 60, "blue below: {:?}", pixels.get_pixel(320, 760));
}

#[test]
fn transparent_pixels_lie_on_white() {
    let Some(f) = ffmpeg("transparent_pixels_lie_on_white", &["png"]) else { return };
    let bytes = f.make(
        "logo.png",
        &["-f", "lavfi", "-i", "color=c=black@0.0:s=1000x500,format=rgba", "-frames:v", "1", "-pix_fmt", "rgba"],
    );
    let copy = display_copy(&bytes, ImageKind::Png, 640).unwrap_or_else(|e| panic!("{e}")).expect("a copy");
    let pixels = decode_jpeg(&copy.bytes);
    assert!(pixels.get_pixel(100, 100).0.iter().all(|c| *c > 245), "{:?}", pixels.get_pixel(100, 100));
}

#[test]
fn gif_and_webp_are_kept_as_they_are_without_their_metadata() {
    let Some(f) = ffmpeg("gif_and_webp_are_kept_as_they_are_without_their_metadata", &["gif", "libwebp"]) else {
        return;
    };
    let source = ["-f", "lavfi", "-i", "testsrc2=s=320x240:d=0.3:r=10"];
    let gif = f.make("moving.gif", &[&source[..], &["-loop", "0"]].concat());
    let webp = f.make("still.webp", &[&source[..], &["-frames:v", "1", "-c:v", "libwebp"]].concat());
    for (bytes, kind, name) in [(gif, ImageKind::Gif, "clean.gif"), (webp, ImageKind::Webp, "clean.webp")] {
        assert_eq!(sniff_media(head(&bytes)), Some(MediaKind::Image(kind)));
        assert_eq!(sniff_image(&bytes, BIG, 1 << 30), Err(MediaError::UnsupportedType), "not an avatar");
        let facts = image_facts(&bytes, BIG, 1 << 30).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        assert_eq!((facts.kind, facts.width, facts.height), (kind, 320, 240));
        let clean = strip_image_metadata(&bytes, kind).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        assert!(f.decodes(name, &clean), "{kind:?}: the stripped copy decodes");
        assert_eq!(image_facts(&clean, BIG, 1 << 30), Ok(facts));
        assert_eq!(display_copy(&clean, kind, 100), Ok(None), "{kind:?} has no display copy");
    }
}

#[test]
fn text_named_like_a_picture_is_refused() {
    let files: [&[u8]; 4] = [
        b"<!DOCTYPE html><html><body><img src=x onerror=alert(1)></body></html>",
        b"<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>",
        b"just some text, saved as photo.png\n",
        b"",
    ];
    for bytes in files {
        assert_eq!(sniff_media(head(bytes)), None);
        assert_eq!(sniff_image(bytes, BIG, 1 << 30), Err(MediaError::UnsupportedType));
        assert_eq!(image_facts(bytes, BIG, 1 << 30), Err(MediaError::UnsupportedType));
        assert_eq!(display_copy(bytes, ImageKind::Png, 640), Err(MediaError::UnsupportedType));
        assert_eq!(display_copy(bytes, ImageKind::Jpeg, 640), Err(MediaError::UnsupportedType));
    }
}

#[test]
fn truncated_pictures_are_refused() {
    let Some(f) = ffmpeg("truncated_pictures_are_refused", &["png", "mjpeg", "gif", "libwebp"]) else { return };
    let source = ["-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1"];
    for name in ["cut.png", "cut.jpg", "cut.gif", "cut.webp"] {
        let bytes = f.make(name, &source);
        assert!(image_facts(&bytes, BIG, 1 << 30).is_ok(), "{name} whole");
        for cut in [bytes.len() / 10, bytes.len() / 2, bytes.len() - 3] {
            assert_eq!(image_facts(&bytes[..cut], BIG, 1 << 30), Err(MediaError::Malformed), "{name} cut at {cut}");
        }
    }
}

#[test]
fn a_picture_too_large_to_decode_is_refused_before_decoding() {
    let Some(f) = ffmpeg("a_picture_too_large_to_decode_is_refused_before_decoding", &["png"]) else { return };
    // A real 8000×6000 PNG of one colour: a few hundred KB that would take 144 MB to hold
    // decoded; 48 million pixels is past the bound.
    let bytes = f.make("huge.png", &["-f", "lavfi", "-i", "color=gray:s=8000x6000", "-frames:v", "1"]);
    assert!(bytes.len() < 2_000_000);
    let started = std::time::Instant::now();
    assert!(matches!(display_copy(&bytes, ImageKind::Png, 640), Err(MediaError::TooManyPixels { .. })));
    assert!(started.elapsed().as_millis() < 500, "refused from the header: {:?}", started.elapsed());
    assert!(matches!(
        image_facts(&bytes, limits::IMAGE_MAX_SIDE, limits::IMAGE_MAX_PIXELS),
        Err(MediaError::TooManyPixels { width: 8000, height: 6000, .. })
    ));
}
