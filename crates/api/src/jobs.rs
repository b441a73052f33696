//! The background jobs' runner (`db::jobs`): each process runs `SELFSOUND_JOB_WORKERS` workers
//! (1 unless told; 0 runs none, for a process that only serves), each claiming one job at a time,
//! renewing its lease while it works, and handing it to the domain whose work it is. The queue's
//! figures are read every few seconds for `/metrics`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use db::DbError;
use db::jobs::{self, AfterFailure, Claimed, Failure, QueueFigures};
use values::JobKind;

use crate::state::AppState;

/// How long an idle worker waits before it looks for work again.
const IDLE_POLL: Duration = Duration::from_secs(1);
/// How long a worker waits after the database failed it.
const AFTER_ERROR: Duration = Duration::from_secs(5);
/// How often the queue's figures are read.
const FIGURES_EVERY: Duration = Duration::from_secs(5);

/// What this process's runner has counted, and the queue as last read.
#[derive(Debug, Default)]
pub struct JobCounts {
    pub done: AtomicU64,
    /// Tries that failed (retried or given up on).
    pub failures: AtomicU64,
    pub figures: std::sync::Mutex<QueueFigures>,
}

impl JobCounts {
    pub fn figures(&self) -> QueueFigures {
        self.figures.lock().map(|f| *f).unwrap_or_default()
    }
}

/// The name this process leases jobs under: host, process id and a random part (a restarted
/// process with the same id is another process).
fn process_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    format!("{}/{}/{:06x}", host.trim(), std::process::id(), rand::random::<u32>() & 0xff_ffff)
}

/// Starts the workers and the figures' reader on the current runtime.
pub fn spawn(state: &AppState) {
    let me: Arc<str> = process_name().into();
    let lease = state.config.job_lease;
    for _ in 0..state.config.job_workers {
        let (state, me) = (state.clone(), me.clone());
        tokio::spawn(async move { work(state, me, lease).await });
    }
    let state = state.clone();
    tokio::spawn(async move {
        loop {
            match state.db.run(|c| Ok::<_, DbError>(jobs::figures(c)?)).await {
                Ok(f) => {
                    if let Ok(mut held) = state.jobs.figures.lock() {
                        *held = f;
                    }
                }
                Err(e) => tracing::warn!(error = %e, "reading the job queue's figures failed"),
            }
            tokio::time::sleep(FIGURES_EVERY).await;
        }
    });
}

/// One worker: claims, runs, repeats; sleeps while there is nothing to do.
async fn work(state: AppState, me: Arc<str>, lease: Duration) {
    // A process that does not federate leaves federation's jobs to those that do.
    let federating = state.federation.is_some();
    loop {
        let name = me.clone();
        match state.db.write(move |c| Ok::<_, DbError>(jobs::claim(c, &name, lease, federating)?)).await {
            Ok(Some(job)) => run_one(&state, &me, lease, job).await,
            Ok(None) => tokio::time::sleep(IDLE_POLL).await,
            Err(e) => {
                tracing::warn!(error = %e, "claiming a job failed");
                tokio::time::sleep(AFTER_ERROR).await;
            }
        }
    }
}

/// Runs a claimed job, renewing its lease every third of it meanwhile, and records the end.
async fn run_one(state: &AppState, me: &Arc<str>, lease: Duration, job: Claimed) {
    let (id, kind, subject) = (job.id, job.kind, job.subject.clone());
    let started = std::time::Instant::now();
    let result = if job.attempts > jobs::MOST_ATTEMPTS {
        // Its process stopped while running it, try after try (a file that kills it?).
        Err(Failure::GiveUp(format!("its process stopped while running it {} times", job.attempts - 1)))
    } else {
        let renewing = {
            let (db, me) = (state.db.clone(), me.clone());
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(lease / 3).await;
                    let name = me.clone();
                    match db.write(move |c| Ok::<_, DbError>(jobs::renew(c, id, &name, lease)?)).await {
                        Ok(true) => {}
                        Ok(false) => {
                            tracing::warn!(job = %id, "the job's lease was taken over; its work may be done twice");
                            break;
                        }
                        Err(e) => tracing::warn!(job = %id, error = %e, "renewing a job's lease failed"),
                    }
                }
            })
        };
        let result = dispatch(state, &job).await;
        renewing.abort();
        result
    };
    let took = started.elapsed();
    let name = me.clone();
    let ended = match &result {
        Ok(()) => state.db.write(move |c| Ok::<_, DbError>(jobs::done(c, id).map(|()| None)?)).await,
        Err(failure) => {
            let failure = failure.clone();
            state.db.write(move |c| Ok::<_, DbError>(Some(jobs::failed(c, id, &name, &failure)?))).await
        }
    };
    match (&result, ended) {
        (Ok(()), Ok(_)) => {
            state.jobs.done.fetch_add(1, Ordering::Relaxed);
            tracing::info!(job = %id, kind = %kind, %subject, took_ms = took.as_millis() as u64, "job done");
        }
        (Err(failure), Ok(after)) => {
            state.jobs.failures.fetch_add(1, Ordering::Relaxed);
            let error = failure.message();
            match after {
                Some(AfterFailure::Retried(at)) => {
                    tracing::warn!(job = %id, kind = %kind, %subject, error, retry_at = %at, "job failed; will retry")
                }
                Some(AfterFailure::Failed) => {
                    tracing::error!(job = %id, kind = %kind, %subject, error, "job failed for good (selfsound jobs retry)")
                }
                _ => {
                    tracing::warn!(job = %id, kind = %kind, %subject, error, "job failed after another process took it")
                }
            }
        }
        (_, Err(e)) => tracing::warn!(job = %id, error = %e, "recording a job's end failed; its lease will lapse"),
    }
}

/// Hands a job to the domain whose work it is.
async fn dispatch(state: &AppState, job: &Claimed) -> Result<(), Failure> {
    match job.kind {
        JobKind::TrackRenditions | JobKind::OldTracks | JobKind::OldScores => state.posts.run_job(job).await,
        JobKind::Deliver => match &state.federation {
            Some(config) => federation::delivery::run(&config.to_request_data(), job).await,
            // Queued while federation was on: kept for when it is on again.
            None => Err(Failure::Retry("federation is off (SELFSOUND_FEDERATION)".into())),
        },
        JobKind::DataExport | JobKind::DataExportExpiry => {
            let (auth, public_url) = (state.auth.clone(), state.config.public_url.clone());
            let mail = |user, token: String, until: chrono::NaiveDateTime| async move {
                let link = format!("{public_url}/data-exports/{token}");
                let until = until.format("%-d %B %Y, %H:%M UTC").to_string();
                match auth.mail_data_export(user, &link, &until).await {
                    Ok(sent) => Ok(sent),
                    Err(e) => Err(Failure::Retry(format!("e-mailing the archive's link: {e}"))),
                }
            };
            state.app.run_export_job(job, mail).await
        }
        JobKind::Push => state.pusher.run_job(job).await,
        JobKind::Announce => match &state.federation {
            Some(config) => federation::notes::announce(&config.to_request_data(), job).await,
            // Queued while federation was on: kept for when it is on again.
            None => Err(Failure::Retry("federation is off (SELFSOUND_FEDERATION)".into())),
        },
    }
}
