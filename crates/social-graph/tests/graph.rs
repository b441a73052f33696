//! Listening and blocking rules, on SQLite and PostgreSQL.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use db::diesel::prelude::*;
use db::schema::users;
use db::{DbConnection, PageRule};
use social_graph::{GraphError, fragments};
use test_support::statements::{assert_index_backed, counted, recorded};
use test_support::{TestDb, insert_user};
use values::UserId;

const ALL: db::Page = db::Page { limit: 100, offset: 0 };

/// (listeners, listened_to) as kept on the row.
fn counts(conn: &mut DbConnection, id: UserId) -> (i64, i64) {
    users::table
        .filter(users::id.eq(id))
        .select((users::listeners_count, users::listened_to_count))
        .first(conn)
        .unwrap()
}

async fn listening_updates_both_counters_once(db: TestDb) {
    let mut c = db.get().unwrap();
    let (a, b) = (insert_user(&mut c, "A", "a"), insert_user(&mut c, "B", "b"));
    assert!(db.write_blocking(|c| social_graph::listen(c, a, b)).unwrap());
    assert!(!db.write_blocking(|c| social_graph::listen(c, a, b)).unwrap(), "listening twice changes nothing");
    assert_eq!(counts(&mut c, b), (1, 0));
    assert_eq!(counts(&mut c, a), (0, 1));
    assert_eq!(social_graph::listened_to(&mut c, a, ALL).unwrap().iter().map(|u| u.id).collect::<Vec<_>>(), vec![b]);
    assert!(db.write_blocking(|c| social_graph::unlisten(c, a, b)).unwrap());
    assert!(!db.write_blocking(|c| social_graph::unlisten(c, a, b)).unwrap(), "unlistening twice changes nothing");
    assert_eq!(counts(&mut c, b), (0, 0));
    assert_eq!(counts(&mut c, a), (0, 0));
}

async fn you_cannot_listen_to_yourself(db: TestDb) {
    let mut c = db.get().unwrap();
    let a = insert_user(&mut c, "A", "a");
    assert!(matches!(db.write_blocking(|c| social_graph::listen(c, a, a)), Err(GraphError::SelfListen)));
    assert!(matches!(db.write_blocking(|c| social_graph::block(c, a, a)), Err(GraphError::SelfBlock)));
}

async fn unknown_users_are_not_found(db: TestDb) {
    let mut c = db.get().unwrap();
    let a = insert_user(&mut c, "A", "a");
    let ghost = UserId::try_from(12345).unwrap();
    assert!(matches!(db.write_blocking(|c| social_graph::listen(c, a, ghost)), Err(GraphError::UserNotFound)));
    assert!(matches!(db.write_blocking(|c| social_graph::unlisten(c, a, ghost)), Err(GraphError::UserNotFound)));
    assert!(matches!(db.write_blocking(|c| social_graph::block(c, a, ghost)), Err(GraphError::UserNotFound)));
    assert!(matches!(db.write_blocking(|c| social_graph::unblock(c, a, ghost)), Err(GraphError::UserNotFound)));
    assert!(matches!(social_graph::has_blocked(&mut c, a, ghost), Err(GraphError::UserNotFound)));
}

async fn blocked_pair_cannot_listen_either_way(db: TestDb) {
    let mut c = db.get().unwrap();
    let (a, b) = (insert_user(&mut c, "A", "a"), insert_user(&mut c, "B", "b"));
    db.write_blocking(|c| social_graph::block(c, a, b)).unwrap();
    assert!(matches!(db.write_blocking(|c| social_graph::listen(c, a, b)), Err(GraphError::Blocked)));
    assert!(matches!(db.write_blocking(|c| social_graph::listen(c, b, a)), Err(GraphError::Blocked)));
    assert!(social_graph::has_blocked(&mut c, a, b).unwrap());
    assert!(!social_graph::has_blocked(&mut c, b, a).unwrap());
    db.write_blocking(|c| social_graph::unblock(c, a, b)).unwrap();
    assert!(db.write_blocking(|c| social_graph::listen(c, b, a)).unwrap());
}

