//! Everything posts answers from memory: pages of posts and comments, put together from pieces
//! many requests share, each remembered the one way anything is ([`db::Held`]) and used only
//! while nothing it was read from has changed. Which piece depends on what, and the rules:
//! `docs/architecture.md`, "Memory and writes".
//!
//! Which posts: For you walks the newest posts past those the viewer may not see (a block pair,
//! a suspended author); Listened to merges the posts of the people they listen to with those
//! people's reposts (`listened`); a person's posts are their newest. When the list held does not reach as far as the page (a deep page, few
//! posts of the people listened to among the newest), or a post is not found as listed, the
//! page is not answered here and the database's query answers it, with every rule in SQL
//! (`crate::feed`). A page of comments is the post's newest comments past those the viewer may
//! not see, when the post itself may be shown to them.
//!
//! Without a connection a page is answered only from what is held (no statement at all); with
//! one, what is missing is read and kept, a fixed number of statements.

mod listened;
mod payloads;
mod pieces;

use std::cmp::Reverse;
use std::sync::Arc;

use db::diesel::prelude::*;
use db::diesel::sql_types::{BigInt, Text};
use db::model::UserCard;
use db::schema::{likes, listens, posts, reposts, users};
use db::{Changes, DbConnection, Held, Keyset, Noted, Page, Topic};
use values::{PostId, UserId};

pub(crate) use payloads::{PayloadVersion, Payloads, Wanted};
use pieces::{
    AUTHORED_LEN, AUTHORED_WALKED_LEN, Authored, BlockPairs, Blocked, Card, Found, HeldRepost, LIKED_HELD, LikeFlag,
    Listened, ListeningCount, MERGED_LEN, Marks, Merged, NEWEST_LEN, Newest, OWN_REPOSTS_HELD, PAIRS_HELD, PostHead,
    RECENT_REPOSTS_LEN, REPOSTED_LEN, RecentReposts, Reposted, SearchKey, Suspended, THREAD_LEN, Thread,
};

use crate::comments;
use crate::feed::{self, DEEP_OFFSET, Feed, FeedPage};
use crate::model::{Comment, Post, PostRow, RepostMark};
use crate::search::Since;

/// What each piece may hold, in bytes.
const HEADS_BYTES: u64 = 32 << 20;
const BLOCKED_BYTES: u64 = 16 << 20;
/// Twice the weight of [`PAIRS_HELD`] pairs.
const PAIRS_BYTES: u64 = 12 << 20;
const MARKS_BYTES: u64 = 32 << 20;
const LIKE_FLAGS_BYTES: u64 = 8 << 20;
/// Twice the weight of 250,000 people suspended at once.
const SUSPENDED_BYTES: u64 = 8 << 20;
const LISTENED_BYTES: u64 = 16 << 20;
/// Twice what a full list of recent reposts weighs (as [`NEWEST_BYTES`]).
const RECENT_REPOSTS_BYTES: u64 = 2 * (112 * RECENT_REPOSTS_LEN as u64 + 64);
const CARDS_BYTES: u64 = 8 << 20;
const REPOSTED_BYTES: u64 = 8 << 20;
const MERGED_BYTES: u64 = 32 << 20;
const COUNTS_BYTES: u64 = 2 << 20;
const AUTHORED_BYTES: u64 = 8 << 20;
const THREADS_BYTES: u64 = 32 << 20;
const SEARCHES_BYTES: u64 = 4 << 20;
/// How far into everyone's newest posts a page of Listened to of someone who listens to a few
/// people looks first (a few microseconds), before it merges each person's own.
const WALKED_FIRST: usize = 1_000;
/// Twice what a full list weighs: a value is kept only where it fits in the memory's share for
/// new values (`db::Held::new`).
const NEWEST_BYTES: u64 = 2 * (16 * NEWEST_LEN as u64 + 64);

/// Everything a [`crate::Posts`] remembers.
pub(crate) struct Memory {
    heads: Held<PostId, PostHead>,
    suspended: Held<(), Suspended>,
    pairs: Held<(), BlockPairs>,
    /// How many block pairs are held for every viewer at most ([`PAIRS_HELD`]; lower in a test).
    pub pairs_held: std::sync::atomic::AtomicI64,
    /// How many of the newest reposts are held at most ([`RECENT_REPOSTS_LEN`]; fewer in a test).
    pub reposts_held: std::sync::atomic::AtomicI64,
    blocked: Held<UserId, Blocked>,
    /// What each viewer likes and reposted.
    marks: Held<UserId, Marks>,
    like_flags: Held<(UserId, PostId), LikeFlag>,
    listened: Held<UserId, Listened>,
    /// The newest reposts anywhere, and the cards of people whose reposts placed posts.
    recent_reposts: Held<(), RecentReposts>,
    /// Each person's newest reposts.
    reposted: Held<UserId, Reposted>,
    /// The first entries of each Listened to of someone who listens to a few people.
    merged: Held<UserId, Merged>,
    cards: Held<UserId, Card>,
    counts: Held<UserId, ListeningCount>,
    authored: Held<UserId, Authored>,
    threads: Held<PostId, Thread>,
    newest: Held<(), Newest>,
    searches: Held<SearchKey, Found>,
    /// Payloads, by the edit of their post (`payloads`).
    pub payloads: Payloads,
    changes: Arc<Changes>,
}

impl Memory {
    pub(crate) fn new(changes: Arc<Changes>) -> Memory {
        // Items expected: the bytes over a typical entry's weight.
        Memory {
            heads: Held::new(changes.clone(), HEADS_BYTES, 256),
            suspended: Held::new(changes.clone(), SUSPENDED_BYTES, SUSPENDED_BYTES),
            pairs: Held::new(changes.clone(), PAIRS_BYTES, PAIRS_BYTES),
            pairs_held: std::sync::atomic::AtomicI64::new(PAIRS_HELD),
            reposts_held: std::sync::atomic::AtomicI64::new(RECENT_REPOSTS_LEN),
            blocked: Held::new(changes.clone(), BLOCKED_BYTES, 128),
            marks: Held::new(changes.clone(), MARKS_BYTES, 1024),
            like_flags: Held::new(changes.clone(), LIKE_FLAGS_BYTES, 96),
            listened: Held::new(changes.clone(), LISTENED_BYTES, 1024),
            recent_reposts: Held::new(changes.clone(), RECENT_REPOSTS_BYTES, RECENT_REPOSTS_BYTES).one_read_at_a_time(),
            reposted: Held::new(changes.clone(), REPOSTED_BYTES, 256),
            merged: Held::new(changes.clone(), MERGED_BYTES, 4096),
            cards: Held::new(changes.clone(), CARDS_BYTES, 128),
            counts: Held::new(changes.clone(), COUNTS_BYTES, 16),
            authored: Held::new(changes.clone(), AUTHORED_BYTES, 512),
            threads: Held::new(changes.clone(), THREADS_BYTES, 4096),
            newest: Held::new(changes.clone(), NEWEST_BYTES, NEWEST_BYTES).one_read_at_a_time(),
            searches: Held::new(changes.clone(), SEARCHES_BYTES, 512),
            payloads: Payloads::default(),
            changes,
        }
    }

