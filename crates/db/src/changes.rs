//! What changed, so that memory may answer for the database.
//!
//! A write names what it changed, where it changes it: [`changed`] with [`Topic`]s (a post's
//! row, a person's card and list of posts, what a viewer likes, blocks and listens to, the set
//! of posts, everything). Nothing is told before the write's transaction commits: inside
//! [`crate::write_tx`] the topics wait, and on commit
//! - this process stamps them ([`Changes`], the one of the [`crate::Db`] whose call wrote),
//!   before the use case answers, so whoever wrote reads their write;
//! - on PostgreSQL the transaction has sent them with `pg_notify` on [`CHANNEL`] (delivered on
//!   commit, dropped on rollback), and every process's listening thread stamps them when they
//!   arrive ([`Changes::heard`], within its polling interval).
//!
//! Something kept in memory notes [`Changes::seen`] *before* it reads the database, and is
//! used again only while [`Changes::unchanged`] says none of the topics it was read from were
//! stamped since. A write committed before the note was read by the read; one committed after
//! is stamped after the note. So what is kept shows nothing the database would not, beyond the
//! moment between another process's commit and its arrival here.
//!
//! On PostgreSQL nothing is trusted until the listening connection is up, nor while it is down
//! ([`Changes::listening`]): what another process writes meanwhile goes unheard. Nothing is
//! used longer than [`HELD_AT_MOST`] either way: a change made past the program (SQL by hand)
//! shows within it. Stamps are
//! kept in a fixed table by the topic's hash: two topics sharing a slot only make something
//! read again sooner, never kept longer.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use diesel::RunQueryDsl;
use diesel::sql_types::Text;
use values::{PostId, UserId};

use crate::DbConnection;

/// The PostgreSQL channel changes travel on.
pub const CHANNEL: &str = "selfsound_changes";

/// What a write changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Topic {
    /// Anything: a rare write that changes too much to name (a suspension, a deleted account).
    Everything,
    /// Which posts exist: a post written or deleted anywhere.
    Posts,
    /// A post's row: its counts, its text, its payload, whether it exists.
    Post(PostId),
    /// A person's card (name, login, avatar, badge) and the list of their posts.
    User(UserId),
    /// What a person likes, listens to and blocks, and who blocks them.
    Viewer(UserId),
}

impl Topic {
    /// How the topic travels in a `NOTIFY` payload: `*`, `n`, `p<id>`, `u<id>`, `v<id>`.
    fn write(self, out: &mut String) {
        use std::fmt::Write;
        let _ = match self {
            Topic::Everything => write!(out, "*"),
            Topic::Posts => write!(out, "n"),
            Topic::Post(id) => write!(out, "p{id}"),
            Topic::User(id) => write!(out, "u{id}"),
            Topic::Viewer(id) => write!(out, "v{id}"),
        };
    }

    fn read(item: &str) -> Option<Topic> {
        let id = || item.get(1..)?.parse::<i64>().ok();
        match item.as_bytes().first()? {
            b'*' => Some(Topic::Everything),
            b'n' => Some(Topic::Posts),
            b'p' => PostId::try_from(id()?).ok().map(Topic::Post),
            b'u' => UserId::try_from(id()?).ok().map(Topic::User),
            b'v' => UserId::try_from(id()?).ok().map(Topic::Viewer),
            _ => None,
        }
    }

    /// The topic's slot in the table of stamps.
    fn slot(self) -> usize {
        let (tag, id) = match self {
            Topic::Everything => (0_u64, 0_i64),
            Topic::Posts => (1, 0),
            Topic::Post(id) => (2, id.get()),
            Topic::User(id) => (3, id.get()),
            Topic::Viewer(id) => (4, id.get()),
        };
        // splitmix64's finaliser: ids that differ in a few bits land far apart.
        let mut x = (id as u64) ^ tag.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^= x >> 31;
        (x as usize) & (SLOTS - 1)
    }
}

/// Slots in the table of stamps (2 MB): under a thousand writes a second, something depending
/// on twenty topics meets a stranger's stamp about once in thirteen seconds.
const SLOTS: usize = 1 << 18;

/// A `NOTIFY` payload stays well under PostgreSQL's 8,000 bytes: past this, one `*`.
const PAYLOAD_MAX: usize = 7_000;

/// When something was read: compare with [`Changes::unchanged`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seen(u64, Instant);

/// The longest anything is used, changed or not: a change made past the program (by hand, in
/// SQL) shows within this time.
pub const HELD_AT_MOST: Duration = Duration::from_secs(60);

