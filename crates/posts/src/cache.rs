//! What pages remember between requests, in memory, and why each can never show what the
//! database would not.
//!
//! **Payloads by post id.** A post's payload (its files, tracks, scores or lyrics) changes only
//! when its author edits it, and an edit sets `edited_at` on the post's row in the same
//! transaction. So a page reads the row (counts, the author's card, the viewer's like, whether
//! the post is still there and may be shown, when it was last edited) and takes the payloads of
//! posts it has shown before from here, each only if it was kept for that same `edited_at`: a
//! page of posts seen before is one statement, not up to five, and an edit made by any process
//! is seen by every other one with its next read of the row, whether or not a change was heard.
//! A deleted post's entry is never read again (its row is gone) and ages out.
//!
//! **How many people a viewer listens to** ([`Listening`], read at most every ten seconds): it
//! only chooses which of two walks Listened to takes, and both give the same pages.
//!
//! **The newest posts, ids and authors only** ([`Newest`]): For you and Listened to pages
//! answered from memory (`crate::memory`) are picked from it, used only while no post was
//! written or deleted since it was read (`db::Topic::Posts`). A page of For you far down by
//! `offset` (the spec's paging) that memory does not answer finds where it starts by walking it,
//! past the posts the viewer may not see, instead of having the database walk and join every
//! post above it; the page itself is then read from the database from that post down, like a
//! cursor page, with every rule applied. While changes may go unheard (PostgreSQL's listener
//! not connected), that walk takes a list at most [`NEWEST_FOR`] old (forgotten at once when
//! this process writes or deletes a post), and memory answers no page.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::NaiveDateTime;
use db::diesel::prelude::*;
use db::schema::{posts, users};
use db::{Changes, DbConnection, Seen, Topic};
use values::{PostId, UserId};

use crate::model::Payload;

/// Everything a [`crate::Posts`] remembers.
pub(crate) struct Remembered {
    pub payloads: PayloadCache,
    pub newest: Newest,
    pub listening: Listening,
    /// Heads of posts, what viewers see, people's newest posts (`crate::memory`).
    pub memory: crate::memory::Memory,
    pub changes: Arc<Changes>,
}

impl Remembered {
    pub(crate) fn new(changes: Arc<Changes>) -> Remembered {
        Remembered {
            payloads: PayloadCache::default(),
            newest: Newest::default(),
            listening: Listening::default(),
            memory: crate::memory::Memory::default(),
            changes,
        }
    }
}

/// How long how many people someone listens to is taken as known.
const LISTENING_FOR: Duration = Duration::from_secs(10);

/// How many people each viewer listens to, read at most every [`LISTENING_FOR`]: it only
/// chooses how Listened to is walked, and both walks give the same pages (a test), so a count
/// a few seconds old costs at most a slower page, never a wrong one.
pub(crate) struct Listening(quick_cache::sync::Cache<UserId, (Instant, i64)>);

impl Default for Listening {
    fn default() -> Self {
        Listening(quick_cache::sync::Cache::new(100_000))
    }
}

impl Listening {
    pub(crate) fn of(&self, conn: &mut DbConnection, viewer: UserId) -> QueryResult<i64> {
        if let Some((at, count)) = self.0.get(&viewer)
            && at.elapsed() < LISTENING_FOR
        {
            return Ok(count);
        }
        let count = listening_count(conn, viewer)?;
        self.0.insert(viewer, (Instant::now(), count));
        Ok(count)
    }
}

/// How many people `viewer` listens to (the counter on their row).
pub(crate) fn listening_count(conn: &mut DbConnection, viewer: UserId) -> QueryResult<i64> {
    users::table.filter(users::id.eq(viewer)).select(users::listened_to_count).get_result(conn)
}

/// About 32 MB of payloads: tens of thousands of posts.
const CAPACITY_BYTES: u64 = 32 << 20;

#[derive(Clone)]
struct Bytes;

impl quick_cache::Weighter<PostId, Kept> for Bytes {
    fn weight(&self, _: &PostId, kept: &Kept) -> u64 {
        kept.1.approximate_size() as u64
    }
}

/// A payload, and the `edited_at` of the row it was read with.
type Kept = (Option<NaiveDateTime>, Payload);

/// A post's id and when it was last edited: which version of its payload a page shows.
pub(crate) type Version = (PostId, Option<NaiveDateTime>);

