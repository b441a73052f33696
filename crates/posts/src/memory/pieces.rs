//! The pieces pages are put together from, each a [`db::Holdable`] naming the topics it was
//! read from (the table of `docs/architecture.md`, "Memory and writes").

use db::Topic;
use db::model::UserCard;
use db::{FastMap, FastSet, Holdable};
use values::{PostId, UserId};

use crate::model::{Comment, PostRow};
use crate::search::{SearchText, Tier};

/// A post's row and its author's card.
pub(crate) struct PostHead {
    pub row: PostRow,
    pub author: UserCard,
}

impl Holdable<PostId> for PostHead {
    fn topics(&self, _: &PostId) -> impl Iterator<Item = Topic> {
        [Topic::Post(self.row.id), Topic::User(self.row.user_id)].into_iter()
    }

    fn weight(&self) -> u64 {
        160 + self.row.caption.as_deref().map_or(0, text) + card(&self.author)
    }
}

/// Everyone suspended now: hidden from every viewer, so held once for all of them (a
/// suspension, or one lifted, changes [`Topic::Everything`]).
pub(crate) struct Suspended(pub FastSet<UserId>);

impl Holdable<()> for Suspended {
    fn topics(&self, _: &()) -> impl Iterator<Item = Topic> {
        std::iter::empty()
    }

    fn weight(&self) -> u64 {
        64 + 16 * self.0.len() as u64
    }
}

/// Every block pair, as the people each person is in a pair with (sorted), when there are at
/// most [`PAIRS_HELD`]: held once for every viewer, as [`Suspended`] is, and read again when a
/// block is made or lifted anywhere ([`Topic::Blocks`]); blocks are few and rarely change, and
/// holding them per viewer cost every viewer new to the process a statement. None when there
/// are more: each viewer's pairs are then held apart ([`Blocked`]).
pub(crate) struct BlockPairs(pub Option<FastMap<UserId, Vec<UserId>>>);

/// How many block pairs are held at most for every viewer at once (about 5 MB).
pub(crate) const PAIRS_HELD: i64 = 50_000;

impl BlockPairs {
    /// Every pair, from (blocker, blocked) rows; None when there were too many to hold.
    pub fn of(pairs: Option<Vec<(UserId, UserId)>>) -> BlockPairs {
        BlockPairs(pairs.map(|pairs| {
            let mut by_person: FastMap<UserId, Vec<UserId>> = FastMap::default();
            for (blocker, blocked) in pairs {
                by_person.entry(blocker).or_default().push(blocked);
                by_person.entry(blocked).or_default().push(blocker);
            }
            for others in by_person.values_mut() {
                others.sort_unstable();
                others.dedup();
            }
            by_person
        }))
    }
}

impl Holdable<()> for BlockPairs {
    fn topics(&self, _: &()) -> impl Iterator<Item = Topic> {
        std::iter::once(Topic::Blocks)
    }

    fn weight(&self) -> u64 {
        64 + self.0.as_ref().map_or(0, |m| m.values().map(|others| 48 + 8 * others.len() as u64).sum())
    }
}

/// The people in a block pair with a viewer, sorted (as [`BlockPairs`] holds each person's):
/// hidden from them, and they from those people.
pub(crate) struct Blocked(pub Vec<UserId>);

impl Holdable<UserId> for Blocked {
    fn topics(&self, viewer: &UserId) -> impl Iterator<Item = Topic> {
        std::iter::once(Topic::Viewer(*viewer))
    }

    fn weight(&self) -> u64 {
        64 + 16 * self.0.len() as u64
    }
}

/// What a viewer did to posts: the posts they like, newest posts first (all of them, or, for
/// someone who likes more than [`LIKED_HELD`], those from `floor` on), and the posts they
/// reposted (none when more than [`OWN_REPOSTS_HELD`]: memory then leaves their pages to the
/// database). Apart from the rest of what is held of the viewer, so that a like (the most
/// frequent write) reads again only this ([`Topic::Marks`]); read in one statement, one short
/// walk of `likes (user_id, post_id)` and one of `reposts (user_id, id, post_id)`, which answers every page
/// a person reads in the minute after (asking page by page probed the index for each post).
pub(crate) struct Marks {
    pub liked: FastSet<PostId>,
    /// The oldest post whose like this knows; none when it knows every post's.
    pub floor: Option<PostId>,
    pub reposted: Option<FastSet<PostId>>,
}