async fn blocking_ends_listening_both_ways_with_counters(db: TestDb) {
    let mut c = db.get().unwrap();
    let (a, b, x) = (insert_user(&mut c, "A", "a"), insert_user(&mut c, "B", "b"), insert_user(&mut c, "X", "x"));
    db.write_blocking(|c| social_graph::listen(c, a, b)).unwrap();
    db.write_blocking(|c| social_graph::listen(c, b, a)).unwrap();
    db.write_blocking(|c| social_graph::listen(c, x, b)).unwrap();
    assert_eq!(counts(&mut c, b), (2, 1));
    assert!(db.write_blocking(|c| social_graph::block(c, a, b)).unwrap());
    assert!(!db.write_blocking(|c| social_graph::block(c, a, b)).unwrap(), "blocking twice changes nothing");
    assert_eq!(counts(&mut c, a), (0, 0));
    assert_eq!(counts(&mut c, b), (1, 0), "x still listens to b");
    assert!(social_graph::listened_to(&mut c, a, ALL).unwrap().is_empty());
    let blocked = social_graph::blocked_users(&mut c, a).unwrap();
    assert_eq!((blocked.len(), blocked[0].login.as_str()), (1, "b"));
    let hidden: Vec<UserId> =
        users::table.filter(users::id.eq_any(fragments::blocked_by(a))).select(users::id).load(&mut *c).unwrap();
    assert_eq!(hidden, vec![b]);
}

async fn detaching_a_user_fixes_everyone_elses_counters(db: TestDb) {
    let mut c = db.get().unwrap();
    let (a, b, x) = (insert_user(&mut c, "A", "a"), insert_user(&mut c, "B", "b"), insert_user(&mut c, "X", "x"));
    db.write_blocking(|c| social_graph::listen(c, a, b)).unwrap();
    db.write_blocking(|c| social_graph::listen(c, x, a)).unwrap();
    social_graph::release_account(&mut c, a).unwrap();
    diesel::delete(users::table.filter(users::id.eq(a))).execute(&mut *c).unwrap();
    assert_eq!(counts(&mut c, b), (0, 0));
    assert_eq!(counts(&mut c, x), (0, 0));
}

/// The rules as subqueries: a query of another domain hides a blocked pair and keeps the people
/// one listens to without loading any ids.
async fn fragments_compose_into_other_queries(db: TestDb) {
    let mut c = db.get().unwrap();
    let (me, blocked, blocker, heard, other) = (
        insert_user(&mut c, "Me", "me"),
        insert_user(&mut c, "Blocked", "blocked"),
        insert_user(&mut c, "Blocker", "blocker"),
        insert_user(&mut c, "Heard", "heard"),
        insert_user(&mut c, "Other", "other"),
    );
    db.write_blocking(|c| social_graph::block(c, me, blocked)).unwrap();
    db.write_blocking(|c| social_graph::block(c, blocker, me)).unwrap();
    db.write_blocking(|c| social_graph::listen(c, me, heard)).unwrap();
    let mut visible: Vec<UserId> = users::table
        .filter(fragments::not_blocked(users::id, me))
        .filter(users::id.ne(me))
        .select(users::id)
        .load(&mut *c)
        .unwrap();
    visible.sort();
    let mut expected = vec![heard, other];
    expected.sort();
    assert_eq!(visible, expected, "neither side of a block pair sees the other");
    let among = social_graph::blocked_among(&mut c, me, &[blocked, blocker, heard, other]).unwrap();
    assert_eq!(among, [blocked, blocker].into_iter().collect(), "the same pairs, among people already found");
}

/// Domain writes run inside their caller's transaction: a use case that listens and then fails
/// leaves no listening row and no counter change behind.
async fn a_failed_use_case_leaves_nothing_of_its_first_write(db: TestDb) {
    let mut c = db.get().unwrap();
    let (a, b) = (insert_user(&mut c, "A", "a"), insert_user(&mut c, "B", "b"));
    let result: Result<(), GraphError> = db.write_blocking(|tx| {
        assert!(social_graph::listen(tx, a, b)?, "the first write happened inside the transaction");
        social_graph::block(tx, a, a)?; // the second fails: one cannot block oneself
        Ok(())
    });
    assert!(matches!(result, Err(GraphError::SelfBlock)));
    assert_eq!(counts(&mut c, b), (0, 0));
    assert_eq!(counts(&mut c, a), (0, 0));
    assert!(social_graph::listened_to(&mut c, a, ALL).unwrap().is_empty());
}

/// The listened-to list pages by the spec's limit and offset, clamped by its rule.
async fn the_listened_list_pages(db: TestDb) {
    let mut c = db.get().unwrap();
    let me = insert_user(&mut c, "Me", "me");
    for i in 0..5 {
        let p = insert_user(&mut c, "P", &format!("p{i}"));
        db.write_blocking(|c| social_graph::listen(c, me, p)).unwrap();
    }
    let rule = PageRule::new(2, 3);
    assert_eq!(social_graph::listened_to(&mut c, me, rule.page(None, None)).unwrap().len(), 2);
    assert_eq!(social_graph::listened_to(&mut c, me, rule.page(Some(100), None)).unwrap().len(), 3);
    assert_eq!(social_graph::listened_to(&mut c, me, rule.page(Some(3), Some(3))).unwrap().len(), 2);
    assert!(social_graph::listened_to(&mut c, me, rule.page(Some(3), Some(1_000_000))).unwrap().is_empty());
}

