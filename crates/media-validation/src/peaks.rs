//! The waveform of a track: min/max pairs per bin, 8-bit signed, not normalised (the BBC
//! audiowaveform convention: a sample of full scale is ±127), so a quiet recording looks quiet.
//!
//! The duration is unknown until the last frame is decoded, so [`PeakAccumulator`] collects
//! bins at a fine resolution and, whenever it holds [`FINE_MAX_BINS`], merges neighbours
//! pairwise and doubles the frames per bin: memory stays fixed whatever the length, and the
//! result is brought down to about [`TARGET_BINS`] at the end.

/// How many bins analysis returns (fewer for clips shorter than that many frames).
pub const TARGET_BINS: usize = 1000;
/// The most bins held while decoding (16 KiB × 2 floats).
const FINE_MAX_BINS: usize = 16 * 1024;

/// A waveform: one (min, max) pair per bin, in time order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Peaks {
    pub bins: Vec<(i8, i8)>,
}

impl Peaks {
    /// At most `n` bins, each the min of mins and max of maxes of the bins it covers (so a
    /// click in one bin survives). Fewer bins than `n` are kept as they are.
    pub fn downsample(&self, n: usize) -> Peaks {
        if n == 0 {
            return Peaks::default();
        }
        let len = self.bins.len();
        if len <= n {
            return self.clone();
        }
        let bins = (0..n)
            .map(|i| {
                // Bin i covers [i·len/n, (i+1)·len/n): every source bin once, none empty.
                let (from, to) = (i * len / n, (i + 1) * len / n);
                self.bins[from..to].iter().fold((i8::MAX, i8::MIN), |(lo, hi), (a, b)| (lo.min(*a), hi.max(*b)))
            })
            .collect();
        Peaks { bins }
    }

    /// The wire form: min, max, min, max… each an i8 as its two's-complement byte.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.bins.iter().flat_map(|(lo, hi)| [lo.to_ne_bytes()[0], hi.to_ne_bytes()[0]]).collect()
    }
}

/// A sample in [-1, 1] as an 8-bit peak value (full scale is ±127; out-of-range floats clip).
fn quantize(sample: f32) -> i8 {
    if sample.is_nan() {
        return 0;
    }
    (sample * 127.0).round().clamp(-128.0, 127.0) as i8
}

/// Bins of min/max at a resolution that coarsens as audio arrives (see the module comment).
#[derive(Debug)]
pub(crate) struct PeakAccumulator {
    bins: Vec<(f32, f32)>,
    frames_per_bin: u64,
    /// The bin being filled and how many frames it holds.
    current: (f32, f32),
    in_current: u64,
}

impl PeakAccumulator {
    pub(crate) fn new() -> Self {
        PeakAccumulator {
            bins: Vec::with_capacity(FINE_MAX_BINS),
            frames_per_bin: 1,
            current: (f32::INFINITY, f32::NEG_INFINITY),
            in_current: 0,
        }
    }

    /// Adds interleaved frames of `channels` samples; each frame's extremes over all channels
    /// count (so a sound in one channel only still shows).
    pub(crate) fn push_interleaved(&mut self, samples: &[f32], channels: usize) {
        for frame in samples.chunks(channels.max(1)) {
            let (lo, hi) =
                frame.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), s| (lo.min(*s), hi.max(*s)));
            self.current = (self.current.0.min(lo), self.current.1.max(hi));
            self.in_current += 1;
            if self.in_current == self.frames_per_bin {
                self.close_bin();
            }
        }
    }

    fn close_bin(&mut self) {
        self.bins.push(self.current);
        self.current = (f32::INFINITY, f32::NEG_INFINITY);
        self.in_current = 0;
        if self.bins.len() == FINE_MAX_BINS {
            // Merge neighbours: half as many bins, each covering twice the frames.
            let merged = self.bins.chunks(2).map(|p| p.iter().fold(p[0], |(lo, hi), (a, b)| (lo.min(*a), hi.max(*b))));
            self.bins = merged.collect();
            self.frames_per_bin = self.frames_per_bin.saturating_mul(2);
        }
    }

    /// The waveform, about `target` bins (fewer when fewer frames were pushed).
    pub(crate) fn finish(mut self, target: usize) -> Peaks {
        if self.in_current > 0 {
            self.bins.push(self.current);
        }
        let bins = self.bins.iter().map(|(lo, hi)| (quantize(*lo), quantize(*hi))).collect();
        Peaks { bins }.downsample(target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantizing_is_not_normalising() {
        assert_eq!(quantize(1.0), 127);
        assert_eq!(quantize(-1.0), -127);
        assert_eq!(quantize(0.1), 13, "a quiet sample stays small");
        assert_eq!(quantize(0.0), 0);
        assert_eq!(quantize(7.0), 127, "clips");
        assert_eq!(quantize(-7.0), -128);
        assert_eq!(quantize(f32::NAN), 0);
    }

    #[test]
    fn downsampling_keeps_extremes_and_covers_every_bin() {
        let peaks = Peaks { bins: vec![(-1, 1), (-100, 2), (-3, 3), (-4, 90), (-5, 5)] };
        assert_eq!(peaks.downsample(2).bins, vec![(-100, 2), (-5, 90)]);
        assert_eq!(peaks.downsample(1).bins, vec![(-100, 90)]);
        assert_eq!(peaks.downsample(5), peaks);
        assert_eq!(peaks.downsample(50), peaks, "never more bins than there are");
        assert_eq!(peaks.downsample(0).bins, vec![]);
        assert_eq!(Peaks::default().downsample(10).bins, vec![]);
    }

    #[test]
    fn bytes_interleave_min_and_max() {
        let peaks = Peaks { bins: vec![(-1, 127), (-128, 0)] };
        assert_eq!(peaks.to_bytes(), vec![0xFF, 0x7F, 0x80, 0x00]);
    }

    #[test]
    fn accumulator_memory_stays_bounded_and_order_is_kept() {
        let mut acc = PeakAccumulator::new();
        // 1,000,000 frames of stereo: quiet in the first half, loud in the second, with the
        // loud part only in the right channel.
        let n = 1_000_000usize;
        let mut block = Vec::with_capacity(2 * 1000);
        for start in (0..n).step_by(1000) {
            block.clear();
            for i in start..start + 1000 {
                let s = if i % 2 == 0 { 1.0 } else { -1.0 };
                let (l, r) = if i < n / 2 { (0.1 * s, 0.0) } else { (0.0, 0.9 * s) };
                block.extend_from_slice(&[l, r]);
            }
            acc.push_interleaved(&block, 2);
            assert!(acc.bins.len() < FINE_MAX_BINS);
        }
        let peaks = acc.finish(TARGET_BINS);
        assert_eq!(peaks.bins.len(), TARGET_BINS);
        assert_eq!(peaks.bins[10], (-13, 13));
        assert_eq!(peaks.bins[990], (-114, 114));
    }

    #[test]
    fn short_clips_give_fewer_bins() {
        let mut acc = PeakAccumulator::new();
        acc.push_interleaved(&[0.5, -0.5, 0.25], 1);
        assert_eq!(acc.finish(TARGET_BINS).bins, vec![(64, 64), (-64, -64), (32, 32)]);
        assert_eq!(PeakAccumulator::new().finish(TARGET_BINS).bins, vec![]);
    }
}