/// How many of a viewer's likes are held at most (2 KB): enough for the posts of the last
/// months of most people, a short read for those who like thousands.
pub(crate) const LIKED_HELD: i64 = 100;

/// How many of a person's reposts are held at most.
pub(crate) const OWN_REPOSTS_HELD: i64 = 1_000;

impl Marks {
    /// Whether `viewer` likes `post`, when this knows.
    pub fn likes(&self, post: PostId) -> Option<bool> {
        match self.floor {
            Some(floor) if post < floor => None,
            _ => Some(self.liked.contains(&post)),
        }
    }
}

impl Holdable<UserId> for Marks {
    fn topics(&self, viewer: &UserId) -> impl Iterator<Item = Topic> {
        std::iter::once(Topic::Marks(*viewer))
    }

    fn weight(&self) -> u64 {
        64 + 16 * (self.liked.len() + self.reposted.as_ref().map_or(0, FastSet::len)) as u64
    }
}

/// One of the newest reposts: where it stands (its id), who made it and when, and the post
/// with its author.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HeldRepost {
    pub id: i64,
    pub by: UserId,
    pub post: PostId,
    pub author: UserId,
    pub at: chrono::NaiveDateTime,
}

/// The newest reposts anywhere, newest first, and those of each post among them: what a page
/// of Listened to of someone who listens to many people places by reposts of those people
/// (`super::listened`).
pub(crate) struct RecentReposts {
    pub list: Vec<HeldRepost>,
    /// For each post reposted among them, its reposts' ids and who made each, newest first.
    pub by_post: FastMap<PostId, Vec<(i64, UserId)>>,
    /// For each person who made some of them, where theirs are in `list`, newest first.
    pub by_reposter: FastMap<UserId, Vec<u32>>,
    /// Whether it holds every repost.
    pub complete: bool,
    pub read: db::NewPostsRead,
}

/// How many of the newest reposts are held (2 MB with what finds them by post and by person).
pub(crate) const RECENT_REPOSTS_LEN: i64 = 20_000;

impl RecentReposts {
    pub fn new(list: Vec<HeldRepost>, complete: bool, read: db::NewPostsRead) -> RecentReposts {
        let mut by_post: FastMap<PostId, Vec<(i64, UserId)>> = FastMap::default();
        let mut by_reposter: FastMap<UserId, Vec<u32>> = FastMap::default();
        for (i, r) in (0u32..).zip(&list) {
            by_post.entry(r.post).or_default().push((r.id, r.by));
            by_reposter.entry(r.by).or_default().push(i);
        }
        RecentReposts { list, by_post, by_reposter, complete, read }
    }

    /// Brought up to date by `fresh`, the reposts made since a moment before the last read
    /// (`read.floor()` of the one held): they take the place of what it held from there on, at
    /// most `at_most` in all.
    pub fn updated(&self, fresh: Vec<HeldRepost>, read: db::NewPostsRead, at_most: i64) -> RecentReposts {
        let floor = self.read.floor();
        let mut list = fresh;
        list.extend(self.list.iter().copied().filter(|r| r.id < floor));
        let complete = self.complete && list.len() as i64 <= at_most;
        list.truncate(usize::try_from(at_most).unwrap_or(0));
        RecentReposts::new(list, complete, read)
    }

    /// Whether every repost of `post` is held: all of a post's reposts are newer than it.
    pub fn knows_all_of(&self, post: PostId) -> bool {
        self.complete || self.list.last().is_some_and(|r| r.id < post.get())
    }
}

impl Holdable<()> for RecentReposts {
    fn topics(&self, _: &()) -> impl Iterator<Item = Topic> {
        // A deleted post takes its reposts with it.
        [Topic::Reposts, Topic::NewRepost, Topic::Posts].into_iter()
    }

    fn weight(&self) -> u64 {
        64 + 112 * self.list.len() as u64
    }
}

/// A person's newest reposts, newest first, and the posts they reposted: what a page of
/// Listened to of someone who listens to a few people places by their reposts
/// (`super::listened`). Read again when the person reposts or takes a repost back
/// ([`Topic::Marks`]), or a post is deleted (its reposts go with it).
pub(crate) struct Reposted {
    pub list: Vec<HeldRepost>,
    /// Each post among them, with its repost's id.
    pub posts: FastMap<PostId, i64>,
    /// Whether it holds all their reposts.
    pub complete: bool,
}

