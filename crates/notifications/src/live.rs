//! Live delivery: telling open notification streams that someone's unread count may have
//! changed, so their badge updates without a reload.
//!
//! A [`Signal`] names people, never what happened: a stream that hears its person named reads
//! the count again. Streams of this process listen on one `tokio::sync::broadcast` channel.
//!
//! - **SQLite** (one process): the use case calls [`Live::committed`] after its transaction
//!   commits, which broadcasts here.
//! - **PostgreSQL** (any number of processes on one database): the transaction itself runs
//!   `pg_notify` ([`crate::signal`]), which PostgreSQL delivers on commit to every connection
//!   that has run `LISTEN` — one per process, kept by a thread of its own that polls Diesel's
//!   `notifications_iter()`, checks the connection with `SELECT 1` every few seconds, and
//!   reconnects (then re-`LISTEN`s) after a drop. After every (re)connection it broadcasts
//!   [`Signal::Everyone`]: whatever was sent while nobody listened is read again by everyone.
//!
//! A stream whose receiver lagged behind reads its count again too; nothing is lost, since the
//! count is always read from the database.
//!
//! The same channel says when some of a person's sessions ended (sign-out, a password change,
//! "sign out everywhere", a suspension): [`Signal::SessionsEnded`], sent on PostgreSQL as
//! `ended:<id>` items in the payload (a listener that knows only ids skips them). Each stream of
//! that person checks its own session then, so it closes within moments, not at its next
//! keep-alive. What a process remembers of sessions (auth's checked sessions) is told the same,
//! synchronously ([`Live::on_sessions_ended`]): by this process's own [`Live::sessions_ended`]
//! before the use case answers, by the listening thread for other processes', and about
//! everyone's whenever the listening connection was lost or made again.
//!
//! The same thread listens on `db::changes::CHANNEL` too, where every write transaction says
//! what it changed, and passes that to the [`db::Changes`] of this process (given to
//! [`Live::for_database`]): what pages hold in memory follows other processes' writes. It
//! tells it too whether it is listening: while it is not, nothing held is trusted.

use std::sync::{Arc, RwLock, Weak};
use std::time::{Duration, Instant};

use db::Changes;
use db::changes;
use db::diesel::connection::SimpleConnection;
use db::diesel::pg::PgConnection;
use db::diesel::{Connection, RunQueryDsl};
use tokio::sync::broadcast;
use values::UserId;

/// The PostgreSQL channel the signals travel on.
pub const CHANNEL: &str = "selfsound_notifications";
/// How often the listening thread looks for notifications that arrived.
const POLL: Duration = Duration::from_millis(50);
/// How often it makes sure its connection still answers.
const PING: Duration = Duration::from_secs(10);
/// The longest wait between attempts to reconnect.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// Whose unread count may have changed, or whose sessions ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signal {
    Users(Arc<[UserId]>),
    /// Some sessions of these people ended: their streams check whether theirs still stands.
    SessionsEnded(Arc<[UserId]>),
    /// Anyone's: signals may have been missed.
    Everyone,
}

impl Signal {
    /// Whether `user`'s unread count may have changed.
    pub fn concerns(&self, user: UserId) -> bool {
        match self {
            Signal::Users(users) => users.contains(&user),
            Signal::SessionsEnded(_) => false,
            Signal::Everyone => true,
        }
    }

    /// Whether some of `user`'s sessions may have ended.
    pub fn ends_sessions_of(&self, user: UserId) -> bool {
        match self {
            Signal::SessionsEnded(users) => users.contains(&user),
            Signal::Users(_) => false,
            Signal::Everyone => true,
        }
    }
}

/// Told that some sessions of these people (or, with none, of anyone) may have ended.
type EndedHook = dyn Fn(Option<&[UserId]>) + Send + Sync;

/// What [`Live::on_sessions_ended`] attached, shared with the listening thread.
#[derive(Clone, Default)]
struct Hooks(Arc<RwLock<Vec<Box<EndedHook>>>>);

impl Hooks {
    fn tell(&self, users: Option<&[UserId]>) {
        for hook in self.0.read().unwrap_or_else(std::sync::PoisonError::into_inner).iter() {
            hook(users);
        }
    }
}

/// How a [`Signal::SessionsEnded`] item is written in a PostgreSQL payload: `ended:<id>`.
pub(crate) const ENDED: &str = "ended:";

/// This process's end of live delivery; cheap to clone. The PostgreSQL listening thread stops
/// once the last clone is dropped.
#[derive(Clone)]
pub struct Live {
    tx: broadcast::Sender<Signal>,
    /// True when [`Live::committed`] must broadcast itself (no database notifications).
    local: bool,
    hooks: Hooks,
    /// Held only to be dropped: the listening thread watches it through a `Weak`.
    _listening: Arc<()>,
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Live").field("local", &self.local).finish_non_exhaustive()
    }
}

