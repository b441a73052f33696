//! Activities other servers send us, and what each does here. Every one arrives signed by its
//! actor (checked before any of this runs, `api::routes::federation`), from the actor's own
//! server (its id and its actor's share a host).

use activitypub_federation::config::Data;
use activitypub_federation::fetch::object_id::ObjectId;
use activitypub_federation::kinds::activity::{
    AnnounceType, CreateType, DeleteType, FlagType, FollowType, LikeType, UndoType, UpdateType,
};
use activitypub_federation::traits::ActivityHandler;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use url::Url;

use crate::actors::Actor;
use crate::{Federation, FederationError, delivery, repo};

/// `Follow`: one of theirs starts listening to one of ours, who accepts at once (or refuses
/// when a block stands between them).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Follow {
    pub id: Url,
    #[serde(rename = "type")]
    pub kind: FollowType,
    pub actor: ObjectId<Actor>,
    pub object: ObjectId<Actor>,
}

/// `Undo`: takes back an earlier activity of the same actor (a `Follow`, for now).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Undo {
    pub id: Url,
    #[serde(rename = "type")]
    pub kind: UndoType,
    pub actor: ObjectId<Actor>,
    pub object: Value,
}

/// `Like`: one of theirs likes one of our posts.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Like {
    pub id: Url,
    #[serde(rename = "type")]
    pub kind: LikeType,
    pub actor: ObjectId<Actor>,
    pub object: Url,
}

/// `Announce` (a boost): one of theirs reposts one of our posts.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Announce {
    pub id: Url,
    #[serde(rename = "type")]
    pub kind: AnnounceType,
    pub actor: ObjectId<Actor>,
    /// The post's address, or the post itself.
    pub object: Value,
}

/// `Create` of a `Note`: a reply to one of our posts (or to a reply to one) becomes a comment.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Create {
    pub id: Url,
    #[serde(rename = "type")]
    pub kind: CreateType,
    pub actor: ObjectId<Actor>,
    pub object: Note,
}

/// A note of another server's, as far as a reply needs it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Note {
    pub id: Url,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub attributed_to: Value,
    #[serde(default)]
    pub in_reply_to: Option<Value>,
    #[serde(default)]
    pub content: Option<String>,
}

/// `Update`: of a reply of theirs (its comment's text follows), or of the actor itself (what we
/// know of them is read again).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Update {
    pub id: Url,
    #[serde(rename = "type")]
    pub kind: UpdateType,
    pub actor: ObjectId<Actor>,
    pub object: Value,
}

/// `Delete`: of a reply of theirs (its comment goes), or of the actor itself (their account
/// here goes, with all they did).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Delete {
    pub id: Url,
    #[serde(rename = "type")]
    pub kind: DeleteType,
    pub actor: ObjectId<Actor>,
    pub object: Value,
}

/// `Flag`: another server's report of our posts (or people), a complaint here by the person
/// who sent it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Flag {
    pub id: Url,
    #[serde(rename = "type")]
    pub kind: FlagType,
    pub actor: ObjectId<Actor>,
    pub object: Value,
    #[serde(default)]
    pub content: Option<String>,
}

/// Any other activity: understood to exist, acted on by nobody (answered 200, as Mastodon
/// does, so that its server does not retry it).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Other {
    pub id: Url,
    #[serde(rename = "type")]
    pub kind: Value,
    pub actor: ObjectId<Actor>,
}

/// What an inbox takes.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Inbound {
    Follow(Follow),
    Undo(Undo),
    Like(Like),
    Announce(Announce),
    Create(Create),
    Update(Update),
    Delete(Delete),
    Flag(Flag),
    Other(Other),
}

#[async_trait::async_trait]
impl ActivityHandler for Inbound {
    type DataType = Federation;
    type Error = FederationError;

