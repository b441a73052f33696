//! The kinds of failure. Each crate's error enum says *what* went wrong in its own variants and
//! *what kind* of failure that is through [`DomainError::kind`]; the HTTP layer turns a kind into
//! a status in one place, so a new crate or variant never needs a new line there.

use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input breaks a rule; the error's text says which (400).
    Invalid,
    /// The input is not even of the right shape: a string where a number belongs, a body that
    /// is not JSON (422).
    Malformed,
    /// Nobody is signed in, or the credentials are wrong (401).
    Unauthenticated,
    /// Signed in, but not allowed (403).
    Forbidden,
    /// What was asked for does not exist, or is not visible to the asker (404).
    NotFound,
    /// The request collides with the current state, e.g. a value that must be unique (409).
    Conflict,
    /// Larger than a limit allows (413).
    TooLarge,
    /// A file or body of a kind that is not accepted (415).
    UnsupportedType,
    /// Too many requests; try again after the given time (429 with `Retry-After`).
    Throttled { retry_after: Duration },
    /// Another service we depend on answered wrongly (502).
    Upstream,
    /// A part we depend on is missing or busy right now; trying later may work (503).
    Unavailable,
    /// A fault of ours. The text is logged with its cause chain, never shown (500).
    Internal,
}

/// An error that knows its kind. Its `Display` is what a person reads, unless
/// [`DomainError::is_public`] says it is only for the log.
pub trait DomainError: std::error::Error + Send + Sync + 'static {
    fn kind(&self) -> ErrorKind;

    /// Whether the text is written for the person. By default, faults of ours and of the parts
    /// we depend on are not (they would show internals); a person reads a neutral sentence and
    /// the log gets the cause chain.
    fn is_public(&self) -> bool {
        !matches!(self.kind(), ErrorKind::Internal | ErrorKind::Unavailable)
    }
}

/// An error and its causes on one line (`outer: inner: root`), for logs.
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}
