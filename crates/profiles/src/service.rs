//! The profile use cases, one transaction each: read, edit, stats, avatars. And this domain's
//! part when an account goes ([`release_account`]), which runs in the deleting transaction.

use bytes::Bytes;
use db::{Db, DbConnection};
use media_validation::{MediaError, avatar_copy, sniff_image, strip_image_metadata};
use storage::Storage;
use values::UserId;

use crate::error::AvatarDefect;
use crate::input::ProfilePatch;
use crate::model::{Profile, Stats};
use crate::{ProfileError, repo};

/// Avatars must be smaller than this (spec: under 5MB).
pub const AVATAR_MAX_BYTES: usize = 5 * 1024 * 1024;
/// Bounds on the picture itself, so a small file cannot claim a huge image.
const AVATAR_MAX_SIDE: u32 = 8192;
const AVATAR_MAX_PIXELS: u64 = 40_000_000;
/// Avatars are stored scaled down to at most this many pixels on their longer side. The largest
/// avatar the web app shows is 128 CSS pixels across (the profile header on a wide screen),
/// 256 device pixels on a high-density screen; avatars are cut to a circle that covers their
/// shorter side, so 512 on the longer side keeps 256 on the shorter one for pictures up to 2:1.
pub const AVATAR_SIDE: u32 = 512;
/// The storage keys of avatars start with this.
const AVATAR_KEYS: &str = "avatars/";

/// Why an upload that is not a usable avatar was refused.
fn avatar_error(e: MediaError) -> ProfileError {
    match e {
        MediaError::UnsupportedType => ProfileError::AvatarType,
        e @ (MediaError::TooManyPixels { .. } | MediaError::TooLargeToDecode { .. }) => {
            ProfileError::AvatarUnreadable(AvatarDefect::TooManyPixels(e))
        }
        _ => ProfileError::AvatarUnreadable(AvatarDefect::Damaged),
    }
}

/// The storage key of an avatar URL that is one of ours (outside pictures, e.g. a Google
/// profile photo, are not).
fn avatar_key(url: &str) -> Option<&str> {
    storage::key_of(url).filter(|k| k.starts_with(AVATAR_KEYS))
}

/// This domain's part when an account is deleted: answers the stored objects the profile owned
/// (its avatar), to be removed once the deleting transaction has committed.
pub fn release_account(conn: &mut DbConnection, user: UserId) -> Result<Vec<String>, ProfileError> {
    let avatar = repo::avatar_of(conn, user)?;
    Ok(avatar.as_deref().and_then(avatar_key).map(str::to_owned).into_iter().collect())
}

#[derive(Clone)]
pub struct Profiles {
    db: Db,
    storage: Storage,
}

impl Profiles {
    pub fn new(db: Db, storage: Storage) -> Profiles {
        Profiles { db, storage }
    }

    pub async fn profile(&self, id: UserId) -> Result<Profile, ProfileError> {
        self.db.run(move |conn| repo::profile(conn, id)?.ok_or(ProfileError::NotFound)).await
    }

    pub async fn stats(&self, id: UserId) -> Result<Stats, ProfileError> {
        self.db.run(move |conn| repo::stats(conn, id)?.ok_or(ProfileError::NotFound)).await
    }

    /// Applies an edit to `me`'s own profile (the only one a person can edit).
    pub async fn update(&self, me: UserId, patch: ProfilePatch) -> Result<Profile, ProfileError> {
        // Only this person changes their login, so reading it before the transaction is safe.
        let current = self.db.run(move |conn| repo::login_of(conn, me)?.ok_or(ProfileError::NotFound)).await?;
        let patch = patch.check(&current)?;
        let result = self
            .db
            .write(move |conn| {
                if let Some(login) = &patch.login
                    && repo::login_taken(conn, login, me)?
                {
                    return Err(ProfileError::LoginTaken);
                }
                repo::apply(conn, me, &patch)?;
                repo::profile(conn, me)?.ok_or(ProfileError::NotFound)
            })
            .await;
        match result {
            // Two people claiming one login at the same moment: the unique index decides.
            Err(ProfileError::Db(e)) if e.is_unique_violation() => Err(ProfileError::LoginTaken),
            other => other,
        }
    }

