//! What can go wrong with notifications.

use db::DbError;
use values::{DomainError, ErrorKind};

#[derive(Debug, thiserror::Error)]
pub enum NotificationError {
    /// Missing, or someone else's: the two answer alike.
    #[error("Notification not found")]
    NotFound,
    /// A push device that is missing or someone else's.
    #[error("This device is not signed up for notifications.")]
    DeviceNotFound,
    /// A push subscription we cannot push to; the text says why.
    #[error("{0}")]
    BadSubscription(String),
    #[error("You can turn on notifications on at most {} devices. Remove one first.", crate::push::MOST_DEVICES)]
    TooManyDevices,
    #[error("{0}")]
    Conflict(String),
    /// A fault of ours (a key that does not read, a payload that does not serialise).
    #[error("{0}")]
    Unexpected(String),
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<diesel::result::Error> for NotificationError {
    fn from(e: diesel::result::Error) -> Self {
        NotificationError::Db(e.into())
    }
}

impl DomainError for NotificationError {
    fn kind(&self) -> ErrorKind {
        match self {
            NotificationError::NotFound | NotificationError::DeviceNotFound => ErrorKind::NotFound,
            NotificationError::BadSubscription(_) | NotificationError::TooManyDevices => ErrorKind::Invalid,
            NotificationError::Conflict(_) => ErrorKind::Conflict,
            NotificationError::Unexpected(_) => ErrorKind::Internal,
            NotificationError::Db(e) => e.kind(),
        }
    }
}
