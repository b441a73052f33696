//! Object storage behind `object_store`: a local folder by default, any S3-compatible store by
//! configuration. Keys are made by the application (`avatars/<user>/<random>.png`); reads may ask
//! for a byte range so audio and video can seek. Small objects are written whole ([`Storage::put`]);
//! large ones are streamed in parts ([`Storage::upload`]) with bounded memory.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use futures_util::stream::{BoxStream, StreamExt, TryStreamExt};
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::path::Path as ObjectPath;
use object_store::{GetOptions, GetRange, ObjectStore, PutPayload, WriteMultipart};

/// Where stored objects are served, as a URL path on our server (`/media/<key>`).
pub const MEDIA_PREFIX: &str = "/media/";

/// Keys under this folder are never served as media (a person's archive of their data, which
/// only its e-mailed link opens).
pub const PRIVATE_PREFIX: &str = "private/";

/// The URL path a stored object is served at.
pub fn url_of(key: &str) -> String {
    format!("{MEDIA_PREFIX}{key}")
}

/// The key of the object a URL path of ours names, if it names one.
pub fn key_of(url: &str) -> Option<&str> {
    url.strip_prefix(MEDIA_PREFIX)
}

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("no such object")]
    NotFound,
    #[error("not a valid object key")]
    InvalidKey,
    #[error("the requested range cannot be served")]
    RangeNotSatisfiable { size: u64 },
    #[error("object storage failed: {0}")]
    Backend(#[from] object_store::Error),
    #[error("object storage is not usable: {0}")]
    Setup(String),
    #[error("reading a local file failed: {0}")]
    Local(std::io::Error),
}

impl values::DomainError for StorageError {
    fn kind(&self) -> values::ErrorKind {
        use values::ErrorKind;
        match self {
            // A key that cannot exist names nothing.
            StorageError::NotFound | StorageError::InvalidKey => ErrorKind::NotFound,
            StorageError::RangeNotSatisfiable { .. } => ErrorKind::Invalid,
            // The store did not answer as it should; it may well answer in a moment.
            StorageError::Backend(_) => ErrorKind::Unavailable,
            StorageError::Setup(_) | StorageError::Local(_) => ErrorKind::Internal,
        }
    }
}

/// A key the application made or a client sent back: lower-case letters, digits, `-`, `_`, `.`
/// and `/`-separated segments, never `..`, at most 200 characters.
pub fn check_key(key: &str) -> Result<ObjectPath, StorageError> {
    let ok = !key.is_empty()
        && key.len() <= 200
        && key.split('/').all(|seg| !seg.is_empty() && seg != "." && seg != "..")
        && key.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_./".contains(&b));
    if !ok {
        return Err(StorageError::InvalidKey);
    }
    ObjectPath::parse(key).map_err(|_| StorageError::InvalidKey)
}

/// A byte range as asked for in an HTTP `Range: bytes=...` header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteRange {
    /// `bytes=a-b` (inclusive end) or `bytes=a-`.
    From { start: u64, end_inclusive: Option<u64> },
    /// `bytes=-n`: the last n bytes.
    Last(u64),
}

impl ByteRange {
    /// Parses a single-range `Range` header; anything else (several ranges, other units) is
    /// `None`, and the whole object is served, as HTTP allows.
    pub fn parse(header: &str) -> Option<ByteRange> {
        let spec = header.trim().strip_prefix("bytes=")?;
        if spec.contains(',') {
            return None;
        }
        let (a, b) = spec.split_once('-')?;
        let (a, b) = (a.trim(), b.trim());
        if a.is_empty() {
            return b.parse().ok().map(ByteRange::Last);
        }
        let start = a.parse().ok()?;
        let end_inclusive = if b.is_empty() { None } else { Some(b.parse().ok()?) };
        if end_inclusive.is_some_and(|e| e < start) {
            return None;
        }
        Some(ByteRange::From { start, end_inclusive })
    }

