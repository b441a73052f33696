//! Reads and writes of moderation. They run inside their caller's transaction.

use std::collections::{HashMap, HashSet};

use db::DbConnection;
use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Nullable, Text, Timestamp};
use db::model::UserCard;
use db::schema::{admin_actions, reports, users};
use values::{CommentId, Email, PostId, ReportId, UserId};

use crate::ModerationError;
use crate::model::{
    Action, ActionRow, Admin, AuditAction, AuditEntry, Complaint, ComplaintFilter, ComplaintGroup, Decision, Filed,
    GROUP_SHOWN, GroupCursor, Reason, ReportInput, ReportRow, ReportedComment, Scope, Status, Target,
};

// One open report per reporter and item: the partial unique indexes `reports_open_once_idx`
// (posts) and `reports_comment_open_once_idx` (comments) turn a repeat (or two at once) into
// nothing. `$1`.. first appear in order, as both backends bind them.
const INSERT_REPORT: &str = "INSERT INTO reports \
    (id, post_id, post_kind, post_author_id, reporter_id, reason, description, status, created_at, \
    comment_id, comment_author_id) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9, $10) ON CONFLICT DO NOTHING";

/// `reporter` reports a post or a comment. What is missing, or hidden from the reporter by a
/// block, is not found; one's own post or comment cannot be reported; a second open report by
/// the same person on the same item adds nothing and answers the first.
pub fn file_report(
    conn: &mut DbConnection,
    reporter: UserId,
    target: Target,
    input: &ReportInput,
) -> Result<Filed, ModerationError> {
    let (post, comment) = match target {
        Target::Post(id) => {
            let seen = posts::visible_post(conn, id, Some(reporter))?.ok_or(ModerationError::PostNotFound)?;
            if seen.author == reporter {
                return Err(ModerationError::OwnPost);
            }
            (seen, None)
        }
        Target::Comment(id) => {
            let seen = posts::visible_comment(conn, id, reporter)?.ok_or(ModerationError::CommentNotFound)?;
            if seen.author == reporter {
                return Err(ModerationError::OwnComment);
            }
            (seen.post, Some(seen))
        }
    };
    let id = ReportId::generate();
    let added = diesel::sql_query(INSERT_REPORT)
        .bind::<BigInt, _>(id)
        .bind::<BigInt, _>(post.id)
        .bind::<Text, _>(post.kind)
        .bind::<Nullable<BigInt>, _>(Some(post.author))
        .bind::<Nullable<BigInt>, _>(Some(reporter))
        .bind::<Text, _>(input.reason)
        .bind::<Nullable<Text>, _>(input.description.as_deref())
        .bind::<Timestamp, _>(db::time::now())
        .bind::<Nullable<BigInt>, _>(comment.map(|c| c.id))
        .bind::<Nullable<BigInt>, _>(comment.map(|c| c.author))
        .execute(conn)?;
    if added == 1 {
        return Ok(Filed::New(id));
    }
    let mine = reports::table.filter(reports::reporter_id.eq(reporter)).filter(reports::status.eq(Status::Pending));
    let open: ReportId = match comment {
        Some(c) => mine.filter(reports::comment_id.eq(c.id)).select(reports::id).first(conn)?,
        None => mine
            .filter(reports::post_id.eq(post.id))
            .filter(reports::comment_id.is_null())
            .select(reports::id)
            .first(conn)?,
    };
    Ok(Filed::AlreadyOpen(open))
}

/// One row of the audit log: who did what, about which report, post, comment and person.
struct Audited {
    action: AuditAction,
    report: Option<ReportId>,
    post: Option<PostId>,
    comment: Option<CommentId>,
    subject: Option<UserId>,
}

fn audit(conn: &mut DbConnection, admin: (Option<UserId>, &str), what: Audited) -> QueryResult<()> {
    let row = ActionRow {
        id: values::new_raw_id(),
        admin_id: admin.0,
        admin_login: admin.1.to_owned(),
        action: what.action,
        report_id: what.report,
        post_id: what.post,
        subject_id: what.subject,
        created_at: db::time::now(),
        comment_id: what.comment,
    };
    diesel::insert_into(admin_actions::table).values(&row).execute(conn).map(|_| ())
}