/// The stamps of one process: the last change of each topic, in a sequence of its own.
pub struct Changes {
    sequence: AtomicU64,
    everything: AtomicU64,
    stamps: Box<[AtomicU64]>,
    /// Whether this process hears every change (false on PostgreSQL while not listening).
    trusted: AtomicBool,
}

impl std::fmt::Debug for Changes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Changes").field("trusted", &self.trusted.load(Ordering::SeqCst)).finish_non_exhaustive()
    }
}

impl Changes {
    /// `trusted`: whether every change will be heard from the start (one process on SQLite).
    pub fn new(trusted: bool) -> Changes {
        Changes {
            sequence: AtomicU64::new(1),
            everything: AtomicU64::new(0),
            stamps: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
            trusted: AtomicBool::new(trusted),
        }
    }

    /// Now, to be noted before reading what will be kept; none while changes may go unheard.
    pub fn seen(&self) -> Option<Seen> {
        self.trusted.load(Ordering::SeqCst).then(|| Seen(self.sequence.load(Ordering::SeqCst), Instant::now()))
    }

    /// Whether none of `topics` (nor everything) changed since `seen`, every change since was
    /// heard, and `seen` is less than [`HELD_AT_MOST`] ago.
    pub fn unchanged(&self, seen: Seen, topics: impl IntoIterator<Item = Topic>) -> bool {
        self.trusted.load(Ordering::SeqCst)
            && seen.1.elapsed() < HELD_AT_MOST
            && self.everything.load(Ordering::SeqCst) <= seen.0
            && topics.into_iter().all(|t| self.stamps[t.slot()].load(Ordering::SeqCst) <= seen.0)
    }

    /// Stamps `topics` as changed now (their write has committed).
    pub fn stamp(&self, topics: &[Topic]) {
        if topics.is_empty() {
            return;
        }
        let now = self.sequence.fetch_add(1, Ordering::SeqCst) + 1;
        for topic in topics {
            match topic {
                Topic::Everything => self.everything.fetch_max(now, Ordering::SeqCst),
                t => self.stamps[t.slot()].fetch_max(now, Ordering::SeqCst),
            };
        }
    }

    /// A `NOTIFY` payload from [`CHANNEL`]: another process's changes (or this one's, again).
    /// What cannot be read is taken as everything.
    pub fn heard(&self, payload: &str) {
        let mut topics = Vec::new();
        for item in payload.split(',').filter(|i| !i.is_empty()) {
            topics.push(Topic::read(item).unwrap_or(Topic::Everything));
        }
        self.stamp(&topics);
    }

    /// Whether every change is being heard from now on (the listening connection is up) or not
    /// (it was lost). Either way whatever was read before may have missed something.
    pub fn listening(&self, yes: bool) {
        if !yes {
            self.trusted.store(false, Ordering::SeqCst);
        }
        self.stamp(&[Topic::Everything]);
        if yes {
            self.trusted.store(true, Ordering::SeqCst);
        }
    }
}

/// The payload that names `topics`.
fn payload(topics: &[Topic]) -> String {
    let mut out = String::new();
    for topic in topics {
        if !out.is_empty() {
            out.push(',');
        }
        topic.write(&mut out);
        if out.len() > PAYLOAD_MAX {
            return "*".to_owned();
        }
    }
    out
}

/// The message that tells other processes `topics` changed; none for none.
pub(crate) fn message(topics: &[Topic]) -> Option<(&'static str, String)> {
    (!topics.is_empty()).then(|| (CHANNEL, payload(topics)))
}

