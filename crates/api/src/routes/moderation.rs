//! Reports of posts (spec §7 `POST /reports/post`) and of comments (`POST /reports/comment`,
//! the same rules), and the admin panel's calls (the spec's admin table, plus the grouped
//! to-do list). Every admin call takes an [`AdminUser`]: signed out 401, not an admin 403.

use actix_web::http::header;
use actix_web::{HttpResponse, get, post, web};
use chrono::{DateTime, NaiveDate, Utc};
use db::model::UserCard;
use moderation::{
    Action, AuditAction, Complaint, ComplaintFilter, ComplaintGroup, DAILY_MAX_DAYS, Filed, Reason, ReportedComment,
    Scope, Status, Target,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use values::{CommentId, PostId, PostKind, ReportId, UserId};

use crate::error::{ApiError, Detail};
use crate::extract::{AdminUser, Limited};
use crate::limits::Reporting;
use crate::state::AppState;
use crate::wire::{Message, UserJson};

// --- Reports ---------------------------------------------------------------------------------

/// Spec §3 Report.
#[derive(Deserialize, ToSchema)]
pub struct ReportJson {
    #[schema(value_type = String)]
    post_id: PostId,
    /// Spam, Harassment, Hate speech or Other.
    #[serde(default)]
    reason: Option<String>,
    /// Needed with Other; null otherwise.
    #[serde(default)]
    description: Option<String>,
}

#[utoipa::path(tag = "moderation", security(("bearer" = [])), request_body = ReportJson,
    responses((status = 201, body = Message, description = "reported"),
        (status = 200, body = Message, description = "already reported by this person, still open"),
        (status = 400, body = Detail, description = "no reason, or Other without words; one's own post"),
        (status = 404, body = Detail)))]
#[post("/reports/post")]
pub async fn report(
    state: web::Data<AppState>,
    user: Limited<Reporting>,
    body: web::Json<ReportJson>,
) -> Result<HttpResponse, ApiError> {
    let target = Target::Post(body.post_id);
    let filed = state.moderation.report(user.0.id, target, body.reason.as_deref(), body.description.as_deref()).await?;
    Ok(filed_answer(filed))
}

fn filed_answer(filed: Filed) -> HttpResponse {
    let answer = Message::new("Report submitted");
    match filed {
        Filed::New(_) => HttpResponse::Created().json(answer),
        Filed::AlreadyOpen(_) => HttpResponse::Ok().json(answer),
    }
}

/// A report of a comment: the post report's fields, with the comment's id.
#[derive(Deserialize, ToSchema)]
pub struct CommentReportJson {
    #[schema(value_type = String)]
    comment_id: CommentId,
    /// Spam, Harassment, Hate speech or Other.
    #[serde(default)]
    reason: Option<String>,
    /// Needed with Other; null otherwise.
    #[serde(default)]
    description: Option<String>,
}

/// Reports a comment, with the rules and answers of `POST /reports/post`; it counts against
/// the same limit.
#[utoipa::path(tag = "moderation", security(("bearer" = [])), request_body = CommentReportJson,
    responses((status = 201, body = Message, description = "reported"),
        (status = 200, body = Message, description = "already reported by this person, still open"),
        (status = 400, body = Detail, description = "no reason, or Other without words; one's own comment"),
        (status = 404, body = Detail, description = "missing, or hidden by a block")))]
#[post("/reports/comment")]
pub async fn report_comment(
    state: web::Data<AppState>,
    user: Limited<Reporting>,
    body: web::Json<CommentReportJson>,
) -> Result<HttpResponse, ApiError> {
    let target = Target::Comment(body.comment_id);
    let filed = state.moderation.report(user.0.id, target, body.reason.as_deref(), body.description.as_deref()).await?;
    Ok(filed_answer(filed))
}

// --- Complaints ------------------------------------------------------------------------------

#[derive(Serialize, ToSchema)]
pub struct AuditJson {
    /// delete_post, delete_comment or ignore
    #[schema(value_type = String)]
    action: AuditAction,
    #[schema(value_type = Option<String>)]
    admin_id: Option<UserId>,
    admin_login: String,
    created_at: DateTime<Utc>,
}

/// A reported comment.
#[derive(Serialize, ToSchema)]
pub struct ReportedCommentJson {
    #[schema(value_type = String)]
    id: CommentId,
    /// Its text; null once it is deleted.
    content: Option<String>,
    /// False once it is deleted.
    exists: bool,
    /// Null when its author's account is gone.
    author: Option<UserJson>,
}

