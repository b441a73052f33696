//! Uploads in flight: at most [`PER_ACCOUNT`] per account and `SELFSOUND_UPLOADS_IN_FLIGHT`
//! (default 8) in the process. A slot is taken before the body is read and held until the
//! post or avatar is made (its temporary files are gone by then), so one beyond is refused at
//! once with 429, and the disk temporary files use is at most the bound times the largest body
//! (audio: ten files of 50 MB). Counted in memory: a process's disk and slots are its own.

use std::time::Duration;

use values::{ErrorKind, UserId};

use crate::error::ApiError;
use crate::slots::{Full, Slot, Slots};

/// Uploads one account may have in flight at once.
pub const PER_ACCOUNT: usize = 2;

/// The name metrics count refused uploads under (beside the write limits' names).
pub const LIMIT_NAME: &str = "uploads";

/// What a refused upload is told to wait: uploads take seconds to minutes.
const RETRY_AFTER: Duration = Duration::from_secs(10);

#[derive(Clone)]
pub struct UploadSlots(Slots<UserId>);

/// One upload in flight; dropping it frees the slot.
pub type UploadSlot = Slot<UserId>;

impl UploadSlots {
    pub fn new(max_total: usize) -> UploadSlots {
        UploadSlots(Slots::new(PER_ACCOUNT, max_total))
    }

    /// A slot for one upload of `user`, or 429 when they have [`PER_ACCOUNT`] in flight or the
    /// process is at its bound.
    pub fn take(&self, user: UserId) -> Result<UploadSlot, ApiError> {
        let detail = match self.0.take(user) {
            Ok(slot) => return Ok(slot),
            Err(Full::Key) => {
                format!("You already have {PER_ACCOUNT} uploads in progress. Please wait until one has finished.")
            }
            Err(Full::Process) => "The server is busy with other uploads. Please try again in a moment.".to_owned(),
        };
        Err(ApiError::new(ErrorKind::Throttled { retry_after: RETRY_AFTER }, detail).for_limit(LIMIT_NAME))
    }

    /// Uploads in flight now, and the bound (for metrics).
    pub fn in_flight(&self) -> (usize, usize) {
        self.0.in_flight()
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
