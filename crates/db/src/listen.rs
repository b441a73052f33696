//! Hearing what other processes change, on PostgreSQL.
//!
//! Every write transaction sends what it changed on [`crate::changes::CHANNEL`]
//! (`pg_notify`, delivered on commit). One thread per process keeps a connection that has run
//! `LISTEN`, polls Diesel's `notifications_iter()`, checks the connection with `SELECT 1` every
//! few seconds, and reconnects (then listens again) after a drop, backing off from 1 to 30 s.
//! What arrives is stamped in the process's [`Changes`] and told to its watchers; while the
//! connection is down nothing remembered is trusted ([`Changes::listening`]), and when it is up
//! again everything counts as changed, since whatever was sent meanwhile went unheard.

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::{Connection, RunQueryDsl};

use crate::Changes;
use crate::changes::CHANNEL;

/// How often the listening thread looks for notifications that arrived.
const POLL: Duration = Duration::from_millis(50);
/// How often it makes sure its connection still answers.
const PING: Duration = Duration::from_secs(10);
/// The longest wait between attempts to reconnect.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// Starts the thread that hears other processes' changes at `url` for `changes`; it ends once
/// `changes` is dropped.
pub(crate) fn start(url: &str, changes: &Arc<Changes>) -> std::io::Result<()> {
    let (url, changes) = (listener_url(url), Arc::downgrade(changes));
    std::thread::Builder::new().name("changes-listen".into()).spawn(move || listen(&url, &changes))?;
    Ok(())
}

/// The listening connection names itself, so it can be told apart in `pg_stat_activity`.
fn listener_url(url: &str) -> String {
    let separator = if url.contains('?') { '&' } else { '?' };
    format!("{url}{separator}application_name=selfsound-listen")
}

/// Connect, `LISTEN`, relay; after any failure wait and start again.
fn listen(url: &str, changes: &Weak<Changes>) {
    let mut backoff = Duration::from_secs(1);
    while changes.strong_count() > 0 {
        match PgConnection::establish(url) {
            Ok(mut conn) => match conn.batch_execute(&format!("LISTEN {CHANNEL}")) {
                Ok(()) => {
                    backoff = Duration::from_secs(1);
                    if let Some(changes) = changes.upgrade() {
                        changes.listening(true);
                    }
                    if let Err(e) = relay(&mut conn, changes) {
                        tracing::warn!(error = %e, "the changes listener lost its connection; reconnecting");
                        if let Some(changes) = changes.upgrade() {
                            changes.listening(false);
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "LISTEN failed; trying again"),
            },
            Err(e) => tracing::warn!(error = %e, "the changes listener cannot connect; trying again"),
        }
        if changes.strong_count() == 0 {
            break;
        }
        std::thread::sleep(backoff);
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

/// Passes on what arrives until the connection fails (an error) or `changes` is gone.
fn relay(conn: &mut PgConnection, changes: &Weak<Changes>) -> Result<(), String> {
    let mut pinged = Instant::now();
    loop {
        let Some(changes) = changes.upgrade() else { return Ok(()) };
        for arrived in conn.notifications_iter() {
            let n = arrived.map_err(|e| e.to_string())?;
            if n.channel == CHANNEL {
                changes.heard(&n.payload);
            }
        }
        drop(changes);
        if pinged.elapsed() >= PING {
            diesel::sql_query("SELECT 1").execute(conn).map_err(|e| e.to_string())?;
            pinged = Instant::now();
        }
        std::thread::sleep(POLL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listening_connection_names_itself() {
        assert_eq!(listener_url("postgres://h/db"), "postgres://h/db?application_name=selfsound-listen");
        assert_eq!(
            listener_url("postgres://h/db?sslmode=off"),
            "postgres://h/db?sslmode=off&application_name=selfsound-listen"
        );
    }
}