fn reported_comment_json(state: &AppState, c: ReportedComment) -> ReportedCommentJson {
    ReportedCommentJson {
        id: c.id,
        exists: c.content.is_some(),
        content: c.content,
        author: c.author.map(|u| UserJson::new(state, u)),
    }
}

/// A complaint (spec §3), with what the panel shows beyond it.
#[derive(Serialize, ToSchema)]
pub struct ComplaintJson {
    #[schema(value_type = String)]
    id: ReportId,
    /// e.g. `Spam: audio post by @ana`
    title: String,
    /// e.g. `Reported by Bob on 2026-11-24 10:31 UTC`
    data: String,
    #[schema(value_type = Option<String>)]
    reporter_id: Option<UserId>,
    /// Null when the reporter's account is gone.
    reporter_name: Option<String>,
    #[schema(value_type = String)]
    post_id: PostId,
    #[schema(value_type = String)]
    reason: Reason,
    description: Option<String>,
    /// The post page in the web app (`SELFSOUND_POST_LINK`).
    post_link: String,
    /// pending, deleted or ignored
    #[schema(value_type = String)]
    status: Status,
    created_at: DateTime<Utc>,
    resolved_at: Option<DateTime<Utc>>,
    /// media, audio, musicxml or lyrics
    #[schema(value_type = String)]
    post_type: PostKind,
    /// False once the post is deleted.
    post_exists: bool,
    post_author: Option<UserJson>,
    reporter: Option<UserJson>,
    /// What admins did about it, oldest first.
    audit: Vec<AuditJson>,
    /// post or comment: what the complaint is about.
    target_type: &'static str,
    /// The reported comment's id (on `post_id`); null for a post's complaint.
    #[schema(value_type = Option<String>)]
    comment_id: Option<CommentId>,
    /// The reported comment; null for a post's complaint.
    comment: Option<ReportedCommentJson>,
}

fn at_minute(t: chrono::NaiveDateTime) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}

fn by(author: Option<&UserCard>) -> String {
    author.map_or_else(|| "a deleted account".to_owned(), |a| format!("@{}", a.login))
}

/// What a complaint is about, in words: `audio post by @ana`, `score by @ana`, or `comment by
/// @bob on an audio post by @ana`.
fn subject(c: &Complaint) -> String {
    let kind = c.post_kind.one();
    let post = format!("{kind} by {}", by(c.post_author.as_ref()));
    match &c.comment {
        None => post,
        Some(comment) => {
            let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
            format!("comment by {} on {article} {post}", by(comment.author.as_ref()))
        }
    }
}

fn complaint_json(state: &AppState, c: Complaint) -> ComplaintJson {
    let reporter_name = c.reporter.as_ref().map(|r| r.name.clone());
    let card = |u: UserCard| UserJson::new(state, u);
    ComplaintJson {
        title: format!("{}: {}", c.reason, subject(&c)),
        data: format!("Reported by {} on {}", reporter_name.as_deref().unwrap_or("Unknown"), at_minute(c.created_at)),
        id: c.id,
        reporter_id: c.reporter_id,
        reporter_name,
        post_id: c.post,
        post_link: state.config.post_link(c.post),
        reason: c.reason,
        description: c.description,
        status: c.status,
        created_at: c.created_at.and_utc(),
        resolved_at: c.resolved_at.map(|t| t.and_utc()),
        post_type: c.post_kind,
        post_exists: c.post_exists,
        post_author: c.post_author.map(card),
        reporter: c.reporter.map(card),
        audit: c
            .audit
            .into_iter()
            .map(|a| AuditJson {
                action: a.action,
                admin_id: a.admin_id,
                admin_login: a.admin_login,
                created_at: a.at.and_utc(),
            })
            .collect(),
        target_type: if c.comment.is_some() { "comment" } else { "post" },
        comment_id: c.comment.as_ref().map(|x| x.id),
        comment: c.comment.map(|x| reported_comment_json(state, x)),
    }
}

#[derive(Deserialize, IntoParams)]
pub struct ComplaintsQuery {
    /// pending (the default: the spec's client treats the list as a to-do list), resolved, or
    /// all (pending first, then the latest resolved).
    status: Option<String>,
    /// 1 to 200 (default 100).
    limit: Option<i64>,
    /// The id of the last complaint of the previous page: the next page goes on after it.
    #[param(value_type = Option<String>)]
    before: Option<ReportId>,
}

#[utoipa::path(tag = "admin", security(("bearer" = [])), params(ComplaintsQuery),
    responses((status = 200, body = [ComplaintJson]), (status = 403, body = Detail, description = "not an admin")))]
