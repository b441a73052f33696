//! The use cases of posts, one transaction each.

use std::sync::Arc;

use db::model::UserCard;
use db::{Db, DbConnection, Page, write_tx};
use storage::Storage;
use values::{PostId, UserId};

use crate::PostError;
use crate::comments;
use crate::create::{self, AudioUpload, MediaUpload, PROCESSING_SLOTS, ScoreUpload, Stored};
use crate::feed::{self, Feed, FeedPage};
use crate::input::{self, LyricsInput};
use crate::model::{Comment, LyricsRow, Post, PostKind, PostRow};
use crate::repo::{self, NewPayload};
use media_validation::limits;

/// This domain's part when an account is deleted, inside the deleting transaction: the counts
/// its likes and comments added to others' posts are given back, and its posts are deleted.
/// Answers the stored objects to remove once the transaction has committed.
pub fn release_account(conn: &mut DbConnection, user: UserId) -> Result<Vec<String>, PostError> {
    repo::release_account_rows(conn, user)
}

#[derive(Clone)]
pub struct Posts {
    db: Db,
    storage: Storage,
    slots: Arc<tokio::sync::Semaphore>,
}

impl Posts {
    pub fn new(db: Db, storage: Storage) -> Posts {
        Posts { db, storage, slots: Arc::new(tokio::sync::Semaphore::new(PROCESSING_SLOTS)) }
    }

    /// A page of a list of posts as `viewer` may see it.
    pub async fn feed(&self, feed: Feed, page: FeedPage, viewer: Option<UserId>) -> Result<Vec<Post>, PostError> {
        self.db
            .run(move |conn| {
                if let Feed::User(u) = feed
                    && !repo::user_exists(conn, u)?
                {
                    return Err(PostError::UserNotFound);
                }
                Ok(feed::page(conn, feed, page, viewer)?)
            })
            .await
    }

    /// One post, as `viewer` may see it (a block between them answers not found).
    pub async fn post(&self, id: PostId, viewer: Option<UserId>) -> Result<Post, PostError> {
        self.db.run(move |conn| feed::one(conn, id, viewer)?.ok_or(PostError::NotFound)).await
    }

    /// Writes a new post whose files are already stored; if the transaction does not commit,
    /// the files are removed.
    async fn publish(
        &self,
        me: UserId,
        row: PostRow,
        payload: Result<NewPayload, PostError>,
        stored: Stored,
    ) -> Result<Post, PostError> {
        let payload = match payload {
            Ok(p) => p,
            Err(e) => {
                stored.discard(&self.storage).await;
                return Err(e);
            }
        };
        let id = row.id;
        let written = self
            .db
            .run(move |conn| {
                write_tx(conn, |conn| repo::insert_post(conn, &row, &payload))?;
                feed::one(conn, id, Some(me))?.ok_or(PostError::NotFound)
            })
            .await;
        if written.is_err() {
            stored.discard(&self.storage).await;
        }
        written
    }

    fn new_row(me: UserId, kind: PostKind, caption: Option<String>) -> PostRow {
        PostRow {
            id: PostId::generate(),
            user_id: me,
            kind: kind.as_str().to_owned(),
            caption,
            created_at: db::time::now(),
            likes_count: 0,
            comments_count: 0,
        }
    }

    /// An audio post: 1 to 10 tracks (spec §5). Titles and artists left blank are taken from
    /// the files' tags, then the spec's defaults (the file name; 'Unknown Artist').
    pub async fn create_audio(
        &self,
        me: UserId,
        caption: Option<&str>,
        uploads: Vec<AudioUpload>,
    ) -> Result<Post, PostError> {
        let caption = input::caption(caption)?;
        if uploads.is_empty() {
            return Err(PostError::NoAudio);
        }
        if uploads.len() > limits::AUDIO_MAX_FILES {
            return Err(PostError::TooManyAudio);
        }
        let row = Self::new_row(me, PostKind::Audio, caption);
        let mut stored = Stored::default();
        let rows = create::store_audio(&self.storage, &self.slots, row.id, uploads, &mut stored).await;
        self.publish(me, row, rows.map(NewPayload::Audio), stored).await
    }

    /// A media post: 1 to 5 pictures and videos (spec §5).
    pub async fn create_media(
        &self,
        me: UserId,
        caption: Option<&str>,
        uploads: Vec<MediaUpload>,
    ) -> Result<Post, PostError> {
        let caption = input::caption(caption)?;
        if uploads.is_empty() {
            return Err(PostError::NoMedia);
        }
        if uploads.len() > limits::MEDIA_MAX_FILES {
            return Err(PostError::TooManyMedia);
        }
        let row = Self::new_row(me, PostKind::Media, caption);
        let mut stored = Stored::default();
        let rows = create::store_media(&self.storage, &self.slots, row.id, uploads, &mut stored).await;
        self.publish(me, row, rows.map(NewPayload::Media), stored).await
    }

    /// A sheet-music post: 1 to 5 MusicXML or .mxl files (spec §5). Titles and composers left
    /// blank are taken from the score, then the spec's defaults.
    pub async fn create_scores(
        &self,
        me: UserId,
        caption: Option<&str>,
        uploads: Vec<ScoreUpload>,
    ) -> Result<Post, PostError> {
        let caption = input::caption(caption)?;
        if uploads.is_empty() {
            return Err(PostError::NoScore);
        }
        if uploads.len() > limits::MUSICXML_MAX_FILES {
            return Err(PostError::TooManyScores);
        }
        let row = Self::new_row(me, PostKind::MusicXml, caption);
        let mut stored = Stored::default();
        let rows = create::store_scores(&self.storage, &self.slots, row.id, uploads, &mut stored).await;
        self.publish(me, row, rows.map(NewPayload::Scores), stored).await
    }

    pub async fn create_lyrics(&self, me: UserId, lyrics: LyricsInput) -> Result<Post, PostError> {
        let (lyrics, caption) = lyrics.check()?;
        let row = Self::new_row(me, PostKind::Lyrics, caption);
        let parts = serde_json::to_string(&lyrics.parts).map_err(|e| PostError::Processing(e.to_string()))?;
        let payload =
            NewPayload::Lyrics(LyricsRow { post_id: row.id, title: lyrics.title, artist: lyrics.artist, parts });
        self.publish(me, row, Ok(payload), Stored::default()).await
    }

    /// The author deletes their post: its rows, counters, comments and likes go in one
    /// transaction, its stored files after it.
    pub async fn delete(&self, me: UserId, id: PostId) -> Result<(), PostError> {
        let keys = self
            .db
            .run(move |conn| {
                write_tx(conn, |conn| {
                    match repo::author_of(conn, id)? {
                        None => return Err(PostError::NotFound),
                        Some(author) if author != me => return Err(PostError::NotAuthor),
                        Some(_) => {}
                    }
                    repo::delete_post_rows(conn, &[id])
                })
            })
            .await?;
        create::remove_objects(&self.storage, &keys).await;
        Ok(())
    }

    pub async fn comments(&self, post: PostId, viewer: Option<UserId>, page: Page) -> Result<Vec<Comment>, PostError> {
        self.db.run(move |conn| comments::list(conn, post, viewer, page)).await
    }

    /// People to offer in the mention picker for `query` (what follows the `@`).
    pub async fn mention_candidates(
        &self,
        viewer: Option<UserId>,
        query: &str,
        limit: i64,
    ) -> Result<Vec<UserCard>, PostError> {
        let query = query.to_owned();
        self.db.run(move |conn| Ok(comments::mention_candidates(conn, viewer, &query, limit)?)).await
    }
}