/// The open reports on one item: a post's own (not its comments'), or a comment's.
fn open_on_item(conn: &mut DbConnection, post: PostId, comment: Option<CommentId>) -> QueryResult<Vec<ReportId>> {
    let open = reports::table.filter(reports::status.eq(Status::Pending));
    match comment {
        Some(c) => open.filter(reports::comment_id.eq(c)).select(reports::id).load(conn),
        None => {
            open.filter(reports::post_id.eq(post)).filter(reports::comment_id.is_null()).select(reports::id).load(conn)
        }
    }
}

fn resolve(conn: &mut DbConnection, ids: &[ReportId], status: Status) -> QueryResult<()> {
    if ids.is_empty() {
        return Ok(());
    }
    diesel::update(reports::table.filter(reports::id.eq_any(ids)))
        .set((reports::status.eq(status), reports::resolved_at.eq(Some(db::time::now()))))
        .execute(conn)
        .map(|_| ())
}

/// Records an admin's decision about a pending report. Ignore resolves that report, or with
/// [`Scope::Item`] every open report on the same item; delete_post resolves every open report
/// on the post, its comments' included (they go with it); delete_comment every open report on
/// the comment. Deleting is the posts domain's part of the same transaction. A post is deleted
/// only for a report of the post, a comment only for a report of the comment. The audit log
/// gets a row either way.
pub fn decide(
    conn: &mut DbConnection,
    admin: &Admin,
    report: ReportId,
    action: Action,
    scope: Scope,
) -> Result<Decision, ModerationError> {
    let (post, comment, comment_author, status): (PostId, Option<CommentId>, Option<UserId>, Status) = reports::table
        .filter(reports::id.eq(report))
        .select((reports::post_id, reports::comment_id, reports::comment_author_id, reports::status))
        .first(conn)
        .optional()?
        .ok_or(ModerationError::ReportNotFound)?;
    if status != Status::Pending {
        return Err(ModerationError::AlreadyResolved);
    }
    let (resolved, status) = match (action, comment) {
        (Action::DeletePost, Some(_)) => return Err(ModerationError::AboutComment),
        (Action::DeleteComment, None) => return Err(ModerationError::AboutPost),
        (Action::Ignore, _) if scope == Scope::Report => (vec![report], Status::Ignored),
        (Action::Ignore, _) => (open_on_item(conn, post, comment)?, Status::Ignored),
        (Action::DeletePost, None) => {
            let open: Vec<ReportId> = reports::table
                .filter(reports::post_id.eq(post))
                .filter(reports::status.eq(Status::Pending))
                .select(reports::id)
                .load(conn)?;
            (open, Status::Deleted)
        }
        (Action::DeleteComment, Some(_)) => (open_on_item(conn, post, comment)?, Status::Deleted),
    };
    resolve(conn, &resolved, status)?;
    let subject = if action == Action::DeleteComment { comment_author } else { None };
    let what = Audited { action: action.into(), report: Some(report), post: Some(post), comment, subject };
    audit(conn, (Some(admin.id()), admin.login()), what)?;
    Ok(Decision { action, post, comment, resolved })
}

/// An admin deleted someone else's comment outside a complaint (the comment's menu): the audit
/// log says so, and every open report on the comment is resolved as deleted. Answers those
/// reports. Deleting the comment is the posts domain's part of the same transaction.
pub fn comment_removed(
    conn: &mut DbConnection,
    admin: &Admin,
    comment: &posts::CommentRef,
) -> Result<Vec<ReportId>, ModerationError> {
    let open = open_on_item(conn, comment.post.id, Some(comment.id))?;
    resolve(conn, &open, Status::Deleted)?;
    let what = Audited {
        action: AuditAction::DeleteComment,
        report: open.iter().max().copied(),
        post: Some(comment.post.id),
        comment: Some(comment.id),
        subject: Some(comment.author),
    };
    audit(conn, (Some(admin.id()), admin.login()), what)?;
    Ok(open)
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
    audit(conn, (None, by), Audited { action, report: None, post: None, comment: None, subject: Some(id) })?;
    Ok(true)
}

