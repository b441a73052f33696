//! Pictures decoded straight to a smaller size, within the decode memory budget
//! ([`crate::budget`]).
//!
//! - PNG is decoded row by row (the `png` crate, 16-bit channels stripped to 8, palettes and
//!   low-bit grey expanded), and each row is folded into the smaller picture as it comes: the
//!   memory is the small picture and a few rows, whatever the source's size. An Adam7-interlaced
//!   PNG sends its pixels in seven passes over the whole picture, so its rows cannot be finished
//!   one at a time: it is folded into an accumulator of the whole small picture instead (still
//!   the small size, never the large one).
//! - JPEG is decoded whole (zune-jpeg 0.5, through `image`, decodes neither at a reduced DCT
//!   scale nor row by row), then folded. Its cost is the pixels plus, for a progressive (or
//!   non-interleaved) file, the DCT coefficients of every component: both are reserved from the
//!   budget before decoding.
//!
//! Scaling is an area average (a box filter with fractional edges: every source pixel counts,
//! in proportion to how much of each target pixel it covers), on premultiplied alpha so
//! transparent pixels lend no colour to their neighbours.

use std::io::Cursor;

use image::{DynamicImage, ImageDecoder, RgbImage, RgbaImage};

use crate::MediaError;
use crate::budget::DecodeBudget;
use crate::image::{ImageKind, JpegFrame, jpeg_frame};

/// Memory every decode is counted with besides what it is estimated to hold: the decoders'
/// tables, inflate windows and small buffers.
const DECODER_OVERHEAD: u64 = 2 * 1024 * 1024;

/// The `width`×`height` picture in `bytes` (its size as stored, before any EXIF orientation),
/// decoded and scaled down to `target_width`×`target_height` (at most the source size), still
/// in its stored orientation. RGBA when the source has an alpha channel (or PNG transparency),
/// else RGB. Waits for, and holds while decoding, its share of `budget`.
pub(crate) fn decode_scaled(
    bytes: &[u8],
    kind: ImageKind,
    (width, height): (u32, u32),
    (target_width, target_height): (u32, u32),
    budget: &DecodeBudget,
) -> Result<DynamicImage, MediaError> {
    let target = (target_width.clamp(1, width.max(1)), target_height.clamp(1, height.max(1)));
    let decode = || match kind {
        ImageKind::Png => png_scaled(bytes, (width, height), target, budget),
        ImageKind::Jpeg => jpeg_scaled(bytes, (width, height), target, budget),
        ImageKind::Gif | ImageKind::Webp => Err(MediaError::UnsupportedType),
    };
    // The decoders are meant never to panic; should one on hostile bytes, the file is refused
    // rather than the thread lost (the budget's reservation is given back as it unwinds).
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(decode)).unwrap_or(Err(MediaError::Malformed))
}

/// What a PNG display copy holds at most: the scaler (see [`Downscaler::bytes`]), the decoder's
/// rows (the raw row, the previous one, the row being unfiltered and the expanded output row, at
/// most 8 bytes a pixel each) and its fixed overhead.
pub(crate) fn png_estimate(width: u32, target: (u32, u32), channels: usize, interlaced: bool) -> u64 {
    Downscaler::bytes(width, target, channels, interlaced) + 4 * 8 * u64::from(width) + DECODER_OVERHEAD
}

