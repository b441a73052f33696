//! Reports, decisions, the admin role and analytics on SQLite and PostgreSQL. Deleting the post
//! of a complaint spans posts too: `app`'s tests and the API tests cover it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use db::DbConnection;
use db::diesel::prelude::*;
use db::schema::{admin_actions, blocks, reports, users};
use moderation::{Action, Admin, ComplaintFilter, Filed, Moderation, ModerationError, Reason, Scope, Status, Target};
use test_support::statements::{assert_index_backed, counted, recorded};
use test_support::{TestDb, insert_post, insert_user};
use values::{CommentId, ReportId, UserId};

fn admin(c: &mut DbConnection) -> Admin {
    let id = insert_user(c, "Root", "root");
    Admin::check(id, "root", true).unwrap()
}

/// Ids order by the millisecond: rows made within one have no order among them.
fn tick() {
    std::thread::sleep(std::time::Duration::from_millis(2));
}

fn report_rows(c: &mut DbConnection) -> Vec<(String, String)> {
    reports::table.order(reports::id).select((reports::reason, reports::status)).load(c).unwrap()
}

async fn a_report_needs_a_reason_and_other_needs_words(db: TestDb) {
    let m = Moderation::new(db.db.clone());
    let mut c = db.get().unwrap();
    let (ana, bob) = (insert_user(&mut c, "Ana", "ana"), insert_user(&mut c, "Bob", "bob"));
    let post = insert_post(&mut c, ana);
    for (reason, text) in [(None, None), (Some("Other"), Some("  ")), (Some("Boring"), None)] {
        assert!(matches!(m.report(bob, Target::Post(post), reason, text).await, Err(ModerationError::ReasonRequired)));
    }
    assert!(matches!(
        m.report(bob, Target::Post(post), Some("Other"), Some("copied my song")).await,
        Ok(Filed::New(_))
    ));
    assert!(
        matches!(m.report(bob, Target::Post(post), Some("Spam"), None).await, Ok(Filed::AlreadyOpen(_))),
        "one open report"
    );
    assert_eq!(report_rows(&mut c), vec![("Other".to_owned(), "pending".to_owned())]);
    let cy = insert_user(&mut c, "Cy", "cyd");
    assert!(
        matches!(m.report(cy, Target::Post(post), Some("Hate speech"), None).await, Ok(Filed::New(_))),
        "another reporter"
    );
    assert_eq!(report_rows(&mut c).len(), 2);
}

async fn missing_hidden_and_own_posts_cannot_be_reported(db: TestDb) {
    let m = Moderation::new(db.db.clone());
    let mut c = db.get().unwrap();
    let (ana, bob) = (insert_user(&mut c, "Ana", "ana"), insert_user(&mut c, "Bob", "bob"));
    let post = insert_post(&mut c, ana);
    let gone = values::PostId::generate();
    assert!(matches!(m.report(bob, Target::Post(gone), Some("Spam"), None).await, Err(ModerationError::PostNotFound)));
    assert!(matches!(m.report(ana, Target::Post(post), Some("Spam"), None).await, Err(ModerationError::OwnPost)));
    diesel::insert_into(blocks::table)
        .values((blocks::blocker_id.eq(ana), blocks::blocked_id.eq(bob), blocks::created_at.eq(db::time::now())))
        .execute(&mut c)
        .unwrap();
    assert!(matches!(m.report(bob, Target::Post(post), Some("Spam"), None).await, Err(ModerationError::PostNotFound)));
    assert!(report_rows(&mut c).is_empty());
}

