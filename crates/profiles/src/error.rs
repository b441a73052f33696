//! What can go wrong with profiles, each with the detail a person should read.

#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error("User not found")]
    NotFound,
    /// An edit that breaks a profile rule; the text is shown as is.
    #[error("{0}")]
    Invalid(String),
    #[error("This login is already taken")]
    LoginTaken,
    #[error("Please select a PNG or JPEG image")]
    AvatarType,
    #[error("Image must be smaller than 5MB")]
    AvatarTooLarge,
    #[error("{0}")]
    AvatarUnreadable(String),
    #[error(transparent)]
    Db(#[from] db::DbError),
    #[error("storing the avatar failed: {0}")]
    Storage(#[from] storage::StorageError),
}

impl From<diesel::result::Error> for ProfileError {
    fn from(e: diesel::result::Error) -> Self {
        ProfileError::Db(e.into())
    }
}

impl From<social_graph::GraphError> for ProfileError {
    fn from(e: social_graph::GraphError) -> Self {
        match e {
            social_graph::GraphError::Db(e) => ProfileError::Db(e),
            social_graph::GraphError::UserNotFound => ProfileError::NotFound,
            other => ProfileError::Invalid(other.to_string()),
        }
    }
}
