//! Answers remembered between requests: the one way anything is kept in memory.
//!
//! A [`Held`] keeps values read from the database, each with the moment noted *before* it was
//! read ([`crate::Changes::seen`]), and gives one back only while none of the topics it was
//! read from has changed since ([`Holdable::topics`]), it has not lapsed, and it is younger
//! than the `Held`'s lifetime. [`Held::get_or_read`] (and [`Held::get_many_or_read`] for
//! several keys at once, [`Held::get_or_update`] for a value brought up to date from the one
//! held) is the only code that notes the moment: whatever is remembered comes through it. The rules, and what each remembered answer depends on: `docs/architecture.md`,
//! "Memory and writes".

use std::hash::Hash;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::changes::HELD_AT_MOST;
use crate::{Changes, DbConnection, Seen, Topic};

/// What a [`Held`] may keep under a key `K`.
pub trait Holdable<K>: Send + Sync + 'static {
    /// The topics the value was read from: it is used only while none of them changed.
    fn topics(&self, key: &K) -> impl Iterator<Item = Topic>;

    /// About how many bytes it holds (what a `Held` may keep is bounded in bytes).
    fn weight(&self) -> u64;

    /// Whether it may no longer be used, whatever changed (a session past its expiry).
    fn lapsed(&self) -> bool {
        false
    }
}

/// A value and the moment noted before it was read; none when it could not be noted (changes
/// may go unheard), and then it was not kept.
pub struct Noted<V> {
    seen: Option<Seen>,
    value: V,
}

impl<V> Noted<V> {
    /// Whether none of `topics` changed since it was read (and it is younger than
    /// [`HELD_AT_MOST`]): what an update may rely on ([`Held::get_or_update`]).
    pub fn unchanged_in(&self, changes: &Changes, topics: impl IntoIterator<Item = Topic>) -> bool {
        self.seen.is_some_and(|seen| changes.unchanged(seen, topics))
    }

    /// The posts written since it was read, when every one is known
    /// ([`Changes::written_since`]): what an update of the newest posts may take in without
    /// reading.
    pub fn written_since(&self, changes: &Changes) -> Option<Vec<(values::PostId, values::UserId)>> {
        changes.written_since(self.seen?)
    }
}

impl<V> std::ops::Deref for Noted<V> {
    type Target = V;
    fn deref(&self) -> &V {
        &self.value
    }
}

/// Weighs an entry by its value's [`Holdable::weight`].
#[derive(Clone)]
pub struct ByWeight;

impl<K, V: Holdable<K>> quick_cache::Weighter<K, Arc<Noted<V>>> for ByWeight {
    fn weight(&self, _: &K, noted: &Arc<Noted<V>>) -> u64 {
        noted.value.weight()
    }
}

/// Marks the one read under way done when dropped (even by a panic).
struct Reading<'a>(&'a AtomicBool);

impl Drop for Reading<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// What [`Held::get_some_or_read`] found for a key: none when nothing is there.
pub type Found<V> = Option<Arc<Noted<V>>>;

/// Values of type `V` by key, each used while what it was read from stands (see the module).
pub struct Held<K, V> {
    entries: quick_cache::sync::Cache<K, Arc<Noted<V>>, ByWeight, crate::FastHash>,
    changes: Arc<Changes>,
    lifetime: Duration,
    /// Whether one read at a time is let through ([`Held::one_read_at_a_time`]).
    alone: bool,
    /// Whether that read is under way.
    reading: AtomicBool,
}

