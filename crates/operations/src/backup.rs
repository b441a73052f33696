//! `selfsound backup`, `restore` and `verify`: a consistent copy of an embedded installation (the
//! SQLite file and the media folder) taken while it serves, brought back into an empty data
//! folder with its checksums checked; and, on any installation, a check that every stored
//! object a row points at exists.
//!
//! **Why the copy is consistent.** The database is copied as one snapshot (`VACUUM INTO` on a
//! connection of our own: a read transaction, so the server's writers go on meanwhile), and the
//! media folder file by file. What makes the pair fit is the order the server writes in:
//! - an object is stored *before* the row that points at it is committed, and is never changed
//!   in place (new content gets a new key). So every object a row of the snapshot points at
//!   existed, whole, when the snapshot was taken: copying objects after the snapshot finds it.
//! - an object is deleted only *after* its row is gone. A row of the snapshot may therefore
//!   point at an object deleted in the moments after the snapshot (a post deleted, an avatar
//!   replaced). Such a key is absent from the copy while the live database no longer points at
//!   it: a delete raced us, and the snapshot is taken again (the objects already copied are
//!   kept: they never change), until no row of the snapshot points at a missing object.
//!
//! So the order is: copy the media folder (the bulk, before the snapshot, so the window for
//! that race is the snapshot's few moments rather than the whole copy's time), take the
//! snapshot, then copy by key each object it points at that is not copied yet (stored between
//! the two). A key the live database still points at that the folder does not have was missing
//! from the installation itself: the backup says so and lists it in the manifest. Objects no row
//! of the snapshot points at (deleted before it, uploads in progress) are copied too: harmless,
//! and a restore is never short of a file because of a judgement made here.
//! Files are flushed to the disk before the manifest is written, last.
//!
//! PostgreSQL and S3-compatible buckets have their own tools (`pg_dump`, a bucket sync); for
//! them [`verify`] is the check that the two copies fit together (docs/operations.md, "Backups").

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Nullable, Text};
use db::diesel::sqlite::SqliteConnection;
use db::{Backend, Db, DbConnection, PoolOptions, StoredColumn};
use futures_util::{StreamExt, TryStreamExt};
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use storage::{ByteRange, Storage, StorageError};

use crate::Installation;
use crate::files::private_dir;

/// The manifest, written last: a folder with one holds a complete backup.
pub const MANIFEST: &str = "manifest.json";
/// The database snapshot's name in a backup.
pub const DATABASE_FILE: &str = "selfsound.sqlite3";
/// The media folder's name, in a backup and under the data folder.
pub const MEDIA: &str = "media";
const FORMAT: u32 = 1;
/// Snapshots taken before giving up on deletes that keep racing the copy (one is the rule; a
/// second is needed when an object the snapshot points at is deleted in the moment after it).
const ROUNDS: usize = 10;
const OTHER_TOOLS: &str = "for PostgreSQL and S3-compatible buckets use their own tools (pg_dump and pg_restore, a \
                           bucket sync), then `selfsound verify`: see docs/operations.md, \"Backups\"";

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0}")]
    NotEmbedded(String),
    #[error("{} must be an empty folder, or not exist yet", .0.display())]
    NotEmpty(PathBuf),
    #[error("{} exists already: a backup is restored only where there is no database yet", .0.display())]
    DatabaseExists(PathBuf),
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("the database: {0}")]
    Database(String),
    #[error("the media store: {0}")]
    Storage(#[from] StorageError),
    #[error("{} is not a backup made by `selfsound backup`: {reason}", dir.display())]
    NotABackup { dir: PathBuf, reason: String },
    #[error("the backup is damaged, nothing was restored:\n  {}", .0.join("\n  "))]
    Damaged(Vec<String>),
    #[error("rows kept pointing at objects deleted during the copy ({0} snapshots); run the backup again")]
    Unsettled(usize),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> BackupError + '_ {
    move |source| BackupError::Io { path: path.to_owned(), source }
}

fn database<E: std::fmt::Display>(e: E) -> BackupError {
    BackupError::Database(e.to_string())
}

