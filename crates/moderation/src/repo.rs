//! Reads and writes of moderation. They run inside their caller's transaction.

use std::collections::{HashMap, HashSet};

use db::DbConnection;
use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Nullable, Text, Timestamp};
use db::model::UserCard;
use db::schema::{admin_actions, reports, users};
use values::{Email, PostId, ReportId, UserId};

use crate::ModerationError;
use crate::model::{
    Action, ActionRow, Admin, AuditAction, AuditEntry, Complaint, ComplaintFilter, Decision, Filed, ReportInput,
    ReportRow, Status,
};

// One open report per reporter and post: the partial unique index `reports_open_once_idx`
// turns a repeat (or two at once) into nothing. `$1`.. first appear in order, as both
// backends bind them.
const INSERT_REPORT: &str = "INSERT INTO reports \
    (id, post_id, post_kind, post_author_id, reporter_id, reason, description, status, created_at) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8) ON CONFLICT DO NOTHING";

/// `reporter` reports `post`. A post that is missing, or hidden from the reporter by a block,
/// is not found; one's own post cannot be reported; a second open report by the same person
/// on the same post adds nothing and answers the first.
pub fn file_report(
    conn: &mut DbConnection,
    reporter: UserId,
    post: PostId,
    input: &ReportInput,
) -> Result<Filed, ModerationError> {
    let seen = posts::visible_post(conn, post, Some(reporter))?.ok_or(ModerationError::PostNotFound)?;
    if seen.author == reporter {
        return Err(ModerationError::OwnPost);
    }
    let id = ReportId::generate();
    let added = diesel::sql_query(INSERT_REPORT)
        .bind::<BigInt, _>(id)
        .bind::<BigInt, _>(post)
        .bind::<Text, _>(seen.kind)
        .bind::<Nullable<BigInt>, _>(Some(seen.author))
        .bind::<Nullable<BigInt>, _>(Some(reporter))
        .bind::<Text, _>(input.reason)
        .bind::<Nullable<Text>, _>(input.description.as_deref())
        .bind::<Timestamp, _>(db::time::now())
        .execute(conn)?;
    if added == 1 {
        return Ok(Filed::New(id));
    }
    let open: ReportId = reports::table
        .filter(reports::post_id.eq(post))
        .filter(reports::reporter_id.eq(reporter))
        .filter(reports::status.eq(Status::Pending))
        .select(reports::id)
        .first(conn)?;
    Ok(Filed::AlreadyOpen(open))
}

fn audit(
    conn: &mut DbConnection,
    admin: (Option<UserId>, &str),
    action: AuditAction,
    report: Option<ReportId>,
    post: Option<PostId>,
    subject: Option<UserId>,
) -> QueryResult<()> {
    let row = ActionRow {
        id: values::new_raw_id(),
        admin_id: admin.0,
        admin_login: admin.1.to_owned(),
        action,
        report_id: report,
        post_id: post,
        subject_id: subject,
        created_at: db::time::now(),
        comment_id: None,
    };
    diesel::insert_into(admin_actions::table).values(&row).execute(conn).map(|_| ())
}

/// Records an admin's decision about a pending report: ignore resolves that report;
/// delete_post resolves every open report on the post (deleting the post is the posts
/// domain's part of the same transaction). The audit log gets a row either way.
pub fn decide(
    conn: &mut DbConnection,
    admin: &Admin,
    report: ReportId,
    action: Action,
) -> Result<Decision, ModerationError> {
    let (post, status): (PostId, Status) = reports::table
        .filter(reports::id.eq(report))
        .select((reports::post_id, reports::status))
        .first(conn)
        .optional()?
        .ok_or(ModerationError::ReportNotFound)?;
    if status != Status::Pending {
        return Err(ModerationError::AlreadyResolved);
    }
    let (resolved, status) = match action {
        Action::Ignore => (vec![report], Status::Ignored),
        Action::DeletePost => {
            let open: Vec<ReportId> = reports::table
                .filter(reports::post_id.eq(post))
                .filter(reports::status.eq(Status::Pending))
                .select(reports::id)
                .load(conn)?;
            (open, Status::Deleted)
        }
    };
    diesel::update(reports::table.filter(reports::id.eq_any(&resolved)))
        .set((reports::status.eq(status), reports::resolved_at.eq(Some(db::time::now()))))
        .execute(conn)?;
    audit(conn, (Some(admin.id()), admin.login()), action.into(), Some(report), Some(post), None)?;
    Ok(Decision { action, post, resolved })
}

