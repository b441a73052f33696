//! Reports, complaints, decisions and the admin who makes them.

use chrono::NaiveDateTime;
use db::model::UserCard;
use db::schema::{admin_actions, reports};
use diesel::prelude::*;
use values::{CommentId, PostId, PostKind, ReportId, UserId};

use crate::ModerationError;

values::text_enum! {
    /// Why a post is reported (spec §5 Report), in the spec's words, as stored and sent.
    pub enum Reason {
        Spam = "Spam",
        Harassment = "Harassment",
        HateSpeech = "Hate speech",
        Other = "Other",
    }
}

impl Reason {
    /// A reason as a client may spell it: any case, surrounding spaces ignored.
    pub fn from_client(s: &str) -> Option<Reason> {
        let s = s.trim();
        Reason::ALL.iter().copied().find(|r| r.as_str().eq_ignore_ascii_case(s))
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
        let reason = reason.and_then(Reason::from_client).ok_or(ModerationError::ReasonRequired)?;
        let description = description.map(str::trim).filter(|d| !d.is_empty()).map(str::to_owned);
        if description.as_ref().is_some_and(|d| d.contains('\0')) {
            return Err(ModerationError::NulCharacter);
        }
        if description.as_deref().and_then(values::hidden_character).is_some() {
            return Err(ModerationError::HiddenCharacters);
        }
        if reason == Reason::Other && description.is_none() {
            return Err(ModerationError::ReasonRequired);
        }
        if description.as_ref().is_some_and(|d| d.chars().count() > DESCRIPTION_MAX) {
            return Err(ModerationError::DescriptionTooLong);
        }
        Ok(ReportInput { reason, description })
    }
}

values::text_enum! {
    /// Where a report stands.
    pub enum Status {
        Pending = "pending",
        /// Resolved by deleting the post.
        Deleted = "deleted",
        Ignored = "ignored",
    }
}

/// What a report is about: a post, or a comment (on a post).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    Post(PostId),
    Comment(CommentId),
}

values::text_enum! {
    /// What an admin decides about a report (spec §7 `POST /admin/reports/{id}/resolve`, and
    /// delete_comment for a report of a comment).
    pub enum Action {
        DeletePost = "delete_post",
        DeleteComment = "delete_comment",
        Ignore = "ignore",
    }
}

/// How far a decision reaches. Deleting always closes every open report on what it deletes;
/// ignoring closes the one report, or (for the panel's grouped rows) every open report on the
/// same item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    #[default]
    Report,
    Item,
}

impl Action {
    /// The action a client sent, surrounding spaces ignored.
    pub fn from_client(s: &str) -> Result<Action, ModerationError> {
        Action::parse(s.trim()).ok_or(ModerationError::UnknownAction)
    }
}

values::text_enum! {
    /// What the audit log records an admin doing.
    pub enum AuditAction {
        DeletePost = "delete_post",
        DeleteComment = "delete_comment",
        Ignore = "ignore",
        GrantAdmin = "grant_admin",
        RevokeAdmin = "revoke_admin",
        /// An account suspended (its reason in the entry's detail).
        Suspend = "suspend",
        LiftSuspension = "lift_suspension",
    }
}