impl<K, V> Held<K, V>
where
    K: Eq + Hash + Clone + Send + Sync + 'static,
    V: Holdable<K>,
{
    /// At most about `bytes` of values, typically `typical` bytes each, used for at most
    /// [`HELD_AT_MOST`]. The values are kept in shards (fewer when they are few), and one
    /// heavier than most of its shard's share of `bytes` is never kept: a memory of a few large
    /// values wants `bytes` at twice the largest, and `typical` at it.
    pub fn new(changes: Arc<Changes>, bytes: u64, typical: u64) -> Held<K, V> {
        let items = (bytes / typical.max(1)).max(1) as usize;
        Held {
            entries: quick_cache::sync::Cache::with(
                items,
                bytes,
                ByWeight,
                crate::FastHash::default(),
                Default::default(),
            ),
            changes,
            lifetime: HELD_AT_MOST,
            alone: false,
            reading: AtomicBool::new(false),
        }
    }

    /// Used for at most `lifetime` (shorter than [`HELD_AT_MOST`]), changed or not.
    pub fn lasting(mut self, lifetime: Duration) -> Held<K, V> {
        self.lifetime = lifetime.min(HELD_AT_MOST);
        self
    }

    /// For a value costly to read (the newest posts): while one read of it is under way, the
    /// others answer none at once ([`Held::get_or_read`]) instead of reading it too, or
    /// waiting.
    pub fn one_read_at_a_time(mut self) -> Held<K, V> {
        self.alone = true;
        self
    }

    /// The changes this memory follows.
    pub fn changes(&self) -> &Arc<Changes> {
        &self.changes
    }

    /// The value held for `key`, when it may still be used.
    pub fn get(&self, key: &K) -> Option<Arc<Noted<V>>> {
        let noted = self.entries.get(key)?;
        self.current(key, &noted).then_some(noted)
    }

    fn current(&self, key: &K, noted: &Noted<V>) -> bool {
        noted.seen.is_some_and(|seen| {
            seen.age() < self.lifetime && !noted.value.lapsed() && self.changes.unchanged(seen, noted.value.topics(key))
        })
    }

    /// The value for `key`: the one held while it may be used, else read on `conn` by `read`
    /// and kept (when the moment before the read could be noted). None when it is not held and
    /// there is no `conn`, or `read` found nothing, or (one read at a time) another read of it
    /// is under way.
    pub fn get_or_read<E>(
        &self,
        key: &K,
        conn: Option<&mut DbConnection>,
        read: impl FnOnce(&mut DbConnection) -> Result<Option<V>, E>,
    ) -> Result<Option<Arc<Noted<V>>>, E> {
        self.get_or_update(key, conn, |c, _| read(c))
    }

    /// [`Held::get_or_read`] for a value that can be brought up to date from the one held
    /// before rather than read whole (the newest posts: only what is new is read). `update` is
    /// given the value held, current or not (none when nothing is held), and answers the value
    /// now; it must read whole whatever it cannot tell from the topics that changed since the
    /// value held was read ([`Noted::unchanged_in`]). The moment is noted before `update`, as
    /// for any read.
    pub fn get_or_update<E>(
        &self,
        key: &K,
        conn: Option<&mut DbConnection>,
        update: impl FnOnce(&mut DbConnection, Option<&Noted<V>>) -> Result<Option<V>, E>,
    ) -> Result<Option<Arc<Noted<V>>>, E> {
        let held = self.entries.get(key);
        if let Some(noted) = &held
            && self.current(key, noted)
        {
            return Ok(held);
        }
        let Some(conn) = conn else { return Ok(None) };
        let _alone = match self.alone {
            true if self.reading.swap(true, Ordering::AcqRel) => return Ok(None),
            true => Some(Reading(&self.reading)),
            false => None,
        };
        let seen = self.changes.seen();
        let Some(value) = update(conn, held.as_deref())? else { return Ok(None) };
        Ok(Some(self.keep(key.clone(), seen, value)))
    }

    /// The value for `key`: the one held while it may be used, else the one `patch` makes of
    /// the value held (current or not) without reading anything, kept as read at the moment
    /// noted before `patch` (it must take in every change since the value held was read, or
    /// answer none). None when nothing is held or `patch` answers none: then
    /// [`Held::get_or_update`] reads.
    pub fn get_or_patch(&self, key: &K, patch: impl FnOnce(&Noted<V>) -> Option<V>) -> Option<Arc<Noted<V>>> {
        let held = self.entries.get(key)?;
        if self.current(key, &held) {
            return Some(held);
        }
        let seen = self.changes.seen();
        let value = patch(&held)?;
        Some(self.keep(key.clone(), seen, value))
    }

    /// The values for `keys`, in order: those held while they may be used, the rest read
    /// together on `conn` by `read` (given the keys missing, answering what it found) and kept
    /// (as [`Held::get_or_read`]). None when one is not held and there is no `conn`, or `read`
    /// did not find it.
    pub fn get_many_or_read<E>(
        &self,
        keys: &[K],
        conn: Option<&mut DbConnection>,
        read: impl FnOnce(&mut DbConnection, &[K]) -> Result<Vec<(K, V)>, E>,
    ) -> Result<Option<Vec<Arc<Noted<V>>>>, E> {
        Ok(self.get_some_or_read(keys, conn, read)?.and_then(|found| found.into_iter().collect()))
    }

    /// [`Held::get_many_or_read`] for keys some of which may name nothing (a post deleted since
    /// a list of it was made): those `read` did not find are none in their place. None only
    /// when one is not held and there is no `conn`.
    pub fn get_some_or_read<E>(
        &self,
        keys: &[K],
        conn: Option<&mut DbConnection>,
        read: impl FnOnce(&mut DbConnection, &[K]) -> Result<Vec<(K, V)>, E>,
    ) -> Result<Option<Vec<Found<V>>>, E> {
        let mut found: Vec<Found<V>> = keys.iter().map(|key| self.get(key)).collect();
        let missing: Vec<K> = keys.iter().zip(&found).filter(|(_, f)| f.is_none()).map(|(k, _)| k.clone()).collect();
        if !missing.is_empty() {
            let Some(conn) = conn else { return Ok(None) };
            let seen = self.changes.seen();
            for (key, value) in read(conn, &missing)? {
                let noted = self.keep(key.clone(), seen, value);
                for (slot, _) in found.iter_mut().zip(keys).filter(|(f, k)| f.is_none() && **k == key) {
                    *slot = Some(noted.clone());
                }
            }
        }
        Ok(Some(found))
    }

    /// Keeps `value`, read on a connection after `seen` was noted ([`Changes::seen`] of this
    /// memory's changes), as [`Held::get_or_read`] keeps what it reads: for a statement that
    /// reads the values of several memories at once (nothing is kept without `seen`).
    pub fn keep_read(&self, key: K, seen: Option<Seen>, value: V) -> Arc<Noted<V>> {
        self.keep(key, seen, value)
    }

    /// Keeps `value` as read after `seen` (nothing is kept without it).
    fn keep(&self, key: K, seen: Option<Seen>, value: V) -> Arc<Noted<V>> {
        let noted = Arc::new(Noted { seen, value });
        if seen.is_some() {
            self.entries.insert(key, noted.clone());
        }
        noted
    }

    /// Puts `value` in the place of `noted`, held for `key`, as read at the same moment: for
    /// what the program itself changed in it since (a session marked as used).
    pub fn refresh(&self, key: K, noted: &Noted<V>, value: V) {
        if noted.seen.is_some() {
            let _ = self.entries.replace(key, Arc::new(Noted { seen: noted.seen, value }), false);
        }
    }

    /// How many values are held (for metrics and tests).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use values::UserId;

    struct Card(&'static str);

    impl Holdable<UserId> for Card {
        fn topics(&self, key: &UserId) -> impl Iterator<Item = Topic> {
            std::iter::once(Topic::User(*key))
        }
        fn weight(&self) -> u64 {
            64
        }
        fn lapsed(&self) -> bool {
            self.0 == "lapsed"
        }
    }

    fn never(_: &mut DbConnection) -> Result<Option<Card>, ()> {
        Err(())
    }

    #[test]
    fn nothing_is_read_without_a_connection_and_nothing_held_is_given_once_it_changed() {
        let changes = Arc::new(Changes::new(true));
        let held: Held<UserId, Card> = Held::new(changes.clone(), 1 << 20, 64);
        let ana = UserId::generate();
        assert!(matches!(held.get_or_read(&ana, None, never), Ok(None)), "not held, no connection");
        let seen = changes.seen();
        held.keep(ana, seen, Card("Ana"));
        assert_eq!(held.get(&ana).map(|c| c.0), Some("Ana"));
        assert!(matches!(held.get_or_read(&ana, None, never), Ok(Some(_))), "held: nothing read");
        changes.stamp(&[Topic::User(UserId::generate())]);
        assert!(held.get(&ana).is_some(), "someone else changed");
        changes.stamp(&[Topic::User(ana)]);
        assert!(held.get(&ana).is_none(), "read before the change");
        held.keep(ana, changes.seen(), Card("lapsed"));
        assert!(held.get(&ana).is_none(), "lapsed");
    }

    #[test]
    fn nothing_read_while_changes_may_go_unheard_is_kept() {
        let changes = Arc::new(Changes::new(false));
        let held: Held<UserId, Card> = Held::new(changes.clone(), 1 << 20, 64);
        let ana = UserId::generate();
        let noted = held.keep(ana, changes.seen(), Card("Ana"));
        assert_eq!(noted.0, "Ana", "answered");
        assert!(held.get(&ana).is_none() && held.is_empty(), "but not kept");
    }

    #[test]
    fn a_value_read_before_a_change_is_not_used() {
        let changes = Arc::new(Changes::new(true));
        let held: Held<UserId, Card> = Held::new(changes.clone(), 1 << 20, 64);
        let ana = UserId::generate();
        // The moment is noted, the read begins, and Ana's card changes before it is kept.
        let seen = changes.seen();
        changes.stamp(&[Topic::User(ana)]);
        held.keep(ana, seen, Card("Ana"));
        assert!(held.get(&ana).is_none(), "overtaken by the change");
    }

    #[test]
    fn one_read_at_a_time_answers_the_others_none_meanwhile() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let url = dir.path().join("h.sqlite3").display().to_string();
        let db = crate::Db::connect(&url, &crate::PoolOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let (mut first, mut second) =
            (db.get().unwrap_or_else(|e| panic!("{e}")), db.get().unwrap_or_else(|e| panic!("{e}")));
        let held: Held<UserId, Card> = Held::new(db.changes().clone(), 1 << 20, 64).one_read_at_a_time();
        let ana = UserId::generate();
        let read = held.get_or_read(&ana, Some(&mut first), |_| {
            // Another request asks while this read is under way: none, and nothing read.
            let meanwhile = held.get_or_read(&ana, Some(&mut second), never);
            assert!(matches!(meanwhile, Ok(None)));
            Ok::<_, ()>(Some(Card("Ana")))
        });
        assert!(matches!(read, Ok(Some(_))));
        assert_eq!(held.get(&ana).map(|c| c.0), Some("Ana"), "kept for the others");
    }

    struct Heavy(u64);

    impl Holdable<()> for Heavy {
        fn topics(&self, _: &()) -> impl Iterator<Item = Topic> {
            std::iter::empty()
        }
        fn weight(&self) -> u64 {
            self.0
        }
    }

    #[test]
    fn a_value_as_heavy_as_half_its_memory_is_kept() {
        let changes = Arc::new(Changes::new(true));
        let fits: Held<(), Heavy> = Held::new(changes.clone(), 640_000, 320_000);
        fits.keep((), changes.seen(), Heavy(320_000));
        assert!(fits.get(&()).is_some());
        let full: Held<(), Heavy> = Held::new(changes.clone(), 320_000, 320_000);
        full.keep((), changes.seen(), Heavy(320_000));
        assert!(full.get(&()).is_none(), "as heavy as the whole memory: never kept");
    }

    #[test]
    fn a_short_lifetime_ends_it_sooner() {
        let changes = Arc::new(Changes::new(true));
        let held: Held<UserId, Card> = Held::new(changes.clone(), 1 << 20, 64).lasting(Duration::ZERO);
        let ana = UserId::generate();
        held.keep(ana, changes.seen(), Card("Ana"));
        assert!(held.get(&ana).is_none());
    }
}
