//! Comments, their @mentions, and the people the mention picker offers.
//!
//! A page of comments costs four statements whatever its length: two to check the viewer may see
//! the post (its author, then whether a block stands between them), then the comments with their
//! authors (`comments (post_id, id)` index, newest first), then the mentions of all of them.
//!
//! A comment on an audio post may be on a moment of one of its tracks (`at_ms`, `track`):
//! [`moments`] lists those of a post, for the marks along its waveform, at the same cost.

use std::collections::HashMap;

use db::diesel::prelude::*;
use db::diesel::sql_types::BigInt;
use db::model::UserCard;
use db::schema::{comment_mentions, comments, post_audio, posts, users};
use db::{DbConnection, Kept, Page, PageRule, Topic};
use social_graph::visibility;
use values::{CommentId, PostId, PostKind, UserId};

use crate::PostError;
use crate::input::{CommentMoment, CommentText, clock, mentioned_logins};
use crate::model::{Comment, CommentRow, Mention};
use crate::repo::{PostRef, visible};

/// 20 comments a page (spec §9), at most 50.
pub const COMMENTS_PAGE: PageRule = PageRule::new(20, 50);
/// The mention picker shows 10 people (spec §9), at most 20.
pub const MENTION_PAGE: PageRule = PageRule::new(10, 20);

/// A page of a post's comments, newest first; comments of people in a block pair with the
/// viewer, and of suspended people, are left out.
pub fn list(
    conn: &mut DbConnection,
    post: PostId,
    viewer: Option<UserId>,
    page: Page,
) -> Result<Vec<Comment>, PostError> {
    if visible(conn, post, viewer)?.is_none() {
        return Err(PostError::NotFound);
    }
    if page.limit == 0 {
        return Ok(Vec::new());
    }
    let q = comments::table
        .inner_join(users::table)
        .filter(comments::post_id.eq(post))
        .select((CommentRow::as_select(), UserCard::as_select()))
        .into_boxed();
    let q = visibility::shown_to(q, comments::user_id, viewer).order(comments::id.desc());
    // A first page on PostgreSQL carries its limit in the text, to be planned once
    // (`db::limit_in_text`).
    let rows: Vec<(CommentRow, UserCard)> = if page.offset == 0 && matches!(conn, DbConnection::Postgres(_)) {
        db::limit_in_text(q, page.limit).load(conn)?
    } else {
        page.apply(q).load(conn)?
    };
    Ok(with_mentions(conn, rows)?)
}

/// A post shows the marks of at most this many comments on moments of its tracks, the newest.
pub const MOMENTS_SHOWN: i64 = 200;

/// The newest [`MOMENTS_SHOWN`] comments of `post` on a moment of its tracks (an audio post) or
/// on bars of its scores (sheet music), as `viewer` may see them (as [`list`] leaves people
/// out): three statements at most, through the index of such comments (`comments_moments_idx`,
/// `comments_bars_idx`).
pub fn moments(conn: &mut DbConnection, post: PostId, viewer: Option<UserId>) -> Result<Vec<Comment>, PostError> {
    let found = visible(conn, post, viewer)?.ok_or(PostError::NotFound)?;
    let mut q = comments::table
        .inner_join(users::table)
        .filter(comments::post_id.eq(post))
        .select((CommentRow::as_select(), UserCard::as_select()))
        .into_boxed();
    // Each kind's comments on a place in it, on an index of their own.
    q = match found.kind {
        PostKind::Audio => q.filter(comments::at_ms.is_not_null()),
        PostKind::MusicXml => q.filter(comments::bar.is_not_null()),
        PostKind::Media | PostKind::Lyrics => return Ok(Vec::new()),
    };
    let rows: Vec<(CommentRow, UserCard)> = visibility::shown_to(q, comments::user_id, viewer)
        .order(comments::id.desc())
        .limit(MOMENTS_SHOWN)
        .load(conn)?;
    Ok(with_mentions(conn, rows)?)
}

