//! Lists of posts: For you, Listened to, a person's posts, and the one post of the post page.
//!
//! A page costs a fixed number of statements whatever its length: one for the posts with their
//! authors and whether the viewer likes each (a left join on the viewer's like), then one per
//! kind of post on the page for the payloads (`WHERE post_id IN (...)`), so at most five. Every
//! one is an index range scan: the posts' primary key newest first (For you), `(user_id, id)`
//! (a person's posts), the payload tables' `(post_id, position)` keys; who may see whose posts
//! is `social_graph::visibility`, the one rule (subqueries on `blocks`' keys and a probe of
//! `suspensions (user_id)`), the listening rule a walk or a merge over `listens`
//! (docs/posts.md).
//!
//! A list read here may take a little from memory (`crate::memory`): the payloads of posts
//! shown before, and how many people a viewer listens to; [`assemble`] puts a page together
//! the same way whether its rows came from here or from memory.

use db::diesel::dsl::exists;
use db::diesel::prelude::*;
use db::model::UserCard;
use db::schema::{likes, listens, posts, reposts, users};
use db::{DbConnection, Fixed, Keyset, Page, PageRule, limit_in_text};
use social_graph::visibility;
use values::{PostId, PostKind, UserId};

use std::collections::HashMap;

use crate::kinds;
use crate::memory::{Memory, Payloads, Wanted};
use crate::model::{Payload, Post, PostRow, RepostMark};

/// Feeds and profile lists: 10 a page by default (spec §9), at most 50.
pub const FEED_PAGE: PageRule = PageRule::new(10, 50);

/// Which posts a list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feed {
    /// Everyone's, newest first.
    ForYou,
    /// Of the people the viewer listens to.
    ListenedTo,
    /// One person's.
    User(UserId),
}

/// Where a page starts: the spec's offset, or the keyset cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedPage {
    Offset(Page),
    Before(Keyset<PostId>),
}

impl FeedPage {
    pub fn limit(self) -> i64 {
        match self {
            FeedPage::Offset(p) => p.limit,
            FeedPage::Before(k) => k.limit,
        }
    }
}

enum Scope<'a> {
    Feed(Feed, FeedPage),
    One(PostId),
    /// These posts, in any order (a page of search results, ordered by its caller).
    Ids(&'a [PostId]),
}

/// A post as a list reads it: its row, its author's card, and the viewer's like and repost (if
/// any).
type Listed = (PostRow, UserCard, Option<UserId>, Option<UserId>);

/// Past this many people listened to, the Listened to feed walks all posts newest first and
/// keeps theirs (they are a large share, so a page is found within a few rows); below it, it
/// merges each person's newest posts (few people: few rows, however long ago they posted).
/// Measured at a million posts on SQLite: 100 people merged 0.3 ms (walked 0.5 ms), 1,000 walked
/// 0.04 ms (merged 6.9 ms); docs/performance.md.
pub const DENSE_LISTENING: i64 = 200;

/// From this offset down, a For you page finds where it starts in the list of the newest posts
/// kept in memory (`crate::memory::Memory::deep_start`) rather than by the database's walk,
/// which reads and joins every post above it (37 times page 1's time at 10,000 deep,
/// docs/performance.md).
pub const DEEP_OFFSET: i64 = 100;