async fn decisions_resolve_reports_and_are_audited(db: TestDb) {
    let m = Moderation::new(db.db.clone());
    let mut c = db.get().unwrap();
    let root = admin(&mut c);
    let (ana, bob, cy) =
        (insert_user(&mut c, "Ana", "ana"), insert_user(&mut c, "Bob", "bob"), insert_user(&mut c, "Cy", "cyd"));
    let (spam, fine) = (insert_post(&mut c, ana), insert_post(&mut c, ana));
    let id = |f: Filed| match f {
        Filed::New(id) | Filed::AlreadyOpen(id) => id,
    };
    let r1 = id(m.report(bob, Target::Post(spam), Some("Spam"), None).await.unwrap());
    tick();
    let r2 = id(m.report(cy, Target::Post(spam), Some("Harassment"), None).await.unwrap());
    tick();
    let r3 = id(m.report(bob, Target::Post(fine), Some("Other"), Some("I just dislike it")).await.unwrap());

    let ignored = db.write_blocking(|c| moderation::decide(c, &root, r3, Action::Ignore, Scope::Report)).unwrap();
    tick();
    assert_eq!((ignored.post, ignored.resolved.clone()), (fine, vec![r3]));
    let deleted = db.write_blocking(|c| moderation::decide(c, &root, r1, Action::DeletePost, Scope::Report)).unwrap();
    assert_eq!(deleted.post, spam);
    assert_eq!(deleted.resolved.len(), 2, "every open report on the post");
    assert!(deleted.resolved.contains(&r2));
    let again = db.write_blocking(|c| moderation::decide(c, &root, r2, Action::Ignore, Scope::Report));
    assert!(matches!(again, Err(ModerationError::AlreadyResolved)));
    let missing = db
        .write_blocking(|c| moderation::decide(c, &root, values::ReportId::generate(), Action::Ignore, Scope::Report));
    assert!(matches!(missing, Err(ModerationError::ReportNotFound)));

    let audit: Vec<(String, Option<UserId>)> = admin_actions::table
        .order(admin_actions::id)
        .select((admin_actions::action, admin_actions::admin_id))
        .load(&mut c)
        .unwrap();
    assert_eq!(audit, vec![("ignore".to_owned(), Some(root.id())), ("delete_post".to_owned(), Some(root.id()))]);

    // A new report after a decision is a new complaint.
    tick();
    assert!(matches!(m.report(bob, Target::Post(fine), Some("Spam"), None).await, Ok(Filed::New(_))));
    let all = m.complaints(&root, ComplaintFilter::All, None, None).await.unwrap();
    let statuses: Vec<Status> = all.iter().map(|x| x.status).collect();
    assert_eq!(statuses, [Status::Pending, Status::Ignored, Status::Deleted, Status::Deleted], "pending first");
    assert_eq!(all[1].audit.len(), 1);
    assert_eq!(all[1].audit[0].admin_login, "root");
    assert_eq!(all[1].description.as_deref(), Some("I just dislike it"));
    assert_eq!(all[1].reporter.as_ref().map(|u| u.login.as_str()), Some("bob"));
    assert_eq!(all[1].post_author.as_ref().map(|u| u.login.as_str()), Some("ana"));
    let pending = m.complaints(&root, ComplaintFilter::Pending, None, None).await.unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(m.complaints(&root, ComplaintFilter::Resolved, Some(2), None).await.unwrap().len(), 2);

    // A reporter whose account is gone shows as unknown; the complaint stays.
    diesel::delete(users::table.filter(users::id.eq(bob))).execute(&mut c).unwrap();
    let after = m.complaints(&root, ComplaintFilter::Pending, None, None).await.unwrap();
    assert_eq!((after[0].reporter_id, after[0].reporter.is_none()), (None, true));
}

async fn the_admin_role_is_granted_and_revoked_by_address(db: TestDb) {
    let m = Moderation::new(db.db.clone());
    let mut c = db.get().unwrap();
    let ana = insert_user(&mut c, "Ana", "ana");
    let is_admin = |c: &mut DbConnection| -> bool {
        users::table.filter(users::id.eq(ana)).select(users::is_admin).first(c).unwrap()
    };
    assert!(m.set_admin(" ANA@example.com ", true, "command line").await.unwrap());
    assert!(is_admin(&mut c));
    assert!(!m.set_admin("ana@example.com", true, "command line").await.unwrap(), "already");
    tick();
    assert!(m.set_admin("ana@example.com", false, "command line").await.unwrap());
    assert!(!is_admin(&mut c));
    assert!(matches!(m.set_admin("nobody@example.com", true, "x").await, Err(ModerationError::NoSuchAccount(_))));
    let audit: Vec<(String, String, Option<UserId>)> = admin_actions::table
        .order(admin_actions::id)
        .select((admin_actions::action, admin_actions::admin_login, admin_actions::subject_id))
        .load(&mut c)
        .unwrap();
    assert_eq!(
        audit,
        vec![
            ("grant_admin".to_owned(), "command line".to_owned(), Some(ana)),
            ("revoke_admin".to_owned(), "command line".to_owned(), Some(ana))
        ]
    );
}

