//! The entry point of the `mentions` fuzz target (`fuzz/`, `make fuzz`) and of the replay of
//! the inputs it found (`fuzz/regressions/mentions/`) by a plain `cargo test`: one function, so
//! both run the same code. Not an API.

use crate::input::mentioned_logins;

/// This crate's targets, by the name of their folder under `fuzz/regressions/`.
pub const TARGETS: &[media_validation::fuzzing::Target] = &[("mentions", mentions)];

/// The mention parser on any text (invalid UTF-8 is read lossily, as no text reaches it): no
/// panic, and what it finds is what spec §5 calls a mention.
pub fn mentions(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let found = mentioned_logins(&text);
    assert!(found.len() <= 20, "at most 20 mentions a text");
    for (i, login) in found.iter().enumerate() {
        assert!((3..=20).contains(&login.len()), "{login:?}: 3 to 20 characters");
        assert!(
            login.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-'),
            "{login:?}: lower-case login characters only"
        );
        assert!(!found[..i].contains(login), "{login:?}: each login once");
        assert!(text.to_ascii_lowercase().contains(&format!("@{login}")), "{login:?} is in the text");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn fuzz_regressions_replay_without_a_panic_in_bounded_time() {
        let replayed =
            media_validation::fuzzing::replay_regressions(super::TARGETS, std::time::Duration::from_secs(10));
        eprintln!("replayed {replayed} inputs found by fuzzing");
    }

    #[test]
    fn mentions_are_checked() {
        super::mentions(b"@ana @ANA x@bob @carl_1 \xff@dan");
    }
}
