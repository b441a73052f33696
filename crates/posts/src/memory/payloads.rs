//! Payloads (a post's files, tracks, scores or lyrics) by post id and edit.
//!
//! A payload changes only when its author edits it, which sets `edited_at` on the post's row in
//! the same transaction, or when background work adds to it (a track's renditions), which adds
//! one to the row's `payload_rev` in the same transaction. So a page reads the row (or holds it,
//! `super::pieces::PostHead`) and takes the payload from here only if it was kept for that same
//! version: a change made by any process is seen by every other with its next read of the row,
//! whether or not a change was heard. Nothing is noted before reading them, then: the version travels with the row. A
//! deleted post's entry is never asked for again (its row is gone) and ages out.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::NaiveDateTime;
use db::DbConnection;
use db::diesel::QueryResult;
use values::{PostId, PostKind};

use crate::kinds;
use crate::model::Payload;

/// About 32 MB of payloads: tens of thousands of posts.
const CAPACITY_BYTES: u64 = 32 << 20;

/// A payload's version: its row's `edited_at` and `payload_rev`.
pub(crate) type PayloadVersion = (Option<NaiveDateTime>, i64);

/// A payload, and the version of the row it was read with.
type Versioned = (PayloadVersion, Arc<Payload>);

#[derive(Clone)]
struct Bytes;

impl quick_cache::Weighter<PostId, Versioned> for Bytes {
    fn weight(&self, _: &PostId, kept: &Versioned) -> u64 {
        kept.1.approximate_size() as u64
    }
}

/// A post whose payload a page shows: its id, its kind, and its payload's version.
pub(crate) type Wanted = (PostId, PostKind, PayloadVersion);

pub(crate) struct Payloads(quick_cache::sync::Cache<PostId, Versioned, Bytes, db::FastHash>);

impl Default for Payloads {
    fn default() -> Self {
        let items = (CAPACITY_BYTES / 1024) as usize;
        Payloads(quick_cache::sync::Cache::with(
            items,
            CAPACITY_BYTES,
            Bytes,
            db::FastHash::default(),
            Default::default(),
        ))
    }
}

impl Payloads {
    /// The payloads of `posts`: those kept for the same edit from here, the rest read on `conn`
    /// (one statement per kind among them) and kept. None when some are not kept and there is
    /// no `conn`. A post whose payload is missing (never written that way) is left out.
    pub(crate) fn of(
        &self,
        conn: Option<&mut DbConnection>,
        posts: &[Wanted],
    ) -> QueryResult<Option<HashMap<PostId, Arc<Payload>>>> {
        let mut found = HashMap::with_capacity(posts.len());
        let mut missing = Vec::new();
        for (id, kind, edited_at) in posts {
            match self.0.get(id) {
                Some((kept_for, payload)) if kept_for == *edited_at => {
                    found.insert(*id, payload);
                }
                _ => missing.push((*id, *kind)),
            }
        }
        if missing.is_empty() {
            return Ok(Some(found));
        }
        let Some(conn) = conn else { return Ok(None) };
        let loaded = kinds::load_payloads(conn, &missing)?;
        for (id, payload) in &loaded {
            if let Some((_, _, edited_at)) = posts.iter().find(|(p, _, _)| p == id) {
                self.0.insert(*id, (*edited_at, payload.clone()));
            }
        }
        found.extend(loaded);
        Ok(Some(found))
    }
}
