//! Suspending an account: an admin's decision that keeps a person out until it is lifted.
//!
//! A suspension is one row of `suspensions` (one an account). While it stands the account has no
//! session and cannot start one (auth refuses with "This account is suspended"), and what it
//! wrote is hidden from everyone: every list filters with `social_graph::fragments::
//! not_suspended`, in the statement it runs anyway. Lifting deletes the row, so everything shows
//! again; nothing is deleted. Both are written in the audit log with the admin and the reason.
//! Ending the sessions (auth's part) and telling live streams go with it in one transaction,
//! put together by `app`.
//!
//! Admins cannot be suspended (revoke the role first, from the command line): an admin who
//! could suspend the others could lock every moderator out.

use chrono::NaiveDateTime;
use db::diesel::dsl::exists;
use db::diesel::prelude::*;
use db::model::UserCard;
use db::schema::{admin_actions, reports, suspensions, users};
use db::{DbConnection, DbError, Keyset, PageRule};
use values::{DomainError, ErrorKind, ReportId, UserId};

use crate::model::{Admin, AuditAction};

/// The suspended accounts list: 50 a page by default, at most 200.
pub const SUSPENSIONS_PAGE: PageRule = PageRule::new(50, 200);

/// The most characters a suspension's reason may have.
pub const SUSPENSION_REASON_MAX: usize = 500;