/// How many of a person's newest reposts are held at most.
pub(crate) const REPOSTED_LEN: i64 = 100;

impl Reposted {
    pub fn new(list: Vec<HeldRepost>, complete: bool) -> Reposted {
        let posts = list.iter().map(|r| (r.post, r.id)).collect();
        Reposted { list, posts, complete }
    }

    /// Whether every repost of `post` by this person is held: all of a post's reposts are newer
    /// than it.
    pub fn knows_all_of(&self, post: PostId) -> bool {
        self.complete || self.list.last().is_some_and(|r| r.id < post.get())
    }
}

impl Holdable<UserId> for Reposted {
    fn topics(&self, person: &UserId) -> impl Iterator<Item = Topic> {
        [Topic::Marks(*person), Topic::Posts].into_iter()
    }

    fn weight(&self) -> u64 {
        64 + 80 * self.list.len() as u64
    }
}

/// The first [`MERGED_LEN`] entries of a viewer's Listened to (someone who listens to a few
/// people, `super::listened`): each post with the repost that placed it, the people it was
/// merged from, and those in their own place that stand only if their rows count no reposts
/// beyond those held (checked with each page). Read again when the viewer's people or outlook
/// change ([`Topic::Viewer`]), one of their people posts or reposts ([`Topic::Posted`],
/// [`Topic::Marks`]), or a post is deleted.
pub(crate) struct Merged {
    people: Vec<UserId>,
    entries: Vec<(PostId, Option<HeldRepost>)>,
    unsure: Vec<(PostId, i64)>,
    /// Whether there are no more entries than these.
    complete: bool,
}

/// How many entries of a Listened to are held (five pages of ten).
pub(crate) const MERGED_LEN: usize = 50;

impl Merged {
    pub fn new(people: &FastSet<UserId>, page: super::listened::Page) -> Merged {
        let complete = page.entries.len() < MERGED_LEN;
        Merged { people: people.iter().copied().collect(), entries: page.entries, unsure: page.unsure, complete }
    }

    /// The entries of `page`, when they are all among those held.
    pub fn slice(&self, page: crate::feed::FeedPage) -> Option<super::listened::Page> {
        use crate::feed::FeedPage;
        let key = |(id, placed): &(PostId, Option<HeldRepost>)| placed.map_or(id.get(), |r| r.id);
        let (from, limit) = match page {
            FeedPage::Offset(p) => (usize::try_from(p.offset).ok()?, usize::try_from(p.limit).ok()?),
            FeedPage::Before(k) => {
                let before = k.before.map_or(i64::MAX, PostId::get);
                (self.entries.partition_point(|e| key(e) >= before), usize::try_from(k.limit).ok()?)
            }
        };
        let end = from.saturating_add(limit);
        if end > self.entries.len() && !self.complete {
            return None;
        }
        let entries: Vec<(PostId, Option<HeldRepost>)> =
            self.entries.get(from.min(self.entries.len())..end.min(self.entries.len()))?.to_vec();
        let unsure = self.unsure.iter().filter(|(id, _)| entries.iter().any(|(e, _)| e == id)).copied().collect();
        Some(super::listened::Page { entries, unsure })
    }
}

impl Holdable<UserId> for Merged {
    fn topics(&self, viewer: &UserId) -> impl Iterator<Item = Topic> {
        let theirs = self.people.iter().flat_map(|p| [Topic::Posted(*p), Topic::Marks(*p)]);
        [Topic::Viewer(*viewer), Topic::Posts].into_iter().chain(theirs)
    }

    fn weight(&self) -> u64 {
        128 + 8 * self.people.len() as u64 + 64 * self.entries.len() as u64 + 16 * self.unsure.len() as u64
    }
}

/// A person's card (the reposter's, above a post their repost placed).
pub(crate) struct Card(pub UserCard);

impl Holdable<UserId> for Card {
    fn topics(&self, person: &UserId) -> impl Iterator<Item = Topic> {
        std::iter::once(Topic::User(*person))
    }

    fn weight(&self) -> u64 {
        64 + card(&self.0)
    }
}

/// Whether a viewer likes a post older than what their [`Marks`] knows.
pub(crate) struct LikeFlag(pub bool);