impl Live {
    /// Streams of one process, told by [`Live::committed`] (SQLite).
    pub fn in_process() -> Live {
        let (tx, _) = broadcast::channel(256);
        Live { tx, local: true, hooks: Hooks::default(), _listening: Arc::new(()) }
    }

    /// Streams of every process sharing the PostgreSQL database at `url`: a thread of this
    /// process listens for the signals every transaction sends.
    pub fn postgres(url: &str) -> std::io::Result<Live> {
        Live::listening(url, None)
    }

    /// [`Live::postgres`], the same thread also passing what other processes changed to
    /// `changes` (`db::changes`), which it tells whether it is listening.
    fn listening(url: &str, changes: Option<Arc<Changes>>) -> std::io::Result<Live> {
        let (tx, _) = broadcast::channel(256);
        let (alive, hooks) = (Arc::new(()), Hooks::default());
        let heard = Heard { tx: tx.clone(), hooks: hooks.clone(), changes };
        let (url, watch) = (listener_url(url), Arc::downgrade(&alive));
        std::thread::Builder::new().name("notify-listen".into()).spawn(move || listen(&url, &heard, &watch))?;
        Ok(Live { tx, local: false, hooks, _listening: alive })
    }

    /// For `db` at `url`: [`Live::in_process`] on SQLite; on PostgreSQL [`Live::postgres`],
    /// whose thread also tells `db`'s changes what other processes changed.
    pub fn for_database(url: &str, db: &db::Db) -> std::io::Result<Live> {
        match db.backend() {
            db::Backend::Postgres => Live::listening(url, Some(db.changes().clone())),
            db::Backend::Sqlite => Ok(Live::in_process()),
        }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Signal> {
        self.tx.subscribe()
    }

    /// After a transaction that changed these people's notifications has committed. On
    /// PostgreSQL the transaction's own `NOTIFY` does this for every process, so here nothing.
    pub fn committed(&self, users: &[UserId]) {
        if self.local && !users.is_empty() {
            // No stream open: nobody to tell.
            let _ = self.tx.send(Signal::Users(users.into()));
        }
    }

    /// After a transaction that ended sessions of these people has committed (with
    /// [`crate::signal_sessions_ended`] inside it): their streams here check their sessions. On
    /// PostgreSQL the transaction's `NOTIFY` does this for every process, so here nothing.
    /// What remembers sessions in this process is told at once, on either database.
    pub fn sessions_ended(&self, users: &[UserId]) {
        if users.is_empty() {
            return;
        }
        self.hooks.tell(Some(users));
        if self.local {
            let _ = self.tx.send(Signal::SessionsEnded(users.into()));
        }
    }

    /// Attaches `hook`, told synchronously whenever sessions may have ended: of the people
    /// named, or (`None`) of anyone, when signals may have been missed.
    pub fn on_sessions_ended(&self, hook: impl Fn(Option<&[UserId]>) + Send + Sync + 'static) {
        self.hooks.0.write().unwrap_or_else(std::sync::PoisonError::into_inner).push(Box::new(hook));
    }
}

/// The listening connection names itself, so it can be told apart in `pg_stat_activity`.
fn listener_url(url: &str) -> String {
    let separator = if url.contains('?') { '&' } else { '?' };
    format!("{url}{separator}application_name=selfsound-listen")
}

/// Who the listening thread passes what it hears to.
struct Heard {
    tx: broadcast::Sender<Signal>,
    hooks: Hooks,
    changes: Option<Arc<Changes>>,
}

impl Heard {
    /// Whether every change is heard from now on (`db::Changes::listening`).
    fn listening(&self, yes: bool) {
        if let Some(changes) = &self.changes {
            changes.listening(yes);
        }
    }

