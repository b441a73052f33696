//! The pieces pages are put together from, each a [`db::Holdable`] naming the topics it was
//! read from (the table of `docs/architecture.md`, "Memory and writes").

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use db::Holdable;
use db::Topic;
use db::model::UserCard;
use values::{PostId, UserId};

use crate::model::{Comment, PostRow};

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

/// What one viewer (or every guest: the key `None`) may not see, and which posts they like.
pub(crate) struct Outlook {
    pub viewer: Option<UserId>,
    /// Suspended people, and people in a block pair with the viewer
    /// (`social_graph::visibility::hidden_from`).
    pub hidden: HashSet<UserId>,
    /// Whether the viewer likes each post asked about so far (learned page by page, at most
    /// [`LIKED_HELD`]).
    pub liked: Mutex<HashMap<PostId, bool>>,
}

/// How many posts' like state one viewer's outlook holds at most (about 50 KB).
pub(crate) const LIKED_HELD: usize = 2_000;

impl Holdable<Option<UserId>> for Outlook {
    fn topics(&self, _: &Option<UserId>) -> impl Iterator<Item = Topic> {
        self.viewer.map(Topic::Viewer).into_iter()
    }

    fn weight(&self) -> u64 {
        // The likes it learns later are not weighed (weights may not change once kept): at most
        // LIKED_HELD of them, 24 bytes each, gone with it at the viewer's next like.
        512 + 16 * self.hidden.len() as u64
    }
}

impl Outlook {
    pub fn liked(&self) -> std::sync::MutexGuard<'_, HashMap<PostId, bool>> {
        self.liked.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The people a viewer listens to (only Listened to needs them).
pub(crate) struct Listened(pub HashSet<UserId>);

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

/// A person's newest posts (at most [`AUTHORED_LEN`]); `complete` when they are all their posts.
pub(crate) struct Authored {
    pub ids: Vec<PostId>,
    pub complete: bool,
}

/// How many of a person's newest posts are held: their first pages.
pub(crate) const AUTHORED_LEN: i64 = 100;

impl Holdable<UserId> for Authored {
    fn topics(&self, author: &UserId) -> impl Iterator<Item = Topic> {
        std::iter::once(Topic::User(*author))
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
    /// No comment came or went (both count on the post's row), no card shown changed.
    fn topics(&self, post: &PostId) -> impl Iterator<Item = Topic> {
        let people = self.comments.iter().flat_map(|c| {
            std::iter::once(Topic::User(c.author.id)).chain(c.mentions.iter().map(|m| Topic::User(m.user_id)))
        });
        std::iter::once(Topic::Post(*post)).chain(people)
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

/// The newest posts, ids and authors only, newest first (at most [`NEWEST_LEN`]); when (by the
/// wall clock) the moment before their read was noted, and when the list was last read whole
/// (brought up to date, it is read whole again a minute after: what changed past the program
/// shows within it, as for everything held).
pub(crate) struct Newest {
    pub list: Vec<(PostId, UserId)>,
    pub read_at: chrono::DateTime<chrono::Utc>,
    pub whole_at: std::time::Instant,
}

/// How many of the newest posts the list holds: offsets up to about this deep are found in
/// memory; deeper ones are walked by the database.
pub(crate) const NEWEST_LEN: i64 = 20_000;

impl Newest {
    /// Whether the list holds every post.
    pub fn complete(&self) -> bool {
        (self.list.len() as i64) < NEWEST_LEN
    }

    /// The smallest id a post written since this list was read may have, when it named
    /// [`Topic::NewPost`]: made at most [`db::NEW_POST_WINDOW`] before its commit, with ten
    /// seconds for the clocks of other processes.
    pub fn new_posts_floor(&self) -> i64 {
        db::new_post_floor(self.read_at - chrono::Duration::seconds(10))
    }

    /// This list brought up to date by `fresh`, every post now made from `floor` on (newest
    /// first): those replace what the list held from `floor` on (new, written late, deleted).
    pub fn updated(&self, floor: i64, fresh: Vec<(PostId, UserId)>, read_at: chrono::DateTime<chrono::Utc>) -> Newest {
        let mut list = fresh;
        list.extend(self.list.iter().copied().filter(|(id, _)| id.get() < floor));
        list.truncate(NEWEST_LEN as usize);
        Newest { list, read_at, whole_at: self.whole_at }
    }

    /// Whether it may be brought up to date rather than read whole: read whole less than
    /// [`db::changes::HELD_AT_MOST`] ago.
    pub fn updatable(&self) -> bool {
        self.whole_at.elapsed() < db::changes::HELD_AT_MOST
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

fn text(s: &str) -> u64 {
    s.len() as u64 + 24
}

fn card(u: &UserCard) -> u64 {
    64 + text(&u.name) + text(&u.login) + u.avatar_url.as_deref().map_or(0, text)
}
