//! A page of Listened to from memory: the posts of the people a viewer listens to and the posts
//! they reposted, each once, newest first by the post's id or by its newest repost by one of
//! them (as `crate::feed` puts it together from the database).
//!
//! Both come from lists held, merged newest first, one of two ways by how many people the
//! viewer listens to ([`DENSE_LISTENING`], as the database chooses its walk):
//! - many: the newest posts and the newest reposts of everyone ([`Posts::Everyone`],
//!   [`Reposts::Everyone`]), walked past what is not theirs (most is theirs);
//! - a few: each of their people's own newest posts ([`Posts::Each`]), so that a page never
//!   walks thousands of other people's posts to find ten, and reaches as far back as each
//!   person's hundredth post (a person who posts rarely is months back), not only as far as
//!   everyone's newest reach; and their reposts among everyone's newest found by person, or,
//!   for a page reaching past those, each person's own newest reposts ([`Reposts::Each`]).
//!
//! A list that ends without holding everything ends what is known: a page that reaches past
//! it is the database's.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

use db::{FastSet, Noted};
use values::{PostId, UserId};

use super::Outlook;
use super::pieces::{Authored, HeldRepost, Newest, RecentReposts, Reposted};
use crate::feed::{DENSE_LISTENING, FeedPage};

/// Whether a viewer listening to `n` people is shown each person's posts ([`Posts::Each`])
/// rather than everyone's ([`Posts::Everyone`]).
pub(super) fn few(n: usize) -> bool {
    n as i64 <= DENSE_LISTENING
}

/// Where the posts of a page of Listened to come from.
pub(super) enum Posts<'a> {
    /// Everyone's newest, walked at most this far (someone who listens to many people, or first
    /// a little way for someone who listens to a few: whose people post often is found there
    /// at once).
    Everyone(&'a Newest, usize),
    /// Each listened person's newest (someone who listens to a few people; only the people the
    /// viewer may see).
    Each(&'a [Arc<Noted<Authored>>]),
}

/// Where the reposts of a page of Listened to come from.
pub(super) enum Reposts<'a> {
    /// Everyone's newest, for everyone (the first choice: one list for every viewer).
    Everyone(&'a RecentReposts),
    /// Each listened person's newest, for a page of someone who listens to a few people that
    /// reaches past everyone's (only the people the viewer may see).
    Each(&'a [Arc<Noted<Reposted>>]),
}

/// Which list ended before the page did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Short {
    Posts,
    Reposts,
}

/// A page of Listened to as the lists held tell it: its posts' ids, each with the repost that
/// placed it (if one did), and the posts shown in their own place whose every repost the lists
/// may not hold, each with how many reposts its row must count for the page to stand
/// ([`Page::unsure`]; the caller checks them against the rows it reads anyway).
pub(super) struct Page {
    pub entries: Vec<(PostId, Option<HeldRepost>)>,
    pub unsure: Vec<(PostId, i64)>,
}

/// What a list yields next, newest first.
enum Item<'a> {
    Post(PostId),
    Repost(&'a HeldRepost),
    /// The list ends here without holding everything below.
    End(Short),
}

/// A list's items below the cursor, newest first, each with where it stands.
type Source<'a> = Box<dyn Iterator<Item = (i64, Item<'a>)> + 'a>;

/// The ids of a page of Listened to, each with the repost that placed it (if one did): the
/// posts of the people `listened` whom the viewer of `outlook` may see, and the posts those
/// people reposted (the viewer may see the post's author too), each once, newest first by the
/// post's id or, when one of them reposted it, by its newest such repost's; a post so placed
/// leaves its own place. Which list ended before the page did, when one did: another list may
/// reach further, or the database answers.
pub(super) fn page(
    posts: Posts<'_>,
    reposts: Reposts<'_>,
    listened: &FastSet<UserId>,
    outlook: &Outlook,
    page: FeedPage,
) -> Result<Page, Short> {
    let (before, skip, limit) = match page {
        FeedPage::Offset(p) => (i64::MAX, usize::try_from(p.offset), usize::try_from(p.limit)),
        FeedPage::Before(k) => (k.before.map_or(i64::MAX, PostId::get), Ok(0), usize::try_from(k.limit)),
    };
    let (Ok(skip), Ok(limit)) = (skip, limit) else { return Err(Short::Posts) };
    let shown = |person: &UserId| listened.contains(person) && !outlook.hides(person);
    // Whether someone listened to and shown reposted `post` after `than`.
    let placed_above = |post: PostId, than: i64| match &reposts {
        Reposts::Everyone(recent) => {
            recent.by_post.get(&post).is_some_and(|all| all.iter().any(|(id, by)| *id > than && shown(by)))
        }
        Reposts::Each(lists) => lists.iter().any(|r| r.posts.get(&post).is_some_and(|id| *id > than)),
    };
    // For a post in its own place: None when every repost of it that could place it is held,
    // else how many reposts its row must count (those held) for none to be missing.
    let unsure = |post: PostId| match &reposts {
        Reposts::Everyone(recent) => {
            (!recent.knows_all_of(post)).then(|| recent.by_post.get(&post).map_or(0, Vec::len) as i64)
        }
        Reposts::Each(lists) => lists.iter().any(|r| !r.knows_all_of(post)).then_some(0),
    };
    let mut merged = Merge::new(sources(&posts, &reposts, listened, &shown, before));
    let (mut entries, mut doubts) = (Vec::with_capacity(limit), Vec::new());
    while entries.len() < skip.saturating_add(limit) {
        let Some(item) = merged.next() else { break };
        let entry = match item {
            Item::End(short) => return Err(short),
            Item::Post(id) => {
                // Its own place, unless someone listened to reposted it (then it stands there).
                if placed_above(id, id.get()) {
                    continue;
                }
                if let Some(count) = unsure(id) {
                    doubts.push((id, count));
                }
                (id, None)
            }
            Item::Repost(r) => {
                if outlook.hides(&r.author) || placed_above(r.post, r.id) {
                    continue;
                }
                (r.post, Some(*r))
            }
        };
        entries.push(entry);
    }
    let entries: Vec<(PostId, Option<HeldRepost>)> = entries.into_iter().skip(skip).collect();
    doubts.retain(|(id, _)| entries.iter().any(|(shown, _)| shown == id));
    Ok(Page { entries, unsure: doubts })
}

