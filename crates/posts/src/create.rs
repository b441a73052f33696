//! What every kind made of uploaded files shares (`kinds::{audio, media, scores}` hold each
//! kind's own part): each file is judged by its bytes (media-validation), its facts read, and it
//! is stored under a fresh key. The bytes decide every type, never the name or the client's MIME
//! type. Files arrive as temporary files (the multipart reader streamed them to disk), so memory
//! stays bounded whatever their size; heavy work runs on blocking threads, at most
//! [`PROCESSING_SLOTS`] at a time in a process (`kinds::Processing`).

use std::io::Read;
use std::path::Path;

use bytes::Bytes;
use media_validation::MediaError;
use storage::Storage;
use values::PostId;

use crate::PostError;
use crate::error::UploadDefect;

/// How many uploads are analysed at once in one process (decoding audio, resizing images):
/// bounds CPU and memory under a burst of uploads.
pub const PROCESSING_SLOTS: usize = 2;

/// Objects stored for a post being made; removed again unless the post is committed.
#[derive(Default)]
pub struct Stored {
    keys: Vec<String>,
}

impl Stored {
    pub(crate) async fn put(&mut self, storage: &Storage, key: String, bytes: Vec<u8>) -> Result<String, PostError> {
        storage.put(&key, Bytes::from(bytes)).await?;
        self.keys.push(key.clone());
        Ok(key)
    }

    pub(crate) async fn put_file(&mut self, storage: &Storage, key: String, path: &Path) -> Result<String, PostError> {
        storage.put_file(&key, path).await?;
        self.keys.push(key.clone());
        Ok(key)
    }

    /// Removes everything stored (best effort: what remains is found by the sweep).
    pub(crate) async fn discard(self, storage: &Storage) {
        remove_objects(storage, &self.keys).await;
    }
}

pub(crate) async fn remove_objects(storage: &Storage, keys: &[String]) {
    for key in keys {
        if let Err(e) = storage.delete(key).await {
            tracing::warn!(error = %values::error_chain(&e), %key, "could not remove a stored object");
        }
    }
}

/// A fresh storage key for the `n`th file of a post: never reused, so media can be cached
/// for good.
pub(crate) fn key(post: PostId, n: usize, suffix: &str, extension: &str) -> String {
    format!("posts/{post}/{n}-{:016x}{suffix}.{extension}", rand::random::<u64>())
}

/// The first bytes of an upload, enough for every signature media-validation sniffs.
pub(crate) fn head(path: &Path) -> Result<Vec<u8>, PostError> {
    let mut head = Vec::with_capacity(4096);
    std::fs::File::open(path)
        .and_then(|f| f.take(4096).read_to_end(&mut head))
        .map_err(|e| PostError::Processing(format!("reading an upload: {e}")))?;
    Ok(head)
}

pub(crate) fn read_all(path: &Path) -> Result<Vec<u8>, PostError> {
    std::fs::read(path).map_err(|e| PostError::Processing(format!("reading an upload: {e}")))
}

/// The error for a file of an accepted kind that cannot be used.
pub(crate) fn unreadable(file: &str, e: MediaError) -> PostError {
    let defect = match e {
        MediaError::Malformed => UploadDefect::Damaged,
        other => UploadDefect::Media(other),
    };
    PostError::Unreadable { file: file.to_owned(), defect }
}