/// Grants (or revokes) the admin role of the account with this e-mail address; `by` names who
/// did it in the audit log (e.g. "command line"). Answers whether anything changed. The role
/// never goes to an account whose address is not verified: whoever signed up first with an
/// address is not yet its owner.
pub fn set_admin(conn: &mut DbConnection, email: &Email, admin: bool, by: &str) -> Result<bool, ModerationError> {
    let (id, now, verified): (UserId, bool, bool) = users::table
        .filter(users::email.eq(email.as_str()))
        .select((users::id, users::is_admin, users::email_verified))
        .first(conn)
        .optional()?
        .ok_or_else(|| ModerationError::NoSuchAccount(email.as_str().to_owned()))?;
    if admin && !verified {
        return Err(ModerationError::NotVerified(email.as_str().to_owned()));
    }
    if now == admin {
        return Ok(false);
    }
    diesel::update(users::table.filter(users::id.eq(id))).set(users::is_admin.eq(admin)).execute(conn)?;
    let action = if admin { AuditAction::GrantAdmin } else { AuditAction::RevokeAdmin };
    audit(conn, (None, by), action, None, None, Some(id))?;
    Ok(true)
}

fn rows_with(conn: &mut DbConnection, statuses: &[Status], limit: i64) -> QueryResult<Vec<ReportRow>> {
    if limit <= 0 {
        return Ok(Vec::new());
    }
    reports::table
        .filter(reports::status.eq_any(statuses))
        .order(reports::id.desc())
        .limit(limit)
        .select(ReportRow::as_select())
        .load(conn)
}

/// Complaints as the admin panel lists them: pending ones newest first, then (with
/// [`ComplaintFilter::All`]) the most recently resolved, up to `limit` in all. A fixed number
/// of statements whatever the length: the reports, then everyone they name, the posts still
/// there, and their audit rows.
pub fn complaints(
    conn: &mut DbConnection,
    filter: ComplaintFilter,
    limit: i64,
) -> Result<Vec<Complaint>, ModerationError> {
    let resolved = [Status::Deleted, Status::Ignored];
    let mut rows = match filter {
        ComplaintFilter::Pending | ComplaintFilter::All => rows_with(conn, &[Status::Pending], limit)?,
        ComplaintFilter::Resolved => rows_with(conn, &resolved, limit)?,
    };
    if filter == ComplaintFilter::All {
        let left = limit - i64::try_from(rows.len()).unwrap_or(limit);
        rows.extend(rows_with(conn, &resolved, left)?);
    }
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let people: HashSet<UserId> = rows.iter().flat_map(|r| [r.reporter_id, r.post_author_id]).flatten().collect();
    let people: Vec<UserId> = people.into_iter().collect();
    let cards: HashMap<UserId, UserCard> = users::table
        .filter(users::id.eq_any(&people))
        .select(UserCard::as_select())
        .load(conn)?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    let post_ids: Vec<PostId> = rows.iter().map(|r| r.post_id).collect();
    let existing = posts::existing_posts(conn, &post_ids)?;
    let ids: Vec<ReportId> = rows.iter().map(|r| r.id).collect();
    let mut audits: HashMap<ReportId, Vec<AuditEntry>> = HashMap::new();
    let actions: Vec<ActionRow> = admin_actions::table
        .filter(admin_actions::report_id.eq_any(&ids))
        // Ids order only by the millisecond; the time itself has microseconds.
        .order((admin_actions::created_at, admin_actions::id))
        .select(ActionRow::as_select())
        .load(conn)?;
    for a in actions {
        let Some(report) = a.report_id else { continue };
        audits.entry(report).or_default().push(AuditEntry {
            action: a.action,
            admin_id: a.admin_id,
            admin_login: a.admin_login,
            post: a.post_id,
            at: a.created_at,
        });
    }
    Ok(rows
        .into_iter()
        .map(|r| Complaint {
            id: r.id,
            post: r.post_id,
            post_kind: r.post_kind,
            post_author: r.post_author_id.and_then(|a| cards.get(&a).cloned()),
            post_exists: existing.contains(&r.post_id),
            reporter_id: r.reporter_id,
            reporter: r.reporter_id.and_then(|a| cards.get(&a).cloned()),
            reason: r.reason,
            description: r.description,
            status: r.status,
            created_at: r.created_at,
            resolved_at: r.resolved_at,
            audit: audits.remove(&r.id).unwrap_or_default(),
        })
        .collect())
}
