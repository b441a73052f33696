//! Use cases that span domains. The domain crates stand side by side and never call "up" or in
//! a circle; what needs several of them is put together here, one transaction per use case:
//! each domain's part runs inside it (functions taking `&mut DbConnection`), and stored objects
//! are removed only after it has committed.
//!
//! Notifications are written inside the transaction of what caused them (a like, a comment, a
//! listen), which names the unread counts it changed; once it has committed, the open streams
//! of every process hear of it (`db::changes`).

use db::model::UserCard;
use db::{Db, DbConnection, DbError};
use moderation::{Action, Admin, Decision, Scope};
use notifications::{Event, Kind};
use posts::RemovedBy;
use storage::Storage;
use values::{CommentId, DomainError, ErrorKind, PostId, ReportId, UserId};

pub mod export;
mod suspensions;

/// An error of one of the domains a use case called; its kind is that domain's.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Auth(#[from] auth::AuthError),
    #[error(transparent)]
    Profile(#[from] profiles::ProfileError),
    #[error(transparent)]
    Graph(#[from] social_graph::GraphError),
    #[error(transparent)]
    Posts(#[from] posts::PostError),
    #[error(transparent)]
    Notifications(#[from] notifications::NotificationError),
    #[error(transparent)]
    Moderation(#[from] moderation::ModerationError),
    #[error(transparent)]
    Suspension(#[from] moderation::SuspensionError),
    #[error(transparent)]
    Export(#[from] export::ExportError),
    #[error(transparent)]
    Db(#[from] DbError),
    /// A [`Departure`] outside these domains failed.
    #[error("{0}")]
    Departure(String),
}

impl From<db::diesel::result::Error> for AppError {
    fn from(e: db::diesel::result::Error) -> Self {
        AppError::Db(e.into())
    }
}

impl DomainError for AppError {
    fn kind(&self) -> ErrorKind {
        match self {
            AppError::Auth(e) => e.kind(),
            AppError::Profile(e) => e.kind(),
            AppError::Graph(e) => e.kind(),
            AppError::Posts(e) => e.kind(),
            AppError::Notifications(e) => e.kind(),
            AppError::Moderation(e) => e.kind(),
            AppError::Suspension(e) => e.kind(),
            AppError::Export(e) => e.kind(),
            AppError::Db(e) => e.kind(),
            AppError::Departure(_) => ErrorKind::Internal,
        }
    }
}

/// A search result: the person, and whether the searcher already listens to them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchHit {
    pub user: UserCard,
    pub active: bool,
}

/// What a like toggle leaves: whether the person likes the post now, and its count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Liked {
    pub liked: bool,
    pub likes_count: i64,
}

/// What a repost toggle leaves: whether the person reposts the post now, and its count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reposted {
    pub reposted: bool,
    pub reposts_count: i64,
}

#[derive(Clone)]
pub struct App {
    db: Db,
    storage: Storage,
    /// People searches remembered (`profiles::search::Remembered`).
    people: std::sync::Arc<profiles::search::Remembered>,
    /// What else an account's deletion does in its transaction, before its rows go
    /// ([`App::on_departure`]).
    departure: std::sync::Arc<std::sync::OnceLock<Departure>>,
}

/// A part of an account's deletion that lives outside these domains (telling other servers,
/// `federation`), run in the deletion's transaction before the account's rows go.
pub type Departure = Box<dyn Fn(&mut DbConnection, UserId) -> Result<(), AppError> + Send + Sync>;

impl App {
    pub fn new(db: Db, storage: Storage) -> App {
        let people = std::sync::Arc::new(profiles::search::remembered(db.changes().clone()));
        App { db, storage, people, departure: Default::default() }
    }

    /// Sets what else an account's deletion does (once, at start; a second call is ignored).
    pub fn on_departure(&self, departure: Departure) {
        let _ = self.departure.set(departure);
    }

    /// The people searches this process remembers, for [`search_people_on`].
    pub fn people(&self) -> &std::sync::Arc<profiles::search::Remembered> {
        &self.people
    }

    /// Likes the post, or takes the like back; a new like tells the author (once per person
    /// and post, however often it is taken back and given again).
    pub async fn toggle_like(&self, me: UserId, post: PostId) -> Result<Liked, AppError> {
        // A toggle: committed lightly (`Db::write_lightly`), as a repost and a play are.
        self.db.write_lightly(move |conn| toggle_like_on(conn, me, post)).await
    }

    /// Reposts the post to `me`'s listeners, or takes the repost back; a new repost tells the
    /// author (once per person and post, however often it is taken back and made again).
    pub async fn toggle_repost(&self, me: UserId, post: PostId) -> Result<Reposted, AppError> {
        self.db.write_lightly(move |conn| toggle_repost_on(conn, me, post)).await
    }

    /// `me` changes the text of their comment on `post`: people it now mentions who were never
    /// told of it are told, as of a new comment (nobody is told of the edit itself), while the
    /// comment has told fewer than [`posts::MENTIONS_NOTIFIED`] people over its life.
    pub async fn edit_comment(
        &self,
        posts: &posts::Posts,
        me: UserId,
        post: PostId,
        comment: CommentId,
        text: &str,
    ) -> Result<posts::Comment, AppError> {
        let (text, posts) = (text.to_owned(), posts.clone());
        self.db
            .write(move |conn| {
                let edited = edit_comment_on(conn, me, post, comment, &text)?;
                posts.comment_changed(conn, post, comment, me, posts::Announced::Updated)?;
                Ok(edited)
            })
            .await
    }

    /// A comment by `me` on `post` (on a `moment` of one of its tracks, if given): the post's
    /// author is told of it, and the people it mentions are told of that (at most ten, none in a
    /// block pair with the post's author; an author who is also mentioned gets the mention alone).
    pub async fn comment(
        &self,
        posts: &posts::Posts,
        me: UserId,
        post: PostId,
        text: &str,
        moment: Option<posts::CommentMoment>,
    ) -> Result<posts::Comment, AppError> {
        let (text, posts) = (text.to_owned(), posts.clone());
        self.db
            .write(move |conn| {
                let comment = comment_on(conn, me, post, &text, moment)?;
                // Other servers hear of it (a reply from one of theirs, `comment_on` alone, not).
                posts.comment_changed(conn, post, comment.id, me, posts::Announced::Created)?;
                Ok(comment)
            })
            .await
    }

    /// `me` starts listening to `target`, who is told (once, however often `me` stops and
    /// starts again). Answers whether anything changed.
    pub async fn listen(&self, me: UserId, target: UserId) -> Result<bool, AppError> {
        self.db.write(move |conn| listen_on(conn, me, target)).await
    }

    /// An admin resolves a complaint. delete_post deletes the post the one way posts are
    /// deleted (other servers told it is gone, its payload, likes, comments and notifications go with it; its files are
    /// removed after the commit) and resolves every open report on it and its comments;
    /// delete_comment deletes the comment the one way comments are deleted ([`App::delete_comment`]'s
    /// rows) and resolves every open report on it; ignore resolves this report, or every open
    /// report on the same item ([`Scope::Item`]). Either way the audit log gets a row, in the
    /// same transaction.
    pub async fn resolve_report(
        &self,
        posts: &posts::Posts,
        admin: &Admin,
        report: ReportId,
        action: Action,
        scope: Scope,
    ) -> Result<Decision, AppError> {
        let (admin, posts) = (admin.clone(), posts.clone());
        let (decision, objects) = self
            .db
            .write(move |conn| {
                let decision = moderation::decide(conn, &admin, report, action, scope)?;
                let objects = match (decision.action, decision.comment) {
                    (Action::DeletePost, _) => posts.delete_on(conn, &[decision.post])?,
                    (Action::DeleteComment, Some(comment)) => {
                        notifications::forget_comment(conn, comment)?;
                        // Already gone (its author deleted it): the reports close all the same.
                        posts::delete_comment_rows(conn, comment)?;
                        Vec::new()
                    }
                    (Action::DeleteComment, None) | (Action::Ignore, _) => Vec::new(),
                };
                Ok::<_, AppError>((decision, objects))
            })
            .await?;
        self.remove_objects(objects, "a removed post's").await;
        Ok(decision)
    }

    /// `me` deletes comment `comment` on `post`: as its author, as an admin (`admin`: audited
    /// when the comment is someone else's, and its open reports are resolved), or as the post's
    /// author. The comment, its mentions and the notifications naming it go, and the post counts
    /// one comment less, in one transaction; the unread badges of whoever lost a notification
    /// follow once it has committed. Who may not see the post (a block) is answered not found.
    pub async fn delete_comment(
        &self,
        posts: &posts::Posts,
        me: UserId,
        admin: Option<Admin>,
        post: PostId,
        comment: CommentId,
    ) -> Result<RemovedBy, AppError> {
        let posts = posts.clone();
        self.db
            .write(move |conn| {
                let (found, by) = posts::removable_comment(conn, me, post, comment, admin.is_some())?;
                posts.comment_changed(conn, post, comment, found.author, posts::Announced::Deleted)?;
                notifications::forget_comment(conn, comment)?;
                if !posts::delete_comment_rows(conn, comment)? {
                    return Err(posts::PostError::CommentNotFound.into());
                }
                if let (RemovedBy::Moderator, Some(admin)) = (by, &admin) {
                    moderation::comment_removed(conn, admin, &found)?;
                }
                Ok::<_, AppError>(by)
            })
            .await
    }

    async fn remove_objects(&self, keys: Vec<String>, whose: &str) {
        for key in keys {
            if let Err(e) = self.storage.delete(&key).await {
                tracing::warn!(error = %values::error_chain(&e), %key, "could not remove {whose} object");
            }
        }
    }

    /// Deletes an account with everything it owns, in one transaction: each domain fixes what
    /// others see (listener counts, like and comment counts), deletes what it owns (posts) and
    /// names the stored objects it owned; the user row goes last, and its sessions,
    /// notifications (sent and received) and reports' names with it (cascades), so every token
    /// stops working at once. The objects are
    /// removed after the commit; one that cannot be removed now is left to the hourly sweep.
    pub async fn delete_account(&self, user: UserId) -> Result<(), AppError> {
        // Its live streams end once it commits, in every process (auth names its sessions
        // ended), not at their next session check.
        let departure = self.departure.clone();
        let objects = self
            .db
            .write(move |conn| {
                if let Some(depart) = departure.get() {
                    depart(conn, user)?;
                }
                delete_account_on(conn, user)
            })
            .await?;
        self.remove_objects(objects, "a deleted account's").await;
        Ok(())
    }

    /// People matching `query`; with a signed-in viewer, each says whether the viewer already
    /// listens to them (one more query for the whole page). The viewer is never among them.
    pub async fn search_people(
        &self,
        posts: &posts::Posts,
        viewer: Option<UserId>,
        query: &str,
        limit: Option<i64>,
    ) -> Result<Vec<SearchHit>, AppError> {
        let (query, people, posts) = (query.to_owned(), self.people.clone(), posts.clone());
        self.db.run(move |conn| search_people_on(conn, &people, &posts, viewer, &query, limit)).await
    }
}

/// [`App::search_people`] on the caller's connection (a request that looks its session up on the
/// same one, or answers it from the session remembered); whom the viewer listens to as `posts`
/// holds it for their Listened to (read when not held).
pub fn search_people_on(
    conn: &mut DbConnection,
    remembered: &profiles::search::Remembered,
    posts: &posts::Posts,
    viewer: Option<UserId>,
    query: &str,
    limit: Option<i64>,
) -> Result<Vec<SearchHit>, AppError> {
    let query = profiles::search::normalize(query);
    let limit = profiles::search::PAGE.page(limit, None).limit;
    let people = profiles::search::search_remembered(remembered, conn, &query, viewer, limit)?;
    let listening = match viewer {
        Some(me) => {
            let ids: Vec<UserId> = people.iter().map(|u| u.id).collect();
            posts.listening_among_on(conn, me, &ids)?
        }
        None => db::FastSet::default(),
    };
    Ok(people.into_iter().map(|user| SearchHit { active: listening.contains(&user.id), user }).collect())
}

/// [`App::listen`] in the caller's transaction (a follow from another server, `federation`).
pub fn listen_on(conn: &mut db::DbConnection, me: UserId, target: UserId) -> Result<bool, AppError> {
    let added = social_graph::listen(conn, me, target)?;
    if added {
        let listen =
            Event { recipient: target, sender: me, kind: Kind::Listening, post: None, comment: None, excerpt: None };
        notifications::record(conn, &[listen])?;
    }
    Ok(added)
}

/// [`App::toggle_like`] in the caller's transaction (a like from another server, `federation`).
pub fn toggle_like_on(conn: &mut DbConnection, me: UserId, post: PostId) -> Result<Liked, AppError> {
    let t = posts::toggle_like(conn, me, post)?;
    if t.added {
        let like =
            Event { recipient: t.author, sender: me, kind: Kind::Like, post: Some(post), comment: None, excerpt: None };
        // The like was let in only where no block stands between them: not asked again.
        notifications::record_unblocked(conn, &[like])?;
    }
    Ok(Liked { liked: t.liked, likes_count: t.likes_count })
}

/// [`App::toggle_repost`] in the caller's transaction.
pub fn toggle_repost_on(conn: &mut DbConnection, me: UserId, post: PostId) -> Result<Reposted, AppError> {
    let t = posts::reposts::toggle_repost(conn, me, post)?;
    if t.added {
        let repost = Event {
            recipient: t.author,
            sender: me,
            kind: Kind::Repost,
            post: Some(post),
            comment: None,
            excerpt: None,
        };
        notifications::record(conn, &[repost])?;
    }
    Ok(Reposted { reposted: t.reposted, reposts_count: t.reposts_count })
}

/// [`App::comment`] in the caller's transaction (a reply from another server).
pub fn comment_on(
    conn: &mut DbConnection,
    me: UserId,
    post: PostId,
    text: &str,
    moment: Option<posts::CommentMoment>,
) -> Result<posts::Comment, AppError> {
    let done = posts::add_comment(conn, me, post, text, moment)?;
    let excerpt = notifications::excerpt(&done.comment.content);
    let event = |recipient: UserId, kind: Kind| Event {
        recipient,
        sender: me,
        kind,
        post: Some(post),
        comment: Some(done.comment.id),
        excerpt: Some(excerpt.clone()),
    };
    let mut events = vec![event(done.post_author, Kind::Comment)];
    events.extend(done.to_notify.iter().map(|who| event(*who, Kind::Mention)));
    notifications::record(conn, &events)?;
    Ok(done.comment)
}

/// [`App::edit_comment`] in the caller's transaction (a reply another server updated).
pub fn edit_comment_on(
    conn: &mut DbConnection,
    me: UserId,
    post: PostId,
    comment: CommentId,
    text: &str,
) -> Result<posts::Comment, AppError> {
    let done = posts::edit_comment(conn, me, post, comment, text)?;
    let excerpt = notifications::excerpt(&done.comment.content);
    let room = if done.to_notify.is_empty() {
        0
    } else {
        posts::MENTIONS_NOTIFIED.saturating_sub(notifications::mentions_told(conn, comment)?)
    };
    let events: Vec<Event> = done
        .to_notify
        .iter()
        .take(room)
        .map(|who| Event {
            recipient: *who,
            sender: me,
            kind: Kind::Mention,
            post: Some(post),
            comment: Some(comment),
            excerpt: Some(excerpt.clone()),
        })
        .collect();
    notifications::record(conn, &events)?;
    Ok(done.comment)
}

/// [`App::delete_account`]'s rows, in the caller's transaction: answers the stored objects to
/// remove once it commits (a domain blocked by an admin takes its people's accounts here,
/// `federation`).
pub fn delete_account_on(conn: &mut DbConnection, user: UserId) -> Result<Vec<String>, AppError> {
    social_graph::release_account(conn, user)?;
    let mut objects = posts::release_account(conn, user)?;
    objects.extend(profiles::release_account(conn, user)?);
    // Its archives' rows go with the account; their files after the commit.
    objects.extend(export::stored_of(conn, user)?);
    auth::release_account(conn, user)?;
    Ok(objects)
}
