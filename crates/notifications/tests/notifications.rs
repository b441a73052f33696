//! Notification rules on SQLite and PostgreSQL, and live delivery through PostgreSQL.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use db::diesel::prelude::*;
use db::schema::{blocks, notifications as table, posts, sessions, users};
use db::{Db, DbConnection, DbError, Page, Told, Topic};
use notifications::{Event, Heard, Kind, NotificationError, Notifications};
use test_support::statements::{assert_index_backed, counted, recorded};
use test_support::{TestDb, insert_post, insert_user};
use values::{PostId, SessionId, UserId};

const FIRST: Page = Page { limit: 20, offset: 0 };

fn event(kind: Kind, sender: UserId, recipient: UserId, post: Option<PostId>) -> Event {
    let excerpt = matches!(kind, Kind::Comment | Kind::Mention).then(|| "nice riff".to_owned());
    Event { recipient, sender, kind, post, comment: None, excerpt }
}

/// Records `events` in one transaction, as a use case does.
fn record(db: &Db, events: &[Event]) -> Vec<UserId> {
    db.write_blocking(|c| notifications::record(c, events)).unwrap()
}

fn rows(c: &mut DbConnection, recipient: UserId) -> Vec<(String, UserId)> {
    table::table
        .filter(table::recipient_id.eq(recipient))
        .order(table::id)
        .select((table::kind, table::sender_id))
        .load(c)
        .unwrap()
}

fn service(db: &TestDb) -> Notifications {
    Notifications::new(db.db.clone())
}

async fn each_kind_is_written_once_and_never_for_oneself(db: TestDb) {
    let mut c = db.get().unwrap();
    let (ana, bob) = (insert_user(&mut c, "Ana", "ana"), insert_user(&mut c, "Bob", "bob"));
    let post = insert_post(&mut c, ana);
    for kind in [Kind::Comment, Kind::Mention, Kind::Listening, Kind::Like] {
        // Ids order by the millisecond: rows made within one have no order among them.
        std::thread::sleep(Duration::from_millis(2));
        let on = (kind != Kind::Listening).then_some(post);
        assert_eq!(record(&db, &[event(kind, bob, ana, on)]), vec![ana], "{kind:?}");
        assert!(record(&db, &[event(kind, ana, ana, on)]).is_empty(), "{kind:?} of oneself");
    }
    let kinds: Vec<String> = rows(&mut c, ana).into_iter().map(|(k, _)| k).collect();
    assert_eq!(kinds, ["comment", "mention", "listening", "other"]);

    let listed = service(&db).list(ana, FIRST).await.unwrap();
    assert_eq!(listed.len(), 4);
    assert_eq!(listed[0].kind, Kind::Like, "newest first");
    assert_eq!(listed[0].message(), "liked your post");
    assert_eq!(listed[0].sender.login, "bob");
    assert_eq!(listed[3].message(), "commented on your post: \u{201c}nice riff\u{201d}");
    assert_eq!(listed[3].post, Some(post));
    assert!(listed.iter().all(|n| !n.read));
}

async fn a_like_or_a_listen_given_again_does_not_notify_twice(db: TestDb) {
    let mut c = db.get().unwrap();
    let (ana, bob) = (insert_user(&mut c, "Ana", "ana"), insert_user(&mut c, "Bob", "bob"));
    let (first, second) = (insert_post(&mut c, ana), insert_post(&mut c, ana));
    for _ in 0..3 {
        record(&db, &[event(Kind::Like, bob, ana, Some(first))]);
        record(&db, &[event(Kind::Listening, bob, ana, None)]);
    }
    assert!(record(&db, &[event(Kind::Like, bob, ana, Some(first))]).is_empty(), "nobody to tell");
    record(&db, &[event(Kind::Like, bob, ana, Some(second))]);
    assert_eq!(rows(&mut c, ana).len(), 3, "a like per post and one listen");
    // Comments are not deduplicated: each one is news.
    record(&db, &[event(Kind::Comment, bob, ana, Some(first))]);
    record(&db, &[event(Kind::Comment, bob, ana, Some(first))]);
    assert_eq!(rows(&mut c, ana).len(), 5);
}

