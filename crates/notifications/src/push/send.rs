//! Sending: a push job's notification, read again, encrypted to its device and posted to the
//! device's push service.

use std::sync::Arc;
use std::time::Duration;

use db::Db;
use db::diesel::prelude::*;
use db::jobs::{Claimed, Failure};
use db::schema::{push_devices, sessions};
use reqwest::StatusCode;
use serde::Serialize;
use url::Url;
use values::{PushDeviceId, UserId};

use crate::model::{Kind, Notification};
use crate::push::address::{self, PublicResolver};
use crate::push::devices::{self, DeviceRow, PushJob};
use crate::push::vapid::VapidKey;
use crate::{NotificationError, repo};

/// How long a push service keeps a push for a device that is off (its `TTL`); a notification
/// older than this when its job runs (the service was down for long) is not sent at all.
pub const PUSH_TTL: Duration = Duration::from_secs(24 * 3600);
/// How long a push service has to answer.
const TIMEOUT: Duration = Duration::from_secs(15);

/// What a device's service worker receives (JSON, encrypted): what to show and where a click
/// takes its person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Message {
    pub title: String,
    pub body: String,
    /// A path of the web app, e.g. `/app/post/12`.
    pub url: String,
    /// Pushes with the same tag replace each other on the device.
    pub tag: String,
}

impl Message {
    /// The message of `n`: who did what, the start of the comment, and the post (or for a new
    /// listener, their profile).
    pub fn of(n: &Notification) -> Message {
        let url = match (n.kind, n.post) {
            (Kind::Listening, _) | (_, None) => format!("/app/user/{}", n.sender.id),
            (_, Some(post)) => format!("/app/post/{post}"),
        };
        Message {
            title: format!("{} {}", n.sender.name, n.kind.action()),
            body: n.excerpt.clone().unwrap_or_default(),
            url,
            tag: format!("notification-{}", n.id),
        }
    }

    /// The message of "Send a test".
    pub fn test() -> Message {
        Message {
            title: "SelfSound".into(),
            body: "Notifications are on for this device.".into(),
            url: "/app/settings".into(),
            tag: "test".into(),
        }
    }
}

/// Sends pushes: the server's VAPID key, and an HTTP client that reaches only public addresses.
#[derive(Clone)]
pub struct Pusher {
    db: Db,
    key: Arc<VapidKey>,
    client: reqwest::Client,
    subject: Arc<str>,
    allow_local: bool,
}

impl std::fmt::Debug for Pusher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pusher").field("key", &self.key).field("allow_local", &self.allow_local).finish()
    }
}

