//! Pages answered from memory, without a statement, kept exact by `db::changes`.
//!
//! A page is which posts, then each post as the viewer sees it. Both are put together here from
//! what many requests share, each piece noted with [`db::Changes::seen`] before it was read and
//! used only while none of what it was read from has changed since:
//!
//! | piece | shared by | read again when |
//! |---|---|---|
//! | the newest posts, ids and authors (`crate::cache::Newest`) | everyone | a post is written or deleted ([`Topic::Posts`]) |
//! | a person's newest posts ([`Authored`]) | everyone | they write or delete one ([`Topic::User`]) |
//! | a post's row and its author's card ([`Head`]) | everyone | its counts change or it is deleted ([`Topic::Post`]), its author's card changes ([`Topic::User`]) |
//! | what a viewer may not see and which posts they like ([`Outlook`]), whom they listen to ([`Listening`]) | the viewer | they like, listen, block or are blocked ([`Topic::Viewer`]) |
//! | payloads (`crate::cache::PayloadCache`) | everyone | its post's row shows a later `edited_at` |
//! | a post's newest comments, their authors' and mentioned people's cards ([`Thread`]) | everyone | a comment comes or goes ([`Topic::Post`]), a card changes ([`Topic::User`]) |
//!
//! A suspension, a lifted one and a deleted account change everything ([`Topic::Everything`]).
//!
//! A page of comments is the post's newest comments past those the viewer may not see, when the
//! post itself may be shown to them.
//!
//! Which posts: For you walks the newest posts past those the viewer may not see (a block pair,
//! a suspended author); Listened to keeps those of the people they listen to; a person's posts
//! are their newest. When the list held does not reach as far as the page (a deep page, few
//! posts of the people listened to among the newest), or a post is not found as listed, the
//! page is not answered here and the database's query answers it, with every rule in SQL
//! (`crate::feed`).
//!
//! [`Memory::page`] without a connection answers only from what it holds (no statement at
//! all); with one, it reads what it misses and keeps it, a fixed number of statements.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use db::diesel::prelude::*;
use db::model::UserCard;
use db::schema::{likes, listens, posts, users};
use db::{Changes, DbConnection, Page, Seen, Topic};
use values::{PostId, PostKind, UserId};

use crate::cache::{Remembered, Version};
use crate::comments;
use crate::feed::{Feed, FeedPage};
use crate::kinds;
use crate::model::{Comment, Post, PostRow};

/// What [`Memory`] may hold, in bytes, for each of heads and viewers.
const HEADS_BYTES: u64 = 32 << 20;
const OUTLOOKS_BYTES: u64 = 32 << 20;
const LISTENING_BYTES: u64 = 16 << 20;
const AUTHORED_BYTES: u64 = 8 << 20;
const THREADS_BYTES: u64 = 32 << 20;

/// How many posts' like state one viewer's outlook holds at most (about 50 KB).
const LIKED_HELD: usize = 2_000;

/// How many of a post's newest comments are held: their first pages.
const THREAD_LEN: i64 = 100;

/// How many of a person's newest posts are held: their first pages.
const AUTHORED_LEN: i64 = 100;

/// Heads of posts, viewers' outlooks and people's newest posts.
pub(crate) struct Memory {
    heads: quick_cache::sync::Cache<PostId, Arc<Head>, Weight>,
    outlooks: quick_cache::sync::Cache<Option<UserId>, Arc<Outlook>, Weight>,
    listening: quick_cache::sync::Cache<UserId, Arc<Listening>, Weight>,
    authored: quick_cache::sync::Cache<UserId, Arc<Authored>, Weight>,
    threads: quick_cache::sync::Cache<PostId, Arc<Thread>, Weight>,
}

impl Default for Memory {
    fn default() -> Self {
        // Items expected: the bytes over a typical entry's weight.
        Memory {
            heads: quick_cache::sync::Cache::with_weighter((HEADS_BYTES / 256) as usize, HEADS_BYTES, Weight),
            outlooks: quick_cache::sync::Cache::with_weighter((OUTLOOKS_BYTES / 512) as usize, OUTLOOKS_BYTES, Weight),
            listening: quick_cache::sync::Cache::with_weighter(
                (LISTENING_BYTES / 1024) as usize,
                LISTENING_BYTES,
                Weight,
            ),
            authored: quick_cache::sync::Cache::with_weighter((AUTHORED_BYTES / 512) as usize, AUTHORED_BYTES, Weight),
            threads: quick_cache::sync::Cache::with_weighter((THREADS_BYTES / 4096) as usize, THREADS_BYTES, Weight),
        }
    }
}