    fn id(&self) -> &Url {
        match self {
            Inbound::Follow(a) => &a.id,
            Inbound::Undo(a) => &a.id,
            Inbound::Like(a) => &a.id,
            Inbound::Announce(a) => &a.id,
            Inbound::Create(a) => &a.id,
            Inbound::Update(a) => &a.id,
            Inbound::Delete(a) => &a.id,
            Inbound::Flag(a) => &a.id,
            Inbound::Other(a) => &a.id,
        }
    }

    fn actor(&self) -> &Url {
        match self {
            Inbound::Follow(a) => a.actor.inner(),
            Inbound::Undo(a) => a.actor.inner(),
            Inbound::Like(a) => a.actor.inner(),
            Inbound::Announce(a) => a.actor.inner(),
            Inbound::Create(a) => a.actor.inner(),
            Inbound::Update(a) => a.actor.inner(),
            Inbound::Delete(a) => a.actor.inner(),
            Inbound::Flag(a) => a.actor.inner(),
            Inbound::Other(a) => a.actor.inner(),
        }
    }

    async fn verify(&self, _data: &Data<Federation>) -> Result<(), FederationError> {
        Ok(())
    }

    async fn receive(self, data: &Data<Federation>) -> Result<(), FederationError> {
        match self {
            Inbound::Follow(follow) => followed(follow, data).await,
            Inbound::Undo(undo) => undone(undo, data).await,
            Inbound::Like(like) => {
                let post = data.settings.post_of(&like.object);
                marked(data, like.id, &like.actor, post, Mark::Like, true).await
            }
            Inbound::Announce(announce) => {
                let post = object_id(&announce.object).and_then(|o| data.settings.post_of(&o));
                marked(data, announce.id, &announce.actor, post, Mark::Repost, true).await
            }
            Inbound::Create(create) => replied(create, data).await,
            Inbound::Update(update) => updated(update, data).await,
            Inbound::Delete(delete) => deleted(delete, data).await,
            Inbound::Flag(flag) => flagged(flag, data).await,
            Inbound::Other(other) => {
                tracing::debug!(id = %other.id, kind = %other.kind, "an activity we do not act on");
                Ok(())
            }
        }
    }
}

/// A follow: the follower listens to our person, who is told, and the follower's server gets
/// an `Accept` (or a `Reject` across a block) through the background jobs, in the same
/// transaction.
async fn followed(follow: Follow, data: &Data<Federation>) -> Result<(), FederationError> {
    let federation = data.app_data();
    let target = federation
        .settings
        .user_of(follow.object.inner())
        .ok_or_else(|| FederationError::Refused("Only people of this server can be followed here.".into()))?;
    let follower = remote(&follow.actor, data).await?;
    let Some(_ours) = federation.local_actor(target).await? else { return Err(FederationError::NotFound) };
    let settings = federation.settings.clone();
    let follow_json = serde_json::to_value(&follow).map_err(|e| FederationError::Internal(e.to_string()))?;
    let inbox = follower.inbox.clone();
    federation
        .db
        .write(move |c| {
            let answer = match app::listen_on(c, follower.user, target) {
                Ok(_) => "Accept",
                Err(app::AppError::Graph(social_graph::GraphError::Blocked)) => "Reject",
                Err(e) => return Err(FederationError::from(e)),
            };
            let id = settings.new_activity(&answer.to_ascii_lowercase());
            let activity = json!({
                "@context": "https://www.w3.org/ns/activitystreams",
                "id": id,
                "type": answer,
                "actor": settings.actor(target),
                "object": follow_json,
            });
            delivery::enqueue(c, target, &id, &inbox, &activity)?;
            Ok(())
        })
        .await
}

