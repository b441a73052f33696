//! The use cases of moderation alone, one transaction each. Resolving a complaint by deleting
//! the post spans posts too: `app` puts that together.

use db::{Db, PageRule, write_tx};
use values::{Email, PostId, UserId};

use crate::analytics::{self, Analytics, Day};
use crate::model::{Admin, Complaint, ComplaintFilter, Filed, ReportInput};
use crate::{ModerationError, repo};

/// The complaints list: 100 by default, at most 200.
pub const COMPLAINTS_PAGE: PageRule = PageRule::new(100, 200);

#[derive(Clone)]
pub struct Moderation {
    db: Db,
}

impl Moderation {
    pub fn new(db: Db) -> Moderation {
        Moderation { db }
    }

    /// `reporter` reports `post` (spec §5 Report).
    pub async fn report(
        &self,
        reporter: UserId,
        post: PostId,
        reason: Option<&str>,
        description: Option<&str>,
    ) -> Result<Filed, ModerationError> {
        let input = ReportInput::parse(reason, description)?;
        self.db.run(move |conn| write_tx(conn, |conn| repo::file_report(conn, reporter, post, &input))).await
    }

    pub async fn complaints(
        &self,
        _admin: &Admin,
        filter: ComplaintFilter,
        limit: Option<i64>,
    ) -> Result<Vec<Complaint>, ModerationError> {
        let limit = COMPLAINTS_PAGE.page(limit, None).limit;
        self.db.run(move |conn| repo::complaints(conn, filter, limit)).await
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
        self.db.run(move |conn| write_tx(conn, |conn| repo::set_admin(conn, &email, admin, &by))).await
    }
}