async fn a_post_author_mentioned_in_a_comment_is_told_once(db: TestDb) {
    let mut c = db.get().unwrap();
    let (ana, bob, cy) =
        (insert_user(&mut c, "Ana", "ana"), insert_user(&mut c, "Bob", "bob"), insert_user(&mut c, "Cy", "cyd"));
    let post = insert_post(&mut c, ana);
    let told = record(
        &db,
        &[
            event(Kind::Comment, bob, ana, Some(post)),
            event(Kind::Mention, bob, ana, Some(post)),
            event(Kind::Mention, bob, cy, Some(post)),
        ],
    );
    assert_eq!(told, vec![ana, cy]);
    assert_eq!(rows(&mut c, ana), vec![("mention".to_owned(), bob)]);
    assert_eq!(rows(&mut c, cy), vec![("mention".to_owned(), bob)]);
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

async fn nothing_passes_between_a_block_pair(db: TestDb) {
    let mut c = db.get().unwrap();
    let (ana, bob, cy) =
        (insert_user(&mut c, "Ana", "ana"), insert_user(&mut c, "Bob", "bob"), insert_user(&mut c, "Cy", "cyd"));
    let post = insert_post(&mut c, ana);
    record(&db, &[event(Kind::Comment, cy, ana, Some(post))]);
    let notifications = service(&db);
    assert_eq!(notifications.unread_count(ana).await.unwrap(), 1);

    block(&mut c, ana, bob);
    block(&mut c, cy, ana);
    assert!(record(&db, &[event(Kind::Like, bob, ana, Some(post))]).is_empty(), "ana blocked bob");
    assert!(record(&db, &[event(Kind::Listening, ana, bob, None)]).is_empty(), "and the other way");
    assert!(record(&db, &[event(Kind::Mention, cy, ana, Some(post))]).is_empty(), "cy blocked ana");
    assert_eq!(rows(&mut c, ana).len(), 1, "only what came before the blocks");
    assert!(notifications.list(ana, FIRST).await.unwrap().is_empty(), "and that is hidden now");
    assert_eq!(notifications.unread_count(ana).await.unwrap(), 0);
}

async fn only_the_owner_reads_and_marks_their_notifications(db: TestDb) {
    let mut c = db.get().unwrap();
    let (ana, bob) = (insert_user(&mut c, "Ana", "ana"), insert_user(&mut c, "Bob", "bob"));
    let (p1, p2) = (insert_post(&mut c, ana), insert_post(&mut c, ana));
    record(&db, &[event(Kind::Like, bob, ana, Some(p1))]);
    record(&db, &[event(Kind::Like, bob, ana, Some(p2))]);
    record(&db, &[event(Kind::Listening, ana, bob, None)]);
    let n = service(&db);
    assert_eq!((n.unread_count(ana).await.unwrap(), n.unread_count(bob).await.unwrap()), (2, 1));
    let anas = n.list(ana, FIRST).await.unwrap();
    assert!(matches!(n.mark_read(bob, anas[0].id).await, Err(NotificationError::NotFound)), "not bob's");
    n.mark_read(ana, anas[0].id).await.unwrap();
    n.mark_read(ana, anas[0].id).await.unwrap();
    assert_eq!(n.unread_count(ana).await.unwrap(), 1);
    assert!(n.list(ana, FIRST).await.unwrap()[0].read);
    assert!(n.list(bob, FIRST).await.unwrap().iter().all(|x| x.sender.id == ana), "bob sees only his own");
    n.mark_all_read(ana).await.unwrap();
    assert_eq!((n.unread_count(ana).await.unwrap(), n.unread_count(bob).await.unwrap()), (0, 1));
}

async fn a_deleted_post_or_account_takes_its_notifications(db: TestDb) {
    let mut c = db.get().unwrap();
    let (ana, bob, cy) =
        (insert_user(&mut c, "Ana", "ana"), insert_user(&mut c, "Bob", "bob"), insert_user(&mut c, "Cy", "cyd"));
    let (p1, p2) = (insert_post(&mut c, ana), insert_post(&mut c, ana));
    for e in [
        event(Kind::Like, bob, ana, Some(p1)),
        event(Kind::Like, cy, ana, Some(p2)),
        event(Kind::Listening, cy, ana, None),
    ] {
        // Ids order by the millisecond: rows made within one have no order among them.
        std::thread::sleep(Duration::from_millis(2));
        record(&db, &[e]);
    }
    diesel::delete(posts::table.filter(posts::id.eq(p1))).execute(&mut c).unwrap();
    assert_eq!(rows(&mut c, ana), vec![("other".to_owned(), cy), ("listening".to_owned(), cy)]);
    diesel::delete(users::table.filter(users::id.eq(cy))).execute(&mut c).unwrap();
    assert!(rows(&mut c, ana).is_empty());
}

async fn a_page_is_one_statement_and_every_statement_is_index_backed(db: TestDb) {
    let mut c = db.get().unwrap();
    let ana = insert_user(&mut c, "Ana", "ana");
    let post = insert_post(&mut c, ana);
    let mut people = Vec::new();
    for i in 0..25 {
        let p = insert_user(&mut c, &format!("P{i}"), &format!("person{i}"));
        record(&db, &[event(Kind::Comment, p, ana, Some(post))]);
        people.push(p);
    }
    block(&mut c, ana, people[0]);
    for limit in [1, 20] {
        let (page, statements) = counted(&mut c, |c| notifications_page(c, ana, Page { limit, offset: 0 }).len());
        assert_eq!((page, statements), (usize::try_from(limit).unwrap(), 1), "{limit} a page");
    }
    let statements = db
        .write_blocking(|c| {
            Ok::<_, DbError>(recorded(c, |c| {
                notifications_page(c, ana, FIRST);
                notifications::record(c, &[event(Kind::Like, people[1], ana, Some(post))]).unwrap();
                notifications::record(c, &[event(Kind::Listening, people[1], ana, None)]).unwrap();
                diesel::update(
                    table::table.filter(table::recipient_id.eq(ana)).filter(diesel::dsl::not(table::is_read)),
                )
                .set(table::is_read.eq(true))
                .execute(c)
                .unwrap();
            }))
        })
        .unwrap();
    assert_index_backed(&mut c, &statements);
    let unread = recorded(&mut c, |c| {
        notifications::unread_count(c, ana).unwrap();
    });
    assert_index_backed(&mut c, &unread);
}

/// The page as the service reads it, on a connection of the test's.
fn notifications_page(c: &mut DbConnection, me: UserId, page: Page) -> Vec<notifications::Notification> {
    notifications::list(c, me, page).unwrap()
}

/// A live session of `user`, as sign-in starts one.
fn session(c: &mut DbConnection, user: UserId) -> SessionId {
    let (id, now) = (SessionId::generate(), db::time::now());
    diesel::insert_into(sessions::table)
        .values((
            sessions::id.eq(id),
            sessions::user_id.eq(user),
            sessions::created_at.eq(now),
            sessions::expires_at.eq(now + chrono::Duration::hours(1)),
        ))
        .execute(c)
        .unwrap();
    id
}

/// A person has at most eight streams open (the ninth closes the oldest), and a change is
/// counted once for all of them, not once a stream.
async fn streams_are_few_a_person_and_share_one_count(db: TestDb) {
    let mut c = db.get().unwrap();
    let (ana, bob) = (insert_user(&mut c, "Ana", "ana"), insert_user(&mut c, "Bob", "bob"));
    let post = insert_post(&mut c, ana);
    let service = Notifications::new(db.db.clone());
    let streams = service.streams();
    let within = |d: u64| Duration::from_secs(d);

    let signed_in = session(&mut c, ana);
    let mut open = Vec::new();
    for _ in 0..notifications::STREAMS_PER_PERSON + 1 {
        let mut s = streams.open(ana, signed_in).await;
        assert_eq!(tokio::time::timeout(within(5), s.next()).await.unwrap(), Heard::Unread(0), "the first event");
        open.push(s);
    }
    assert_eq!(streams.open_for(ana), notifications::STREAMS_PER_PERSON);
    let mut oldest = open.remove(0);
    assert_eq!(tokio::time::timeout(within(5), oldest.next()).await.unwrap(), Heard::Replaced);

    let before = streams.counts_read();
    // The write names Ana's count changed; once it commits her streams hear of it.
    assert_eq!(record(&db, &[event(Kind::Comment, bob, ana, Some(post))]), vec![ana]);
    for s in &mut open {
        assert_eq!(tokio::time::timeout(within(5), s.next()).await.unwrap(), Heard::Unread(1));
    }
    assert_eq!(streams.counts_read() - before, 1, "one count for all of Ana's streams");
    drop(open);
    drop(oldest);
    assert_eq!(streams.open_for(ana), 0, "closed streams are forgotten");
}

/// When sessions of a person end, the streams of those sessions end at once (one question for
/// all of the person's streams); the streams of their other sessions stay.
async fn a_stream_ends_with_its_session(db: TestDb) {
    let mut c = db.get().unwrap();
    let ana = insert_user(&mut c, "Ana", "ana");
    let (phone, laptop) = (session(&mut c, ana), session(&mut c, ana));
    let service = Notifications::new(db.db.clone());
    let streams = service.streams();
    let within = Duration::from_secs(5);
    // What a write that ends sessions of Ana names (auth's sign-outs do).
    let sessions_ended = |ended: Option<SessionId>| {
        db.write_blocking(|c| {
            if let Some(id) = ended {
                diesel::delete(sessions::table.filter(sessions::id.eq(id))).execute(c)?;
            }
            Ok::<_, DbError>(db::changed(c, &[Topic::Sessions(ana)])?)
        })
        .unwrap()
    };
    let mut on_phone = streams.open(ana, phone).await;
    let mut on_laptop = streams.open(ana, laptop).await;
    for s in [&mut on_phone, &mut on_laptop] {
        assert_eq!(tokio::time::timeout(within, s.next()).await.unwrap(), Heard::Unread(0));
    }
    // Told while the session still stands: nothing ends.
    sessions_ended(None);
    assert!(tokio::time::timeout(Duration::from_millis(300), on_phone.next()).await.is_err());

    sessions_ended(Some(phone));
    assert_eq!(tokio::time::timeout(within, on_phone.next()).await.unwrap(), Heard::SignedOut);
    assert_eq!(on_phone.next().await, Heard::SignedOut, "an ended stream stays ended");
    assert_eq!(streams.open_for(ana), 1, "the laptop's stream stays");
    assert!(tokio::time::timeout(Duration::from_millis(300), on_laptop.next()).await.is_err());

    // Through the grouped writer, as a use case writes.
    db.write(move |c| {
        diesel::delete(sessions::table.filter(sessions::id.eq(laptop))).execute(c)?;
        Ok::<_, DbError>(db::changed(c, &[Topic::Sessions(ana)])?)
    })
    .await
    .unwrap();
    assert_eq!(tokio::time::timeout(within, on_laptop.next()).await.unwrap(), Heard::SignedOut);
    assert_eq!(streams.open_for(ana), 0);
}

test_support::both_backends!(
    a_stream_ends_with_its_session,
    streams_are_few_a_person_and_share_one_count,
    each_kind_is_written_once_and_never_for_oneself,
    a_like_or_a_listen_given_again_does_not_notify_twice,
    a_post_author_mentioned_in_a_comment_is_told_once,
    nothing_passes_between_a_block_pair,
    only_the_owner_reads_and_marks_their_notifications,
    a_deleted_post_or_account_takes_its_notifications,
    a_page_is_one_statement_and_every_statement_is_index_backed,
);

// --- Live delivery through PostgreSQL --------------------------------------------------------

/// The next news naming `topic`, or `None` after `wait`.
async fn heard(rx: &mut tokio::sync::broadcast::Receiver<Told>, topic: Topic, wait: Duration) -> Option<Told> {
    tokio::time::timeout(wait, async {
        loop {
            match rx.recv().await {
                Ok(Told::Everything) => continue,
                Ok(t) if t.names(topic) => return t,
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => panic!("the news closed"),
            }
        }
    })
    .await
    .ok()
}

/// Waits for the listening connection to be up (its first act is to say everything changed).
async fn connected(rx: &mut tokio::sync::broadcast::Receiver<Told>) {
    let up =
        tokio::time::timeout(Duration::from_secs(20), async { while rx.recv().await != Ok(Told::Everything) {} }).await;
    assert!(up.is_ok(), "the listener did not connect");
}

/// Another process's writes reach this one once they commit (the unread counts they name, the
/// sessions they end), none of a rolled-back one, and still after the listening connection
/// was lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_delivers_signals_on_commit_across_connections_and_after_a_lost_connection() {
    let Some(db) = TestDb::postgres() else { return };
    // This process listens; `db` is the other one, which writes.
    let here = Db::connect_without_migrating(&db.url, &db::PoolOptions::default()).unwrap();
    let mut rx = here.changes().watch();
    here.hear_other_processes().unwrap();
    connected(&mut rx).await;
    let mut c = db.get().unwrap();
    let (ana, bob) = (insert_user(&mut c, "Ana", "ana"), insert_user(&mut c, "Bob", "bob"));
    let post = insert_post(&mut c, ana);

    // Rolled back: nobody hears of it.
    let _ = db.write_blocking(|c| {
        notifications::record(c, &[event(Kind::Like, bob, ana, Some(post))])?;
        Err::<(), _>(NotificationError::NotFound)
    });
    assert_eq!(heard(&mut rx, Topic::Unread(ana), Duration::from_millis(500)).await, None, "a rollback sends nothing");

    record(&db, &[event(Kind::Like, bob, ana, Some(post))]);
    assert!(heard(&mut rx, Topic::Unread(ana), Duration::from_secs(2)).await.is_some(), "heard after commit");

    // Ended sessions travel on the same channel, as their own topic.
    db.write_blocking(|c| Ok::<_, DbError>(db::changed(c, &[Topic::Sessions(bob)])?)).unwrap();
    let ended = heard(&mut rx, Topic::Sessions(bob), Duration::from_secs(2)).await;
    assert!(ended.is_some_and(|t| !t.names(Topic::Unread(bob))), "bob's sessions ended");

    // The listening connection dies; the thread connects again and still hears.
    diesel::sql_query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'selfsound-listen' \
         AND datname = current_database()",
    )
    .execute(&mut c)
    .unwrap();
    connected(&mut rx).await;
    record(&db, &[event(Kind::Listening, bob, ana, None)]);
    assert!(heard(&mut rx, Topic::Unread(ana), Duration::from_secs(2)).await.is_some(), "heard after reconnecting");
}
