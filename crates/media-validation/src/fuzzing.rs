//! The entry points of the fuzz targets (`fuzz/`, cargo-fuzz on nightly: `make fuzz`), and of
//! the replay of the inputs they found (`fuzz/regressions/<target>/`) by a plain `cargo test`
//! on stable: one function per target, so both run exactly the same code. Each takes any bytes
//! and must return without a panic, in bounded time and memory, calling this crate as the
//! server does (the sizes the server bounds before calling are bounded here too).
//!
//! Not an API: hidden from the documentation, and it pulls in nothing this crate does not
//! already use.

use std::io::Cursor;

use crate::{
    ImageKind, analyze_audio, display_copy, image_facts, limits, parse_musicxml, parse_mxl, sniff_audio, sniff_image,
    sniff_media, sniff_score, strip_image_metadata,
};

/// The bytes the server sniffs before the rest of an upload arrives (`api::upload::SNIFF_BYTES`).
const SNIFF_BYTES: usize = 4096;
/// The width of feed copies (`posts`' `DISPLAY_WIDTH`).
const DISPLAY_WIDTH: u32 = 640;

/// A fuzz target: the name of its folder under `fuzz/regressions/`, and its entry function.
pub type Target = (&'static str, fn(&[u8]));

/// This crate's targets.
pub const TARGETS: &[Target] = &[
    ("musicxml", musicxml),
    ("mxl", mxl),
    ("sniff", sniff),
    ("image", image),
    ("audio", audio),
    ("audio_strip", audio_strip),
];

fn head(data: &[u8]) -> &[u8] {
    &data[..data.len().min(SNIFF_BYTES)]
}

/// A plain MusicXML upload: the score is read whole (the server bounds its size).
pub fn musicxml(data: &[u8]) {
    if data.len() as u64 > limits::MUSICXML_MAX_BYTES {
        return;
    }
    let _ = parse_musicxml(data);
}

/// An `.mxl` upload (a zip archive), read from memory as the server reads it from a file.
pub fn mxl(data: &[u8]) {
    if data.len() as u64 > limits::MUSICXML_MAX_BYTES {
        return;
    }
    let _ = parse_mxl(Cursor::new(data));
}

/// The type sniffers: of media posts, audio posts and scores on an upload's first bytes, and
/// of avatars and cover art (which walks the whole picture's container).
pub fn sniff(data: &[u8]) {
    let _ = sniff_media(head(data));
    let _ = sniff_audio(head(data));
    let _ = sniff_score(head(data));
    let _ = sniff_image(data, limits::COVER_MAX_SIDE, limits::COVER_MAX_PIXELS);
}

/// A picture as the server takes it: an avatar or a cover (sniffed, then stripped of its
/// metadata), and a media post's picture (its facts, the stripped copy, then the feed copy made
/// from that copy), within the crate's limits.
pub fn image(data: &[u8]) {
    if data.len() as u64 > limits::IMAGE_MAX_BYTES {
        return;
    }
    if let Ok(facts) = sniff_image(data, limits::COVER_MAX_SIDE, limits::COVER_MAX_PIXELS) {
        let _ = strip_image_metadata(data, facts.kind);
    }
    let Ok(facts) = image_facts(data, limits::IMAGE_MAX_SIDE, limits::IMAGE_MAX_PIXELS) else { return };
    let Ok(clean) = strip_image_metadata(data, facts.kind) else { return };
    if matches!(facts.kind, ImageKind::Png | ImageKind::Jpeg) {
        let _ = display_copy(&clean, facts.kind, DISPLAY_WIDTH);
    }
}

/// An audio upload: sniffed by its first bytes, decoded whole, its cover stripped.
pub fn audio(data: &[u8]) {
    if data.len() as u64 > limits::AUDIO_MAX_BYTES {
        return;
    }
    let Some(kind) = sniff_audio(head(data)) else { return };
    // The copy that is published, without its tags (`audio_clean`).
    let _ = crate::audio_clean::strip_audio_metadata(kind, Cursor::new(data), std::io::sink());
    if let Ok(facts) = analyze_audio(Cursor::new(data.to_vec()), kind)
        && let Some(cover) = facts.cover
    {
        let _ = strip_image_metadata(&cover.bytes, cover.kind);
    }
}

/// The audio metadata stripper alone, on the kind the first bytes say: [`audio`] runs it too,
/// but decoding makes that target a few hundred runs a second, and the stripper is a hand-made
/// reader of five containers.
pub fn audio_strip(data: &[u8]) {
    if data.len() as u64 > limits::AUDIO_MAX_BYTES {
        return;
    }
    let Some(kind) = sniff_audio(head(data)) else { return };
    let _ = crate::audio_clean::strip_audio_metadata(kind, Cursor::new(data), std::io::sink());
}

/// Replays every file under `fuzz/regressions/<target>/` (at the repository's root) for each of
/// `targets`: none may panic, and each must finish within `per_input` (generous: tests run
/// unoptimised). Shared by the replay tests of the crates that hold fuzz targets.
pub fn replay_regressions(targets: &[Target], per_input: std::time::Duration) -> usize {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let mut replayed = 0;
    for (target, run) in targets {
        let Ok(entries) = std::fs::read_dir(root.join(target)) else { continue };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths.into_iter().filter(|p| p.is_file()) {
            let Ok(bytes) = std::fs::read(&path) else { panic!("cannot read {}", path.display()) };
            let started = std::time::Instant::now();
            let outcome = std::panic::catch_unwind(|| run(&bytes));
            assert!(outcome.is_ok(), "{} panicked (above)", path.display());
            let took = started.elapsed();
            assert!(took <= per_input, "{}: {took:?}, more than {per_input:?}", path.display());
            replayed += 1;
        }
    }
    replayed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzz_regressions_replay_without_a_panic_in_bounded_time() {
        let replayed = replay_regressions(TARGETS, std::time::Duration::from_secs(10));
        eprintln!("replayed {replayed} inputs found by fuzzing");
    }

    /// A crash input filed under a misspelt folder would never be replayed.
    #[test]
    fn every_regression_folder_is_named_after_a_fuzz_target() {
        let fuzz = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
        let Ok(folders) = std::fs::read_dir(fuzz.join("regressions")) else { return };
        for folder in folders.filter_map(Result::ok).filter(|e| e.path().is_dir()) {
            let name = folder.file_name().to_string_lossy().into_owned();
            let target = fuzz.join("fuzz_targets").join(format!("{name}.rs"));
            assert!(target.is_file(), "fuzz/regressions/{name}/: no fuzz target fuzz/fuzz_targets/{name}.rs");
        }
    }

    #[test]
    fn every_target_takes_nothing_and_garbage() {
        for (_, run) in TARGETS {
            run(b"");
            run(&[0xFF; 100]);
        }
    }
}
