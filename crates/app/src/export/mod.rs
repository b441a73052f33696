//! "Download my data" (issue 36; the archive's files: docs/data-export.md). A person asks in
//! Settings, once a day; a background job (`db::jobs`) builds a zip of everything that is
//! theirs — profile, posts with their original files, comments, likes, reposts, playlists,
//! listens, blocks, notifications — as JSON with a readable `index.html`, keeps it in storage
//! and e-mails a link that works for seven days; a job queued for then removes it.
//!
//! - **Bounded memory**: the zip is written on a blocking thread into a local temporary file
//!   ([`archive`]); the reads hand it a page of rows or a chunk of a stored file at a time, and
//!   the finished file goes to storage in parts. Only the posts' list and the index's part for
//!   them are spooled beside it (their files come first in the zip).
//! - **The link** carries a random 256-bit secret kept only as its SHA-256: the database (or a
//!   backup of it) cannot download anything. It goes only to the account's address, so a stolen
//!   session cannot take a copy of the account (docs/security.md, "Your data").
//! - **Idempotent**: the archive's key is fixed by its row, so a try that a crash cut short is
//!   made again in place; an e-mail that failed is sent again with a new secret.

mod archive;
mod index;

use std::time::Duration;

use chrono::NaiveDateTime;
use db::jobs::{self, Claimed, Failure, NewJob};
use db::schema::{data_exports, users};
use db::{Db, DbConnection};
use diesel::prelude::*;
use posts::{Payload, Post};
use serde::Serialize;
use sha2::{Digest, Sha256};
use social_graph::Side;
use values::{DomainError, ErrorKind, ExportId, JobKind, NotificationId, PlaylistId, PostId, UserId};

use crate::{App, AppError};
use archive::{Archive, Copied, JsonList, hex};

/// How long a download link works.
pub const LINK_LIFETIME: Duration = Duration::from_secs(7 * 24 * 3600);
/// One archive in this long.
pub const ONE_IN: Duration = Duration::from_secs(24 * 3600);
/// Rows read at a time.
const PAGE: i64 = 250;
/// Posts read at a time (each with its payload).
const POSTS_PAGE: i64 = 50;
/// The version of the archive's format (docs/data-export.md).
pub const FORMAT_VERSION: u32 = 1;

values::text_enum! {
    /// Where an archive is.
    pub enum ExportState {
        /// Asked for; its job has not finished.
        Preparing = "preparing",
        /// In storage, its link sent.
        Ready = "ready",
        /// Its job gave up (logged): the person may ask again at once.
        Failed = "failed",
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("You can ask for a copy of your data once a day. You can ask again {}.", in_words(*retry_after))]
    TooSoon { retry_after: Duration },
    #[error("Your account has no e-mail address to send the download link to")]
    NoAddress,
    #[error("This download link has expired or is not valid. Ask for a new copy of your data in Settings.")]
    BadLink,
}

impl DomainError for ExportError {
    fn kind(&self) -> ErrorKind {
        match self {
            ExportError::TooSoon { retry_after } => ErrorKind::Throttled { retry_after: *retry_after },
            ExportError::NoAddress => ErrorKind::Invalid,
            ExportError::BadLink => ErrorKind::NotFound,
        }
    }
}

/// "in 3 hours", "in 20 minutes", "in a minute".
fn in_words(wait: Duration) -> String {
    let minutes = wait.as_secs().div_ceil(60);
    match minutes {
        0 | 1 => "in a minute".to_owned(),
        2..=89 => format!("in {minutes} minutes"),
        _ => format!("in {} hours", minutes.div_ceil(60)),
    }
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = data_exports)]
struct ExportRow {
    id: ExportId,
    user_id: UserId,
    state: ExportState,
    file_key: Option<String>,
    size_bytes: Option<i64>,
    requested_at: NaiveDateTime,
    ready_at: Option<NaiveDateTime>,
    expires_at: Option<NaiveDateTime>,
    mailed_at: Option<NaiveDateTime>,
}

/// A person's latest archive, as Settings shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportStatus {
    pub state: ExportState,
    pub requested_at: NaiveDateTime,
    pub ready_at: Option<NaiveDateTime>,
    /// When its link stops working.
    pub expires_at: Option<NaiveDateTime>,
    pub size_bytes: Option<i64>,
    /// When the person may ask for another.
    pub next_request_at: NaiveDateTime,
}

