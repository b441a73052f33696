//! Use cases that span domains, against a real database and a real storage folder, on SQLite
//! and PostgreSQL.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use app::{App, AppError};
use db::DbConnection;
use db::diesel::prelude::*;
use db::schema::{comments, listens, sessions, users};
use profiles::Profiles;
use test_support::{TestDb, insert_user};
use values::{SessionId, UserId};

struct Harness {
    app: App,
    posts: posts::Posts,
    profiles: Profiles,
    media: tempfile::TempDir,
    db: TestDb,
}

fn harness(db: TestDb) -> Harness {
    let media = tempfile::tempdir().unwrap();
    let storage = storage::Storage::local(media.path()).unwrap();
    Harness {
        app: App::new(db.db.clone(), storage.clone()),
        posts: posts::Posts::new(db.db.clone(), storage.clone(), None),
        profiles: Profiles::new(db.db.clone(), storage),
        media,
        db,
    }
}

fn user(h: &Harness, name: &str, login: &str) -> UserId {
    insert_user(&mut h.db.get().unwrap(), name, login)
}

fn counts(conn: &mut DbConnection, id: UserId) -> (i64, i64) {
    users::table
        .filter(users::id.eq(id))
        .select((users::listeners_count, users::listened_to_count))
        .first(conn)
        .unwrap()
}

fn stored_files(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| if e.path().is_dir() { stored_files(&e.path()) } else { 1 }).sum())
        .unwrap_or(0)
}

async fn deleting_an_account_cleans_up_every_domain(db: TestDb) {
    let h = harness(db);
    let (gone, stays, fan) = (user(&h, "Gone", "gone"), user(&h, "Stays", "stays"), user(&h, "Fan", "fan"));
    {
        let mut c = h.db.get().unwrap();
        h.db.write_blocking(|c| social_graph::listen(c, gone, stays)).unwrap();
        h.db.write_blocking(|c| social_graph::listen(c, fan, gone)).unwrap();
        h.db.write_blocking(|c| social_graph::listen(c, fan, stays)).unwrap();
        diesel::insert_into(sessions::table)
            .values((
                sessions::id.eq(SessionId::generate()),
                sessions::user_id.eq(gone),
                sessions::created_at.eq(db::time::now()),
                sessions::expires_at.eq(db::time::now() + chrono_hours(1)),
            ))
            .execute(&mut *c)
            .unwrap();
    }
    let png = test_support::media::png(2, None);
    h.profiles.replace_avatar(gone, png).await.unwrap();
    assert_eq!(stored_files(h.media.path()), 1);

    h.app.delete_account(gone).await.unwrap();

    let mut c = h.db.get().unwrap();
    assert_eq!(counts(&mut c, stays), (1, 0), "stays lost the listener that went, kept the fan");
    assert_eq!(counts(&mut c, fan), (0, 1), "fan listens to one person fewer");
    let left: i64 = users::table.filter(users::id.eq(gone)).count().get_result(&mut *c).unwrap();
    let rows: i64 = listens::table
        .filter(listens::listener_id.eq(gone).or(listens::listened_id.eq(gone)))
        .count()
        .get_result(&mut *c)
        .unwrap();
    let live: i64 = sessions::table.filter(sessions::user_id.eq(gone)).count().get_result(&mut *c).unwrap();
    assert_eq!((left, rows, live), (0, 0, 0), "the row, its listening and its sessions are gone");
    assert_eq!(stored_files(h.media.path()), 0, "the avatar left storage after the commit");
    h.app.delete_account(gone).await.expect("deleting an account that is gone changes nothing");
}

fn chrono_hours(h: i64) -> chrono::Duration {
    chrono::Duration::hours(h)
}