    /// The half-open range within an object of `size` bytes, or `None` when unsatisfiable.
    pub fn resolve(self, size: u64) -> Option<Range<u64>> {
        match self {
            ByteRange::From { start, .. } if start >= size => None,
            ByteRange::From { start, end_inclusive } => {
                Some(start..end_inclusive.map_or(size, |e| e.saturating_add(1).min(size)))
            }
            ByteRange::Last(0) => None,
            ByteRange::Last(n) => Some(size.saturating_sub(n)..size),
        }
    }
}

/// Where an S3-compatible bucket is and how to reach it.
#[derive(Clone, Debug, Default)]
pub struct S3Settings {
    pub bucket: String,
    /// e.g. `http://127.0.0.1:9000` for MinIO or Garage; `None` means AWS itself.
    pub endpoint: Option<String>,
    pub region: Option<String>,
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<String>,
}

/// An object being read: its total size, the range being sent and the bytes as a stream.
pub struct Object {
    pub size: u64,
    pub range: Range<u64>,
    pub partial: bool,
    pub body: BoxStream<'static, Result<Bytes, StorageError>>,
}

/// How a streamed upload is cut into parts: `part_size` bytes are buffered before a part is
/// sent, and at most `parts_in_flight` are sent at once, so an upload holds at most
/// `part_size * (parts_in_flight + 1)` bytes whatever its size.
#[derive(Clone, Copy, Debug)]
struct PartPlan {
    part_size: usize,
    parts_in_flight: usize,
}

/// A local folder takes parts of any size; S3 wants 5 MiB or more for every part but the last.
const LOCAL_PARTS: PartPlan = PartPlan { part_size: 1024 * 1024, parts_in_flight: 2 };
const S3_PARTS: PartPlan = PartPlan { part_size: 5 * 1024 * 1024, parts_in_flight: 1 };

#[derive(Clone)]
pub struct Storage {
    store: Arc<dyn ObjectStore>,
    description: String,
    parts: PartPlan,
    /// The folder of a local store (where unfinished uploads may be left: see
    /// [`Storage::remove_unfinished_uploads`]).
    local_root: Option<std::path::PathBuf>,
}

/// An object being written in parts. Nothing is visible under its key until [`Upload::finish`];
/// [`Upload::abort`] (or dropping it unfinished) leaves nothing behind but what a sweep removes.
pub struct Upload {
    key: String,
    writer: WriteMultipart,
    parts: PartPlan,
    written: u64,
}

impl Upload {
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Bytes written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Adds `chunk`, first waiting while too many parts are still being sent (backpressure: a
    /// slow store slows the reader instead of filling memory).
    pub async fn write(&mut self, chunk: Bytes) -> Result<(), StorageError> {
        self.writer.wait_for_capacity(self.parts.parts_in_flight).await?;
        self.written += chunk.len() as u64;
        self.writer.put(chunk);
        Ok(())
    }

    /// Sends what is buffered and makes the object visible under its key.
    pub async fn finish(self) -> Result<u64, StorageError> {
        self.writer.finish().await?;
        Ok(self.written)
    }

    /// Gives up: parts already sent are discarded.
    pub async fn abort(self) -> Result<(), StorageError> {
        Ok(self.writer.abort().await?)
    }
}

impl Storage {
    /// Objects as files under `root` (created if missing).
    pub fn local(root: &Path) -> Result<Storage, StorageError> {
        std::fs::create_dir_all(root).map_err(|e| StorageError::Setup(format!("{}: {e}", root.display())))?;
        let store = LocalFileSystem::new_with_prefix(root).map_err(|e| StorageError::Setup(e.to_string()))?;
        Ok(Storage {
            store: Arc::new(store),
            description: format!("folder {}", root.display()),
            parts: LOCAL_PARTS,
            local_root: Some(root.to_owned()),
        })
    }