impl From<ExportRow> for ExportStatus {
    fn from(r: ExportRow) -> Self {
        let next_request_at =
            if r.state == ExportState::Failed { r.requested_at } else { r.requested_at + chrono_of(ONE_IN) };
        // Ready once its link has gone out, as Settings then says.
        let state =
            if r.state == ExportState::Ready && r.mailed_at.is_none() { ExportState::Preparing } else { r.state };
        ExportStatus {
            state,
            requested_at: r.requested_at,
            ready_at: r.ready_at,
            expires_at: r.expires_at,
            size_bytes: r.size_bytes,
            next_request_at,
        }
    }
}

/// What a download link opens: the stored archive, and the name to save it under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Download {
    pub key: String,
    pub size_bytes: i64,
    pub file_name: String,
}

fn chrono_of(d: Duration) -> chrono::Duration {
    chrono::Duration::from_std(d).unwrap_or_default()
}

/// Where an archive is kept: under storage's private folder, never served as media.
fn key_of(user: UserId, id: ExportId) -> String {
    format!("{}exports/{user}/{id}.zip", storage::PRIVATE_PREFIX)
}

fn latest(conn: &mut DbConnection, user: UserId) -> QueryResult<Option<ExportRow>> {
    data_exports::table
        .filter(data_exports::user_id.eq(user))
        .order(data_exports::requested_at.desc())
        .select(ExportRow::as_select())
        .first(conn)
        .optional()
}

fn row(conn: &mut DbConnection, id: ExportId) -> QueryResult<Option<ExportRow>> {
    data_exports::table.find(id).select(ExportRow::as_select()).first(conn).optional()
}

/// An archive's job; the expiry, due in a week, is the server's own (a person's lane would
/// hold it all that time, ahead of their uploads' work).
fn job_of(kind: JobKind, user: UserId, id: ExportId) -> NewJob {
    let owner = (kind == JobKind::DataExport).then_some(user);
    NewJob { kind, subject: id.to_string(), payload: serde_json::json!({ "export": id }).to_string(), owner }
}

/// The stored archives of `user`, for an account's deletion to remove after it commits (the
/// rows go with the account).
pub fn stored_of(conn: &mut DbConnection, user: UserId) -> QueryResult<Vec<String>> {
    let keys: Vec<Option<String>> =
        data_exports::table.filter(data_exports::user_id.eq(user)).select(data_exports::file_key).load(conn)?;
    Ok(keys.into_iter().flatten().collect())
}

/// A write of this use case's job: a failure is tried again later.
async fn write<T: Send + 'static>(
    db: &Db,
    f: impl FnOnce(&mut DbConnection) -> QueryResult<T> + Send + 'static,
) -> Result<T, Failure> {
    db.write(move |conn| Ok::<_, AppError>(f(conn)?)).await.map_err(|e| Failure::Retry(e.to_string()))
}

/// The archives kept (a backup copies them with the rest; `verify` checks they are there).
pub const STORED: [db::StoredColumn; 1] = [db::StoredColumn {
    column: "data_exports.file_key",
    keys: |c| {
        data_exports::table
            .filter(data_exports::file_key.is_not_null())
            .select(data_exports::file_key.assume_not_null())
            .distinct()
            .load(c)
    },
}];

/// SHA-256 of a link's secret, as kept.
fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

impl App {
    /// Asks for an archive of `user`'s data: queued at once, unless one was asked for in the
    /// last day (one that failed does not count). One transaction: the row and its job.
    pub async fn request_export(&self, user: UserId) -> Result<ExportStatus, AppError> {
        self.db
            .write(move |conn| {
                // Two requests at once: one after the other, so only one finds no archive today.
                auth::lock_account(conn, user)?;
                let account = profiles::profile_since(conn, user)?.ok_or(profiles::ProfileError::NotFound)?;
                if account.0.email.is_none() {
                    return Err(ExportError::NoAddress.into());
                }
                let now = db::time::now();
                if let Some(last) = latest(conn, user)?
                    && last.state != ExportState::Failed
                {
                    let next = last.requested_at + chrono_of(ONE_IN);
                    if next > now {
                        let retry_after = (next - now).to_std().unwrap_or(ONE_IN);
                        return Err(ExportError::TooSoon { retry_after }.into());
                    }
                }
                let id = ExportId::generate();
                diesel::insert_into(data_exports::table)
                    .values((
                        data_exports::id.eq(id),
                        data_exports::user_id.eq(user),
                        data_exports::state.eq(ExportState::Preparing),
                        data_exports::requested_at.eq(now),
                    ))
                    .execute(conn)?;
                jobs::enqueue(conn, &job_of(JobKind::DataExport, user, id), None)?;
                let made = row(conn, id)?.ok_or(diesel::result::Error::NotFound)?;
                Ok(made.into())
            })
            .await
    }

