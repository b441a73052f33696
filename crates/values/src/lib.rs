//! The leaf of the workspace: value types that every crate may use and that none of them owns.
//!
//! - typed ids ([`UserId`], [`PostId`], ...): one kind of id cannot be passed for another;
//! - parsed text ([`Name`], [`Email`], [`Login`], [`Biography`]): a value of these types always
//!   meets its rule ("parse, don't validate");
//! - closed sets of words ([`text_enum!`], [`PostKind`]) stored as text and sent as strings;
//! - [`ErrorKind`] and [`DomainError`]: what kind of failure an error is, so the HTTP layer maps
//!   kinds to statuses once, whatever crate the error comes from.
//!
//! Nothing here does I/O.

mod error;
mod id;
mod job_kind;
mod post_kind;
mod text;
mod text_enum;

// For `text_enum!` in other crates.
#[doc(hidden)]
pub use diesel as __diesel;
#[doc(hidden)]
pub use serde as __serde;

pub use error::{DomainError, ErrorKind, error_chain};
pub use id::{
    CommentId, ExportId, InvalidId, JobId, NotificationId, PasskeyId, PlaylistId, PlaylistItemId, PostId, PushDeviceId,
    ReportId, SessionId, UserId, new_raw_id, raw_id_at, raw_id_floor,
};
pub use job_kind::JobKind;
pub use post_kind::PostKind;
pub use text::{
    BIOGRAPHY_MAX, Biography, EMAIL_MAX, Email, InvalidValue, LOGIN_MAX, LOGIN_MIN, Login, NAME_MAX, Name, escape_html,
    hidden_character, hides,
};
