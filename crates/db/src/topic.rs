//! What a write changed, named so that whatever was read from it can be forgotten: a [`Topic`].
//!
//! Writes name their topics with [`crate::changed`]; what is remembered names the topics it
//! was read from ([`crate::Holdable`]); [`crate::Changes`] stamps them when a write commits and
//! tells whoever watches. The rules: `docs/architecture.md`, "Memory and writes".

use std::time::Duration;

use values::{PostId, UserId};

/// A post written within this long of its id being made names [`Topic::Written`]; one written
/// later (its upload queued and processed for longer) names [`Topic::Posts`].
pub const NEW_POST_WINDOW: Duration = Duration::from_secs(60);

/// What writing the post `id` of `author` now changed of which posts exist ([`Topic::Written`]
/// or [`Topic::Posts`], by how long ago its id was made).
pub fn written_post(id: PostId, author: UserId) -> Topic {
    if id.get() >= new_post_floor(chrono::Utc::now()) { Topic::Written(id, author) } else { Topic::Posts }
}

/// The smallest id of a post that names [`Topic::Written`] when written at `at`: made at most
/// [`NEW_POST_WINDOW`] before.
pub fn new_post_floor(at: chrono::DateTime<chrono::Utc>) -> i64 {
    let window = chrono::Duration::from_std(NEW_POST_WINDOW).unwrap_or_else(|_| chrono::Duration::minutes(1));
    values::raw_id_floor(at - window)
}

/// When something read from the newest posts was read (the list of them, a first page of what a
/// search finds among them), so that it can be brought up to date by reading only the posts
/// written since, rather than read whole again.
#[derive(Debug, Clone, Copy)]
pub struct NewPostsRead {
    /// The moment (by the wall clock) before the last read, whole or bringing it up to date.
    at: chrono::DateTime<chrono::Utc>,
    /// When it was last read whole.
    whole_at: std::time::Instant,
}

impl NewPostsRead {
    /// A read about to start, of the whole.
    pub fn whole() -> Self {
        Self { at: chrono::Utc::now(), whole_at: std::time::Instant::now() }
    }

    /// A read about to start that brings this one up to date: the whole stays as old as it was.
    pub fn again(&self) -> Self {
        Self { at: chrono::Utc::now(), whole_at: self.whole_at }
    }

    /// The smallest id a post written since this read may have, when it named
    /// [`Topic::Written`]: made at most [`NEW_POST_WINDOW`] before its commit, with ten seconds
    /// for the clocks of other processes.
    pub fn floor(&self) -> i64 {
        new_post_floor(self.at - chrono::Duration::seconds(10))
    }

    /// Whether it may be brought up to date rather than read whole: read whole less than
    /// [`crate::changes::HELD_AT_MOST`] ago (what changed past the program shows within it, as
    /// for everything held).
    pub fn updatable(&self) -> bool {
        self.whole_at.elapsed() < crate::changes::HELD_AT_MOST
    }
}

/// What a write changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Topic {
    /// Anything: a rare write that changes too much to name (a suspension, a deleted account).
    Everything,
    /// Which posts exist: a post deleted anywhere, or written long after its id was made (an
    /// upload processed for minutes): what the newest posts cannot tell from ids alone.
    Posts,
    /// Some post written, its id made moments before ([`crate::NEW_POST_WINDOW`]): what the
    /// newest posts depend on, where [`Topic::Posts`] does not change. Writes name
    /// [`Topic::Written`], which stamps this; it is stamped alone only for a payload that did not
    /// say which post (then the list reads the posts made since a moment before its last read).
    NewPost,
    /// The post of this id by this person written, its id made moments before: stamps
    /// [`Topic::NewPost`], and tells which post, so that the list of the newest posts takes it
    /// in without reading anything ([`crate::Changes::written_since`]).
    Written(PostId, UserId),
    /// A post's row: its counts, its text, its payload, whether it exists.
    Post(PostId),
    /// A post's comments: one written, edited or deleted (apart from [`Topic::Post`]: a like
    /// then leaves the post's comments standing).
    Comments(PostId),
    /// The words of some post changed (an edit): what music search finds may have, where no
    /// post was written or deleted.
    Words,
    /// A person's card (name, login, avatar, badge).
    User(UserId),
    /// The list of a person's posts: one written or deleted (apart from [`Topic::User`]: a new
    /// post then leaves every card shown of its author standing, and what was read with them).
    Posted(UserId),
    /// Whom a person listens to and blocks, and who blocks them.
    Viewer(UserId),
    /// Which people are in a block pair: a block made or lifted anywhere (besides
    /// [`Topic::Viewer`] of both people), for what holds every pair at once.
    Blocks,
    /// Who reposted what, beyond new reposts: a repost taken back anywhere (what the Listened
    /// to feeds of the reposter's listeners are read from).
    Reposts,
    /// A repost made anywhere, its id made moments before (as [`Topic::NewPost`] for posts):
    /// what is held of the newest reposts then reads only the reposts made since a moment
    /// before its last read, where [`Topic::Reposts`] reads it whole.
    NewRepost,
    /// Which posts a person likes or reposted (apart from [`Topic::Viewer`]: a like, the most
    /// frequent write, then leaves what else is remembered of its person standing; apart from
    /// [`Topic::Reposts`]: a repost then leaves everyone else's marks standing).
    Marks(UserId),
    /// A person's sessions: one of them ended (signed out, a password changed, suspended).
    Sessions(UserId),
    /// A person's notifications: their unread count may have changed.
    Unread(UserId),
    /// Who may be found, and by what: an address proved (an account becomes findable), a name,
    /// login or picture changed (people search, `profiles::search`).
    People,
}