/// An undo: of a follow, the listen ends (nobody is told, as when one of ours stops); of a
/// like or a repost, it is taken back.
async fn undone(undo: Undo, data: &Data<Federation>) -> Result<(), FederationError> {
    let federation = data.app_data();
    let undone_by = |v: &Value| v.get("actor").and_then(object_id).is_some_and(|a| &a == undo.actor.inner());
    if !undone_by(&undo.object) {
        // Only an undo that shows what it undoes is acted on (an address alone names nothing
        // we keep).
        tracing::debug!(id = %undo.id, "an undo without its activity, or of another actor's");
        return Ok(());
    }
    let object = undo.object.get("object").and_then(object_id);
    match undo.object.get("type").and_then(Value::as_str) {
        Some("Like") => {
            let post = object.and_then(|o| federation.settings.post_of(&o));
            marked(data, undo.id, &undo.actor, post, Mark::Like, false).await
        }
        Some("Announce") => {
            let post = object.and_then(|o| federation.settings.post_of(&o));
            marked(data, undo.id, &undo.actor, post, Mark::Repost, false).await
        }
        Some("Follow") => {
            let Some(target) = object.and_then(|o| federation.settings.user_of(&o)) else { return Ok(()) };
            let follower = undo.actor.dereference(data).await?;
            let activity = undo.id.to_string();
            federation
                .db
                .write(move |c| {
                    if repo::first_receipt(c, &activity)? {
                        social_graph::unlisten(c, follower.user, target)?;
                    }
                    Ok::<_, FederationError>(())
                })
                .await
        }
        _ => Ok(()),
    }
}

/// An object's id: its address, or the `id` of the object itself.
fn object_id(value: &Value) -> Option<Url> {
    match value {
        Value::String(s) => Url::parse(s).ok(),
        Value::Object(o) => o.get("id").and_then(Value::as_str).and_then(|s| Url::parse(s).ok()),
        Value::Array(items) => items.first().and_then(object_id),
        _ => None,
    }
}

#[derive(Debug, Clone, Copy)]
enum Mark {
    Like,
    Repost,
}

/// A like or repost of one of our posts by one of theirs, given (`on`) or taken back: the
/// post's like or repost is set so, the author told of a new one as of ours. Once per
/// activity; nothing for a post that is not ours, gone, or hidden from them by a block.
async fn marked(
    data: &Data<Federation>,
    activity: Url,
    actor: &ObjectId<Actor>,
    post: Option<values::PostId>,
    mark: Mark,
    on: bool,
) -> Result<(), FederationError> {
    let Some(post) = post else { return Ok(()) };
    let who = remote(actor, data).await?.user;
    let activity = activity.to_string();
    data.db
        .write_lightly(move |c| {
            if !repo::first_receipt(c, &activity)? {
                return Ok(());
            }
            let (liked, reposted) = posts::marks_of(c, who, post)?;
            let toggled = match mark {
                Mark::Like if liked != on => app::toggle_like_on(c, who, post).map(|_| ()),
                Mark::Repost if reposted != on => app::toggle_repost_on(c, who, post).map(|_| ()),
                _ => Ok(()),
            };
            match toggled {
                Err(app::AppError::Posts(posts::PostError::NotFound)) => Ok(()),
                other => other.map_err(FederationError::from),
            }
        })
        .await
}

/// The person of another server an activity is by (never one of ours: they act here), unless
/// an admin suspended them.
async fn remote(actor: &ObjectId<Actor>, data: &Data<Federation>) -> Result<Actor, FederationError> {
    let who = actor.dereference(data).await?;
    if who.is_local() {
        return Err(FederationError::Refused("Our own people act through the app.".into()));
    }
    let user = who.user;
    if data.db.run(move |c| Ok::<_, FederationError>(repo::suspended(c, user)?)).await? {
        return Err(FederationError::Forbidden("This account is suspended here.".into()));
    }
    Ok(who)
}

