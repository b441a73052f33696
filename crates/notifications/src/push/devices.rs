//! A person's devices for Web Push: their subscriptions, what each is told of, and the jobs a
//! notification queues for them. Everything here runs inside its caller's transaction.

use base64::Engine;
use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use chrono::NaiveDateTime;
use db::DbConnection;
use db::diesel::prelude::*;
use db::jobs::NewJob;
use db::schema::push_devices;
use serde::{Deserialize, Serialize};
use url::Url;
use values::{JobKind, NotificationId, PushDeviceId, SessionId, UserId};

use crate::NotificationError;
use crate::model::Kind;
use crate::push::address;

/// At most this many devices an account (a browser profile each).
pub const MOST_DEVICES: i64 = 20;
/// The longest endpoint taken (push services' are a few hundred characters).
const MOST_ENDPOINT: usize = 2000;
/// The longest device name, in characters.
const MOST_NAME: usize = 60;

/// Which kinds of notification a device is told of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kinds {
    pub mentions: bool,
    pub comments: bool,
    pub listens: bool,
    pub likes: bool,
    pub reposts: bool,
}

impl Kinds {
    /// Every kind: a device just turned on is told of everything.
    pub const ALL: Kinds = Kinds { mentions: true, comments: true, listens: true, likes: true, reposts: true };

    pub fn tells(&self, kind: Kind) -> bool {
        match kind {
            Kind::Mention => self.mentions,
            Kind::Comment => self.comments,
            Kind::Listening => self.listens,
            Kind::Like => self.likes,
            Kind::Repost => self.reposts,
        }
    }
}

/// Kinds to turn on or off; the others stay as they are.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KindsChange {
    pub mentions: Option<bool>,
    pub comments: Option<bool>,
    pub listens: Option<bool>,
    pub likes: Option<bool>,
    pub reposts: Option<bool>,
}

impl KindsChange {
    fn applied_to(self, k: Kinds) -> Kinds {
        Kinds {
            mentions: self.mentions.unwrap_or(k.mentions),
            comments: self.comments.unwrap_or(k.comments),
            listens: self.listens.unwrap_or(k.listens),
            likes: self.likes.unwrap_or(k.likes),
            reposts: self.reposts.unwrap_or(k.reposts),
        }
    }
}

/// A browser's push subscription, checked: an endpoint a push request may go to
/// ([`address::endpoint_allowed`]), a P-256 public key and a 16-byte auth secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    pub endpoint: String,
    pub p256dh: Vec<u8>,
    pub auth: Vec<u8>,
}

/// Base64url with or without padding (browsers give it without).
pub(crate) fn base64url(text: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(text.trim_end_matches('=')).or_else(|_| URL_SAFE.decode(text)).ok()
}

impl Subscription {
    /// Checks what a browser's `PushSubscription.toJSON()` gave.
    pub fn parse(
        endpoint: &str,
        p256dh: &str,
        auth: &str,
        allow_local: bool,
    ) -> Result<Subscription, NotificationError> {
        let bad = |why: &str| NotificationError::BadSubscription(why.to_owned());
        if endpoint.len() > MOST_ENDPOINT {
            return Err(bad("The push endpoint is too long."));
        }
        let url = Url::parse(endpoint).map_err(|_| bad("The push endpoint is not a URL."))?;
        if !address::endpoint_allowed(&url, allow_local) {
            return Err(bad("The push endpoint must be an https address on the internet."));
        }
        let p256dh = base64url(p256dh).filter(|k| k.len() == 65 && k[0] == 4);
        let p256dh = p256dh.ok_or_else(|| bad("The subscription's p256dh key is not a P-256 public key."))?;
        let auth = base64url(auth)
            .filter(|a| a.len() == 16)
            .ok_or_else(|| bad("The subscription's auth secret is not 16 bytes."))?;
        Ok(Subscription { endpoint: url.to_string(), p256dh, auth })
    }
}

/// A device as its owner's Settings list it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushDevice {
    pub id: PushDeviceId,
    pub session: SessionId,
    pub name: String,
    pub endpoint: String,
    pub kinds: Kinds,
    pub created_at: NaiveDateTime,
    pub last_sent_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = push_devices)]
pub(crate) struct DeviceRow {
    pub id: PushDeviceId,
    pub user_id: UserId,
    pub session_id: SessionId,
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    pub name: String,
    pub mentions: bool,
    pub comments: bool,
    pub listens: bool,
    pub likes: bool,
    pub reposts: bool,
    pub created_at: NaiveDateTime,
    pub last_sent_at: Option<NaiveDateTime>,
}

impl DeviceRow {
    fn kinds(&self) -> Kinds {
        Kinds {
            mentions: self.mentions,
            comments: self.comments,
            listens: self.listens,
            likes: self.likes,
            reposts: self.reposts,
        }
    }