/// Whoever signed up an address first is not yet its owner: an unverified account is refused
/// the role (and nothing is audited), though revoking stays possible.
async fn the_admin_role_never_goes_to_an_unverified_account(db: TestDb) {
    let m = Moderation::new(db.db.clone());
    let mut c = db.get().unwrap();
    let eve = insert_user(&mut c, "Eve", "eve");
    diesel::update(users::table.filter(users::id.eq(eve)))
        .set(users::email_verified.eq(false))
        .execute(&mut c)
        .unwrap();
    let refused = m.set_admin("eve@example.com", true, "command line").await.err().unwrap();
    assert!(matches!(refused, ModerationError::NotVerified(_)));
    assert_eq!(
        refused.to_string(),
        "The account with the e-mail address eve@example.com is not verified yet, and the admin role goes only to verified accounts"
    );
    assert!(!m.set_admin("eve@example.com", false, "command line").await.unwrap(), "revoking is fine");
    let audited: i64 = admin_actions::table.count().get_result(&mut c).unwrap();
    assert_eq!(audited, 0);
}

async fn analytics_count_what_there_is(db: TestDb) {
    let m = Moderation::new(db.db.clone());
    let mut c = db.get().unwrap();
    let root = admin(&mut c);
    let (ana, bob) = (insert_user(&mut c, "Ana", "ana"), insert_user(&mut c, "Bob", "bob"));
    let post = insert_post(&mut c, ana);
    insert_post(&mut c, bob);
    m.report(bob, Target::Post(post), Some("Spam"), None).await.unwrap();
    let a = m.analytics(&root).await.unwrap();
    assert_eq!((a.users, a.new_users_7_days, a.posts, a.posts_today, a.open_reports), (3, 3, 2, 2, 1));
    assert_eq!(a.posts_by_type.get(&values::PostKind::Lyrics), Some(&2));
    assert_eq!((a.comments, a.likes), (0, 0));
    let days = m.daily(&root, 30).await.unwrap();
    assert_eq!(days.len(), 30);
    let today = days.last().unwrap();
    assert_eq!(today.date, chrono::Utc::now().date_naive());
    assert_eq!((today.sign_ups, today.posts, today.reports), (3, 2, 1));
    assert!(days[..29].iter().all(|d| d.sign_ups == 0 && d.posts == 0));
    assert_eq!(m.daily(&root, 0).await.unwrap().len(), 1, "at least today");
}

async fn the_complaints_list_costs_the_same_whatever_its_length(db: TestDb) {
    let m = Moderation::new(db.db.clone());
    let mut c = db.get().unwrap();
    let root = admin(&mut c);
    let ana = insert_user(&mut c, "Ana", "ana");
    for i in 0..12 {
        let reporter = insert_user(&mut c, &format!("R{i}"), &format!("reporter{i}"));
        let post = insert_post(&mut c, ana);
        let filed = m.report(reporter, Target::Post(post), Some("Spam"), None).await.unwrap();
        if i % 3 == 0 {
            let Filed::New(r) = filed else { panic!("a new report") };
            db.write_blocking(|c| moderation::decide(c, &root, r, Action::Ignore, Scope::Report)).unwrap();
        }
    }
    for (limit, filter) in [(1, ComplaintFilter::Resolved), (4, ComplaintFilter::Resolved), (12, ComplaintFilter::All)]
    {
        let (found, n) = counted(&mut c, |c| moderation::complaints(c, filter, limit, None).unwrap().len());
        let reads = if filter == ComplaintFilter::All { 5 } else { 4 };
        assert_eq!(
            (found, n),
            (usize::try_from(limit).unwrap(), reads),
            "{filter:?}, {limit}: reports, people, posts, audit"
        );
    }
    let statements = recorded(&mut c, |c| {
        moderation::complaints(c, ComplaintFilter::All, 20, None).unwrap();
        moderation::decide(c, &root, values::ReportId::generate(), Action::Ignore, Scope::Report).ok();
        moderation::daily(c, 30, chrono::Utc::now()).unwrap();
    });
    assert_index_backed(&mut c, &statements);
}

fn comment_on(db: &db::Db, who: UserId, post: values::PostId, text: &str) -> CommentId {
    db.write_blocking(|c| posts::add_comment(c, who, post, text, None)).unwrap().comment.id
}

fn block(c: &mut DbConnection, blocker: UserId, blocked: UserId) {
    diesel::insert_into(blocks::table)
        .values((
            blocks::blocker_id.eq(blocker),
            blocks::blocked_id.eq(blocked),
            blocks::created_at.eq(db::time::now()),
        ))
        .execute(c)
        .unwrap();
}

fn filed_id(f: Filed) -> ReportId {
    match f {
        Filed::New(id) | Filed::AlreadyOpen(id) => id,
    }
}