fn rows_with(
    conn: &mut DbConnection,
    statuses: &[Status],
    limit: i64,
    before: Option<ReportId>,
) -> QueryResult<Vec<ReportRow>> {
    if limit <= 0 {
        return Ok(Vec::new());
    }
    let mut q = reports::table.filter(reports::status.eq_any(statuses)).into_boxed();
    if let Some(b) = before {
        q = q.filter(reports::id.lt(b));
    }
    q.order(reports::id.desc()).limit(limit).select(ReportRow::as_select()).load(conn)
}

/// Complaints as the admin panel lists them: pending ones newest first, then (with
/// [`ComplaintFilter::All`]) the most recently resolved, up to `limit` in all, after `before`
/// (a complaint of an earlier page: the next page goes on from it, among pending or resolved
/// complaints as it is). A fixed number of statements whatever the length: the reports, then
/// everyone they name, the posts still there, the comments' texts, and their audit rows.
pub fn complaints(
    conn: &mut DbConnection,
    filter: ComplaintFilter,
    limit: i64,
    before: Option<ReportId>,
) -> Result<Vec<Complaint>, ModerationError> {
    let resolved = [Status::Deleted, Status::Ignored];
    let rows = match filter {
        ComplaintFilter::Pending => rows_with(conn, &[Status::Pending], limit, before)?,
        ComplaintFilter::Resolved => rows_with(conn, &resolved, limit, before)?,
        ComplaintFilter::All => {
            // Past the pending ones already, the cursor is among the resolved.
            let among_resolved = match before {
                Some(b) => reports::table
                    .filter(reports::id.eq(b))
                    .select(reports::status)
                    .first::<Status>(conn)
                    .optional()?
                    .is_some_and(|s| s != Status::Pending),
                None => false,
            };
            let mut rows =
                if among_resolved { Vec::new() } else { rows_with(conn, &[Status::Pending], limit, before)? };
            let left = limit - i64::try_from(rows.len()).unwrap_or(limit);
            rows.extend(rows_with(conn, &resolved, left, before.filter(|_| among_resolved))?);
            rows
        }
    };
    Ok(complete(conn, rows)?)
}

/// Reports as complaints: with the people they name, whether their posts are still there, the
/// texts of their comments and their audit rows (four statements at most, whatever their
/// number; the comments' only when one is about a comment).
fn complete(conn: &mut DbConnection, rows: Vec<ReportRow>) -> QueryResult<Vec<Complaint>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let people: HashSet<UserId> =
        rows.iter().flat_map(|r| [r.reporter_id, r.post_author_id, r.comment_author_id]).flatten().collect();
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
    let comment_ids: Vec<CommentId> = rows.iter().filter_map(|r| r.comment_id).collect();
    let texts = posts::comment_texts(conn, &comment_ids)?;
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
            comment: a.comment_id,
            at: a.created_at,
        });
    }
    let card = |id: Option<UserId>| id.and_then(|a| cards.get(&a).cloned());
    Ok(rows
        .into_iter()
        .map(|r| Complaint {
            id: r.id,
            post: r.post_id,
            post_kind: r.post_kind,
            post_author: card(r.post_author_id),
            post_exists: existing.contains(&r.post_id),
            reporter_id: r.reporter_id,
            reporter: card(r.reporter_id),
            reason: r.reason,
            description: r.description,
            status: r.status,
            created_at: r.created_at,
            resolved_at: r.resolved_at,
            audit: audits.remove(&r.id).unwrap_or_default(),
            comment: r.comment_id.map(|id| ReportedComment {
                id,
                author: card(r.comment_author_id),
                content: texts.get(&id).cloned(),
            }),
        })
        .collect())
}

#[derive(QueryableByName)]
struct GroupRow {
    #[diesel(sql_type = BigInt)]
    post_id: PostId,
    #[diesel(sql_type = Nullable<BigInt>)]
    comment_id: Option<CommentId>,
    #[diesel(sql_type = BigInt)]
    n: i64,
    #[diesel(sql_type = BigInt)]
    latest: ReportId,
}

#[derive(QueryableByName)]
struct RankedRow {
    #[diesel(sql_type = BigInt)]
    id: ReportId,
}

/// A reported item: a post, or a comment on it.
type Item = (PostId, Option<CommentId>);

