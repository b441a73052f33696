//! The four kinds of post, one module each (media, audio, scores, lyrics): the payload a kind
//! carries, the rows it is stored in, how a page loads them, the files it stores, and for kinds
//! made of uploaded files their limits and errors. The rest of the crate reaches a kind only
//! through [`KINDS`], [`NewPayload`] and [`UploadKind`], so a new kind is a new module plus its
//! line in [`KINDS`] and its variant of [`crate::Payload`].

pub(crate) mod audio;
pub(crate) mod lyrics;
pub(crate) mod media;
pub(crate) mod scores;

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

use db::diesel::QueryResult;
use db::{DbConnection, StoredColumn};
use storage::Storage;
use values::{PostId, PostKind, UserId};

use crate::PostError;
use crate::create::Stored;
use crate::ffmpeg::Ffmpeg;
use crate::model::Payload;

/// Each post's payload, as a kind's rows load them.
pub type Payloads = Vec<(PostId, Payload)>;

/// How the rest of the crate reads one kind's payload rows.
pub struct KindRows {
    pub kind: PostKind,
    /// The payloads of these posts (all of this kind): one statement.
    pub load: fn(&mut DbConnection, &[PostId]) -> QueryResult<Payloads>,
    /// The storage keys the payloads of these posts (of any kind) point to: one statement, or
    /// none for a kind that stores no files.
    pub object_keys: fn(&mut DbConnection, &[PostId]) -> QueryResult<Vec<String>>,
    /// The columns of its rows that name stored objects, each with every key it names.
    pub stored: &'static [StoredColumn],
}

/// Every kind, in the order of [`PostKind::ALL`] (a test checks none is missing).
pub const KINDS: [KindRows; 4] = [media::ROWS, audio::ROWS, scores::ROWS, lyrics::ROWS];

/// The payloads of a page's posts: one statement per kind present.
pub fn load_payloads(
    conn: &mut DbConnection,
    posts: &[(PostId, PostKind)],
) -> QueryResult<HashMap<PostId, Arc<Payload>>> {
    let mut payloads = HashMap::with_capacity(posts.len());
    for k in &KINDS {
        let ids: Vec<PostId> = posts.iter().filter(|(_, kind)| *kind == k.kind).map(|(id, _)| *id).collect();
        if !ids.is_empty() {
            payloads.extend((k.load)(conn, &ids)?.into_iter().map(|(id, payload)| (id, Arc::new(payload))));
        }
    }
    Ok(payloads)
}

/// Every column of the kinds' rows that names stored objects (backups and `selfsound verify`
/// read every object a row points at through them).
pub fn stored_columns() -> impl Iterator<Item = &'static StoredColumn> {
    KINDS.iter().flat_map(|k| k.stored.iter())
}

/// The storage keys the payloads of these posts point to.
pub fn object_keys(conn: &mut DbConnection, ids: &[PostId]) -> QueryResult<Vec<String>> {
    let mut keys = Vec::new();
    for k in &KINDS {
        keys.extend((k.object_keys)(conn, ids)?);
    }
    Ok(keys)
}

/// A kind that stores no files.
fn no_keys(_: &mut DbConnection, _: &[PostId]) -> QueryResult<Vec<String>> {
    Ok(Vec::new())
}

/// Rows ordered by post, gathered into one payload per post.
fn grouped<R, T>(
    rows: Vec<R>,
    post_of: impl Fn(&R) -> PostId,
    item: impl Fn(R) -> T,
    payload: impl Fn(Vec<T>) -> Payload,
) -> Payloads {
    let mut out: Vec<(PostId, Vec<T>)> = Vec::new();
    for r in rows {
        let post = post_of(&r);
        match out.last_mut() {
            Some((p, items)) if *p == post => items.push(item(r)),
            _ => out.push((post, vec![item(r)])),
        }
    }
    out.into_iter().map(|(p, items)| (p, payload(items))).collect()
}

/// The rows of a new post's payload, written in the post's transaction.
pub trait NewPayload: Send {
    fn insert(&self, conn: &mut DbConnection) -> QueryResult<()>;
    /// What it says that may name tags besides the caption (a song's lyrics).
    fn words(&self) -> Vec<String> {
        Vec::new()
    }
    /// The background work the post needs once written (kind, subject, payload), queued in its
    /// transaction for its author (`db::jobs`).
    fn jobs(&self) -> Vec<(values::JobKind, String, String)> {
        Vec::new()
    }
}

