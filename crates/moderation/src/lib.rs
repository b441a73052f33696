//! Moderation: people report posts and comments, admins decide, and every decision is written
//! down.
//!
//! - Reports ([`file_report`]): a reason of spec §5 (Other needs words), one open report per
//!   reporter and item, a post or a comment (a repeat changes nothing and succeeds).
//! - The admin role is a flag on the user, granted and revoked from the command line (or
//!   `ADMIN_EMAILS` at start). Every admin use case takes an [`Admin`], which only
//!   [`Admin::check`] makes: the rule is checked once, on the server, on every call.
//! - Complaints are reports as the admin panel lists them: pending first, each with its
//!   reporter, the post as it was, and the audit log of what was done about it.
//! - A decision ([`decide`]) resolves the report (delete_post resolves every open report on the
//!   post and its comments, delete_comment every one on the comment) and writes the audit row;
//!   deleting the post or comment itself is the posts domain's, put together with this in one
//!   transaction by `app`. An admin deleting someone's comment from its menu is audited too
//!   ([`comment_removed`]).
//! - The panel's to-do list groups pending complaints by item ([`complaint_groups`]), the most
//!   reported first, so a flood about one thing is one row and cannot bury the rest.
//! - Analytics: counts for the panel's cards, and per-day counts for its chart.
//! - Suspensions ([`suspend`], [`lift`]): an admin keeps an account out, and what it wrote out
//!   of sight, until lifted; see the `suspension` module.

mod analytics;
mod error;
mod model;
mod repo;
mod service;
mod suspension;

pub use analytics::{Analytics, DAILY_MAX_DAYS, Day, analytics, daily};
pub use error::ModerationError;
pub use model::{
    Action, Admin, AuditAction, AuditEntry, Complaint, ComplaintFilter, ComplaintGroup, DESCRIPTION_MAX, Decision,
    Filed, GROUP_SHOWN, GroupCursor, Reason, ReportInput, ReportedComment, Scope, Status, Target,
};
pub use repo::{comment_removed, complaint_groups, complaints, decide, file_report, set_admin};
pub use service::{COMPLAINT_GROUPS_PAGE, COMPLAINTS_PAGE, Moderation};
pub use suspension::{
    SUSPENSION_REASON_MAX, SUSPENSIONS_PAGE, Suspension, SuspensionError, SuspensionReason, is_suspended, lift,
    suspend, suspension_of, suspensions,
};
