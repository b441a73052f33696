//! Moderation: people report posts, admins decide, and every decision is written down.
//!
//! - Reports ([`file_report`]): a reason of spec §5 (Other needs words), one open report per
//!   reporter and post (a repeat changes nothing and succeeds).
//! - The admin role is a flag on the user, granted and revoked from the command line (or
//!   `ADMIN_EMAILS` at start). Every admin use case takes an [`Admin`], which only
//!   [`Admin::check`] makes: the rule is checked once, on the server, on every call.
//! - Complaints are reports as the admin panel lists them: pending first, each with its
//!   reporter, the post as it was, and the audit log of what was done about it.
//! - A decision ([`decide`]) resolves the report (delete_post resolves every open report on the
//!   post) and writes the audit row; deleting the post itself is the posts domain's, put
//!   together with this in one transaction by `app`.
//! - Analytics: counts for the panel's cards, and per-day counts for its chart.

mod analytics;
mod error;
mod model;
mod repo;
mod service;

pub use analytics::{Analytics, DAILY_MAX_DAYS, Day, analytics, daily};
pub use error::ModerationError;
pub use model::{
    Action, Admin, AuditAction, AuditEntry, Complaint, ComplaintFilter, Decision, Filed, Reason, ReportInput, Status,
};
pub use repo::{complaints, decide, file_report, set_admin};
pub use service::{COMPLAINTS_PAGE, Moderation};