/// The lists a page is merged from, each below `before` and past what is not the viewer's.
fn sources<'a>(
    posts: &Posts<'a>,
    reposts: &Reposts<'a>,
    listened: &'a FastSet<UserId>,
    shown: &'a (dyn Fn(&UserId) -> bool + 'a),
    before: i64,
) -> Vec<Source<'a>> {
    let mut sources: Vec<Source<'a>> = Vec::new();
    match *posts {
        Posts::Everyone(newest, walked) => {
            let from = newest.list.partition_point(|(id, _)| id.get() >= before);
            let upto = from.saturating_add(walked).min(newest.list.len());
            // Where the walk stops short of the list's end, what lies below is unknown.
            let (partial, last) = match upto < newest.list.len() {
                true => (true, newest.list.get(upto.saturating_sub(1).max(from))),
                false => (!newest.complete(), newest.list.last()),
            };
            let end = ended(Short::Posts, partial, last.map(|(id, _)| id.get()), before);
            let posts = newest.list[from..upto].iter().filter(|(_, author)| shown(author));
            sources.push(Box::new(posts.map(|&(id, _)| (id.get(), Item::Post(id))).chain(end)));
        }
        Posts::Each(lists) => {
            for list in lists {
                let from = list.ids.partition_point(|id| id.get() >= before);
                let end = ended(Short::Posts, !list.complete, list.ids.last().map(|id| id.get()), before);
                let posts = list.ids[from..].iter().map(|&id| (id.get(), Item::Post(id)));
                sources.push(Box::new(posts.chain(end)));
            }
        }
    }
    match *reposts {
        // Someone who listens to many: everyone's walked past the others'; to a few: theirs
        // found by person.
        Reposts::Everyone(recent) => {
            let end = ended(Short::Reposts, !recent.complete, recent.list.last().map(|r| r.id), before);
            if !few(listened.len()) {
                let from = recent.list.partition_point(|r| r.id >= before);
                let all = recent.list[from..].iter().filter(|r| shown(&r.by)).map(|r| (r.id, Item::Repost(r)));
                sources.push(Box::new(all));
            } else {
                for places in listened.iter().filter(|p| shown(p)).filter_map(|p| recent.by_reposter.get(p)) {
                    let from = places.partition_point(|&i| recent.list[i as usize].id >= before);
                    let theirs = places[from..].iter().map(|&i| &recent.list[i as usize]);
                    sources.push(Box::new(theirs.map(|r| (r.id, Item::Repost(r)))));
                }
            }
            sources.push(Box::new(end));
        }
        Reposts::Each(lists) => {
            for list in lists {
                let from = list.list.partition_point(|r| r.id >= before);
                let end = ended(Short::Reposts, !list.complete, list.list.last().map(|r| r.id), before);
                let reposts = list.list[from..].iter().map(|r| (r.id, Item::Repost(r)));
                sources.push(Box::new(reposts.chain(end)));
            }
        }
    }
    sources
}

/// The end of a list of `kind` that does not hold everything, at its last item (at once when that
/// is at or above the cursor); none for a list that holds everything.
fn ended<'a>(kind: Short, partial: bool, last: Option<i64>, before: i64) -> impl Iterator<Item = (i64, Item<'a>)> + 'a {
    last.filter(|_| partial).map(move |key| (key.min(before), Item::End(kind))).into_iter()
}

/// Lists newest first, merged newest first. At one key, what is known comes before where a list
/// ends ([`Item::End`] sorts last).
struct Merge<'a> {
    sources: Vec<Source<'a>>,
    heads: Vec<Option<(i64, Item<'a>)>>,
    heap: BinaryHeap<(i64, Reverse<bool>, Reverse<usize>)>,
}

impl<'a> Merge<'a> {
    fn new(mut sources: Vec<Source<'a>>) -> Merge<'a> {
        let mut heap = BinaryHeap::with_capacity(sources.len());
        let heads: Vec<Option<(i64, Item<'a>)>> = sources.iter_mut().map(Iterator::next).collect();
        for (i, head) in heads.iter().enumerate() {
            if let Some((key, item)) = head {
                heap.push((*key, Reverse(matches!(item, Item::End(_))), Reverse(i)));
            }
        }
        Merge { sources, heads, heap }
    }
}

impl<'a> Iterator for Merge<'a> {
    type Item = Item<'a>;

    fn next(&mut self) -> Option<Item<'a>> {
        let (_, _, Reverse(i)) = self.heap.pop()?;
        let (_, item) = self.heads[i].take()?;
        if let Some((key, next)) = self.sources[i].next() {
            self.heap.push((key, Reverse(matches!(next, Item::End(_))), Reverse(i)));
            self.heads[i] = Some((key, next));
        }
        Some(item)
    }
}
