//! A page of Listened to from memory: the posts of the people a viewer listens to and the posts
//! they reposted, each once, newest first by the post's id or by its newest repost by one of
//! them (as `crate::feed` puts it together from the database).
//!
//! Both come from lists held for everyone, merged newest first: for someone who listens to many
//! people ([`DENSE_LISTENING`]), the newest posts and the newest reposts, walked past what is not
//! theirs (most is); for someone who listens to a few, each of their people's own newest posts
//! ([`super::Authored`]) and reposts (the newest reposts by person), so that a page never walks
//! thousands of other people's posts to find ten, and reaches as far back as their people's
//! hundredth post, not only as far as the newest posts held. A list that ends without holding
//! everything ends what is known: a page that reaches past it is the database's.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use db::FastSet;
use values::{PostId, UserId};

use super::Outlook;
use super::pieces::{Authored, HeldRepost, Newest, RecentReposts};
use crate::feed::{DENSE_LISTENING, FeedPage};

/// What a list yields next, newest first.
enum Item<'a> {
    Post(PostId),
    Repost(&'a HeldRepost),
    /// The list ends here without holding everything below.
    Unknown,
}

/// A list's items below the cursor, newest first, each with where it stands.
type Source<'a> = Box<dyn Iterator<Item = (i64, Item<'a>)> + 'a>;

/// Where the posts of a page of Listened to come from.
pub(super) enum Posts<'a> {
    /// The newest posts of everyone (someone who listens to many people).
    Newest(&'a Newest),
    /// Each listened person's newest posts (someone who listens to a few): the people, and
    /// their lists, in the same order.
    Each(&'a [UserId], &'a [std::sync::Arc<db::Noted<Authored>>]),
}

/// Whether a viewer listening to `n` people is read from each person's posts (few) rather than
/// from everyone's newest (many).
pub(super) fn few(n: usize) -> bool {
    n as i64 <= DENSE_LISTENING
}

/// The ids of a page of Listened to, each with the repost that placed it (if one did): the
/// posts of the people `listened` whom the viewer of `outlook` may see, and the posts those
/// people reposted (the viewer may see the post's author too), each once, newest first by the
/// post's id or, when one of them reposted it, by its newest such repost's; a post so placed
/// leaves its own place. None when a list held does not reach as far as the page, or does not
/// hold every repost of a post it would show in its own place: the database answers then.
pub(super) fn page(
    posts: Posts<'_>,
    recent: &RecentReposts,
    listened: &FastSet<UserId>,
    outlook: &Outlook,
    page: FeedPage,
) -> Option<Vec<(PostId, Option<HeldRepost>)>> {
    let (before, skip, limit) = match page {
        FeedPage::Offset(p) => (i64::MAX, usize::try_from(p.offset).ok()?, usize::try_from(p.limit).ok()?),
        FeedPage::Before(k) => (k.before.map_or(i64::MAX, PostId::get), 0, usize::try_from(k.limit).ok()?),
    };
    let shown = |person: &UserId| listened.contains(person) && !outlook.hides(person);
    // Reposts of `post` by people listened to and shown, newer than `than`.
    let placed_above = |post: PostId, than: i64| {
        recent.by_post.get(&post).is_some_and(|all| all.iter().any(|(id, by)| *id > than && shown(by)))
    };
    let mut merged = Merge::new(sources(posts, recent, listened, &shown, before));
    let mut entries = Vec::with_capacity(limit);
    while entries.len() < skip.saturating_add(limit) {
        let Some(item) = merged.next() else { break };
        let entry = match item {
            Item::Unknown => return None,
            Item::Post(id) => {
                // Its own place, unless someone listened to reposted it (then it stands there).
                if !recent.knows_all_of(id) {
                    return None;
                }
                if placed_above(id, id.get()) {
                    continue;
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
    Some(entries.into_iter().skip(skip).collect())
}

/// The lists a page is merged from, each below `before` and past what is not the viewer's.
fn sources<'a>(
    posts: Posts<'a>,
    recent: &'a RecentReposts,
    listened: &'a FastSet<UserId>,
    shown: &'a (dyn Fn(&UserId) -> bool + 'a),
    before: i64,
) -> Vec<Source<'a>> {
    let mut sources: Vec<Source<'a>> = Vec::new();
    let reposts_end = (!recent.complete).then(|| recent.list.last().map_or(i64::MAX, |r| r.id));
    match posts {
        Posts::Newest(newest) => {
            let from = newest.list.partition_point(|(id, _)| id.get() >= before);
            let end = ended(!newest.complete(), newest.list.last().map(|(id, _)| id.get()));
            let posts = newest.list[from..].iter().filter(|(_, author)| shown(author));
            sources.push(Box::new(posts.map(|&(id, _)| (id.get(), Item::Post(id))).chain(end)));
            let from = recent.list.partition_point(|r| r.id >= before);
            let reposts = recent.list[from..].iter().filter(|r| shown(&r.by)).map(|r| (r.id, Item::Repost(r)));
            sources.push(Box::new(reposts));
        }
        Posts::Each(people, lists) => {
            for (_, list) in people.iter().zip(lists).filter(|(person, _)| shown(person)) {
                let from = list.ids.partition_point(|id| id.get() >= before);
                let end = ended(!list.complete, list.ids.last().map(|id| id.get()));
                let posts = list.ids[from..].iter().map(|&id| (id.get(), Item::Post(id)));
                sources.push(Box::new(posts.chain(end)));
            }
            for person in listened.iter().filter(|person| shown(person)) {
                let Some(places) = recent.by_reposter.get(person) else { continue };
                let from = places.partition_point(|&i| recent.list[i as usize].id >= before);
                let reposts = places[from..].iter().map(|&i| &recent.list[i as usize]).map(|r| (r.id, Item::Repost(r)));
                sources.push(Box::new(reposts));
            }
        }
    }
    // Below the oldest repost held, anyone's reposts are unknown (at once, when the cursor is
    // below it).
    sources.push(Box::new(ended(reposts_end.is_some(), reposts_end.map(|end| end.min(before)))));
    sources
}

/// The end of a list that does not hold everything, at its last item (none for a list that
/// holds everything, or has no items there).
fn ended<'a>(partial: bool, last: Option<i64>) -> impl Iterator<Item = (i64, Item<'a>)> + 'a {
    last.filter(|_| partial).map(|key| (key, Item::Unknown)).into_iter()
}

/// Lists newest first, merged newest first. At one key, what is known comes before where a list
/// ends ([`Item::Unknown`] sorts last).
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
                heap.push((*key, Reverse(matches!(item, Item::Unknown)), Reverse(i)));
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
            self.heap.push((key, Reverse(matches!(next, Item::Unknown)), Reverse(i)));
            self.heads[i] = Some((key, next));
        }
        Some(item)
    }
}
