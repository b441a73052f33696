//! Listening and blocking rules, on SQLite and PostgreSQL.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use db::diesel::prelude::*;
use db::schema::users;
use db::testing::{TestDb, insert_user};
use db::{DbConnection, Id};
use social_graph::GraphError;

/// (listeners, listened_to) as kept on the row.
fn counts(conn: &mut DbConnection, id: Id) -> (i64, i64) {
    users::table
        .filter(users::id.eq(id.0))
        .select((users::listeners_count, users::listened_to_count))
        .first(conn)
        .unwrap()
}

async fn listening_updates_both_counters_once(db: TestDb) {
    let mut c = db.get().unwrap();
    let (a, b) = (insert_user(&mut c, "A", "a"), insert_user(&mut c, "B", "b"));
    assert!(social_graph::listen(&mut c, a, b).unwrap());
    assert!(!social_graph::listen(&mut c, a, b).unwrap(), "listening twice changes nothing");
    assert_eq!(counts(&mut c, b), (1, 0));
    assert_eq!(counts(&mut c, a), (0, 1));
    assert_eq!(
        social_graph::listened_to(&mut c, a, 100, 0).unwrap().iter().map(|u| u.id).collect::<Vec<_>>(),
        vec![b.0]
    );
    assert!(social_graph::unlisten(&mut c, a, b).unwrap());
    assert!(!social_graph::unlisten(&mut c, a, b).unwrap(), "unlistening twice changes nothing");
    assert_eq!(counts(&mut c, b), (0, 0));
    assert_eq!(counts(&mut c, a), (0, 0));
}

async fn you_cannot_listen_to_yourself(db: TestDb) {
    let mut c = db.get().unwrap();
    let a = insert_user(&mut c, "A", "a");
    assert!(matches!(social_graph::listen(&mut c, a, a), Err(GraphError::SelfListen)));
    assert!(matches!(social_graph::block(&mut c, a, a), Err(GraphError::SelfBlock)));
}

async fn unknown_users_are_not_found(db: TestDb) {
    let mut c = db.get().unwrap();
    let a = insert_user(&mut c, "A", "a");
    let ghost = Id(12345);
    assert!(matches!(social_graph::listen(&mut c, a, ghost), Err(GraphError::UserNotFound)));
    assert!(matches!(social_graph::unlisten(&mut c, a, ghost), Err(GraphError::UserNotFound)));
    assert!(matches!(social_graph::block(&mut c, a, ghost), Err(GraphError::UserNotFound)));
    assert!(matches!(social_graph::unblock(&mut c, a, ghost), Err(GraphError::UserNotFound)));
    assert!(matches!(social_graph::has_blocked(&mut c, a, ghost), Err(GraphError::UserNotFound)));
}

async fn blocked_pair_cannot_listen_either_way(db: TestDb) {
    let mut c = db.get().unwrap();
    let (a, b) = (insert_user(&mut c, "A", "a"), insert_user(&mut c, "B", "b"));
    social_graph::block(&mut c, a, b).unwrap();
    assert!(matches!(social_graph::listen(&mut c, a, b), Err(GraphError::Blocked)));
    assert!(matches!(social_graph::listen(&mut c, b, a), Err(GraphError::Blocked)));
    assert!(social_graph::has_blocked(&mut c, a, b).unwrap());
    assert!(!social_graph::has_blocked(&mut c, b, a).unwrap());
    social_graph::unblock(&mut c, a, b).unwrap();
    assert!(social_graph::listen(&mut c, b, a).unwrap());
}

async fn blocking_ends_listening_both_ways_with_counters(db: TestDb) {
    let mut c = db.get().unwrap();
    let (a, b, x) = (insert_user(&mut c, "A", "a"), insert_user(&mut c, "B", "b"), insert_user(&mut c, "X", "x"));
    social_graph::listen(&mut c, a, b).unwrap();
    social_graph::listen(&mut c, b, a).unwrap();
    social_graph::listen(&mut c, x, b).unwrap();
    assert_eq!(counts(&mut c, b), (2, 1));
    assert!(social_graph::block(&mut c, a, b).unwrap());
    assert!(!social_graph::block(&mut c, a, b).unwrap(), "blocking twice changes nothing");
    assert_eq!(counts(&mut c, a), (0, 0));
    assert_eq!(counts(&mut c, b), (1, 0), "x still listens to b");
    assert!(social_graph::listened_to(&mut c, a, 100, 0).unwrap().is_empty());
    let blocked = social_graph::blocked_users(&mut c, a).unwrap();
    assert_eq!((blocked.len(), blocked[0].login.as_str()), (1, "b"));
    assert_eq!(social_graph::hidden_authors(&mut c, a).unwrap().into_iter().collect::<Vec<_>>(), vec![b.0]);
}

async fn listening_among_answers_a_page_in_one_go(db: TestDb) {
    let mut c = db.get().unwrap();
    let me = insert_user(&mut c, "Me", "me");
    let people: Vec<Id> = (0..5).map(|i| insert_user(&mut c, "P", &format!("p{i}"))).collect();
    social_graph::listen(&mut c, me, people[1]).unwrap();
    social_graph::listen(&mut c, me, people[3]).unwrap();
    let ids: Vec<i64> = people.iter().map(|p| p.0).collect();
    let set = social_graph::listening_among(&mut c, me, &ids).unwrap();
    assert_eq!(set.len(), 2);
    assert!(set.contains(&people[1].0) && set.contains(&people[3].0));
    assert!(social_graph::listening_among(&mut c, me, &[]).unwrap().is_empty());
}

async fn detaching_a_user_fixes_everyone_elses_counters(db: TestDb) {
    let mut c = db.get().unwrap();
    let (a, b, x) = (insert_user(&mut c, "A", "a"), insert_user(&mut c, "B", "b"), insert_user(&mut c, "X", "x"));
    social_graph::listen(&mut c, a, b).unwrap();
    social_graph::listen(&mut c, x, a).unwrap();
    social_graph::detach_user(&mut c, a).unwrap();
    diesel::delete(users::table.filter(users::id.eq(a.0))).execute(&mut *c).unwrap();
    assert_eq!(counts(&mut c, b), (0, 0));
    assert_eq!(counts(&mut c, x), (0, 0));
}

db::both_backends!(
    listening_updates_both_counters_once,
    you_cannot_listen_to_yourself,
    unknown_users_are_not_found,
    blocked_pair_cannot_listen_either_way,
    blocking_ends_listening_both_ways_with_counters,
    listening_among_answers_a_page_in_one_go,
    detaching_a_user_fixes_everyone_elses_counters,
);