fn png_scaled(
    bytes: &[u8],
    (width, height): (u32, u32),
    target: (u32, u32),
    budget: &DecodeBudget,
) -> Result<DynamicImage, MediaError> {
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    decoder.set_ignore_text_chunk(true);
    let mut reader = decoder.read_info().map_err(|_| MediaError::Malformed)?;
    let info = reader.info();
    if info.size() != (width, height) {
        return Err(MediaError::Malformed);
    }
    let interlaced = info.interlaced;
    let channels = match reader.output_color_type() {
        (png::ColorType::Grayscale, png::BitDepth::Eight) => 1,
        (png::ColorType::GrayscaleAlpha, png::BitDepth::Eight) => 2,
        (png::ColorType::Rgb, png::BitDepth::Eight) => 3,
        (png::ColorType::Rgba, png::BitDepth::Eight) => 4,
        _ => return Err(MediaError::Malformed),
    };
    let _held = budget.reserve(png_estimate(width, target, channels, interlaced), width, height)?;
    let mut scaler = Downscaler::new((width, height), target, channels, interlaced);
    if interlaced {
        let mut passes = Adam7Lines::new(width, height);
        while let Some(row) = reader.next_interlaced_row().map_err(|_| MediaError::Malformed)? {
            let (pass, line) = passes.next().ok_or(MediaError::Malformed)?;
            // The decoder walks the passes in the same order; checked, not assumed.
            if !matches!(row.interlace(), png::InterlaceInfo::Adam7(a) if *a == png::Adam7Info::new(pass, line, width))
            {
                return Err(MediaError::Malformed);
            }
            let [x_step, x_offset, y_step, y_offset] = ADAM7[usize::from(pass - 1)];
            scaler.add_row(line * y_step + y_offset, x_offset, x_step, row.data());
        }
    } else {
        let mut y = 0;
        while let Some(row) = reader.next_row().map_err(|_| MediaError::Malformed)? {
            scaler.add_row(y, 0, 1, row.data());
            y += 1;
        }
        if y != height {
            return Err(MediaError::Malformed);
        }
    }
    Ok(scaler.finish())
}

/// The Adam7 passes: x step, x offset, y step, y offset (PNG specification, 8.2).
const ADAM7: [[u32; 4]; 7] =
    [[8, 0, 8, 0], [8, 4, 8, 0], [4, 0, 8, 4], [4, 2, 4, 0], [2, 0, 4, 2], [2, 1, 2, 0], [1, 0, 2, 1]];

/// The (pass, line) of each row of an interlaced PNG, in the order they are stored; passes
/// with no pixels (in a picture narrower or lower than 8) have no rows.
struct Adam7Lines {
    width: u32,
    height: u32,
    pass: u8,
    line: u32,
}

impl Adam7Lines {
    fn new(width: u32, height: u32) -> Adam7Lines {
        Adam7Lines { width, height, pass: 1, line: 0 }
    }
}

impl Iterator for Adam7Lines {
    type Item = (u8, u32);

    fn next(&mut self) -> Option<(u8, u32)> {
        while self.pass <= 7 {
            let [x_step, x_offset, y_step, y_offset] = ADAM7[usize::from(self.pass - 1)];
            let samples = self.width.saturating_sub(x_offset).div_ceil(x_step);
            let lines = self.height.saturating_sub(y_offset).div_ceil(y_step);
            if self.line < lines && samples > 0 {
                self.line += 1;
                return Some((self.pass, self.line - 1));
            }
            self.pass += 1;
            self.line = 0;
        }
        None
    }
}

/// What a JPEG display copy holds at most: the file copied by the decoder, the decoded pixels,
/// the DCT coefficients when the decoder must keep them all (progressive, or components in
/// separate scans), the scaler and the decoder's overhead.
pub(crate) fn jpeg_estimate(frame: &JpegFrame, file_bytes: usize, target: (u32, u32)) -> u64 {
    let (width, height) = (u64::from(frame.width), u64::from(frame.height));
    // zune-jpeg answers grey as one byte a pixel, everything else (YCbCr, RGB, CMYK) as RGB.
    let pixel_bytes = if frame.components.len() == 1 { 1 } else { 3 };
    let pixels = width * height * pixel_bytes;
    let coefficients = if frame.progressive || usize::from(frame.first_scan_components) < frame.components.len() {
        // Each component's blocks over the whole picture, padded to whole MCUs, 2 bytes a value.
        let h_max = u64::from(frame.components.iter().map(|c| c.0).max().unwrap_or(1).max(1));
        let v_max = u64::from(frame.components.iter().map(|c| c.1).max().unwrap_or(1).max(1));
        let mcus_across = width.div_ceil(8 * h_max);
        let mcus_down = height.div_ceil(8 * v_max);
        frame.components.iter().map(|&(h, v)| mcus_across * 8 * u64::from(h) * mcus_down * 8 * u64::from(v) * 2).sum()
    } else {
        // One row of MCUs at a time.
        width.div_ceil(8) * 8 * 32 * frame.components.len() as u64 * 2
    };
    let channels = if frame.components.len() == 4 { 4 } else { 3 };
    file_bytes as u64
        + pixels
        + coefficients
        + Downscaler::bytes(frame.width, target, channels, false)
        + DECODER_OVERHEAD
}

