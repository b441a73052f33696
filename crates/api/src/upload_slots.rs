//! Uploads in flight: at most [`PER_ACCOUNT`] per account and `SELFSOUND_UPLOADS_IN_FLIGHT`
//! (default 8) in the process. A slot is taken before the body is read and held until the
//! post or avatar is made (its temporary files are gone by then), so one beyond is refused at
//! once with 429, and the disk temporary files use is at most the bound times the largest body
//! (audio: ten files of 50 MB). Counted in memory: a process's disk and slots are its own.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use values::{ErrorKind, UserId};

use crate::error::ApiError;

/// Uploads one account may have in flight at once.
pub const PER_ACCOUNT: usize = 2;

/// The name metrics count refused uploads under (beside the write limits' names).
pub const LIMIT_NAME: &str = "uploads";

/// What a refused upload is told to wait: uploads take seconds to minutes.
const RETRY_AFTER: Duration = Duration::from_secs(10);

#[derive(Clone)]
pub struct UploadSlots(Arc<Inner>);

struct Inner {
    max_total: usize,
    held: Mutex<Held>,
}

#[derive(Default)]
struct Held {
    total: usize,
    per_account: HashMap<UserId, usize>,
}

impl UploadSlots {
    pub fn new(max_total: usize) -> UploadSlots {
        UploadSlots(Arc::new(Inner { max_total, held: Mutex::new(Held::default()) }))
    }

    /// A slot for one upload of `user`, or 429 when they have [`PER_ACCOUNT`] in flight or the
    /// process is at its bound.
    pub fn take(&self, user: UserId) -> Result<UploadSlot, ApiError> {
        let mut held = self.0.held.lock().unwrap_or_else(PoisonError::into_inner);
        if held.per_account.get(&user).copied().unwrap_or(0) >= PER_ACCOUNT {
            return Err(ApiError::new(
                ErrorKind::Throttled { retry_after: RETRY_AFTER },
                format!("You already have {PER_ACCOUNT} uploads in progress. Please wait until one has finished."),
            )
            .for_limit(LIMIT_NAME));
        }
        if held.total >= self.0.max_total {
            return Err(ApiError::new(
                ErrorKind::Throttled { retry_after: RETRY_AFTER },
                "The server is busy with other uploads. Please try again in a moment.",
            )
            .for_limit(LIMIT_NAME));
        }
        held.total += 1;
        *held.per_account.entry(user).or_default() += 1;
        Ok(UploadSlot { slots: self.0.clone(), user })
    }

    /// Uploads in flight now, and the bound (for metrics).
    pub fn in_flight(&self) -> (usize, usize) {
        (self.0.held.lock().unwrap_or_else(PoisonError::into_inner).total, self.0.max_total)
    }
}

/// One upload in flight; dropping it frees the slot.
pub struct UploadSlot {
    slots: Arc<Inner>,
    user: UserId,
}

impl Drop for UploadSlot {
    fn drop(&mut self) {
        let mut held = self.slots.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.total = held.total.saturating_sub(1);
        if let Some(n) = held.per_account.get_mut(&self.user) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                held.per_account.remove(&self.user);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_a_person_and_a_bound_in_all_freed_on_drop() {
        let slots = UploadSlots::new(3);
        let (a, b, c) = (UserId::generate(), UserId::generate(), UserId::generate());
        let first = slots.take(a).ok();
        let _second = slots.take(a).ok();
        let third = slots.take(a).err().map(|e| (e.kind(), e.to_string()));
        assert_eq!(third.map(|(k, _)| k), Some(ErrorKind::Throttled { retry_after: RETRY_AFTER }));
        let _other = slots.take(b).ok();
        assert!(slots.take(c).err().is_some_and(|e| e.to_string().contains("busy")), "the process is full");
        drop(first);
        assert!(slots.take(c).is_ok(), "a freed slot is taken again");
    }
}