    pub(crate) fn device(self) -> PushDevice {
        PushDevice {
            id: self.id,
            session: self.session_id,
            kinds: self.kinds(),
            name: self.name,
            endpoint: self.endpoint,
            created_at: self.created_at,
            last_sent_at: self.last_sent_at,
        }
    }
}

/// A device's name: the one given, trimmed and cut to [`MOST_NAME`] characters, else "A browser".
fn name_of(name: Option<&str>) -> String {
    let name: String =
        name.map(str::trim).unwrap_or_default().chars().filter(|c| !c.is_control()).take(MOST_NAME).collect();
    if name.trim().is_empty() { "A browser".to_owned() } else { name.trim().to_owned() }
}

/// `me`'s devices, oldest first (`push_devices (user_id, id)`).
pub(crate) fn list(conn: &mut DbConnection, me: UserId) -> QueryResult<Vec<PushDevice>> {
    let rows: Vec<DeviceRow> = push_devices::table
        .filter(push_devices::user_id.eq(me))
        .order(push_devices::id)
        .select(DeviceRow::as_select())
        .load(conn)?;
    Ok(rows.into_iter().map(DeviceRow::device).collect())
}

/// One of `me`'s devices (someone else's is not found, as a missing one).
pub(crate) fn one(conn: &mut DbConnection, me: UserId, id: PushDeviceId) -> Result<DeviceRow, NotificationError> {
    push_devices::table
        .filter(push_devices::id.eq(id))
        .filter(push_devices::user_id.eq(me))
        .select(DeviceRow::as_select())
        .first(conn)
        .optional()?
        .ok_or(NotificationError::DeviceNotFound)
}

/// Keeps `sub` as a device of `me` turned on by `session`: answers it, and whether it is new.
/// The same endpoint again (the browser asked once more) is the same device, its keys and
/// session brought up to date and its kinds kept; an endpoint another account had is that
/// browser's now, and moves (its previous person signed out there without turning it off).
pub(crate) fn add(
    conn: &mut DbConnection,
    me: UserId,
    session: SessionId,
    sub: &Subscription,
    name: Option<&str>,
) -> Result<(PushDevice, bool), NotificationError> {
    let (p256dh, auth) = (URL_SAFE_NO_PAD.encode(&sub.p256dh), URL_SAFE_NO_PAD.encode(&sub.auth));
    let existing: Option<DeviceRow> = push_devices::table
        .filter(push_devices::endpoint.eq(&sub.endpoint))
        .select(DeviceRow::as_select())
        .first(conn)
        .optional()?;
    match existing {
        Some(row) if row.user_id == me => {
            diesel::update(push_devices::table.filter(push_devices::id.eq(row.id)))
                .set((
                    push_devices::p256dh.eq(&p256dh),
                    push_devices::auth.eq(&auth),
                    push_devices::session_id.eq(session),
                    push_devices::name.eq(name_of(name)),
                ))
                .execute(conn)?;
            return Ok((one(conn, me, row.id)?.device(), false));
        }
        Some(row) => {
            diesel::delete(push_devices::table.filter(push_devices::id.eq(row.id))).execute(conn)?;
        }
        None => {}
    }
    let count: i64 = push_devices::table.filter(push_devices::user_id.eq(me)).count().get_result(conn)?;
    if count >= MOST_DEVICES {
        return Err(NotificationError::TooManyDevices);
    }
    let row = DeviceRow {
        id: PushDeviceId::generate(),
        user_id: me,
        session_id: session,
        endpoint: sub.endpoint.clone(),
        p256dh,
        auth,
        name: name_of(name),
        mentions: true,
        comments: true,
        listens: true,
        likes: true,
        reposts: true,
        created_at: db::time::now(),
        last_sent_at: None,
    };
    match diesel::insert_into(push_devices::table).values(&row).execute(conn) {
        Ok(_) => Ok((row.device(), true)),
        Err(diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, _)) => {
            Err(NotificationError::Conflict("This device was turned on a moment ago; reload the page.".into()))
        }
        Err(e) => Err(e.into()),
    }
}

/// Turns kinds of one of `me`'s devices on or off.
pub(crate) fn change(
    conn: &mut DbConnection,
    me: UserId,
    id: PushDeviceId,
    change: KindsChange,
) -> Result<PushDevice, NotificationError> {
    let k = change.applied_to(one(conn, me, id)?.kinds());
    diesel::update(push_devices::table.filter(push_devices::id.eq(id)))
        .set((
            push_devices::mentions.eq(k.mentions),
            push_devices::comments.eq(k.comments),
            push_devices::listens.eq(k.listens),
            push_devices::likes.eq(k.likes),
            push_devices::reposts.eq(k.reposts),
        ))
        .execute(conn)?;
    Ok(one(conn, me, id)?.device())
}

