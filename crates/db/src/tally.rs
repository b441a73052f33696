//! Fixed-window counters counted in the process's memory and added to the database's
//! ([`crate::throttle`]) in batches: the write limits of every call.
//!
//! Counting a hit in the database is a write: under a community's mix each like, comment and
//! music search paid one of its own before its work began (on PostgreSQL a commit and its
//! flush to the disk; on SQLite a trip through the writer thread), and a music search, a read,
//! cost as much as a like (issue 30). Here a hit is counted in memory, and decided there: what
//! the database's counter held when it last answered, plus what this process counted since. A
//! flush ([`Tally::flush`], every [`FLUSH_EVERY`]) adds what was counted to the database's
//! counters in a few statements, and learns from their answers what every process has counted.
//!
//! So a limit holds exactly within one process, and across processes to within one flush: a
//! process learns of the others' hits at its next flush after theirs. At worst, a client whose
//! calls a balancer spreads over `n` processes gets about `n` times its limit in the first
//! [`FLUSH_EVERY`] of a window, then nothing more until the window ends (a test on PostgreSQL,
//! two processes). A process that stops loses at most what it counted since its last flush.
//!
//! Memory is bounded: at most [`MOST_KEYS`] counters are held. A key new to a full tally is
//! not counted here ([`Tally::hit_all`] answers none) and its caller counts it in the database
//! at once, as before; every flush forgets counters whose window has ended.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chrono::NaiveDateTime;
use diesel::RunQueryDsl;

use crate::throttle::{KeyedBucket, Throttled, remaining, upsert, window_cutoff};
use crate::{DbConnection, DbError, FastMap};

/// How often what was counted is added to the database's counters, when anything was.
pub const FLUSH_EVERY: Duration = Duration::from_millis(100);

/// The most counters held (about 150 bytes each: 15 MB).
pub const MOST_KEYS: usize = 100_000;

/// How many rows one statement of a flush adds, largest first: a flush of `n` counters takes
/// a few statements of these sizes, and so only these texts are ever prepared.
const ROWS: [usize; 4] = [64, 16, 4, 1];

/// One counter: its window as the database last answered, what it held then, and what was
/// counted here since.
#[derive(Clone, Copy, Debug)]
struct Count {
    window: Duration,
    /// When the window began: as the database answered, or (until it has) when this process
    /// first counted in it.
    started: NaiveDateTime,
    /// The hits the database's counter held at its last answer, this process's included.
    known: i64,
    /// Counted here since, not yet sent.
    pending: i64,
    /// Sent by the flush under way, not yet answered.
    sending: i64,
}

impl Count {
    fn total(&self) -> i64 {
        self.known + self.sending + self.pending
    }

    fn ended(&self, now: NaiveDateTime) -> bool {
        self.started <= window_cutoff(now, self.window)
    }
}

/// The counters of this process (see the module); one per process, shared.
pub struct Tally {
    counts: Mutex<FastMap<String, Count>>,
    most: usize,
    /// Whether anything was counted since the last flush took what was.
    pending: AtomicBool,
}

impl Default for Tally {
    fn default() -> Self {
        Tally::holding(MOST_KEYS)
    }
}

impl Tally {
    /// A tally of at most `most` counters (lower in a test).
    pub fn holding(most: usize) -> Tally {
        Tally { counts: Mutex::new(FastMap::default()), most, pending: AtomicBool::new(false) }
    }

    fn counts(&self) -> std::sync::MutexGuard<'_, FastMap<String, Count>> {
        self.counts.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Counts one hit on each of `counters` (a key and its most hits per `window`): every
    /// counter counts even when another is full; refuses with the longest wait among full
    /// ones, as [`crate::throttle::hit_all`] does. None when one of the keys is new and the
    /// tally is full: nothing was counted, and the caller counts them in the database.
    pub fn hit_all(&self, counters: &[(&str, i64)], window: Duration) -> Option<Result<(), Throttled>> {
        let now = crate::time::now();
        let mut counts = self.counts();
        let new = counters.iter().filter(|(key, _)| !counts.contains_key(*key)).count();
        if counts.len() + new > self.most {
            return None;
        }
        let mut wait: Option<Duration> = None;
        for (key, max) in counters {
            let count = counts.entry((*key).to_owned()).or_insert(Count {
                window,
                started: now,
                known: 0,
                pending: 0,
                sending: 0,
            });
            if count.ended(now) {
                // Hits of the window that ended are not carried into the next.
                *count = Count { window, started: now, known: 0, pending: 0, sending: count.sending };
            }
            count.pending += 1;
            self.pending.store(true, Ordering::Relaxed);
            if count.total() > *max {
                wait = wait.max(Some(remaining(count.started, now, window)));
            }
        }
        Some(match wait {
            Some(wait) => Err(Throttled::Full(wait)),
            None => Ok(()),
        })
    }

    /// Whether anything was counted since the last flush (or a flush failed to send it).
    pub fn has_pending(&self) -> bool {
        self.pending.load(Ordering::Relaxed)
    }

