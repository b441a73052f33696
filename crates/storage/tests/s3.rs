//! The same storage calls against a real S3-compatible store: Garage, the store `deploy/` runs
//! (`test_support::s3`).

#![allow(clippy::unwrap_used)]

use bytes::Bytes;
use futures_util::TryStreamExt;
use storage::{ByteRange, Storage, StorageError};
use test_support::s3::S3TestServer;

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

#[tokio::test]
async fn a_large_object_streams_to_an_s3_server_in_parts() {
    let Some(server) = S3TestServer::start("parts").await else { return };
    let s = Storage::s3(&server.settings).unwrap();
    let mut up = s.upload("videos/1/big.mp4").await.unwrap();
    // 12 MiB in 256 KiB chunks: three parts of at least 5 MiB but the last.
    for i in 0..48u8 {
        up.write(Bytes::from(vec![i; 256 * 1024])).await.unwrap();
    }
    assert_eq!(up.finish().await.unwrap(), 12 * 1024 * 1024);
    let tail = s.get("videos/1/big.mp4", ByteRange::parse("bytes=-1")).await.unwrap();
    assert_eq!(tail.size, 12 * 1024 * 1024);
    assert_eq!(tail.body.try_collect::<Vec<_>>().await.unwrap().concat(), vec![47u8]);

    let mut aborted = s.upload("videos/1/gone.mp4").await.unwrap();
    aborted.write(Bytes::from(vec![1u8; 6 * 1024 * 1024])).await.unwrap();
    aborted.abort().await.unwrap();
    assert!(matches!(s.get("videos/1/gone.mp4", None).await, Err(StorageError::NotFound)));
}

#[tokio::test]
async fn listing_finds_old_objects_under_a_prefix_and_ranges_past_the_end_are_refused() {
    let Some(server) = S3TestServer::start("listing").await else { return };
    let s = Storage::s3(&server.settings).unwrap();
    s.put("posts/7/1-a.mp3", Bytes::from_static(b"abc")).await.unwrap();
    s.put("posts/8/1-b.png", Bytes::from_static(b"def")).await.unwrap();
    s.put("avatars/1/c.png", Bytes::from_static(b"ghi")).await.unwrap();
    let later = chrono::Utc::now() + chrono::Duration::seconds(5);
    let mut posts = s.list_older_than("posts", later).await.unwrap();
    posts.sort();
    assert_eq!(posts, ["posts/7/1-a.mp3", "posts/8/1-b.png"]);
    let earlier = chrono::Utc::now() - chrono::Duration::hours(1);
    assert!(s.list_older_than("posts", earlier).await.unwrap().is_empty(), "nothing is an hour old");
    assert_eq!(server.keys().await.len(), 3);

    assert!(matches!(
        s.get("posts/7/1-a.mp3", ByteRange::parse("bytes=10-20")).await,
        Err(StorageError::RangeNotSatisfiable { size: 3 })
    ));
    // An object is replaced whole by a second put under its key.
    s.put("posts/7/1-a.mp3", Bytes::from_static(b"longer")).await.unwrap();
    let again = s.get("posts/7/1-a.mp3", None).await.unwrap();
    assert_eq!(again.body.try_collect::<Vec<_>>().await.unwrap().concat(), b"longer");
}