#[get("/admin/reports")]
pub async fn complaints(
    state: web::Data<AppState>,
    admin: AdminUser,
    q: web::Query<ComplaintsQuery>,
) -> Result<HttpResponse, ApiError> {
    let filter = match q.status.as_deref() {
        Some("all") => ComplaintFilter::All,
        None | Some("pending") => ComplaintFilter::Pending,
        Some("resolved") => ComplaintFilter::Resolved,
        Some(_) => return Err(ApiError::invalid("status must be all, pending or resolved")),
    };
    let found = state.moderation.complaints(&admin.0, filter, q.limit, q.before).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(found.into_iter().map(|c| complaint_json(&state, c)).collect::<Vec<_>>()))
}

/// How many complaints of a group give one reason.
#[derive(Serialize, ToSchema)]
pub struct ReasonCountJson {
    #[schema(value_type = String)]
    reason: Reason,
    count: i64,
}

/// Pending complaints about one item (a post, or a comment): one row of the grouped to-do list.
#[derive(Serialize, ToSchema)]
pub struct ComplaintGroupJson {
    /// Pass the last group's as `before` for the next page.
    cursor: String,
    /// post or comment
    target_type: &'static str,
    #[schema(value_type = String)]
    post_id: PostId,
    #[schema(value_type = Option<String>)]
    comment_id: Option<CommentId>,
    /// How many people's complaints are pending about it.
    count: i64,
    /// Each reason with its count, the most frequent first.
    reasons: Vec<ReasonCountJson>,
    /// e.g. `comment by @bob on a lyrics post by @ana`
    title: String,
    /// media, audio, musicxml or lyrics
    #[schema(value_type = String)]
    post_type: PostKind,
    post_exists: bool,
    post_author: Option<UserJson>,
    /// The post page in the web app (`SELFSOUND_POST_LINK`).
    post_link: String,
    /// The reported comment; null for a post.
    comment: Option<ReportedCommentJson>,
    /// When the newest complaint came.
    last_reported_at: DateTime<Utc>,
    /// The newest complaints (at most 20), newest first.
    complaints: Vec<ComplaintJson>,
}

fn group_json(state: &AppState, g: ComplaintGroup) -> Option<ComplaintGroupJson> {
    let first = g.complaints.first()?;
    Some(ComplaintGroupJson {
        cursor: g.cursor.to_string(),
        target_type: if g.comment.is_some() { "comment" } else { "post" },
        post_id: g.post,
        comment_id: g.comment,
        count: g.count,
        reasons: g.reasons.into_iter().map(|(reason, count)| ReasonCountJson { reason, count }).collect(),
        title: subject(first),
        post_type: first.post_kind,
        post_exists: first.post_exists,
        post_author: first.post_author.clone().map(|u| UserJson::new(state, u)),
        post_link: state.config.post_link(g.post),
        comment: first.comment.clone().map(|c| reported_comment_json(state, c)),
        last_reported_at: first.created_at.and_utc(),
        complaints: g.complaints.into_iter().map(|c| complaint_json(state, c)).collect(),
    })
}

#[derive(Deserialize, IntoParams)]
pub struct GroupsQuery {
    /// 1 to 50 groups (default 10), as feeds.
    limit: Option<i64>,
    /// The `cursor` of the last group of the previous page.
    before: Option<String>,
}

/// Pending complaints grouped by what they are about (beyond the spec: the panel's to-do
/// list): one row a post or comment, the most reported first, then the most recently
/// reported; so many complaints about one thing take one row, and one account (one open report
/// an item, a limit on reports) cannot push others' complaints out of sight. Decide about a
/// group with any of its complaints' ids (`scope: item` to ignore them all).
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(GroupsQuery),
    responses((status = 200, body = [ComplaintGroupJson]), (status = 400, body = Detail, description = "a cursor the list did not give"),
        (status = 403, body = Detail, description = "not an admin")))]
#[get("/admin/reports/groups")]
pub async fn complaint_groups(
    state: web::Data<AppState>,
    admin: AdminUser,
    q: web::Query<GroupsQuery>,
) -> Result<HttpResponse, ApiError> {
    let found = state.moderation.complaint_groups(&admin.0, q.limit, q.before.as_deref()).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(found.into_iter().filter_map(|g| group_json(&state, g)).collect::<Vec<_>>()))
}