fn jpeg_scaled(
    bytes: &[u8],
    (width, height): (u32, u32),
    target: (u32, u32),
    budget: &DecodeBudget,
) -> Result<DynamicImage, MediaError> {
    let frame = jpeg_frame(bytes).ok_or(MediaError::Malformed)?;
    if (frame.width, frame.height) != (width, height) {
        return Err(MediaError::Malformed);
    }
    let estimate = jpeg_estimate(&frame, bytes.len(), target);
    let _held = budget.reserve(estimate, width, height)?;
    let mut decoder = image::codecs::jpeg::JpegDecoder::new(Cursor::new(bytes)).map_err(|_| MediaError::Malformed)?;
    let mut bounds = image::Limits::default();
    bounds.max_image_width = Some(width);
    bounds.max_image_height = Some(height);
    decoder.set_limits(bounds).map_err(|_| MediaError::Malformed)?;
    let color = decoder.color_type();
    let channels = usize::from(color.channel_count());
    let pixels = decoder.total_bytes();
    if decoder.dimensions() != (width, height)
        || u64::from(color.bytes_per_pixel()) != channels as u64
        || pixels != u64::from(width) * u64::from(height) * channels as u64
        || pixels > estimate
    {
        return Err(MediaError::Malformed);
    }
    let mut buffer = vec![0u8; usize::try_from(pixels).map_err(|_| MediaError::Malformed)?];
    decoder.read_image(&mut buffer).map_err(|_| MediaError::Malformed)?;
    let mut scaler = Downscaler::new((width, height), target, channels, false);
    let row_bytes = width as usize * channels;
    for (y, row) in (0..height).zip(buffer.chunks_exact(row_bytes)) {
        scaler.add_row(y, 0, 1, row);
    }
    drop(buffer);
    Ok(scaler.finish())
}

/// Where one source pixel (or row) lands: `w0` of it in target pixel `to`, `w1` in `to + 1`.
/// The weights are fractions of the target pixel, so a target pixel's weights add up to 1.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Span {
    to: usize,
    w0: f32,
    w1: f32,
}

/// Source pixel `at` of `source` spans `[at·target, (at+1)·target)` in units where target pixel
/// `j` spans `[j·source, (j+1)·source)`; exact in integers, so no pixel is lost to rounding.
fn span(at: u32, source: u32, target: u32) -> Span {
    let (source, target) = (u64::from(source.max(1)), u64::from(target));
    let start = u64::from(at) * target;
    let end = start + target;
    let to = start / source;
    let boundary = (to + 1) * source;
    let s = source as f32;
    if end <= boundary {
        Span { to: to as usize, w0: target as f32 / s, w1: 0.0 }
    } else {
        Span { to: to as usize, w0: (boundary - start) as f32 / s, w1: (end - boundary) as f32 / s }
    }
}

/// Folds rows of a large picture into a small one by area averaging. Rows of a sequential
/// picture come in order, and a target row is finished as soon as the source rows it covers
/// have all come: two target rows of sums are held. For an interlaced one (rows in any order,
/// each holding every `x_step`-th pixel) the sums of the whole target are held.
struct Downscaler {
    source: (u32, u32),
    target: (u32, u32),
    /// Bytes a source pixel: grey, grey and alpha, RGB, RGBA.
    source_channels: usize,
    /// 4 (premultiplied RGB and alpha) when the source has alpha, else 3.
    channels: usize,
    columns: Vec<Span>,
    /// The current source row folded to the target width.
    row: Vec<f32>,
    /// Sums of target rows: `first` and `first + 1`, or every row when `whole`.
    sums: Vec<f32>,
    whole: bool,
    first: u32,
    out: Vec<u8>,
}

impl Downscaler {
    fn new(source: (u32, u32), target: (u32, u32), source_channels: usize, whole: bool) -> Downscaler {
        let channels = if source_channels.is_multiple_of(2) { 4 } else { 3 };
        let width = target.0 as usize * channels;
        let rows = if whole { target.1 as usize } else { 2 };
        Downscaler {
            source,
            target,
            source_channels,
            channels,
            columns: (0..source.0).map(|x| span(x, source.0, target.0)).collect(),
            row: vec![0.0; width],
            sums: vec![0.0; width * rows],
            whole,
            first: 0,
            out: Vec::with_capacity(width * target.1 as usize),
        }
    }

