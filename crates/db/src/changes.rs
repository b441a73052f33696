//! What changed: the stamps that tell what is remembered whether it may still be used, and the
//! news of it for whoever watches.
//!
//! A write names what it changed, where it changes it: [`changed`] with [`Topic`]s. Nothing is
//! told before the write commits: the names wait in the write's scope (`crate::scope`), and on
//! commit
//! - this process stamps them ([`Changes::stamp`], the one of the [`crate::Db`] whose door the
//!   write came through) before the use case answers, so whoever wrote reads their write, and
//!   tells them to whoever watches ([`Changes::watch`]: the live notification streams);
//! - on PostgreSQL the transaction has sent them with `pg_notify` on [`CHANNEL`] (delivered on
//!   commit, dropped on rollback), and every other process's listening thread
//!   (`crate::listen`) stamps and tells them when they arrive ([`Changes::heard`]).
//!
//! What is remembered notes [`Changes::seen`] *before* it reads the database, and is used again
//! only while [`Changes::unchanged`] says none of the topics it was read from were stamped
//! since (`crate::Held` does both, for everything remembered). A write committed before the
//! note was read by the read; one committed after is stamped after the note. So what is kept
//! shows nothing the database would not, beyond the moment between another process's commit
//! and its arrival here.
//!
//! On PostgreSQL nothing is trusted until the listening connection is up, nor while it is down
//! ([`Changes::listening`]): what another process writes meanwhile goes unheard. Nothing is
//! used longer than [`HELD_AT_MOST`] either way: a change made past the program (SQL by hand)
//! shows within it. Stamps are kept in a fixed table by the topic's hash: two topics sharing a
//! slot only make something read again sooner, never kept longer.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use diesel::RunQueryDsl;
use diesel::sql_types::Text;
use tokio::sync::broadcast;

use values::{PostId, UserId};

use crate::{DbConnection, Topic, scope};

/// The PostgreSQL channel changes travel on.
pub const CHANNEL: &str = "selfsound_changes";

/// Slots in the table of stamps (2 MB): under a thousand writes a second, something depending
/// on twenty topics meets a stranger's stamp about once in thirteen seconds.
const SLOTS: usize = 1 << 18;

/// A `NOTIFY` payload stays well under PostgreSQL's 8,000 bytes: past this, one `*`.
const PAYLOAD_MAX: usize = 7_000;

/// How many batches of news a watcher may fall behind before it hears [`Told::Everything`].
const WATCH_BACKLOG: usize = 256;

/// How many of the posts written last are known by their stamp ([`Changes::written_since`]):
/// a minute of posts at a few hundred a second, where what asks is brought up to date at
/// every request.
const WRITTEN_KEPT: usize = 4_096;

/// When something was read: compare with [`Changes::unchanged`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seen(u64, Instant);

impl Seen {
    /// How long ago it was noted.
    pub fn age(&self) -> Duration {
        self.1.elapsed()
    }
}

/// The longest anything is used, changed or not: a change made past the program (by hand, in
/// SQL) shows within this time.
pub const HELD_AT_MOST: Duration = Duration::from_secs(60);

/// What a watcher hears: topics that changed, or that anything may have (changes were missed,
/// or one changed everything).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Told {
    Topics(Arc<[Topic]>),
    Everything,
}

impl Told {
    /// Whether `topic` may have changed.
    pub fn names(&self, topic: Topic) -> bool {
        match self {
            Told::Topics(topics) => topics.contains(&topic),
            Told::Everything => true,
        }
    }
}

/// The stamps of one process: the last change of each topic, in a sequence of its own.
pub struct Changes {
    sequence: AtomicU64,
    everything: AtomicU64,
    stamps: Box<[AtomicU64]>,
    /// Whether this process hears every change (false on PostgreSQL while not listening).
    trusted: AtomicBool,
    news: broadcast::Sender<Told>,
    /// Marks what this process sends to the others, so that its own news, coming back from
    /// PostgreSQL, is not told twice.
    sender: u64,
    /// The posts written last, each with its stamp ([`Topic::Written`]).
    written: Mutex<Written>,
}