    /// How many counters are held (for tests and metrics).
    pub fn len(&self) -> usize {
        self.counts().len()
    }

    pub fn is_empty(&self) -> bool {
        self.counts().is_empty()
    }

    /// Adds what was counted since the last flush to the database's counters on `conn`, and
    /// takes their answers as what is known; forgets counters whose window has ended. A few
    /// statements (one for each window among the counters, and each of [`ROWS`]' sizes), each
    /// standing alone: run it through `Db::write_without_transaction`. What a failed statement
    /// carried is counted again at the next flush. Answers how many counters were sent.
    pub fn flush(&self, conn: &mut DbConnection) -> Result<usize, DbError> {
        let now = crate::time::now();
        let mut sent: Vec<(String, i64, Duration)> = Vec::new();
        {
            let mut counts = self.counts();
            self.pending.store(false, Ordering::Relaxed);
            counts.retain(|_, c| c.pending > 0 || c.sending > 0 || !c.ended(now));
            for (key, count) in counts.iter_mut().filter(|(_, c)| c.pending > 0) {
                count.sending += count.pending;
                sent.push((key.clone(), count.pending, count.window));
                count.pending = 0;
            }
        }
        sent.sort_by_key(|(_, _, window)| *window);
        let mut failed: Option<DbError> = None;
        let mut rest: &[(String, i64, Duration)] = &sent;
        while let Some((_, _, window)) = rest.first() {
            let same = rest.iter().take_while(|(_, _, w)| w == window).count();
            let size = ROWS.iter().copied().find(|size| *size <= same).unwrap_or(1);
            let (chunk, after) = rest.split_at(size);
            rest = after;
            if failed.is_some() {
                self.give_back(chunk);
                continue;
            }
            let rows: Vec<(&str, i64)> = chunk.iter().map(|(key, hits, _)| (key.as_str(), *hits)).collect();
            match upsert(&rows, now, window_cutoff(now, *window)).load::<KeyedBucket>(conn) {
                Ok(answered) => self.take_answers(chunk, &answered),
                Err(e) => {
                    self.give_back(chunk);
                    failed = Some(e.into());
                }
            }
        }
        match failed {
            Some(e) => Err(e),
            None => Ok(sent.len()),
        }
    }

    /// The database's counts for what `chunk` sent.
    fn take_answers(&self, chunk: &[(String, i64, Duration)], answered: &[KeyedBucket]) {
        let mut counts = self.counts();
        for (key, hits, _) in chunk {
            let Some(count) = counts.get_mut(key) else { continue };
            count.sending = (count.sending - hits).max(0);
            if let Some(bucket) = answered.iter().find(|b| b.key == *key) {
                count.known = bucket.hits;
                count.started = bucket.window_start;
            }
        }
    }

    /// What `chunk` sent, counted again for the next flush (its statement failed).
    fn give_back(&self, chunk: &[(String, i64, Duration)]) {
        let mut counts = self.counts();
        for (key, hits, _) in chunk {
            if let Some(count) = counts.get_mut(key) {
                count.sending = (count.sending - hits).max(0);
                count.pending += hits;
                self.pending.store(true, Ordering::Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: Duration = Duration::from_secs(3600);

    #[test]
    fn one_process_holds_a_limit_exactly_and_every_hit_counts() {
        let tally = Tally::default();
        for _ in 0..3 {
            assert!(matches!(tally.hit_all(&[("k", 3)], HOUR), Some(Ok(()))));
        }
        let Some(Err(Throttled::Full(wait))) = tally.hit_all(&[("k", 3)], HOUR) else { panic!("a fourth") };
        assert!(wait > Duration::from_secs(3590) && wait <= HOUR, "{wait:?}");
        // Both counters count even when one is full; the other is not full yet.
        assert!(matches!(tally.hit_all(&[("k", 3), ("other", 2)], HOUR), Some(Err(_))));
        assert!(matches!(tally.hit_all(&[("other", 2)], HOUR), Some(Ok(()))));
        assert!(matches!(tally.hit_all(&[("other", 2)], HOUR), Some(Err(_))), "the refused call counted too");
        assert!(tally.has_pending());
    }

    #[test]
    fn a_window_that_ended_starts_again_and_a_full_tally_counts_nothing_new() {
        let tally = Tally::holding(2);
        let short = Duration::from_millis(1);
        assert!(matches!(tally.hit_all(&[("a", 1)], short), Some(Ok(()))));
        std::thread::sleep(Duration::from_millis(5));
        assert!(matches!(tally.hit_all(&[("a", 1)], short), Some(Ok(()))), "a new window");
        assert!(matches!(tally.hit_all(&[("b", 1)], HOUR), Some(Ok(()))));
        assert!(tally.hit_all(&[("c", 1)], HOUR).is_none(), "full: counted in the database instead");
        assert!(tally.hit_all(&[("b", 1), ("c", 1)], HOUR).is_none(), "nothing counted when one key is new");
        assert!(matches!(tally.hit_all(&[("b", 1)], HOUR), Some(Err(_))), "b counted once before, not by the refusals");
        assert_eq!(tally.len(), 2);
    }
}