    /// An S3-compatible bucket. Settings left out come from the standard `AWS_*` variables.
    pub fn s3(settings: &S3Settings) -> Result<Storage, StorageError> {
        let mut builder = AmazonS3Builder::from_env().with_bucket_name(&settings.bucket);
        if let Some(endpoint) = &settings.endpoint {
            builder = builder.with_endpoint(endpoint).with_allow_http(endpoint.starts_with("http://"));
        }
        if let Some(region) = &settings.region {
            builder = builder.with_region(region);
        }
        if let (Some(id), Some(secret)) = (&settings.access_key_id, &settings.secret_access_key) {
            builder = builder.with_access_key_id(id).with_secret_access_key(secret);
        }
        let store = builder.build().map_err(|e| StorageError::Setup(e.to_string()))?;
        Ok(Storage {
            store: Arc::new(store),
            description: format!("S3 bucket {}", settings.bucket),
            parts: S3_PARTS,
            local_root: None,
        })
    }

    pub fn describe(&self) -> &str {
        &self.description
    }

    /// Ok when the store answers a listing of its top level: one cheap request (readiness
    /// checks) that fails when the bucket cannot be reached or read, or the folder is not one.
    pub async fn check(&self) -> Result<(), StorageError> {
        self.store.list_with_delimiter(None).await?;
        Ok(())
    }

    pub async fn put(&self, key: &str, data: Bytes) -> Result<(), StorageError> {
        let path = check_key(key)?;
        self.store.put(&path, PutPayload::from_bytes(data)).await?;
        Ok(())
    }

    /// Starts writing an object in parts (see [`Upload`]).
    pub async fn upload(&self, key: &str) -> Result<Upload, StorageError> {
        let path = check_key(key)?;
        let multipart = self.store.put_multipart(&path).await?;
        Ok(Upload {
            key: key.to_owned(),
            writer: WriteMultipart::new_with_chunk_size(multipart, self.parts.part_size),
            parts: self.parts,
            written: 0,
        })
    }

    /// Stores a local file under `key`, streamed in parts: memory stays bounded whatever its
    /// size. On failure nothing is left under the key.
    pub async fn put_file(&self, key: &str, path: &Path) -> Result<u64, StorageError> {
        use tokio::io::AsyncReadExt;
        let mut file = tokio::fs::File::open(path).await.map_err(StorageError::Local)?;
        let mut upload = self.upload(key).await?;
        let result: Result<(), StorageError> = async {
            loop {
                let mut buf = bytes::BytesMut::with_capacity(256 * 1024);
                let n = file.read_buf(&mut buf).await.map_err(StorageError::Local)?;
                if n == 0 {
                    return Ok(());
                }
                upload.write(buf.freeze()).await?;
            }
        }
        .await;
        match result {
            Ok(()) => upload.finish().await,
            Err(e) => {
                if let Err(abort) = upload.abort().await {
                    tracing::warn!(error = %abort, %key, "could not abort an upload");
                }
                Err(e)
            }
        }
    }

    /// Reads an object, or the part of it `range` asks for.
    pub async fn get(&self, key: &str, range: Option<ByteRange>) -> Result<Object, StorageError> {
        let path = check_key(key)?;
        let not_found = |e: object_store::Error| match e {
            object_store::Error::NotFound { .. } => StorageError::NotFound,
            other => StorageError::Backend(other),
        };
        let wanted = match range {
            None => None,
            Some(r) => {
                let size = self.store.head(&path).await.map_err(not_found)?.size;
                Some(r.resolve(size).ok_or(StorageError::RangeNotSatisfiable { size })?)
            }
        };
        let options = GetOptions { range: wanted.clone().map(GetRange::Bounded), ..GetOptions::default() };
        let result = self.store.get_opts(&path, options).await.map_err(not_found)?;
        let size = result.meta.size;
        let range = result.range.clone();
        let body = result.into_stream().map_err(StorageError::Backend).boxed();
        Ok(Object { size, range, partial: wanted.is_some(), body })
    }

