//! media-validation against real files: audio, pictures and videos made by ffmpeg, scores and
//! hostile archives made by hand. One test binary for the crate, one module per area.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod audio;
mod audio_clean;
mod images;
mod scores;
mod tools;
mod video;
