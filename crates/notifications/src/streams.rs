//! The open live streams of this process: at most [`STREAMS_PER_PERSON`] a person (opening one
//! more closes their oldest), and one count per change. One task of the process hears the
//! [`Live`] signals, reads the unread count of each person it names who has a stream open here,
//! once, and hands it to all their streams through a `watch` channel. (Before, every stream read
//! the count itself: 50 comments to someone with 1,000 streams open made about 97,000 queries.)

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use db::Db;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{oneshot, watch};
use values::UserId;

use crate::live::Live;
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
    live: Live,
    people: Mutex<HashMap<UserId, Person>>,
    next_id: AtomicU64,
    /// How many unread counts were read for streams (for metrics and tests).
    counts_read: AtomicU64,
    dispatching: OnceLock<()>,
}

/// One person's streams: the count they all show, and how to close each, oldest first.
struct Person {
    count: watch::Sender<Option<i64>>,
    open: VecDeque<(u64, oneshot::Sender<()>)>,
}

/// One open stream. Dropping it unregisters it.
pub struct Stream {
    me: UserId,
    id: u64,
    count: watch::Receiver<Option<i64>>,
    replaced: oneshot::Receiver<()>,
    /// Set once `replaced` has answered (a finished receiver may not be polled again).
    ended: bool,
    streams: Streams,
}

/// What a stream hears next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heard {
    /// The unread count, as it is now.
    Unread(i64),
    /// The person opened more than [`STREAMS_PER_PERSON`] streams: this, their oldest, ends.
    Replaced,
}

impl Streams {
    pub fn new(db: Db, live: Live) -> Streams {
        Streams {
            inner: Arc::new(Inner {
                db,
                live,
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

    /// How many streams `user` has open here.
    pub fn open_for(&self, user: UserId) -> usize {
        self.people().get(&user).map_or(0, |p| p.open.len())
    }

    /// Opens a stream for `me`, closing their oldest past [`STREAMS_PER_PERSON`]; its first
    /// [`Stream::next`] is the count as it is now.
    pub async fn open(&self, me: UserId) -> Stream {
        self.dispatch();
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let (close, replaced) = oneshot::channel();
        let count = {
            let mut people = self.people();
            let person =
                people.entry(me).or_insert_with(|| Person { count: watch::channel(None).0, open: VecDeque::new() });
            person.open.push_back((id, close));
            while person.open.len() > STREAMS_PER_PERSON {
                if let Some((_, oldest)) = person.open.pop_front() {
                    let _ = oldest.send(());
                }
            }
            person.count.subscribe()
        };
        let mut stream = Stream { me, id, count, replaced, ended: false, streams: self.clone() };
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

    /// Starts, once, the task that hears signals and recounts for the people they name.
    fn dispatch(&self) {
        self.inner.dispatching.get_or_init(|| {
            let streams = self.clone();
            let mut signals = self.inner.live.subscribe();
            tokio::spawn(async move {
                loop {
                    let heard = signals.recv().await;
                    let named: Vec<UserId> = {
                        let people = streams.people();
                        match &heard {
                            Ok(signal) => people.keys().copied().filter(|u| signal.concerns(*u)).collect(),
                            // Signals were missed: anyone's count may have changed.
                            Err(RecvError::Lagged(_)) => people.keys().copied().collect(),
                            Err(RecvError::Closed) => return,
                        }
                    };
                    for user in named {
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
        if self.ended {
            return Heard::Replaced;
        }
        loop {
            tokio::select! {
                biased;
                _ = &mut self.replaced => {
                    self.ended = true;
                    return Heard::Replaced;
                }
                changed = self.count.changed() => {
                    if changed.is_err() {
                        self.ended = true;
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
            person.open.retain(|(id, _)| *id != self.id);
            if person.open.is_empty() {
                people.remove(&self.me);
            }
        }
    }
}