    /// `user`'s latest archive, if any is kept.
    pub async fn export_status(&self, user: UserId) -> Result<Option<ExportStatus>, AppError> {
        self.db.read(move |conn| Ok(latest(conn, user)?.map(ExportStatus::from))).await
    }

    /// What the download link with secret `token` opens, while it works.
    pub async fn export_download(&self, token: &str) -> Result<Download, AppError> {
        if token.is_empty() || token.len() > 200 {
            return Err(ExportError::BadLink.into());
        }
        let hash = token_hash(token);
        let found: Option<(Option<String>, Option<i64>, NaiveDateTime, String)> = self
            .db
            .read(move |conn| {
                Ok::<_, AppError>(
                    data_exports::table
                        .inner_join(users::table)
                        .filter(data_exports::token_hash.eq(hash))
                        .filter(data_exports::state.eq(ExportState::Ready))
                        .filter(data_exports::expires_at.gt(db::time::now()))
                        .select((
                            data_exports::file_key,
                            data_exports::size_bytes,
                            data_exports::requested_at,
                            users::login,
                        ))
                        .first(conn)
                        .optional()?,
                )
            })
            .await?;
        match found {
            Some((Some(key), size, at, login)) => Ok(Download {
                key,
                size_bytes: size.unwrap_or_default(),
                file_name: format!(
                    "selfsound-{}-{}.zip",
                    login.replace(|c: char| !c.is_ascii_alphanumeric(), "_"),
                    at.format("%Y-%m-%d")
                ),
            }),
            _ => Err(ExportError::BadLink.into()),
        }
    }

    /// Runs a job of this use case: builds an archive and e-mails its link (through `mail`,
    /// given the link's secret and when it stops working; false when the account has no
    /// address), or removes an expired one.
    pub async fn run_export_job<M, F>(&self, job: &Claimed, mail: M) -> Result<(), Failure>
    where
        M: FnOnce(UserId, String, NaiveDateTime) -> F,
        F: std::future::Future<Output = Result<bool, Failure>>,
    {
        #[derive(serde::Deserialize)]
        struct Payload {
            export: ExportId,
        }
        let id = serde_json::from_str::<Payload>(&job.payload)
            .map_err(|e| Failure::GiveUp(format!("unreadable payload: {e}")))?
            .export;
        let retry = |e: AppError| Failure::Retry(e.to_string());
        let Some(export) = self.db.read(move |conn| Ok::<_, AppError>(row(conn, id)?)).await.map_err(retry)? else {
            // The account went, or the archive expired, meanwhile: nothing of it may stay.
            if job.kind == JobKind::DataExport
                && let Some(owner) = job.owner
            {
                self.remove_objects(vec![key_of(owner, id)], "an archive whose row went").await;
            }
            return Ok(());
        };
        if job.kind == JobKind::DataExportExpiry {
            return self.expire(export).await;
        }
        let last_try = |failure: &Failure| matches!(failure, Failure::GiveUp(_)) || job.attempts >= jobs::MOST_ATTEMPTS;
        let export = match self.prepare(export, job).await {
            Ok(Some(ready)) => ready,
            Ok(None) => return Ok(()),
            Err(failure) => {
                if last_try(&failure) {
                    self.give_up(id, job.owner).await?;
                }
                return Err(failure);
            }
        };
        if export.mailed_at.is_some() {
            return Ok(());
        }
        // A new secret each time the e-mail is tried: one never sent is worth nothing.
        let token = auth::oidc::random_token();
        let hash = token_hash(&token);
        write(&self.db, move |conn| {
            diesel::update(data_exports::table.find(id)).set(data_exports::token_hash.eq(hash)).execute(conn)
        })
        .await?;
        let until = export.expires_at.unwrap_or_else(db::time::now);
        match mail(export.user_id, token, until).await {
            Ok(true) => {
                write(&self.db, move |conn| {
                    diesel::update(data_exports::table.find(id))
                        .set(data_exports::mailed_at.eq(db::time::now()))
                        .execute(conn)
                })
                .await?;
                Ok(())
            }
            // The address went meanwhile: the link can reach nobody.
            Ok(false) => {
                self.give_up(id, Some(export.user_id)).await?;
                Err(Failure::GiveUp("the account has no e-mail address to send the link to".into()))
            }
            Err(failure) => {
                if last_try(&failure) {
                    self.give_up(id, Some(export.user_id)).await?;
                }
                Err(failure)
            }
        }
    }

