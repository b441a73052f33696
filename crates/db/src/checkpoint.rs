//! SQLite's checkpoints, on a thread of their own.
//!
//! In WAL mode a commit appends the pages it changed to the `-wal` file; a checkpoint copies
//! them back into the database file and syncs it to the disk. SQLite runs one by itself on the
//! connection whose commit takes the log past 1,000 pages: under a community's mix that was the
//! writer thread (`crate::writer`), 83 times in 15 s, and every write queued behind it waited
//! for the checkpoint's syncs (docs/performance.md, "Checkpoints off the writer").
//!
//! Here a thread with a connection of its own copies the log back after writes, at most once
//! every [`SPACING`]: PASSIVE, so it waits for no reader or writer and makes none wait. A
//! commit needs no sync of its own (`synchronous = NORMAL`), so the writer thread no longer
//! touches the disk beyond appending to the log. SQLite's own checkpoint stays as a backstop at
//! 10,000 pages (`wal_autocheckpoint` in `conn::SQLITE_PRAGMAS`): should this thread fall behind, or a reader
//! hold an old snapshot long enough to keep a passive checkpoint from finishing, the log still
//! stays bounded.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use diesel::Connection;
use diesel::connection::SimpleConnection;
use diesel::sqlite::SqliteConnection;

use crate::DbError;

/// The least time between two checkpoints: the writes in between share one copy of each page
/// they touched (a page written a hundred times is copied once) and one sync.
pub(crate) const SPACING: Duration = Duration::from_millis(250);

/// Tells the checkpointer that something was committed; dropping it ends the thread.
pub(crate) struct Nudge(mpsc::SyncSender<()>);

impl Nudge {
    /// Never waits: a nudge already waiting covers this commit too.
    pub(crate) fn committed(&self) {
        let _ = self.0.try_send(());
    }
}

/// Opens the checkpointer's connection to `url` and starts its thread.
pub(crate) fn start(url: &str) -> Result<Nudge, DbError> {
    let mut conn = SqliteConnection::establish(url).map_err(|e| DbError::Connect(e.to_string()))?;
    let (nudge, nudged) = mpsc::sync_channel::<()>(1);
    std::thread::Builder::new()
        .name("sqlite-checkpoint".into())
        .spawn(move || {
            while nudged.recv().is_ok() {
                let started = Instant::now();
                if let Err(e) = conn.batch_execute("PRAGMA wal_checkpoint(PASSIVE);") {
                    // Another process checkpointing the same file answers busy: it does the work.
                    tracing::debug!(error = %e, "a checkpoint did not run");
                }
                std::thread::sleep(SPACING.saturating_sub(started.elapsed()));
            }
        })
        .map_err(|e| DbError::Connect(format!("could not start the checkpoint thread: {e}")))?;
    Ok(Nudge(nudge))
}
