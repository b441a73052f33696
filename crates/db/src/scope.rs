//! The write under way on this thread, and what it has changed so far.
//!
//! Every write of the program runs inside one [`Scope`], opened by the door it came through
//! ([`crate::Db::write`], [`crate::Db::write_blocking`], [`crate::Db::write_unbundled`]) around
//! one use case. What the write names with [`crate::changed`] waits here until the door knows
//! the write's fate: on commit the door stamps it in its [`crate::Changes`] (and on PostgreSQL
//! has sent it to the other processes inside the transaction); on rollback it is dropped.
//! Outside a scope nothing may be named changed: [`crate::changed`] refuses, so a write that
//! slipped past the door fails in the first test that runs it instead of telling something
//! before (or without) its commit.
//!
//! The scope is the thread's: a use case runs on one thread from start to end (a blocking
//! thread of tokio, the SQLite writer's thread, or the caller's own).

use std::cell::RefCell;

use crate::Topic;

thread_local! {
    /// The topics of the write under way on this thread; none outside a write.
    static OPEN: RefCell<Option<Vec<Topic>>> = const { RefCell::new(None) };
}

/// One write's scope on this thread: opened by a door, closed by it (or by dropping it, which
/// forgets what was named: a write that panicked).
pub(crate) struct Scope(());

impl Scope {
    /// Opens the scope of a write on this thread; none when one is open already (a write
    /// inside another).
    pub(crate) fn open() -> Option<Scope> {
        OPEN.with(|open| {
            let mut open = open.borrow_mut();
            if open.is_some() {
                return None;
            }
            *open = Some(Vec::new());
            Some(Scope(()))
        })
    }

    /// What the write has named so far (the door sends it to other processes before its
    /// commit, on PostgreSQL).
    pub(crate) fn named(&self) -> Vec<Topic> {
        OPEN.with(|open| open.borrow().clone().unwrap_or_default())
    }

    /// Closes the scope, answering what the write named.
    pub(crate) fn close(self) -> Vec<Topic> {
        let named = OPEN.with(|open| open.borrow_mut().take()).unwrap_or_default();
        std::mem::forget(self);
        named
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        OPEN.with(|open| open.borrow_mut().take());
    }
}

/// Whether a write is under way on this thread.
pub(crate) fn is_open() -> bool {
    OPEN.with(|open| open.borrow().is_some())
}

/// Adds `topics` to the write under way on this thread; false when there is none.
pub(crate) fn name(topics: &[Topic]) -> bool {
    OPEN.with(|open| match &mut *open.borrow_mut() {
        Some(named) => {
            named.extend_from_slice(topics);
            true
        }
        None => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_collects_what_its_write_names_and_only_one_is_open() {
        assert!(!name(&[Topic::Posts]), "no write under way");
        let Some(scope) = Scope::open() else { panic!("a first scope opens") };
        assert!(Scope::open().is_none(), "a write inside another");
        assert!(name(&[Topic::Posts]));
        assert_eq!(scope.named(), vec![Topic::Posts]);
        assert_eq!(scope.close(), vec![Topic::Posts]);
        assert!(!is_open());
        let dropped = Scope::open();
        assert!(name(&[Topic::Everything]));
        drop(dropped);
        assert!(!is_open(), "a dropped scope forgets what it was told");
    }
}
