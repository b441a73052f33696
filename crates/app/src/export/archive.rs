//! The zip of an archive, written on a blocking thread into a local file while the export's
//! reads (database pages, stored objects) run on the runtime: they hand it entries and bytes
//! through a short channel, so memory holds a few chunks whatever the archive's size.

use std::io::Write;
use std::path::Path;

use bytes::Bytes;
use db::jobs::Failure;
use futures_util::StreamExt;
use serde::Serialize;
use sha2::{Digest, Sha256};
use storage::{Storage, StorageError};
use tokio::sync::mpsc;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime};

/// How many pieces may wait for the writer.
const IN_FLIGHT: usize = 8;

enum Piece {
    /// A new entry: what is written next is its content.
    Entry {
        name: String,
        compressed: bool,
    },
    Bytes(Bytes),
}

/// A zip being written.
pub(super) struct Archive {
    tx: mpsc::Sender<Piece>,
    /// Until the archive is finished, or the writer has stopped.
    writer: Option<tokio::task::JoinHandle<std::io::Result<u64>>>,
}

/// A stored file as the archive holds it.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Copied {
    pub sha256: String,
    pub bytes: u64,
}

impl Archive {
    /// Starts writing a zip at `path`; every entry carries `at` as its time.
    pub fn create(path: &Path, at: chrono::NaiveDateTime) -> std::io::Result<Archive> {
        let file = std::fs::File::create(path)?;
        let (tx, mut rx) = mpsc::channel::<Piece>(IN_FLIGHT);
        let time = zip_time(at);
        let writer = tokio::task::spawn_blocking(move || {
            let mut zip = zip::ZipWriter::new(std::io::BufWriter::with_capacity(256 * 1024, file));
            while let Some(piece) = rx.blocking_recv() {
                match piece {
                    Piece::Entry { name, compressed } => {
                        // Media are compressed already: stored as they are.
                        let method = if compressed { CompressionMethod::Deflated } else { CompressionMethod::Stored };
                        let options = SimpleFileOptions::default()
                            .compression_method(method)
                            .last_modified_time(time)
                            .unix_permissions(0o644);
                        zip.start_file(name, options)?;
                    }
                    Piece::Bytes(b) => zip.write_all(&b)?,
                }
            }
            let mut file = zip.finish()?.into_inner().map_err(|e| e.into_error())?;
            file.flush()?;
            file.sync_all()?;
            file.metadata().map(|m| m.len())
        });
        Ok(Archive { tx, writer: Some(writer) })
    }

    /// Starts the entry `name`, deflated when `compressed`.
    pub async fn entry(&mut self, name: impl Into<String>, compressed: bool) -> Result<(), Failure> {
        self.send(Piece::Entry { name: name.into(), compressed }).await
    }

    /// Adds bytes to the current entry.
    pub async fn write(&mut self, bytes: impl Into<Bytes>) -> Result<(), Failure> {
        self.send(Piece::Bytes(bytes.into())).await
    }

    /// The entry `name` holding `value` as JSON.
    pub async fn json<T: Serialize>(&mut self, name: &str, value: &T) -> Result<(), Failure> {
        let text = serde_json::to_vec_pretty(value).map_err(|e| Failure::GiveUp(format!("writing {name}: {e}")))?;
        self.entry(name, true).await?;
        self.write(text).await
    }

    /// The stored object `key` as the entry `name`, streamed: its SHA-256 and size, or none when
    /// storage has no such object (a file lost before the export: the archive says so).
    pub async fn copy(&mut self, storage: &Storage, key: &str, name: &str) -> Result<Option<Copied>, Failure> {
        let object = match storage.get(key, None).await {
            Ok(o) => o,
            Err(StorageError::NotFound) => return Ok(None),
            Err(e) => return Err(Failure::Retry(format!("reading {key}: {e}"))),
        };
        self.entry(name, false).await?;
        let (mut hash, mut bytes) = (Sha256::new(), 0u64);
        let mut body = object.body;
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(|e| Failure::Retry(format!("reading {key}: {e}")))?;
            hash.update(&chunk);
            bytes += chunk.len() as u64;
            self.write(chunk).await?;
        }
        Ok(Some(Copied { sha256: hex(&hash.finalize()), bytes }))
    }

    /// The local file `path` (what was spooled beside the archive), after what the current
    /// entry holds.
    pub async fn append_file(&mut self, path: &Path) -> Result<(), Failure> {
        use tokio::io::AsyncReadExt;
        let problem = |e: std::io::Error| Failure::Retry(format!("reading {}: {e}", path.display()));
        let mut file = tokio::fs::File::open(path).await.map_err(problem)?;
        loop {
            let mut buf = bytes::BytesMut::with_capacity(128 * 1024);
            if file.read_buf(&mut buf).await.map_err(problem)? == 0 {
                return Ok(());
            }
            self.write(buf.freeze()).await?;
        }
    }

    /// Ends the zip: its size in bytes.
    pub async fn finish(mut self) -> Result<u64, Failure> {
        let writer = self.writer.take();
        drop(self.tx);
        Self::ended(writer).await
    }

    async fn send(&mut self, piece: Piece) -> Result<(), Failure> {
        if self.tx.send(piece).await.is_ok() {
            return Ok(());
        }
        // The writer stopped: its error says why.
        let stopped = Self::ended(self.writer.take()).await;
        Err(stopped.err().unwrap_or_else(|| Failure::Retry("the archive's writer stopped".into())))
    }

    async fn ended(writer: Option<tokio::task::JoinHandle<std::io::Result<u64>>>) -> Result<u64, Failure> {
        let Some(writer) = writer else { return Err(Failure::Retry("the archive's writer stopped".into())) };
        match writer.await {
            Ok(Ok(size)) => Ok(size),
            // A full disk or the like: another try, later, may have room.
            Ok(Err(e)) => Err(Failure::Retry(format!("writing the archive: {e}"))),
            Err(e) => Err(Failure::Retry(format!("the archive's writer failed: {e}"))),
        }
    }
}

/// A JSON array written an item at a time, into the archive or into a file spooled beside it.
pub(super) struct JsonList {
    started: bool,
    pub count: u64,
}

impl JsonList {
    pub fn new() -> JsonList {
        JsonList { started: false, count: 0 }
    }

    /// The bytes that put `item` next in the list.
    pub fn item<T: Serialize>(&mut self, item: &T) -> Result<Vec<u8>, Failure> {
        let mut out = if self.started { b",\n  ".to_vec() } else { b"[\n  ".to_vec() };
        self.started = true;
        self.count += 1;
        serde_json::to_writer(&mut out, item).map_err(|e| Failure::GiveUp(format!("writing JSON: {e}")))?;
        Ok(out)
    }

    /// The bytes that close the list.
    pub fn end(&self) -> &'static [u8] {
        if self.started { b"\n]\n" } else { b"[]\n" }
    }
}

/// Lowercase hexadecimal.
pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A zip's time (DOS: from 1980, in two-second steps).
fn zip_time(at: chrono::NaiveDateTime) -> DateTime {
    use chrono::{Datelike, Timelike};
    let part = |v: u32| u8::try_from(v).unwrap_or_default();
    DateTime::from_date_and_time(
        u16::try_from(at.year()).unwrap_or(1980),
        part(at.month()),
        part(at.day()),
        part(at.hour()),
        part(at.minute()),
        part(at.second()),
    )
    .unwrap_or_default()
}
