//! People as actors: ours (`Person`, with a key pair made the first time another server needs
//! it) and those of other servers (kept as `users` rows with where they live, `repo`).

use activitypub_federation::config::Data;
use activitypub_federation::fetch::object_id::ObjectId;
use activitypub_federation::protocol::public_key::PublicKey;
use activitypub_federation::protocol::verification::verify_domains_match;
use activitypub_federation::traits::{Actor as ApActor, Object};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use url::Url;
use values::UserId;

use crate::repo::{self, LocalPerson, NewRemote, RemoteActor};
use crate::settings::host_of;
use crate::{Federation, FederationError};

/// The longest handle (`name@server`) and address we keep from another server.
const MOST_HANDLE: usize = 255;
const MOST_URL: usize = 2048;

/// A person as another server sees them: one of ours, or one of theirs we know.
#[derive(Debug, Clone)]
pub struct Actor {
    /// Their id here.
    pub user: UserId,
    pub id: Url,
    pub inbox: Url,
    pub shared_inbox: Option<Url>,
    pub public_key: String,
    /// Ours only.
    private_key: Option<String>,
    /// When we last read a remote actor; none for ours (never fetched).
    fetched_at: Option<DateTime<Utc>>,
    /// Ours: what their actor document shows.
    person: Option<LocalPerson>,
}

impl Actor {
    pub fn is_local(&self) -> bool {
        self.person.is_some()
    }

    fn remote(row: RemoteActor) -> Result<Actor, FederationError> {
        let url = |s: &str| Url::parse(s).map_err(|e| FederationError::Internal(format!("a kept address: {e}")));
        Ok(Actor {
            user: row.user,
            id: url(&row.ap_id)?,
            inbox: url(&row.inbox)?,
            shared_inbox: row.shared_inbox.as_deref().map(url).transpose()?,
            public_key: row.public_key,
            private_key: None,
            fetched_at: Some(row.fetched_at.and_utc()),
            person: None,
        })
    }
}

/// The JSON-LD context of the documents we serve: ActivityStreams, the security vocabulary
/// (public keys) and the terms Mastodon adds. `Hashtag` and `sensitive` are not in the
/// ActivityStreams context: without their definitions here a JSON-LD reader (Fedify, Misskey)
/// drops a note's hashtags.
pub fn context() -> Value {
    json!([
        "https://www.w3.org/ns/activitystreams",
        "https://w3id.org/security/v1",
        {
            "schema": "http://schema.org#",
            "PropertyValue": "schema:PropertyValue",
            "value": "schema:value",
            "toot": "http://joinmastodon.org/ns#",
            "discoverable": "toot:discoverable",
            "manuallyApprovesFollowers": "as:manuallyApprovesFollowers",
            "Hashtag": "as:Hashtag",
            "sensitive": "as:sensitive"
        }
    ])
}

/// An actor document: what we serve for our people, and what we read of others' (leniently:
/// every field we can do without is optional).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Person {
    /// `Person` for ours; any actor type of theirs (`Service`, `Group`…).
    #[serde(rename = "type")]
    pub kind: String,
    pub id: ObjectId<Actor>,
    pub preferred_username: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<Value>,
    pub inbox: Url,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outbox: Option<Url>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub followers: Option<Url>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub following: Option<Url>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoints: Option<Endpoints>,
    pub public_key: PublicKey,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachment: Vec<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published: Option<DateTime<Utc>>,
    #[serde(default)]
    pub manually_approves_followers: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discoverable: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Endpoints {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_inbox: Option<Url>,
}

/// Text as HTML: escaped, each line its own.
pub(crate) fn paragraph(text: &str) -> String {
    let mut html = String::with_capacity(text.len() + 7);
    html.push_str("<p>");
    for c in text.chars() {
        match c {
            '&' => html.push_str("&amp;"),
            '<' => html.push_str("&lt;"),
            '>' => html.push_str("&gt;"),
            '"' => html.push_str("&quot;"),
            '\n' => html.push_str("<br>"),
            c => html.push(c),
        }
    }
    html.push_str("</p>");
    html
}

impl Federation {
    /// One of our people as an actor, their key pair made if it is not yet: none for nobody,
    /// a person of another server, or a suspended person.
    pub async fn local_actor(&self, user: UserId) -> Result<Option<Actor>, FederationError> {
        let read = move |c: &mut db::DbConnection| -> Result<_, FederationError> {
            let Some(person) = repo::local_person(c, user)? else { return Ok(None) };
            if repo::suspended(c, user)? {
                return Ok(None);
            }
            Ok(Some((person, repo::keys(c, user)?)))
        };
        let Some((person, keys)) = self.db.run(read).await? else { return Ok(None) };
        let (public_key, private_key) = match keys {
            Some(keys) => keys,
            None => {
                // RSA-2048: tens of milliseconds to seconds; on a thread that may block.
                let made = tokio::task::spawn_blocking(activitypub_federation::http_signatures::generate_actor_keypair)
                    .await
                    .map_err(|e| FederationError::Internal(format!("making a key pair: {e}")))??;
                self.db
                    .write(move |c| {
                        repo::keep_keys(c, user, &made.public_key, &made.private_key)?;
                        repo::keys(c, user)?.ok_or(FederationError::Internal("a key pair just kept is missing".into()))
                    })
                    .await?
            }
        };
        Ok(Some(Actor { person: Some(person), ..self.departed_actor(user, public_key, private_key) }))
    }