/// A comment is reported as a post is: a reason of the four, not one's own, not one hidden
/// by a block (with its author or the post's), one open report a person; a post and a comment
/// on it are two items.
async fn comments_are_reported_with_the_rules_of_posts(db: TestDb) {
    let m = Moderation::new(db.db.clone());
    let mut c = db.get().unwrap();
    let (ana, bob, cy, dee) = (
        insert_user(&mut c, "Ana", "ana"),
        insert_user(&mut c, "Bob", "bob"),
        insert_user(&mut c, "Cy", "cyd"),
        insert_user(&mut c, "Dee", "dee"),
    );
    let post = insert_post(&mut c, ana);
    let rude = comment_on(&db, bob, post, "you are all terrible");
    let report = |who, reason| m.report(who, Target::Comment(rude), reason, None);
    assert!(matches!(report(cy, None).await, Err(ModerationError::ReasonRequired)));
    assert!(matches!(report(bob, Some("Spam")).await, Err(ModerationError::OwnComment)));
    let gone = CommentId::generate();
    assert!(matches!(
        m.report(cy, Target::Comment(gone), Some("Spam"), None).await,
        Err(ModerationError::CommentNotFound)
    ));
    let first = report(cy, Some("Harassment")).await.unwrap();
    assert!(matches!(first, Filed::New(_)));
    assert_eq!(report(cy, Some("Spam")).await.unwrap(), Filed::AlreadyOpen(filed_id(first)), "one open report");
    assert!(matches!(m.report(cy, Target::Post(post), Some("Spam"), None).await, Ok(Filed::New(_))), "another item");
    assert!(matches!(report(ana, Some("Spam")).await, Ok(Filed::New(_))), "the post's author may report it");
    block(&mut c, bob, dee);
    assert!(
        matches!(report(dee, Some("Spam")).await, Err(ModerationError::CommentNotFound)),
        "a block with its author"
    );
    let eve = insert_user(&mut c, "Eve", "eve");
    block(&mut c, eve, ana);
    assert!(
        matches!(report(eve, Some("Spam")).await, Err(ModerationError::CommentNotFound)),
        "a block with the post's"
    );
    let rows: Vec<(Option<CommentId>, Option<UserId>, String)> = reports::table
        .order(reports::id)
        .select((reports::comment_id, reports::comment_author_id, reports::post_kind))
        .load(&mut c)
        .unwrap();
    assert_eq!(
        rows,
        vec![
            (Some(rude), Some(bob), "lyrics".to_owned()),
            (None, None, "lyrics".to_owned()),
            (Some(rude), Some(bob), "lyrics".to_owned())
        ]
    );
}

