//! The use cases of notifications alone, one transaction each.

use db::{Db, Page, PageRule};
use values::{NotificationId, PushDeviceId, SessionId, UserId};

use crate::model::Notification;
use crate::push::{self, KindsChange, PushDevice, Subscription};
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

    /// `me`'s devices for Web Push, oldest first.
    pub async fn push_devices(&self, me: UserId) -> Result<Vec<PushDevice>, NotificationError> {
        self.db.run(move |conn| Ok(push::devices::list(conn, me)?)).await
    }

    /// Keeps a browser's subscription as a device of `me`, turned on by `session`: the device,
    /// and whether it is new (the same endpoint again is the same device).
    pub async fn add_push_device(
        &self,
        me: UserId,
        session: SessionId,
        sub: Subscription,
        name: Option<String>,
    ) -> Result<(PushDevice, bool), NotificationError> {
        self.db.write(move |conn| push::devices::add(conn, me, session, &sub, name.as_deref())).await
    }

    /// Turns kinds of one of `me`'s devices on or off.
    pub async fn change_push_device(
        &self,
        me: UserId,
        id: PushDeviceId,
        change: KindsChange,
    ) -> Result<PushDevice, NotificationError> {
        self.db.write(move |conn| push::devices::change(conn, me, id, change)).await
    }

    /// Removes one of `me`'s devices.
    pub async fn remove_push_device(&self, me: UserId, id: PushDeviceId) -> Result<(), NotificationError> {
        self.db.write(move |conn| push::devices::remove(conn, me, id)).await
    }

    /// Queues a test message to one of `me`'s devices.
    pub async fn test_push_device(&self, me: UserId, id: PushDeviceId) -> Result<(), NotificationError> {
        self.db.write(move |conn| push::devices::queue_test(conn, me, id)).await
    }
}