/// What a backup holds, as `manifest.json` beside it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Manifest {
    pub format: u32,
    /// When the (last) snapshot was taken, RFC 3339.
    pub created_at: String,
    /// The `selfsound` version that took it.
    pub version: String,
    /// The newest migration the snapshot has.
    pub schema_version: Option<String>,
    /// The database snapshot's path in the backup (also listed in `files`).
    pub database: String,
    /// Snapshots taken: more than one when deletes raced the copy (see the module's comment).
    pub snapshots: usize,
    /// Rows in each table of the snapshot.
    pub row_counts: BTreeMap<String, i64>,
    /// Every file of the backup but the manifest, with its size and SHA-256.
    pub files: Vec<FileEntry>,
    /// Objects rows point at that the installation itself did not have.
    pub missing: Vec<String>,
    /// HMAC-SHA256 (hex) of the manifest without this field, with `SELFSOUND_BACKUP_KEY`, when
    /// the backup was taken with one set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
}

impl Manifest {
    /// What is signed: the manifest's JSON without its signature.
    fn signed_bytes(&self) -> Vec<u8> {
        let unsigned = Manifest { signature: None, ..self.clone() };
        serde_json::to_vec(&unsigned).unwrap_or_default()
    }

    /// HMAC takes a key of any length: none only for an impossible key.
    fn mac(&self, key: &str) -> Option<Hmac<Sha256>> {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key.as_bytes()).ok()?;
        mac.update(&self.signed_bytes());
        Some(mac)
    }

    fn sign(&mut self, key: &str) {
        self.signature = self.mac(key).map(|mac| hex(&mac.finalize().into_bytes()));
    }

    /// Whether the manifest carries a signature made with `key` (compared in constant time).
    fn signed_with(&self, key: &str) -> bool {
        let (Some(sig), Some(mac)) = (self.signature.as_deref().and_then(unhex), self.mac(key)) else { return false };
        mac.verify_slice(&sig).is_ok()
    }
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    (s.len().is_multiple_of(2) && s.is_ascii())
        .then(|| (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok()).collect())
        .flatten()
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct FileEntry {
    /// `/`-separated, relative to the backup folder: `selfsound.sqlite3`, `media/<key>`.
    pub path: String,
    pub size: u64,
    pub sha256: String,
}

/// The two parts of an embedded installation.
struct Embedded {
    database: PathBuf,
    media: PathBuf,
}

fn sqlite_path(config: &Installation) -> Option<PathBuf> {
    let url = &config.database_url;
    (Backend::of_url(url) == Backend::Sqlite).then(|| PathBuf::from(url.strip_prefix("sqlite://").unwrap_or(url)))
}

fn embedded(config: &Installation, command: &str) -> Result<Embedded, BackupError> {
    let Some(database) = sqlite_path(config) else {
        return Err(BackupError::NotEmbedded(format!(
            "`selfsound {command}` copies an embedded installation (a SQLite file and the media folder), and \
             DATABASE_URL names PostgreSQL; {OTHER_TOOLS}"
        )));
    };
    if let Some(s3) = &config.s3 {
        return Err(BackupError::NotEmbedded(format!(
            "`selfsound {command}` copies an embedded installation (a SQLite file and the media folder), and the \
             media are in the bucket {} (SELFSOUND_S3_BUCKET); {OTHER_TOOLS}",
            s3.bucket
        )));
    }
    Ok(Embedded { database, media: config.data_dir.join(MEDIA) })
}

/// Makes `dir` if missing (for this user only: it will hold the database); refuses one that
/// holds anything.
fn claim_empty(dir: &Path) -> Result<(), BackupError> {
    match fs::read_dir(dir) {
        Ok(mut entries) => match entries.next() {
            None => Ok(()),
            Some(_) => Err(BackupError::NotEmpty(dir.to_owned())),
        },
        Err(e) if e.kind() == ErrorKind::NotFound => private_dir(dir).map_err(io(dir)),
        Err(e) => Err(io(dir)(e)),
    }
}