    /// Whether what is held may be used: every change is being heard.
    fn trusted(&self) -> bool {
        self.changes.seen().is_some()
    }

    /// A page of `feed` as `viewer` sees it, from memory: without `conn` only from what is held,
    /// with it reading what is missing. None when it cannot be answered here (see the module).
    pub(crate) fn page(
        &self,
        mut conn: Option<&mut DbConnection>,
        feed: Feed,
        page: FeedPage,
        viewer: Option<UserId>,
    ) -> QueryResult<Option<Vec<Post>>> {
        if page.limit() == 0 || !self.trusted() {
            return Ok(None);
        }
        let Some(outlook) = self.outlook(conn.as_deref_mut(), viewer)? else { return Ok(None) };
        let picked = match feed {
            Feed::ForYou => {
                let Some(newest) = self.newest(conn.as_deref_mut())? else { return Ok(None) };
                pick(&newest.list, newest.complete(), page, |(_, author)| !outlook.hides(author))
            }
            Feed::ListenedTo => {
                let Some(v) = viewer else { return Ok(None) };
                return self.listened_page(conn, v, &outlook, page);
            }
            Feed::User(u) => {
                // Whether an empty page is a person or a 404 is the database's to say.
                if outlook.hides(&u) {
                    return Ok(None);
                }
                let Some(authored) = self.authored.get_or_read(&u, conn.as_deref_mut(), |c| read_authored(c, u))?
                else {
                    return Ok(None);
                };
                let list: Vec<(PostId, UserId)> = authored.ids.iter().map(|id| (*id, u)).collect();
                pick(&list, authored.complete, page, |_| true).filter(|ids| !ids.is_empty())
            }
        };
        let Some(ids) = picked else { return Ok(None) };
        self.posts(conn, &outlook, &ids)
    }

    /// The post page's post as `viewer` sees it, from memory (as [`Memory::page`]). None as
    /// well when it may not be shown: the database's query says so.
    pub(crate) fn one(
        &self,
        mut conn: Option<&mut DbConnection>,
        id: PostId,
        viewer: Option<UserId>,
    ) -> QueryResult<Option<Post>> {
        if !self.trusted() {
            return Ok(None);
        }
        let Some(outlook) = self.outlook(conn.as_deref_mut(), viewer)? else { return Ok(None) };
        Ok(self.posts(conn, &outlook, &[id])?.and_then(|mut found| found.pop()))
    }

    /// A page of `post`'s comments as `viewer` sees them, from memory (as [`Memory::page`]):
    /// none also when the post may not be shown to them (the database's query says so).
    pub(crate) fn comments(
        &self,
        mut conn: Option<&mut DbConnection>,
        post: PostId,
        viewer: Option<UserId>,
        page: Page,
    ) -> QueryResult<Option<Vec<Comment>>> {
        if page.limit == 0 || !self.trusted() {
            return Ok(None);
        }
        let Some(outlook) = self.outlook(conn.as_deref_mut(), viewer)? else { return Ok(None) };
        let Some(heads) = self.heads(conn.as_deref_mut(), &[post])? else { return Ok(None) };
        if heads.iter().any(|h| outlook.hides(&h.row.user_id)) {
            return Ok(None);
        }
        let Some(thread) = self.threads.get_or_read(&post, conn, |c| read_thread(c, post))? else { return Ok(None) };
        let (skip, limit) = (usize::try_from(page.offset).ok(), usize::try_from(page.limit).ok());
        let (Some(skip), Some(limit)) = (skip, limit) else { return Ok(None) };
        let shown: Vec<Comment> =
            thread.comments.iter().filter(|c| !outlook.hides(&c.author.id)).skip(skip).take(limit).cloned().collect();
        Ok((shown.len() == limit || thread.complete).then_some(shown))
    }

    /// A first page of a music search as `viewer` sees it, from memory: the page a guest sees,
    /// held by its words, kind and length, and brought up to date by the posts written since
    /// ([`Found`]), is theirs too when they are in no block pair (suspended people are left
    /// out for everyone). None for a later page, for someone in a block pair, or when a post of
    /// the page is not found as held: the database's search answers then. Without `conn` only
    /// from what is held. A search of words common in old posts and rare in the newest was the
    /// dearest statement of the community mix on PostgreSQL (tens of ms; issue 30).
    pub(crate) fn search(
        &self,
        mut conn: Option<&mut DbConnection>,
        search: &crate::search::Search,
        viewer: Option<UserId>,
    ) -> Result<Option<Vec<Post>>, crate::PostError> {
        if search.before.is_some() || search.limit <= 0 || !self.trusted() {
            return Ok(None);
        }
        let Some(outlook) = self.outlook(conn.as_deref_mut(), viewer)? else { return Ok(None) };
        if outlook.in_a_pair() {
            return Ok(None);
        }
        let key: SearchKey = (search.text.clone(), search.kind, search.limit);
        let changes = self.searches.changes().clone();
        let known = |start| self.post_below(start, crate::search::WINDOW);
        let found = self.searches.get_or_update(&key, conn.as_deref_mut(), |c, held| {
            if let Some(held) =
                held.filter(|h| h.read.updatable() && h.unchanged_in(&changes, [Topic::Posts, Topic::Words]))
            {
                let read = held.read.again();
                // The posts written since, as their stamps tell, when every one is known: none
                // (no statement), or those few looked up by key; else those made since a
                // moment before its read, walked.
                if let Some(written) = held.written_since(&changes) {
                    let written: Vec<PostId> = written.into_iter().map(|(id, _)| id).collect();
                    let fresh = match written.is_empty() {
                        true => Vec::new(),
                        false => crate::search::first_page(c, search, Since::These(&written), &known)?,
                    };
                    return Ok::<_, crate::PostError>(Some(held.with_found(fresh, read, search.limit)));
                }
                let fresh = crate::search::first_page(c, search, Since::From(held.read.floor()), &known)?;
                return Ok::<_, crate::PostError>(Some(held.updated(fresh, read, search.limit)));
            }
            let read = db::NewPostsRead::whole();
            let page = crate::search::first_page(c, search, Since::Ever, &known)?;
            Ok(Some(Found { page, read }))
        })?;
        let Some(found) = found else { return Ok(None) };
        let ids: Vec<PostId> = found.page.iter().map(|(id, _)| *id).collect();
        if ids.is_empty() {
            return Ok(Some(Vec::new()));
        }
        Ok(self.posts(conn, &outlook, &ids)?)
    }

