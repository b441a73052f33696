//! The same storage calls against a real S3-compatible server (see `storage::testing`).

#![allow(clippy::unwrap_used)]

use bytes::Bytes;
use futures_util::TryStreamExt;
use storage::testing::S3TestServer;
use storage::{ByteRange, Storage, StorageError};

#[tokio::test]
async fn put_get_range_delete_against_an_s3_server() {
    let Some(server) = S3TestServer::start("media").await else { return };
    let s = Storage::s3(&server.settings).unwrap();
    s.put("avatars/1/a.png", Bytes::from_static(b"0123456789")).await.unwrap();
    let whole = s.get("avatars/1/a.png", None).await.unwrap();
    assert_eq!(whole.size, 10);
    assert_eq!(whole.body.try_collect::<Vec<_>>().await.unwrap().concat(), b"0123456789");
    let part = s.get("avatars/1/a.png", ByteRange::parse("bytes=3-5")).await.unwrap();
    assert_eq!((part.range.clone(), part.partial), (3..6, true));
    assert_eq!(part.body.try_collect::<Vec<_>>().await.unwrap().concat(), b"345");
    s.delete("avatars/1/a.png").await.unwrap();
    assert!(matches!(s.get("avatars/1/a.png", None).await, Err(StorageError::NotFound)));
    s.delete("avatars/1/a.png").await.unwrap();
}
