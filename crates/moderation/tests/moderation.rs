//! Reports, decisions, the admin role and analytics on SQLite and PostgreSQL. Deleting the post
//! of a complaint spans posts too: `app`'s tests and the API tests cover it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use db::DbConnection;
use db::diesel::prelude::*;
use db::schema::{admin_actions, blocks, reports, users};
use moderation::{Action, Admin, ComplaintFilter, Filed, Moderation, ModerationError, Status};
use test_support::statements::{assert_index_backed, counted, recorded};
use test_support::{TestDb, insert_post, insert_user};
use values::UserId;

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
        assert!(matches!(m.report(bob, post, reason, text).await, Err(ModerationError::ReasonRequired)));
    }
    assert!(matches!(m.report(bob, post, Some("Other"), Some("copied my song")).await, Ok(Filed::New(_))));
    assert!(matches!(m.report(bob, post, Some("Spam"), None).await, Ok(Filed::AlreadyOpen(_))), "one open report");
    assert_eq!(report_rows(&mut c), vec![("Other".to_owned(), "pending".to_owned())]);
    let cy = insert_user(&mut c, "Cy", "cyd");
    assert!(matches!(m.report(cy, post, Some("Hate speech"), None).await, Ok(Filed::New(_))), "another reporter");
    assert_eq!(report_rows(&mut c).len(), 2);
}

async fn missing_hidden_and_own_posts_cannot_be_reported(db: TestDb) {
    let m = Moderation::new(db.db.clone());
    let mut c = db.get().unwrap();
    let (ana, bob) = (insert_user(&mut c, "Ana", "ana"), insert_user(&mut c, "Bob", "bob"));
    let post = insert_post(&mut c, ana);
    let gone = values::PostId::generate();
    assert!(matches!(m.report(bob, gone, Some("Spam"), None).await, Err(ModerationError::PostNotFound)));
    assert!(matches!(m.report(ana, post, Some("Spam"), None).await, Err(ModerationError::OwnPost)));
    diesel::insert_into(blocks::table)
        .values((blocks::blocker_id.eq(ana), blocks::blocked_id.eq(bob), blocks::created_at.eq(db::time::now())))
        .execute(&mut c)
        .unwrap();
    assert!(matches!(m.report(bob, post, Some("Spam"), None).await, Err(ModerationError::PostNotFound)));
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
    let r1 = id(m.report(bob, spam, Some("Spam"), None).await.unwrap());
    tick();
    let r2 = id(m.report(cy, spam, Some("Harassment"), None).await.unwrap());
    tick();
    let r3 = id(m.report(bob, fine, Some("Other"), Some("I just dislike it")).await.unwrap());

    let ignored = db::write_tx(&mut c, |c| moderation::decide(c, &root, r3, Action::Ignore)).unwrap();
    tick();
    assert_eq!((ignored.post, ignored.resolved.clone()), (fine, vec![r3]));
    let deleted = db::write_tx(&mut c, |c| moderation::decide(c, &root, r1, Action::DeletePost)).unwrap();
    assert_eq!(deleted.post, spam);
    assert_eq!(deleted.resolved.len(), 2, "every open report on the post");
    assert!(deleted.resolved.contains(&r2));
    let again = db::write_tx(&mut c, |c| moderation::decide(c, &root, r2, Action::Ignore));
    assert!(matches!(again, Err(ModerationError::AlreadyResolved)));
    let missing = db::write_tx(&mut c, |c| moderation::decide(c, &root, values::ReportId::generate(), Action::Ignore));
    assert!(matches!(missing, Err(ModerationError::ReportNotFound)));

    let audit: Vec<(String, Option<UserId>)> = admin_actions::table
        .order(admin_actions::id)
        .select((admin_actions::action, admin_actions::admin_id))
        .load(&mut c)
        .unwrap();
    assert_eq!(audit, vec![("ignore".to_owned(), Some(root.id())), ("delete_post".to_owned(), Some(root.id()))]);

    // A new report after a decision is a new complaint.
    tick();
    assert!(matches!(m.report(bob, fine, Some("Spam"), None).await, Ok(Filed::New(_))));
    let all = m.complaints(&root, ComplaintFilter::All, None).await.unwrap();
    let statuses: Vec<Status> = all.iter().map(|x| x.status).collect();
    assert_eq!(statuses, [Status::Pending, Status::Ignored, Status::Deleted, Status::Deleted], "pending first");
    assert_eq!(all[1].audit.len(), 1);
    assert_eq!(all[1].audit[0].admin_login, "root");
    assert_eq!(all[1].description.as_deref(), Some("I just dislike it"));
    assert_eq!(all[1].reporter.as_ref().map(|u| u.login.as_str()), Some("bob"));
    assert_eq!(all[1].post_author.as_ref().map(|u| u.login.as_str()), Some("ana"));
    let pending = m.complaints(&root, ComplaintFilter::Pending, None).await.unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(m.complaints(&root, ComplaintFilter::Resolved, Some(2)).await.unwrap().len(), 2);

    // A reporter whose account is gone shows as unknown; the complaint stays.
    diesel::delete(users::table.filter(users::id.eq(bob))).execute(&mut c).unwrap();
    let after = m.complaints(&root, ComplaintFilter::Pending, None).await.unwrap();
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
    m.report(bob, post, Some("Spam"), None).await.unwrap();
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
        let filed = m.report(reporter, post, Some("Spam"), None).await.unwrap();
        if i % 3 == 0 {
            let Filed::New(r) = filed else { panic!("a new report") };
            db::write_tx(&mut c, |c| moderation::decide(c, &root, r, Action::Ignore)).unwrap();
        }
    }
    for (limit, filter) in [(1, ComplaintFilter::Resolved), (4, ComplaintFilter::Resolved), (12, ComplaintFilter::All)]
    {
        let (found, n) = counted(&mut c, |c| moderation::complaints(c, filter, limit).unwrap().len());
        let reads = if filter == ComplaintFilter::All { 5 } else { 4 };
        assert_eq!(
            (found, n),
            (usize::try_from(limit).unwrap(), reads),
            "{filter:?}, {limit}: reports, people, posts, audit"
        );
    }
    let statements = recorded(&mut c, |c| {
        moderation::complaints(c, ComplaintFilter::All, 20).unwrap();
        moderation::decide(c, &root, values::ReportId::generate(), Action::Ignore).ok();
        moderation::daily(c, 30, chrono::Utc::now()).unwrap();
    });
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
);