/// A new file for this user only (it may hold the database or people's uploads).
fn create_private(path: &Path) -> Result<File, BackupError> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path).map_err(io(path))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Copies `from` to a new file `to` (made with its parent folders), flushed to the disk;
/// answers its size and SHA-256, or `None` when `from` is gone (deleted meanwhile).
fn copy_file(from: &Path, to: &Path) -> Result<Option<(u64, String)>, BackupError> {
    let mut source = match File::open(from) {
        Ok(f) => f,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(from)(e)),
    };
    if let Some(parent) = to.parent() {
        private_dir(parent).map_err(io(parent))?;
    }
    let mut target = create_private(to)?;
    let mut hasher = Sha256::new();
    let mut size = 0u64;
    let mut buf = vec![0u8; 256 * 1024];
    loop {
        let n = source.read(&mut buf).map_err(io(from))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        target.write_all(&buf[..n]).map_err(io(to))?;
        size += n as u64;
    }
    target.sync_all().map_err(io(to))?;
    Ok(Some((size, hex(&hasher.finalize()))))
}

fn hash_file(path: &Path) -> Result<(u64, String), BackupError> {
    let mut file = File::open(path).map_err(io(path))?;
    let mut hasher = Sha256::new();
    let size = std::io::copy(&mut file, &mut hasher).map_err(io(path))?;
    Ok((size, hex(&hasher.finalize())))
}

/// The storage key a file under the media folder holds, or `None` for what is not an object
/// (the staging files of uploads in progress, whose names carry a `#`).
fn key_of_path(relative: &Path) -> Option<String> {
    let parts: Option<Vec<&str>> = relative.components().map(|c| c.as_os_str().to_str()).collect();
    let key = parts?.join("/");
    storage::check_key(&key).is_ok().then_some(key)
}

/// The columns that point at stored objects, as the domains name them: the files of posts
/// (pictures, videos and their display copies and posters, audio and covers, scores) and
/// avatars.
fn stored_columns() -> impl Iterator<Item = &'static StoredColumn> {
    posts::stored_columns().chain(profiles::STORED.iter()).chain(app::export::STORED.iter())
}

/// Every stored object a row points at, with a column that does (`table.column`).
pub fn referenced_keys(conn: &mut DbConnection) -> Result<BTreeMap<String, &'static str>, db::DbError> {
    let mut keys = BTreeMap::new();
    for stored in stored_columns() {
        for key in (stored.keys)(conn)? {
            keys.entry(key).or_insert(stored.column);
        }
    }
    Ok(keys)
}

/// A connection of our own to a SQLite file that exists (opening a missing path would make an
/// empty database there).
fn open_sqlite(path: &Path) -> Result<SqliteConnection, BackupError> {
    if !path.is_file() {
        return Err(BackupError::Database(format!("no database at {}", path.display())));
    }
    let url = path.to_str().ok_or_else(|| database(format!("{} is not a UTF-8 path", path.display())))?;
    let mut conn = SqliteConnection::establish(url).map_err(database)?;
    // The server's writers hold the lock for moments; wait for them rather than fail.
    db::diesel::sql_query("PRAGMA busy_timeout = 5000").execute(&mut conn).map_err(database)?;
    Ok(conn)
}

