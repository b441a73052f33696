//! The profile rules as one service: read, edit, stats, search, avatars.

use bytes::Bytes;
use db::{Db, Id, write_tx};
use media_validation::{MediaError, sniff_image, strip_image_metadata};
use storage::Storage;

use crate::input::ProfilePatch;
use crate::model::{Profile, SearchHit, Stats};
use crate::{ProfileError, repo, search};

/// Avatars must be smaller than this (spec: under 5MB).
pub const AVATAR_MAX_BYTES: usize = 5 * 1024 * 1024;
/// Bounds on the picture itself, so a small file cannot claim a huge image.
const AVATAR_MAX_SIDE: u32 = 8192;
const AVATAR_MAX_PIXELS: u64 = 40_000_000;
/// Where avatars live, as a URL path on our server.
pub const MEDIA_PREFIX: &str = "/media/";
const SEARCH_MAX: i64 = 50;

#[derive(Clone)]
pub struct Profiles {
    db: Db,
    storage: Storage,
}

impl Profiles {
    pub fn new(db: Db, storage: Storage) -> Profiles {
        Profiles { db, storage }
    }

    pub async fn profile(&self, id: Id) -> Result<Profile, ProfileError> {
        self.db.run(move |conn| repo::profile(conn, id)?.ok_or(ProfileError::NotFound)).await
    }

    pub async fn stats(&self, id: Id) -> Result<Stats, ProfileError> {
        self.db.run(move |conn| repo::stats(conn, id)?.ok_or(ProfileError::NotFound)).await
    }

    /// Applies an edit to `me`'s own profile (the only one a person can edit).
    pub async fn update(&self, me: Id, patch: ProfilePatch) -> Result<Profile, ProfileError> {
        let patch = patch.check()?;
        let result = self
            .db
            .run(move |conn| {
                write_tx(conn, |conn| {
                    if let Some(login) = &patch.login
                        && repo::login_taken(conn, login, me)?
                    {
                        return Err(ProfileError::LoginTaken);
                    }
                    repo::apply(conn, me, &patch)?;
                    repo::profile(conn, me)?.ok_or(ProfileError::NotFound)
                })
            })
            .await;
        match result {
            // Two people claiming one login at the same moment: the unique index decides.
            Err(ProfileError::Db(e)) if e.is_unique_violation() => Err(ProfileError::LoginTaken),
            other => other,
        }
    }

    /// People matching `query`; with a signed-in viewer, each says whether the viewer already
    /// listens to them. The viewer is never among the results.
    pub async fn search(&self, viewer: Option<Id>, query: &str, limit: i64) -> Result<Vec<SearchHit>, ProfileError> {
        let query: String = query.trim().to_lowercase().chars().take(100).collect();
        let limit = limit.clamp(1, SEARCH_MAX);
        self.db
            .run(move |conn| {
                let users = search::search(conn, &query, viewer.unwrap_or(Id(0)), limit)?;
                let listening = match viewer {
                    Some(me) => {
                        let ids: Vec<i64> = users.iter().map(|u| u.id).collect();
                        social_graph::listening_among(conn, me, &ids)?
                    }
                    None => Default::default(),
                };
                Ok(users.into_iter().map(|user| SearchHit { active: listening.contains(&user.id), user }).collect())
            })
            .await
    }

    /// Checks an uploaded avatar by its bytes, strips its metadata, stores it, points the
    /// profile at it and removes the one it replaces. Answers the new avatar's URL path.
    pub async fn replace_avatar(&self, me: Id, upload: Vec<u8>) -> Result<String, ProfileError> {
        if upload.len() >= AVATAR_MAX_BYTES {
            return Err(ProfileError::AvatarTooLarge);
        }
        let facts = sniff_image(&upload, AVATAR_MAX_SIDE, AVATAR_MAX_PIXELS).map_err(|e| match e {
            MediaError::UnsupportedType => ProfileError::AvatarType,
            MediaError::Malformed => ProfileError::AvatarUnreadable("The image could not be read".into()),
            e @ MediaError::TooManyPixels { .. } => ProfileError::AvatarUnreadable(format!("Image is too large: {e}")),
        })?;
        let clean = strip_image_metadata(&upload, facts.kind)
            .map_err(|_| ProfileError::AvatarUnreadable("The image could not be read".into()))?;
        let key = format!("avatars/{me}/{:016x}.{}", rand::random::<u64>(), facts.kind.extension());
        self.storage.put(&key, Bytes::from(clean)).await?;
        let url = format!("{MEDIA_PREFIX}{key}");
        let new_url = url.clone();
        // One transaction, so two uploads at once cannot both take the same old avatar to delete.
        let swapped = self
            .db
            .run(move |conn| write_tx(conn, |conn| Ok::<_, ProfileError>(repo::swap_avatar(conn, me, &new_url)?)))
            .await;
        match swapped {
            Ok(Some(old)) => {
                if let Some(old) = old {
                    self.forget_avatar(&old).await;
                }
                Ok(url)
            }
            Ok(None) | Err(_) => {
                // The row is gone or the write failed: the new object must not linger.
                if let Err(e) = self.storage.delete(&key).await {
                    tracing::warn!(error = %e, %key, "could not remove an unused avatar");
                }
                swapped.and_then(|_| Err(ProfileError::NotFound))
            }
        }
    }

    /// Removes a stored avatar (one of ours; outside pictures are left alone). Best effort: a
    /// failure is logged.
    pub async fn forget_avatar(&self, url: &str) {
        if let Some(key) = url.strip_prefix(MEDIA_PREFIX).filter(|k| k.starts_with("avatars/"))
            && let Err(e) = self.storage.delete(key).await
        {
            tracing::warn!(error = %e, %key, "could not remove an old avatar");
        }
    }

    /// Removes stored avatars no profile points to (left by a failed or interrupted upload),
    /// once they are an hour old, so an upload in progress is never touched. Answers how many.
    pub async fn sweep_orphan_avatars(&self) -> Result<usize, ProfileError> {
        let cutoff = chrono::Utc::now() - chrono::Duration::hours(1);
        let keys = self.storage.list_older_than("avatars", cutoff).await?;
        let mut removed = 0;
        for batch in keys.chunks(500) {
            let urls: Vec<String> = batch.iter().map(|k| format!("{MEDIA_PREFIX}{k}")).collect();
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

    pub fn storage(&self) -> &Storage {
        &self.storage
    }
}
