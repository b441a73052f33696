//! The jobs table (`db::jobs`) on a real SQLite file and a real PostgreSQL database: work queued
//! once, claimed by one process, taken over when its lease runs out, retried with backoff, kept
//! when it fails for good, and claimed in fair order.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::time::Duration;

use db::diesel::prelude::*;
use db::jobs::{self, AfterFailure, Claimed, Failure, NewJob};
use db::schema::jobs as jobs_table;
use db::{DbError, diesel};
use test_support::TestDb;
use values::{JobKind, UserId};

const LEASE: Duration = Duration::from_secs(60);

fn job(subject: &str, owner: Option<UserId>) -> NewJob {
    NewJob {
        kind: JobKind::TrackRenditions,
        subject: subject.to_owned(),
        payload: format!("{{\"subject\":\"{subject}\"}}"),
        owner,
    }
}

async fn enqueue(db: &TestDb, job: NewJob) -> bool {
    db.write(move |c| Ok::<_, DbError>(jobs::enqueue(c, &job, None)?)).await.unwrap()
}

async fn claim(db: &TestDb, me: &'static str, lease: Duration) -> Option<Claimed> {
    db.write(move |c| Ok::<_, DbError>(jobs::claim(c, me, lease, true)?)).await.unwrap()
}

async fn subjects_in_claim_order(db: &TestDb, me: &'static str) -> Vec<String> {
    let mut order = Vec::new();
    while let Some(j) = claim(db, me, LEASE).await {
        order.push(j.subject);
    }
    order
}

/// The same work asked for twice is queued once; a claimed job is nobody else's while its lease
/// lasts; a finished one goes.
async fn work_is_queued_once_and_claimed_by_one(db: TestDb) {
    assert!(enqueue(&db, job("1/0", None)).await);
    assert!(!enqueue(&db, job("1/0", None)).await, "the same kind and subject: queued once");
    let first = claim(&db, "a", LEASE).await.expect("claimable");
    assert_eq!((first.kind, first.subject.as_str(), first.attempts), (JobKind::TrackRenditions, "1/0", 1));
    assert_eq!(first.payload, "{\"subject\":\"1/0\"}");
    assert!(claim(&db, "b", LEASE).await.is_none(), "leased to a");
    assert!(!enqueue(&db, job("1/0", None)).await, "still queued once while it runs");
    db.write(move |c| Ok::<_, DbError>(jobs::done(c, first.id)?)).await.unwrap();
    assert!(claim(&db, "b", LEASE).await.is_none());
    assert_eq!(db.write(|c| Ok::<_, DbError>(jobs::figures(c)?)).await.unwrap().queued, 0);
}

/// A job whose process stopped renewing its lease is taken over by another process; the first
/// can no longer renew it or fail it.
async fn a_lapsed_lease_is_taken_over(db: TestDb) {
    enqueue(&db, job("2/0", None)).await;
    let first = claim(&db, "dead", Duration::from_millis(200)).await.unwrap();
    assert!(claim(&db, "survivor", LEASE).await.is_none(), "the lease still runs");
    tokio::time::sleep(Duration::from_millis(400)).await;
    let taken = claim(&db, "survivor", LEASE).await.expect("taken over once the lease ran out");
    assert_eq!((taken.id, taken.attempts), (first.id, 2), "the same job, its second try");
    let id = first.id;
    let renewed = db.write(move |c| Ok::<_, DbError>(jobs::renew(c, id, "dead", LEASE)?)).await.unwrap();
    assert!(!renewed, "no longer the dead process's");
    let after = db
        .write(move |c| Ok::<_, DbError>(jobs::failed(c, id, "dead", &Failure::Retry("late".into()))?))
        .await
        .unwrap();
    assert_eq!(after, AfterFailure::NotOurs);
    assert!(db.write(move |c| Ok::<_, DbError>(jobs::renew(c, id, "survivor", LEASE)?)).await.unwrap());
}