    /// Where a page of For you `offset` posts down starts when the database answers it: from
    /// [`DEEP_OFFSET`] down, the post found by walking the list of the newest posts held, past
    /// those `viewer` may not see (the page itself leaves them out), so that the database reads
    /// a cursor page instead of walking and joining every post above it. The page as it is when
    /// the list does not reach that far, or is not held and may not be read now.
    pub(crate) fn deep_start(
        &self,
        conn: &mut DbConnection,
        feed: Feed,
        page: FeedPage,
        viewer: Option<UserId>,
    ) -> QueryResult<FeedPage> {
        let FeedPage::Offset(p) = page else { return Ok(page) };
        if feed != Feed::ForYou || p.offset < DEEP_OFFSET || p.limit == 0 || !self.trusted() {
            return Ok(page);
        }
        let Some(newest) = self.newest(Some(&mut *conn))? else { return Ok(page) };
        let Some(outlook) = self.outlook(Some(conn), viewer)? else { return Ok(page) };
        let skip = usize::try_from(p.offset).unwrap_or(usize::MAX);
        let start = newest.list.iter().filter(|(_, author)| !outlook.hides(author)).nth(skip);
        Ok(match start {
            // The page from that post down: a cursor page just above it.
            Some((start, _)) => {
                FeedPage::Before(Keyset { before: PostId::try_from(start.get() + 1).ok(), limit: p.limit })
            }
            None => page,
        })
    }

    /// Which of `people` `viewer` listens to: from whom they listen to, held or read (one
    /// statement when not held, the same the Listened to feed reads).
    pub(crate) fn listening_among(
        &self,
        conn: &mut DbConnection,
        viewer: UserId,
        people: &[UserId],
    ) -> QueryResult<db::FastSet<UserId>> {
        let listened = self.listened_held(viewer, Some(conn))?;
        Ok(listened.map_or_else(db::FastSet::default, |l| people.iter().filter(|p| l.0.contains(p)).copied().collect()))
    }

    /// How many people `viewer` listens to, held or read.
    pub(crate) fn listening_count(&self, conn: &mut DbConnection, viewer: UserId) -> QueryResult<i64> {
        let count = self.counts.get_or_read(&viewer, Some(conn), |c| read_listening_count(c, viewer).map(Some))?;
        Ok(count.map_or(0, |n| n.0))
    }

    /// `ids` as the viewer of `outlook` sees them, in order: None when one is missing here and
    /// there is no `conn`, or it is gone or hidden.
    fn posts(
        &self,
        mut conn: Option<&mut DbConnection>,
        outlook: &Outlook,
        ids: &[PostId],
    ) -> QueryResult<Option<Vec<Post>>> {
        let Some(heads) = self.heads(conn.as_deref_mut(), ids)? else { return Ok(None) };
        if heads.iter().any(|h| outlook.hides(&h.row.user_id)) {
            return Ok(None);
        }
        let Some((liked, reposted)) = self.marks_of(outlook.viewer, conn.as_deref_mut(), ids)? else {
            return Ok(None);
        };
        let wanted: Vec<Wanted> = heads.iter().map(|h| (h.row.id, h.row.kind, h.row.payload_version())).collect();
        let Some(mut payloads) = self.payloads.of(conn, &wanted)? else { return Ok(None) };
        let rows =
            heads.iter().zip(liked).zip(reposted).map(|((h, liked), reposted)| (&h.row, &h.author, liked, reposted));
        Ok(Some(feed::assemble(rows, &mut payloads)))
    }

    /// What `viewer` may not see, held or read: everyone suspended and every block pair (each
    /// held once for every viewer), or, when there are too many pairs to hold, the people in a
    /// block pair with the viewer.
    fn outlook(&self, mut conn: Option<&mut DbConnection>, viewer: Option<UserId>) -> QueryResult<Option<Outlook>> {
        let read = |c: &mut DbConnection| social_graph::visibility::suspended_people(c).map(|s| Some(Suspended(s)));
        let Some(suspended) = self.suspended.get_or_read(&(), conn.as_deref_mut(), read)? else {
            return Ok(None);
        };
        let Some(v) = viewer else { return Ok(Some(Outlook { viewer, suspended, pairs: None })) };
        let at_most = self.pairs_held.load(std::sync::atomic::Ordering::Relaxed);
        let read = |c: &mut DbConnection| {
            social_graph::visibility::all_block_pairs(c, at_most).map(|p| Some(BlockPairs::of(p)))
        };
        let Some(all) = self.pairs.get_or_read(&(), conn.as_deref_mut(), read)? else { return Ok(None) };
        let pairs = if all.0.is_some() {
            Pairs::All(all)
        } else {
            let read = |c: &mut DbConnection| {
                let mut others: Vec<UserId> = social_graph::visibility::block_pairs_of(c, v)?.into_iter().collect();
                others.sort_unstable();
                QueryResult::Ok(Some(Blocked(others)))
            };
            let Some(own) = self.blocked.get_or_read(&v, conn, read)? else { return Ok(None) };
            Pairs::Own(own)
        };
        Ok(Some(Outlook { viewer, suspended, pairs: Some(pairs) }))
    }

    /// What `viewer` did to posts ([`Marks`]), held or read: when not held, whom they listen to
    /// is read in the same statement ([`LOOK`]).
    fn marks_held(&self, viewer: UserId, conn: Option<&mut DbConnection>) -> QueryResult<Option<Arc<Noted<Marks>>>> {
        if let Some(held) = self.marks.get(&viewer) {
            return Ok(Some(held));
        }
        let Some(conn) = conn else { return Ok(None) };
        Ok(Some(self.first_look(conn, viewer)?.0))
    }

    /// Whom `viewer` listens to, held or read: when not held, their marks are read in the same
    /// statement if those are not held either; someone who listens to more than
    /// [`LISTENED_WITH_MARKS`] has them read apart.
    fn listened_held(
        &self,
        viewer: UserId,
        conn: Option<&mut DbConnection>,
    ) -> QueryResult<Option<Arc<Noted<Listened>>>> {
        if let Some(held) = self.listened.get(&viewer) {
            return Ok(Some(held));
        }
        let Some(conn) = conn else { return Ok(None) };
        if self.marks.get(&viewer).is_none()
            && let (_, Some(listened)) = self.first_look(conn, viewer)?
        {
            return Ok(Some(listened));
        }
        self.listened.get_or_read(&viewer, Some(conn), |c| read_listened(c, viewer))
    }

