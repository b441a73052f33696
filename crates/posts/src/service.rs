//! The use cases of posts, one transaction each.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use db::model::UserCard;
use db::{Db, DbConnection, Keyset, Page};
use storage::Storage;
use values::{PlaylistId, PlaylistItemId, PostId, PostKind, UserId};

use crate::PostError;
use crate::comments;
use crate::create::{self, PROCESSING_SLOTS, Stored};
use crate::discover::{self, Discovery};
use crate::edit::PostEdit;
use crate::feed::{self, Feed, FeedPage};
use crate::ffmpeg::Ffmpeg;
use crate::input::{Caption, LyricsInput};
use crate::kinds::lyrics::LyricsRow;
use crate::kinds::{self, Lanes, NewPayload, Processing, UploadKind};
use crate::memory::Memory;
use crate::model::{Comment, Post, PostRow};
use crate::playlists::{self, Playlist, PlaylistEdit, PlaylistPage};
use crate::plays::{self, Listener, Played, TrackPlays};
use crate::repo;
use crate::syncs;

/// This domain's part when an account is deleted, inside the deleting transaction: the counts
/// its likes and comments added to others' posts are given back, and its posts are deleted.
/// Answers the stored objects to remove once the transaction has committed.
pub fn release_account(conn: &mut DbConnection, user: UserId) -> Result<Vec<String>, PostError> {
    repo::release_account_rows(conn, user)
}

/// Discover's posts and tags as one viewer sees them.
#[derive(Debug, Clone)]
pub struct Discovered {
    pub trending: Vec<Post>,
    pub rising: Vec<Post>,
    pub tags: Vec<(String, i64)>,
}

#[derive(Clone)]
pub struct Posts {
    pub(crate) db: Db,
    pub(crate) processing: Arc<Processing>,
    /// What pages remember between requests (`crate::memory`).
    memory: Arc<Memory>,
    /// What Discover shows, as the job last found it (`crate::discover`).
    discovery: Arc<std::sync::Mutex<Option<Arc<Discovery>>>>,
    /// Whether the job is finding it again in the background now.
    finding: Arc<AtomicBool>,
    /// Held while the job finds what nothing holds yet (after a start): the requests meanwhile
    /// wait for that one find rather than each running the job.
    first_find: Arc<tokio::sync::Mutex<()>>,
    /// How many times the job ran in this process (`selfsound_discover_finds_total`).
    discover_finds: Arc<AtomicU64>,
    /// Whether each new, edited or deleted post is told to whoever tells other servers
    /// ([`Posts::announce_changes`]).
    announcing: Arc<AtomicBool>,
}

impl Posts {
    /// `ffmpeg`: the program videos are checked with ([`Ffmpeg::find`]); without it, video
    /// uploads answer 503.
    pub fn new(db: Db, storage: Storage, ffmpeg: Option<Ffmpeg>) -> Posts {
        let processing = Processing {
            storage,
            slots: tokio::sync::Semaphore::new(PROCESSING_SLOTS),
            lanes: Lanes::default(),
            ffmpeg,
        };
        let memory = Arc::new(Memory::new(db.changes().clone()));
        Posts {
            db,
            processing: Arc::new(processing),
            memory,
            discovery: Arc::default(),
            finding: Arc::default(),
            first_find: Arc::default(),
            discover_finds: Arc::default(),
            announcing: Arc::default(),
        }
    }

