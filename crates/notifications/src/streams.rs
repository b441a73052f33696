//! The open live streams of this process: at most [`STREAMS_PER_PERSON`] a person (opening one
//! more closes their oldest), and one count per change. One task of the process watches what
//! changed (`db::Changes::watch`), reads the unread count of each person named
//! ([`db::Topic::Unread`]) who has a stream open here, once, and hands it to all their streams
//! through a `watch` channel. (Before, every stream read the count itself: 50 comments to
//! someone with 1,000 streams open made about 97,000 queries.)
//!
//! Each stream belongs to a session. When sessions of a person ended ([`db::Topic::Sessions`]:
//! a sign-out, a password change, "sign out everywhere", a suspension), the same task asks once
//! which of that person's streams' sessions still stand, and ends the others at once.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use db::{Db, Told, Topic};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{oneshot, watch};
use values::{SessionId, UserId};

use crate::{NotificationError, repo};

/// Most streams one person may have open in one process: a phone, a laptop and a few tabs.
pub const STREAMS_PER_PERSON: usize = 8;

/// This process's open streams; cheap to clone.
#[derive(Clone)]
pub struct Streams {
    inner: Arc<Inner>,
}

struct Inner {
    db: Db,
    people: Mutex<HashMap<UserId, Person>>,
    next_id: AtomicU64,
    /// How many unread counts were read for streams (for metrics and tests).
    counts_read: AtomicU64,
    dispatching: OnceLock<()>,
}

/// One person's streams: the count they all show, and each one's session and how to close
/// it, oldest first.
struct Person {
    count: watch::Sender<Option<i64>>,
    open: VecDeque<Open>,
}

struct Open {
    id: u64,
    session: SessionId,
    close: oneshot::Sender<Heard>,
}

/// One open stream. Dropping it unregisters it.
pub struct Stream {
    me: UserId,
    id: u64,
    count: watch::Receiver<Option<i64>>,
    closed: oneshot::Receiver<Heard>,
    /// Why it ended, once `closed` has answered (a finished receiver may not be polled again).
    ended: Option<Heard>,
    streams: Streams,
}

/// What a stream hears next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heard {
    /// The unread count, as it is now.
    Unread(i64),
    /// The person opened more than [`STREAMS_PER_PERSON`] streams: this, their oldest, ends.
    Replaced,
    /// The stream's session ended: it ends too.
    SignedOut,
    /// The process is shutting down: the stream ends, and its client should connect again.
    ShuttingDown,
}

impl Streams {
    pub fn new(db: Db) -> Streams {
        Streams {
            inner: Arc::new(Inner {
                db,
                people: Mutex::new(HashMap::new()),
                next_id: AtomicU64::new(0),
                counts_read: AtomicU64::new(0),
                dispatching: OnceLock::new(),
            }),
        }
    }

    fn people(&self) -> MutexGuard<'_, HashMap<UserId, Person>> {
        // A panic while holding the lock leaves a map that is still whole.
        self.inner.people.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// How many unread counts streams have needed so far.
    pub fn counts_read(&self) -> u64 {
        self.inner.counts_read.load(Ordering::Relaxed)
    }

    /// How many streams are open in this process, everyone's (for metrics).
    pub fn open_total(&self) -> usize {
        self.people().values().map(|p| p.open.len()).sum()
    }

    /// Ends every stream open in this process (it is shutting down): each is told to connect
    /// again shortly, which a client does, to another process behind the balancer. Streams
    /// opened afterwards are not ended (the server has stopped accepting by then).
    pub fn close_all(&self) {
        let mut people = self.people();
        for person in people.values_mut() {
            for open in person.open.drain(..) {
                let _ = open.close.send(Heard::ShuttingDown);
            }
        }
        people.clear();
    }

    /// How many streams `user` has open here.
    pub fn open_for(&self, user: UserId) -> usize {
        self.people().get(&user).map_or(0, |p| p.open.len())
    }

    /// Opens a stream for `me` in `session`, closing their oldest past [`STREAMS_PER_PERSON`];
    /// its first [`Stream::next`] is the count as it is now.
    pub async fn open(&self, me: UserId, session: SessionId) -> Stream {
        self.dispatch();
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let (close, closed) = oneshot::channel();
        let count = {
            let mut people = self.people();
            let person =
                people.entry(me).or_insert_with(|| Person { count: watch::channel(None).0, open: VecDeque::new() });
            person.open.push_back(Open { id, session, close });
            while person.open.len() > STREAMS_PER_PERSON {
                if let Some(oldest) = person.open.pop_front() {
                    let _ = oldest.close.send(Heard::Replaced);
                }
            }
            person.count.subscribe()
        };
        let mut stream = Stream { me, id, count, closed, ended: None, streams: self.clone() };
        self.recount(me).await;
        // The count just read is this stream's first event, whatever came before it.
        stream.count.mark_changed();
        stream
    }

