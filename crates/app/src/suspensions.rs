//! Suspending an account and lifting it: moderation's decision and auth's sessions in one
//! transaction; the live streams of the account's sessions end once it commits.

use db::Keyset;
use moderation::{Admin, SUSPENSIONS_PAGE, Suspension, SuspensionReason};
use values::{ReportId, UserId};

use crate::{App, AppError};

impl App {
    /// `admin` suspends `user` for `reason` (answering the complaint `report`, when given): the
    /// suspension and its audit entry, and the end of every session of the account, in one
    /// transaction; once it has committed, the account's live streams end in every process
    /// (auth names its sessions ended). What the account wrote is hidden from then on by the
    /// lists' own filters.
    pub async fn suspend(
        &self,
        admin: &Admin,
        user: UserId,
        reason: &str,
        report: Option<ReportId>,
    ) -> Result<(), AppError> {
        let reason = SuspensionReason::parse(reason)?;
        let admin = admin.clone();
        self.db
            .write(move |conn| {
                moderation::suspend(conn, &admin, user, &reason, report)?;
                auth::end_sessions(conn, user)?;
                Ok::<_, AppError>(())
            })
            .await
    }

    /// `admin` lifts `user`'s suspension: they may sign in again, and what they wrote shows
    /// again. The audit log gets a row, in the same transaction.
    pub async fn lift_suspension(&self, admin: &Admin, user: UserId) -> Result<(), AppError> {
        let admin = admin.clone();
        self.db.write(move |conn| Ok::<_, AppError>(moderation::lift(conn, &admin, user)?)).await
    }

    /// The suspended accounts, the latest first, `limit` older than the suspension `before`.
    pub async fn suspensions(
        &self,
        _admin: &Admin,
        before: Option<i64>,
        limit: Option<i64>,
    ) -> Result<Vec<Suspension>, AppError> {
        let page: Keyset<i64> = SUSPENSIONS_PAGE.keyset(before, limit);
        self.db.run(move |conn| Ok::<_, AppError>(moderation::suspensions(conn, page)?)).await
    }

    /// `user`'s suspension, if one stands.
    pub async fn suspension_of(&self, _admin: &Admin, user: UserId) -> Result<Option<Suspension>, AppError> {
        self.db.run(move |conn| Ok::<_, AppError>(moderation::suspension_of(conn, user)?)).await
    }
}