/// A comment's complaint is resolved by deleting the comment (not the post) or ignoring it;
/// a post's by deleting the post, which closes its comments' complaints too; ignoring an item
/// closes every open complaint about it and nothing else. Each decision is audited with the
/// comment and its author.
async fn decisions_about_comments_close_what_they_delete(db: TestDb) {
    let m = Moderation::new(db.db.clone());
    let mut c = db.get().unwrap();
    let root = admin(&mut c);
    let (ana, bob, cy, dee) = (
        insert_user(&mut c, "Ana", "ana"),
        insert_user(&mut c, "Bob", "bob"),
        insert_user(&mut c, "Cy", "cyd"),
        insert_user(&mut c, "Dee", "dee"),
    );
    let post = insert_post(&mut c, ana);
    let (rude, odd) = (comment_on(&db, bob, post, "rude"), comment_on(&db, bob, post, "odd"));
    let on = |t, who| m.report(who, t, Some("Spam"), None);
    let r_rude = filed_id(on(Target::Comment(rude), cy).await.unwrap());
    tick();
    let r_rude2 = filed_id(on(Target::Comment(rude), dee).await.unwrap());
    let r_odd = filed_id(on(Target::Comment(odd), cy).await.unwrap());
    let r_odd2 = filed_id(on(Target::Comment(odd), dee).await.unwrap());
    let r_post = filed_id(on(Target::Post(post), cy).await.unwrap());
    let decide = |_: &mut DbConnection, r, a, s| db.write_blocking(|c| moderation::decide(c, &root, r, a, s));

    assert!(matches!(decide(&mut c, r_rude, Action::DeletePost, Scope::Report), Err(ModerationError::AboutComment)));
    assert!(matches!(decide(&mut c, r_post, Action::DeleteComment, Scope::Report), Err(ModerationError::AboutPost)));
    let d = decide(&mut c, r_rude, Action::DeleteComment, Scope::Report).unwrap();
    assert_eq!((d.post, d.comment), (post, Some(rude)));
    let mut closed = d.resolved.clone();
    closed.sort();
    assert_eq!(closed, vec![r_rude, r_rude2], "every open report on the comment, not its neighbour's");
    let ignored = decide(&mut c, r_odd2, Action::Ignore, Scope::Item).unwrap();
    assert_eq!(ignored.resolved.len(), 2, "the item: both of odd's");
    assert!(!ignored.resolved.contains(&r_post));
    let pending = m.complaints(&root, ComplaintFilter::Pending, None, None).await.unwrap();
    assert_eq!(pending.iter().map(|x| x.id).collect::<Vec<_>>(), vec![r_post]);
    assert!(pending[0].comment.is_none());

    let mut audit: Vec<(String, Option<CommentId>, Option<UserId>)> = admin_actions::table
        .select((admin_actions::action, admin_actions::comment_id, admin_actions::subject_id))
        .load(&mut c)
        .unwrap();
    // Two decisions in the same millisecond may take ids in either order (ids are time-ordered
    // with a random tail): what matters is that each is audited.
    audit.sort();
    assert_eq!(
        audit,
        vec![("delete_comment".to_owned(), Some(rude), Some(bob)), ("ignore".to_owned(), Some(odd), None)]
    );

    // Deleting the post closes its comments' open complaints too.
    tick();
    let r_odd3 = filed_id(on(Target::Comment(odd), ana).await.unwrap());
    let deleted = decide(&mut c, r_post, Action::DeletePost, Scope::Report).unwrap();
    assert!(deleted.resolved.contains(&r_odd3) && deleted.resolved.contains(&r_post));
    let all = m.complaints(&root, ComplaintFilter::Resolved, None, None).await.unwrap();
    let odd_one = all.iter().find(|x| x.id == r_odd).unwrap();
    assert_eq!(odd_one.status, Status::Ignored);
    let comment = odd_one.comment.as_ref().unwrap();
    assert_eq!((comment.id, comment.content.as_deref()), (odd, Some("odd")), "still there until the post goes");
    assert_eq!(comment.author.as_ref().map(|u| u.login.as_str()), Some("bob"));
}

/// An admin deleting someone's comment from its menu is audited, and its open complaints close.
async fn an_admin_removing_a_comment_is_audited(db: TestDb) {
    let m = Moderation::new(db.db.clone());
    let mut c = db.get().unwrap();
    let root = admin(&mut c);
    let (ana, bob, cy) =
        (insert_user(&mut c, "Ana", "ana"), insert_user(&mut c, "Bob", "bob"), insert_user(&mut c, "Cy", "cyd"));
    let post = insert_post(&mut c, ana);
    let rude = comment_on(&db, bob, post, "rude");
    let r = filed_id(m.report(cy, Target::Comment(rude), Some("Spam"), None).await.unwrap());
    let found = posts::visible_comment(&mut c, rude, root.id()).unwrap().unwrap();
    let closed = db.write_blocking(|c| moderation::comment_removed(c, &root, &found)).unwrap();
    assert_eq!(closed, vec![r]);
    type AuditRow = (String, Option<ReportId>, Option<CommentId>, Option<UserId>);
    let audit: Vec<AuditRow> = admin_actions::table
        .select((admin_actions::action, admin_actions::report_id, admin_actions::comment_id, admin_actions::subject_id))
        .load(&mut c)
        .unwrap();
    assert_eq!(audit, vec![("delete_comment".to_owned(), Some(r), Some(rude), Some(bob))]);
}