    /// Signals may have been missed: everyone's count and sessions are checked again.
    fn everyone(&self) {
        self.hooks.tell(None);
        let _ = self.tx.send(Signal::Everyone);
    }
}

/// The listening thread: connect, `LISTEN`, poll; after any failure wait (1 s doubling to 30 s)
/// and start again. Ends once every [`Live`] is gone.
fn listen(url: &str, heard: &Heard, alive: &Weak<()>) {
    let mut backoff = Duration::from_secs(1);
    while alive.strong_count() > 0 {
        match PgConnection::establish(url) {
            Ok(mut conn) => match conn.batch_execute(&format!("LISTEN {CHANNEL}; LISTEN {}", changes::CHANNEL)) {
                Ok(()) => {
                    backoff = Duration::from_secs(1);
                    heard.listening(true);
                    heard.everyone();
                    if let Err(e) = relay(&mut conn, heard, alive) {
                        tracing::warn!(error = %e, "the notification listener lost its connection; reconnecting");
                        // Sessions ended elsewhere go unheard until it is back: none is taken
                        // from memory meanwhile for longer than auth's own limit, and nothing
                        // else kept in memory is trusted. (Streams hear `Everyone` once it is
                        // back, when reading again is of use.)
                        heard.listening(false);
                        heard.hooks.tell(None);
                    }
                }
                Err(e) => tracing::warn!(error = %e, "LISTEN failed; trying again"),
            },
            Err(e) => tracing::warn!(error = %e, "the notification listener cannot connect; trying again"),
        }
        if alive.strong_count() == 0 {
            break;
        }
        std::thread::sleep(backoff);
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

/// Passes on what arrives until the connection fails (an error) or every [`Live`] is gone.
fn relay(conn: &mut PgConnection, heard: &Heard, alive: &Weak<()>) -> Result<(), String> {
    let mut pinged = Instant::now();
    while alive.strong_count() > 0 {
        let (mut users, mut ended): (Vec<UserId>, Vec<UserId>) = (Vec::new(), Vec::new());
        for arrived in conn.notifications_iter() {
            let n = arrived.map_err(|e| e.to_string())?;
            match (&heard.changes, n.channel == changes::CHANNEL) {
                (Some(changes), true) => changes.heard(&n.payload),
                (None, true) => {}
                (_, false) => read_payload(&n.payload, &mut users, &mut ended),
            }
        }
        if let Some(users) = distinct(users) {
            let _ = heard.tx.send(Signal::Users(users));
        }
        if let Some(ended) = distinct(ended) {
            heard.hooks.tell(Some(&ended));
            let _ = heard.tx.send(Signal::SessionsEnded(ended));
        }
        if pinged.elapsed() >= PING {
            db::diesel::sql_query("SELECT 1").execute(conn).map_err(|e| e.to_string())?;
            pinged = Instant::now();
        }
        std::thread::sleep(POLL);
    }
    Ok(())
}

/// The people named, each once; none when nobody is.
fn distinct(mut people: Vec<UserId>) -> Option<Arc<[UserId]>> {
    people.sort_unstable();
    people.dedup();
    (!people.is_empty()).then(|| people.into())
}

/// The people a payload names: `<id>` items (unread counts) and `ended:<id>` items (sessions).
fn read_payload(payload: &str, users: &mut Vec<UserId>, ended: &mut Vec<UserId>) {
    for item in payload.split(',').map(str::trim) {
        let (list, id) = match item.strip_prefix(ENDED) {
            Some(id) => (&mut *ended, id),
            None => (&mut *users, item),
        };
        if let Some(id) = id.parse::<i64>().ok().and_then(|id| UserId::try_from(id).ok()) {
            list.push(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signal_concerns_the_people_it_names() {
        let (a, b) = (UserId::generate(), UserId::generate());
        assert!(Signal::Users(vec![a].into()).concerns(a));
        assert!(!Signal::Users(vec![a].into()).concerns(b));
        assert!(Signal::Everyone.concerns(b));
    }

    #[test]
    fn a_payload_names_counts_and_ended_sessions() {
        let (a, b) = (UserId::generate(), UserId::generate());
        let (mut users, mut ended) = (Vec::new(), Vec::new());
        read_payload(&format!("{a},{ENDED}{b}, x,ended:y"), &mut users, &mut ended);
        assert_eq!((users, ended), (vec![a], vec![b]));
        assert!(Signal::SessionsEnded(vec![b].into()).ends_sessions_of(b));
        assert!(!Signal::SessionsEnded(vec![b].into()).concerns(b), "no count to read again");
        assert!(Signal::Everyone.ends_sessions_of(a));
    }

    #[test]
    fn the_listening_connection_names_itself() {
        assert_eq!(listener_url("postgres://h/db"), "postgres://h/db?application_name=selfsound-listen");
        assert_eq!(
            listener_url("postgres://h/db?sslmode=off"),
            "postgres://h/db?sslmode=off&application_name=selfsound-listen"
        );
    }

    #[tokio::test]
    async fn in_process_delivery_tells_subscribers_after_commit() {
        let live = Live::in_process();
        let mut rx = live.subscribe();
        let a = UserId::generate();
        live.committed(&[a]);
        assert_eq!(rx.recv().await.ok(), Some(Signal::Users(vec![a].into())));
        live.committed(&[]);
        assert!(rx.try_recv().is_err(), "nothing changed, nothing said");
    }

    #[test]
    fn what_remembers_sessions_is_told_at_once_on_either_database() -> std::io::Result<()> {
        type Told = std::sync::Mutex<Vec<Option<Vec<UserId>>>>;
        let told = Arc::new(Told::default());
        let said = |told: &Told| std::mem::take(&mut *told.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        // PostgreSQL's listener never connects here (nothing listens on port 1): the hook is
        // told by the use case's own call, not by the NOTIFY coming back.
        for live in [Live::in_process(), Live::postgres("postgres://127.0.0.1:1/none")?] {
            let seen = told.clone();
            live.on_sessions_ended(move |users| {
                seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(users.map(<[UserId]>::to_vec));
            });
            let a = UserId::generate();
            live.sessions_ended(&[a]);
            live.sessions_ended(&[]);
            assert_eq!(said(&told), vec![Some(vec![a])]);
        }
        Ok(())
    }
}
