//! What can go wrong in moderation, each with the words a person should read (spec §5, §6, §8).

use db::DbError;
use values::{DomainError, ErrorKind};

#[derive(Debug, thiserror::Error)]
pub enum ModerationError {
    /// Missing, or not visible to the reporter (a block stands between them).
    #[error("Post not found")]
    PostNotFound,
    /// No reason, an unknown one, or Other without words (spec §5 Report).
    #[error("Please select or enter a reason.")]
    ReasonRequired,
    #[error("The description is too long (at most 1000 characters)")]
    DescriptionTooLong,
    #[error("Text cannot contain a NUL character")]
    NulCharacter,
    #[error("Text cannot contain control or text-direction characters")]
    HiddenCharacters,
    #[error("You cannot report your own post")]
    OwnPost,
    /// Missing, or not visible to the reporter (a block with its author or the post's).
    #[error("Comment not found")]
    CommentNotFound,
    #[error("You cannot report your own comment")]
    OwnComment,
    /// delete_post on a report of a comment: the post is not what was reported.
    #[error("This complaint is about a comment: delete the comment (delete_comment) or ignore it")]
    AboutComment,
    #[error("This complaint is about a post: delete the post (delete_post) or ignore it")]
    AboutPost,
    #[error("before must be a cursor the list gave")]
    BadCursor,
    /// Signed in, but not an admin (spec §6, §8).
    #[error("Admin access required")]
    AdminOnly,
    #[error("Report not found")]
    ReportNotFound,
    #[error("This report was already resolved")]
    AlreadyResolved,
    #[error("Unknown action: use delete_post, delete_comment or ignore")]
    UnknownAction,
    #[error("No account has the e-mail address {0}")]
    NoSuchAccount(String),
    /// The admin role goes only to an account whose owner opened its verification link.
    #[error(
        "The account with the e-mail address {0} is not verified yet, and the admin role goes only to verified accounts"
    )]
    NotVerified(String),
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<diesel::result::Error> for ModerationError {
    fn from(e: diesel::result::Error) -> Self {
        ModerationError::Db(e.into())
    }
}

impl DomainError for ModerationError {
    fn kind(&self) -> ErrorKind {
        match self {
            ModerationError::PostNotFound
            | ModerationError::CommentNotFound
            | ModerationError::ReportNotFound
            | ModerationError::NoSuchAccount(_) => ErrorKind::NotFound,
            ModerationError::ReasonRequired
            | ModerationError::DescriptionTooLong
            | ModerationError::NulCharacter
            | ModerationError::HiddenCharacters
            | ModerationError::OwnPost
            | ModerationError::OwnComment
            | ModerationError::AboutComment
            | ModerationError::AboutPost
            | ModerationError::BadCursor
            | ModerationError::UnknownAction => ErrorKind::Invalid,
            ModerationError::AdminOnly => ErrorKind::Forbidden,
            ModerationError::NotVerified(_) => ErrorKind::Conflict,
            ModerationError::AlreadyResolved => ErrorKind::Conflict,
            ModerationError::Db(e) => e.kind(),
        }
    }
}