/// The posts written last, by their stamps: every stamp of [`Topic::NewPost`]'s slot with a
/// post of its own is here, from the first one not dropped on.
#[derive(Default)]
struct Written {
    posts: VecDeque<(u64, PostId, UserId)>,
    /// The last stamp of a post not known here (dropped to keep at most [`WRITTEN_KEPT`], or
    /// heard without saying which): what was read before it cannot be told what it missed.
    unknown: u64,
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
            news: broadcast::channel(WATCH_BACKLOG).0,
            sender: rand_u64(),
            written: Mutex::default(),
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
            && topics.into_iter().all(|t| self.stamps[t.slot(SLOTS)].load(Ordering::SeqCst) <= seen.0)
    }

    /// Stamps `topics` as changed now (their write has committed), and tells the watchers.
    pub fn stamp(&self, topics: &[Topic]) {
        let everything = self.stamp_quietly(topics);
        if !topics.is_empty() && self.news.receiver_count() > 0 {
            // Nobody watching is no error.
            let _ = self.news.send(if everything { Told::Everything } else { Told::Topics(topics.into()) });
        }
    }

    /// Stamps `topics` without telling the watchers; answers whether they named everything.
    fn stamp_quietly(&self, topics: &[Topic]) -> bool {
        if topics.is_empty() {
            return false;
        }
        let new_posts = topics.iter().any(|t| matches!(t, Topic::NewPost | Topic::Written(..)));
        // A stamp of a post written takes its number and its place among the posts written at
        // once, so that whoever has noted a later moment finds the post here
        // (`Changes::written_since`).
        let mut written = new_posts.then(|| self.written.lock().unwrap_or_else(|e| e.into_inner()));
        let now = self.sequence.fetch_add(1, Ordering::SeqCst) + 1;
        if let Some(written) = written.as_mut() {
            for topic in topics {
                match *topic {
                    Topic::Written(post, author) => written.posts.push_back((now, post, author)),
                    Topic::NewPost => written.unknown = now,
                    _ => {}
                }
            }
            while written.posts.len() > WRITTEN_KEPT {
                if let Some((stamp, ..)) = written.posts.pop_front() {
                    written.unknown = written.unknown.max(stamp);
                }
            }
        }
        drop(written);
        let mut everything = false;
        for topic in topics {
            match topic {
                Topic::Everything => {
                    everything = true;
                    self.everything.fetch_max(now, Ordering::SeqCst)
                }
                t => self.stamps[t.slot(SLOTS)].fetch_max(now, Ordering::SeqCst),
            };
        }
        everything
    }

    /// The posts written (each [`Topic::Written`]) since `seen`, oldest first, when every one is
    /// known: none when a post may have been written since that is not known here (see
    /// [`Written`]). It may hold posts stamped after a moment noted since `seen`, never miss one
    /// stamped before it.
    pub fn written_since(&self, seen: Seen) -> Option<Vec<(PostId, UserId)>> {
        let written = self.written.lock().unwrap_or_else(|e| e.into_inner());
        if written.unknown > seen.0 {
            return None;
        }
        let first = written.posts.partition_point(|(stamp, ..)| *stamp <= seen.0);
        Some(written.posts.range(first..).map(|(_, post, author)| (*post, *author)).collect())
    }

    /// The news of every change from now on. A watcher that falls behind hears
    /// [`broadcast::error::RecvError::Lagged`]: anything may have changed meanwhile.
    pub fn watch(&self) -> broadcast::Receiver<Told> {
        self.news.subscribe()
    }

    /// A `NOTIFY` payload from [`CHANNEL`]: another process's changes. What cannot be read is
    /// taken as everything; this process's own, coming back, were stamped at their commit.
    pub fn heard(&self, payload: &str) {
        let mut items = payload.split(',').filter(|i| !i.is_empty()).peekable();
        if items.peek().is_some_and(|first| *first == self.signature()) {
            return;
        }
        let topics: Vec<Topic> = items
            .filter(|item| !item.starts_with('@'))
            .map(|item| Topic::read(item).unwrap_or(Topic::Everything))
            .collect();
        self.stamp(&topics);
    }

    /// Whether every change is being heard from now on (the listening connection is up) or not
    /// (it was lost). Either way whatever was read before may have missed something; watchers
    /// hear that everything changed once it is up again, when reading again is of use.
    pub fn listening(&self, yes: bool) {
        if yes {
            self.stamp(&[Topic::Everything]);
            self.trusted.store(true, Ordering::SeqCst);
        } else {
            self.trusted.store(false, Ordering::SeqCst);
            self.stamp_quietly(&[Topic::Everything]);
        }
    }

    /// The first item of every payload this process sends.
    fn signature(&self) -> String {
        format!("@{:x}", self.sender)
    }

    /// The payload that tells other processes `topics` changed.
    fn payload(&self, topics: &[Topic]) -> String {
        let mut out = self.signature();
        for topic in topics {
            out.push(',');
            topic.write(&mut out);
            if out.len() > PAYLOAD_MAX {
                return format!("{},*", self.signature());
            }
        }
        out
    }

    /// [`Changes::payload`] when it may be written into SQL as it is: none for no topics, or a
    /// payload holding anything but the letters, digits and signs topics are written with
    /// (never, but what goes into SQL text is checked, not assumed).
    pub(crate) fn payload_text(&self, topics: &[Topic]) -> Option<String> {
        let payload = self.payload(topics);
        let plain = payload.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'@' | b',' | b':' | b'*'));
        (!topics.is_empty() && plain).then_some(payload)
    }

    /// Tells every other process on PostgreSQL that `topics` changed, in one statement: on
    /// commit, when inside a transaction. Nothing on SQLite (one process).
    pub(crate) fn send(&self, conn: &mut DbConnection, topics: &[Topic]) -> diesel::QueryResult<()> {
        if topics.is_empty() || !matches!(conn, DbConnection::Postgres(_)) {
            return Ok(());
        }
        crate::Kept::new("SELECT pg_notify(?, ?)")
            .bind::<Text, _>(CHANNEL)
            .bind::<Text, _>(self.payload(topics))
            .execute(conn)
            .map(|_| ())
    }
}