    /// Reads `user`'s count once and hands it to all their streams.
    async fn recount(&self, user: UserId) {
        self.inner.counts_read.fetch_add(1, Ordering::Relaxed);
        match self.inner.db.run(move |conn| Ok::<_, NotificationError>(repo::unread_count(conn, user)?)).await {
            Ok(n) => {
                if let Some(person) = self.people().get(&user) {
                    // Streams hear a change only: a count read again for a new stream is no news
                    // to the others.
                    person.count.send_if_modified(|shown| {
                        let changed = *shown != Some(n);
                        *shown = Some(n);
                        changed
                    });
                }
            }
            Err(e) => tracing::warn!(error = %values::error_chain(&e), "unread count for live streams"),
        }
    }

    /// Ends `user`'s streams whose sessions no longer stand (one query for all of them).
    async fn check_sessions(&self, user: UserId) {
        let asked: Vec<SessionId> = match self.people().get(&user) {
            Some(person) => person.open.iter().map(|o| o.session).collect(),
            None => return,
        };
        let ids = asked.clone();
        let standing =
            self.inner.db.run(move |conn| Ok::<_, NotificationError>(repo::standing_sessions(conn, user, &ids)?)).await;
        let standing = match standing {
            Ok(standing) => standing,
            Err(e) => {
                tracing::warn!(error = %values::error_chain(&e), "session check for live streams");
                return;
            }
        };
        let mut people = self.people();
        let Some(person) = people.get_mut(&user) else { return };
        // A stream opened since the question was asked is left for the next check.
        let (ended, kept): (VecDeque<Open>, VecDeque<Open>) =
            person.open.drain(..).partition(|o| asked.contains(&o.session) && !standing.contains(&o.session));
        person.open = kept;
        for stream in ended {
            let _ = stream.close.send(Heard::SignedOut);
        }
        if person.open.is_empty() {
            people.remove(&user);
        }
    }

    /// Starts, once, the task that hears what changed: it recounts for the people whose counts
    /// may have changed, and checks the sessions of people whose sessions ended.
    fn dispatch(&self) {
        self.inner.dispatching.get_or_init(|| {
            let streams = self.clone();
            let mut news = self.inner.db.changes().watch();
            tokio::spawn(async move {
                loop {
                    let heard = news.recv().await;
                    let (mut recount, mut check): (Vec<UserId>, Vec<UserId>) = (Vec::new(), Vec::new());
                    {
                        let people = streams.people();
                        match &heard {
                            // Every write is told here: what it names is looked up among the
                            // people with streams, not the other way round.
                            Ok(Told::Topics(topics)) => {
                                for topic in topics.iter() {
                                    match topic {
                                        Topic::Unread(u) if people.contains_key(u) => recount.push(*u),
                                        Topic::Sessions(u) if people.contains_key(u) => check.push(*u),
                                        _ => {}
                                    }
                                }
                            }
                            // Everything changed, or news was missed: anyone's count may have
                            // changed, and anyone's session may have ended.
                            Ok(Told::Everything) | Err(RecvError::Lagged(_)) => {
                                recount = people.keys().copied().collect();
                                check.clone_from(&recount);
                            }
                            Err(RecvError::Closed) => return,
                        }
                    }
                    recount.sort_unstable();
                    recount.dedup();
                    check.sort_unstable();
                    check.dedup();
                    for user in check {
                        streams.check_sessions(user).await;
                    }
                    for user in recount {
                        streams.recount(user).await;
                    }
                }
            });
        });
    }
}

impl Stream {
    /// The next thing to tell this stream's client: the count when it changes (at once for the
    /// first), or that the stream was replaced by a newer one.
    pub async fn next(&mut self) -> Heard {
        if let Some(why) = self.ended {
            return why;
        }
        loop {
            tokio::select! {
                biased;
                why = &mut self.closed => {
                    let why = why.unwrap_or(Heard::Replaced);
                    self.ended = Some(why);
                    return why;
                }
                changed = self.count.changed() => {
                    if changed.is_err() {
                        self.ended = Some(Heard::Replaced);
                        return Heard::Replaced;
                    }
                    if let Some(n) = *self.count.borrow_and_update() {
                        return Heard::Unread(n);
                    }
                }
            }
        }
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        let mut people = self.streams.people();
        if let Some(person) = people.get_mut(&self.me) {
            person.open.retain(|o| o.id != self.id);
            if person.open.is_empty() {
                people.remove(&self.me);
            }
        }
    }
}
