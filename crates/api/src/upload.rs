//! The one reader of multipart uploads. It enforces every limit *while streaming* — the size of
//! each file, the number of files, the size of the whole body — and refuses at the chunk that
//! crosses a limit, so memory per upload stays bounded whatever is sent. Each file goes where
//! its rule says: into memory (small files a parser reads whole) or to a temporary file (files
//! of any size, which parsers may seek, and which storage then streams from disk). If the request
//! fails halfway, its temporary files are deleted (on drop) before the error is answered.
//!
//! actix-multipart 0.8's parser buffers at most 64 KiB of a field.

use std::io::Write;

use actix_multipart::{Multipart, MultipartError};
use actix_web::HttpRequest;
use actix_web::http::header;
use bytes::{Bytes, BytesMut};
use futures_util::TryStreamExt;

use crate::error::{ApiError, clip};

/// How much of a file is gathered before it is judged: enough for every signature we sniff.
pub const SNIFF_BYTES: usize = 4096;

/// Judges a file by its first bytes (at most [`SNIFF_BYTES`], or all of a shorter file), given
/// them and the file's name: refuses it (e.g. 415 for bytes of an unaccepted kind), or narrows
/// its size limit with the detail for crossing it (a picture among videos), or leaves it be.
pub type Narrow = fn(&[u8], &str) -> Result<Option<(u64, String)>, ApiError>;

/// Where the bytes of one kind of file go.
#[derive(Clone)]
pub enum Sink {
    /// Kept in memory; fine for files of a few megabytes that are read whole anyway.
    Memory,
    /// A temporary file, deleted when dropped; for large files and parsers that seek.
    TempFile,
}

/// One kind of file field.
#[derive(Clone)]
pub struct FileRule {
    /// The multipart field name (`avatar`, `audio_files`, `files`, ...).
    pub field: &'static str,
    /// The largest file accepted, in bytes; one byte more is refused with `too_large`.
    pub max_bytes: u64,
    /// The detail for a file over `max_bytes`, given the file's name.
    pub too_large: fn(&str) -> String,
    pub sink: Sink,
    /// Judges the file by its first bytes, so a file of the wrong kind, or one over the limit
    /// of its kind, is refused before the rest is read.
    pub narrow: Option<Narrow>,
}

/// The limits of one upload call.
#[derive(Clone)]
pub struct UploadRules {
    pub files: Vec<FileRule>,
    /// Text fields that are read (`titles`, `artists`, `caption`, ...); others are skipped.
    pub texts: Vec<&'static str>,
    /// Most files in one request, with the detail for one more.
    pub max_files: usize,
    pub too_many_files: String,
    /// The whole body's limit in bytes, with the detail for crossing it.
    pub max_total: u64,
    pub total_too_large: String,
}

/// The most a text field may hold, and how many there may be: titles and captions are short.
const TEXT_MAX_BYTES: usize = 16 * 1024;
const TEXT_MAX_FIELDS: usize = 64;
/// Parts of any kind one request may have (files, texts, and fields that are skipped): a body of
/// empty parts is no cheaper to parse than one of full ones.
const MAX_PARTS: usize = 128;
/// What a part's boundary and headers count against the body's limit, besides its name.
const PART_OVERHEAD: usize = 64;
/// Room for multipart boundaries and headers on top of the files themselves.
const FRAMING_ALLOWANCE: u64 = 64 * 1024;

pub enum FileBody {
    Memory(Bytes),
    TempFile(tempfile::NamedTempFile),
}

pub struct ReceivedFile {
    pub field: &'static str,
    /// The name the client gave (for messages only: the bytes decide the type).
    pub file_name: String,
    pub size: u64,
    pub body: FileBody,
}

/// What a request carried, in the order it was sent.
#[derive(Default)]
pub struct Received {
    pub files: Vec<ReceivedFile>,
    pub texts: Vec<(&'static str, String)>,
}

impl Received {
    /// The text fields named `field`, in order (a repeated field is a list).
    pub fn texts(&self, field: &str) -> impl Iterator<Item = &str> {
        self.texts.iter().filter(move |(f, _)| *f == field).map(|(_, v)| v.as_str())
    }
}

fn multipart_error(e: MultipartError) -> ApiError {
    match e {
        MultipartError::ContentTypeMissing
        | MultipartError::ContentTypeParse
        | MultipartError::ContentTypeIncompatible
        | MultipartError::BoundaryMissing => ApiError::unsupported_type("Send the files as multipart/form-data"),
        // The body stopped or trickled (`body_timeout`): say so.
        MultipartError::Payload(actix_web::error::PayloadError::Io(e)) => {
            ApiError::invalid(format!("Could not read the upload: {}", clip(e)))
        }
        other => ApiError::invalid(format!("Could not read the upload: {}", clip(other))),
    }
}

fn internal(what: &str, e: impl std::fmt::Display) -> ApiError {
    ApiError::new(values::ErrorKind::Internal, format!("{what}: {e}"))
}

/// Reads a multipart request under `rules`. On any error, what was already received is dropped
/// (temporary files are deleted).
pub async fn read(req: &HttpRequest, form: Multipart, rules: &UploadRules) -> Result<Received, ApiError> {
    let declared =
        req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > rules.max_total + FRAMING_ALLOWANCE) {
        // Refused before a byte is read.
        return Err(ApiError::too_large(rules.total_too_large.clone()));
    }
    let mut received = Received::default();
    read_into(form, rules, &mut received).await?;
    Ok(received)
}