/// A post's row and its author's card, as read after `seen`.
pub(crate) struct Head {
    seen: Seen,
    row: PostRow,
    author: UserCard,
}

impl Head {
    fn current(&self, changes: &Changes) -> bool {
        changes.unchanged(self.seen, [Topic::Post(self.row.id), Topic::User(self.row.user_id)])
    }
}

/// What one viewer (or every guest) may not see, whom they listen to, and which posts they
/// like, as read after `seen`.
pub(crate) struct Outlook {
    seen: Seen,
    viewer: Option<UserId>,
    /// Suspended people, and people in a block pair with the viewer.
    hidden: HashSet<UserId>,
    /// Whether the viewer likes each post asked about so far.
    liked: Mutex<HashMap<PostId, bool>>,
}

impl Outlook {
    fn current(&self, changes: &Changes) -> bool {
        changes.unchanged(self.seen, self.viewer.map(Topic::Viewer))
    }

    fn liked(&self) -> std::sync::MutexGuard<'_, HashMap<PostId, bool>> {
        self.liked.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Whom a viewer listens to, as read after `seen` (apart from [`Outlook`]: only Listened to
/// needs it).
pub(crate) struct Listening {
    seen: Seen,
    viewer: UserId,
    people: HashSet<UserId>,
}

/// A person's newest posts (at most [`AUTHORED_LEN`]), as read after `seen`; `complete` when
/// they are all their posts.
pub(crate) struct Authored {
    seen: Seen,
    user: UserId,
    ids: Vec<PostId>,
    complete: bool,
}

/// A post's newest comments (at most [`THREAD_LEN`]) with their authors and the people they
/// mention, whoever wrote them, as read after `seen`; `complete` when they are all of them.
pub(crate) struct Thread {
    seen: Seen,
    post: PostId,
    comments: Vec<Comment>,
    complete: bool,
}

impl Thread {
    /// No comment came or went (both count on the post's row), no card shown changed.
    fn current(&self, changes: &Changes) -> bool {
        let people = self.comments.iter().flat_map(|c| {
            std::iter::once(Topic::User(c.author.id)).chain(c.mentions.iter().map(|m| Topic::User(m.user_id)))
        });
        changes.unchanged(self.seen, std::iter::once(Topic::Post(self.post)).chain(people))
    }
}

/// Entries weigh roughly the bytes they hold.
#[derive(Clone)]
struct Weight;

impl quick_cache::Weighter<PostId, Arc<Head>> for Weight {
    fn weight(&self, _: &PostId, head: &Arc<Head>) -> u64 {
        let text = |s: &str| s.len() as u64 + 24;
        160 + head.row.caption.as_deref().map_or(0, text)
            + text(&head.author.name)
            + text(&head.author.login)
            + head.author.avatar_url.as_deref().map_or(0, text)
    }
}

impl quick_cache::Weighter<Option<UserId>, Arc<Outlook>> for Weight {
    fn weight(&self, _: &Option<UserId>, o: &Arc<Outlook>) -> u64 {
        // The likes it learns later are not weighed (weights may not change once kept): at most
        // LIKED_HELD of them, 24 bytes each, gone with it at the viewer's next like.
        512 + 16 * o.hidden.len() as u64
    }
}

impl quick_cache::Weighter<UserId, Arc<Listening>> for Weight {
    fn weight(&self, _: &UserId, l: &Arc<Listening>) -> u64 {
        64 + 16 * l.people.len() as u64
    }
}

impl quick_cache::Weighter<PostId, Arc<Thread>> for Weight {
    fn weight(&self, _: &PostId, t: &Arc<Thread>) -> u64 {
        let text = |s: &str| s.len() as u64 + 24;
        let card = |u: &UserCard| 64 + text(&u.name) + text(&u.login) + u.avatar_url.as_deref().map_or(0, text);
        64 + t
            .comments
            .iter()
            .map(|c| {
                64 + text(&c.content) + card(&c.author) + c.mentions.iter().map(|m| 64 + text(&m.login)).sum::<u64>()
            })
            .sum::<u64>()
    }
}

impl quick_cache::Weighter<UserId, Arc<Authored>> for Weight {
    fn weight(&self, _: &UserId, a: &Arc<Authored>) -> u64 {
        64 + 8 * a.ids.len() as u64
    }
}

/// Whether a page could be answered here; `Miss` lets the caller ask the database.
type Answer<T> = QueryResult<Option<T>>;

impl Remembered {
    /// A page of `feed` as `viewer` sees it, from memory: without `conn` only from what is held,
    /// with it reading what is missing. None when it cannot be answered here (see the module).
    pub(crate) fn page(
        &self,
        mut conn: Option<&mut DbConnection>,
        feed: Feed,
        page: FeedPage,
        viewer: Option<UserId>,
    ) -> Answer<Vec<Post>> {
        if page.limit() == 0 {
            return Ok(None);
        }
        let Some(outlook) = self.outlook(conn.as_deref_mut(), viewer)? else { return Ok(None) };
        let picked = match feed {
            Feed::ForYou => {
                let Some((list, complete)) = self.newest.exact(conn.as_deref_mut(), &self.changes)? else {
                    return Ok(None);
                };
                pick(&list, complete, page, |(_, author)| !outlook.hidden.contains(author))
            }
            Feed::ListenedTo => {
                let Some(v) = viewer else { return Ok(None) };
                let Some(listening) = self.listening(conn.as_deref_mut(), v)? else { return Ok(None) };
                let listening = &listening.people;
                if listening.is_empty() {
                    return Ok(Some(Vec::new()));
                }
                let Some((list, complete)) = self.newest.exact(conn.as_deref_mut(), &self.changes)? else {
                    return Ok(None);
                };
                pick(&list, complete, page, |(_, author)| {
                    listening.contains(author) && !outlook.hidden.contains(author)
                })
            }
            Feed::User(u) => {
                // Whether an empty page is a person or a 404 is the database's to say.
                if outlook.hidden.contains(&u) {
                    return Ok(None);
                }
                let Some(authored) = self.authored(conn.as_deref_mut(), u)? else { return Ok(None) };
                let list: Vec<(PostId, UserId)> = authored.ids.iter().map(|id| (*id, u)).collect();
                pick(&list, authored.complete, page, |_| true).filter(|ids| !ids.is_empty())
            }
        };
        let Some(ids) = picked else { return Ok(None) };
        self.posts(conn, &outlook, &ids)
    }

    /// The post page's post as `viewer` sees it, from memory (as [`Remembered::page`]). None as
    /// well when it may not be shown: the database's query says so.
    pub(crate) fn one(&self, mut conn: Option<&mut DbConnection>, id: PostId, viewer: Option<UserId>) -> Answer<Post> {
        let Some(outlook) = self.outlook(conn.as_deref_mut(), viewer)? else { return Ok(None) };
        Ok(self.posts(conn, &outlook, &[id])?.and_then(|mut found| found.pop()))
    }

    /// A page of `post`'s comments as `viewer` sees them, from memory (as [`Remembered::page`]):
    /// none also when the post may not be shown to them (the database's query says so).
    pub(crate) fn comments(
        &self,
        mut conn: Option<&mut DbConnection>,
        post: PostId,
        viewer: Option<UserId>,
        page: Page,
    ) -> Answer<Vec<Comment>> {
        if page.limit == 0 {
            return Ok(None);
        }
        let Some(outlook) = self.outlook(conn.as_deref_mut(), viewer)? else { return Ok(None) };
        let Some(heads) = self.heads(conn.as_deref_mut(), &[post])? else { return Ok(None) };
        if heads.iter().any(|h| outlook.hidden.contains(&h.row.user_id)) {
            return Ok(None);
        }
        let thread = match self.memory.threads.get(&post) {
            Some(held) if held.current(&self.changes) => held,
            _ => {
                let (Some(conn), Some(seen)) = (conn, self.changes.seen()) else { return Ok(None) };
                let mut comments = comments::newest(conn, post, THREAD_LEN + 1)?;
                let complete = comments.len() as i64 <= THREAD_LEN;
                comments.truncate(THREAD_LEN as usize);
                let thread = Arc::new(Thread { seen, post, comments, complete });
                self.memory.threads.insert(post, thread.clone());
                thread
            }
        };
        let (skip, limit) = (usize::try_from(page.offset).ok(), usize::try_from(page.limit).ok());
        let (Some(skip), Some(limit)) = (skip, limit) else { return Ok(None) };
        let shown: Vec<Comment> = thread
            .comments
            .iter()
            .filter(|c| !outlook.hidden.contains(&c.author.id))
            .skip(skip)
            .take(limit)
            .cloned()
            .collect();
        Ok((shown.len() == limit || thread.complete).then_some(shown))
    }

    /// `ids` as the viewer of `outlook` sees them, in order: None when one is missing here and
    /// there is no `conn`, or it is gone or hidden.
    fn posts(&self, mut conn: Option<&mut DbConnection>, outlook: &Outlook, ids: &[PostId]) -> Answer<Vec<Post>> {
        let Some(heads) = self.heads(conn.as_deref_mut(), ids)? else { return Ok(None) };
        if heads.iter().any(|h| outlook.hidden.contains(&h.row.user_id)) {
            return Ok(None);
        }
        let Some(liked) = likes_of(outlook, conn.as_deref_mut(), ids)? else { return Ok(None) };
        let mut missing = Vec::new();
        let versions: Vec<Version> = heads.iter().map(|h| (h.row.id, h.row.edited_at)).collect();
        let mut payloads = self.payloads.take(&versions, &mut missing);
        if !missing.is_empty() {
            let Some(conn) = conn else { return Ok(None) };
            let kinds: Vec<(PostId, PostKind)> =
                heads.iter().filter(|h| missing.contains(&h.row.id)).map(|h| (h.row.id, h.row.kind)).collect();
            let loaded = kinds::load_payloads(conn, &kinds)?;
            for (id, payload) in &loaded {
                let edited_at = heads.iter().find(|h| h.row.id == *id).and_then(|h| h.row.edited_at);
                self.payloads.keep((*id, edited_at), payload);
            }
            payloads.extend(loaded);
        }
        let mut found = Vec::with_capacity(ids.len());
        for (head, liked) in heads.iter().zip(liked) {
            // A post whose payload is missing is left out, as the database's page leaves it.
            let Some(payload) = payloads.remove(&head.row.id) else { continue };
            found.push(Post {
                id: head.row.id,
                caption: head.row.caption.clone(),
                created_at: head.row.created_at,
                edited_at: head.row.edited_at,
                likes_count: head.row.likes_count.max(0),
                comments_count: head.row.comments_count.max(0),
                user_liked: liked,
                author: head.author.clone(),
                payload,
            });
        }
        Ok(Some(found))
    }

    /// What `viewer` may not see and whom they listen to, held or read.
    fn outlook(&self, conn: Option<&mut DbConnection>, viewer: Option<UserId>) -> Answer<Arc<Outlook>> {
        if let Some(held) = self.memory.outlooks.get(&viewer)
            && held.current(&self.changes)
        {
            return Ok(Some(held));
        }
        let (Some(conn), Some(seen)) = (conn, self.changes.seen()) else { return Ok(None) };
        let hidden = social_graph::hidden_from(conn, viewer)?;
        let outlook = Arc::new(Outlook { seen, viewer, hidden, liked: Mutex::default() });
        self.memory.outlooks.insert(viewer, outlook.clone());
        Ok(Some(outlook))
    }

    /// The heads of `ids`, in order, held or read (one statement for those missing).
    fn heads(&self, conn: Option<&mut DbConnection>, ids: &[PostId]) -> Answer<Vec<Arc<Head>>> {
        let mut held: HashMap<PostId, Arc<Head>> = HashMap::with_capacity(ids.len());
        let mut missing = Vec::new();
        for id in ids {
            match self.memory.heads.get(id) {
                Some(head) if head.current(&self.changes) => {
                    held.insert(*id, head);
                }
                _ => missing.push(*id),
            }
        }
        if !missing.is_empty() {
            let (Some(conn), Some(seen)) = (conn, self.changes.seen()) else { return Ok(None) };
            let rows: Vec<(PostRow, UserCard)> = posts::table
                .inner_join(users::table.on(users::id.eq(posts::user_id)))
                .filter(db::one_of(posts::id, missing.iter().map(|id| id.get())))
                .select((PostRow::as_select(), UserCard::as_select()))
                .load(conn)?;
            for (row, author) in rows {
                let head = Arc::new(Head { seen, row, author });
                self.memory.heads.insert(head.row.id, head.clone());
                held.insert(head.row.id, head);
            }
        }
        // A post listed but gone (deleted in another process a moment ago): not answered here.
        Ok(ids.iter().map(|id| held.remove(id)).collect())
    }

    /// Whom `viewer` listens to, held or read.
    fn listening(&self, conn: Option<&mut DbConnection>, viewer: UserId) -> Answer<Arc<Listening>> {
        if let Some(held) = self.memory.listening.get(&viewer)
            && self.changes.unchanged(held.seen, [Topic::Viewer(held.viewer)])
        {
            return Ok(Some(held));
        }
        let (Some(conn), Some(seen)) = (conn, self.changes.seen()) else { return Ok(None) };
        let people: HashSet<UserId> = listens::table
            .filter(listens::listener_id.eq(viewer))
            .select(listens::listened_id)
            .load(conn)?
            .into_iter()
            .collect();
        let listening = Arc::new(Listening { seen, viewer, people });
        self.memory.listening.insert(viewer, listening.clone());
        Ok(Some(listening))
    }

    /// `user`'s newest posts, held or read.
    fn authored(&self, conn: Option<&mut DbConnection>, user: UserId) -> Answer<Arc<Authored>> {
        if let Some(held) = self.memory.authored.get(&user)
            && self.changes.unchanged(held.seen, [Topic::User(held.user)])
        {
            return Ok(Some(held));
        }
        let (Some(conn), Some(seen)) = (conn, self.changes.seen()) else { return Ok(None) };
        let mut ids: Vec<PostId> = posts::table
            .filter(posts::user_id.eq(user))
            .order(posts::id.desc())
            .select(posts::id)
            .limit(AUTHORED_LEN + 1)
            .load(conn)?;
        let complete = ids.len() as i64 <= AUTHORED_LEN;
        ids.truncate(AUTHORED_LEN as usize);
        let authored = Arc::new(Authored { seen, user, ids, complete });
        self.memory.authored.insert(user, authored.clone());
        Ok(Some(authored))
    }
}

/// Whether the viewer of `outlook` likes each of `ids`, held or read (one statement for those
/// missing); a guest likes none.
fn likes_of(outlook: &Outlook, conn: Option<&mut DbConnection>, ids: &[PostId]) -> Answer<Vec<bool>> {
    let Some(viewer) = outlook.viewer else { return Ok(Some(vec![false; ids.len()])) };
    let missing: Vec<PostId> = {
        let mut liked = outlook.liked();
        // Unweighed (weights may not change once kept), so bounded: a long scroll starts over,
        // before this page is looked up, so that all of it is read again.
        if liked.len() > LIKED_HELD {
            liked.clear();
        }
        ids.iter().filter(|id| !liked.contains_key(id)).copied().collect()
    };
    if !missing.is_empty() {
        let Some(conn) = conn else { return Ok(None) };
        let found: HashSet<PostId> = likes::table
            .filter(likes::user_id.eq(viewer))
            .filter(db::one_of(likes::post_id, missing.iter().map(|id| id.get())))
            .select(likes::post_id)
            .load(conn)?
            .into_iter()
            .collect();
        let mut liked = outlook.liked();
        for id in missing {
            liked.insert(id, found.contains(&id));
        }
    }
    // One taken out meanwhile (another page of this viewer started the map over): not
    // answered here.
    let liked = outlook.liked();
    Ok(ids.iter().map(|id| liked.get(id).copied()).collect())
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