/// The posts of the people `?1` listens to, older than the cursor (`?2`), that may be among
/// the newest `depth` of them (`?depth`): each listened person's newest post older than the
/// cursor is one probe of `posts (user_id, id)`; the `depth`-th newest of those is a floor no
/// post of the page can be below (that many posts are at or above it), and each person's posts
/// from the floor up are one more index range. About two probes a person, where walking each
/// person's newest `depth` posts took `depth` steps each. People whose posts the viewer is not
/// shown (suspended, or in a block pair with them) do not set the floor; with fewer people
/// than `depth` who have posts there is no floor. Fixed text, so its statement is prepared
/// (planned) once per connection.
const LISTENED_WINDOW: &str = "posts.id IN (SELECT p.id FROM listens l JOIN posts p ON p.user_id = l.listened_id \
     WHERE l.listener_id = ? AND p.id < ? AND p.id >= ( \
       SELECT CASE WHEN COUNT(newest) < ?depth THEN 0 ELSE MIN(newest) END FROM ( \
         SELECT (SELECT MAX(p2.id) FROM posts p2 WHERE p2.user_id = l2.listened_id AND p2.id < ?) AS newest \
         FROM listens l2 WHERE l2.listener_id = ? \
         AND NOT EXISTS (SELECT 1 FROM suspensions s WHERE s.user_id = l2.listened_id) \
         AND l2.listened_id NOT IN (SELECT b.blocked_id FROM blocks b WHERE b.blocker_id = ?) \
         AND l2.listened_id NOT IN (SELECT b.blocker_id FROM blocks b WHERE b.blocked_id = ?) \
         ORDER BY newest DESC NULLS LAST LIMIT ?depth \
       ) AS top_newest))";

/// [`LISTENED_WINDOW`] for PostgreSQL with the depth in the text: the same floor and ranges, as
/// `LATERAL` walks, which PostgreSQL runs once per person each (as correlated subqueries it
/// ran each person's newest twice, and walked every post above the floor rather than each
/// person's). Only the newest `depth` of those, of people the viewer is shown, are looked up
/// in `posts`: the ranges are read from the index alone, and a person listening to few people
/// (no floor) once made every one of their `depth` newest posts a lookup (4 ms a page at a
/// million posts, the dearest statement of the community mix; issue 30). Binds: the cursor
/// twice, then the viewer six times.
const LISTENED_WINDOW_PG: &str = "posts.id IN (SELECT top.id FROM (SELECT x.id FROM listens l CROSS JOIN LATERAL ( \
       SELECT p.id FROM posts p WHERE p.user_id = l.listened_id AND p.id < ? AND p.id >= ( \
         SELECT CASE WHEN COUNT(*) < ?depth THEN 0 ELSE MIN(newest) END FROM ( \
           SELECT n.newest FROM listens l2 CROSS JOIN LATERAL ( \
             SELECT p2.id AS newest FROM posts p2 WHERE p2.user_id = l2.listened_id AND p2.id < ? \
             ORDER BY p2.id DESC LIMIT 1) n \
           WHERE l2.listener_id = ? \
           AND NOT EXISTS (SELECT 1 FROM suspensions s WHERE s.user_id = l2.listened_id) \
           AND l2.listened_id NOT IN (SELECT b.blocked_id FROM blocks b WHERE b.blocker_id = ?) \
           AND l2.listened_id NOT IN (SELECT b.blocker_id FROM blocks b WHERE b.blocked_id = ?) \
           ORDER BY n.newest DESC LIMIT ?depth \
         ) AS top_newest) \
       ORDER BY p.id DESC LIMIT ?depth) x \
     WHERE l.listener_id = ? \
     AND NOT EXISTS (SELECT 1 FROM suspensions s WHERE s.user_id = l.listened_id) \
     AND l.listened_id NOT IN (SELECT b.blocked_id FROM blocks b WHERE b.blocker_id = ?) \
     AND l.listened_id NOT IN (SELECT b.blocker_id FROM blocks b WHERE b.blocked_id = ?) \
     ORDER BY x.id DESC LIMIT ?depth) AS top)";

/// The posts, authors and like flags of a list (one statement; Listened to needs the viewer's
/// listening count, `listening`, read first when not given).
///
/// The author is joined on `posts.user_id + 0`, which no index answers: at a million posts
/// SQLite's planner otherwise looped over the users, found each one's posts by
/// `posts (user_id, id)` and sorted them all (1.1 s a page), instead of walking the posts newest
/// first and stopping after a page. PostgreSQL plans it the same way either way.
fn listed(
    conn: &mut DbConnection,
    scope: Scope<'_>,
    viewer: Option<UserId>,
    listening: Option<i64>,
) -> QueryResult<Vec<Listed>> {
    listed_as(conn, scope, viewer, listening, false)
}