impl Holdable<(UserId, PostId)> for LikeFlag {
    fn topics(&self, (viewer, _): &(UserId, PostId)) -> impl Iterator<Item = Topic> {
        std::iter::once(Topic::Marks(*viewer))
    }

    fn weight(&self) -> u64 {
        // The key, the flag and its moment, and the map's own entry.
        96
    }
}

/// The people a viewer listens to (only Listened to needs them).
pub(crate) struct Listened(pub FastSet<UserId>);

impl Holdable<UserId> for Listened {
    fn topics(&self, viewer: &UserId) -> impl Iterator<Item = Topic> {
        std::iter::once(Topic::Viewer(*viewer))
    }

    fn weight(&self) -> u64 {
        64 + 16 * self.0.len() as u64
    }
}

/// How many people a viewer listens to (the counter on their row): it chooses how Listened to
/// is walked in the database (`crate::feed::DENSE_LISTENING`).
pub(crate) struct ListeningCount(pub i64);

impl Holdable<UserId> for ListeningCount {
    fn topics(&self, viewer: &UserId) -> impl Iterator<Item = Topic> {
        std::iter::once(Topic::Viewer(*viewer))
    }

    fn weight(&self) -> u64 {
        16
    }
}

/// A person's newest posts (at most [`AUTHORED_LEN`], or [`AUTHORED_WALKED_LEN`] when read with many
/// others' for a Listened to); `complete` when they are all their posts.
pub(crate) struct Authored {
    pub ids: Vec<PostId>,
    pub complete: bool,
}

/// How many of a person's newest posts are held: their first pages.
pub(crate) const AUTHORED_LEN: i64 = 100;

/// How many of each person's newest posts are read when many people's are read at once for a
/// Listened to (`super::read_authored_of`): as many as its held first entries can take from one
/// person ([`MERGED_LEN`]). Reading [`AUTHORED_LEN`] of each was half the database's work in a
/// community's reads (issue 30); a person's own deeper pages read what they need when asked.
pub(crate) const AUTHORED_WALKED_LEN: i64 = MERGED_LEN as i64;

impl Holdable<UserId> for Authored {
    fn topics(&self, author: &UserId) -> impl Iterator<Item = Topic> {
        std::iter::once(Topic::Posted(*author))
    }

    fn weight(&self) -> u64 {
        64 + 8 * self.ids.len() as u64
    }
}

/// A post's newest comments (at most [`THREAD_LEN`]) with their authors and the people they
/// mention, whoever wrote them; `complete` when they are all of them.
pub(crate) struct Thread {
    pub comments: Vec<Comment>,
    pub complete: bool,
}

/// How many of a post's newest comments are held: their first pages.
pub(crate) const THREAD_LEN: i64 = 100;

impl Holdable<PostId> for Thread {
    /// No comment came, went or changed, no card shown changed.
    fn topics(&self, post: &PostId) -> impl Iterator<Item = Topic> {
        let people = self.comments.iter().flat_map(|c| {
            std::iter::once(Topic::User(c.author.id)).chain(c.mentions.iter().map(|m| Topic::User(m.user_id)))
        });
        std::iter::once(Topic::Comments(*post)).chain(people)
    }

    fn weight(&self) -> u64 {
        64 + self
            .comments
            .iter()
            .map(|c| {
                64 + text(&c.content) + card(&c.author) + c.mentions.iter().map(|m| 64 + text(&m.login)).sum::<u64>()
            })
            .sum::<u64>()
    }
}

/// The newest posts, ids and authors only, newest first (at most [`NEWEST_LEN`]), and when they
/// were read (brought up to date by the posts written since, read whole again a minute after).
pub(crate) struct Newest {
    pub list: Vec<(PostId, UserId)>,
    pub read: db::NewPostsRead,
}

/// How many of the newest posts the list holds: offsets up to about this deep are found in
/// memory; deeper ones are walked by the database.
pub(crate) const NEWEST_LEN: i64 = 20_000;

impl Newest {
    /// Whether the list holds every post.
    pub fn complete(&self) -> bool {
        (self.list.len() as i64) < NEWEST_LEN
    }

    /// This list brought up to date by `fresh`, every post now made from its read's floor on
    /// (newest first), read by `read`: those replace what the list held from there on (new,
    /// written late, deleted).
    pub fn updated(&self, fresh: Vec<(PostId, UserId)>, read: db::NewPostsRead) -> Newest {
        let floor = self.read.floor();
        let mut list = fresh;
        list.extend(self.list.iter().copied().filter(|(id, _)| id.get() < floor));
        list.truncate(NEWEST_LEN as usize);
        Newest { list, read }
    }