/// A kind made of uploaded files (audio, media, scores): its limits, its errors, and how its
/// files are checked and stored. Implemented by each kind's upload type, so
/// [`crate::Posts::create`] takes any of them.
pub trait UploadKind: Sized + Send + 'static {
    const KIND: PostKind;
    /// The most files one post may have (spec §5).
    const MAX_FILES: usize;
    /// The error for a post without files.
    fn none() -> PostError;
    /// The error for more than [`Self::MAX_FILES`].
    fn too_many() -> PostError;
    /// Checks and stores the files of post `post`, noting each stored object in `stored`, and
    /// answers the payload rows to write.
    fn store(
        ctx: &Processing,
        post: PostId,
        uploads: Vec<Self>,
        stored: &mut Stored,
    ) -> impl Future<Output = Result<Box<dyn NewPayload>, PostError>> + Send;
}

/// What storing uploads needs: where objects go, the slots that bound how many files are
/// analysed at once, each person's lane, and ffmpeg when it is there (videos need it).
pub struct Processing {
    pub storage: Storage,
    pub slots: tokio::sync::Semaphore,
    pub lanes: Lanes,
    pub ffmpeg: Option<Ffmpeg>,
}

impl Processing {
    /// Runs `f` (decoding, resizing) on a blocking thread, holding one processing slot.
    pub async fn analyse<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> Result<T, PostError> + Send + 'static,
    ) -> Result<T, PostError> {
        let _slot = self.slots.acquire().await.map_err(|e| PostError::Processing(e.to_string()))?;
        tokio::task::spawn_blocking(f)
            .await
            .map_err(|e| PostError::Processing(format!("a processing task failed: {e}")))?
    }
}

/// One lane per person: a person's posts are processed one after another, so one person holds
/// at most one of the processing slots however many uploads they send, and everyone else's
/// files go through the others. (The upload slots already bound how many a person may send.)
#[derive(Default)]
pub struct Lanes {
    open: std::sync::Mutex<HashMap<UserId, Arc<tokio::sync::Mutex<()>>>>,
}

/// A person's turn in their lane; the lane closes with the last turn that waited in it.
pub struct Turn<'a> {
    // Declared first: dropped before `_entry` looks whether anyone else still waits.
    _turn: Option<tokio::sync::OwnedMutexGuard<()>>,
    _entry: LaneEntry<'a>,
}

struct LaneEntry<'a> {
    lanes: &'a Lanes,
    who: UserId,
    lane: Arc<tokio::sync::Mutex<()>>,
}

impl Lanes {
    /// Waits until `who`'s earlier posts are processed. Cancel-safe: a request that goes away
    /// while it waits leaves no lane behind.
    pub async fn enter(&self, who: UserId) -> Turn<'_> {
        let lane = self.lock().entry(who).or_default().clone();
        let entry = LaneEntry { lanes: self, who, lane };
        let turn = entry.lane.clone().lock_owned().await;
        Turn { _turn: Some(turn), _entry: entry }
    }

    /// People with a lane open (processing or waiting).
    pub fn open(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<UserId, Arc<tokio::sync::Mutex<()>>>> {
        self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Drop for LaneEntry<'_> {
    fn drop(&mut self) {
        let mut open = self.lanes.lock();
        // Held by the map and by this entry only: nobody else waits in the lane.
        if Arc::strong_count(&self.lane) == 2 {
            open.remove(&self.who);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_person_waits_behind_their_own_posts_only() {
        let lanes = Lanes::default();
        let (ada, bob) = (UserId::generate(), UserId::generate());
        let first = lanes.enter(ada).await;
        let second = lanes.enter(ada);
        tokio::pin!(second);
        assert!(futures_poll_once(second.as_mut()).await.is_none(), "Ada's second post waits for her first");
        let bob_turn = lanes.enter(bob).await;
        assert_eq!(lanes.open(), 2);
        drop(first);
        let second = second.await;
        drop((second, bob_turn));
        assert_eq!(lanes.open(), 0, "lanes close when nobody is in them");

        // A waiter that goes away leaves nothing behind either.
        let held = lanes.enter(ada).await;
        {
            let waiting = lanes.enter(ada);
            tokio::pin!(waiting);
            assert!(futures_poll_once(waiting.as_mut()).await.is_none());
        }
        drop(held);
        assert_eq!(lanes.open(), 0);
    }

    async fn futures_poll_once<F: Future + Unpin>(f: F) -> Option<F::Output> {
        tokio::select! {
            biased;
            out = f => Some(out),
            () = std::future::ready(()) => None,
        }
    }

    #[test]
    fn every_kind_has_its_rows_once_in_order() {
        let listed: Vec<PostKind> = KINDS.iter().map(|k| k.kind).collect();
        assert_eq!(listed, PostKind::ALL.to_vec());
    }
}