/// [`listed`]; for Listened to with `exact`, only posts nobody the viewer listens to reposted,
/// found by walking every post newest first (`crate::reposts`: the window's floor cannot know
/// which of them are reposted).
fn listed_as(
    conn: &mut DbConnection,
    scope: Scope<'_>,
    viewer: Option<UserId>,
    listening: Option<i64>,
    exact: bool,
) -> QueryResult<Vec<Listed>> {
    // The viewer's repost as a subquery, not a join: SQLite's planner built a Bloom filter of
    // all of `reposts` for a join of it (10 ms a page at 100,000 reposts, whatever the page).
    let reposted = reposts::table
        .filter(reposts::post_id.eq(posts::id))
        .filter(reposts::user_id.nullable().eq(viewer))
        .select(reposts::user_id)
        .single_value();
    let mut q = posts::table
        .inner_join(users::table.on(users::id.eq(posts::user_id + 0_i64)))
        .left_join(likes::table.on(likes::post_id.eq(posts::id).and(likes::user_id.nullable().eq(viewer))))
        .select((PostRow::as_select(), UserCard::as_select(), likes::user_id.nullable(), reposted))
        .into_boxed();
    q = match scope {
        // One person's posts: whether they may be shown is the same for every row, so it is a
        // condition asked once (0.2 ms a page on PostgreSQL, against 0.9 as a rule on each row).
        Scope::Feed(Feed::User(u), _) => visibility::one_shown_to(q, u, viewer),
        _ => visibility::shown_to(q, posts::user_id, viewer),
    };
    match scope {
        Scope::One(id) => q.filter(posts::id.eq(id)).load(conn),
        Scope::Ids(ids) => q.filter(db::one_of(posts::id, ids.iter().map(|id| id.get()))).load(conn),
        Scope::Feed(feed, page) => {
            q = match feed {
                Feed::ForYou => q,
                Feed::ListenedTo => {
                    let Some(v) = viewer else { return Ok(Vec::new()) };
                    let listening = match listening {
                        Some(n) => n,
                        None => {
                            users::table.filter(users::id.eq(v)).select(users::listened_to_count).get_result(conn)?
                        }
                    };
                    if exact {
                        // Every post of theirs not reposted by anyone the viewer listens to:
                        // the walk, which needs no floor.
                        q.filter(exists(
                            listens::table
                                .filter(listens::listener_id.eq(v))
                                .filter(listens::listened_id.eq(posts::user_id)),
                        ))
                        .filter(Fixed::new(NOT_REPOSTED_BY_LISTENED, [v.get(), v.get(), v.get()]))
                    } else if listening > DENSE_LISTENING {
                        q.filter(exists(
                            listens::table
                                .filter(listens::listener_id.eq(v))
                                .filter(listens::listened_id.eq(posts::user_id)),
                        ))
                    } else {
                        // Only posts that may be among the newest `depth` (older than the
                        // cursor) are candidates: `LISTENED_WINDOW`.
                        let (depth, before) = match page {
                            FeedPage::Offset(p) => (p.offset + p.limit, None),
                            FeedPage::Before(k) => (k.limit, k.before),
                        };
                        let before = before.map_or(i64::MAX, PostId::get);
                        let (v, depth) = (v.get(), depth.max(1));
                        // On PostgreSQL the usual depths (a first or cursor page) are written into
                        // the text, so that its plan is made once (as `db::limit_in_text`).
                        if matches!(conn, DbConnection::Postgres(_)) && depth <= FEED_PAGE.max {
                            let sql = LISTENED_WINDOW_PG.replace("?depth", &depth.to_string());
                            q.filter(Fixed::made(sql, [before, before, v, v, v, v, v, v]))
                        } else {
                            let sql = LISTENED_WINDOW.replace("?depth", "?");
                            q.filter(Fixed::made(sql, [v, before, depth, before, v, v, v, depth]))
                        }
                    }
                }
                Feed::User(u) => q.filter(posts::user_id.eq(u)),
            };
            let postgres = matches!(conn, DbConnection::Postgres(_));
            match page {
                FeedPage::Offset(p) if p.limit == 0 => Ok(Vec::new()),
                // On PostgreSQL a first page and a cursor page carry their limit in the text,
                // so that their statement is planned once (`db::limit_in_text`).
                FeedPage::Offset(p) if postgres && p.offset == 0 => {
                    limit_in_text(q.order(posts::id.desc()), p.limit).load(conn)
                }
                FeedPage::Before(k) if postgres => {
                    let q = match k.before {
                        Some(before) => q.filter(posts::id.lt(before)),
                        None => q,
                    };
                    limit_in_text(q.order(posts::id.desc()), k.limit).load(conn)
                }
                FeedPage::Offset(p) => p.apply(q.order(posts::id.desc())).load(conn),
                FeedPage::Before(k) => k.apply(q, posts::id).load(conn),
            }
        }
    }
}