pub(crate) struct PayloadCache(quick_cache::sync::Cache<PostId, Kept, Bytes>);

impl Default for PayloadCache {
    fn default() -> Self {
        PayloadCache(quick_cache::sync::Cache::with_weighter((CAPACITY_BYTES / 1024) as usize, CAPACITY_BYTES, Bytes))
    }
}

impl PayloadCache {
    /// The payloads of `posts` found here as last edited then; the rest are left in `missing`.
    pub(crate) fn take(&self, posts: &[Version], missing: &mut Vec<PostId>) -> HashMap<PostId, Payload> {
        let mut found = HashMap::with_capacity(posts.len());
        for (id, edited_at) in posts {
            match self.0.get(id) {
                Some((kept_for, payload)) if kept_for == *edited_at => {
                    found.insert(*id, payload);
                }
                _ => missing.push(*id),
            }
        }
        found
    }

    /// Keeps a payload read with a row edited at `edited_at`.
    pub(crate) fn keep(&self, (id, edited_at): Version, payload: &Payload) {
        self.0.insert(id, (edited_at, payload.clone()));
    }
}

/// How many of the newest posts the list holds: offsets up to about this deep are found in
/// memory; deeper ones are walked by the database as before.
const NEWEST_LEN: i64 = 20_000;

/// How long the list is used before it is read again while changes may go unheard (on
/// PostgreSQL before the listening connection is up): posts written or deleted by other
/// processes show in the count of a deep offset within this time.
pub(crate) const NEWEST_FOR: Duration = Duration::from_secs(1);

/// Posts newest first, as (post, author).
pub(crate) type PostList = Arc<Vec<(PostId, UserId)>>;

/// The newest posts, when they were read, and what had changed by then.
#[derive(Default)]
pub(crate) struct Newest(Mutex<Option<(Instant, Option<Seen>, PostList)>>);

impl Newest {
    /// Forgets the list (a post was written or deleted here).
    pub(crate) fn forget(&self) {
        if let Ok(mut held) = self.0.lock() {
            *held = None;
        }
    }

    /// The post a page `offset` posts down For you starts at, for `viewer`: past the posts of
    /// people in a block pair with them and of suspended people, as the page itself leaves them
    /// out. None when the list does not reach that far.
    pub(crate) fn start_at(
        &self,
        conn: &mut DbConnection,
        changes: &Changes,
        offset: i64,
        viewer: Option<UserId>,
    ) -> QueryResult<Option<PostId>> {
        let Some(list) = self.list(Some(conn), changes, false)? else { return Ok(None) };
        let hidden = social_graph::hidden_from(conn, viewer)?;
        let skip = usize::try_from(offset).unwrap_or(usize::MAX);
        Ok(list.iter().filter(|(_, author)| !hidden.contains(author)).nth(skip).map(|(id, _)| *id))
    }

    /// The list as the database has it now, and whether it holds every post: none while
    /// changes may go unheard, or when it would have to be read and `conn` is none.
    pub(crate) fn exact(
        &self,
        conn: Option<&mut DbConnection>,
        changes: &Changes,
    ) -> QueryResult<Option<(PostList, bool)>> {
        let list = self.list(conn, changes, true)?;
        Ok(list.map(|list| {
            let complete = (list.len() as i64) < NEWEST_LEN;
            (list, complete)
        }))
    }

    /// The list: kept while no post was written or deleted since it was read, or (not `exact`)
    /// for [`NEWEST_FOR`].
    fn list(&self, conn: Option<&mut DbConnection>, changes: &Changes, exact: bool) -> QueryResult<Option<PostList>> {
        // Held while the list is read, so that requests arriving together read it once.
        let mut held = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((at, seen, list)) = held.as_ref() {
            let unchanged = seen.is_some_and(|seen| changes.unchanged(seen, [Topic::Posts]));
            if unchanged || (!exact && at.elapsed() < NEWEST_FOR) {
                return Ok(Some(list.clone()));
            }
        }
        let Some(conn) = conn else { return Ok(None) };
        let seen = changes.seen();
        if exact && seen.is_none() {
            return Ok(None);
        }
        let list: Vec<(PostId, UserId)> =
            posts::table.select((posts::id, posts::user_id)).order(posts::id.desc()).limit(NEWEST_LEN).load(conn)?;
        let list = Arc::new(list);
        *held = Some((Instant::now(), seen, list.clone()));
        Ok(Some(list))
    }
}