impl Pusher {
    /// `subject` is how a push service's operator reaches ours (the public URL); with
    /// `allow_local` (a server on loopback) devices on loopback and plain http are allowed.
    pub fn new(db: Db, key: VapidKey, subject: &str, allow_local: bool) -> Result<Pusher, NotificationError> {
        let client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .connect_timeout(Duration::from_secs(5))
            .redirect(reqwest::redirect::Policy::none())
            .dns_resolver(Arc::new(PublicResolver { allow_local }))
            .user_agent(concat!("SelfSound/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| NotificationError::Unexpected(format!("the push client: {e}")))?;
        Ok(Pusher { db, key: Arc::new(key), client, subject: subject.into(), allow_local })
    }

    /// The VAPID public key browsers subscribe with.
    pub fn public_key(&self) -> String {
        self.key.public_key()
    }

    /// Whether endpoints on loopback are allowed (a server on loopback).
    pub fn allows_local(&self) -> bool {
        self.allow_local
    }

    /// Runs a `notification.push` job: sends it, or finds there is nothing to send.
    pub async fn run_job(&self, job: &Claimed) -> Result<(), Failure> {
        let PushJob { device, notification } =
            serde_json::from_str(&job.payload).map_err(|e| Failure::GiveUp(format!("the job's payload: {e}")))?;
        let retry = |e: NotificationError| Failure::Retry(e.to_string());
        let found = self
            .db
            .run(move |conn| {
                let Some(row) = standing_device(conn, device)? else { return Ok(None) };
                let message = match notification {
                    None => Some(Message::test()),
                    Some(id) => repo::for_push(conn, row.user_id, id)?
                        .filter(|n| {
                            !n.read
                                && db::time::now() - n.created_at
                                    < chrono::Duration::from_std(PUSH_TTL).unwrap_or_default()
                        })
                        .map(|n| Message::of(&n)),
                };
                Ok::<_, NotificationError>(message.map(|m| (row, m)))
            })
            .await
            .map_err(retry)?;
        // The device is gone (turned off, signed out), or the notification is (its comment was
        // deleted), was read meanwhile, is hidden now (a block) or too old: nothing to send.
        let Some((row, message)) = found else { return Ok(()) };
        match self.send(&row, &message).await {
            Sent::Delivered => {
                let id = row.id;
                self.db
                    .write(move |conn| {
                        diesel::update(push_devices::table.filter(push_devices::id.eq(id)))
                            .set(push_devices::last_sent_at.eq(db::time::now()))
                            .execute(conn)?;
                        Ok::<_, NotificationError>(())
                    })
                    .await
                    .map_err(retry)
            }
            Sent::Gone(why) => {
                tracing::info!(device = %row.id, why, "removing a push device");
                let (user, id) = (row.user_id, row.id);
                self.db.write(move |conn| remove_quietly(conn, user, id)).await.map_err(retry)
            }
            Sent::Refused(why) => {
                // The push service's final word on this push (too large, malformed): another try
                // would be refused alike.
                tracing::warn!(device = %row.id, why, "a push service refused a push");
                Ok(())
            }
            Sent::Later(why) => Err(Failure::Retry(why)),
        }
    }

    async fn send(&self, row: &DeviceRow, message: &Message) -> Sent {
        let Ok(endpoint) = Url::parse(&row.endpoint) else { return Sent::Gone("its endpoint is not a URL".into()) };
        if !address::endpoint_allowed(&endpoint, self.allow_local) {
            return Sent::Gone("its endpoint is not a public https address".into());
        }
        let (Some(p256dh), Some(auth)) = (devices::base64url(&row.p256dh), devices::base64url(&row.auth)) else {
            return Sent::Gone("its keys do not read".into());
        };
        let plain = match serde_json::to_vec(message) {
            Ok(plain) => plain,
            Err(e) => return Sent::Refused(format!("the message: {e}")),
        };
        let body = match ece::encrypt(&p256dh, &auth, &plain) {
            Ok(body) => body,
            Err(e) => return Sent::Gone(format!("its key does not encrypt: {e}")),
        };
        let authorization = match self.key.authorization(&endpoint, &self.subject) {
            Ok(a) => a,
            Err(e) => return Sent::Later(e.to_string()),
        };
        let answer = self
            .client
            .post(endpoint)
            .header("TTL", PUSH_TTL.as_secs().to_string())
            .header("Urgency", "normal")
            .header(reqwest::header::CONTENT_ENCODING, "aes128gcm")
            .header(reqwest::header::CONTENT_TYPE, "application/octet-stream")
            .header(reqwest::header::AUTHORIZATION, authorization)
            .body(body)
            .send()
            .await;
        match answer {
            Err(e) => Sent::Later(format!("the push service did not answer: {e}")),
            Ok(r) => outcome(r.status()),
        }
    }
}

/// What became of a push.
#[derive(Debug, PartialEq, Eq)]
enum Sent {
    Delivered,
    /// The subscription is no more (404, 410) or cannot be pushed to: the device goes.
    Gone(String),
    /// Refused for good.
    Refused(String),
    /// Try again later.
    Later(String),
}

fn outcome(status: StatusCode) -> Sent {
    match status.as_u16() {
        200..=299 => Sent::Delivered,
        404 | 410 => Sent::Gone(format!("the push service answered {status}")),
        408 | 425 | 429 | 500..=599 => Sent::Later(format!("the push service answered {status}")),
        _ => Sent::Refused(format!("the push service answered {status}")),
    }
}

/// The device, if it is there and its session still stands.
fn standing_device(conn: &mut db::DbConnection, id: PushDeviceId) -> QueryResult<Option<DeviceRow>> {
    push_devices::table
        .inner_join(sessions::table)
        .filter(push_devices::id.eq(id))
        .filter(sessions::expires_at.gt(db::time::now()))
        .select(DeviceRow::as_select())
        .first(conn)
        .optional()
}

fn remove_quietly(conn: &mut db::DbConnection, user: UserId, id: PushDeviceId) -> Result<(), NotificationError> {
    match devices::remove(conn, user, id) {
        Ok(()) | Err(NotificationError::DeviceNotFound) => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_of_push_services() {
        assert_eq!(outcome(StatusCode::CREATED), Sent::Delivered);
        assert!(matches!(outcome(StatusCode::GONE), Sent::Gone(_)));
        assert!(matches!(outcome(StatusCode::NOT_FOUND), Sent::Gone(_)));
        assert!(matches!(outcome(StatusCode::TOO_MANY_REQUESTS), Sent::Later(_)));
        assert!(matches!(outcome(StatusCode::BAD_GATEWAY), Sent::Later(_)));
        assert!(matches!(outcome(StatusCode::PAYLOAD_TOO_LARGE), Sent::Refused(_)));
    }
}