/// A random number, without a crate for it: the standard library's randomly keyed hasher.
fn rand_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(Instant::now().elapsed().as_nanos());
    hasher.finish()
}

/// Notes that the write under way on `conn` changed `topics`: told once it commits. Refused
/// outside a write (`crate::scope`): every write comes through a door of [`crate::Db`].
pub fn changed(conn: &mut DbConnection, topics: &[Topic]) -> diesel::QueryResult<()> {
    let _ = conn;
    if scope::name(topics) {
        Ok(())
    } else {
        Err(diesel::result::Error::QueryBuilderError("db::changed outside a write: write through Db::write".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use values::{PostId, UserId};

    fn ids() -> (PostId, UserId) {
        (PostId::generate(), UserId::generate())
    }

    /// Now, from changes that must be trusted.
    fn now(changes: &Changes) -> Seen {
        assert!(changes.seen().is_some(), "trusted");
        changes.seen().unwrap_or(Seen(0, Instant::now()))
    }

    #[test]
    fn a_payload_names_its_topics_and_its_sender() {
        let (p, u) = ids();
        let changes = Changes::new(true);
        let topics = [Topic::Everything, Topic::Posts, Topic::Post(p), Topic::User(u), Topic::Viewer(u)];
        let payload = changes.payload(&topics);
        let mut items = payload.split(',');
        assert_eq!(items.next(), Some(changes.signature().as_str()));
        let read: Vec<Option<Topic>> = items.map(Topic::read).collect();
        assert_eq!(read, topics.map(Some));
    }

    #[test]
    fn a_long_payload_is_everything() {
        let changes = Changes::new(true);
        let many: Vec<Topic> = (0..1_000).map(|_| Topic::Post(PostId::generate())).collect();
        assert_eq!(changes.payload(&many), format!("{},*", changes.signature()));
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
        assert!(
            !changes.unchanged(seen, [Topic::Viewer(u)]) || Topic::Viewer(u).slot(SLOTS) != Topic::User(u).slot(SLOTS)
        );
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
        changes.heard(&format!("@1f,p{p}"));
        assert!(!changes.unchanged(seen, [Topic::Post(p)]));
        assert!(changes.unchanged(seen, [Topic::User(u)]));
        changes.heard("garbled");
        assert!(!changes.unchanged(seen, [Topic::User(u)]));
    }

    #[test]
    fn its_own_news_coming_back_is_not_heard_again() {
        let changes = Changes::new(true);
        let mut watching = changes.watch();
        let (p, _) = ids();
        changes.heard(&changes.payload(&[Topic::Post(p)]));
        assert!(watching.try_recv().is_err(), "sent by this process: told at its commit");
        changes.heard(&Changes::new(true).payload(&[Topic::Post(p)]));
        assert_eq!(watching.try_recv().ok(), Some(Told::Topics(vec![Topic::Post(p)].into())));
    }

    #[test]
    fn watchers_hear_what_is_stamped() {
        let changes = Changes::new(true);
        let mut watching = changes.watch();
        let (_, u) = ids();
        changes.stamp(&[Topic::Unread(u)]);
        let told = watching.try_recv().ok();
        assert!(told.as_ref().is_some_and(|t| t.names(Topic::Unread(u)) && !t.names(Topic::Sessions(u))));
        changes.stamp(&[]);
        assert!(watching.try_recv().is_err(), "nothing changed, nothing told");
        changes.stamp(&[Topic::Everything]);
        assert_eq!(watching.try_recv().ok(), Some(Told::Everything));
    }

    #[test]
    fn posts_written_since_a_moment_are_known_until_one_is_not() {
        let changes = Changes::new(true);
        let (a, ana) = ids();
        let (b, bob) = ids();
        let seen = now(&changes);
        assert_eq!(changes.written_since(seen), Some(vec![]));
        changes.stamp(&[Topic::Written(a, ana), Topic::Posted(ana)]);
        let between = now(&changes);
        changes.heard(&Changes::new(true).payload(&[Topic::Written(b, bob)]));
        assert_eq!(changes.written_since(seen), Some(vec![(a, ana), (b, bob)]));
        assert_eq!(changes.written_since(between), Some(vec![(b, bob)]));
        assert!(!changes.unchanged(between, [Topic::NewPost]), "what depends on new posts sees it changed");
        let after = now(&changes);
        changes.heard("@1f,w");
        assert_eq!(changes.written_since(after), None, "a post written, not said which");
        assert_eq!(changes.written_since(between), None);
        let later = now(&changes);
        for _ in 0..=WRITTEN_KEPT {
            changes.stamp(&[Topic::Written(PostId::generate(), ana)]);
        }
        assert_eq!(changes.written_since(later), None, "more than are kept");
        let last = now(&changes);
        changes.stamp(&[Topic::Written(a, ana)]);
        assert_eq!(changes.written_since(last), Some(vec![(a, ana)]));
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