/// A page of a list, each post with its payload, as the database answers it.
pub fn page(conn: &mut DbConnection, feed: Feed, page: FeedPage, viewer: Option<UserId>) -> QueryResult<Vec<Post>> {
    page_with(conn, feed, page, viewer, None, None)
}

/// [`page`], taking the payloads of posts shown before from `payloads`, and the viewer's
/// listening count as `listening` when known.
pub(crate) fn page_with(
    conn: &mut DbConnection,
    feed: Feed,
    page: FeedPage,
    viewer: Option<UserId>,
    payloads: Option<&Payloads>,
    listening: Option<i64>,
) -> QueryResult<Vec<Post>> {
    if feed == Feed::ListenedTo {
        return listened_to(conn, page, viewer, payloads, listening);
    }
    let rows = listed(conn, Scope::Feed(feed, page), viewer, listening)?;
    with_payloads(conn, payloads, rows, Vec::new())
}

/// Whether nobody `?` listens to (shown to them) reposted the post: the original then stands in
/// their Listened to. Binds: the viewer three times.
const NOT_REPOSTED_BY_LISTENED: &str = "NOT EXISTS (SELECT 1 FROM reposts r \
     JOIN listens l ON l.listened_id = r.user_id AND l.listener_id = ? \
     WHERE r.post_id = posts.id \
     AND NOT EXISTS (SELECT 1 FROM suspensions s WHERE s.user_id = r.user_id) \
     AND r.user_id NOT IN (SELECT b.blocked_id FROM blocks b WHERE b.blocker_id = ?) \
     AND r.user_id NOT IN (SELECT b.blocker_id FROM blocks b WHERE b.blocked_id = ?))";

