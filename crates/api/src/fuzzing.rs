//! The entry point of the `multipart` fuzz target (`fuzz/`, `make fuzz`) and of the replay of
//! the inputs it found (`fuzz/regressions/multipart/`) by a plain `cargo test`: one function, so
//! both run the same code. Not an API.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use actix_multipart::Multipart;
use actix_web::error::PayloadError;
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use bytes::Bytes;

use crate::error::ApiError;
use crate::upload::{self, FileRule, Narrow, Received, Sink, UploadRules};

/// This crate's targets, by the name of their folder under `fuzz/regressions/`.
pub const TARGETS: &[media_validation::fuzzing::Target] = &[("multipart", multipart)];

/// Polls of the reader before it counts as stuck: with the whole body in memory it never waits.
const MAX_POLLS: usize = 10_000;

/// Small limits, so that short inputs (libFuzzer starts at a few hundred bytes) reach every one.
fn rules() -> UploadRules {
    let narrow: Narrow = |head, _name| {
        if head.starts_with(b"MZ") {
            return Err(ApiError::unsupported_type("not accepted"));
        }
        Ok(head.starts_with(b"GIF").then(|| (32, "a GIF is smaller".to_owned())))
    };
    let file = |field, max_bytes, narrow| FileRule {
        field,
        max_bytes,
        too_large: |name| format!("{name} is too large"),
        sink: Sink::Memory,
        narrow,
    };
    UploadRules {
        files: vec![file("files", 256, Some(narrow)), file("avatar", 128, None)],
        texts: vec!["caption", "titles"],
        max_files: 3,
        too_many_files: "too many files".to_owned(),
        max_total: 768,
        total_too_large: "too large".to_owned(),
    }
}

/// The multipart reader on a body of any bytes: the input's first line is the boundary, its
/// next byte the size of the chunks the body arrives in (as a network would cut it), the rest
/// the body. The reader must end, with the files and texts within every limit, or with an error.
pub fn multipart(data: &[u8]) {
    let rules = rules();
    let Some(Ok(received)) = read(data, &rules) else { return };
    assert!(received.files.len() <= rules.max_files);
    let mut total = 0;
    for file in &received.files {
        let rule = rules.files.iter().find(|r| r.field == file.field);
        assert!(rule.is_some_and(|r| file.size <= r.max_bytes), "{} within its limit", file.field);
        if let upload::FileBody::Memory(bytes) = &file.body {
            assert_eq!(bytes.len() as u64, file.size);
        }
        total += file.size;
    }
    for (field, text) in &received.texts {
        assert!(rules.texts.contains(field) && values::hidden_character(text).is_none());
        total += text.len() as u64;
    }
    assert!(total <= rules.max_total);
}

/// What the reader makes of `data` (see [`multipart`]); `None` when there is no boundary line.
fn read(data: &[u8], rules: &UploadRules) -> Option<Result<Received, ApiError>> {
    let newline = data.iter().position(|b| *b == b'\n')?;
    let (boundary, rest) = (&data[..newline], &data[newline + 1..]);
    let (chunk, body) = rest.split_first()?;
    let boundary = std::str::from_utf8(boundary).ok()?;
    let content_type = HeaderValue::from_str(&format!("multipart/form-data; boundary={boundary}")).ok()?;
    let mut headers = HeaderMap::new();
    headers.insert(header::CONTENT_TYPE, content_type);
    let size = usize::from(*chunk % 64) + 1;
    let chunks: Vec<Result<Bytes, PayloadError>> = body.chunks(size).map(|c| Ok(Bytes::copy_from_slice(c))).collect();
    let form = Multipart::new(&headers, futures_util::stream::iter(chunks));
    let mut received = Received::default();
    Some(block_on(upload::read_into(form, rules, &mut received)).map(|()| received))
}

/// Runs a future whose every input is already in memory.
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..MAX_POLLS {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
    panic!("the multipart reader waits for ever on a body that is all in memory");
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
    fn a_well_formed_body_is_read_in_chunks_of_any_size() {
        for chunk in 0..64u8 {
            let body = format!(
                "b\n{}--b\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nhi\r\n--b\r\n\
                 Content-Disposition: form-data; name=\"files\"; filename=\"a.png\"\r\n\r\nPNG\r\n--b--\r\n",
                char::from(chunk)
            );
            let received = super::read(body.as_bytes(), &super::rules()).and_then(Result::ok);
            let received = received.unwrap_or_else(|| panic!("chunks of {}", chunk + 1));
            assert_eq!(received.texts("caption").collect::<Vec<_>>(), ["hi"]);
            assert_eq!(received.files.iter().map(|f| (f.field, f.size)).collect::<Vec<_>>(), [("files", 3)]);
            super::multipart(body.as_bytes());
        }
    }
}