    /// One of our people as far as signing needs (all a departed account has: its farewell).
    pub(crate) fn departed_actor(&self, user: UserId, public_key: String, private_key: String) -> Actor {
        let s = &self.settings;
        Actor {
            user,
            id: s.actor(user),
            inbox: s.inbox(user),
            shared_inbox: Some(s.shared_inbox()),
            public_key,
            private_key: Some(private_key),
            fetched_at: None,
            person: None,
        }
    }

    /// Our document of one of our people.
    fn person_of(&self, actor: &Actor, person: &LocalPerson) -> Person {
        let s = &self.settings;
        let icon = person.avatar_url.as_deref().map(|url| {
            let url = if url.starts_with('/') {
                format!("{}{url}", s.origin.as_str().trim_end_matches('/'))
            } else {
                url.to_owned()
            };
            json!({ "type": "Image", "url": url })
        });
        let attachment =
            person.tag_id.iter().map(|tag| json!({ "type": "PropertyValue", "name": "Role", "value": tag })).collect();
        Person {
            kind: "Person".into(),
            id: actor.id.clone().into(),
            preferred_username: person.login.clone(),
            name: Some(person.name.clone()),
            summary: person.description.as_deref().filter(|d| !d.is_empty()).map(paragraph),
            url: Some(Value::String(s.profile_page(actor.user))),
            icon,
            inbox: actor.inbox.clone(),
            outbox: Some(s.collection(actor.user, "outbox")),
            followers: Some(s.collection(actor.user, "followers")),
            following: Some(s.collection(actor.user, "following")),
            endpoints: Some(Endpoints { shared_inbox: Some(s.shared_inbox()) }),
            public_key: actor.public_key(),
            attachment,
            published: Some(person.created_at.and_utc()),
            manually_approves_followers: false,
            discoverable: Some(true),
        }
    }
}

/// What we keep of another server's actor document, checked: a plausible handle, addresses of
/// the right scheme and size, a key owned by the actor.
fn remote_from(json: &Person, debug: bool) -> Result<NewRemote, FederationError> {
    let refuse = |why: &str| FederationError::Refused(format!("Actor {}: {why}", json.id.inner()));
    let id = json.id.inner();
    let domain = host_of(id).ok_or_else(|| refuse("no host"))?;
    let handle_ok = !json.preferred_username.is_empty()
        && json.preferred_username.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !handle_ok {
        return Err(refuse("its preferredUsername is not a handle"));
    }
    let login = format!("{}@{domain}", json.preferred_username);
    if login.len() > MOST_HANDLE {
        return Err(refuse("its handle is too long"));
    }
    if json.public_key.owner != *id {
        return Err(refuse("its key belongs to another actor"));
    }
    // A host name, not an address: the library signs for and checks names only.
    let address_ok = |u: &Url| {
        u.as_str().len() <= MOST_URL
            && u.domain().is_some()
            && (u.scheme() == "https" || (debug && u.scheme() == "http"))
    };
    if !address_ok(&json.inbox) {
        return Err(refuse("its inbox is not an address we deliver to"));
    }
    let shared_inbox = json.endpoints.as_ref().and_then(|e| e.shared_inbox.clone()).filter(|u| address_ok(u));
    let link = |v: &Value| -> Option<String> {
        let s = match v {
            Value::String(s) => s.as_str(),
            Value::Object(o) => o.get("href").or_else(|| o.get("url")).and_then(Value::as_str)?,
            _ => return None,
        };
        Url::parse(s).ok().filter(|u| address_ok(u)).map(String::from)
    };
    let name = json
        .name
        .as_deref()
        .map(|n| n.chars().filter(|c| !c.is_control()).collect::<String>())
        .filter(|n| !n.trim().is_empty())
        .map_or_else(|| shortened(&json.preferred_username), |n| shortened(n.trim()));
    Ok(NewRemote {
        ap_id: id.to_string(),
        domain,
        login,
        name,
        avatar_url: json.icon.as_ref().and_then(link),
        inbox: json.inbox.to_string(),
        shared_inbox: shared_inbox.map(String::from),
        public_key: json.public_key.public_key_pem.clone(),
        url: json.url.as_ref().and_then(link),
    })
}

/// A name of another server's as our names are: at most [`values::NAME_MAX`] characters, a
/// longer one cut with an ellipsis.
fn shortened(name: &str) -> String {
    if name.chars().count() <= values::NAME_MAX {
        return name.to_owned();
    }
    let mut short: String = name.chars().take(values::NAME_MAX - 1).collect();
    short.truncate(short.trim_end().len());
    short.push('…');
    short
}

