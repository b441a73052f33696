//! Reports, complaints, decisions and the admin who makes them.

use chrono::NaiveDateTime;
use db::model::UserCard;
use db::schema::{admin_actions, reports};
use diesel::prelude::*;
use values::{PostId, ReportId, UserId};

use crate::ModerationError;

/// Why a post is reported (spec §5 Report).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    Spam,
    Harassment,
    HateSpeech,
    Other,
}

impl Reason {
    pub const ALL: [Reason; 4] = [Reason::Spam, Reason::Harassment, Reason::HateSpeech, Reason::Other];

    /// The words of the spec, as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Spam => "Spam",
            Reason::Harassment => "Harassment",
            Reason::HateSpeech => "Hate speech",
            Reason::Other => "Other",
        }
    }

    /// A reason as a client may spell it: any case, surrounding spaces ignored.
    pub fn parse(s: &str) -> Option<Reason> {
        let s = s.trim();
        Reason::ALL.into_iter().find(|r| r.as_str().eq_ignore_ascii_case(s))
    }
}

/// The most characters a report's description may have.
pub const DESCRIPTION_MAX: usize = 1000;

/// A report as checked: a known reason, and words where Other needs them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportInput {
    pub reason: Reason,
    pub description: Option<String>,
}

impl ReportInput {
    /// Spec §5: a reason among the four; with Other, the trimmed text must not be empty.
    /// Text sent with another reason is kept (trimmed) when there is some.
    pub fn parse(reason: Option<&str>, description: Option<&str>) -> Result<ReportInput, ModerationError> {
        let reason = reason.and_then(Reason::parse).ok_or(ModerationError::ReasonRequired)?;
        let description = description.map(str::trim).filter(|d| !d.is_empty()).map(str::to_owned);
        if reason == Reason::Other && description.is_none() {
            return Err(ModerationError::ReasonRequired);
        }
        if description.as_ref().is_some_and(|d| d.chars().count() > DESCRIPTION_MAX) {
            return Err(ModerationError::DescriptionTooLong);
        }
        Ok(ReportInput { reason, description })
    }
}

/// Where a report stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Pending,
    /// Resolved by deleting the post.
    Deleted,
    Ignored,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Deleted => "deleted",
            Status::Ignored => "ignored",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        [Status::Pending, Status::Deleted, Status::Ignored].into_iter().find(|k| k.as_str() == s)
    }
}

/// What an admin decides about a report (spec §7 `POST /admin/reports/{id}/resolve`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    DeletePost,
    Ignore,
}

impl Action {
    pub fn parse(s: &str) -> Result<Action, ModerationError> {
        match s.trim() {
            "delete_post" => Ok(Action::DeletePost),
            "ignore" => Ok(Action::Ignore),
            _ => Err(ModerationError::UnknownAction),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Action::DeletePost => "delete_post",
            Action::Ignore => "ignore",
        }
    }
}

/// A signed-in person known to hold the admin role. Only [`Admin::check`] makes one, so a use
/// case that takes an `Admin` cannot run for anyone else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admin {
    id: UserId,
    login: String,
}

impl Admin {
    /// The admin rule (spec §6): `is_admin` is the flag as read from the user's row for this
    /// request, so a revoked role takes effect at once.
    pub fn check(id: UserId, login: &str, is_admin: bool) -> Result<Admin, ModerationError> {
        if is_admin { Ok(Admin { id, login: login.to_owned() }) } else { Err(ModerationError::AdminOnly) }
    }

    pub fn id(&self) -> UserId {
        self.id
    }

    pub fn login(&self) -> &str {
        &self.login
    }
}

/// What filing a report did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filed {
    New(ReportId),
    /// The reporter already had an open report on this post; nothing was added.
    AlreadyOpen(ReportId),
}

/// What a decision resolved, for the use case that carries it out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub action: Action,
    pub post: PostId,
    /// Every report this decision closed (delete_post closes every open one on the post).
    pub resolved: Vec<ReportId>,
}