/// A failure that another try may mend is tried again after its backoff; one that no try can,
/// or the last allowed try, keeps the job as failed, with its error, until it is retried.
async fn failures_back_off_then_are_kept(db: TestDb) {
    enqueue(&db, job("3/0", None)).await;
    let j = claim(&db, "a", LEASE).await.unwrap();
    let id = j.id;
    let before = db::time::now();
    let after = db
        .write(move |c| Ok::<_, DbError>(jobs::failed(c, id, "a", &Failure::Retry("storage away".into()))?))
        .await
        .unwrap();
    let AfterFailure::Retried(at) = after else { panic!("{after:?}") };
    let waited = (at - before).num_milliseconds();
    assert!((29_000..=31_000).contains(&waited), "30 s after the first try: {waited} ms");
    assert!(claim(&db, "a", LEASE).await.is_none(), "not due yet");
    // Its time comes (moved here rather than waited for).
    let mut c = db.get().unwrap();
    diesel::update(jobs_table::table.find(id)).set(jobs_table::run_after.eq(db::time::now())).execute(&mut c).unwrap();
    let again = claim(&db, "a", LEASE).await.unwrap();
    assert_eq!(again.attempts, 2);
    let after =
        db.write(move |c| Ok::<_, DbError>(jobs::failed(c, id, "a", &Failure::GiveUp("refused".into()))?)).await;
    assert_eq!(after.unwrap(), AfterFailure::Failed);
    assert!(claim(&db, "a", LEASE).await.is_none(), "failed jobs are not claimed");
    let rows = db.write(|c| Ok::<_, DbError>(jobs::list(c, 10)?)).await.unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].state.as_str(), rows[0].last_error.as_deref()), ("failed", Some("refused")));
    let figures = db.write(|c| Ok::<_, DbError>(jobs::figures(c)?)).await.unwrap();
    assert_eq!((figures.queued, figures.running, figures.failed), (0, 0, 1));

    // Retried by hand: a new job, due now.
    assert_eq!(db.write(|c| Ok::<_, DbError>(jobs::retry(c, None)?)).await.unwrap(), 1);
    let fresh = claim(&db, "a", LEASE).await.expect("queued again");
    assert_eq!(fresh.attempts, 1);

    // The last allowed try keeps it as failed, even for a failure worth another try.
    diesel::update(jobs_table::table.find(id))
        .set(jobs_table::attempts.eq(jobs::MOST_ATTEMPTS))
        .execute(&mut c)
        .unwrap();
    let after = db.write(move |c| Ok::<_, DbError>(jobs::failed(c, id, "a", &Failure::Retry("again".into()))?)).await;
    assert_eq!(after.unwrap(), AfterFailure::Failed);
}

/// Everyone's first job before anyone's second: one person's many uploads do not hold back
/// another's one.
async fn owners_take_turns(db: TestDb) {
    let (ada, bo, cy) = (UserId::generate(), UserId::generate(), UserId::generate());
    for n in 0..4 {
        enqueue(&db, job(&format!("ada/{n}"), Some(ada))).await;
    }
    enqueue(&db, job("bo/0", Some(bo))).await;
    enqueue(&db, job("bo/1", Some(bo))).await;
    enqueue(&db, job("cy/0", Some(cy))).await;
    assert_eq!(subjects_in_claim_order(&db, "a").await, ["ada/0", "bo/0", "cy/0", "ada/1", "bo/1", "ada/2", "ada/3"],);
    // A person whose earlier jobs are all done starts at the front of the line again.
    let mut c = db.get().unwrap();
    diesel::delete(jobs_table::table).execute(&mut c).unwrap();
    for n in 0..3 {
        enqueue(&db, job(&format!("ada/later-{n}"), Some(ada))).await;
    }
    let first = claim(&db, "a", LEASE).await.unwrap();
    db.write(move |c| Ok::<_, DbError>(jobs::done(c, first.id)?)).await.unwrap();
    enqueue(&db, job("bo/later", Some(bo))).await;
    assert_eq!(subjects_in_claim_order(&db, "a").await, ["bo/later", "ada/later-1", "ada/later-2"]);
}

/// Processes claiming at once each get a different job (on PostgreSQL, `SKIP LOCKED` rather
/// than waiting for each other), and all are claimed.
async fn claims_at_once_take_different_jobs(db: TestDb) {
    for n in 0..24 {
        enqueue(&db, job(&format!("many/{n}"), Some(UserId::generate()))).await;
    }
    let mut claims = Vec::new();
    for w in 0..8 {
        let db = db.db.clone();
        claims.push(tokio::spawn(async move {
            let me: &'static str = ["w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7"][w];
            let mut mine = Vec::new();
            while let Some(j) = db.write(move |c| Ok::<_, DbError>(jobs::claim(c, me, LEASE, true)?)).await.unwrap() {
                mine.push(j.subject);
            }
            mine
        }));
    }
    let mut all = Vec::new();
    for c in claims {
        all.extend(c.await.unwrap());
    }
    let distinct: BTreeSet<&String> = all.iter().collect();
    assert_eq!((all.len(), distinct.len()), (24, 24), "every job claimed exactly once: {all:?}");
}

/// A process that does not federate leaves a delivery to one that does, however long it waits
/// first, and takes the other work behind it.
async fn federation_jobs_go_to_federating_processes(db: TestDb) {
    let delivery = NewJob { kind: JobKind::Deliver, subject: "d1".into(), payload: "{}".into(), owner: None };
    assert!(enqueue(&db, delivery).await);
    assert!(enqueue(&db, job("1/0", None)).await);
    let plain = db.write(|c| Ok::<_, DbError>(jobs::claim(c, "plain", LEASE, false)?)).await.unwrap();
    assert_eq!(plain.map(|j| j.kind), Some(JobKind::TrackRenditions), "the delivery is passed over");
    let none = db.write(|c| Ok::<_, DbError>(jobs::claim(c, "plain", LEASE, false)?)).await.unwrap();
    assert!(none.is_none(), "nothing else it can run");
    assert_eq!(claim(&db, "federating", LEASE).await.map(|j| j.kind), Some(JobKind::Deliver));
}

test_support::both_backends!(
    federation_jobs_go_to_federating_processes,
    work_is_queued_once_and_claimed_by_one,
    a_lapsed_lease_is_taken_over,
    failures_back_off_then_are_kept,
    owners_take_turns,
    claims_at_once_take_different_jobs,
);