/// That `moment` is on a track `post` has, within its length, or on bars of a score it has
/// (one statement; none for a comment on the whole post).
fn check_moment(conn: &mut DbConnection, post: PostRef, moment: Option<CommentMoment>) -> Result<(), PostError> {
    match moment {
        None => Ok(()),
        Some(CommentMoment::Time { track, at_ms }) => {
            if post.kind != PostKind::Audio {
                return Err(PostError::MomentNotOnAudio);
            }
            let length: i64 = post_audio::table
                .filter(post_audio::post_id.eq(post.id))
                .filter(post_audio::position.eq(track))
                .select(post_audio::duration_ms)
                .first(conn)
                .optional()?
                .ok_or(PostError::NoSuchTrack(track))?;
            // A length of 0 was not known when the track was read: any time within the post's bound.
            if length > 0 && at_ms > length {
                return Err(PostError::MomentPastEnd(clock(length)));
            }
            Ok(())
        }
        Some(CommentMoment::Bars { score, .. }) => {
            if post.kind != PostKind::MusicXml {
                return Err(PostError::BarsNotOnScore);
            }
            match crate::plays::track_exists(conn, post.id, post.kind, score) {
                Err(PostError::NoSuchTrack(n)) => Err(PostError::NoSuchScore(n)),
                other => other,
            }
        }
    }
}

/// The newest `limit` comments of `post`, whoever wrote them (what `crate::memory` keeps of a
/// post and leaves out of each viewer's page what they may not see).
pub(crate) fn newest(conn: &mut DbConnection, post: PostId, limit: i64) -> QueryResult<Vec<Comment>> {
    let rows: Vec<(CommentRow, UserCard)> = comments::table
        .inner_join(users::table)
        .filter(comments::post_id.eq(post))
        .select((CommentRow::as_select(), UserCard::as_select()))
        .order(comments::id.desc())
        .limit(limit)
        .load(conn)?;
    with_mentions(conn, rows)
}

/// The comments of `rows` with the people they mention (one statement, and none when no comment
/// has an `@`: only such a comment can mention anyone).
fn with_mentions(conn: &mut DbConnection, rows: Vec<(CommentRow, UserCard)>) -> QueryResult<Vec<Comment>> {
    let ids: Vec<CommentId> = rows.iter().filter(|(c, _)| c.content.contains('@')).map(|(c, _)| c.id).collect();
    let mut mentions = mentions_of(conn, &ids)?;
    Ok(rows
        .into_iter()
        .map(|(c, author)| Comment {
            mentions: mentions.remove(&c.id).unwrap_or_default(),
            moment: c.moment(),
            id: c.id,
            post_id: c.post_id,
            content: c.content,
            created_at: c.created_at,
            edited_at: c.edited_at,
            author,
        })
        .collect())
}

fn mentions_of(conn: &mut DbConnection, ids: &[CommentId]) -> QueryResult<HashMap<CommentId, Vec<Mention>>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<(CommentId, UserCard)> = comment_mentions::table
        .inner_join(users::table)
        .filter(db::one_of(comment_mentions::comment_id, ids.iter().map(|id| id.get())))
        .order((comment_mentions::comment_id, users::login))
        .select((comment_mentions::comment_id, UserCard::as_select()))
        .load(conn)?;
    let mut by_comment: HashMap<CommentId, Vec<Mention>> = HashMap::new();
    for (id, u) in rows {
        by_comment.entry(id).or_default().push(mention(u));
    }
    Ok(by_comment)
}

fn mention(u: UserCard) -> Mention {
    Mention { user_id: u.id, login: u.login, name: u.name, avatar_url: u.avatar_url }
}

/// A comment just written, and who wrote the post it is on (to be told of it).
#[derive(Debug, Clone, PartialEq)]
pub struct Commented {
    pub comment: Comment,
    pub post_author: UserId,
    /// The mentioned people to tell, in the order the comment names them: at most
    /// [`MENTIONS_NOTIFIED`], and none in a block pair with the post's author (nothing passes
    /// between a block pair through a third person).
    pub to_notify: Vec<UserId>,
}

/// A comment tells at most this many of the people it mentions, over its life: its edits
/// share the cap (the rest are still linked).
pub const MENTIONS_NOTIFIED: usize = 10;