    /// What [`Downscaler::new`] allocates (the sums are `f32`, the columns a [`Span`] each).
    fn bytes(source_width: u32, (width, height): (u32, u32), source_channels: usize, whole: bool) -> u64 {
        let channels = if source_channels.is_multiple_of(2) { 4 } else { 3 };
        let row = u64::from(width) * channels;
        let sum_rows = if whole { u64::from(height) } else { 2 };
        row * u64::from(height) + row * 4 * (1 + sum_rows) + u64::from(source_width) * 16
    }

    /// Folds in source row `y`, whose pixels are at `x_offset`, `x_offset + x_step`, …
    fn add_row(&mut self, y: u32, x_offset: u32, x_step: u32, data: &[u8]) {
        if y >= self.source.1 {
            return;
        }
        self.row.fill(0.0);
        let (x_offset, x_step) = (x_offset as usize, x_step.max(1) as usize);
        let columns = self.columns.get(x_offset..).unwrap_or_default().iter().step_by(x_step);
        let pixels = data.chunks_exact(self.source_channels);
        let row = &mut self.row;
        match self.source_channels {
            1 => fold::<3>(row, columns, pixels, |p| [f32::from(p[0]); 3]),
            2 => fold::<4>(row, columns, pixels, |p| {
                let a = f32::from(p[1]);
                let l = f32::from(p[0]) * a / 255.0;
                [l, l, l, a]
            }),
            3 => fold::<3>(row, columns, pixels, |p| [f32::from(p[0]), f32::from(p[1]), f32::from(p[2])]),
            _ => fold::<4>(row, columns, pixels, |p| {
                let a = f32::from(p[3]);
                let k = a / 255.0;
                [f32::from(p[0]) * k, f32::from(p[1]) * k, f32::from(p[2]) * k, a]
            }),
        }

        let down = span(y, self.source.1, self.target.1);
        let width = self.row.len();
        let at = if self.whole {
            down.to
        } else {
            while (self.first as usize) < down.to {
                self.finish_first_row();
            }
            match down.to.checked_sub(self.first as usize) {
                Some(at) => at,
                None => return, // out of order: cannot happen with the decoders used
            }
        };
        for (rows, weight) in [(at, down.w0), (at + 1, down.w1)] {
            if weight == 0.0 {
                continue;
            }
            if let Some(sums) = self.sums.get_mut(rows * width..(rows + 1) * width) {
                for (sum, value) in sums.iter_mut().zip(&self.row) {
                    *sum += value * weight;
                }
            }
        }
    }

    /// Writes out target row `first` (sequential mode) and moves the window down a row.
    fn finish_first_row(&mut self) {
        let width = self.row.len();
        let (done, next) = self.sums.split_at_mut(width);
        push_pixels(&mut self.out, done, self.channels);
        done.copy_from_slice(&next[..width]);
        next[..width].fill(0.0);
        self.first += 1;
    }

    fn finish(mut self) -> DynamicImage {
        if self.whole {
            push_pixels(&mut self.out, &self.sums, self.channels);
        } else {
            while self.first < self.target.1 {
                self.finish_first_row();
            }
        }
        let (width, height) = self.target;
        let image = if self.channels == 4 {
            RgbaImage::from_raw(width, height, self.out).map(DynamicImage::ImageRgba8)
        } else {
            RgbImage::from_raw(width, height, self.out).map(DynamicImage::ImageRgb8)
        };
        // The buffer has exactly width × height pixels: from_raw cannot fail.
        image.unwrap_or_else(|| DynamicImage::new_rgb8(width, height))
    }
}

/// Folds a row's pixels (converted to `C` channels by `pixel`) into `row` at their columns.
fn fold<'a, const C: usize>(
    row: &mut [f32],
    columns: impl Iterator<Item = &'a Span>,
    pixels: impl Iterator<Item = &'a [u8]>,
    pixel: impl Fn(&[u8]) -> [f32; C],
) {
    for (span, p) in columns.zip(pixels) {
        let value = pixel(p);
        let at = span.to * C;
        if let Some(cell) = row.get_mut(at..at + C) {
            for (sum, v) in cell.iter_mut().zip(value) {
                *sum += v * span.w0;
            }
        }
        if span.w1 > 0.0
            && let Some(cell) = row.get_mut(at + C..at + 2 * C)
        {
            for (sum, v) in cell.iter_mut().zip(value) {
                *sum += v * span.w1;
            }
        }
    }
}