/// Two domain writes in one use case: when the second fails, nothing of the first remains.
async fn a_use_case_failing_halfway_leaves_nothing(db: TestDb) {
    let h = harness(db);
    let (a, b) = (user(&h, "A", "a"), user(&h, "B", "b"));
    let mut c = h.db.get().unwrap();
    let result: Result<(), AppError> = h.db.write_blocking(|tx| {
        social_graph::listen(tx, a, b)?; // social-graph writes a row and two counters...
        delete_then_fail(tx, a)?; // ...then profiles refuses, and the whole use case with it
        Ok(())
    });
    assert!(matches!(result, Err(AppError::Profile(profiles::ProfileError::NotFound))), "{result:?}");
    assert_eq!(counts(&mut c, a), (0, 0));
    assert_eq!(counts(&mut c, b), (0, 0));
    let rows: i64 = listens::table.count().get_result(&mut *c).unwrap();
    assert_eq!(rows, 0);
}

/// A profiles write that fails: it deletes the user's row, then finds there is no such profile.
fn delete_then_fail(conn: &mut DbConnection, who: UserId) -> Result<(), profiles::ProfileError> {
    diesel::delete(users::table.filter(users::id.eq(who))).execute(conn)?;
    Err(profiles::ProfileError::NotFound)
}

fn logins(hits: &[app::SearchHit]) -> Vec<&str> {
    hits.iter().map(|h| h.user.login.as_str()).collect()
}

async fn search_is_case_insensitive_over_name_and_login(db: TestDb) {
    let h = harness(db);
    let me = user(&h, "Searcher", "me");
    user(&h, "Maria Callas", "diva");
    user(&h, "Callum", "callum_beats");
    user(&h, "Bob", "bobcall");
    user(&h, "Zed", "zed");
    let hits = h.app.search_people(&h.posts, Some(me), "  CALL ", Some(20)).await.unwrap();
    assert_eq!(hits.len(), 3, "{:?}", logins(&hits));
    assert_eq!(hits[0].user.login, "callum_beats", "a login prefix ranks first");
    let hits = h.app.search_people(&h.posts, Some(me), "ca", Some(20)).await.unwrap();
    assert_eq!(logins(&hits), vec!["callum_beats"], "short queries match prefixes of login or name");
    let hits = h.app.search_people(&h.posts, Some(me), "m", Some(20)).await.unwrap();
    assert_eq!(logins(&hits), vec!["diva"], "the searcher is never a result");
    assert!(h.app.search_people(&h.posts, Some(me), "nothing-like-this", Some(20)).await.unwrap().is_empty());
    let all = h.app.search_people(&h.posts, None, "", Some(20)).await.unwrap();
    assert_eq!(all.len(), 5, "an empty query lists people");
    assert_eq!(h.app.search_people(&h.posts, None, "", Some(2)).await.unwrap().len(), 2, "pages are limited");
    // Whom the searcher listens to, as held for their Listened to: a listen shows at once.
    h.db.db.changes().listening(true);
    let active =
        |hits: &[app::SearchHit]| hits.iter().filter(|h| h.active).map(|h| h.user.login.clone()).collect::<Vec<_>>();
    assert_eq!(active(&h.app.search_people(&h.posts, Some(me), "call", Some(20)).await.unwrap()), Vec::<String>::new());
    let diva = hits_of(&h, "diva").await;
    h.db.write_blocking(|c| social_graph::listen(c, me, diva)).unwrap();
    assert_eq!(active(&h.app.search_people(&h.posts, Some(me), "call", Some(20)).await.unwrap()), ["diva"]);
    h.db.write_blocking(|c| social_graph::unlisten(c, me, diva)).unwrap();
    assert_eq!(active(&h.app.search_people(&h.posts, Some(me), "call", Some(20)).await.unwrap()), Vec::<String>::new());
}

/// The id of the one person found by `login`.
async fn hits_of(h: &Harness, login: &str) -> UserId {
    let hits = h.app.search_people(&h.posts, None, login, Some(20)).await.unwrap();
    hits.iter().find(|hit| hit.user.login == login).map(|hit| hit.user.id).unwrap()
}