/// A reply to one of our posts, or to a reply to one: a comment on the post, by its author
/// here, in plain text (`crate::text`), its mentions of our people telling them. Once per note.
async fn replied(create: Create, data: &Data<Federation>) -> Result<(), FederationError> {
    let federation = data.app_data();
    let note = create.object;
    if note.kind != "Note" || object_id(&note.attributed_to).as_ref() != Some(create.actor.inner()) {
        return Ok(());
    }
    let Some(in_reply_to) = note.in_reply_to.as_ref().and_then(object_id) else { return Ok(()) };
    let settings = federation.settings.clone();
    let text = reply_text(&note, &settings);
    if text.trim().is_empty() {
        return Ok(());
    }
    let who = remote(&create.actor, data).await?.user;
    let (activity, note_id) = (create.id.to_string(), note.id.to_string());
    let direct = settings.post_of(&in_reply_to);
    let to_comment = settings.comment_of(&in_reply_to);
    let replied_to = in_reply_to.to_string();
    federation
        .db
        .write(move |c| {
            if !repo::first_receipt(c, &activity)? || repo::reply(c, &note_id)?.is_some() {
                return Ok(());
            }
            // A reply to our post, to a comment of ours on one, or to a reply kept here.
            let post = match (direct, to_comment) {
                (Some(post), _) => post,
                (None, Some(comment)) => match posts::one_comment(c, comment)? {
                    Some(comment) => comment.post_id,
                    None => return Ok(()),
                },
                (None, None) => match repo::reply(c, &replied_to)? {
                    Some((_, _, post)) => post,
                    None => return Ok(()),
                },
            };
            match app::comment_on(c, who, post, &text, None) {
                Ok(comment) => Ok(repo::keep_reply(c, &note_id, comment.id, who)?),
                Err(app::AppError::Posts(posts::PostError::NotFound)) => Ok(()),
                Err(e) => Err(FederationError::from(e)),
            }
        })
        .await
}

/// A note's words as a comment's: plain text (`crate::text`), links kept, a mention read as a
/// handle (ours as `@login`, anyone else's with their server), cut to a comment's length.
fn reply_text(note: &Note, settings: &crate::settings::Settings) -> String {
    let ours = |url: &Url| {
        url.origin() == settings.origin.origin()
            || Url::parse(&settings.app).is_ok_and(|app| app.origin() == url.origin())
    };
    let handle = |href: &str, shown: &str| -> Option<String> {
        if !shown.starts_with('@') {
            return None;
        }
        let url = Url::parse(href).ok()?;
        if ours(&url) || shown[1..].contains('@') {
            return Some(shown.to_owned());
        }
        Some(format!("{shown}@{}", crate::settings::host_of(&url)?))
    };
    let text = crate::text::plain_text(note.content.as_deref().unwrap_or_default(), &handle);
    shortened(&text, posts::input::COMMENT_MAX_CHARS)
}

/// An update: of a reply of theirs, its comment's text follows (people it now mentions are
/// told, as of an edit here); of the actor itself, what we know of them is read again from
/// their server. Once per activity; anything else is left alone.
async fn updated(update: Update, data: &Data<Federation>) -> Result<(), FederationError> {
    let Some(object) = object_id(&update.object) else { return Ok(()) };
    if &object == update.actor.inner() {
        // Their name, avatar, inbox or key changed: read afresh (and kept, `Actor::from_json`).
        let fresh = update.actor.dereference_forced(data).await?;
        if fresh.is_local() {
            return Err(FederationError::Refused("Our own people change through the app.".into()));
        }
        return Ok(());
    }
    let Ok(note) = serde_json::from_value::<Note>(update.object.clone()) else { return Ok(()) };
    if note.kind != "Note" || object_id(&note.attributed_to).as_ref() != Some(update.actor.inner()) {
        return Ok(());
    }
    let ap_id = note.id.to_string();
    let found = data.db.run(move |c| Ok::<_, FederationError>(repo::reply(c, &ap_id)?)).await?;
    let Some((comment, author, post)) = found else { return Ok(()) };
    let who = remote(&update.actor, data).await?.user;
    if who != author {
        return Err(FederationError::Refused("Only its author may change a reply.".into()));
    }
    let text = reply_text(&note, &data.settings);
    if text.trim().is_empty() {
        return Ok(());
    }
    let activity = update.id.to_string();
    data.db
        .write(move |c| {
            if !repo::first_receipt(c, &activity)? {
                return Ok(());
            }
            match app::edit_comment_on(c, who, post, comment, &text) {
                Ok(_) => Ok(()),
                // Gone or hidden since (the post deleted, a block): nothing to change.
                Err(app::AppError::Posts(posts::PostError::CommentNotFound | posts::PostError::NotFound)) => Ok(()),
                Err(e) => Err(FederationError::from(e)),
            }
        })
        .await
}