/// A page of Listened to: the posts of the people the viewer listens to and the posts they
/// reposted, each once, newest first by the post's id or its newest such repost's
/// (`crate::reposts`). The posts as the feed has always read them (a window of the newest
/// `offset + limit`), which of them were reposted (one statement), the newest reposts (one) and
/// their posts (one), then the payloads. When reposted posts left the window short of the page,
/// the posts are read again by the walk that knows which are reposted (one statement more).
fn listened_to(
    conn: &mut DbConnection,
    page: FeedPage,
    viewer: Option<UserId>,
    payloads: Option<&Payloads>,
    listening: Option<i64>,
) -> QueryResult<Vec<Post>> {
    let Some(v) = viewer else { return Ok(Vec::new()) };
    let (skip, limit, before) = match page {
        FeedPage::Offset(p) => (p.offset, p.limit, None),
        FeedPage::Before(k) => (0, k.limit, k.before),
    };
    if limit <= 0 {
        return Ok(Vec::new());
    }
    let depth = skip.saturating_add(limit);
    let window = FeedPage::Before(Keyset { before, limit: depth });
    let mut own = listed_as(conn, Scope::Feed(Feed::ListenedTo, window), viewer, listening, false)?;
    let floor = (own.len() as i64 == depth).then(|| own.last().map_or(0, |(p, ..)| p.id.get()));
    let ids: Vec<PostId> = own.iter().map(|(p, ..)| p.id).collect();
    let reposted = crate::reposts::reposted_by_listened(conn, v, &ids)?;
    own.retain(|(p, ..)| !reposted.contains(&p.id));
    let placed = crate::reposts::listened(conn, v, before.map_or(i64::MAX, PostId::get), depth)?;
    let mut entries = merge(own, placed, conn, viewer)?;
    // Posts of theirs below the window's last one, not read: the page stands only above it.
    let known = |entries: &[(i64, Listed, Option<RepostMark>)]| match (floor, reposted.is_empty()) {
        (Some(floor), false) => entries.len() as i64 >= depth && entries[(depth - 1) as usize].0 >= floor,
        _ => true,
    };
    if !known(&entries) {
        let own = listed_as(conn, Scope::Feed(Feed::ListenedTo, window), viewer, listening, true)?;
        let placed = crate::reposts::listened(conn, v, before.map_or(i64::MAX, PostId::get), depth)?;
        entries = merge(own, placed, conn, viewer)?;
    }
    let (rows, marks): (Vec<Listed>, Vec<Option<RepostMark>>) =
        entries.into_iter().skip(skip as usize).take(limit as usize).map(|(_, row, mark)| (row, mark)).unzip();
    with_payloads(conn, payloads, rows, marks)
}

/// The viewer's own-place posts and the placed reposts (with their posts read, one statement),
/// newest first by where each stands.
fn merge(
    own: Vec<Listed>,
    placed: Vec<crate::reposts::Placed>,
    conn: &mut DbConnection,
    viewer: Option<UserId>,
) -> QueryResult<Vec<(i64, Listed, Option<RepostMark>)>> {
    let mut entries: Vec<(i64, Listed, Option<RepostMark>)> =
        own.into_iter().map(|row| (row.0.id.get(), row, None)).collect();
    if !placed.is_empty() {
        let ids: Vec<PostId> = placed.iter().map(|p| p.post).collect();
        let mut rows: HashMap<PostId, Listed> =
            listed(conn, Scope::Ids(&ids), viewer, None)?.into_iter().map(|row| (row.0.id, row)).collect();
        entries.extend(placed.into_iter().filter_map(|p| Some((p.mark.id, rows.remove(&p.post)?, Some(p.mark)))));
    }
    entries.sort_by_key(|(key, ..)| std::cmp::Reverse(*key));
    Ok(entries)
}

/// One post as `viewer` may see it: none when it is missing, its author is suspended, or a
/// block stands between them.
pub fn one(conn: &mut DbConnection, id: PostId, viewer: Option<UserId>) -> QueryResult<Option<Post>> {
    one_with(conn, id, viewer, None)
}

/// [`one`], taking the payload from `payloads` when the post was shown before.
pub(crate) fn one_with(
    conn: &mut DbConnection,
    id: PostId,
    viewer: Option<UserId>,
    payloads: Option<&Payloads>,
) -> QueryResult<Option<Post>> {
    let rows = listed(conn, Scope::One(id), viewer, None)?;
    Ok(with_payloads(conn, payloads, rows, Vec::new())?.into_iter().next())
}

/// These posts as `viewer` may see them, in the order of `ids` (a page of search results), the
/// payloads of posts shown before taken from `payloads`: one statement, and one per kind of
/// payload not remembered.
pub(crate) fn these(
    conn: &mut DbConnection,
    ids: &[PostId],
    viewer: Option<UserId>,
    payloads: Option<&Payloads>,
) -> QueryResult<Vec<Post>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut rows = listed(conn, Scope::Ids(ids), viewer, None)?;
    rows.sort_by_key(|(p, ..)| ids.iter().position(|id| *id == p.id));
    with_payloads(conn, payloads, rows, Vec::new())
}

