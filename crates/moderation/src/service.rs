//! The use cases of moderation alone, one transaction each. Resolving a complaint by deleting
//! the post spans posts too: `app` puts that together.

use db::{Db, PageRule};
use values::{Email, ReportId, UserId};

use crate::analytics::{self, Analytics, Day};
use crate::model::{Admin, Complaint, ComplaintFilter, ComplaintGroup, Filed, GroupCursor, ReportInput, Target};
use crate::{ModerationError, repo};

/// The complaints list: 100 by default, at most 200 (the spec's client asks without a limit
/// and treats the answer as the whole to-do list).
pub const COMPLAINTS_PAGE: PageRule = PageRule::new(100, 200);
/// The grouped complaints list pages as feeds do: 10 groups by default, at most 50.
pub const COMPLAINT_GROUPS_PAGE: PageRule = PageRule::new(10, 50);

#[derive(Clone)]
pub struct Moderation {
    db: Db,
}

impl Moderation {
    pub fn new(db: Db) -> Moderation {
        Moderation { db }
    }

    /// `reporter` reports a post (spec §5 Report) or a comment, with the same rules.
    pub async fn report(
        &self,
        reporter: UserId,
        target: Target,
        reason: Option<&str>,
        description: Option<&str>,
    ) -> Result<Filed, ModerationError> {
        let input = ReportInput::parse(reason, description)?;
        self.db.write(move |conn| repo::file_report(conn, reporter, target, &input)).await
    }

    /// A page of the complaints list, after the complaint `before` (see [`repo::complaints`]).
    pub async fn complaints(
        &self,
        _admin: &Admin,
        filter: ComplaintFilter,
        limit: Option<i64>,
        before: Option<ReportId>,
    ) -> Result<Vec<Complaint>, ModerationError> {
        let limit = COMPLAINTS_PAGE.page(limit, None).limit;
        self.db.run(move |conn| repo::complaints(conn, filter, limit, before)).await
    }

    /// A page of pending complaints grouped by the item they are about, after `before` (a
    /// group's cursor), 10 groups by default and at most 50, as feeds page.
    pub async fn complaint_groups(
        &self,
        _admin: &Admin,
        limit: Option<i64>,
        before: Option<&str>,
    ) -> Result<Vec<ComplaintGroup>, ModerationError> {
        let limit = COMPLAINT_GROUPS_PAGE.page(limit, None).limit;
        let before = before.map(GroupCursor::parse).transpose()?;
        self.db.run(move |conn| repo::complaint_groups(conn, limit, before)).await
    }

    pub async fn analytics(&self, _admin: &Admin) -> Result<Analytics, ModerationError> {
        self.db.run(|conn| Ok(analytics::analytics(conn, chrono::Utc::now())?)).await
    }

    pub async fn daily(&self, _admin: &Admin, days: u32) -> Result<Vec<Day>, ModerationError> {
        self.db.run(move |conn| Ok(analytics::daily(conn, days, chrono::Utc::now())?)).await
    }

    /// Grants or revokes the admin role of the account with this address (the command line,
    /// `ADMIN_EMAILS`); `by` is who the audit log names. Answers whether anything changed.
    pub async fn set_admin(&self, email: &str, admin: bool, by: &str) -> Result<bool, ModerationError> {
        let email = Email::parse(email).map_err(|_| ModerationError::NoSuchAccount(email.trim().to_owned()))?;
        let by = by.to_owned();
        self.db.write(move |conn| repo::set_admin(conn, &email, admin, &by)).await
    }
}
