//! Activities other servers send us, and what each does here. Every one arrives signed by its
//! actor (checked before any of this runs, `api::routes::federation`), from the actor's own
//! server (its id and its actor's share a host).

use activitypub_federation::config::Data;
use activitypub_federation::fetch::object_id::ObjectId;
use activitypub_federation::kinds::activity::{FollowType, UndoType};
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
            Inbound::Other(a) => &a.id,
        }
    }

    fn actor(&self) -> &Url {
        match self {
            Inbound::Follow(a) => a.actor.inner(),
            Inbound::Undo(a) => a.actor.inner(),
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
    let follower = follow.actor.dereference(data).await?;
    if follower.is_local() {
        return Err(FederationError::Refused("Our own people listen through the app.".into()));
    }
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

/// An undo: of a follow, the listen ends (nobody is told, as when one of ours stops).
async fn undone(undo: Undo, data: &Data<Federation>) -> Result<(), FederationError> {
    let federation = data.app_data();
    let Ok(follow) = serde_json::from_value::<Follow>(undo.object.clone()) else {
        tracing::debug!(id = %undo.id, "an undo of something we do not keep");
        return Ok(());
    };
    if follow.actor.inner() != undo.actor.inner() {
        return Err(FederationError::Refused("An Undo takes back only its own actor's activity.".into()));
    }
    let Some(target) = federation.settings.user_of(follow.object.inner()) else { return Ok(()) };
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