/// Sends `messages` (channel, payload) to every process listening on PostgreSQL, in one
/// statement: on commit, when inside a transaction. Nothing on SQLite (one process).
pub(crate) fn send(conn: &mut DbConnection, messages: &[(&'static str, String)]) -> diesel::QueryResult<()> {
    if messages.is_empty() || !matches!(conn, DbConnection::Postgres(_)) {
        return Ok(());
    }
    // One text for each number of messages (one or two): kept prepared.
    let calls = vec!["pg_notify(?, ?)"; messages.len()];
    let mut query = crate::Kept::made(format!("SELECT {}", calls.join(", ")));
    for (channel, payload) in messages {
        query = query.bind::<Text, _>(*channel).bind::<Text, _>(payload.clone());
    }
    query.execute(conn).map(|_| ())
}

/// Sends `payload` on `channel` to every process listening on PostgreSQL (nothing on SQLite):
/// inside [`crate::write_tx`] with what the transaction changed, in one statement at its end
/// (delivered on commit, dropped on rollback); at once otherwise.
pub fn notify(conn: &mut DbConnection, channel: &'static str, payload: String) -> diesel::QueryResult<()> {
    if !matches!(conn, DbConnection::Postgres(_)) {
        return Ok(());
    }
    match crate::conn::defer_message(channel, payload) {
        None => Ok(()),
        Some(message) => send(conn, &[message]),
    }
}

/// Notes that the write under way on `conn` changed `topics`: told once its transaction
/// commits (inside [`crate::write_tx`]), at once otherwise (the write has committed already).
pub fn changed(conn: &mut DbConnection, topics: &[Topic]) -> diesel::QueryResult<()> {
    if crate::conn::defer_changes(topics) {
        return Ok(());
    }
    send(conn, &message(topics).into_iter().collect::<Vec<_>>())?;
    crate::conn::stamp_here(topics);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids() -> (PostId, UserId) {
        (PostId::generate(), UserId::generate())
    }

    /// Now, from changes that must be trusted.
    fn now(changes: &Changes) -> Seen {
        assert!(changes.seen().is_some(), "trusted");
        changes.seen().unwrap_or(Seen(0, Instant::now()))
    }

    #[test]
    fn a_topic_travels_in_a_payload_and_back() {
        let (p, u) = ids();
        let topics = [Topic::Everything, Topic::Posts, Topic::Post(p), Topic::User(u), Topic::Viewer(u)];
        let read: Vec<Option<Topic>> = payload(&topics).split(',').map(Topic::read).collect();
        assert_eq!(read, topics.map(Some));
        assert_eq!(Topic::read("q1"), None);
        assert_eq!(Topic::read("p-x"), None);
    }

    #[test]
    fn a_long_payload_is_everything() {
        let many: Vec<Topic> = (0..1_000).map(|_| Topic::Post(PostId::generate())).collect();
        assert_eq!(payload(&many), "*");
    }

    #[test]
    fn what_was_read_stands_until_one_of_its_topics_changes() {
        let changes = Changes::new(true);
        let (p, u) = ids();
        let (other, _) = ids();
        let seen = now(&changes);
        assert!(changes.unchanged(seen, [Topic::Post(p), Topic::User(u)]));
        changes.stamp(&[Topic::Post(other)]);
        assert!(changes.unchanged(seen, [Topic::Post(p), Topic::User(u)]), "another post changed");
        changes.stamp(&[Topic::User(u)]);
        assert!(!changes.unchanged(seen, [Topic::Post(p), Topic::User(u)]));
        assert!(!changes.unchanged(seen, [Topic::Viewer(u)]) || Topic::Viewer(u).slot() != Topic::User(u).slot());
        let later = now(&changes);
        assert!(changes.unchanged(later, [Topic::Post(p), Topic::User(u)]), "read after the change");
    }

    #[test]
    fn nothing_is_used_longer_than_a_minute() {
        let changes = Changes::new(true);
        let (p, _) = ids();
        let seen = now(&changes);
        assert!(changes.unchanged(seen, [Topic::Post(p)]));
        if let Some(long_ago) = Instant::now().checked_sub(HELD_AT_MOST) {
            assert!(!changes.unchanged(Seen(seen.0, long_ago), [Topic::Post(p)]));
        }
    }

    #[test]
    fn everything_changes_every_topic() {
        let changes = Changes::new(true);
        let (p, _) = ids();
        let seen = now(&changes);
        changes.heard("*");
        assert!(!changes.unchanged(seen, [Topic::Post(p)]));
        assert!(!changes.unchanged(seen, []));
    }

    #[test]
    fn heard_payloads_stamp_their_topics_and_anything_unreadable_is_everything() {
        let changes = Changes::new(true);
        let (p, u) = ids();
        let seen = now(&changes);
        changes.heard(&format!("p{p}"));
        assert!(!changes.unchanged(seen, [Topic::Post(p)]));
        assert!(changes.unchanged(seen, [Topic::User(u)]));
        changes.heard("garbled");
        assert!(!changes.unchanged(seen, [Topic::User(u)]));
    }

    #[test]
    fn nothing_is_trusted_while_changes_may_go_unheard() {
        let changes = Changes::new(false);
        assert_eq!(changes.seen(), None);
        changes.listening(true);
        let seen = now(&changes);
        assert!(changes.unchanged(seen, []));
        changes.listening(false);
        assert_eq!(changes.seen(), None);
        changes.listening(true);
        assert!(!changes.unchanged(seen, []), "read before the connection was lost");
    }
}
