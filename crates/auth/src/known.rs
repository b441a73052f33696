//! Sessions checked a moment ago, so that a page read does not ask the database again whether
//! the session it came with still stands (on PostgreSQL that question was half of a page's
//! statements).
//!
//! Only reads use them ([`crate::AuthService::authenticate_reading`]): all a read needs is who
//! is asking. Everything that writes, or needs the account itself (its role, its profile),
//! still asks the database every time.
//!
//! A session is forgotten here the moment it may have ended:
//! - in this process, by auth itself when it ends sessions (sign-out, "sign out everywhere",
//!   a password change or reset), before it answers;
//! - by the domains above it (a suspension, a deleted account) and in every other process
//!   through [`KnownSessions::forget`], which the api layer calls from the live notifications'
//!   "sessions ended" signal (on PostgreSQL the `NOTIFY` of the transaction that ended them);
//! - all at once when signals may have been missed (the listening connection was lost);
//! - and in any case after [`KNOWN_FOR`], so that even a signal that never arrived costs at
//!   most that long; a session past its expiry is never taken from here.
//!
//! A check that was under way while sessions were forgotten may have read a session just
//! before it ended: what it read is not kept (a generation count, bumped by every forget).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use chrono::NaiveDateTime;
use values::{SessionId, UserId};

/// The longest a checked session is taken as standing without asking again.
pub const KNOWN_FOR: Duration = Duration::from_secs(10);

/// At most this many sessions are remembered (about 100 bytes each).
const CAPACITY: usize = 100_000;

/// A session as it was checked.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Known {
    pub user: UserId,
    pub last_seen: Option<NaiveDateTime>,
    pub expires_at: NaiveDateTime,
    checked: Instant,
}

/// The sessions of this process checked a moment ago; cheap to clone (one shared cache).
#[derive(Clone)]
pub struct KnownSessions(Arc<Inner>);

struct Inner {
    sessions: quick_cache::sync::Cache<SessionId, Known>,
    /// Bumped by every forget: a check begun before it may not be kept.
    generation: AtomicU64,
}

impl Default for KnownSessions {
    fn default() -> Self {
        KnownSessions(Arc::new(Inner {
            sessions: quick_cache::sync::Cache::new(CAPACITY),
            generation: AtomicU64::new(0),
        }))
    }
}

impl std::fmt::Debug for KnownSessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KnownSessions").field("held", &self.0.sessions.len()).finish()
    }
}

impl KnownSessions {
    /// The session `id` of `user` as checked less than [`KNOWN_FOR`] ago and not expired at
    /// `now`.
    pub(crate) fn get(&self, id: SessionId, user: UserId, now: NaiveDateTime) -> Option<Known> {
        let known = self.0.sessions.get(&id)?;
        (known.user == user && known.checked.elapsed() < KNOWN_FOR && known.expires_at > now).then_some(known)
    }

    /// Where forgetting stands, read before a check whose answer may be kept.
    pub(crate) fn generation(&self) -> u64 {
        self.0.generation.load(Ordering::Acquire)
    }

    /// Keeps what a check begun at `generation` found, unless sessions were forgotten since.
    pub(crate) fn keep(
        &self,
        generation: u64,
        id: SessionId,
        user: UserId,
        last_seen: Option<NaiveDateTime>,
        expires_at: NaiveDateTime,
    ) {
        if self.generation() != generation {
            return;
        }
        self.0.sessions.insert(id, Known { user, last_seen, expires_at, checked: Instant::now() });
        // A forget that came while inserting may have missed this entry: take it out again.
        if self.generation() != generation {
            self.0.sessions.remove(&id);
        }
    }

    /// Notes that the session was marked as used at `seen` (keeping when it was checked).
    pub(crate) fn seen(&self, id: SessionId, seen: NaiveDateTime) {
        if let Some(known) = self.0.sessions.get(&id) {
            self.0.sessions.replace(id, Known { last_seen: Some(seen), ..known }, false).ok();
        }
    }

    /// Some sessions of these people may have ended: theirs are checked again.
    pub fn forget(&self, users: &[UserId]) {
        self.0.generation.fetch_add(1, Ordering::AcqRel);
        self.0.sessions.retain(|_, known| !users.contains(&known.user));
    }

    /// Any session may have ended (signals may have been missed): all are checked again.
    pub fn forget_all(&self) {
        self.0.generation.fetch_add(1, Ordering::AcqRel);
        self.0.sessions.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn later() -> NaiveDateTime {
        db::time::now() + chrono::TimeDelta::hours(1)
    }

    #[test]
    fn a_checked_session_is_known_to_its_user_until_forgotten() {
        let known = KnownSessions::default();
        let (id, user, other) = (SessionId::generate(), UserId::generate(), UserId::generate());
        known.keep(known.generation(), id, user, None, later());
        assert!(known.get(id, user, db::time::now()).is_some());
        assert!(known.get(id, other, db::time::now()).is_none(), "a token naming another user");
        known.forget(&[other]);
        assert!(known.get(id, user, db::time::now()).is_some(), "someone else's sessions ended");
        known.forget(&[user]);
        assert!(known.get(id, user, db::time::now()).is_none());
    }

    #[test]
    fn an_expired_session_is_not_taken_from_memory() {
        let known = KnownSessions::default();
        let (id, user) = (SessionId::generate(), UserId::generate());
        let expires = db::time::now() + chrono::TimeDelta::seconds(1);
        known.keep(known.generation(), id, user, None, expires);
        assert!(known.get(id, user, expires - chrono::TimeDelta::milliseconds(1)).is_some());
        assert!(known.get(id, user, expires).is_none());
    }

    #[test]
    fn a_check_overtaken_by_a_forget_is_not_kept() {
        let known = KnownSessions::default();
        let (id, user) = (SessionId::generate(), UserId::generate());
        let began = known.generation();
        // The session ends (anyone's: the forget need not name this user) while it is checked.
        known.forget(&[UserId::generate()]);
        known.keep(began, id, user, None, later());
        assert!(known.get(id, user, db::time::now()).is_none());
        known.keep(known.generation(), id, user, None, later());
        known.forget_all();
        assert!(known.get(id, user, db::time::now()).is_none());
    }
}