    /// `viewer`'s marks and whom they listen to, read in one statement ([`LOOK`]) and kept.
    fn first_look(&self, conn: &mut DbConnection, viewer: UserId) -> QueryResult<Look> {
        let seen = self.marks.changes().seen();
        let (marks, people) = read_first_look(conn, viewer)?;
        Ok(self.keep_look(viewer, seen, marks, people))
    }

    /// Keeps what [`LOOK`] read of `viewer` after `seen`.
    fn keep_look(&self, viewer: UserId, seen: Option<db::Seen>, marks: Marks, people: Option<Listened>) -> Look {
        let people = people.map(|people| self.listened.keep_read(viewer, seen, people));
        (self.marks.keep_read(viewer, seen, marks), people)
    }

    /// Whether `viewer` likes, and whether they reposted, each of `ids`, held or read: what they
    /// like and reposted (one short statement, [`Marks`]), and for posts older than the likes
    /// held of someone who likes many, the flags of those (one statement for those missing). A
    /// guest likes and reposted none. None when the viewer reposted too much to hold.
    fn marks_of(
        &self,
        viewer: Option<UserId>,
        mut conn: Option<&mut DbConnection>,
        ids: &[PostId],
    ) -> QueryResult<Option<(Vec<bool>, Vec<bool>)>> {
        let Some(viewer) = viewer else { return Ok(Some((vec![false; ids.len()], vec![false; ids.len()]))) };
        let Some(marks) = self.marks_held(viewer, conn.as_deref_mut())? else { return Ok(None) };
        let Some(reposted) = marks.reposted.as_ref() else { return Ok(None) };
        let reposted: Vec<bool> = ids.iter().map(|id| reposted.contains(id)).collect();
        let known: Vec<Option<bool>> = ids.iter().map(|id| marks.likes(*id)).collect();
        let older: Vec<(UserId, PostId)> =
            ids.iter().zip(&known).filter(|(_, k)| k.is_none()).map(|(id, _)| (viewer, *id)).collect();
        if older.is_empty() {
            return Ok(Some((known.into_iter().flatten().collect(), reposted)));
        }
        let Some(flags) = self.like_flags.get_many_or_read(&older, conn, |c, missing| {
            let found: db::FastSet<PostId> = likes::table
                .filter(likes::user_id.eq(viewer))
                .filter(db::one_of(likes::post_id, missing.iter().map(|(_, id)| id.get())))
                .select(likes::post_id)
                .load(c)?
                .into_iter()
                .collect();
            QueryResult::Ok(missing.iter().map(|key| (*key, LikeFlag(found.contains(&key.1)))).collect())
        })?
        else {
            return Ok(None);
        };
        let mut flags = flags.iter().map(|f| f.0);
        Ok(known.into_iter().map(|k| k.or_else(|| flags.next())).collect::<Option<Vec<bool>>>().map(|l| (l, reposted)))
    }

    /// The `n`th post below `start` (by id), when the list of the newest posts held reaches that
    /// far: `Some(None)` when the list holds every post and fewer than `n` are below `start`;
    /// `None` when it is not held or does not reach.
    pub(crate) fn post_below(&self, start: i64, n: usize) -> Option<Option<i64>> {
        let newest = self.newest.get(&())?;
        let first = newest.list.partition_point(|(id, _)| id.get() >= start);
        match newest.list.get(first + n.checked_sub(1)?) {
            Some((id, _)) => Some(Some(id.get())),
            None if newest.complete() => Some(None),
            None => None,
        }
    }

    /// The newest posts, held or read (by one request at a time: the others are answered by
    /// the database meanwhile). When only new posts were written since the list held was read
    /// ([`Topic::NewPost`]), they are taken in as their stamps tell them
    /// ([`Topic::Written`]), or, when a stamp did not say which post, only the posts made
    /// since a moment before that read are read, and take the place of what the list held from
    /// there on; anything else (a deletion, a post written late, a minute gone by) reads the
    /// list whole. A new post once made every process read 20,000 rows, then the last 70
    /// seconds' (issue 30).
    fn newest(&self, conn: Option<&mut DbConnection>) -> QueryResult<Option<Arc<Noted<Newest>>>> {
        let changes = self.newest.changes().clone();
        let only_new_posts =
            |held: &Noted<Newest>| held.read.updatable() && held.unchanged_in(&changes, [Topic::Posts]);
        let patched = self.newest.get_or_patch(&(), |held| {
            let written = only_new_posts(held).then(|| held.written_since(&changes)).flatten()?;
            Some(held.with_written(written))
        });
        if patched.is_some() {
            return Ok(patched);
        }
        self.newest.get_or_update(&(), conn, |c, held| {
            let newest = posts::table.select((posts::id, posts::user_id)).order(posts::id.desc());
            if let Some(held) = held.filter(|h| only_new_posts(h)) {
                let read = held.read.again();
                let fresh = newest.filter(posts::id.ge(held.read.floor())).limit(NEWEST_LEN).load(c)?;
                return Ok(Some(held.updated(fresh, read)));
            }
            let read = db::NewPostsRead::whole();
            Ok(Some(Newest { list: newest.limit(NEWEST_LEN).load(c)?, read }))
        })
    }

    /// The newest reposts, held or read: when only new reposts were made since the list held
    /// was read ([`Topic::NewRepost`]), only the reposts made since a moment before that read
    /// are read, and take the place of what it held from there on (as the newest posts are);
    /// a repost taken back or a post deleted reads it whole.
    fn recent_reposts(&self, conn: Option<&mut DbConnection>) -> QueryResult<Option<Arc<Noted<RecentReposts>>>> {
        let changes = self.recent_reposts.changes().clone();
        let at_most = self.reposts_held.load(std::sync::atomic::Ordering::Relaxed);
        self.recent_reposts.get_or_update(&(), conn, |c, held| {
            if let Some(held) =
                held.filter(|h| h.read.updatable() && h.unchanged_in(&changes, [Topic::Reposts, Topic::Posts]))
            {
                let read = held.read.again();
                let fresh = read_reposts(c, Some(held.read.floor()), at_most)?;
                return Ok(Some(held.updated(fresh, read, at_most)));
            }
            let read = db::NewPostsRead::whole();
            let mut list = read_reposts(c, None, at_most)?;
            let complete = list.len() as i64 <= at_most;
            list.truncate(usize::try_from(at_most).unwrap_or(0));
            Ok(Some(RecentReposts::new(list, complete, read)))
        })
    }

