//! Work in flight, bounded in memory: at most so many at once for one key (an account, another
//! server) and so many in the process. A slot is taken before the work starts and freed when
//! the [`Slot`] drops, so one beyond is refused at once rather than queued. A process's slots
//! are its own (its disk, its connections).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError};

/// Why a slot was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Full {
    /// The key has its share in flight.
    Key,
    /// The process is at its bound.
    Process,
}

pub struct Slots<K>(Arc<Inner<K>>);

impl<K> Clone for Slots<K> {
    fn clone(&self) -> Self {
        Slots(self.0.clone())
    }
}

struct Inner<K> {
    per_key: usize,
    max_total: usize,
    held: Mutex<Held<K>>,
}

struct Held<K> {
    total: usize,
    per_key: HashMap<K, usize>,
}

impl<K: Hash + Eq + Clone> Slots<K> {
    pub fn new(per_key: usize, max_total: usize) -> Slots<K> {
        Slots(Arc::new(Inner { per_key, max_total, held: Mutex::new(Held { total: 0, per_key: HashMap::new() }) }))
    }

    /// A slot for `key`, unless it has its share in flight or the process is full.
    pub fn take(&self, key: K) -> Result<Slot<K>, Full> {
        let mut held = self.0.held.lock().unwrap_or_else(PoisonError::into_inner);
        if held.per_key.get(&key).copied().unwrap_or(0) >= self.0.per_key {
            return Err(Full::Key);
        }
        if held.total >= self.0.max_total {
            return Err(Full::Process);
        }
        held.total += 1;
        *held.per_key.entry(key.clone()).or_default() += 1;
        Ok(Slot { slots: self.0.clone(), key })
    }

    /// Slots held now, and the bound (for metrics).
    pub fn in_flight(&self) -> (usize, usize) {
        (self.0.held.lock().unwrap_or_else(PoisonError::into_inner).total, self.0.max_total)
    }
}

/// One piece of work in flight; dropping it frees the slot.
pub struct Slot<K: Hash + Eq> {
    slots: Arc<Inner<K>>,
    key: K,
}

impl<K: Hash + Eq> Drop for Slot<K> {
    fn drop(&mut self) {
        let mut held = self.slots.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.total = held.total.saturating_sub(1);
        if let Some(n) = held.per_key.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                held.per_key.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_a_key_and_a_bound_in_all_freed_on_drop() {
        let slots = Slots::new(2, 3);
        let first = slots.take("a").ok();
        let _second = slots.take("a").ok();
        assert_eq!(slots.take("a").err(), Some(Full::Key));
        let _other = slots.take("b").ok();
        assert_eq!(slots.take("c").err(), Some(Full::Process));
        assert_eq!(slots.in_flight(), (3, 3));
        drop(first);
        assert!(slots.take("c").is_ok(), "a freed slot is taken again");
    }
}