    /// Checks an uploaded avatar by its bytes, strips its metadata, scales it down to
    /// [`AVATAR_SIDE`] (a PNG with transparent pixels stays a PNG, any other picture becomes a
    /// JPEG; one already that small is kept as it is), stores it, points the profile at it and
    /// removes the one it replaces. Answers the new avatar's URL path.
    pub async fn replace_avatar(&self, me: UserId, upload: Vec<u8>) -> Result<String, ProfileError> {
        if upload.len() >= AVATAR_MAX_BYTES {
            return Err(ProfileError::AvatarTooLarge);
        }
        let facts = sniff_image(&upload, AVATAR_MAX_SIDE, AVATAR_MAX_PIXELS).map_err(avatar_error)?;
        let clean = strip_image_metadata(&upload, facts.kind)
            .map_err(|_| ProfileError::AvatarUnreadable(AvatarDefect::Damaged))?;
        drop(upload);
        // Decoding is CPU and memory work: on a blocking thread, within media-validation's
        // decode memory budget (it waits there while other decodes hold the budget).
        let (bytes, kind) = tokio::task::spawn_blocking(move || match avatar_copy(&clean, facts.kind, AVATAR_SIDE) {
            Ok(Some(scaled)) => Ok((scaled.bytes, scaled.kind)),
            Ok(None) => Ok((clean, facts.kind)),
            Err(e) => Err(avatar_error(e)),
        })
        .await
        .map_err(|_| ProfileError::AvatarUnreadable(AvatarDefect::Damaged))??;
        let key = format!("{AVATAR_KEYS}{me}/{:016x}.{}", rand::random::<u64>(), kind.extension());
        self.storage.put(&key, Bytes::from(bytes)).await?;
        let url = storage::url_of(&key);
        let new_url = url.clone();
        // One transaction, so two uploads at once cannot both take the same old avatar to delete.
        let swapped = self.db.write(move |conn| Ok::<_, ProfileError>(repo::swap_avatar(conn, me, &new_url)?)).await;
        match swapped {
            Ok(Some(old)) => {
                if let Some(key) = old.as_deref().and_then(avatar_key) {
                    self.remove_stored(key).await;
                }
                Ok(url)
            }
            Ok(None) | Err(_) => {
                // The row is gone or the write failed: the new object must not linger.
                self.remove_stored(&key).await;
                swapped.and_then(|_| Err(ProfileError::NotFound))
            }
        }
    }

    /// Best effort: a failure is logged, and the hourly sweep gets another chance.
    async fn remove_stored(&self, key: &str) {
        if let Err(e) = self.storage.delete(key).await {
            tracing::warn!(error = %e, %key, "could not remove a stored avatar");
        }
    }

    /// Removes stored avatars no profile points to (left by a failed or interrupted upload),
    /// once they are an hour old, so an upload in progress is never touched. Answers how many.
    pub async fn sweep_orphan_avatars(&self) -> Result<usize, ProfileError> {
        let cutoff = chrono::Utc::now() - chrono::Duration::hours(1);
        let keys = self.storage.list_older_than(AVATAR_KEYS.trim_end_matches('/'), cutoff).await?;
        let mut removed = 0;
        for batch in keys.chunks(500) {
            let urls: Vec<String> = batch.iter().map(|k| storage::url_of(k)).collect();
            let lookup = urls.clone();
            let used = self.db.run(move |conn| Ok::<_, ProfileError>(repo::avatars_in_use(conn, &lookup)?)).await?;
            for (key, url) in batch.iter().zip(&urls) {
                if !used.contains(url) {
                    self.storage.delete(key).await?;
                    removed += 1;
                }
            }
        }
        Ok(removed)
    }
}