/// Rows per table and the newest migration, read from a snapshot.
fn census(conn: &mut SqliteConnection) -> Result<(BTreeMap<String, i64>, Option<String>), BackupError> {
    use db::diesel::dsl::sql;
    let tables: Vec<String> = db::diesel::select(sql::<Text>(
        "name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    ))
    .load(conn)
    .map_err(database)?;
    let mut counts = BTreeMap::new();
    for table in tables {
        let quoted = table.replace('"', "\"\"");
        let n: i64 = db::diesel::select(sql::<BigInt>(&format!("count(*) FROM \"{quoted}\"")))
            .get_result(conn)
            .map_err(database)?;
        counts.insert(table, n);
    }
    let schema = db::diesel::select(sql::<Nullable<Text>>("max(version) FROM __diesel_schema_migrations"))
        .get_result(conn)
        .ok()
        .flatten();
    Ok((counts, schema))
}

/// Copies the objects under `from` not copied yet into `to`, recording each by its key. A file
/// deleted meanwhile is skipped; objects never change, so one copied earlier is kept.
fn copy_media(from: &Path, to: &Path, copied: &mut BTreeMap<String, FileEntry>) -> Result<(), BackupError> {
    let mut folders = vec![PathBuf::new()];
    while let Some(relative) = folders.pop() {
        let here = from.join(&relative);
        let entries = match fs::read_dir(&here) {
            Ok(entries) => entries,
            // A folder emptied and removed meanwhile (or no media at all yet).
            Err(e) if e.kind() == ErrorKind::NotFound => continue,
            Err(e) => return Err(io(&here)(e)),
        };
        for entry in entries {
            let entry = entry.map_err(io(&here))?;
            let path = relative.join(entry.file_name());
            let kind = match entry.file_type() {
                Ok(kind) => kind,
                Err(e) if e.kind() == ErrorKind::NotFound => continue,
                Err(e) => return Err(io(&from.join(&path))(e)),
            };
            if kind.is_dir() {
                folders.push(path);
                continue;
            }
            let Some(key) = key_of_path(&path).filter(|k| kind.is_file() && !copied.contains_key(k)) else {
                continue;
            };
            copy_object(from, to, &key, copied)?;
        }
    }
    Ok(())
}

/// Copies the object `key` from the media folder `from` into `to` and records it; false when
/// there is no such object (deleted meanwhile, or a key no object can have).
fn copy_object(
    from: &Path,
    to: &Path,
    key: &str,
    copied: &mut BTreeMap<String, FileEntry>,
) -> Result<bool, BackupError> {
    if storage::check_key(key).is_err() {
        return Ok(false);
    }
    let Some((size, sha256)) = copy_file(&from.join(key), &to.join(key))? else {
        return Ok(false);
    };
    copied.insert(key.to_owned(), FileEntry { path: format!("{MEDIA}/{key}"), size, sha256 });
    Ok(true)
}

/// Takes a snapshot of the live database into `to` (a new file for this user only).
fn snapshot(live: &mut DbConnection, to: &Path) -> Result<(), BackupError> {
    match fs::remove_file(to) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => return Err(io(to)(e)),
    }
    // VACUUM INTO takes an empty file, so the snapshot gets this one's mode.
    drop(create_private(to)?);
    let target = to.to_str().ok_or_else(|| database(format!("{} is not a UTF-8 path", to.display())))?;
    db::diesel::sql_query("VACUUM INTO ?").bind::<Text, _>(target).execute(live).map_err(database)?;
    File::open(to).and_then(|f| f.sync_all()).map_err(io(to))
}

/// Copies the embedded installation `config` names into `dir` (empty or new) while it serves;
/// answers the manifest written beside the copy.
pub fn backup(config: &Installation, dir: &Path) -> Result<Manifest, BackupError> {
    let site = embedded(config, "backup")?;
    let mut live = DbConnection::Sqlite(open_sqlite(&site.database)?);
    claim_empty(dir)?;
    let snapshot_path = dir.join(DATABASE_FILE);
    let media_copy = dir.join(MEDIA);
    let mut copied = BTreeMap::new();
    let mut missing = Vec::new();
    let mut taken_at = chrono::Utc::now();
    let mut snapshots = 0;
    for round in 1..=ROUNDS {
        snapshots = round;
        // The bulk of the media (later rounds: what was added since), copied just before the
        // snapshot, so that what the snapshot points at is nearly all here already and the
        // window for a delete to race us is the snapshot's time, not the copy's.
        copy_media(&site.media, &media_copy, &mut copied)?;
        taken_at = chrono::Utc::now();
        snapshot(&mut live, &snapshot_path)?;
        let wanted = referenced_keys(&mut DbConnection::Sqlite(open_sqlite(&snapshot_path)?)).map_err(database)?;
        // Objects stored between that copy and the snapshot, copied now by their keys.
        let mut absent = Vec::new();
        let uncopied: Vec<String> = wanted.into_keys().filter(|k| !copied.contains_key(k)).collect();
        for key in uncopied {
            if !copy_object(&site.media, &media_copy, &key, &mut copied)? {
                absent.push(key);
            }
        }
        if absent.is_empty() {
            missing.clear();
            break;
        }
        // Absent: deleted after the snapshot (its row is gone from the live database by now),
        // or missing from the installation (the live database still points at it).
        let still = referenced_keys(&mut live).map_err(database)?;
        let (kept, raced): (Vec<String>, Vec<String>) = absent.into_iter().partition(|k| still.contains_key(k));
        missing = kept;
        if raced.is_empty() {
            break;
        }
        if round == ROUNDS {
            return Err(BackupError::Unsettled(ROUNDS));
        }
        tracing::info!(
            deleted = raced.len(),
            "rows of the snapshot point at objects deleted since it was taken: taking it again"
        );
    }
    drop(live);
    for key in &missing {
        tracing::warn!(%key, "a row points at an object the installation does not have; the backup lists it as missing");
    }
    let (row_counts, schema_version) = census(&mut open_sqlite(&snapshot_path)?)?;
    let (size, sha256) = hash_file(&snapshot_path)?;
    let mut files = vec![FileEntry { path: DATABASE_FILE.into(), size, sha256 }];
    files.extend(copied.into_values());
    let mut manifest = Manifest {
        format: FORMAT,
        created_at: taken_at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        version: env!("CARGO_PKG_VERSION").into(),
        schema_version,
        database: DATABASE_FILE.into(),
        snapshots,
        row_counts,
        files,
        missing,
        signature: None,
    };
    if let Some(key) = &config.backup_key {
        manifest.sign(key);
    }
    write_manifest(dir, &manifest)?;
    Ok(manifest)
}

fn write_manifest(dir: &Path, manifest: &Manifest) -> Result<(), BackupError> {
    let partial = dir.join(format!("{MANIFEST}.partial"));
    let json = serde_json::to_vec_pretty(manifest).map_err(|e| io(&partial)(e.into()))?;
    let mut file = create_private(&partial)?;
    file.write_all(&json).and_then(|()| file.sync_all()).map_err(io(&partial))?;
    let path = dir.join(MANIFEST);
    fs::rename(&partial, &path).map_err(io(&path))
}

/// Reads and checks the manifest of the backup in `dir`: its format, and that every file it
/// names is inside the backup (the database is [`DATABASE_FILE`], an object `media/<key>`): a
/// manifest naming `/etc/hostname` as its database was once restored from it.
pub fn read_manifest(dir: &Path) -> Result<Manifest, BackupError> {
    let path = dir.join(MANIFEST);
    let not_a_backup = |reason: String| BackupError::NotABackup { dir: dir.to_owned(), reason };
    let text = fs::read(&path).map_err(|e| not_a_backup(format!("{MANIFEST}: {e}")))?;
    let manifest: Manifest = serde_json::from_slice(&text).map_err(|e| not_a_backup(format!("{MANIFEST}: {e}")))?;
    if manifest.format != FORMAT {
        return Err(not_a_backup(format!("format {} (this version reads {FORMAT})", manifest.format)));
    }
    if manifest.database != DATABASE_FILE {
        return Err(not_a_backup(format!("its manifest names {:?} as its database", manifest.database)));
    }
    if !manifest.files.iter().any(|f| f.path == manifest.database) {
        return Err(not_a_backup("its manifest lists no database".into()));
    }
    for entry in &manifest.files {
        let inside = entry.path == DATABASE_FILE
            || entry.path.strip_prefix(&format!("{MEDIA}/")).is_some_and(|k| storage::check_key(k).is_ok());
        if !inside {
            return Err(not_a_backup(format!(
                "its manifest names {:?}, which is neither the database nor an object",
                entry.path
            )));
        }
    }
    Ok(manifest)
}

/// What a restore did.
#[derive(Debug)]
pub struct Restored {
    pub manifest: Manifest,
    /// Sessions the backup held, all ended: a session signed out after the backup was taken
    /// must not come back with it, so everyone signs in again.
    pub sessions_ended: usize,
    /// Whether the manifest's signature was checked against `SELFSOUND_BACKUP_KEY`.
    pub signature_checked: bool,
}

/// Brings the backup in `dir` into the empty installation `config` names (its data folder
/// empty or new, no database file yet), checking every file against the manifest. On any
/// mismatch nothing is left behind.
///
/// The checksums find damage, not tampering: whoever can write the backup can write its
/// manifest. With `SELFSOUND_BACKUP_KEY` set (the key the backup was taken with), a manifest
/// not signed with it is refused; without one, the backup is trusted input (docs/operations.md,
/// "Backups", says how to keep it so). Every session it holds is ended.
pub fn restore(config: &Installation, dir: &Path) -> Result<Restored, BackupError> {
    let site = embedded(config, "restore")?;
    let manifest = read_manifest(dir)?;
    if let Some(key) = &config.backup_key
        && !manifest.signed_with(key)
    {
        let reason = match manifest.signature {
            None => "its manifest is not signed, and SELFSOUND_BACKUP_KEY is set".to_owned(),
            Some(_) => "its manifest's signature does not match SELFSOUND_BACKUP_KEY: the manifest was changed \
                        since it was signed, or signed with another key"
                .to_owned(),
        };
        return Err(BackupError::NotABackup { dir: dir.to_owned(), reason });
    }
    let mut plan = Vec::with_capacity(manifest.files.len());
    for entry in &manifest.files {
        let to = match entry.path.strip_prefix(&format!("{MEDIA}/")) {
            Some(key) => site.media.join(key),
            None => site.database.clone(),
        };
        let from = dir.join(&entry.path);
        // A link would read whatever it points at, anywhere on the machine.
        if fs::symlink_metadata(&from).is_ok_and(|m| !m.is_file()) {
            return Err(BackupError::NotABackup {
                dir: dir.to_owned(),
                reason: format!("{} is not a plain file", entry.path),
            });
        }
        plan.push((from, to, entry));
    }
    for leftover in ["", "-wal", "-shm"].map(|end| PathBuf::from(format!("{}{end}", site.database.display()))) {
        if leftover.exists() {
            return Err(BackupError::DatabaseExists(leftover));
        }
    }
    claim_empty(&config.data_dir)?;
    let mut damaged = Vec::new();
    let mut failure = None;
    for (from, to, entry) in &plan {
        match copy_file(from, to) {
            Ok(Some((size, sha256))) if size == entry.size && sha256 == entry.sha256 => {}
            Ok(Some((size, _))) if size != entry.size => {
                damaged.push(format!("{}: {size} bytes, the manifest says {}", entry.path, entry.size))
            }
            Ok(Some(_)) => damaged.push(format!("{}: its SHA-256 is not the manifest's", entry.path)),
            Ok(None) => damaged.push(format!("{}: missing from the backup", entry.path)),
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    if failure.is_none() && damaged.is_empty() {
        let ended = open_sqlite(&site.database)
            .and_then(|mut conn| db::diesel::sql_query("DELETE FROM sessions").execute(&mut conn).map_err(database));
        match ended {
            Ok(sessions_ended) => {
                let signature_checked = config.backup_key.is_some();
                return Ok(Restored { manifest, sessions_ended, signature_checked });
            }
            Err(e) => failure = Some(e),
        }
    }
    // Leave the installation as empty as it was.
    for path in [site.database.clone(), site.media.clone()] {
        let removed = if path.is_dir() { fs::remove_dir_all(&path) } else { fs::remove_file(&path) };
        if let Err(e) = removed.or_else(|e| if e.kind() == ErrorKind::NotFound { Ok(()) } else { Err(e) }) {
            tracing::warn!(path = %path.display(), error = %e, "could not remove a partly restored file");
        }
    }
    Err(failure.unwrap_or(BackupError::Damaged(damaged)))
}

/// What [`verify`] found.
#[derive(Debug)]
pub struct VerifyReport {
    /// Distinct objects rows point at.
    pub checked: usize,
    /// Those the store does not have, each with a column that points at it.
    pub missing: Vec<(String, &'static str)>,
    /// The store looked in.
    pub store: String,
}

/// Whether the store holds `key`, asking for one byte (a `HEAD` and a ranged read on S3).
async fn exists(storage: &Storage, key: &str) -> Result<bool, StorageError> {
    match storage.get(key, Some(ByteRange::From { start: 0, end_inclusive: Some(0) })).await {
        Ok(_) | Err(StorageError::RangeNotSatisfiable { .. }) => Ok(true),
        // A key no object can have is as missing as any.
        Err(StorageError::NotFound | StorageError::InvalidKey) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Checks that every object a row of the configured database points at exists in the
/// configured store (the media folder or the bucket). Safe while the server runs: an object
/// found missing is reported only if a row still points at it after the check, since objects
/// are deleted after their rows.
pub async fn verify(config: &Installation) -> Result<VerifyReport, BackupError> {
    if let Some(path) = sqlite_path(config)
        && !path.is_file()
    {
        return Err(BackupError::Database(format!("no database at {}", path.display())));
    }
    let options = PoolOptions { max_size: 2, ..PoolOptions::default() };
    let db = Db::connect_without_migrating(&config.database_url, &options).map_err(database)?;
    let storage = match &config.s3 {
        Some(s3) => Storage::s3(s3)?,
        None => Storage::local(&config.data_dir.join(MEDIA))?,
    };
    let keys = db.run(referenced_keys).await.map_err(database)?;
    let absent: Vec<String> = futures_util::stream::iter(keys.keys().cloned())
        .map(|key| {
            let storage = storage.clone();
            async move { Ok::<_, StorageError>((!exists(&storage, &key).await?).then_some(key)) }
        })
        .buffer_unordered(16)
        .try_filter_map(|found| async move { Ok(found) })
        .try_collect()
        .await?;
    let mut missing = Vec::new();
    if !absent.is_empty() {
        let still = db.run(referenced_keys).await.map_err(database)?;
        missing = absent.into_iter().filter_map(|k| still.get(&k).map(|column| (k, *column))).collect();
        missing.sort();
    }
    Ok(VerifyReport { checked: keys.len(), missing, store: storage.describe().to_owned() })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Every column of the schema that can hold a stored object's key or URL is one a domain
    /// names ([`referenced_keys`] reads them): a new one left out would make backups and
    /// `verify` blind to it.
    #[test]
    fn every_column_that_names_an_object_is_read() {
        let schema = include_str!("../../db/src/schema.rs");
        let mut table = "";
        let mut columns = Vec::new();
        for line in schema.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [name, key, .., "{"] if key.starts_with('(') => table = name,
                [column, "->", ..] if column.ends_with("_key") || column.ends_with("_url") => {
                    columns.push(format!("{table}.{column}"))
                }
                _ => {}
            }
        }
        columns.sort();
        let mut read: Vec<String> = stored_columns().map(|stored| stored.column.to_owned()).collect();
        read.sort();
        assert_eq!(columns, read);
    }

    #[test]
    fn only_object_keys_are_copied_from_the_media_folder() {
        assert_eq!(key_of_path(Path::new("posts/12/ab-c.png")).as_deref(), Some("posts/12/ab-c.png"));
        // object_store's staging files of uploads in progress.
        assert_eq!(key_of_path(Path::new("posts/12/ab-c.png#1")), None);
        assert_eq!(key_of_path(Path::new("Thumbs.DB")), None);
    }

    #[test]
    fn a_backup_goes_only_into_an_empty_or_new_folder() {
        let root = tempfile::tempdir().unwrap();
        let new = root.path().join("a/b");
        claim_empty(&new).unwrap();
        assert!(new.is_dir());
        claim_empty(&new).unwrap();
        fs::write(new.join("x"), b"x").unwrap();
        assert!(matches!(claim_empty(&new), Err(BackupError::NotEmpty(_))));
    }

    #[test]
    fn postgresql_and_buckets_are_pointed_to_their_own_tools() {
        let root = tempfile::tempdir().unwrap();
        let data_dir = root.path().join("data");
        let bucket = storage::S3Settings {
            bucket: "media".into(),
            endpoint: None,
            region: None,
            access_key_id: None,
            secret_access_key: None,
        };
        for config in [
            Installation {
                database_url: "postgres://postgres@127.0.0.1/selfsound".into(),
                data_dir: data_dir.clone(),
                s3: None,
                backup_key: None,
            },
            Installation {
                database_url: "data/selfsound.sqlite3".into(),
                data_dir: data_dir.clone(),
                s3: Some(bucket),
                backup_key: None,
            },
        ] {
            let err = backup(&config, root.path()).unwrap_err().to_string();
            assert!(err.contains("pg_dump") && err.contains("docs/operations.md"), "{err}");
            assert!(restore(&config, root.path()).unwrap_err().to_string().contains("pg_dump"));
        }
        assert_eq!(fs::read_dir(root.path()).unwrap().count(), 0, "nothing was written");
    }

    #[test]
    fn copies_are_checksummed_and_a_vanished_file_is_skipped() {
        let root = tempfile::tempdir().unwrap();
        fs::write(root.path().join("a"), b"abc").unwrap();
        let (size, sha) = copy_file(&root.path().join("a"), &root.path().join("x/y/a")).unwrap().unwrap();
        assert_eq!(size, 3);
        assert_eq!(sha, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(fs::read(root.path().join("x/y/a")).unwrap(), b"abc");
        assert!(copy_file(&root.path().join("gone"), &root.path().join("gone-copy")).unwrap().is_none());
        assert!(!root.path().join("gone-copy").exists());
    }
}