    /// From now on, each post its author publishes, edits or deletes queues a
    /// [`JobKind::Announce`](values::JobKind::Announce) job in the same transaction (federation
    /// tells other servers; this crate does not know how).
    pub fn announce_changes(&self) {
        self.announcing.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    fn announcing(&self) -> bool {
        self.announcing.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Tells other servers, when changes are announced, what became of comment `comment` on
    /// `post` by `author` (made here, edited or deleted), inside the caller's transaction.
    pub fn comment_changed(
        &self,
        conn: &mut DbConnection,
        post: PostId,
        comment: values::CommentId,
        author: UserId,
        what: repo::Announced,
    ) -> Result<(), PostError> {
        if self.announcing() {
            repo::announce_comment(conn, post, comment, author, what)?;
        }
        Ok(())
    }

    /// Deletes posts `ids` inside the caller's transaction, the way an author's delete does
    /// (`delete_post_rows`), and, when changes are announced, tells other servers each is gone
    /// (an admin removing a post on a complaint). Answers the stored objects to remove after
    /// the commit.
    pub fn delete_on(&self, conn: &mut DbConnection, ids: &[PostId]) -> Result<Vec<String>, PostError> {
        if self.announcing() {
            repo::announce_deleted(conn, ids)?;
        }
        repo::delete_post_rows(conn, ids)
    }

    /// What pages want of a viewer new to the process, to be read along with their session's
    /// check ([`db::Along`]): what they like and reposted, and whom they listen to.
    pub fn along(&self) -> db::Alongside {
        self.memory.clone()
    }

    /// Holds every block pair for all viewers at once only while there are at most `n` (50,000
    /// unless told): a test of the other way, each viewer's pairs held apart, sets 0.
    #[doc(hidden)]
    pub fn hold_block_pairs_up_to(&self, n: i64) {
        self.memory.pairs_held.store(n, std::sync::atomic::Ordering::Relaxed);
    }

    /// Holds at most the `n` newest reposts (20,000 unless told): a test of pages reaching past
    /// them sets a few.
    #[doc(hidden)]
    pub fn hold_reposts_up_to(&self, n: i64) {
        self.memory.reposts_held.store(n, std::sync::atomic::Ordering::Relaxed);
    }

    pub(crate) fn storage(&self) -> &Storage {
        &self.processing.storage
    }

    /// A page of a list of posts as `viewer` may see it.
    pub async fn feed(&self, feed: Feed, page: FeedPage, viewer: Option<UserId>) -> Result<Vec<Post>, PostError> {
        let posts = self.clone();
        self.db.run(move |conn| posts.list_on(conn, feed, page, viewer)).await
    }

    /// A page of posts matching `search` (`crate::search`), as `viewer` may see them, on the
    /// caller's connection.
    pub fn search_on(
        &self,
        conn: &mut DbConnection,
        search: &crate::search::Search,
        viewer: Option<UserId>,
    ) -> Result<Vec<Post>, PostError> {
        if let Some(found) = self.memory.search(Some(conn), search, viewer)? {
            return Ok(found);
        }
        let memory = &self.memory;
        let ids =
            crate::search::page_ids(conn, search, viewer, &|start| memory.post_below(start, crate::search::WINDOW))?;
        Ok(feed::these_held(conn, &ids, viewer, Some(&self.memory))?)
    }

    /// A page of `search` with why each post was found (`crate::search::Found`): the page
    /// [`Posts::search_on`] gives; when it is empty and no post has every word (of two or
    /// more), the posts with some of them, best first; and the words sung in the page's scores
    /// that the rest of them do not explain.
    pub fn search_found_on(
        &self,
        conn: &mut DbConnection,
        search: &crate::search::Search,
        viewer: Option<UserId>,
    ) -> Result<crate::search::Found, PostError> {
        let posts = self.search_on(conn, search, viewer)?;
        let memory = &self.memory;
        let known = |start| memory.post_below(start, crate::search::WINDOW);
        if posts.is_empty()
            && search.text.len() > 1
            && (search.before.is_none() || !crate::search::has_every_word(conn, search, viewer, &known)?)
        {
            return crate::search::some_words_page(conn, search, viewer, &known, Some(&self.memory));
        }
        let sung = crate::search::sung_words(
            conn,
            posts.iter().filter(|p| crate::search::needs_sung(&search.text, p)).map(|p| p.id),
        )?;
        Ok(crate::search::Found { posts, every_word: true, sung })
    }

    /// [`Posts::search_found_on`] from memory alone: when it holds the first page, which needs
    /// nothing else (it has posts, and none of them was found by words sung in a score).
    pub fn remembered_found(
        &self,
        search: &crate::search::Search,
        viewer: Option<UserId>,
    ) -> Option<crate::search::Found> {
        let posts = self.remembered_search(search, viewer)?;
        let complete = (!posts.is_empty() || search.text.len() < 2)
            && !posts.iter().any(|p| crate::search::needs_sung(&search.text, p));
        complete.then(|| crate::search::Found { posts, every_word: true, sung: Default::default() })
    }

    /// A first page of `search` as [`Posts::search_on`] gives it, when memory holds all of it
    /// (as [`Posts::remembered_list`]).
    pub fn remembered_search(&self, search: &crate::search::Search, viewer: Option<UserId>) -> Option<Vec<Post>> {
        self.memory.search(None, search, viewer).ok().flatten()
    }

    /// One post, as `viewer` may see it (a block between them answers not found).
    pub async fn post(&self, id: PostId, viewer: Option<UserId>) -> Result<Post, PostError> {
        let posts = self.clone();
        self.db.run(move |conn| posts.post_on(conn, id, viewer)).await
    }

    /// [`Posts::feed`] on the caller's connection (a request that looks its session up on the
    /// same one): a person who does not exist has no list (not found).
    pub fn list_on(
        &self,
        conn: &mut DbConnection,
        feed: Feed,
        page: FeedPage,
        viewer: Option<UserId>,
    ) -> Result<Vec<Post>, PostError> {
        if let Some(found) = self.memory.page(Some(conn), feed, page, viewer)? {
            return Ok(found);
        }
        let page = self.memory.deep_start(conn, feed, page, viewer)?;
        let listening = match (feed, viewer) {
            (Feed::ListenedTo, Some(v)) => Some(self.memory.listening_count(conn, v)?),
            _ => None,
        };
        let found = feed::page_with(conn, feed, page, viewer, Some(&self.memory.payloads), listening)?;
        // A page with posts has a person; only an empty one asks whether there is one.
        if let Feed::User(u) = feed
            && found.is_empty()
            && !repo::user_exists(conn, u)?
        {
            return Err(PostError::UserNotFound);
        }
        Ok(found)
    }

    /// [`Posts::post`] on the caller's connection.
    pub fn post_on(&self, conn: &mut DbConnection, id: PostId, viewer: Option<UserId>) -> Result<Post, PostError> {
        if let Some(found) = self.memory.one(Some(conn), id, viewer)? {
            return Ok(found);
        }
        feed::one_with(conn, id, viewer, Some(&self.memory.payloads))?.ok_or(PostError::NotFound)
    }

    /// Which of `people` `viewer` listens to, on the caller's connection: held with what the
    /// Listened to feed holds of them (a page of people search asked it of every search).
    pub fn listening_among_on(
        &self,
        conn: &mut DbConnection,
        viewer: UserId,
        people: &[UserId],
    ) -> Result<db::FastSet<UserId>, PostError> {
        Ok(self.memory.listening_among(conn, viewer, people)?)
    }

    /// A page of a list as [`Posts::feed`] gives it, when memory holds all of it: no
    /// connection, no statement (`crate::memory`). None otherwise.
    pub fn remembered_list(&self, feed: Feed, page: FeedPage, viewer: Option<UserId>) -> Option<Vec<Post>> {
        self.memory.page(None, feed, page, viewer).ok().flatten()
    }

    /// One post as [`Posts::post`] gives it, when memory holds all of it (as
    /// [`Posts::remembered_list`]).
    pub fn remembered_post(&self, id: PostId, viewer: Option<UserId>) -> Option<Post> {
        self.memory.one(None, id, viewer).ok().flatten()
    }

    /// Changes the words of post `id` by its author (`crate::edit`) in one transaction, and
    /// answers the post as they now see it.
    pub async fn edit(&self, me: UserId, id: PostId, edit: PostEdit) -> Result<Post, PostError> {
        let announcing = self.announcing();
        self.db
            .write(move |conn| {
                let post = feed::one(conn, id, Some(me))?.ok_or(PostError::NotFound)?;
                let changed = crate::edit::edit_post(conn, me, &post, edit)?;
                if changed && announcing {
                    repo::announce(conn, id, me, repo::Announced::Updated)?;
                }
                Ok::<_, PostError>(changed)
            })
            .await?;
        self.post(id, Some(me)).await
    }

    /// Writes a new post whose files are already stored; if the transaction does not commit,
    /// the files are removed.
    async fn publish(
        &self,
        me: UserId,
        row: PostRow,
        payload: Box<dyn NewPayload>,
        stored: Stored,
    ) -> Result<Post, PostError> {
        let id = row.id;
        let announcing = self.announcing();
        let write = move |conn: &mut DbConnection| {
            repo::insert_post(conn, &row, payload.as_ref())?;
            if announcing {
                repo::announce(conn, id, me, repo::Announced::Created)?;
            }
            Ok::<_, PostError>(())
        };
        let written = match self.db.write(write).await {
            Ok(()) => self.db.run(move |conn| feed::one(conn, id, Some(me))?.ok_or(PostError::NotFound)).await,
            Err(e) => Err(e),
        };
        if written.is_err() {
            stored.discard(self.storage()).await;
        }
        written
    }

    fn new_row(me: UserId, kind: PostKind, caption: Option<Caption>) -> PostRow {
        PostRow {
            id: PostId::generate(),
            user_id: me,
            kind,
            caption: caption.map(Caption::into_inner),
            created_at: db::time::now(),
            likes_count: 0,
            edited_at: None,
            comments_count: 0,
            plays_count: 0,
            genre: None,
            reposts_count: 0,
            payload_rev: 0,
        }
    }

    /// A post of a kind made of files (audio, media, sheet music): 1 to the kind's most files
    /// (spec §5), each checked and stored, then the post written in one transaction. Titles and
    /// the like left blank are taken from the files, then the spec's defaults. Only audio may
    /// have a `genre` (`crate::genre`).
    pub async fn create<U: UploadKind>(
        &self,
        me: UserId,
        caption: Option<&str>,
        genre: Option<&str>,
        uploads: Vec<U>,
    ) -> Result<Post, PostError> {
        let caption = Caption::parse(caption)?;
        let genre = crate::genre::parse(genre)?;
        if genre.is_some() && U::KIND != PostKind::Audio {
            return Err(PostError::GenreNotOnAudio);
        }
        if uploads.is_empty() {
            return Err(U::none());
        }
        if uploads.len() > U::MAX_FILES {
            return Err(U::too_many());
        }
        let row = PostRow { genre: genre.map(str::to_owned), ..Self::new_row(me, U::KIND, caption) };
        let mut stored = Stored::default();
        let _turn = self.processing.lanes.enter(me).await;
        match U::store(&self.processing, row.id, uploads, &mut stored).await {
            Ok(payload) => self.publish(me, row, payload, stored).await,
            Err(e) => {
                stored.discard(self.storage()).await;
                Err(e)
            }
        }
    }

    pub async fn create_lyrics(&self, me: UserId, lyrics: LyricsInput) -> Result<Post, PostError> {
        let (lyrics, caption) = lyrics.check()?;
        let row = Self::new_row(me, PostKind::Lyrics, caption);
        let payload = Box::new(LyricsRow::new(row.id, lyrics));
        self.publish(me, row, payload, Stored::default()).await
    }

    /// The author deletes their post: its rows, counters, comments and likes go in one
    /// transaction, its stored files after it.
    pub async fn delete(&self, me: UserId, id: PostId) -> Result<(), PostError> {
        let posts = self.clone();
        let keys = self
            .db
            .write(move |conn| {
                repo::check_author(conn, id, me)?;
                posts.delete_on(conn, &[id])
            })
            .await?;
        create::remove_objects(self.storage(), &keys).await;
        Ok(())
    }

    /// A page of the newest posts with `tag` (`tags::page`), as `viewer` may see them.
    pub fn tag_page_on(
        &self,
        conn: &mut DbConnection,
        tag: &str,
        page: Keyset<PostId>,
        viewer: Option<UserId>,
    ) -> Result<Vec<Post>, PostError> {
        Ok(crate::tags::page(conn, tag, page, viewer, Some(&self.memory))?)
    }

    /// Counts a play of track `track` of `post` (`plays::count`): one transaction, committed
    /// lightly (`Db::write_lightly`: a play lost to a crash of the database server is harmless).
    pub async fn count_play(&self, listener: Listener, post: PostId, track: i64) -> Result<Played, PostError> {
        self.db.write_lightly(move |conn| plays::count(conn, &listener, post, track)).await
    }

    /// A page of the plays of `me`'s own tracks and scores (`plays::of_author`), `page.limit`
    /// posts of them.
    pub async fn own_plays(
        &self,
        me: UserId,
        page: Keyset<PostId>,
    ) -> Result<(Vec<TrackPlays>, Option<PostId>), PostError> {
        self.db.run(move |conn| Ok(plays::of_author(conn, me, page.before, page.limit)?)).await
    }

    /// Discover as `viewer` sees it (`crate::discover`): the held lists, found again when older
    /// than `every`, and the first `n` posts of trending and of rising the viewer may see (one
    /// statement for both, and one per kind of payload not in memory).
    ///
    /// Once something is held, no request waits for the job: the first to find the lists stale
    /// starts it in the background and every request meanwhile is answered from what is held
    /// (so a burst at the moment it goes stale runs it once). Only with nothing held yet (just
    /// started), or with `every` zero (tests: always fresh), does a request run it itself.
    pub async fn discover(
        &self,
        viewer: Option<UserId>,
        every: std::time::Duration,
        n: usize,
    ) -> Result<Discovered, PostError> {
        let held = if every.is_zero() { None } else { self.discovery.lock().map(|d| d.clone()).unwrap_or_default() };
        let found = match held {
            Some(d) if !d.stale(every) => d,
            Some(d) => {
                if !self.finding.swap(true, Ordering::AcqRel) {
                    let posts = self.clone();
                    tokio::spawn(async move {
                        if let Err(e) = posts.find_discovery().await {
                            tracing::warn!(error = %e, "Discover's lists could not be found again");
                        }
                        posts.finding.store(false, Ordering::Release);
                    });
                }
                d
            }
            None if every.is_zero() => self.find_discovery().await?,
            None => {
                let _first = self.first_find.lock().await;
                match self.discovery.lock().map(|d| d.clone()).unwrap_or_default() {
                    Some(found) => found,
                    None => self.find_discovery().await?,
                }
            }
        };
        let posts = self.clone();
        self.db
            .run(move |conn| {
                let mut ids: Vec<PostId> = found.trending.iter().chain(&found.rising).copied().collect();
                ids.sort_unstable();
                ids.dedup();
                let shown: std::collections::HashMap<PostId, Post> =
                    feed::these_held(conn, &ids, viewer, Some(&posts.memory))?.into_iter().map(|p| (p.id, p)).collect();
                let pick = |list: &[PostId]| list.iter().filter_map(|id| shown.get(id).cloned()).take(n).collect();
                Ok(Discovered {
                    trending: pick(&found.trending),
                    rising: pick(&found.rising),
                    tags: found.tags.clone(),
                })
            })
            .await
    }

    /// How many times Discover's job ran in this process (at most one at a time, and once
    /// every `SELFSOUND_DISCOVER_EVERY` seconds while Discover is read).
    pub fn discover_finds(&self) -> u64 {
        self.discover_finds.load(Ordering::Relaxed)
    }

    /// Runs Discover's job (`discover::find`) and holds what it found.
    async fn find_discovery(&self) -> Result<Arc<Discovery>, PostError> {
        self.discover_finds.fetch_add(1, Ordering::Relaxed);
        let found = Arc::new(self.db.run(|conn| Ok::<_, PostError>(discover::find(conn)?)).await?);
        if let Ok(mut slot) = self.discovery.lock() {
            *slot = Some(found.clone());
        }
        Ok(found)
    }

    // --- Playlists (`crate::playlists`), one transaction each ---------------------------------

    pub async fn create_playlist(&self, me: UserId, input: PlaylistEdit) -> Result<Playlist, PostError> {
        self.db.write(move |conn| playlists::create(conn, me, input)).await
    }

    pub async fn edit_playlist(&self, me: UserId, id: PlaylistId, edit: PlaylistEdit) -> Result<Playlist, PostError> {
        self.db.write(move |conn| playlists::edit(conn, me, id, edit)).await
    }

    pub async fn delete_playlist(&self, me: UserId, id: PlaylistId) -> Result<(), PostError> {
        self.db.write(move |conn| playlists::delete(conn, me, id)).await
    }

    pub async fn add_to_playlist(
        &self,
        me: UserId,
        id: PlaylistId,
        post: PostId,
        track: i64,
    ) -> Result<playlists::Entry, PostError> {
        self.db.write(move |conn| playlists::add(conn, me, id, post, track)).await
    }

    pub async fn remove_from_playlist(
        &self,
        me: UserId,
        id: PlaylistId,
        item: PlaylistItemId,
    ) -> Result<(), PostError> {
        self.db.write(move |conn| playlists::remove(conn, me, id, item)).await
    }

    pub async fn move_in_playlist(
        &self,
        me: UserId,
        id: PlaylistId,
        item: PlaylistItemId,
        to: i64,
    ) -> Result<(), PostError> {
        self.db.write(move |conn| playlists::reorder(conn, me, id, item, to)).await
    }

    // --- A score following a recording (`crate::syncs`), one transaction each -----------------

    pub async fn link_recording(
        &self,
        me: UserId,
        post: PostId,
        score: i64,
        input: syncs::SyncInput,
    ) -> Result<syncs::ScoreSync, PostError> {
        self.db.write(move |conn| syncs::link(conn, me, post, score, input)).await
    }

    pub async fn unlink_recording(&self, me: UserId, post: PostId, score: i64) -> Result<(), PostError> {
        self.db.write(move |conn| syncs::unlink(conn, me, post, score)).await
    }

    /// The recordings a sheet-music post's scores follow, as `viewer` may see them
    /// (`syncs::recordings_of`).
    pub async fn recordings_of(&self, post: PostId, viewer: Option<UserId>) -> Result<Vec<syncs::Linked>, PostError> {
        let posts = self.clone();
        self.db.run(move |conn| syncs::recordings_of(conn, post, viewer, Some(&posts.memory))).await
    }

    /// The scores following a recording's tracks that `viewer` may see (`syncs::following`).
    pub async fn scores_following(
        &self,
        post: PostId,
        viewer: Option<UserId>,
    ) -> Result<Vec<syncs::Linked>, PostError> {
        let posts = self.clone();
        self.db.run(move |conn| syncs::following(conn, post, viewer, Some(&posts.memory))).await
    }

    /// A playlist's page as `viewer` sees it (`playlists::page`), its posts from memory where it
    /// holds them.
    pub async fn playlist(&self, id: PlaylistId, viewer: Option<UserId>) -> Result<PlaylistPage, PostError> {
        let posts = self.clone();
        self.db.run(move |conn| posts.playlist_on(conn, id, viewer)).await
    }

    /// [`Posts::playlist`] on the caller's connection.
    pub fn playlist_on(
        &self,
        conn: &mut DbConnection,
        id: PlaylistId,
        viewer: Option<UserId>,
    ) -> Result<PlaylistPage, PostError> {
        playlists::page(conn, id, viewer, Some(&self.memory))
    }

    /// A page of `owner`'s playlists as `viewer` sees them.
    pub async fn playlists_of(
        &self,
        owner: UserId,
        viewer: Option<UserId>,
        page: Keyset<PlaylistId>,
    ) -> Result<Vec<Playlist>, PostError> {
        self.db
            .run(move |conn| {
                if !repo::user_exists(conn, owner)? {
                    return Err(PostError::UserNotFound);
                }
                playlists::of_owner(conn, owner, viewer, page)
            })
            .await
    }

    /// Forgets play marks that no longer stop a play from counting (the hourly sweep).
    pub async fn sweep_play_marks(&self) -> Result<usize, PostError> {
        self.db.write(|conn| Ok(plays::sweep_marks(conn)?)).await
    }

    /// Removes stored post files no row points to, once they are older than `older_than` (so a
    /// post being made, whose files are stored before its row commits, is never touched). They
    /// are what a crash leaves: files stored for a post whose transaction never committed, or
    /// files of a deleted post that were not yet removed. The keys name their post
    /// (`posts/{id}/…`), so each batch is checked with one index-backed lookup of its posts' keys.
    /// Answers how many were removed. The server runs it hourly with an hour's margin;
    /// `selfsound sweep` runs it at once.
    pub async fn sweep_orphan_media(&self, older_than: std::time::Duration) -> Result<usize, PostError> {
        let cutoff = chrono::Utc::now() - chrono::Duration::from_std(older_than).unwrap_or(chrono::Duration::MAX);
        let listed = self.storage().list_older_than("posts", cutoff).await?;
        let mut removed = 0;
        for batch in listed.chunks(500) {
            let ids: Vec<PostId> = {
                let mut ids: Vec<PostId> = batch.iter().filter_map(|k| post_of_key(k)).collect();
                ids.sort_unstable_by_key(|id| id.get());
                ids.dedup();
                ids
            };
            let used: std::collections::HashSet<String> = self
                .db
                .run(move |conn| Ok::<_, PostError>(kinds::object_keys(conn, &ids)?))
                .await?
                .into_iter()
                .collect();
            for key in batch.iter().filter(|k| !used.contains(*k)) {
                self.storage().delete(key).await?;
                removed += 1;
            }
        }
        Ok(removed)
    }

    pub async fn comments(&self, post: PostId, viewer: Option<UserId>, page: Page) -> Result<Vec<Comment>, PostError> {
        let posts = self.clone();
        self.db.run(move |conn| posts.comments_on(conn, post, viewer, page)).await
    }

    /// [`Posts::comments`] on the caller's connection.
    pub fn comments_on(
        &self,
        conn: &mut DbConnection,
        post: PostId,
        viewer: Option<UserId>,
        page: Page,
    ) -> Result<Vec<Comment>, PostError> {
        if let Some(found) = self.memory.comments(Some(conn), post, viewer, page)? {
            return Ok(found);
        }
        comments::list(conn, post, viewer, page)
    }

    /// The post's comments on a moment of its tracks, as `viewer` may see them (the newest
    /// [`crate::MOMENTS_SHOWN`]; none on a post that is not audio).
    pub fn moments_on(
        &self,
        conn: &mut DbConnection,
        post: PostId,
        viewer: Option<UserId>,
    ) -> Result<Vec<Comment>, PostError> {
        comments::moments(conn, post, viewer)
    }

    /// A page of comments as [`Posts::comments`] gives it, when memory holds all of it (as
    /// [`Posts::remembered_list`]).
    pub fn remembered_comments(&self, post: PostId, viewer: Option<UserId>, page: Page) -> Option<Vec<Comment>> {
        self.memory.comments(None, post, viewer, page).ok().flatten()
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

/// The post a stored file belongs to: `posts/{id}/…` (see `create::key`).
fn post_of_key(key: &str) -> Option<PostId> {
    key.strip_prefix("posts/")?.split('/').next()?.parse().ok()
}