impl From<Action> for AuditAction {
    fn from(a: Action) -> AuditAction {
        match a {
            Action::DeletePost => AuditAction::DeletePost,
            Action::DeleteComment => AuditAction::DeleteComment,
            Action::Ignore => AuditAction::Ignore,
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
    /// The comment the report was about, if it was.
    pub comment: Option<CommentId>,
    /// Every report this decision closed (delete_post closes every open one on the post).
    pub resolved: Vec<ReportId>,
}

#[derive(Debug, Clone, Insertable, Queryable, Selectable)]
#[diesel(table_name = reports)]
pub(crate) struct ReportRow {
    pub id: ReportId,
    pub post_id: PostId,
    pub post_kind: PostKind,
    pub post_author_id: Option<UserId>,
    pub reporter_id: Option<UserId>,
    pub reason: Reason,
    pub description: Option<String>,
    pub status: Status,
    pub created_at: NaiveDateTime,
    pub resolved_at: Option<NaiveDateTime>,
    /// Set when the report is about a comment (on `post_id`).
    pub comment_id: Option<CommentId>,
    pub comment_author_id: Option<UserId>,
}

#[derive(Debug, Clone, Insertable, Queryable, Selectable)]
#[diesel(table_name = admin_actions)]
pub(crate) struct ActionRow {
    pub id: i64,
    pub admin_id: Option<UserId>,
    pub admin_login: String,
    pub action: AuditAction,
    pub report_id: Option<ReportId>,
    pub post_id: Option<PostId>,
    pub subject_id: Option<UserId>,
    pub created_at: NaiveDateTime,
    pub comment_id: Option<CommentId>,
}

/// One line of the audit log, as a complaint's details show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    pub action: AuditAction,
    pub admin_id: Option<UserId>,
    pub admin_login: String,
    pub post: Option<PostId>,
    pub comment: Option<CommentId>,
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
    /// As the post was.
    pub post_kind: PostKind,
    /// The post's author, unless their account is gone.
    pub post_author: Option<UserCard>,
    /// Whether the post is still there.
    pub post_exists: bool,
    /// The reporter, unless their account is gone (shown as 'Unknown').
    pub reporter_id: Option<UserId>,
    pub reporter: Option<UserCard>,
    pub reason: Reason,
    pub description: Option<String>,
    pub status: Status,
    pub created_at: NaiveDateTime,
    pub resolved_at: Option<NaiveDateTime>,
    /// What admins did about it, oldest first.
    pub audit: Vec<AuditEntry>,
    /// The comment, when the report is about one (on `post`).
    pub comment: Option<ReportedComment>,
}

/// A reported comment as the admin panel shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportedComment {
    pub id: CommentId,
    /// Its author, unless their account is gone.
    pub author: Option<UserCard>,
    /// Its text while it is there; none once deleted (nothing keeps a copy).
    pub content: Option<String>,
}

/// Pending complaints about one item (a post, or a comment), as the panel's grouped list shows
/// them: however many people report one thing, it is one row, with how many and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComplaintGroup {
    pub post: PostId,
    pub comment: Option<CommentId>,
    /// How many pending complaints (one a reporter).
    pub count: i64,
    /// Each reason with its count, the most frequent first.
    pub reasons: Vec<(Reason, i64)>,
    /// The newest complaints, newest first, at most [`GROUP_SHOWN`]; never empty.
    pub complaints: Vec<Complaint>,
    /// Where the next page starts, after this group.
    pub cursor: GroupCursor,
}

/// A group shows at most this many of its complaints (their count says how many there are).
pub const GROUP_SHOWN: i64 = 20;

/// A place in the grouped list, which runs from the most reported item down, newest first
/// among equals: `{count}.{newest report id}` on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupCursor {
    pub count: i64,
    pub latest: ReportId,
}

impl GroupCursor {
    pub fn parse(s: &str) -> Result<GroupCursor, ModerationError> {
        let (count, latest) = s.trim().split_once('.').ok_or(ModerationError::BadCursor)?;
        let count: i64 = count.parse().ok().filter(|n| *n > 0).ok_or(ModerationError::BadCursor)?;
        let latest: ReportId = latest.parse().map_err(|_| ModerationError::BadCursor)?;
        Ok(GroupCursor { count, latest })
    }
}

impl std::fmt::Display for GroupCursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.count, self.latest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_is_one_of_the_four() {
        assert_eq!(Reason::from_client("Hate speech"), Some(Reason::HateSpeech));
        assert_eq!(Reason::from_client(" spam "), Some(Reason::Spam));
        assert_eq!(Reason::from_client("Rude"), None);
        assert_eq!(Reason::from_client(""), None);
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
        assert!(matches!(ReportInput::parse(Some("Other"), Some("a\0b")), Err(ModerationError::NulCharacter)));
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
    fn a_group_cursor_is_a_count_and_a_report() {
        let c = GroupCursor { count: 3, latest: ReportId::generate() };
        assert_eq!(GroupCursor::parse(&c.to_string()).ok(), Some(c));
        for bad in ["", "3", "0.5", "-1.5", "x.5", "3.x"] {
            assert!(matches!(GroupCursor::parse(bad), Err(ModerationError::BadCursor)), "{bad}");
        }
    }

    #[test]
    fn actions_are_the_spec_words() {
        assert_eq!(Action::from_client("delete_post").ok(), Some(Action::DeletePost));
        assert_eq!(Action::from_client("ignore").ok(), Some(Action::Ignore));
        assert_eq!(Action::from_client(" delete_comment ").ok(), Some(Action::DeleteComment));
        assert!(matches!(Action::from_client("ban"), Err(ModerationError::UnknownAction)));
    }
}