    /// This list with `written` taken in, posts written since it was read (any order, some
    /// perhaps listed already): the list they make with it, as read at the same moment (what
    /// the list does not hold is still to be read from its floor on).
    pub fn with_written(&self, mut written: Vec<(PostId, UserId)>) -> Newest {
        written.sort_unstable_by_key(|(id, _)| std::cmp::Reverse(*id));
        written.dedup_by_key(|(id, _)| *id);
        written.retain(|(id, _)| self.list.binary_search_by(|(held, _)| id.cmp(held)).is_err());
        let mut list = Vec::with_capacity((self.list.len() + written.len()).min(NEWEST_LEN as usize));
        let (mut new, mut held) = (written.into_iter().peekable(), self.list.iter().copied().peekable());
        while list.len() < NEWEST_LEN as usize {
            let next = match (new.peek(), held.peek()) {
                (Some(n), Some(h)) if n.0 > h.0 => new.next(),
                (_, Some(_)) => held.next(),
                (Some(_), None) => new.next(),
                (None, None) => None,
            };
            let Some(next) = next else { break };
            list.push(next);
        }
        Newest { list, read: self.read }
    }
}

impl Holdable<()> for Newest {
    fn topics(&self, _: &()) -> impl Iterator<Item = Topic> {
        [Topic::Posts, Topic::NewPost].into_iter()
    }

    fn weight(&self) -> u64 {
        64 + 16 * self.list.len() as u64
    }
}

/// What a first page of a music search is held by: the words, the kind of post, the length.
pub(crate) type SearchKey = (SearchText, Option<values::PostKind>, i64);

/// A first page of a music search as a guest sees it, each post with its group (names first,
/// then the others, each newest first), and when it was read (as [`Newest`]).
pub(crate) struct Found {
    pub page: Vec<(PostId, Tier)>,
    pub read: db::NewPostsRead,
}

impl Found {
    /// This page brought up to date by `fresh`, every match of the search among the posts from
    /// its read's floor on (at most a page of each group, newest first), read by `read`: they
    /// take the place of what the page held from there, at the head of their group. Nothing
    /// older than what the page held can belong on it, since posts were only added.
    pub fn updated(&self, fresh: Vec<(PostId, Tier)>, read: db::NewPostsRead, limit: i64) -> Found {
        let floor = self.read.floor();
        let group = |tier: Tier| {
            let new = fresh.iter().filter(move |(_, t)| *t == tier);
            new.chain(self.page.iter().filter(move |(id, t)| *t == tier && id.get() < floor)).copied()
        };
        let page = group(Tier::Names).chain(group(Tier::Others)).take(usize::try_from(limit).unwrap_or(0)).collect();
        Found { page, read }
    }
}

impl Found {
    /// With `fresh`, what the posts written since it was read add (found among those posts
    /// alone): each group newest first, at most `limit` in all.
    pub fn with_found(&self, fresh: Vec<(PostId, Tier)>, read: db::NewPostsRead, limit: i64) -> Found {
        let group = |tier: Tier| {
            let mut ids: Vec<PostId> =
                fresh.iter().chain(&self.page).filter(|(_, t)| *t == tier).map(|(id, _)| *id).collect();
            ids.sort_unstable_by_key(|id| std::cmp::Reverse(*id));
            ids.dedup();
            ids.into_iter().map(move |id| (id, tier))
        };
        let page = group(Tier::Names).chain(group(Tier::Others)).take(usize::try_from(limit).unwrap_or(0)).collect();
        Found { page, read }
    }
}

impl Holdable<SearchKey> for Found {
    /// Posts deleted or written late, words edited; a new post brings it up to date.
    fn topics(&self, _: &SearchKey) -> impl Iterator<Item = Topic> {
        [Topic::Posts, Topic::NewPost, Topic::Words].into_iter()
    }

    fn weight(&self) -> u64 {
        // Its key too: at most 8 words of 40 letters.
        512 + 16 * self.page.len() as u64
    }
}

fn text(s: &str) -> u64 {
    s.len() as u64 + 24
}

fn card(u: &UserCard) -> u64 {
    64 + text(&u.name) + text(&u.login) + u.avatar_url.as_deref().map_or(0, text)
}
