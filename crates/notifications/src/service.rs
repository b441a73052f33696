//! The use cases of notifications alone, one transaction each.

use db::{Db, Page, PageRule};
use values::{NotificationId, UserId};

use crate::model::Notification;
use crate::streams::Streams;
use crate::{NotificationError, repo};

/// 20 a page (spec §9), at most 50.
pub const NOTIFICATIONS_PAGE: PageRule = PageRule::new(20, 50);

#[derive(Clone)]
pub struct Notifications {
    db: Db,
    streams: Streams,
}

impl Notifications {
    pub fn new(db: Db) -> Notifications {
        Notifications { streams: Streams::new(db.clone()), db }
    }

    /// This process's open live streams.
    pub fn streams(&self) -> &Streams {
        &self.streams
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
            .write(move |conn| {
                repo::mark_read(conn, me, id)?;
                Ok::<_, NotificationError>(repo::signal(conn, &[me])?)
            })
            .await
    }

    /// Marks all of `me`'s notifications read.
    pub async fn mark_all_read(&self, me: UserId) -> Result<(), NotificationError> {
        self.db
            .write(move |conn| {
                if repo::mark_all_read(conn, me)? > 0 {
                    repo::signal(conn, &[me])?;
                }
                Ok::<_, NotificationError>(())
            })
            .await
    }
}
