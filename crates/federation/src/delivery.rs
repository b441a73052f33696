//! Delivering our activities to other servers: each (activity, inbox) is a background job
//! (`db::jobs`), queued in the transaction of the write it tells of, signed with the sending
//! person's key when it runs, retried with the jobs' backoff while the other server fails
//! (5xx, 408, 429, no answer) and given up on after the last try, about two hours later
//! (docs/federation.md). A 4xx other than those is the other server's final word: done.

use activitypub_federation::activity_sending::SendActivityTask;
use activitypub_federation::config::Data;
use activitypub_federation::traits::ActivityHandler;
use db::DbConnection;
use db::jobs::{Claimed, Failure, NewJob};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use url::Url;
use values::{JobKind, UserId};

use crate::{Federation, FederationError};

/// What a delivery job carries.
#[derive(Debug, Serialize, Deserialize)]
struct Delivery {
    from: UserId,
    inbox: Url,
    activity: Value,
    /// The key pair to sign with, carried when the sender is gone by the time it runs (an
    /// account's farewell, [`farewell_on`]): theirs went with the account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    keys: Option<(String, String)>,
}

/// Queues `activity` (whose id is `id`) from our person `from` to `inbox`, in the caller's
/// transaction.
pub(crate) fn enqueue(
    conn: &mut DbConnection,
    from: UserId,
    id: &Url,
    inbox: &Url,
    activity: &Value,
) -> Result<(), FederationError> {
    let payload = Delivery { from, inbox: inbox.clone(), activity: activity.clone(), keys: None };
    let payload = serde_json::to_string(&payload).map_err(|e| FederationError::Internal(e.to_string()))?;
    let job = NewJob { kind: JobKind::Deliver, subject: format!("{id} {inbox}"), payload, owner: Some(from) };
    db::jobs::enqueue(conn, &job, None)?;
    Ok(())
}

/// Our person `user`'s account is being deleted (in the caller's transaction, before its rows
/// go): each server of their followers elsewhere is sent a `Delete` of their actor, signed with
/// their key, which each delivery carries (it goes with the account when this commits, and with
/// each job when it is done). Nothing when nobody elsewhere follows them.
pub fn farewell_on(
    conn: &mut DbConnection,
    settings: &crate::settings::Settings,
    user: UserId,
) -> Result<(), FederationError> {
    let inboxes = crate::repo::follower_inboxes(conn, user)?;
    // Without a key nobody elsewhere ever heard from them (an Accept is signed).
    let Some(keys) = crate::repo::keys(conn, user)? else { return Ok(()) };
    if inboxes.is_empty() {
        return Ok(());
    }
    let actor = settings.actor(user);
    let id = Url::parse(&format!("{actor}#delete")).map_err(|e| FederationError::Internal(e.to_string()))?;
    let activity = serde_json::json!({
        "@context": "https://www.w3.org/ns/activitystreams",
        "id": id,
        "type": "Delete",
        "actor": actor,
        "object": actor,
        "to": [crate::notes::PUBLIC],
    });
    for inbox in inboxes.iter().filter_map(|i| Url::parse(i).ok()) {
        let payload =
            Delivery { from: user, inbox: inbox.clone(), activity: activity.clone(), keys: Some(keys.clone()) };
        let payload = serde_json::to_string(&payload).map_err(|e| FederationError::Internal(e.to_string()))?;
        let job = NewJob { kind: JobKind::Deliver, subject: format!("{id} {inbox}"), payload, owner: Some(user) };
        db::jobs::enqueue(conn, &job, None)?;
    }
    Ok(())
}

/// [`enqueue`]s `activity` (whose id is `id`) from `from` to each of `inboxes`.
pub(crate) fn enqueue_all(
    conn: &mut DbConnection,
    from: UserId,
    id: &Url,
    inboxes: &[Url],
    activity: &Value,
) -> Result<(), FederationError> {
    for inbox in inboxes {
        enqueue(conn, from, id, inbox, activity)?;
    }
    Ok(())
}

/// An activity of ours as queued, sent as it was written.
#[derive(Debug)]
struct Queued {
    id: Url,
    actor: Url,
    json: Value,
}

impl Serialize for Queued {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(s)
    }
}

#[async_trait::async_trait]
impl ActivityHandler for Queued {
    type DataType = Federation;
    type Error = FederationError;

    fn id(&self) -> &Url {
        &self.id
    }

    fn actor(&self) -> &Url {
        &self.actor
    }

    async fn verify(&self, _: &Data<Federation>) -> Result<(), FederationError> {
        Ok(())
    }

    async fn receive(self, _: &Data<Federation>) -> Result<(), FederationError> {
        Err(FederationError::Refused("Our own activities are sent, not received.".into()))
    }
}

/// Runs one delivery job.
pub async fn run(data: &Data<Federation>, job: &Claimed) -> Result<(), Failure> {
    let give_up = |why: String| Failure::GiveUp(why);
    let delivery: Delivery =
        serde_json::from_str(&job.payload).map_err(|e| give_up(format!("a delivery that cannot be read: {e}")))?;
    let id = delivery
        .activity
        .get("id")
        .and_then(Value::as_str)
        .and_then(|s| Url::parse(s).ok())
        .ok_or_else(|| give_up("an activity without an id".into()))?;
    let federation = data.app_data();
    let carried_keys = delivery.keys.is_some();
    let sender = match delivery.keys {
        Some((public, private)) => federation.departed_actor(delivery.from, public, private),
        None => match federation.local_actor(delivery.from).await {
            Ok(Some(sender)) => sender,
            // Gone or suspended since: nothing of theirs goes out.
            Ok(None) => return Ok(()),
            Err(e) => return Err(Failure::Retry(e.to_string())),
        },
    };
    let activity = Queued { id, actor: sender.id.clone(), json: delivery.activity };
    let tasks = SendActivityTask::prepare(&activity, &sender, vec![delivery.inbox], data)
        .await
        .map_err(|e| give_up(format!("not sent: {e}")))?;
    for task in tasks {
        if let Err(e) = task.sign_and_send(data).await {
            if carried_keys && job.attempts >= db::jobs::MOST_ATTEMPTS {
                // The last try of a farewell: the key it carried is not kept with the failure.
                let scrubbed = Delivery { keys: None, ..read_again(&job.payload)? };
                let payload = serde_json::to_string(&scrubbed).map_err(|e| give_up(e.to_string()))?;
                let id = job.id;
                federation
                    .db
                    .write(move |c| Ok::<_, db::DbError>(db::jobs::rewrite_payload(c, id, &payload)?))
                    .await
                    .map_err(|e| Failure::Retry(e.to_string()))?;
                return Err(give_up(format!("not delivered: {e}")));
            }
            return Err(Failure::Retry(e.to_string()));
        }
    }
    Ok(())
}

/// A delivery's payload read again, for its other fields.
fn read_again(payload: &str) -> Result<Delivery, Failure> {
    serde_json::from_str(payload).map_err(|e| Failure::GiveUp(format!("a delivery that cannot be read: {e}")))
}
