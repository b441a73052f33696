//! The use cases of notifications alone, one transaction each.

use db::{Db, Page, PageRule, write_tx};
use values::{NotificationId, UserId};

use crate::live::Live;
use crate::model::Notification;
use crate::streams::Streams;
use crate::{NotificationError, repo};

/// 20 a page (spec §9), at most 50.
pub const NOTIFICATIONS_PAGE: PageRule = PageRule::new(20, 50);

#[derive(Clone)]
pub struct Notifications {
    db: Db,
    live: Live,
    streams: Streams,
}

impl Notifications {
    pub fn new(db: Db, live: Live) -> Notifications {
        Notifications { streams: Streams::new(db.clone(), live.clone()), db, live }
    }

    /// This process's open live streams.
    pub fn streams(&self) -> &Streams {
        &self.streams
    }

    /// Where this process's streams hear that someone's unread count may have changed.
    pub fn live(&self) -> &Live {
        &self.live
    }

    /// Sessions of `user` ended outside a transaction of ours (auth's sign-out, password change,
    /// "sign out everywhere"): their open streams, in every process, check theirs and those
    /// whose session is gone end at once.
    pub async fn sessions_ended(&self, user: UserId) -> Result<(), NotificationError> {
        self.db.run(move |conn| Ok::<_, NotificationError>(repo::signal_sessions_ended(conn, &[user])?)).await?;
        self.live.sessions_ended(&[user]);
        Ok(())
    }

    /// A page of `me`'s notifications, newest first.
    pub async fn list(&self, me: UserId, page: Page) -> Result<Vec<Notification>, NotificationError> {
        self.db.run(move |conn| repo::list(conn, me, page)).await
    }

    /// How many of `me`'s notifications are unread (up to [`crate::UNREAD_CAP`]).
    pub async fn unread_count(&self, me: UserId) -> Result<i64, NotificationError> {
        self.db.run(move |conn| Ok(repo::unread_count(conn, me)?)).await
    }

    /// Marks one of `me`'s notifications read (not found when it is someone else's).
    pub async fn mark_read(&self, me: UserId, id: NotificationId) -> Result<(), NotificationError> {
        self.db
            .run(move |conn| {
                write_tx(conn, |conn| {
                    repo::mark_read(conn, me, id)?;
                    Ok::<_, NotificationError>(repo::signal(conn, &[me])?)
                })
            })
            .await?;
        self.live.committed(&[me]);
        Ok(())
    }

    /// Marks all of `me`'s notifications read.
    pub async fn mark_all_read(&self, me: UserId) -> Result<(), NotificationError> {
        let changed = self
            .db
            .run(move |conn| {
                write_tx(conn, |conn| {
                    let n = repo::mark_all_read(conn, me)?;
                    if n > 0 {
                        repo::signal(conn, &[me])?;
                    }
                    Ok::<_, NotificationError>(n)
                })
            })
            .await?;
        if changed > 0 {
            self.live.committed(&[me]);
        }
        Ok(())
    }
}