/// Removes one of `me`'s devices.
pub(crate) fn remove(conn: &mut DbConnection, me: UserId, id: PushDeviceId) -> Result<(), NotificationError> {
    let gone = diesel::delete(push_devices::table.filter(push_devices::id.eq(id)).filter(push_devices::user_id.eq(me)))
        .execute(conn)?;
    if gone == 0 {
        return Err(NotificationError::DeviceNotFound);
    }
    Ok(())
}

/// What a push job carries.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct PushJob {
    pub device: PushDeviceId,
    /// None for a test message.
    pub notification: Option<NotificationId>,
}

fn job(
    device: PushDeviceId,
    owner: UserId,
    notification: Option<NotificationId>,
    subject: String,
) -> Result<NewJob, NotificationError> {
    let payload = serde_json::to_string(&PushJob { device, notification })
        .map_err(|e| NotificationError::Unexpected(format!("a push job: {e}")))?;
    Ok(NewJob { kind: JobKind::Push, subject, payload, owner: Some(owner) })
}

/// Queues a push of each written notification (id, recipient, kind) to each of its recipient's
/// devices that is told of its kind: one read of the recipients' devices
/// (`push_devices (user_id, id)`), nothing more when none has any.
pub fn queue(conn: &mut DbConnection, written: &[(NotificationId, UserId, Kind)]) -> Result<(), NotificationError> {
    if written.is_empty() {
        return Ok(());
    }
    let mut recipients: Vec<UserId> = written.iter().map(|w| w.1).collect();
    recipients.sort_unstable();
    recipients.dedup();
    let devices: Vec<DeviceRow> = push_devices::table
        .filter(push_devices::user_id.eq_any(&recipients))
        .select(DeviceRow::as_select())
        .load(conn)?;
    for (notification, recipient, kind) in written {
        for device in devices.iter().filter(|d| d.user_id == *recipient && d.kinds().tells(*kind)) {
            let subject = format!("{notification}/{}", device.id);
            db::jobs::enqueue(conn, &job(device.id, *recipient, Some(*notification), subject)?, None)?;
        }
    }
    Ok(())
}

/// Queues a test message to one of `me`'s devices.
pub(crate) fn queue_test(conn: &mut DbConnection, me: UserId, id: PushDeviceId) -> Result<(), NotificationError> {
    let device = one(conn, me, id)?;
    let subject = format!("test/{}/{}", device.id, db::time::now().and_utc().timestamp_millis());
    db::jobs::enqueue(conn, &job(device.id, me, None, subject)?, None)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";

    #[test]
    fn a_subscription_is_checked() {
        let ok = Subscription::parse("https://push.example.net/s/1", KEY, "BTBZMqHH6r4Tts7J_aSIgg", false)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((ok.p256dh.len(), ok.auth.len()), (65, 16));
        assert!(
            Subscription::parse("https://push.example.net/s/1", KEY, "BTBZMqHH6r4Tts7J_aSIgg==", false).is_ok(),
            "padded"
        );
        for (endpoint, key, auth) in [
            ("https://10.0.0.1/s", KEY, "BTBZMqHH6r4Tts7J_aSIgg"),
            ("http://push.example.net/s", KEY, "BTBZMqHH6r4Tts7J_aSIgg"),
            ("not a url", KEY, "BTBZMqHH6r4Tts7J_aSIgg"),
            ("https://push.example.net/s", "AAAA", "BTBZMqHH6r4Tts7J_aSIgg"),
            ("https://push.example.net/s", KEY, "short"),
        ] {
            assert!(matches!(
                Subscription::parse(endpoint, key, auth, false),
                Err(NotificationError::BadSubscription(_))
            ));
        }
        let long = format!("https://push.example.net/{}", "a".repeat(MOST_ENDPOINT));
        assert!(Subscription::parse(&long, KEY, "BTBZMqHH6r4Tts7J_aSIgg", false).is_err());
    }

    #[test]
    fn names_are_trimmed_and_cut() {
        assert_eq!(name_of(Some("  Firefox on Android \n")), "Firefox on Android");
        assert_eq!(name_of(None), "A browser");
        assert_eq!(name_of(Some(&"é".repeat(80))).chars().count(), MOST_NAME);
    }

    #[test]
    fn kinds_change_only_what_is_named() {
        let k = KindsChange { likes: Some(false), ..Default::default() }.applied_to(Kinds::ALL);
        assert!(!k.tells(Kind::Like) && k.tells(Kind::Repost) && k.tells(Kind::Mention));
    }
}
