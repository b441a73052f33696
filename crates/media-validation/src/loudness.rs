//! A track's loudness (EBU R128, ITU-R BS.1770): its integrated loudness in LUFS and its true
//! peak in dBTP, measured in the decode pass that also finds its duration and waveform
//! ([`crate::audio`]). The player evens tracks out with them (docs/posts.md, "Loudness"); the
//! file itself is never changed.
//!
//! Memory is bounded whatever the length: the meter keeps a histogram of its 400 ms blocks'
//! energies (a fixed size), not every block, so an hour costs what a minute does. A mono track
//! is measured as dual mono, as it plays: on both speakers.

use ebur128::{Channel, EbuR128, Mode};

/// What measuring a track found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Loudness {
    /// Integrated (gated) loudness over the whole track, LUFS.
    pub integrated_lufs: f64,
    /// The highest true peak of any channel (oversampled four times below 96 kHz), dBTP.
    pub true_peak_dbtp: f64,
}

/// BS.1770's absolute gate: a track quieter than this throughout is silence, whose loudness is
/// not a number to even out by.
const SILENCE_LUFS: f64 = -70.0;

/// Measures a track fed buffer by buffer, as it is decoded. A stream whose sample rate or
/// channel count changes midway (an MP3 may) is not measured: its loudness stays unknown, as a
/// silent track's does.
#[derive(Default)]
pub struct LoudnessMeter {
    meter: Option<EbuR128>,
    given_up: bool,
}

impl LoudnessMeter {
    /// Adds `samples`, interleaved over `channels`, at `rate` frames a second.
    pub fn push_interleaved(&mut self, samples: &[f32], channels: usize, rate: u32) {
        if self.given_up {
            return;
        }
        if self.meter.is_none() {
            self.meter = start(channels, rate);
        }
        let measured = match &mut self.meter {
            Some(m) if m.channels() as usize == channels && m.rate() == rate => m.add_frames_f32(samples).is_ok(),
            _ => false,
        };
        if !measured {
            self.given_up = true;
            self.meter = None;
        }
    }

    /// The track's loudness, unless it could not be measured or is silence.
    pub fn finish(self) -> Option<Loudness> {
        let meter = self.meter?;
        let integrated_lufs = meter.loudness_global().ok().filter(|l| l.is_finite() && *l > SILENCE_LUFS)?;
        let peak = (0..meter.channels()).filter_map(|c| meter.true_peak(c).ok()).fold(0.0f64, f64::max);
        let true_peak_dbtp = 20.0 * peak.log10();
        true_peak_dbtp.is_finite().then_some(Loudness { integrated_lufs, true_peak_dbtp })
    }
}

fn start(channels: usize, rate: u32) -> Option<EbuR128> {
    let channels = u32::try_from(channels).ok()?;
    let mut meter = EbuR128::new(channels, rate, Mode::I | Mode::TRUE_PEAK | Mode::HISTOGRAM).ok()?;
    if channels == 1 {
        meter.set_channel(0, Channel::DualMono).ok()?;
    }
    Some(meter)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `seconds` of a sine at `hz` and `dbfs`, interleaved over `channels` (each the same).
    fn sine(hz: f64, dbfs: f64, seconds: f64, rate: u32, channels: usize) -> Vec<f32> {
        let amplitude = 10f64.powf(dbfs / 20.0);
        let frames = (seconds * f64::from(rate)) as usize;
        (0..frames)
            .flat_map(|i| {
                let v = (amplitude * (2.0 * std::f64::consts::PI * hz * i as f64 / f64::from(rate)).sin()) as f32;
                std::iter::repeat_n(v, channels)
            })
            .collect()
    }

    fn measured(samples: &[f32], channels: usize, rate: u32) -> Loudness {
        match measure(samples, channels, rate) {
            Some(l) => l,
            None => panic!("not measured"),
        }
    }

    fn measure(samples: &[f32], channels: usize, rate: u32) -> Option<Loudness> {
        let mut meter = LoudnessMeter::default();
        // In packets of 1,152 frames, as an MP3 decodes.
        for chunk in samples.chunks(1152 * channels) {
            meter.push_interleaved(chunk, channels, rate);
        }
        meter.finish()
    }

    #[test]
    fn a_sine_at_minus_23_dbfs_reads_minus_23_lufs() {
        // EBU Tech 3341, case 1: a stereo 1 kHz sine at −23 dBFS in both channels.
        let l = measured(&sine(1000.0, -23.0, 20.0, 48_000, 2), 2, 48_000);
        assert!((l.integrated_lufs + 23.0).abs() <= 0.1, "{l:?}");
        assert!((l.true_peak_dbtp + 23.0).abs() <= 0.2, "{l:?}");
        let l = measured(&sine(1000.0, -33.0, 20.0, 44_100, 2), 2, 44_100);
        assert!((l.integrated_lufs + 33.0).abs() <= 0.1, "{l:?}");
    }

    #[test]
    fn mono_is_measured_as_it_plays_on_two_speakers() {
        let l = measured(&sine(1000.0, -23.0, 10.0, 44_100, 1), 1, 44_100);
        assert!((l.integrated_lufs + 23.0).abs() <= 0.1, "{l:?}");
    }

    #[test]
    fn silence_and_changing_streams_are_not_measured() {
        assert_eq!(measure(&vec![0.0; 48_000 * 4], 2, 48_000), None);
        let mut meter = LoudnessMeter::default();
        meter.push_interleaved(&sine(440.0, -20.0, 1.0, 44_100, 2), 2, 44_100);
        meter.push_interleaved(&sine(440.0, -20.0, 1.0, 48_000, 2), 2, 48_000);
        assert_eq!(meter.finish(), None);
        assert_eq!(LoudnessMeter::default().finish(), None);
    }

    #[test]
    fn the_true_peak_sees_between_the_samples() {
        // A sine at a quarter of the rate, phased so that every sample falls 3 dB below its
        // crest: the samples peak at −3 dBFS, the wave itself at 0 dBTP.
        let rate = 48_000u32;
        let samples: Vec<f32> = (0..rate as usize * 5)
            .flat_map(|i| {
                let v = (std::f64::consts::FRAC_PI_2 * i as f64 + std::f64::consts::FRAC_PI_4).sin() as f32;
                [v, v]
            })
            .collect();
        let l = measured(&samples, 2, rate);
        assert!(l.true_peak_dbtp > -0.6, "{l:?}");
    }
}
