//! The process-wide memory budget of image decoding. Pixel limits alone do not bound memory:
//! a 261 KB PNG of 8192×4096 16-bit pixels decodes to 256 MB, and a 40 Mpx progressive JPEG
//! keeps its DCT coefficients besides its pixels. So every decode first reserves its worst case,
//! estimated from the header, from one shared budget ([`limits::DECODE_BUDGET_BYTES`]); a decode
//! that does not fit waits for others to finish, in the order they asked, and one that could
//! never fit is refused ([`MediaError::TooLargeToDecode`]).
//!
//! Synchronous on purpose: decoding runs on blocking threads, and this crate stays free of any
//! async runtime.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use crate::{MediaError, limits};

/// The budget every decode of this process draws from.
pub static DECODE_BUDGET: DecodeBudget = DecodeBudget::new(limits::DECODE_BUDGET_BYTES);

/// Bytes of decoding memory shared by the threads of a process, handed out first come, first
/// served (a large picture is not starved by a stream of small ones).
#[derive(Debug)]
pub struct DecodeBudget {
    total: u64,
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct State {
    in_use: u64,
    /// The ticket the next caller of `reserve` gets.
    next_ticket: u64,
    /// The ticket whose turn it is.
    serving: u64,
}

impl DecodeBudget {
    pub const fn new(total: u64) -> DecodeBudget {
        DecodeBudget {
            total,
            state: Mutex::new(State { in_use: 0, next_ticket: 0, serving: 0 }),
            changed: Condvar::new(),
        }
    }

    pub fn total(&self) -> u64 {
        self.total
    }

    /// Bytes reserved now.
    pub fn in_use(&self) -> u64 {
        self.lock().in_use
    }

    /// Callers waiting for their turn or for room.
    pub fn waiting(&self) -> u64 {
        let state = self.lock();
        state.next_ticket - state.serving
    }

    /// Reserves `bytes` for a decode of a `width`×`height` picture, waiting until they are free
    /// and every earlier caller has had its turn. More than the whole budget is refused at once.
    /// The bytes are given back when the reservation is dropped.
    pub fn reserve(&self, bytes: u64, width: u32, height: u32) -> Result<Reservation<'_>, MediaError> {
        if bytes > self.total {
            return Err(MediaError::TooLargeToDecode {
                width,
                height,
                needed_mb: bytes.div_ceil(MB),
                max_mb: self.total / MB,
            });
        }
        let mut state = self.lock();
        let ticket = state.next_ticket;
        state.next_ticket += 1;
        while state.serving != ticket || state.in_use + bytes > self.total {
            state = self.changed.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        state.in_use += bytes;
        state.serving += 1;
        drop(state);
        // The next in line may fit beside this one.
        self.changed.notify_all();
        Ok(Reservation { budget: self, bytes })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The lock is never held across code that can panic; a poisoned one is still consistent.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

const MB: u64 = 1024 * 1024;

/// Bytes held of a [`DecodeBudget`] until dropped.
#[derive(Debug)]
pub struct Reservation<'a> {
    budget: &'a DecodeBudget,
    bytes: u64,
}

impl Reservation<'_> {
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        let mut state = self.budget.lock();
        state.in_use -= self.bytes;
        drop(state);
        self.budget.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::thread;

    use super::*;

    #[test]
    fn more_than_the_whole_budget_is_refused_at_once() {
        let budget = DecodeBudget::new(100 * MB);
        let refused = budget.reserve(100 * MB + 1, 9000, 9000);
        assert_eq!(
            refused.map(|r| r.bytes()),
            Err(MediaError::TooLargeToDecode { width: 9000, height: 9000, needed_mb: 101, max_mb: 100 })
        );
        assert_eq!(budget.in_use(), 0);
        let whole = budget.reserve(100 * MB, 1, 1);
        assert_eq!(whole.map(|r| r.bytes()).ok(), Some(100 * MB), "exactly the budget fits");
        assert_eq!(budget.in_use(), 0, "given back when dropped");
    }

    #[test]
    fn reservations_add_up_and_are_given_back() {
        let budget = DecodeBudget::new(100);
        let a = budget.reserve(30, 1, 1);
        let b = budget.reserve(70, 1, 1);
        assert!(a.is_ok() && b.is_ok());
        assert_eq!(budget.in_use(), 100);
        drop(a);
        assert_eq!(budget.in_use(), 70);
        drop(b);
        assert_eq!(budget.in_use(), 0);
    }

    /// Waits (without a time bound: the test harness has one) until `n` callers wait.
    fn until_waiting(budget: &DecodeBudget, n: u64) {
        while budget.waiting() < n {
            thread::yield_now();
        }
    }

    #[test]
    fn a_decode_that_does_not_fit_waits_until_another_ends() {
        let budget = DecodeBudget::new(100);
        let held = budget.reserve(80, 1, 1);
        let (done, finished) = mpsc::channel();
        thread::scope(|s| {
            s.spawn(|| {
                let second = budget.reserve(50, 1, 1);
                let _ = done.send(budget.in_use());
                drop(second);
            });
            until_waiting(&budget, 1);
            assert!(finished.try_recv().is_err(), "still waiting while 80 of 100 are held");
            assert_eq!(budget.in_use(), 80);
            drop(held);
            assert_eq!(finished.recv().ok(), Some(50), "ran once the first was given back");
        });
        assert_eq!(budget.in_use(), 0);
    }

    #[test]
    fn callers_are_served_in_order() {
        // 60 held; a caller wanting 50 waits; one wanting 10 after it would fit, but waits its
        // turn so the larger one is not starved.
        let budget = DecodeBudget::new(100);
        let held = budget.reserve(60, 1, 1);
        let (done, finished) = mpsc::channel();
        thread::scope(|s| {
            for bytes in [50, 10] {
                let done = done.clone();
                let budget = &budget;
                s.spawn(move || {
                    let r = budget.reserve(bytes, 1, 1);
                    let _ = done.send(bytes);
                    drop(r);
                });
                until_waiting(budget, if bytes == 50 { 1 } else { 2 });
            }
            for _ in 0..100 {
                thread::yield_now();
            }
            assert_eq!(budget.in_use(), 60, "the small one waits behind the large one");
            assert!(finished.try_recv().is_err());
            drop(held);
            let mut ran = [finished.recv().ok(), finished.recv().ok()];
            ran.sort();
            assert_eq!(ran, [Some(10), Some(50)]);
        });
        assert_eq!(budget.in_use(), 0);
    }
}