/// Text cut to `most` characters, with an ellipsis when cut.
fn shortened(text: &str, most: usize) -> String {
    if text.chars().count() <= most {
        return text.to_owned();
    }
    let mut short: String = text.chars().take(most - 1).collect();
    short.push('…');
    short
}

/// A delete of a reply of theirs: its comment goes (only its own author's delete counts).
async fn deleted(delete: Delete, data: &Data<Federation>) -> Result<(), FederationError> {
    let Some(object) = object_id(&delete.object) else { return Ok(()) };
    if &object == delete.actor.inner() {
        // The actor deleted their account: theirs here goes, with their likes, reposts, replies
        // and follows (as an account deleted here). Known ones only: nothing is fetched of an
        // account that is gone.
        let ap_id = object.to_string();
        return data
            .db
            .write(move |c| {
                let Some(known) = repo::remote_by_ap_id(c, &ap_id)? else { return Ok(()) };
                // Their avatar is an address elsewhere: no stored objects come back.
                app::delete_account_on(c, known.user)?;
                Ok::<_, FederationError>(())
            })
            .await;
    }
    let ap_id = object.to_string();
    let found = data.db.run(move |c| Ok::<_, FederationError>(repo::reply(c, &ap_id)?)).await?;
    let Some((comment, author, _)) = found else { return Ok(()) };
    let who = remote(&delete.actor, data).await?.user;
    if who != author {
        return Err(FederationError::Refused("Only its author may delete a reply.".into()));
    }
    data.db
        .write(move |c| {
            posts::delete_comment_rows(c, comment)?;
            Ok::<_, FederationError>(())
        })
        .await
}

/// A report from another server: a complaint (reason Other, its words as the description) on
/// each of our posts it names, by the person who sent it. Once per activity.
async fn flagged(flag: Flag, data: &Data<Federation>) -> Result<(), FederationError> {
    let objects: Vec<Url> = match &flag.object {
        Value::Array(items) => items.iter().filter_map(object_id).collect(),
        one => object_id(one).into_iter().collect(),
    };
    let reported: Vec<values::PostId> = objects.iter().filter_map(|o| data.settings.post_of(o)).take(20).collect();
    if reported.is_empty() {
        return Ok(());
    }
    let who = remote(&flag.actor, data).await?.user;
    let server = crate::settings::host_of(flag.actor.inner()).unwrap_or_default();
    let words = flag.content.as_deref().map(|c| crate::text::plain_text(c, &|_, _| None)).unwrap_or_default();
    let description = shortened(
        &if words.trim().is_empty() { format!("Reported from {server}.") } else { format!("From {server}: {words}") },
        moderation::DESCRIPTION_MAX,
    );
    let input = moderation::ReportInput::parse(Some("Other"), Some(&description))
        .map_err(|e| FederationError::Refused(format!("A report we cannot keep: {e}")))?;
    let activity = flag.id.to_string();
    data.db
        .write(move |c| {
            if !repo::first_receipt(c, &activity)? {
                return Ok(());
            }
            for post in reported {
                match moderation::file_report(c, who, moderation::Target::Post(post), &input) {
                    Ok(_) | Err(moderation::ModerationError::PostNotFound | moderation::ModerationError::OwnPost) => {}
                    Err(e) => return Err(FederationError::Internal(e.to_string())),
                }
            }
            Ok(())
        })
        .await
}