    /// A page of `viewer`'s Listened to, from memory (see [`listened`]): the page's posts, then
    /// for those a repost placed the reposter's card. None when it cannot be answered here.
    fn listened_page(
        &self,
        mut conn: Option<&mut DbConnection>,
        viewer: UserId,
        outlook: &Outlook,
        page: FeedPage,
    ) -> QueryResult<Option<Vec<Post>>> {
        let Some(entries) = self.listened_entries(conn.as_deref_mut(), viewer, outlook, page)? else {
            return Ok(None);
        };
        let listened::Page { entries, unsure } = entries;
        let ids: Vec<PostId> = entries.iter().map(|(id, _)| *id).collect();
        let placed: Vec<HeldRepost> = entries.iter().filter_map(|(_, r)| *r).collect();
        let Some(mut found) = self.posts(conn.as_deref_mut(), outlook, &ids)? else { return Ok(None) };
        // A post shown in its own place whose every repost is not held stands there only when its
        // row counts no more reposts than held (none of the others by someone listened to, or it
        // would stand at theirs).
        let doubted = |p: &Post| unsure.iter().any(|(id, count)| *id == p.id && p.reposts_count != *count);
        if found.iter().any(doubted) {
            return Ok(None);
        }
        if placed.is_empty() {
            return Ok(Some(found));
        }
        let people: Vec<UserId> = placed.iter().map(|r| r.by).collect();
        let Some(cards) = self.cards(conn, &people)? else { return Ok(None) };
        let marks: db::FastMap<PostId, RepostMark> = placed
            .iter()
            .zip(cards)
            .map(|(r, card)| (r.post, RepostMark { id: r.id, by: card.0.clone(), at: r.at }))
            .collect();
        for post in &mut found {
            post.reposted = marks.get(&post.id).cloned();
        }
        Ok(Some(found))
    }

    /// The ids of a page of `viewer`'s Listened to (with the reposts that placed them). Someone
    /// who listens to a few people has the first [`MERGED_LEN`] held ([`Merged`]): the lists
    /// they are merged from are many (a hundred people, each their posts and reposts), and read
    /// again only when one of those people posts or reposts, or what the viewer may see changes.
    fn listened_entries(
        &self,
        mut conn: Option<&mut DbConnection>,
        viewer: UserId,
        outlook: &Outlook,
        page: FeedPage,
    ) -> QueryResult<Option<listened::Page>> {
        let Some(listened) = self.listened_held(viewer, conn.as_deref_mut())? else { return Ok(None) };
        if listened.0.is_empty() {
            return Ok(Some(listened::Page { entries: Vec::new(), unsure: Vec::new() }));
        }
        if !listened::few(listened.0.len()) {
            let Some(recent) = self.recent_reposts(conn.as_deref_mut())? else { return Ok(None) };
            let Some(newest) = self.newest(conn.as_deref_mut())? else { return Ok(None) };
            let everyone = listened::Posts::Everyone(&newest, usize::MAX);
            let found = listened::page(everyone, listened::Reposts::Everyone(&recent), &listened.0, outlook, page);
            return Ok(found.ok());
        }
        let first = FeedPage::Offset(Page { limit: MERGED_LEN as i64, offset: 0 });
        let merged = self.merged.get_or_read(&viewer, conn.as_deref_mut(), |c| {
            let found = self.listened_of_few(Some(c), &listened.0, outlook, first)?;
            Ok::<_, db::diesel::result::Error>(found.and_then(Result::ok).map(|p| Merged::new(&listened.0, p)))
        })?;
        if let Some(held) = merged.as_ref().and_then(|m| m.slice(page)) {
            return Ok(Some(held));
        }
        // Past what is held (or nothing held, without a connection): the page itself.
        Ok(self.listened_of_few(conn, &listened.0, outlook, page)?.and_then(Result::ok))
    }

    /// A page of Listened to of someone who listens to at most [`crate::feed::DENSE_LISTENING`]
    /// people from each person's newest posts, and their reposts among everyone's newest or,
    /// for a page reaching past those, each person's own newest. None when a list is not held
    /// and there is no `conn`.
    fn listened_of_few(
        &self,
        mut conn: Option<&mut DbConnection>,
        listened: &db::FastSet<UserId>,
        outlook: &Outlook,
        page: FeedPage,
    ) -> QueryResult<Option<Result<listened::Page, listened::Short>>> {
        let Some(recent) = self.recent_reposts(conn.as_deref_mut())? else { return Ok(None) };
        let Some(newest) = self.newest(conn.as_deref_mut())? else { return Ok(None) };
        // Everyone's newest a little way first: a page of people who post often is there.
        let near = listened::Posts::Everyone(&newest, WALKED_FIRST);
        if let Ok(found) = listened::page(near, listened::Reposts::Everyone(&recent), listened, outlook, page) {
            return Ok(Some(Ok(found)));
        }
        let people: Vec<UserId> = listened.iter().filter(|p| !outlook.hides(p)).copied().collect();
        let Some(authored) = self.authored_of(conn.as_deref_mut(), &people)? else { return Ok(None) };
        let each = listened::Posts::Each(&authored);
        Ok(Some(match listened::page(each, listened::Reposts::Everyone(&recent), listened, outlook, page) {
            Err(listened::Short::Reposts) => {
                let Some(theirs) = self.reposted_of(conn, &people)? else { return Ok(None) };
                listened::page(
                    listened::Posts::Each(&authored),
                    listened::Reposts::Each(&theirs),
                    listened,
                    outlook,
                    page,
                )
            }
            found => found,
        }))
    }

    /// The newest posts of each of `people` (at most [`crate::feed::DENSE_LISTENING`] of them), in order, held
    /// or read (one statement for those missing: [`read_authored_of`]).
    fn authored_of(
        &self,
        conn: Option<&mut DbConnection>,
        people: &[UserId],
    ) -> QueryResult<Option<Vec<Arc<Noted<Authored>>>>> {
        self.authored.get_many_or_read(people, conn, read_authored_of)
    }

    /// The newest reposts of each of `people` (at most [`crate::feed::DENSE_LISTENING`] of them),
    /// in order, held or read (one statement for those missing: [`read_reposted_of`]).
    fn reposted_of(
        &self,
        conn: Option<&mut DbConnection>,
        people: &[UserId],
    ) -> QueryResult<Option<Vec<Arc<Noted<Reposted>>>>> {
        self.reposted.get_many_or_read(people, conn, read_reposted_of)
    }