async fn search_treats_special_characters_as_text(db: TestDb) {
    let h = harness(db);
    user(&h, "100% Pure", "pure");
    user(&h, "Under_score", "under");
    user(&h, "Quote \"Q\"", "quote");
    assert_eq!(logins(&h.app.search_people(&h.posts, None, "0% p", Some(20)).await.unwrap()), vec!["pure"]);
    assert_eq!(logins(&h.app.search_people(&h.posts, None, "%", Some(20)).await.unwrap()), Vec::<&str>::new());
    assert_eq!(logins(&h.app.search_people(&h.posts, None, "r_s", Some(20)).await.unwrap()), vec!["under"]);
    assert_eq!(logins(&h.app.search_people(&h.posts, None, "\"q\"", Some(20)).await.unwrap()), vec!["quote"]);
    for q in ["'", "\\", "*", "OR", "NEAR(", "a\"b"] {
        assert!(h.app.search_people(&h.posts, None, q, Some(20)).await.is_ok(), "{q:?}");
    }
}

async fn search_marks_people_the_searcher_listens_to(db: TestDb) {
    let h = harness(db);
    let (me, a, b) = (user(&h, "Me", "me"), user(&h, "Anna", "anna"), user(&h, "Annabel", "annabel"));
    h.db.write_blocking(|c| social_graph::listen(c, me, b)).unwrap();
    let hits = h.app.search_people(&h.posts, Some(me), "anna", Some(20)).await.unwrap();
    let active: Vec<(UserId, bool)> = hits.iter().map(|h| (h.user.id, h.active)).collect();
    assert!(active.contains(&(a, false)) && active.contains(&(b, true)));
    assert!(h.app.search_people(&h.posts, None, "anna", Some(20)).await.unwrap().iter().all(|h| !h.active));
}

async fn renamed_people_are_found_by_their_new_name(db: TestDb) {
    let h = harness(db);
    let a = user(&h, "Old Name", "oldlogin");
    h.profiles
        .update(
            a,
            profiles::ProfilePatch { name: Some("Fresh".into()), login: Some("newlogin".into()), ..Default::default() },
        )
        .await
        .unwrap();
    assert!(h.app.search_people(&h.posts, None, "old", Some(20)).await.unwrap().is_empty());
    assert_eq!(logins(&h.app.search_people(&h.posts, None, "fresh", Some(20)).await.unwrap()), vec!["newlogin"]);
    assert_eq!(logins(&h.app.search_people(&h.posts, None, "newl", Some(20)).await.unwrap()), vec!["newlogin"]);
}

/// A comment's notifications (to the post's author, to whoever it mentions) name it, so they go
/// when the comment goes.
async fn a_comments_notifications_go_with_it(db: TestDb) {
    let h = harness(db);
    let (ana, bob, cy) = (user(&h, "Ana", "ana"), user(&h, "Bob", "bob"), user(&h, "Cy", "cyd"));
    let post = test_support::insert_post(&mut h.db.get().unwrap(), ana);
    let comment = h.app.comment(&h.posts, bob, post, "nice @cyd", None).await.unwrap();
    let mut c = h.db.get().unwrap();
    let quoting = |c: &mut DbConnection| -> Vec<UserId> {
        use db::schema::notifications as n;
        n::table.filter(n::comment_id.eq(comment.id)).order(n::recipient_id).select(n::recipient_id).load(c).unwrap()
    };
    let mut told = vec![ana, cy];
    told.sort();
    assert_eq!(quoting(&mut c), told);
    diesel::delete(comments::table.filter(comments::id.eq(comment.id))).execute(&mut c).unwrap();
    assert!(quoting(&mut c).is_empty());
}

test_support::both_backends!(
    a_comments_notifications_go_with_it,
    deleting_an_account_cleans_up_every_domain,
    a_use_case_failing_halfway_leaves_nothing,
    search_is_case_insensitive_over_name_and_login,
    search_treats_special_characters_as_text,
    search_marks_people_the_searcher_listens_to,
    renamed_people_are_found_by_their_new_name,
);
