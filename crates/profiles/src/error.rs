//! What can go wrong with profiles, each with the detail a person should read.

use media_validation::MediaError;
use values::{DomainError, ErrorKind, InvalidValue};

#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error("User not found")]
    NotFound,
    /// An edit that breaks a profile rule.
    #[error(transparent)]
    Invalid(#[from] InvalidEdit),
    #[error("This login is already taken")]
    LoginTaken,
    #[error("Please select a PNG or JPEG image")]
    AvatarType,
    #[error("Image must be smaller than 5MB")]
    AvatarTooLarge,
    #[error(transparent)]
    AvatarUnreadable(AvatarDefect),
    #[error(transparent)]
    Db(#[from] db::DbError),
    #[error("storing the avatar failed")]
    Storage(#[from] storage::StorageError),
}

/// Which profile rule an edit breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum InvalidEdit {
    #[error(transparent)]
    Value(#[from] InvalidValue),
    #[error("Unknown tag")]
    UnknownTag,
}

/// Why an image that looks like a PNG or JPEG cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AvatarDefect {
    #[error("The image could not be read")]
    Damaged,
    #[error("Image is too large: {0}")]
    TooManyPixels(MediaError),
}

impl From<InvalidValue> for ProfileError {
    fn from(e: InvalidValue) -> Self {
        ProfileError::Invalid(e.into())
    }
}

impl From<diesel::result::Error> for ProfileError {
    fn from(e: diesel::result::Error) -> Self {
        ProfileError::Db(e.into())
    }
}

impl DomainError for ProfileError {
    fn kind(&self) -> ErrorKind {
        match self {
            ProfileError::NotFound => ErrorKind::NotFound,
            ProfileError::Invalid(_) | ProfileError::AvatarUnreadable(_) => ErrorKind::Invalid,
            ProfileError::LoginTaken => ErrorKind::Conflict,
            ProfileError::AvatarType => ErrorKind::UnsupportedType,
            ProfileError::AvatarTooLarge => ErrorKind::TooLarge,
            ProfileError::Db(e) => e.kind(),
            ProfileError::Storage(e) => match e.kind() {
                // Our own key missing is our fault, not the person's.
                ErrorKind::NotFound | ErrorKind::Invalid => ErrorKind::Internal,
                other => other,
            },
        }
    }
}
