//! Sessions checked a moment ago, so that a page read does not ask the database again whether
//! the session it came with still stands (on PostgreSQL that question was half of a page's
//! statements).
//!
//! Only reads use them ([`crate::AuthService::authenticate_reading`]): all a read needs is who
//! is asking. Everything that writes, or needs the account itself (its role, its profile),
//! still asks the database every time.
//!
//! A checked session is remembered the way every answer is ([`db::Held`]): read after noting
//! the moment, and used only while no session of its person ended since
//! ([`db::Topic::Sessions`], which every write that ends sessions names: a sign-out, "sign out
//! everywhere", a password change or reset, a suspension, a deleted account; in any process),
//! for at most [`KNOWN_FOR`] however quiet the news, and never past its expiry.

use std::sync::Arc;
use std::time::Duration;

use chrono::NaiveDateTime;
use db::{Changes, Held, Holdable, Topic};
use values::{SessionId, UserId};

/// The longest a checked session is taken as standing without asking again: as long as anything
/// is held ([`db::changes::HELD_AT_MOST`]), for a session ended past the program (SQL by hand);
/// one ended by the program is forgotten at once. (It was 10 s: with 20,000 people, most came
/// back after that, and the check was a third of PostgreSQL's statements; issue 30.)
pub const KNOWN_FOR: Duration = db::changes::HELD_AT_MOST;

/// At most about this many bytes of checked sessions (about 100 bytes each: 100,000 of them).
const BYTES: u64 = 10 << 20;

/// A session as it was checked: whose it is, when it was last noted as used, and when it
/// expires.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Known {
    pub user: UserId,
    pub last_seen: Option<NaiveDateTime>,
    pub expires_at: NaiveDateTime,
}

impl Holdable<(SessionId, UserId)> for Known {
    fn topics(&self, _: &(SessionId, UserId)) -> impl Iterator<Item = Topic> {
        std::iter::once(Topic::Sessions(self.user))
    }

    fn weight(&self) -> u64 {
        100
    }

    fn lapsed(&self) -> bool {
        self.expires_at <= db::time::now()
    }
}

/// The sessions of this process checked a moment ago, by session and the person the token
/// names; cheap to clone (one shared memory).
pub(crate) type KnownSessions = Arc<Held<(SessionId, UserId), Known>>;

pub(crate) fn known_sessions(changes: Arc<Changes>) -> KnownSessions {
    Arc::new(Held::new(changes, BYTES, 100).lasting(KNOWN_FOR))
}