/// A person's listeners and the people they listen to, newest first, in pages that go on from
/// where the last ended; nobody suspended or in a block pair with the viewer; a hidden or
/// unknown person not found. Two probes and one index walk a page, whatever its size.
async fn lists_of_people_page_by_cursor(db: TestDb) {
    use social_graph::{ListenCursor, Side};
    let mut c = db.get().unwrap();
    let ana = insert_user(&mut c, "Ana", "ana");
    let fans: Vec<UserId> = (0..5).map(|i| insert_user(&mut c, "Fan", &format!("fan{i}"))).collect();
    for &fan in &fans {
        db.write_blocking(|c| social_graph::listen(c, fan, ana)).unwrap();
    }
    db.write_blocking(|c| social_graph::listen(c, ana, fans[0])).unwrap();
    let ids = |people: &[db::model::UserCard]| people.iter().map(|u| u.id).collect::<Vec<_>>();

    let (first, next) = social_graph::people_of(&mut c, ana, Side::Listeners, None, None, 2).unwrap();
    assert_eq!(ids(&first), vec![fans[4], fans[3]], "the most recent first");
    let next = next.expect("more to come");
    assert_eq!(ListenCursor::decode(&next.encode()), Some(next), "the cursor reads back");
    let (second, next) = social_graph::people_of(&mut c, ana, Side::Listeners, None, Some(next), 2).unwrap();
    assert_eq!(ids(&second), vec![fans[2], fans[1]]);
    let (third, end) = social_graph::people_of(&mut c, ana, Side::Listeners, None, next, 2).unwrap();
    assert_eq!((ids(&third), end), (vec![fans[0]], None));
    let (theirs, _) = social_graph::people_of(&mut c, ana, Side::ListenedTo, None, None, 10).unwrap();
    assert_eq!(ids(&theirs), vec![fans[0]]);
    assert_eq!(ListenCursor::decode("yesterday"), None);
    assert_eq!(ListenCursor::decode("12-x"), None);

    // Blocked by the viewer, or blocking her: not listed to that viewer; to others, still.
    let viewer = fans[1];
    db.write_blocking(|c| social_graph::block(c, viewer, fans[3])).unwrap();
    let (seen, _) = social_graph::people_of(&mut c, ana, Side::Listeners, Some(viewer), None, 10).unwrap();
    assert_eq!(ids(&seen), vec![fans[4], fans[2], fans[1], fans[0]]);
    // The block ended fans[3]'s listening to nobody here: ana still counts them for others.
    let (all, _) = social_graph::people_of(&mut c, ana, Side::Listeners, None, None, 10).unwrap();
    assert_eq!(all.len(), 5);
    // A viewer ana blocked does not see her lists at all.
    db.write_blocking(|c| social_graph::block(c, ana, fans[2])).unwrap();
    assert!(matches!(
        social_graph::people_of(&mut c, ana, Side::Listeners, Some(fans[2]), None, 10),
        Err(GraphError::UserNotFound)
    ));
    let ghost = UserId::try_from(12345).unwrap();
    assert!(matches!(
        social_graph::people_of(&mut c, ghost, Side::Listeners, None, None, 10),
        Err(GraphError::UserNotFound)
    ));

    let (_, statements) =
        counted(&mut c, |c| social_graph::people_of(c, ana, Side::Listeners, Some(viewer), None, 10).unwrap());
    assert_eq!(statements, 4, "probes for the person, their suspension and a block pair; one walk");
    let walked = recorded(&mut c, |c| {
        social_graph::people_of(c, ana, Side::Listeners, Some(viewer), next, 10).unwrap();
        social_graph::people_of(c, ana, Side::ListenedTo, None, None, 10).unwrap();
    });
    assert_index_backed(&mut c, &walked);
}

test_support::both_backends!(
    fragments_compose_into_other_queries,
    a_failed_use_case_leaves_nothing_of_its_first_write,
    the_listened_list_pages,
    lists_of_people_page_by_cursor,
    listening_updates_both_counters_once,
    you_cannot_listen_to_yourself,
    unknown_users_are_not_found,
    blocked_pair_cannot_listen_either_way,
    blocking_ends_listening_both_ways_with_counters,
    detaching_a_user_fixes_everyone_elses_counters,
);