    /// The cards of `people`, in order, held or read (one statement for those missing).
    fn cards(&self, conn: Option<&mut DbConnection>, people: &[UserId]) -> QueryResult<Option<Vec<Arc<Noted<Card>>>>> {
        self.cards.get_many_or_read(people, conn, |c, missing| {
            let found: Vec<UserCard> = users::table
                .filter(db::one_of(users::id, missing.iter().map(|id| id.get())))
                .select(UserCard::as_select())
                .load(c)?;
            Ok(found.into_iter().map(|card| (card.id, Card(card))).collect())
        })
    }

    /// The heads of `ids`, in order, held or read (one statement for those missing).
    fn heads(&self, conn: Option<&mut DbConnection>, ids: &[PostId]) -> QueryResult<Option<Vec<Arc<Noted<PostHead>>>>> {
        // A post listed but gone (deleted in another process a moment ago): not answered here.
        self.heads.get_many_or_read(ids, conn, read_heads)
    }

    /// Those of `ids` that `viewer` may see, in order, as a page shows them; the others (gone,
    /// their author hidden from the viewer) left out: what lists made apart from the posts
    /// show (Discover, a playlist, a tag's page). From memory, reading what is missing (the
    /// heads in one statement, then as any page); without `conn` only from what is held.
    pub(crate) fn shown(
        &self,
        mut conn: Option<&mut DbConnection>,
        ids: &[PostId],
        viewer: Option<UserId>,
    ) -> QueryResult<Option<Vec<Post>>> {
        if ids.is_empty() {
            return Ok(Some(Vec::new()));
        }
        if !self.trusted() {
            return Ok(None);
        }
        let Some(outlook) = self.outlook(conn.as_deref_mut(), viewer)? else { return Ok(None) };
        let Some(heads) = self.heads.get_some_or_read(ids, conn.as_deref_mut(), read_heads)? else {
            return Ok(None);
        };
        let kept: Vec<PostId> =
            heads.iter().flatten().filter(|h| !outlook.hides(&h.row.user_id)).map(|h| h.row.id).collect();
        self.posts(conn, &outlook, &kept)
    }
}

/// The rows of posts `missing` with their authors' cards: one statement.
fn read_heads(c: &mut DbConnection, missing: &[PostId]) -> QueryResult<Vec<(PostId, PostHead)>> {
    let rows: Vec<(PostRow, UserCard)> = posts::table
        .inner_join(users::table.on(users::id.eq(posts::user_id)))
        .filter(db::one_of(posts::id, missing.iter().map(|id| id.get())))
        .select((PostRow::as_select(), UserCard::as_select()))
        .load(c)?;
    Ok(rows.into_iter().map(|(row, author)| (row.id, PostHead { row, author })).collect())
}

/// What one viewer (or a guest) may not see, from the pieces held: put together for each
/// request, each piece used while what it was read from stands.
struct Outlook {
    viewer: Option<UserId>,
    suspended: Arc<Noted<Suspended>>,
    /// The block pairs, for a signed-in viewer.
    pairs: Option<Pairs>,
}

/// The block pairs a viewer's outlook is made with: all of them, or the viewer's own.
enum Pairs {
    All(Arc<Noted<BlockPairs>>),
    Own(Arc<Noted<Blocked>>),
}

impl Outlook {
    /// Whether `person`'s work is hidden from the viewer.
    fn hides(&self, person: &UserId) -> bool {
        self.suspended.0.contains(person) || self.others().binary_search(person).is_ok()
    }

    /// Whether the viewer is in a block pair with anyone.
    fn in_a_pair(&self) -> bool {
        !self.others().is_empty()
    }

    /// The people in a block pair with the viewer, sorted.
    fn others(&self) -> &[UserId] {
        let others = match (self.viewer, self.pairs.as_ref()) {
            (Some(viewer), Some(Pairs::All(all))) => all.0.as_ref().and_then(|m| m.get(&viewer)),
            (_, Some(Pairs::Own(own))) => Some(&own.0),
            _ => None,
        };
        others.map_or(&[], Vec::as_slice)
    }
}

/// What is held of a viewer after their first look: their marks, and whom they listen to.
type Look = (Arc<Noted<Marks>>, Option<Arc<Noted<Listened>>>);

/// At most how many of whom a viewer listens to are read with their marks
/// ([`Memory::first_look`]); someone who listens to more has them read apart, when a page
/// needs them.
const LISTENED_WITH_MARKS: i64 = 1_000;

/// What a viewer did and whom they listen to, as one SQL text column (each `?` the viewer):
/// the posts they like, newest posts first, at most [`LIKED_HELD`] (`likes (user_id, post_id)`
/// walked backwards), their newest reposts, at most [`OWN_REPOSTS_HELD`] (`reposts (user_id,
/// id, post_id)`, index only), and whom they listen to (`listens (listener_id, listened_id)`),
/// each one more than held so that whether that is all is known: three lists of ids, `;`
/// between them. One text rather than rows, so that a hundred likes are one value, not a
/// hundred rows (on PostgreSQL each row is a message to parse); read alone
/// ([`read_first_look`]) or along with the viewer's session check ([`db::Along`]).
static LOOK: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let list = |column: &str, rows: &str| {
        format!("COALESCE((SELECT string_agg(CAST({column} AS TEXT), ',') FROM ({rows}) x), '')")
    };
    [
        list(
            "post_id",
            &format!("SELECT post_id FROM likes WHERE user_id = ? ORDER BY post_id DESC LIMIT {}", LIKED_HELD + 1),
        ),
        list(
            "post_id",
            &format!("SELECT post_id FROM reposts WHERE user_id = ? ORDER BY id DESC LIMIT {}", OWN_REPOSTS_HELD + 1),
        ),
        list(
            "listened_id",
            &format!("SELECT listened_id FROM listens WHERE listener_id = ? LIMIT {}", LISTENED_WITH_MARKS + 1),
        ),
    ]
    .join(" || ';' || ")
});

/// [`LOOK`] read alone.
static READ_LOOK: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| format!("SELECT {} AS look", *LOOK));

/// `viewer`'s marks, and whom they listen to (none when more than [`LISTENED_WITH_MARKS`]), in
/// one statement ([`LOOK`]).
fn read_first_look(conn: &mut DbConnection, viewer: UserId) -> QueryResult<(Marks, Option<Listened>)> {
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = Text)]
        look: String,
    }
    let mut q = db::Kept::new(READ_LOOK.as_str());
    for _ in 0..READ_LOOK.matches('?').count() {
        q = q.bind::<BigInt, _>(viewer);
    }
    let found: Row = q.get_result(conn)?;
    first_look_of(&found.look)
        .ok_or_else(|| db::diesel::result::Error::DeserializationError(format!("not a look: {}", found.look).into()))
}