    /// An archive that will not be made or sent: marked failed (the person may ask again at
    /// once), its link and file gone.
    async fn give_up(&self, id: ExportId, user: Option<UserId>) -> Result<(), Failure> {
        write(&self.db, move |conn| {
            diesel::update(data_exports::table.find(id))
                .set((
                    data_exports::state.eq(ExportState::Failed),
                    data_exports::token_hash.eq(None::<String>),
                    data_exports::file_key.eq(None::<String>),
                ))
                .execute(conn)
        })
        .await?;
        if let Some(user) = user {
            self.remove_objects(vec![key_of(user, id)], "a failed archive's").await;
        }
        Ok(())
    }

    /// Builds the archive of a row still preparing, stores it and marks it ready (queueing its
    /// removal for when its link expires), in one transaction; answers the row as it is then,
    /// or none when it went meanwhile (its file is removed again).
    async fn prepare(&self, export: ExportRow, job: &Claimed) -> Result<Option<ExportRow>, Failure> {
        match export.state {
            ExportState::Preparing => {}
            ExportState::Ready => return Ok(Some(export)),
            // Given up on (a retry asked by hand finds nothing to do: the person asks again).
            ExportState::Failed => return Ok(None),
        }
        let (id, user) = (export.id, export.user_id);
        let key = key_of(user, id);
        let work = tempfile::tempdir().map_err(|e| Failure::Retry(format!("a temporary folder: {e}")))?;
        let made_at = db::time::now();
        let zip = work.path().join("archive.zip");
        let built =
            Builder { db: &self.db, storage: &self.storage, user, work: work.path(), made_at }.build(&zip).await;
        tracing::info!(job = %job.id, export = %id, ok = built.is_ok(), "archive built");
        built?;
        let size =
            self.storage.put_file(&key, &zip).await.map_err(|e| Failure::Retry(format!("storing {key}: {e}")))?;
        drop(work);
        let stored = key.clone();
        let marked = self
            .db
            .write(move |conn| {
                let now = db::time::now();
                let expires = now + chrono_of(LINK_LIFETIME);
                let n =
                    diesel::update(data_exports::table.find(id).filter(data_exports::state.eq(ExportState::Preparing)))
                        .set((
                            data_exports::state.eq(ExportState::Ready),
                            data_exports::file_key.eq(&stored),
                            data_exports::size_bytes.eq(i64::try_from(size).unwrap_or(i64::MAX)),
                            data_exports::ready_at.eq(now),
                            data_exports::expires_at.eq(expires),
                        ))
                        .execute(conn)?;
                if n == 1 {
                    jobs::enqueue(conn, &job_of(JobKind::DataExportExpiry, user, id), Some(expires))?;
                }
                Ok::<_, AppError>(row(conn, id)?)
            })
            .await
            .map_err(|e| Failure::Retry(e.to_string()))?;
        if marked.is_none() {
            self.remove_objects(vec![key], "an archive whose account went").await;
        }
        Ok(marked)
    }

    /// Removes an archive whose link has expired, then its row.
    async fn expire(&self, export: ExportRow) -> Result<(), Failure> {
        if let Some(key) = &export.file_key {
            match self.storage.delete(key).await {
                Ok(()) | Err(storage::StorageError::NotFound) => {}
                Err(e) => return Err(Failure::Retry(format!("removing {key}: {e}"))),
            }
        }
        let id = export.id;
        write(&self.db, move |conn| diesel::delete(data_exports::table.find(id)).execute(conn)).await?;
        Ok(())
    }
}

// --- The archive ------------------------------------------------------------------------------

