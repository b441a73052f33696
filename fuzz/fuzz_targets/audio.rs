#![no_main]

// The crate refuses a file whose decoder panics (catch_unwind), as the server does: such a
// panic is printed, not counted as a crash. A panic that escapes the crate still is (libfuzzer-sys
// aborts on it).
libfuzzer_sys::fuzz_target!(
    init: std::panic::set_hook(Box::new(|info| eprintln!("panicked: {info}"))),
    |data: &[u8]| media_validation::fuzzing::audio(data)
);