/// Writes a comment by `me` on `post` inside the caller's transaction, with the people it
/// mentions (existing logins, not in a block pair with `me`), and counts it on the post. Blank
/// text is refused (spec §5); the text is trimmed. A comment on a `moment` names a track the
/// post has, within its length.
pub fn add(
    conn: &mut DbConnection,
    me: UserId,
    post: PostId,
    text: &str,
    moment: Option<CommentMoment>,
) -> Result<Commented, PostError> {
    let content = CommentText::parse(text)?.into_inner();
    let found = visible(conn, post, Some(me))?.ok_or(PostError::NotFound)?;
    check_moment(conn, found, moment)?;
    let post_author = found.author;
    let author: UserCard = users::table
        .filter(users::id.eq(me))
        .select(UserCard::as_select())
        .first(conn)
        .optional()?
        .ok_or(PostError::UserNotFound)?;
    let row = CommentRow {
        id: CommentId::generate(),
        post_id: post,
        user_id: me,
        content,
        created_at: db::time::now(),
        edited_at: None,
        at_ms: moment.and_then(|m| m.at_ms()),
        track: moment.map(|m| m.track()),
        bar: moment.and_then(|m| m.bars()).map(|(from, _)| from),
        bar_end: moment.and_then(|m| m.bars()).map(|(_, to)| to),
    };
    diesel::insert_into(comments::table).values(&row).execute(conn)?;
    let resolved = resolve_mentions(conn, me, post_author, &row.content)?;
    insert_mentions(conn, row.id, &resolved.mentioned)?;
    Kept::new("UPDATE posts SET comments_count = comments_count + 1 WHERE id = ?")
        .bind::<BigInt, _>(post)
        .execute(conn)?;
    db::changed(conn, &[Topic::Post(post), Topic::Comments(post)])?;
    let to_notify = resolved.to_notify.clone();
    let comment = Comment {
        id: row.id,
        post_id: row.post_id,
        content: row.content,
        created_at: row.created_at,
        edited_at: row.edited_at,
        author,
        mentions: resolved.mentions(),
        moment,
    };
    Ok(Commented { comment, post_author, to_notify })
}

/// The people a comment's text mentions, as a comment by `me` on a post by `post_author` links
/// and tells them.
pub(crate) struct Resolved {
    /// Existing logins, not in a block pair with `me`, by login.
    pub mentioned: Vec<UserCard>,
    /// Those to tell, in the order the text names them: at most [`MENTIONS_NOTIFIED`], and none
    /// in a block pair with the post's author (nothing passes between a block pair through a
    /// third person).
    pub to_notify: Vec<UserId>,
}

impl Resolved {
    pub(crate) fn mentions(&self) -> Vec<Mention> {
        self.mentioned.iter().cloned().map(mention).collect()
    }
}

pub(crate) fn resolve_mentions(
    conn: &mut DbConnection,
    me: UserId,
    post_author: UserId,
    content: &str,
) -> QueryResult<Resolved> {
    let logins = mentioned_logins(content);
    if logins.is_empty() {
        return Ok(Resolved { mentioned: Vec::new(), to_notify: Vec::new() });
    }
    let mut mentioned: Vec<UserCard> =
        users::table.filter(users::login.eq_any(&logins)).select(UserCard::as_select()).load(conn)?;
    let ids: Vec<UserId> = mentioned.iter().map(|u| u.id).collect();
    let blocked = social_graph::blocked_among(conn, me, &ids)?;
    mentioned.retain(|u| !blocked.contains(&u.id));
    let apart_from_author =
        if post_author == me { blocked } else { social_graph::blocked_among(conn, post_author, &ids)? };
    let to_notify: Vec<UserId> = logins
        .iter()
        .filter_map(|login| mentioned.iter().find(|u| &u.login == login))
        .map(|u| u.id)
        .filter(|id| !apart_from_author.contains(id))
        .take(MENTIONS_NOTIFIED)
        .collect();
    mentioned.sort_by(|a, b| a.login.cmp(&b.login));
    Ok(Resolved { mentioned, to_notify })
}

/// Links a comment to the people it mentions.
pub(crate) fn insert_mentions(conn: &mut DbConnection, comment: CommentId, people: &[UserCard]) -> QueryResult<()> {
    // Row by row: the multi-backend connection has no batch insert (at most 20 mentions).
    for u in people {
        diesel::insert_into(comment_mentions::table)
            .values((comment_mentions::comment_id.eq(comment), comment_mentions::user_id.eq(u.id)))
            .execute(conn)?;
    }
    Ok(())
}

/// One comment with its author and the people it mentions, whoever may see it.
pub fn one(conn: &mut DbConnection, id: CommentId) -> QueryResult<Option<Comment>> {
    let rows: Vec<(CommentRow, UserCard)> = comments::table
        .inner_join(users::table)
        .filter(comments::id.eq(id))
        .select((CommentRow::as_select(), UserCard::as_select()))
        .load(conn)?;
    Ok(with_mentions(conn, rows)?.into_iter().next())
}

/// A comment as other rules need it (reporting, deleting): who wrote it, and its post.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommentRef {
    pub id: CommentId,
    pub author: UserId,
    pub post: PostRef,
}