/// The grouped list of pending complaints: one group per reported item (a post, or a
/// comment), the most reported first and, among equals, the one reported last first; `limit`
/// groups after `before`. Each group has its count, its reasons counted, and its newest
/// [`GROUP_SHOWN`] complaints. However many reports one item gets, it takes one row; and since
/// each reporter has one open report an item and a limit on reports, one account cannot push
/// others' complaints down. A fixed number of statements whatever the length: the groups
/// (`reports_pending_item_idx` walked in item order), their reasons, their newest complaints,
/// then what [`complaints`] reads for those.
pub fn complaint_groups(
    conn: &mut DbConnection,
    limit: i64,
    before: Option<GroupCursor>,
) -> Result<Vec<ComplaintGroup>, ModerationError> {
    if limit <= 0 {
        return Ok(Vec::new());
    }
    const GROUPS: &str = "SELECT post_id, comment_id, COUNT(*) AS n, MAX(id) AS latest \
        FROM reports WHERE status = 'pending' GROUP BY post_id, comment_id";
    const ORDER: &str = " ORDER BY n DESC, latest DESC LIMIT $3";
    let groups: Vec<GroupRow> = match before {
        Some(c) => {
            diesel::sql_query(format!("{GROUPS} HAVING COUNT(*) < $1 OR (COUNT(*) = $1 AND MAX(id) < $2){ORDER}"))
                .bind::<BigInt, _>(c.count)
                .bind::<BigInt, _>(c.latest)
                .bind::<BigInt, _>(limit)
                .load(conn)?
        }
        None => diesel::sql_query(format!("{GROUPS} ORDER BY n DESC, latest DESC LIMIT $1"))
            .bind::<BigInt, _>(limit)
            .load(conn)?,
    };
    if groups.is_empty() {
        return Ok(Vec::new());
    }
    let posts: Vec<PostId> = groups.iter().map(|g| g.post_id).collect();
    let key = |post: PostId, comment: Option<CommentId>| (post, comment);

    let reasons: Vec<(PostId, Option<CommentId>, Reason, i64)> = reports::table
        .filter(reports::status.eq(Status::Pending))
        .filter(reports::post_id.eq_any(&posts))
        .group_by((reports::post_id, reports::comment_id, reports::reason))
        .select((reports::post_id, reports::comment_id, reports::reason, diesel::dsl::count_star()))
        .load(conn)?;
    let mut reasons_of: HashMap<Item, Vec<(Reason, i64)>> = HashMap::new();
    for (post, comment, reason, n) in reasons {
        reasons_of.entry(key(post, comment)).or_default().push((reason, n));
    }

    // The newest few of each group. The ids are numbers put in the text (an `i64` prints as
    // digits only), since a bound list would need a statement shape per length.
    let list = posts.iter().map(|p| p.get().to_string()).collect::<Vec<_>>().join(", ");
    let ranked: Vec<RankedRow> = diesel::sql_query(format!(
        "SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY post_id, comment_id ORDER BY id DESC) AS rn \
         FROM reports WHERE status = 'pending' AND post_id IN ({list})) ranked WHERE rn <= $1"
    ))
    .bind::<BigInt, _>(GROUP_SHOWN)
    .load(conn)?;
    let ids: Vec<ReportId> = ranked.into_iter().map(|r| r.id).collect();
    let rows: Vec<ReportRow> = reports::table
        .filter(reports::id.eq_any(&ids))
        .order(reports::id.desc())
        .select(ReportRow::as_select())
        .load(conn)?;
    let mut shown: HashMap<(PostId, Option<CommentId>), Vec<Complaint>> = HashMap::new();
    for c in complete(conn, rows)? {
        shown.entry(key(c.post, c.comment.as_ref().map(|x| x.id))).or_default().push(c);
    }

    Ok(groups
        .into_iter()
        .filter_map(|g| {
            let k = key(g.post_id, g.comment_id);
            let complaints = shown.remove(&k)?;
            let mut reasons = reasons_of.remove(&k).unwrap_or_default();
            reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.as_str().cmp(b.0.as_str())));
            Some(ComplaintGroup {
                post: g.post_id,
                comment: g.comment_id,
                count: g.n,
                reasons,
                complaints,
                cursor: GroupCursor { count: g.n, latest: g.latest },
            })
        })
        .collect())
}