    /// Keys under `prefix` last written before `before`, for sweeps of unreferenced objects.
    pub async fn list_older_than(
        &self,
        prefix: &str,
        before: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<String>, StorageError> {
        let prefix = check_key(prefix)?;
        let listed: Vec<object_store::ObjectMeta> = self.store.list(Some(&prefix)).try_collect().await?;
        Ok(listed.into_iter().filter(|m| m.last_modified < before).map(|m| m.location.to_string()).collect())
    }

    /// Removes what uploads cut off by a crash left in a local store, once older than `before`:
    /// the folder store writes an object to `<key>#<n>` and renames it when finished, and a
    /// listing never shows such files (no key of ours contains `#`). Answers how many. An S3
    /// store keeps no such files; the parts of multipart uploads never completed are removed by
    /// the bucket's lifecycle rule (deploy/README.md).
    pub async fn remove_unfinished_uploads(
        &self,
        before: chrono::DateTime<chrono::Utc>,
    ) -> Result<usize, StorageError> {
        let Some(root) = self.local_root.clone() else { return Ok(0) };
        tokio::task::spawn_blocking(move || {
            let mut removed = 0;
            let mut folders = vec![root];
            while let Some(folder) = folders.pop() {
                for entry in std::fs::read_dir(&folder).map_err(StorageError::Local)?.flatten() {
                    let path = entry.path();
                    let Ok(meta) = entry.metadata() else { continue };
                    if meta.is_dir() {
                        folders.push(path);
                        continue;
                    }
                    let unfinished = path
                        .file_name()
                        .and_then(|n| n.to_str())
                        .and_then(|n| n.rsplit_once('#'))
                        .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
                    let old = meta.modified().is_ok_and(|m| chrono::DateTime::<chrono::Utc>::from(m) < before);
                    if unfinished && old && std::fs::remove_file(&path).is_ok() {
                        removed += 1;
                    }
                }
            }
            Ok(removed)
        })
        .await
        .map_err(|e| StorageError::Setup(e.to_string()))?
    }

    /// Removes an object; one that is already gone is not an error.
    pub async fn delete(&self, key: &str) -> Result<(), StorageError> {
        let path = check_key(key)?;
        match self.store.delete(&path).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    async fn read_all(o: Object) -> Vec<u8> {
        o.body.try_collect::<Vec<_>>().await.unwrap().concat()
    }

    #[tokio::test]
    async fn put_get_delete_in_a_local_folder() {
        let dir = tempfile::tempdir().unwrap();
        let s = Storage::local(dir.path()).unwrap();
        s.put("avatars/1/abc.png", Bytes::from_static(b"0123456789")).await.unwrap();
        assert!(dir.path().join("avatars/1/abc.png").is_file());
        let whole = s.get("avatars/1/abc.png", None).await.unwrap();
        assert_eq!((whole.size, whole.partial), (10, false));
        assert_eq!(read_all(whole).await, b"0123456789");
        s.delete("avatars/1/abc.png").await.unwrap();
        assert!(matches!(s.get("avatars/1/abc.png", None).await, Err(StorageError::NotFound)));
        s.delete("avatars/1/abc.png").await.unwrap();
    }

    #[tokio::test]
    async fn a_streamed_upload_appears_only_when_finished() {
        let dir = tempfile::tempdir().unwrap();
        let s = Storage::local(dir.path()).unwrap();
        let mut up = s.upload("tracks/1/a.mp3").await.unwrap();
        let chunk = Bytes::from(vec![7u8; 300 * 1024]);
        for _ in 0..10 {
            up.write(chunk.clone()).await.unwrap();
        }
        assert_eq!(up.written(), 3_072_000);
        assert!(matches!(s.get("tracks/1/a.mp3", None).await, Err(StorageError::NotFound)), "not visible yet");
        assert_eq!(up.finish().await.unwrap(), 3_072_000);
        let whole = s.get("tracks/1/a.mp3", None).await.unwrap();
        assert_eq!(whole.size, 3_072_000);
        assert!(read_all(whole).await.iter().all(|b| *b == 7));

        let mut gone = s.upload("tracks/1/b.mp3").await.unwrap();
        gone.write(chunk).await.unwrap();
        gone.abort().await.unwrap();
        assert!(matches!(s.get("tracks/1/b.mp3", None).await, Err(StorageError::NotFound)));
        let leftovers: Vec<_> = walk(dir.path());
        assert_eq!(leftovers.len(), 1, "an aborted upload leaves no file: {leftovers:?}");
    }

    fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
        std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .flat_map(|e| if e.path().is_dir() { walk(&e.path()) } else { vec![e.path()] })
            .collect()
    }

    #[tokio::test]
    async fn old_objects_are_listed_by_prefix() {
        let dir = tempfile::tempdir().unwrap();
        let s = Storage::local(dir.path()).unwrap();
        s.put("avatars/1/a.png", Bytes::from_static(b"a")).await.unwrap();
        s.put("avatars/2/b.png", Bytes::from_static(b"b")).await.unwrap();
        s.put("other/c.bin", Bytes::from_static(b"c")).await.unwrap();
        let later = chrono::Utc::now() + chrono::Duration::seconds(5);
        let mut keys = s.list_older_than("avatars", later).await.unwrap();
        keys.sort();
        assert_eq!(keys, vec!["avatars/1/a.png", "avatars/2/b.png"]);
        let earlier = chrono::Utc::now() - chrono::Duration::hours(1);
        assert!(s.list_older_than("avatars", earlier).await.unwrap().is_empty(), "new objects are left alone");
    }

    #[tokio::test]
    async fn byte_ranges_are_served() {
        let dir = tempfile::tempdir().unwrap();
        let s = Storage::local(dir.path()).unwrap();
        s.put("a/b.bin", Bytes::from_static(b"0123456789")).await.unwrap();
        let part = s.get("a/b.bin", ByteRange::parse("bytes=2-4")).await.unwrap();
        assert_eq!((part.range.clone(), part.size, part.partial), (2..5, 10, true));
        assert_eq!(read_all(part).await, b"234");
        let tail = s.get("a/b.bin", ByteRange::parse("bytes=-3")).await.unwrap();
        assert_eq!(read_all(tail).await, b"789");
        let open = s.get("a/b.bin", ByteRange::parse("bytes=7-")).await.unwrap();
        assert_eq!(read_all(open).await, b"789");
        let past = s.get("a/b.bin", ByteRange::parse("bytes=8-100")).await.unwrap();
        assert_eq!(read_all(past).await, b"89");
        assert!(matches!(
            s.get("a/b.bin", ByteRange::parse("bytes=10-")).await,
            Err(StorageError::RangeNotSatisfiable { size: 10 })
        ));
    }

    #[test]
    fn range_headers_parse_strictly() {
        assert_eq!(ByteRange::parse("bytes=0-0"), Some(ByteRange::From { start: 0, end_inclusive: Some(0) }));
        assert_eq!(ByteRange::parse("bytes=-5"), Some(ByteRange::Last(5)));
        for bad in ["", "bytes=", "bytes=5-2", "bytes=0-1,4-5", "items=0-1", "bytes=a-b", "bytes=-"] {
            assert_eq!(ByteRange::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn keys_cannot_escape_or_surprise() {
        assert!(check_key("avatars/12/x-y_z.png").is_ok());
        for bad in ["", "../etc/passwd", "a/../b", "/abs", "a//b", "A.png", "a b", "a\\b", "a/./b", &"x".repeat(300)] {
            assert!(check_key(bad).is_err(), "{bad:?}");
        }
    }
}