/// The grouped to-do list: one row per item, the most reported first (newest first among
/// equals), with the reasons counted; pages follow each other by cursor, without repeats or
/// gaps.
async fn pending_complaints_are_grouped_by_item_most_reported_first(db: TestDb) {
    let m = Moderation::new(db.db.clone());
    let mut c = db.get().unwrap();
    let root = admin(&mut c);
    let ana = insert_user(&mut c, "Ana", "ana");
    let reporters: Vec<UserId> = (0..4).map(|i| insert_user(&mut c, &format!("R{i}"), &format!("rep{i}"))).collect();
    let (p1, p2, p3) = (insert_post(&mut c, ana), insert_post(&mut c, ana), insert_post(&mut c, ana));
    let rude = comment_on(&db, ana, p1, "rude");
    // p1: 1, p2: 2 (Spam, Other), rude: 3 (Spam, Spam, Hate speech), p3: 1 (newest).
    m.report(reporters[0], Target::Post(p1), Some("Spam"), None).await.unwrap();
    tick();
    for (who, reason) in [(0, "Spam"), (1, "Other")] {
        m.report(reporters[who], Target::Post(p2), Some(reason), Some("because")).await.unwrap();
        tick();
    }
    for (who, reason) in [(0, "Spam"), (1, "Hate speech"), (2, "Spam")] {
        m.report(reporters[who], Target::Comment(rude), Some(reason), None).await.unwrap();
        tick();
    }
    m.report(reporters[3], Target::Post(p3), Some("Spam"), None).await.unwrap();

    let all = m.complaint_groups(&root, None, None).await.unwrap();
    let shape: Vec<(values::PostId, Option<CommentId>, i64)> =
        all.iter().map(|g| (g.post, g.comment, g.count)).collect();
    assert_eq!(shape, vec![(p1, Some(rude), 3), (p2, None, 2), (p3, None, 1), (p1, None, 1)]);
    assert_eq!(all[0].reasons, vec![(Reason::Spam, 2), (Reason::HateSpeech, 1)]);
    assert_eq!(all[0].complaints.len(), 3);
    assert!(all[0].complaints.windows(2).all(|w| w[0].id > w[1].id), "newest first");
    assert_eq!(all[0].complaints[0].comment.as_ref().and_then(|x| x.content.as_deref()), Some("rude"));
    assert!(all[1].complaints.iter().all(|x| x.comment.is_none()));

    let mut paged = Vec::new();
    let mut before: Option<String> = None;
    loop {
        let page = m.complaint_groups(&root, Some(1), before.as_deref()).await.unwrap();
        let Some(last) = page.last() else { break };
        before = Some(last.cursor.to_string());
        paged.extend(page.into_iter().map(|g| (g.post, g.comment, g.count)));
    }
    assert_eq!(paged, shape);
    assert!(matches!(m.complaint_groups(&root, None, Some("nonsense")).await, Err(ModerationError::BadCursor)));
}

async fn the_grouped_list_costs_the_same_whatever_its_length(db: TestDb) {
    let m = Moderation::new(db.db.clone());
    let mut c = db.get().unwrap();
    let root = admin(&mut c);
    let ana = insert_user(&mut c, "Ana", "ana");
    let reporters: Vec<UserId> = (0..3).map(|i| insert_user(&mut c, &format!("R{i}"), &format!("rep{i}"))).collect();
    for i in 0..8 {
        let post = insert_post(&mut c, ana);
        let target = if i % 2 == 0 { Target::Post(post) } else { Target::Comment(comment_on(&db, ana, post, "x")) };
        for who in reporters.iter().take(1 + i % 3) {
            m.report(*who, target, Some("Spam"), None).await.unwrap();
        }
    }
    for limit in [1, 3, 8] {
        let (found, n) = counted(&mut c, |c| moderation::complaint_groups(c, limit, None).unwrap().len());
        assert_eq!(
            (found, n),
            (usize::try_from(limit).unwrap(), 8),
            "{limit}: groups, reasons, newest, reports, people, posts, comments, audit"
        );
    }
    let first = moderation::complaint_groups(&mut c, 2, None).unwrap();
    let mut statements = recorded(&mut c, |c| {
        moderation::complaint_groups(c, 3, Some(first[1].cursor)).unwrap();
        moderation::complaints(c, ComplaintFilter::All, 5, Some(first[0].complaints[0].id)).unwrap();
        moderation::decide(c, &root, first[0].complaints[0].id, Action::Ignore, Scope::Item).unwrap();
    });
    // The decision's UPDATE is by primary key (and its bound status is not a number to plan).
    statements.retain(|s| !s.starts_with("UPDATE"));
    assert_index_backed(&mut c, &statements);
}

test_support::both_backends!(
    a_report_needs_a_reason_and_other_needs_words,
    missing_hidden_and_own_posts_cannot_be_reported,
    decisions_resolve_reports_and_are_audited,
    the_admin_role_is_granted_and_revoked_by_address,
    the_admin_role_never_goes_to_an_unverified_account,
    analytics_count_what_there_is,
    the_complaints_list_costs_the_same_whatever_its_length,
    comments_are_reported_with_the_rules_of_posts,
    decisions_about_comments_close_what_they_delete,
    an_admin_removing_a_comment_is_audited,
    pending_complaints_are_grouped_by_item_most_reported_first,
    the_grouped_list_costs_the_same_whatever_its_length,
);