#[async_trait::async_trait]
impl Object for Actor {
    type DataType = Federation;
    type Kind = Person;
    type Error = FederationError;

    fn last_refreshed_at(&self) -> Option<DateTime<Utc>> {
        // Ours are never fetched: as if just read.
        Some(self.fetched_at.unwrap_or_else(Utc::now))
    }

    async fn read_from_id(id: Url, data: &Data<Federation>) -> Result<Option<Actor>, FederationError> {
        let federation = data.app_data();
        if let Some(user) = federation.settings.user_of(&id) {
            return federation.local_actor(user).await;
        }
        let ap_id = id.to_string();
        let row = federation.db.run(move |c| Ok::<_, FederationError>(repo::remote_by_ap_id(c, &ap_id)?)).await?;
        row.map(Actor::remote).transpose()
    }

    async fn into_json(self, data: &Data<Federation>) -> Result<Person, FederationError> {
        match &self.person {
            Some(person) => Ok(data.app_data().person_of(&self, person)),
            None => Err(FederationError::NotFound),
        }
    }

    async fn verify(json: &Person, expected_domain: &Url, data: &Data<Federation>) -> Result<(), FederationError> {
        verify_domains_match(json.id.inner(), expected_domain)?;
        remote_from(json, data.app_data().settings.debug).map(|_| ())
    }

    async fn from_json(json: Person, data: &Data<Federation>) -> Result<Actor, FederationError> {
        let federation = data.app_data();
        if federation.settings.user_of(json.id.inner()).is_some() {
            return Err(FederationError::Refused("Our own people are not read from elsewhere.".into()));
        }
        let new = remote_from(&json, federation.settings.debug)?;
        let ap_id = new.ap_id.clone();
        let row = federation
            .db
            .write(move |c| {
                repo::upsert_remote(c, &new)?;
                repo::remote_by_ap_id(c, &ap_id)?
                    .ok_or(FederationError::Internal("an actor just kept is missing".into()))
            })
            .await?;
        Actor::remote(row)
    }
}

impl ApActor for Actor {
    fn id(&self) -> Url {
        self.id.clone()
    }

    fn public_key_pem(&self) -> &str {
        &self.public_key
    }

    fn private_key_pem(&self) -> Option<String> {
        self.private_key.clone()
    }

    fn inbox(&self) -> Url {
        self.inbox.clone()
    }

    fn shared_inbox(&self) -> Option<Url> {
        self.shared_inbox.clone()
    }
}

impl Federation {
    /// The actor document of one of our people (`GET /ap/users/{id}`): gone for a suspended
    /// person, not found for nobody or a person of another server.
    pub async fn actor_document(&self, data: &crate::Data, user: UserId) -> Result<Value, FederationError> {
        let Some(actor) = self.local_actor(user).await? else { return Err(self.absent(user).await?) };
        let person = actor.clone().into_json(data).await?;
        let document = activitypub_federation::protocol::context::WithContext::new(person, context());
        serde_json::to_value(document).map_err(|e| FederationError::Internal(e.to_string()))
    }

    /// One of a person's collections (`followers`, `following`, `outbox`), as its size.
    pub async fn collection(&self, user: UserId, name: &str) -> Result<Value, FederationError> {
        if !matches!(name, "followers" | "following" | "outbox") {
            return Err(FederationError::NotFound);
        }
        let read = move |c: &mut db::DbConnection| -> Result<_, FederationError> {
            let Some(person) = repo::local_person(c, user)? else { return Ok(None) };
            Ok((!repo::suspended(c, user)?).then_some(person))
        };
        let Some(person) = self.db.run(read).await? else { return Err(self.absent(user).await?) };
        let total = match name {
            "followers" => person.listeners,
            "following" => person.listening,
            _ => person.posts,
        };
        Ok(json!({
            "@context": "https://www.w3.org/ns/activitystreams",
            "id": self.settings.collection(user, name),
            "type": "OrderedCollection",
            "totalItems": total.max(0),
        }))
    }

    /// Why a person has no actor: gone when suspended, else not found.
    async fn absent(&self, user: UserId) -> Result<FederationError, FederationError> {
        let suspended = self.db.run(move |c| Ok::<_, FederationError>(repo::suspended(c, user)?)).await?;
        Ok(if suspended { FederationError::Gone } else { FederationError::NotFound })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn names_of_elsewhere_fit_ours() {
        assert_eq!(shortened("Bob"), "Bob");
        assert_eq!(shortened("Bob of Elsewhere"), "Bob of Elsewhe…");
        assert_eq!(shortened("Johann Sebastian Bach"), "Johann Sebasti…");
        assert_eq!(shortened("Johann Sebastia Bach").chars().count(), values::NAME_MAX);
        assert_eq!(shortened("abcdefghijklm    nop"), "abcdefghijklm…", "no space before the ellipsis");
        assert_eq!(paragraph("a <b> & \"c\"\nd"), "<p>a &lt;b&gt; &amp; &quot;c&quot;<br>d</p>");
    }
}