/// What [`LOOK`] answered, read: none when it is not three lists of ids.
fn first_look_of(text: &str) -> Option<(Marks, Option<Listened>)> {
    let mut lists = text.split(';');
    let (liked, reposted, people) = (lists.next()?, lists.next()?, lists.next()?);
    if lists.next().is_some() {
        return None;
    }
    let mut liked: Vec<PostId> = ids(liked)?;
    let reposted: Vec<PostId> = ids(reposted)?;
    let people: Vec<UserId> = ids(people)?;
    // The aggregate keeps no order the statement can rely on: the floor is the smallest of
    // the likes read.
    liked.sort_unstable_by_key(|id| std::cmp::Reverse(*id));
    let floor = (liked.len() as i64 > LIKED_HELD).then(|| {
        liked.truncate(LIKED_HELD as usize);
        liked[liked.len() - 1]
    });
    let reposted = (reposted.len() as i64 <= OWN_REPOSTS_HELD).then(|| reposted.into_iter().collect());
    let marks = Marks { liked: liked.into_iter().collect(), floor, reposted };
    let listened = (people.len() as i64 <= LISTENED_WITH_MARKS).then(|| Listened(people.into_iter().collect()));
    Some((marks, listened))
}

/// Ids written out by an aggregate, comma between them: none when one is not an id.
fn ids<T: TryFrom<i64>>(text: &str) -> Option<Vec<T>> {
    if text.is_empty() {
        return Some(Vec::new());
    }
    text.split(',').map(|id| id.trim().parse::<i64>().ok().and_then(|id| T::try_from(id).ok())).collect()
}

/// The newest reposts (made from `floor` on, when given), newest first, with their posts'
/// authors: a walk of `reposts`' key, each post looked up by its key; one more than the
/// `at_most` held, so that whether they are all is known.
fn read_reposts(conn: &mut DbConnection, floor: Option<i64>, at_most: i64) -> QueryResult<Vec<HeldRepost>> {
    let mut q = reposts::table
        .inner_join(posts::table.on(posts::id.eq(reposts::post_id)))
        .select((reposts::id, reposts::user_id, reposts::post_id, posts::user_id, reposts::created_at))
        .order(reposts::id.desc())
        .limit(at_most + 1)
        .into_boxed();
    if let Some(floor) = floor {
        q = q.filter(reposts::id.ge(floor));
    }
    let rows: Vec<(i64, UserId, PostId, UserId, chrono::NaiveDateTime)> = q.load(conn)?;
    Ok(rows.into_iter().map(|(id, by, post, author, at)| HeldRepost { id, by, post, author, at }).collect())
}

/// Whom `viewer` listens to.
fn read_listened(conn: &mut DbConnection, viewer: UserId) -> QueryResult<Option<Listened>> {
    let people = listens::table.filter(listens::listener_id.eq(viewer)).select(listens::listened_id).load(conn)?;
    Ok(Some(Listened(people.into_iter().collect())))
}

/// How many people `viewer` listens to (the counter on their row).
fn read_listening_count(conn: &mut DbConnection, viewer: UserId) -> QueryResult<ListeningCount> {
    users::table.filter(users::id.eq(viewer)).select(users::listened_to_count).get_result(conn).map(ListeningCount)
}

/// `user`'s newest posts.
fn read_authored(conn: &mut DbConnection, user: UserId) -> QueryResult<Option<Authored>> {
    let mut ids: Vec<PostId> = posts::table
        .filter(posts::user_id.eq(user))
        .order(posts::id.desc())
        .select(posts::id)
        .limit(AUTHORED_LEN + 1)
        .load(conn)?;
    let complete = ids.len() as i64 <= AUTHORED_LEN;
    ids.truncate(AUTHORED_LEN as usize);
    Ok(Some(Authored { ids, complete }))
}

/// One statement of a walk for each of `people`, together (`UNION ALL`): `walk(i)` is its SQL
/// for the `i`th, with one `?` (the person) and its own aliases. One text for each power of two
/// of people (the last repeated to fill it), so that each is prepared once. None for nobody.
fn walks_of(people: &[UserId], walk: impl Fn(usize) -> String) -> Option<db::Kept> {
    let &last = people.last()?;
    let width = people.len().next_power_of_two();
    let mut q = db::Kept::made((0..width).map(walk).collect::<Vec<_>>().join(" UNION ALL "));
    for i in 0..width {
        q = q.bind::<BigInt, _>(people.get(i).copied().unwrap_or(last));
    }
    Some(q)
}

/// The newest posts of each of `people` (at most [`crate::feed::DENSE_LISTENING`]), at most
/// [`AUTHORED_WALKED_LEN`] of each, in one statement ([`walks_of`]): a walk of `posts (user_id,
/// id)` for each, one more than held so that whether they are all is known.
fn read_authored_of(conn: &mut DbConnection, people: &[UserId]) -> QueryResult<Vec<(UserId, Authored)>> {
    let walk = |i: usize| {
        format!(
            "SELECT a{i}.id AS id, a{i}.user_id AS user_id FROM \
             (SELECT id, user_id FROM posts WHERE user_id = ? ORDER BY id DESC LIMIT {}) AS a{i}",
            AUTHORED_WALKED_LEN + 1
        )
    };
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = BigInt)]
        id: PostId,
        #[diesel(sql_type = BigInt)]
        user_id: UserId,
    }
    let Some(q) = walks_of(people, walk) else { return Ok(Vec::new()) };
    let rows: Vec<Row> = q.load(conn)?;
    let mut by_person: db::FastMap<UserId, Vec<PostId>> = people.iter().map(|p| (*p, Vec::new())).collect();
    for row in rows {
        if let Some(ids) = by_person.get_mut(&row.user_id) {
            ids.push(row.id);
        }
    }
    Ok(by_person
        .into_iter()
        .map(|(person, mut ids)| {
            // The last person's walk, repeated to fill the text, is read as often.
            ids.sort_unstable_by_key(|id| Reverse(*id));
            ids.dedup();
            let complete = ids.len() as i64 <= AUTHORED_WALKED_LEN;
            ids.truncate(AUTHORED_WALKED_LEN as usize);
            (person, Authored { ids, complete })
        })
        .collect())
}