/// What can go wrong suspending an account or lifting a suspension.
#[derive(Debug, thiserror::Error)]
pub enum SuspensionError {
    #[error("User not found")]
    UserNotFound,
    #[error("Report not found")]
    ReportNotFound,
    /// A complaint named with the suspension must be about something the account wrote.
    #[error("This complaint is not about this account's post or comment")]
    NotTheReported,
    #[error("Please give a reason for the suspension.")]
    ReasonRequired,
    #[error("The reason is too long (at most 500 characters)")]
    ReasonTooLong,
    #[error("Text cannot contain a NUL character")]
    NulCharacter,
    #[error("Text cannot contain control or text-direction characters")]
    HiddenCharacters,
    #[error("You cannot suspend your own account")]
    OwnAccount,
    #[error("An admin's account cannot be suspended. Revoke the admin role first.")]
    AdminAccount,
    #[error("This account is already suspended")]
    AlreadySuspended,
    #[error("This account is not suspended")]
    NotSuspended,
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<diesel::result::Error> for SuspensionError {
    fn from(e: diesel::result::Error) -> Self {
        SuspensionError::Db(e.into())
    }
}

impl DomainError for SuspensionError {
    fn kind(&self) -> ErrorKind {
        match self {
            SuspensionError::UserNotFound | SuspensionError::ReportNotFound => ErrorKind::NotFound,
            SuspensionError::ReasonRequired
            | SuspensionError::ReasonTooLong
            | SuspensionError::NulCharacter
            | SuspensionError::HiddenCharacters
            | SuspensionError::NotTheReported => ErrorKind::Invalid,
            // The target's state forbids it: an admin (oneself included), or already so.
            SuspensionError::OwnAccount
            | SuspensionError::AdminAccount
            | SuspensionError::AlreadySuspended
            | SuspensionError::NotSuspended => ErrorKind::Conflict,
            SuspensionError::Db(e) => e.kind(),
        }
    }
}

/// Why an account is suspended, as an admin wrote it: trimmed, 1 to 500 characters, no NUL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuspensionReason(String);

impl SuspensionReason {
    pub fn parse(raw: &str) -> Result<SuspensionReason, SuspensionError> {
        let reason = raw.trim();
        if reason.contains('\0') {
            return Err(SuspensionError::NulCharacter);
        }
        if values::hidden_character(reason).is_some() {
            return Err(SuspensionError::HiddenCharacters);
        }
        if reason.is_empty() {
            return Err(SuspensionError::ReasonRequired);
        }
        if reason.chars().count() > SUSPENSION_REASON_MAX {
            return Err(SuspensionError::ReasonTooLong);
        }
        Ok(SuspensionReason(reason.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A standing suspension, as the admin panel shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suspension {
    /// Time-ordered: the suspended accounts list pages on it.
    pub id: i64,
    pub user: UserCard,
    pub reason: String,
    /// The admin who suspended the account (none once their account is gone).
    pub admin_id: Option<UserId>,
    pub admin_login: String,
    pub at: NaiveDateTime,
}

type Row = (i64, String, Option<UserId>, String, NaiveDateTime, UserCard);

fn suspension((id, reason, admin_id, admin_login, at, user): Row) -> Suspension {
    Suspension { id, user, reason, admin_id, admin_login, at }
}

fn audit(
    conn: &mut DbConnection,
    admin: &Admin,
    action: AuditAction,
    subject: UserId,
    report: Option<ReportId>,
    detail: Option<&str>,
) -> QueryResult<()> {
    diesel::insert_into(admin_actions::table)
        .values((
            admin_actions::id.eq(values::new_raw_id()),
            admin_actions::admin_id.eq(Some(admin.id())),
            admin_actions::admin_login.eq(admin.login()),
            admin_actions::action.eq(action),
            admin_actions::report_id.eq(report),
            admin_actions::subject_id.eq(Some(subject)),
            admin_actions::created_at.eq(db::time::now()),
            admin_actions::detail.eq(detail),
        ))
        .execute(conn)
        .map(|_| ())
}

/// `admin` suspends `user` for `reason`, inside the caller's transaction (which also ends the
/// account's sessions). `report`, when given, is the complaint it answers: the audit entry is
/// then listed with that complaint, whose post or comment must be the account's.
pub fn suspend(
    conn: &mut DbConnection,
    admin: &Admin,
    user: UserId,
    reason: &SuspensionReason,
    report: Option<ReportId>,
) -> Result<(), SuspensionError> {
    let is_admin: bool = users::table
        .filter(users::id.eq(user))
        .select(users::is_admin)
        .first(conn)
        .optional()?
        .ok_or(SuspensionError::UserNotFound)?;
    if user == admin.id() {
        return Err(SuspensionError::OwnAccount);
    }
    if is_admin {
        return Err(SuspensionError::AdminAccount);
    }
    if let Some(report) = report {
        let author: Option<UserId> = reports::table
            .filter(reports::id.eq(report))
            .select(reports::post_author_id)
            .first(conn)
            .optional()?
            .ok_or(SuspensionError::ReportNotFound)?;
        let comment_author: Option<UserId> =
            reports::table.filter(reports::id.eq(report)).select(reports::comment_author_id).first(conn)?;
        // A complaint about a comment names its author; one about a post, the post's.
        if comment_author.or(author) != Some(user) {
            return Err(SuspensionError::NotTheReported);
        }
    }
    if is_suspended(conn, user)? {
        return Err(SuspensionError::AlreadySuspended);
    }
    let added = diesel::insert_into(suspensions::table)
        .values((
            suspensions::id.eq(values::new_raw_id()),
            suspensions::user_id.eq(user),
            suspensions::admin_id.eq(Some(admin.id())),
            suspensions::admin_login.eq(admin.login()),
            suspensions::reason.eq(reason.as_str()),
            suspensions::created_at.eq(db::time::now()),
        ))
        .execute(conn);
    match added {
        // Two admins at the same moment: the unique index lets one through.
        Err(diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, _)) => {
            return Err(SuspensionError::AlreadySuspended);
        }
        other => other?,
    };
    audit(conn, admin, AuditAction::Suspend, user, report, Some(reason.as_str()))?;
    // What they wrote goes from every list, comments and mentions included.
    db::changed(conn, &[db::Topic::Everything])?;
    Ok(())
}

/// `admin` lifts `user`'s suspension, inside the caller's transaction: what they wrote shows
/// again, and they may sign in.
pub fn lift(conn: &mut DbConnection, admin: &Admin, user: UserId) -> Result<(), SuspensionError> {
    let exists_user: bool = diesel::select(exists(users::table.filter(users::id.eq(user)))).get_result(conn)?;
    if !exists_user {
        return Err(SuspensionError::UserNotFound);
    }
    let lifted = diesel::delete(suspensions::table.filter(suspensions::user_id.eq(user))).execute(conn)?;
    if lifted == 0 {
        return Err(SuspensionError::NotSuspended);
    }
    audit(conn, admin, AuditAction::LiftSuspension, user, None, None)?;
    db::changed(conn, &[db::Topic::Everything])?;
    Ok(())
}

/// Whether `user` is suspended now.
pub fn is_suspended(conn: &mut DbConnection, user: UserId) -> QueryResult<bool> {
    diesel::select(exists(suspensions::table.filter(suspensions::user_id.eq(user)))).get_result(conn)
}

/// `user`'s suspension, if one stands (unknown people have none: the caller tells them apart).
pub fn suspension_of(conn: &mut DbConnection, user: UserId) -> Result<Option<Suspension>, SuspensionError> {
    let exists_user: bool = diesel::select(exists(users::table.filter(users::id.eq(user)))).get_result(conn)?;
    if !exists_user {
        return Err(SuspensionError::UserNotFound);
    }
    let row: Option<Row> = suspensions::table
        .inner_join(users::table)
        .filter(suspensions::user_id.eq(user))
        .select((
            suspensions::id,
            suspensions::reason,
            suspensions::admin_id,
            suspensions::admin_login,
            suspensions::created_at,
            UserCard::as_select(),
        ))
        .first(conn)
        .optional()?;
    Ok(row.map(suspension))
}

/// The suspended accounts, the latest suspended first, a keyset page at a time (one statement:
/// the suspensions' primary key newest first, each person by theirs).
pub fn suspensions(conn: &mut DbConnection, page: Keyset<i64>) -> Result<Vec<Suspension>, SuspensionError> {
    let q = suspensions::table
        .inner_join(users::table)
        .select((
            suspensions::id,
            suspensions::reason,
            suspensions::admin_id,
            suspensions::admin_login,
            suspensions::created_at,
            UserCard::as_select(),
        ))
        .into_boxed();
    let rows: Vec<Row> = page.apply(q, suspensions::id).load(conn)?;
    Ok(rows.into_iter().map(suspension).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_has_words_a_bound_and_no_nul() {
        assert!(matches!(SuspensionReason::parse("   "), Err(SuspensionError::ReasonRequired)));
        assert!(matches!(SuspensionReason::parse("spam\0"), Err(SuspensionError::NulCharacter)));
        let long = "x".repeat(SUSPENSION_REASON_MAX + 1);
        assert!(matches!(SuspensionReason::parse(&long), Err(SuspensionError::ReasonTooLong)));
        let most = "é".repeat(SUSPENSION_REASON_MAX);
        assert_eq!(SuspensionReason::parse(&most).map(|r| r.as_str().chars().count()).ok(), Some(500));
        assert_eq!(SuspensionReason::parse(" spam wave ").ok().map(|r| r.0), Some("spam wave".to_owned()));
    }

    #[test]
    fn refusals_are_conflicts_or_bad_input() {
        assert_eq!(SuspensionError::AdminAccount.kind(), ErrorKind::Conflict);
        assert_eq!(SuspensionError::OwnAccount.kind(), ErrorKind::Conflict);
        assert_eq!(SuspensionError::ReasonRequired.kind(), ErrorKind::Invalid);
        assert_eq!(SuspensionError::UserNotFound.kind(), ErrorKind::NotFound);
    }
}