/// A time as the archive writes it: UTC, ISO 8601.
fn at(t: NaiveDateTime) -> String {
    t.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

#[derive(Serialize)]
struct About {
    format: &'static str,
    version: u32,
    made_at: String,
    /// How many of each the archive holds.
    counts: Counts,
}

#[derive(Serialize, Default, Clone, Copy)]
pub(crate) struct Counts {
    posts: u64,
    files: u64,
    comments: u64,
    likes: u64,
    reposts: u64,
    playlists: u64,
    listening_to: u64,
    listeners: u64,
    blocks: u64,
    notifications: u64,
}

#[derive(Serialize)]
struct ProfileOut {
    id: UserId,
    name: String,
    login: String,
    email: Option<String>,
    bio: Option<String>,
    tag: Option<String>,
    avatar: Option<FileOut>,
    joined_at: String,
    posts_count: i64,
    listeners_count: i64,
    listened_to_count: i64,
}

/// A stored file in the archive.
#[derive(Serialize, Clone)]
pub(crate) struct FileOut {
    /// What it is to its post: `image`, `video`, `track`, `cover`, `score` (or `avatar`).
    role: &'static str,
    /// Which of the post's pictures, tracks or scores (0 for the first).
    position: usize,
    /// Where it is in the zip; none when storage had lost it.
    path: Option<String>,
    sha256: Option<String>,
    bytes: Option<u64>,
}

#[derive(Serialize)]
pub(crate) struct PostOut {
    id: PostId,
    kind: &'static str,
    caption: Option<String>,
    created_at: String,
    edited_at: Option<String>,
    genre: Option<String>,
    likes_count: i64,
    comments_count: i64,
    plays_count: i64,
    reposts_count: i64,
    files: Vec<FileOut>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    media: Vec<MediaOut>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tracks: Vec<TrackOut>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    scores: Vec<ScoreOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lyrics: Option<LyricsOut>,
}

#[derive(Serialize)]
struct MediaOut {
    r#type: &'static str,
    width: Option<i64>,
    height: Option<i64>,
}

#[derive(Serialize)]
struct TrackOut {
    title: String,
    artist: String,
    duration_ms: i64,
    loudness_lufs: Option<f64>,
}

#[derive(Serialize)]
struct ScoreOut {
    title: String,
    composer: String,
}

#[derive(Serialize)]
struct LyricsOut {
    title: String,
    artist: String,
    parts: Vec<LyricsPartOut>,
}

#[derive(Serialize)]
struct LyricsPartOut {
    r#type: String,
    lyrics: String,
}

/// Another person, as the archive names them.
#[derive(Serialize)]
struct PersonOut {
    id: UserId,
    login: String,
    name: String,
}

impl From<&db::model::UserCard> for PersonOut {
    fn from(u: &db::model::UserCard) -> Self {
        PersonOut { id: u.id, login: u.login.clone(), name: u.name.clone() }
    }
}

#[derive(Serialize)]
struct TieOut {
    #[serde(flatten)]
    person: PersonOut,
    since: String,
}

impl From<&social_graph::export::Tie> for TieOut {
    fn from(t: &social_graph::export::Tie) -> Self {
        TieOut { person: (&t.person).into(), since: at(t.since) }
    }
}

/// Reads a list a page at a time, each page after the last row of the one before.
struct Pages<R, C, F> {
    db: Db,
    read: F,
    next: fn(&R) -> C,
    after: Option<C>,
    done: bool,
    limit: i64,
}

impl<R, C, F> Pages<R, C, F>
where
    R: Send + 'static,
    C: Copy + Send + 'static,
    F: Fn(&mut DbConnection, Option<C>, i64) -> QueryResult<Vec<R>> + Clone + Send + 'static,
{
    fn new(db: &Db, read: F, next: fn(&R) -> C) -> Self {
        Pages { db: db.clone(), read, next, after: None, done: false, limit: PAGE }
    }

    async fn next_page(&mut self) -> Result<Option<Vec<R>>, Failure> {
        if self.done {
            return Ok(None);
        }
        let (read, after, limit) = (self.read.clone(), self.after, self.limit);
        let rows = self
            .db
            .run(move |conn| Ok::<_, db::DbError>(read(conn, after, limit)?))
            .await
            .map_err(|e| Failure::Retry(format!("reading the archive's rows: {e}")))?;
        self.done = (rows.len() as i64) < limit;
        self.after = rows.last().map(self.next);
        Ok(if rows.is_empty() { None } else { Some(rows) })
    }
}

/// Writes every row `pages` reads as one JSON list, each as `out` makes it: how many.
async fn write_list<R, C, F, T: Serialize>(
    zip: &mut Archive,
    mut pages: Pages<R, C, F>,
    out: impl Fn(&R) -> T,
) -> Result<u64, Failure>
where
    R: Send + 'static,
    C: Copy + Send + 'static,
    F: Fn(&mut DbConnection, Option<C>, i64) -> QueryResult<Vec<R>> + Clone + Send + 'static,
{
    let mut list = JsonList::new();
    while let Some(page) = pages.next_page().await? {
        for r in &page {
            zip.write(list.item(&out(r))?).await?;
        }
    }
    zip.write(list.end()).await?;
    Ok(list.count)
}

/// A file beside the archive, written in order and added to it whole at the end.
struct Spool {
    path: std::path::PathBuf,
    file: tokio::io::BufWriter<tokio::fs::File>,
}

impl Spool {
    async fn create(path: std::path::PathBuf) -> Result<Spool, Failure> {
        let file = tokio::fs::File::create(&path).await.map_err(|e| Failure::Retry(format!("spooling: {e}")))?;
        Ok(Spool { path, file: tokio::io::BufWriter::new(file) })
    }

    async fn write(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        use tokio::io::AsyncWriteExt;
        self.file.write_all(bytes).await.map_err(|e| Failure::Retry(format!("spooling: {e}")))
    }

    /// Its content as the entry `name`.
    async fn into_entry(self, zip: &mut Archive, name: &str) -> Result<(), Failure> {
        zip.entry(name, true).await?;
        self.append_to(zip).await
    }

    /// Its content, after what the current entry holds.
    async fn append_to(mut self, zip: &mut Archive) -> Result<(), Failure> {
        use tokio::io::AsyncWriteExt;
        self.file.flush().await.map_err(|e| Failure::Retry(format!("spooling: {e}")))?;
        zip.append_file(&self.path).await
    }
}

/// One archive being built.
struct Builder<'a> {
    db: &'a Db,
    storage: &'a storage::Storage,
    user: UserId,
    work: &'a std::path::Path,
    made_at: NaiveDateTime,
}