#[derive(Deserialize, ToSchema)]
pub struct ResolveJson {
    /// delete_post (a post's complaint), delete_comment (a comment's) or ignore
    action: String,
    /// report (the default) or item: with ignore, every open complaint about the same post or
    /// comment is ignored too. Deleting always closes every open complaint about what it deletes.
    #[serde(default)]
    #[schema(required = false)]
    scope: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ResolvedJson {
    /// `Report deleted successfully` or `Report ignored successfully` (spec §8).
    message: &'static str,
    /// deleted or ignored
    status: &'static str,
    /// Every report the decision closed (deleting a post closes all open ones on it).
    #[schema(value_type = Vec<String>)]
    resolved: Vec<ReportId>,
}

#[utoipa::path(tag = "admin", security(("bearer" = [])), params(("id" = String, Path)), request_body = ResolveJson,
    responses((status = 200, body = ResolvedJson),
        (status = 400, body = Detail, description = "an unknown action or scope; deleting a post for a comment's complaint, or the reverse"),
        (status = 403, body = Detail, description = "not an admin"), (status = 404, body = Detail),
        (status = 409, body = Detail, description = "already resolved")))]
#[post("/admin/reports/{id}/resolve")]
pub async fn resolve(
    state: web::Data<AppState>,
    admin: AdminUser,
    id: web::Path<ReportId>,
    body: web::Json<ResolveJson>,
) -> Result<web::Json<ResolvedJson>, ApiError> {
    let action = Action::from_client(&body.action)?;
    let scope = match body.scope.as_deref().map(str::trim) {
        None | Some("report") => Scope::Report,
        Some("item") => Scope::Item,
        Some(_) => return Err(ApiError::invalid("scope must be report or item")),
    };
    let decision = state.app.resolve_report(&state.posts, &admin.0, id.into_inner(), action, scope).await?;
    let (message, status) = match decision.action {
        Action::DeletePost | Action::DeleteComment => ("Report deleted successfully", Status::Deleted),
        Action::Ignore => ("Report ignored successfully", Status::Ignored),
    };
    Ok(web::Json(ResolvedJson { message, status: status.as_str(), resolved: decision.resolved }))
}

// --- Analytics -------------------------------------------------------------------------------

/// One card of the panel (spec §3 Analytics card).
#[derive(Serialize, ToSchema)]
pub struct CardJson {
    posts_title: String,
    posts_data: i64,
}

#[utoipa::path(tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = [CardJson]), (status = 403, body = Detail, description = "not an admin")))]
#[get("/admin/analytics")]
pub async fn analytics(state: web::Data<AppState>, admin: AdminUser) -> Result<HttpResponse, ApiError> {
    let a = state.moderation.analytics(&admin.0).await?;
    let card = |title: &str, n: i64| CardJson { posts_title: title.to_owned(), posts_data: n };
    let mut cards = vec![
        card("Users", a.users),
        card("New users (7 days)", a.new_users_7_days),
        card("Posts", a.posts),
        card("Posts today", a.posts_today),
    ];
    cards.extend(a.posts_by_type.iter().map(|(kind, n)| card(&format!("{} posts", kind.label()), *n)));
    cards.extend([card("Comments", a.comments), card("Likes", a.likes), card("Open reports", a.open_reports)]);
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-cache")).json(cards))
}

#[derive(Deserialize, IntoParams)]
pub struct DailyQuery {
    /// 1 to 365 (default 30).
    days: Option<u32>,
}

#[derive(Serialize, ToSchema)]
pub struct DayJson {
    /// YYYY-MM-DD (UTC)
    #[schema(value_type = String)]
    date: NaiveDate,
    sign_ups: i64,
    posts: i64,
    reports: i64,
}

/// Sign-ups, posts and reports per day, oldest first (beyond the spec: the panel's chart).
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(DailyQuery),
    responses((status = 200, body = [DayJson]), (status = 403, body = Detail, description = "not an admin")))]
#[get("/admin/analytics/daily")]
pub async fn daily(
    state: web::Data<AppState>,
    admin: AdminUser,
    q: web::Query<DailyQuery>,
) -> Result<HttpResponse, ApiError> {
    let days = q.days.unwrap_or(30).clamp(1, DAILY_MAX_DAYS);
    let found = state.moderation.daily(&admin.0, days).await?;
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-cache")).json(
        found
            .into_iter()
            .map(|d| DayJson { date: d.date, sign_ups: d.sign_ups, posts: d.posts, reports: d.reports })
            .collect::<Vec<_>>(),
    ))
}

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(report)
        .service(report_comment)
        .service(complaint_groups)
        .service(complaints)
        .service(resolve)
        .service(analytics)
        .service(daily);
}