/// Finished sums to 8-bit pixels; premultiplied colour is divided by its alpha again.
fn push_pixels(out: &mut Vec<u8>, sums: &[f32], channels: usize) {
    let byte = |v: f32| v.round().clamp(0.0, 255.0) as u8;
    if channels == 4 {
        for cell in sums.chunks_exact(4) {
            let a = cell[3];
            let k = if a > 0.0 { 255.0 / a } else { 0.0 };
            out.extend_from_slice(&[byte(cell[0] * k), byte(cell[1] * k), byte(cell[2] * k), byte(a)]);
        }
    } else {
        out.extend(sums.iter().map(|v| byte(*v)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_share_each_source_pixel_between_at_most_two_targets() {
        // 3 source pixels into 2: the middle one is split half and half.
        assert_eq!(span(0, 3, 2), Span { to: 0, w0: 2.0 / 3.0, w1: 0.0 });
        assert_eq!(span(1, 3, 2), Span { to: 0, w0: 1.0 / 3.0, w1: 1.0 / 3.0 });
        assert_eq!(span(2, 3, 2), Span { to: 1, w0: 2.0 / 3.0, w1: 0.0 });
        // Every target pixel's weights add up to one.
        for (source, target) in [(8192, 640), (1300, 640), (641, 640), (7, 7), (5, 1)] {
            let mut totals = vec![0.0f64; target as usize];
            for x in 0..source {
                let s = span(x, source, target);
                totals[s.to] += f64::from(s.w0);
                if s.w1 > 0.0 {
                    totals[s.to + 1] += f64::from(s.w1);
                }
            }
            assert!(totals.iter().all(|t| (t - 1.0).abs() < 1e-4), "{source}→{target}: {totals:?}");
        }
    }

    #[test]
    fn area_averaging_keeps_the_mean_and_the_edges() {
        // 4×2 RGB: left half black, right half white; to 2×1 and to 1×1.
        let row = [0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255];
        let mut two = Downscaler::new((4, 2), (2, 1), 3, false);
        two.add_row(0, 0, 1, &row);
        two.add_row(1, 0, 1, &row);
        assert_eq!(two.finish().into_rgb8().into_raw(), [0, 0, 0, 255, 255, 255]);
        let mut one = Downscaler::new((4, 2), (1, 1), 3, false);
        one.add_row(0, 0, 1, &row);
        one.add_row(1, 0, 1, &row);
        assert_eq!(one.finish().into_rgb8().into_raw(), [128, 128, 128]);
    }

    #[test]
    fn transparent_pixels_lend_no_colour() {
        // Opaque red beside fully transparent green: the average is red, half transparent.
        let mut s = Downscaler::new((2, 1), (1, 1), 4, false);
        s.add_row(0, 0, 1, &[255, 0, 0, 255, 0, 255, 0, 0]);
        assert_eq!(s.finish().into_rgba8().into_raw(), [255, 0, 0, 128]);
    }

    #[test]
    fn adam7_lines_follow_the_passes() {
        // An 8×8 picture: pass 1 has 1 line, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 4.
        let lines: Vec<_> = Adam7Lines::new(8, 8).collect();
        assert_eq!(lines.len(), 15);
        assert_eq!(lines[..4], [(1, 0), (2, 0), (3, 0), (4, 0)]);
        // 1×1: only the first pass has a pixel.
        assert_eq!(Adam7Lines::new(1, 1).collect::<Vec<_>>(), [(1, 0)]);
        // Every pixel is in exactly one pass.
        let (w, h) = (13u32, 11u32);
        let mut seen = vec![0u8; (w * h) as usize];
        for (pass, line) in Adam7Lines::new(w, h) {
            let [xs, xo, ys, yo] = ADAM7[usize::from(pass - 1)];
            let y = line * ys + yo;
            for x in (xo..w).step_by(xs as usize) {
                seen[(y * w + x) as usize] += 1;
            }
        }
        assert!(seen.iter().all(|n| *n == 1));
    }
}