#[derive(Debug, Clone, Insertable, Queryable, Selectable)]
#[diesel(table_name = reports)]
pub(crate) struct ReportRow {
    pub id: ReportId,
    pub post_id: PostId,
    pub post_kind: String,
    pub post_author_id: Option<UserId>,
    pub reporter_id: Option<UserId>,
    pub reason: String,
    pub description: Option<String>,
    pub status: String,
    pub created_at: NaiveDateTime,
    pub resolved_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, Insertable, Queryable, Selectable)]
#[diesel(table_name = admin_actions)]
pub(crate) struct ActionRow {
    pub id: i64,
    pub admin_id: Option<UserId>,
    pub admin_login: String,
    pub action: String,
    pub report_id: Option<ReportId>,
    pub post_id: Option<PostId>,
    pub subject_id: Option<UserId>,
    pub created_at: NaiveDateTime,
}

/// One line of the audit log, as a complaint's details show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    pub action: String,
    pub admin_id: Option<UserId>,
    pub admin_login: String,
    pub post: Option<PostId>,
    pub at: NaiveDateTime,
}

/// Which complaints the panel asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ComplaintFilter {
    /// Pending ones first, then the most recently resolved.
    #[default]
    All,
    Pending,
    Resolved,
}

/// A report as the admin panel shows it (spec §3 Complaint, with what the panel adds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Complaint {
    pub id: ReportId,
    pub post: PostId,
    /// media, audio, musicxml or lyrics, as the post was.
    pub post_kind: String,
    /// The post's author, unless their account is gone.
    pub post_author: Option<UserCard>,
    /// Whether the post is still there.
    pub post_exists: bool,
    /// The reporter, unless their account is gone (shown as 'Unknown').
    pub reporter_id: Option<UserId>,
    pub reporter: Option<UserCard>,
    pub reason: String,
    pub description: Option<String>,
    pub status: Status,
    pub created_at: NaiveDateTime,
    pub resolved_at: Option<NaiveDateTime>,
    /// What admins did about it, oldest first.
    pub audit: Vec<AuditEntry>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_is_one_of_the_four() {
        assert_eq!(Reason::parse("Hate speech"), Some(Reason::HateSpeech));
        assert_eq!(Reason::parse(" spam "), Some(Reason::Spam));
        assert_eq!(Reason::parse("Rude"), None);
        assert_eq!(Reason::parse(""), None);
    }

    #[test]
    fn other_needs_words_and_the_rest_do_not() {
        assert!(matches!(ReportInput::parse(Some("Other"), Some("   ")), Err(ModerationError::ReasonRequired)));
        assert!(matches!(ReportInput::parse(Some("Other"), None), Err(ModerationError::ReasonRequired)));
        assert!(matches!(ReportInput::parse(None, Some("spam!")), Err(ModerationError::ReasonRequired)));
        assert!(matches!(ReportInput::parse(Some("Nope"), None), Err(ModerationError::ReasonRequired)));
        assert_eq!(
            ReportInput::parse(Some("Other"), Some("  stolen song ")).ok(),
            Some(ReportInput { reason: Reason::Other, description: Some("stolen song".into()) })
        );
        assert_eq!(
            ReportInput::parse(Some("Spam"), None).ok(),
            Some(ReportInput { reason: Reason::Spam, description: None })
        );
        let long = "x".repeat(DESCRIPTION_MAX + 1);
        assert!(matches!(ReportInput::parse(Some("Other"), Some(&long)), Err(ModerationError::DescriptionTooLong)));
    }

    #[test]
    fn only_an_admin_is_an_admin() {
        let id = UserId::generate();
        assert!(matches!(Admin::check(id, "ana", false), Err(ModerationError::AdminOnly)));
        assert_eq!(Admin::check(id, "ana", true).map(|a| a.id()).ok(), Some(id));
    }

    #[test]
    fn actions_are_the_spec_words() {
        assert_eq!(Action::parse("delete_post").ok(), Some(Action::DeletePost));
        assert_eq!(Action::parse("ignore").ok(), Some(Action::Ignore));
        assert!(matches!(Action::parse("ban"), Err(ModerationError::UnknownAction)));
    }
}
