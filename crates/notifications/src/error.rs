//! What can go wrong with notifications.

use db::DbError;
use values::{DomainError, ErrorKind};

#[derive(Debug, thiserror::Error)]
pub enum NotificationError {
    /// Missing, or someone else's: the two answer alike.
    #[error("Notification not found")]
    NotFound,
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
            NotificationError::NotFound => ErrorKind::NotFound,
            NotificationError::Db(e) => e.kind(),
        }
    }
}