/// The newest reposts of each of `people` (at most [`crate::feed::DENSE_LISTENING`]), with their
/// posts' authors, in one statement: a walk of `reposts (user_id, id)` for each, each post looked
/// up by its key, one more than held so that whether they are all is known ([`walks_of`]).
fn read_reposted_of(conn: &mut DbConnection, people: &[UserId]) -> QueryResult<Vec<(UserId, Reposted)>> {
    let walk = |i: usize| {
        format!(
            "SELECT r{i}.id AS id, r{i}.user_id AS user_id, r{i}.post_id AS post_id, r{i}.author AS author, \
             r{i}.created_at AS created_at FROM (SELECT r.id, r.user_id, r.post_id, p.user_id AS author, r.created_at \
             FROM reposts r JOIN posts p ON p.id = r.post_id WHERE r.user_id = ? ORDER BY r.id DESC LIMIT {}) AS r{i}",
            REPOSTED_LEN + 1
        )
    };
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = BigInt)]
        id: i64,
        #[diesel(sql_type = BigInt)]
        user_id: UserId,
        #[diesel(sql_type = BigInt)]
        post_id: PostId,
        #[diesel(sql_type = BigInt)]
        author: UserId,
        #[diesel(sql_type = db::diesel::sql_types::Timestamp)]
        created_at: chrono::NaiveDateTime,
    }
    let Some(q) = walks_of(people, walk) else { return Ok(Vec::new()) };
    let rows: Vec<Row> = q.load(conn)?;
    let mut by_person: db::FastMap<UserId, Vec<HeldRepost>> = people.iter().map(|p| (*p, Vec::new())).collect();
    for r in rows {
        if let Some(list) = by_person.get_mut(&r.user_id) {
            list.push(HeldRepost { id: r.id, by: r.user_id, post: r.post_id, author: r.author, at: r.created_at });
        }
    }
    Ok(by_person
        .into_iter()
        .map(|(person, mut list)| {
            list.sort_unstable_by_key(|r| Reverse(r.id));
            list.dedup_by_key(|r| r.id);
            let complete = list.len() as i64 <= REPOSTED_LEN;
            list.truncate(REPOSTED_LEN as usize);
            (person, Reposted::new(list, complete))
        })
        .collect())
}

/// `post`'s newest comments, whoever wrote them.
fn read_thread(conn: &mut DbConnection, post: PostId) -> QueryResult<Option<Thread>> {
    let mut comments = comments::newest(conn, post, THREAD_LEN + 1)?;
    let complete = comments.len() as i64 <= THREAD_LEN;
    comments.truncate(THREAD_LEN as usize);
    Ok(Some(Thread { comments, complete }))
}

/// The ids of a page of `list` (newest first) kept by `keep`: None when the list ends before
/// the page does and is not `complete`.
fn pick(
    list: &[(PostId, UserId)],
    complete: bool,
    page: FeedPage,
    keep: impl Fn(&(PostId, UserId)) -> bool,
) -> Option<Vec<PostId>> {
    let (from, skip, limit) = match page {
        FeedPage::Offset(p) => (0, p.offset, p.limit),
        FeedPage::Before(k) => {
            let from = k.before.map_or(0, |before| list.partition_point(|(id, _)| *id >= before));
            (from, 0, k.limit)
        }
    };
    let (skip, limit) = (usize::try_from(skip).ok()?, usize::try_from(limit).ok()?);
    let ids: Vec<PostId> = list[from.min(list.len())..]
        .iter()
        .filter(|entry| keep(entry))
        .skip(skip)
        .take(limit)
        .map(|(id, _)| *id)
        .collect();
    (ids.len() == limit || complete).then_some(ids)
}

/// A viewer new to the process: their marks and whom they listen to read along with their
/// session's check, when not held ([`LOOK`]).
impl db::Along for Memory {
    fn wanted(&self, viewer: UserId) -> Option<&'static str> {
        self.marks.get(&viewer).is_none().then_some(LOOK.as_str())
    }

    fn found(&self, viewer: UserId, seen: Option<db::Seen>, text: Option<String>) {
        match text.as_deref().and_then(first_look_of) {
            Some((marks, people)) => drop(self.keep_look(viewer, seen, marks, people)),
            None => tracing::warn!(?text, "a viewer's look read along with their session was not understood"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use db::{Keyset, Page};

    fn list(n: i64) -> Vec<(PostId, UserId)> {
        let (a, b) = (UserId::generate(), UserId::generate());
        let mut ids: Vec<PostId> = (0..n).filter_map(|_| PostId::try_from(values::new_raw_id()).ok()).collect();
        ids.sort_unstable_by_key(|id| std::cmp::Reverse(id.get()));
        ids.into_iter().enumerate().map(|(i, id)| (id, if i % 2 == 0 { a } else { b })).collect()
    }

    #[test]
    fn posts_written_are_taken_in_by_id_once() {
        let l = list(6);
        let held: Vec<_> = l.iter().copied().step_by(2).collect();
        let newest = Newest { list: held.clone(), read: db::NewPostsRead::whole() };
        // Out of order, one listed already, one older than some listed (its upload took longer).
        let written = vec![l[3], l[0], l[2], l[1], l[1]];
        assert_eq!(newest.with_written(written).list, l[..5].to_vec());
        assert_eq!(newest.with_written(vec![]).list, held);
    }

    #[test]
    fn a_page_is_picked_by_offset_or_cursor_past_what_is_not_kept() {
        let l = list(10);
        let author = l[0].1;
        let mine = |e: &(PostId, UserId)| e.1 == author;
        let offset = |offset, limit| FeedPage::Offset(Page { offset, limit });
        let evens: Vec<PostId> = l.iter().step_by(2).map(|e| e.0).collect();
        assert_eq!(pick(&l, false, offset(0, 3), mine), Some(evens[..3].to_vec()));
        assert_eq!(pick(&l, false, offset(1, 3), mine), Some(evens[1..4].to_vec()));
        assert_eq!(pick(&l, false, offset(3, 3), mine), None, "the list ends first");
        assert_eq!(pick(&l, true, offset(3, 3), mine), Some(evens[3..].to_vec()), "all there is");
        let after_second = FeedPage::Before(Keyset { before: Some(l[2].0), limit: 2 });
        assert_eq!(pick(&l, false, after_second, mine), Some(evens[2..4].to_vec()));
        let before_unknown = FeedPage::Before(Keyset { before: PostId::try_from(l[2].0.get() + 1).ok(), limit: 2 });
        assert_eq!(pick(&l, false, before_unknown, |_| true), Some(vec![l[2].0, l[3].0]));
    }
}