/// The comment `id` as `viewer` may see it: none when it is missing, when its post is hidden
/// from them, or when its author is (`social_graph::visibility`: the comment list leaves it
/// out for them). Two to four statements.
pub fn visible_comment(conn: &mut DbConnection, id: CommentId, viewer: UserId) -> QueryResult<Option<CommentRef>> {
    let found: Option<(PostId, UserId)> = comments::table
        .filter(comments::id.eq(id))
        .select((comments::post_id, comments::user_id))
        .first(conn)
        .optional()?;
    let Some((post, author)) = found else { return Ok(None) };
    let Some(post) = visible(conn, post, Some(viewer))? else { return Ok(None) };
    if author != viewer && author != post.author && visibility::is_hidden(conn, author, Some(viewer))? {
        return Ok(None);
    }
    Ok(Some(CommentRef { id, author, post }))
}

/// In which right someone deletes a comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemovedBy {
    /// Who wrote it.
    Author,
    /// An admin, of someone else's comment (audited by moderation, even on their own post).
    Moderator,
    /// Who wrote the post it is on.
    PostAuthor,
}

/// That `me` may delete comment `id` on `post`, and in which right: its author, an admin
/// (`moderator`), or the post's author. A post that is missing or hidden from `me` by a block
/// is not found, and so is a comment that is missing or on another post; anyone else is
/// forbidden, unless its author is hidden from them (a block, a suspension: then not found, so
/// the answer does not tell them it exists).
pub fn removable(
    conn: &mut DbConnection,
    me: UserId,
    post: PostId,
    id: CommentId,
    moderator: bool,
) -> Result<(CommentRef, RemovedBy), PostError> {
    let post = visible(conn, post, Some(me))?.ok_or(PostError::NotFound)?;
    let author: UserId = comments::table
        .filter(comments::id.eq(id))
        .filter(comments::post_id.eq(post.id))
        .select(comments::user_id)
        .first(conn)
        .optional()?
        .ok_or(PostError::CommentNotFound)?;
    let by = if author == me {
        RemovedBy::Author
    } else if moderator {
        RemovedBy::Moderator
    } else if post.author == me {
        RemovedBy::PostAuthor
    } else if visibility::is_hidden(conn, author, Some(me))? {
        return Err(PostError::CommentNotFound);
    } else {
        return Err(PostError::NotCommentAuthor);
    };
    Ok((CommentRef { id, author, post }, by))
}

/// Deletes a comment inside the caller's transaction (its mentions go with it, and the
/// notifications naming it, by cascade) and takes it off its post's count, never below zero.
/// False when it was gone already (deleted at the same moment by someone else): then nothing
/// is counted.
pub fn delete_rows(conn: &mut DbConnection, id: CommentId) -> Result<bool, PostError> {
    let post: Option<PostId> =
        comments::table.filter(comments::id.eq(id)).select(comments::post_id).first(conn).optional()?;
    let Some(post) = post else { return Ok(false) };
    if diesel::delete(comments::table.filter(comments::id.eq(id))).execute(conn)? == 0 {
        return Ok(false);
    }
    diesel::update(posts::table.filter(posts::id.eq(post)).filter(posts::comments_count.gt(0)))
        .set(posts::comments_count.eq(posts::comments_count - 1))
        .execute(conn)?;
    db::changed(conn, &[Topic::Post(post), Topic::Comments(post)])?;
    Ok(true)
}

/// The text of each of these comments that is still there (the complaints list shows it).
pub fn texts(conn: &mut DbConnection, ids: &[CommentId]) -> QueryResult<HashMap<CommentId, String>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(comments::table
        .filter(comments::id.eq_any(ids))
        .select((comments::id, comments::content))
        .load::<(CommentId, String)>(conn)?
        .into_iter()
        .collect())
}

/// People the mention picker offers for what was typed after the `@`: the user search's
/// matches, without the viewer and anyone in a block pair with them.
pub(crate) fn mention_candidates(
    conn: &mut DbConnection,
    viewer: Option<UserId>,
    query: &str,
    limit: i64,
) -> QueryResult<Vec<UserCard>> {
    let query = profiles::search::normalize(query.trim_start_matches('@'));
    if query.is_empty() {
        return Ok(Vec::new());
    }
    // Ask for more than needed, since blocked people are taken out afterwards.
    let mut found = profiles::search::search(conn, &query, viewer, limit * 2)?;
    if let Some(v) = viewer {
        let ids: Vec<UserId> = found.iter().map(|u| u.id).collect();
        let blocked = social_graph::blocked_among(conn, v, &ids)?;
        found.retain(|u| !blocked.contains(&u.id));
    }
    found.truncate(usize::try_from(limit).unwrap_or(0));
    Ok(found)
}