pub(crate) async fn read_into(
    mut form: Multipart,
    rules: &UploadRules,
    received: &mut Received,
) -> Result<(), ApiError> {
    let mut total: u64 = 0;
    let mut count_total = |n: usize| -> Result<(), ApiError> {
        total += n as u64;
        if total > rules.max_total { Err(ApiError::too_large(rules.total_too_large.clone())) } else { Ok(()) }
    };
    let mut parts = 0usize;
    while let Some(mut field) = form.try_next().await.map_err(multipart_error)? {
        parts += 1;
        if parts > MAX_PARTS {
            return Err(ApiError::too_large("Too many form fields"));
        }
        let name = field.name().unwrap_or_default().to_owned();
        let file_name_len = field.content_disposition().and_then(|d| d.get_filename()).map_or(0, str::len);
        count_total(PART_OVERHEAD + name.len() + file_name_len)?;
        if let Some(rule) = rules.files.iter().find(|r| r.field == name) {
            if received.files.len() >= rules.max_files {
                return Err(ApiError::too_large(rules.too_many_files.clone()));
            }
            let file_name = field
                .content_disposition()
                .and_then(|d| d.get_filename())
                .map_or_else(|| "file".to_owned(), |f| f.chars().take(200).collect());
            let mut sink = OpenSink::new(rule, &file_name)?;
            while let Some(chunk) = field.try_next().await.map_err(multipart_error)? {
                count_total(chunk.len())?;
                sink.write(chunk)?;
            }
            let (size, body) = sink.finish()?;
            received.files.push(ReceivedFile { field: rule.field, file_name, size, body });
        } else if let Some(text_field) = rules.texts.iter().find(|t| **t == name) {
            if received.texts.len() >= TEXT_MAX_FIELDS {
                return Err(ApiError::too_large("Too many form fields"));
            }
            let mut text = BytesMut::new();
            while let Some(chunk) = field.try_next().await.map_err(multipart_error)? {
                count_total(chunk.len())?;
                if text.len() + chunk.len() > TEXT_MAX_BYTES {
                    return Err(ApiError::too_large(format!("The field {name} is too long")));
                }
                text.extend_from_slice(&chunk);
            }
            let text = String::from_utf8(text.to_vec())
                .map_err(|_| ApiError::invalid(format!("The field {name} is not valid UTF-8 text")))?;
            if text.contains('\0') {
                return Err(ApiError::invalid(format!("The field {name} cannot contain a NUL character")));
            }
            if values::hidden_character(&text).is_some() {
                return Err(ApiError::invalid(format!(
                    "The field {name} cannot contain control or text-direction characters"
                )));
            }
            received.texts.push((text_field, text));
        } else {
            // Not ours: skipped, but its bytes still count against the whole body's limit.
            while let Some(chunk) = field.try_next().await.map_err(multipart_error)? {
                count_total(chunk.len())?;
            }
        }
    }
    Ok(())
}

/// One file being received.
struct OpenSink<'r> {
    rule: &'r FileRule,
    file_name: String,
    size: u64,
    /// The size limit, and the detail for crossing it when `narrow` changed it.
    limit: u64,
    limit_detail: Option<String>,
    /// The first bytes, while `narrow` has yet to judge them.
    judging: Option<BytesMut>,
    state: SinkState,
}

enum SinkState {
    Memory(BytesMut),
    TempFile(tempfile::NamedTempFile),
}

impl<'r> OpenSink<'r> {
    fn new(rule: &'r FileRule, file_name: &str) -> Result<OpenSink<'r>, ApiError> {
        let state = match &rule.sink {
            Sink::Memory => SinkState::Memory(BytesMut::new()),
            Sink::TempFile => SinkState::TempFile(
                tempfile::NamedTempFile::new().map_err(|e| internal("creating a temporary file", e))?,
            ),
        };
        Ok(OpenSink {
            rule,
            file_name: file_name.to_owned(),
            size: 0,
            limit: rule.max_bytes,
            limit_detail: None,
            judging: rule.narrow.map(|_| BytesMut::new()),
            state,
        })
    }

    /// Lets the rule's `narrow` judge the first bytes, once.
    fn judge(&mut self) -> Result<(), ApiError> {
        if let (Some(head), Some(narrow)) = (self.judging.take(), self.rule.narrow)
            && let Some((limit, detail)) = narrow(&head, &self.file_name)?
            && limit < self.limit
        {
            self.limit = limit;
            self.limit_detail = Some(detail);
        }
        self.check_size()
    }

    fn check_size(&self) -> Result<(), ApiError> {
        if self.size > self.limit {
            let detail = self.limit_detail.clone().unwrap_or_else(|| (self.rule.too_large)(&self.file_name));
            return Err(ApiError::too_large(detail));
        }
        Ok(())
    }

    fn write(&mut self, chunk: Bytes) -> Result<(), ApiError> {
        self.size += chunk.len() as u64;
        if let Some(head) = &mut self.judging {
            let wanted = SNIFF_BYTES.saturating_sub(head.len()).min(chunk.len());
            head.extend_from_slice(&chunk[..wanted]);
            if head.len() >= SNIFF_BYTES {
                self.judge()?;
            }
        }
        self.check_size()?;
        match &mut self.state {
            SinkState::Memory(buf) => buf.extend_from_slice(&chunk),
            SinkState::TempFile(file) => {
                file.write_all(&chunk).map_err(|e| internal("writing a temporary file", e))?;
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Result<(u64, FileBody), ApiError> {
        self.judge()?;
        let body = match self.state {
            SinkState::Memory(buf) => FileBody::Memory(buf.freeze()),
            SinkState::TempFile(mut file) => {
                file.flush().map_err(|e| internal("writing a temporary file", e))?;
                FileBody::TempFile(file)
            }
        };
        Ok((self.size, body))
    }
}