/// [`these`], from memory when it holds them or can read what it lacks (`Memory::shown`), else
/// from the database, taking the payloads it holds.
pub(crate) fn these_held(
    conn: &mut DbConnection,
    ids: &[PostId],
    viewer: Option<UserId>,
    memory: Option<&Memory>,
) -> QueryResult<Vec<Post>> {
    if let Some(memory) = memory
        && let Some(found) = memory.shown(Some(conn), ids, viewer)?
    {
        return Ok(found);
    }
    these(conn, ids, viewer, memory.map(|m| &m.payloads))
}

/// [`these_held`] of the posts `named` names (each once, however often named), by id: those
/// `viewer` may see.
pub(crate) fn these_by_id(
    conn: &mut DbConnection,
    named: impl Iterator<Item = PostId>,
    viewer: Option<UserId>,
    memory: Option<&Memory>,
) -> QueryResult<std::collections::HashMap<PostId, Post>> {
    let mut ids: Vec<PostId> = named.collect();
    ids.sort_unstable();
    ids.dedup();
    Ok(these_held(conn, &ids, viewer, memory)?.into_iter().map(|p| (p.id, p)).collect())
}

/// Adds the payloads: one statement per kind present on the page, for the posts `payloads`
/// does not hold (which it keeps afterwards); `marks` (if any) are the reposts that placed
/// each row.
fn with_payloads(
    conn: &mut DbConnection,
    payloads: Option<&Payloads>,
    rows: Vec<Listed>,
    marks: Vec<Option<RepostMark>>,
) -> QueryResult<Vec<Post>> {
    let mut found = match payloads {
        Some(held) => {
            let wanted: Vec<Wanted> = rows.iter().map(|(p, ..)| (p.id, p.kind, p.payload_version())).collect();
            held.of(Some(conn), &wanted)?.unwrap_or_default()
        }
        None => {
            let kinds: Vec<(PostId, PostKind)> = rows.iter().map(|(p, ..)| (p.id, p.kind)).collect();
            kinds::load_payloads(conn, &kinds)?
        }
    };
    let mut posts = assemble(
        rows.iter().map(|(row, author, liked, reposted)| (row, author, liked.is_some(), reposted.is_some())),
        &mut found,
    );
    if !marks.is_empty() {
        let mut marks: HashMap<PostId, RepostMark> =
            rows.iter().zip(marks).filter_map(|((row, ..), mark)| Some((row.id, mark?))).collect();
        for post in &mut posts {
            post.reposted = marks.remove(&post.id);
        }
    }
    Ok(posts)
}

/// A page of posts from their rows, authors and the viewer's likes, in order, and their
/// payloads: how every page is put together, from the database or from memory. A post whose
/// payload is missing (never written that way) is left out, as the spec's client drops it too.
pub(crate) fn assemble<'a>(
    rows: impl IntoIterator<Item = (&'a PostRow, &'a UserCard, bool, bool)>,
    payloads: &mut HashMap<PostId, std::sync::Arc<Payload>>,
) -> Vec<Post> {
    rows.into_iter()
        .filter_map(|(row, author, liked, reposted)| {
            let payload = payloads.remove(&row.id)?;
            Some(Post {
                id: row.id,
                caption: row.caption.clone(),
                created_at: row.created_at,
                edited_at: row.edited_at,
                likes_count: row.likes_count.max(0),
                comments_count: row.comments_count.max(0),
                plays_count: row.plays_count.max(0),
                genre: row.genre.clone(),
                reposts_count: row.reposts_count.max(0),
                user_liked: liked,
                user_reposted: reposted,
                author: author.clone(),
                payload,
                reposted: None,
            })
        })
        .collect()
}