impl Builder<'_> {
    async fn build(&self, path: &std::path::Path) -> Result<(), Failure> {
        let user = self.user;
        let mut zip =
            Archive::create(path, self.made_at).map_err(|e| Failure::Retry(format!("creating the archive: {e}")))?;
        let mut counts = Counts::default();

        let (profile, joined) = self
            .db
            .run(move |conn| Ok::<_, db::DbError>(profiles::profile_since(conn, user)?))
            .await
            .map_err(|e| Failure::Retry(e.to_string()))?
            .ok_or_else(|| Failure::GiveUp("the account is gone".into()))?;
        let avatar = match profile.avatar_url.as_deref().and_then(storage::key_of) {
            Some(key) => Some(self.file(&mut zip, &mut counts, key, "avatar", "avatar", 0).await?),
            None => None,
        };
        let name = profile.name.clone();
        let out = ProfileOut {
            id: profile.id,
            name: profile.name,
            login: profile.login,
            email: profile.email,
            bio: profile.description,
            tag: profile.tag_id,
            avatar: avatar.clone(),
            joined_at: at(joined),
            posts_count: profile.stats.posts,
            listeners_count: profile.stats.listeners,
            listened_to_count: profile.stats.listened_to,
        };
        zip.json("profile.json", &out).await?;

        // The posts, each after its files; their list and their part of the index spooled.
        let mut posts_json = Spool::create(self.work.join("posts.json")).await?;
        let mut posts_html = Spool::create(self.work.join("posts.html")).await?;
        let mut list = JsonList::new();
        let mut before: Option<PostId> = None;
        loop {
            let ids: Vec<PostId> = self
                .db
                .run(move |conn| Ok::<_, db::DbError>(posts::export::post_ids_by(conn, user, before, POSTS_PAGE)?))
                .await
                .map_err(|e| Failure::Retry(e.to_string()))?;
            let Some(last) = ids.last().copied() else { break };
            let page = ids.clone();
            let posts: Vec<Post> = self
                .db
                .run(move |conn| Ok::<_, db::DbError>(posts::export::posts_of(conn, &page, user)?))
                .await
                .map_err(|e| Failure::Retry(e.to_string()))?;
            if posts.len() < ids.len() {
                tracing::warn!(user = %user, left_out = ids.len() - posts.len(), "posts of an archive could not be read whole");
            }
            for post in &posts {
                let out = self.post(&mut zip, &mut counts, post).await?;
                posts_json.write(&list.item(&out)?).await?;
                posts_html.write(index::post(&out).as_bytes()).await?;
            }
            before = Some(last);
            if (ids.len() as i64) < POSTS_PAGE {
                break;
            }
        }
        posts_json.write(list.end()).await?;
        counts.posts = list.count;
        posts_json.into_entry(&mut zip, "posts.json").await?;

        zip.entry("comments.json", true).await?;
        let comments = Pages::new(
            self.db,
            move |c, after, n| posts::export::comments_by(c, user, after, n),
            |w| (w.post_id, w.id),
        );
        counts.comments = write_list(&mut zip, comments, |w| CommentOut {
            id: w.id,
            post_id: w.post_id,
            content: w.content.clone(),
            created_at: at(w.created_at),
            edited_at: w.edited_at.map(at),
            at_ms: w.at_ms,
            track: w.track,
            bar: w.bar,
            bar_end: w.bar_end,
        })
        .await?;

        zip.entry("likes.json", true).await?;
        let likes = Pages::new(self.db, move |c, after, n| posts::export::likes_by(c, user, after, n), |m| m.post_id);
        counts.likes = write_list(&mut zip, likes, |m| MarkOut { post_id: m.post_id, at: at(m.at) }).await?;

        zip.entry("reposts.json", true).await?;
        let reposts = Pages::new(self.db, move |c, after, n| posts::export::reposts_by(c, user, after, n), |r| r.0);
        counts.reposts = write_list(&mut zip, reposts, |(_, m)| MarkOut { post_id: m.post_id, at: at(m.at) }).await?;

        zip.entry("playlists.json", true).await?;
        let playlists: Pages<_, PlaylistId, _> =
            Pages::new(self.db, move |c, after, n| posts::export::playlists_by(c, user, after, n), |(p, _)| p.id);
        counts.playlists = write_list(&mut zip, playlists, |(p, items)| PlaylistOut {
            id: p.id,
            title: p.title.clone(),
            description: p.description.clone(),
            public: p.is_public,
            created_at: at(p.created_at),
            updated_at: at(p.updated_at),
            items: items
                .iter()
                .map(|i| ItemOut { post_id: i.post_id, track: i.track, added_at: at(i.added_at) })
                .collect(),
        })
        .await?;

        zip.entry("listens.json", true).await?;
        for (side, key, count) in [
            (Side::ListenedTo, "{\"listening_to\": ", &mut counts.listening_to),
            (Side::Listeners, ",\n\"listeners\": ", &mut counts.listeners),
        ] {
            zip.write(key.as_bytes().to_vec()).await?;
            let ties = Pages::new(
                self.db,
                move |c, after, n| social_graph::export::listens(c, user, side, after, n),
                |t| (t.since, t.person.id),
            );
            *count = write_list(&mut zip, ties, |t| TieOut::from(t)).await?;
        }
        zip.write(&b"}\n"[..]).await?;

        zip.entry("blocks.json", true).await?;
        let blocks =
            Pages::new(self.db, move |c, after, n| social_graph::export::blocked(c, user, after, n), |t| t.person.id);
        counts.blocks = write_list(&mut zip, blocks, |t| TieOut::from(t)).await?;

        zip.entry("notifications.json", true).await?;
        let notes: Pages<_, NotificationId, _> =
            Pages::new(self.db, move |c, after, n| notifications::all_of(c, user, after, n), |n| n.id);
        counts.notifications = write_list(&mut zip, notes, |n| NotificationOut {
            id: n.id,
            r#type: n.kind.as_str(),
            message: n.message(),
            from: (&n.sender).into(),
            post_id: n.post,
            created_at: at(n.created_at),
            read: n.read,
        })
        .await?;

        zip.json(
            "archive.json",
            &About { format: "selfsound-data-export", version: FORMAT_VERSION, made_at: at(self.made_at), counts },
        )
        .await?;
        zip.entry("index.html", true).await?;
        zip.write(index::head(&name, &out, avatar.as_ref(), &at(self.made_at))).await?;
        posts_html.write(index::tail(&counts).as_bytes()).await?;
        posts_html.append_to(&mut zip).await?;
        zip.finish().await?;
        Ok(())
    }

    /// A post as the archive lists it, its files copied in.
    async fn post(&self, zip: &mut Archive, counts: &mut Counts, post: &Post) -> Result<PostOut, Failure> {
        let mut files = Vec::new();
        let (mut media, mut tracks, mut scores, mut lyrics) = (Vec::new(), Vec::new(), Vec::new(), None);
        let folder = format!("posts/{}", post.id);
        match &*post.payload {
            Payload::Media(items) => {
                for (i, m) in items.iter().enumerate() {
                    let role = m.media_type.as_str();
                    files.push(self.file(zip, counts, &m.file_key, &folder, role, i).await?);
                    media.push(MediaOut { r#type: role, width: m.width, height: m.height });
                }
            }
            Payload::Audio(items) => {
                for (i, t) in items.iter().enumerate() {
                    files.push(self.file(zip, counts, &t.file_key, &folder, "track", i).await?);
                    if let Some(cover) = &t.cover_key {
                        files.push(self.file(zip, counts, cover, &folder, "cover", i).await?);
                    }
                    tracks.push(TrackOut {
                        title: t.title.clone(),
                        artist: t.artist.clone(),
                        duration_ms: t.duration_ms,
                        loudness_lufs: t.loudness.map(|l| l.integrated_lufs),
                    });
                }
            }
            Payload::Scores(items) => {
                for (i, s) in items.iter().enumerate() {
                    files.push(self.file(zip, counts, &s.file_key, &folder, "score", i).await?);
                    scores.push(ScoreOut { title: s.title.clone(), composer: s.composer.clone() });
                }
            }
            Payload::Lyrics(l) => {
                lyrics = Some(LyricsOut {
                    title: l.title.clone(),
                    artist: l.artist.clone(),
                    parts: l
                        .parts
                        .iter()
                        .map(|p| LyricsPartOut { r#type: p.part_type.clone(), lyrics: p.lyrics.clone() })
                        .collect(),
                });
            }
        }
        Ok(PostOut {
            id: post.id,
            kind: post.kind().as_str(),
            caption: post.caption.clone(),
            created_at: at(post.created_at),
            edited_at: post.edited_at.map(at),
            genre: post.genre.clone(),
            likes_count: post.likes_count,
            comments_count: post.comments_count,
            plays_count: post.plays_count,
            reposts_count: post.reposts_count,
            files,
            media,
            tracks,
            scores,
            lyrics,
        })
    }

    /// Copies the stored object `key` into `files/<folder>/`, under its own name.
    async fn file(
        &self,
        zip: &mut Archive,
        counts: &mut Counts,
        key: &str,
        folder: &str,
        role: &'static str,
        position: usize,
    ) -> Result<FileOut, Failure> {
        let key = storage::key_of(key).unwrap_or(key);
        let name = key.rsplit('/').next().unwrap_or(key);
        let path = format!("files/{folder}/{name}");
        let copied: Option<Copied> = zip.copy(self.storage, key, &path).await?;
        if copied.is_some() {
            counts.files += 1;
        } else {
            tracing::warn!(%key, "a stored file of an archive was missing");
        }
        Ok(FileOut {
            role,
            position,
            path: copied.as_ref().map(|_| path),
            sha256: copied.as_ref().map(|c| c.sha256.clone()),
            bytes: copied.map(|c| c.bytes),
        })
    }
}

#[derive(Serialize)]
struct CommentOut {
    id: values::CommentId,
    post_id: PostId,
    content: String,
    created_at: String,
    edited_at: Option<String>,
    at_ms: Option<i64>,
    track: Option<i64>,
    bar: Option<i64>,
    bar_end: Option<i64>,
}

#[derive(Serialize)]
struct MarkOut {
    post_id: PostId,
    at: String,
}

#[derive(Serialize)]
struct PlaylistOut {
    id: PlaylistId,
    title: String,
    description: Option<String>,
    public: bool,
    created_at: String,
    updated_at: String,
    items: Vec<ItemOut>,
}

#[derive(Serialize)]
struct ItemOut {
    post_id: PostId,
    track: i64,
    added_at: String,
}

#[derive(Serialize)]
struct NotificationOut {
    id: NotificationId,
    r#type: &'static str,
    message: String,
    from: PersonOut,
    post_id: Option<PostId>,
    created_at: String,
    read: bool,
}