impl Topic {
    /// How the topic travels in a `NOTIFY` payload: `*`, `n`, `w`, `t`, `b`, `f`, `o`, `e`, `p<id>`, `c<id>`,
    /// `u<id>`, `a<id>`, `v<id>`, `l<id>`, `s<id>`, `r<id>`, `w<post>:<author>`.
    pub(crate) fn write(self, out: &mut String) {
        use std::fmt::Write;
        let _ = match self {
            Topic::Everything => write!(out, "*"),
            Topic::Posts => write!(out, "n"),
            Topic::NewPost => write!(out, "w"),
            Topic::Words => write!(out, "t"),
            Topic::Blocks => write!(out, "b"),
            Topic::People => write!(out, "f"),
            Topic::Reposts => write!(out, "o"),
            Topic::NewRepost => write!(out, "e"),
            Topic::Written(id, author) => write!(out, "w{id}:{author}"),
            Topic::Post(id) => write!(out, "p{id}"),
            Topic::Comments(id) => write!(out, "c{id}"),
            Topic::User(id) => write!(out, "u{id}"),
            Topic::Posted(id) => write!(out, "a{id}"),
            Topic::Viewer(id) => write!(out, "v{id}"),
            Topic::Marks(id) => write!(out, "l{id}"),
            Topic::Sessions(id) => write!(out, "s{id}"),
            Topic::Unread(id) => write!(out, "r{id}"),
        };
    }

    /// A topic as [`Topic::write`] wrote it; none for anything else.
    pub(crate) fn read(item: &str) -> Option<Topic> {
        let id = || item.get(1..)?.parse::<i64>().ok();
        let user = |made: fn(UserId) -> Topic| UserId::try_from(id()?).ok().map(made);
        match item.as_bytes().first()? {
            b'*' if item.len() == 1 => Some(Topic::Everything),
            b'n' if item.len() == 1 => Some(Topic::Posts),
            b'w' if item.len() == 1 => Some(Topic::NewPost),
            b'w' => {
                let (id, author) = item.get(1..)?.split_once(':')?;
                let id = PostId::try_from(id.parse::<i64>().ok()?).ok()?;
                Some(Topic::Written(id, UserId::try_from(author.parse::<i64>().ok()?).ok()?))
            }
            b't' if item.len() == 1 => Some(Topic::Words),
            b'b' if item.len() == 1 => Some(Topic::Blocks),
            b'f' if item.len() == 1 => Some(Topic::People),
            b'o' if item.len() == 1 => Some(Topic::Reposts),
            b'e' if item.len() == 1 => Some(Topic::NewRepost),
            b'p' => PostId::try_from(id()?).ok().map(Topic::Post),
            b'c' => PostId::try_from(id()?).ok().map(Topic::Comments),
            b'u' => user(Topic::User),
            b'a' => user(Topic::Posted),
            b'v' => user(Topic::Viewer),
            b'l' => user(Topic::Marks),
            b's' => user(Topic::Sessions),
            b'r' => user(Topic::Unread),
            _ => None,
        }
    }

    /// The topic's slot in a table of `slots` stamps (a power of two).
    pub(crate) fn slot(self, slots: usize) -> usize {
        let (tag, id) = match self {
            Topic::Everything => (0_u64, 0_i64),
            Topic::Posts => (1, 0),
            Topic::Post(id) => (2, id.get()),
            Topic::User(id) => (3, id.get()),
            Topic::Viewer(id) => (4, id.get()),
            Topic::Sessions(id) => (5, id.get()),
            Topic::Unread(id) => (6, id.get()),
            // One slot for every post written: what depends on them depends on `NewPost`.
            Topic::NewPost | Topic::Written(..) => (7, 0),
            Topic::People => (8, 0),
            Topic::Marks(id) => (9, id.get()),
            Topic::Words => (10, 0),
            Topic::Blocks => (11, 0),
            Topic::Comments(id) => (12, id.get()),
            Topic::Posted(id) => (13, id.get()),
            Topic::Reposts => (14, 0),
            Topic::NewRepost => (15, 0),
        };
        // splitmix64's finaliser: ids that differ in a few bits land far apart.
        let mut x = (id as u64) ^ tag.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^= x >> 31;
        (x as usize) & (slots - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_topic_travels_as_text_and_back() {
        let (p, u) = (PostId::generate(), UserId::generate());
        let topics = [
            Topic::Everything,
            Topic::Posts,
            Topic::NewPost,
            Topic::Words,
            Topic::Blocks,
            Topic::People,
            Topic::Reposts,
            Topic::NewRepost,
            Topic::Written(p, u),
            Topic::Post(p),
            Topic::Comments(p),
            Topic::User(u),
            Topic::Posted(u),
            Topic::Viewer(u),
            Topic::Marks(u),
            Topic::Sessions(u),
            Topic::Unread(u),
        ];
        for topic in topics {
            let mut text = String::new();
            topic.write(&mut text);
            assert_eq!(Topic::read(&text), Some(topic), "{text}");
        }
        assert_eq!(Topic::read("q1"), None);
        assert_eq!(Topic::read("p-x"), None);
        assert_eq!(Topic::read("**"), None);
        assert_eq!(Topic::read("w12"), None);
        assert_eq!(Topic::read("w12:x"), None);
        assert_eq!(Topic::Written(p, u).slot(1 << 18), Topic::NewPost.slot(1 << 18));
    }
}
