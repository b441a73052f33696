//! How other servers find our people: WebFinger (`acct:login@host` to the actor) and NodeInfo
//! 2.1 (what software this is, and how many people use it).

use activitypub_federation::FEDERATION_CONTENT_TYPE;
use serde_json::{Value, json};

use crate::{Data, Federation, FederationError, repo};

/// The WebFinger answer for `resource` (`acct:login@host`, or an actor's URL): our person's
/// actor and profile page. Not found for anyone else, or a suspended person.
pub async fn webfinger(data: &Data, resource: &str) -> Result<Value, FederationError> {
    let federation: &Federation = data.app_data();
    let s = federation.settings();
    let user = match resource.strip_prefix("acct:") {
        Some(acct) => {
            let (login, host) = acct.rsplit_once('@').ok_or(FederationError::NotFound)?;
            if !host.eq_ignore_ascii_case(&s.domain()) {
                return Err(FederationError::NotFound);
            }
            let login = login.to_owned();
            federation
                .db
                .run(move |c| Ok::<_, FederationError>(repo::local_by_login(c, &login)?))
                .await?
                .ok_or(FederationError::NotFound)?
        }
        None => url::Url::parse(resource).ok().and_then(|u| s.user_of(&u)).ok_or(FederationError::NotFound)?,
    };
    let actor = federation.local_actor(user).await?.ok_or(FederationError::NotFound)?;
    let login = federation
        .db
        .run(move |c| Ok::<_, FederationError>(repo::local_person(c, user)?))
        .await?
        .ok_or(FederationError::NotFound)?
        .login;
    Ok(json!({
        "subject": format!("acct:{login}@{}", s.domain()),
        "aliases": [actor.id, s.profile_page(user)],
        "links": [
            { "rel": "self", "type": FEDERATION_CONTENT_TYPE, "href": actor.id },
            { "rel": "http://webfinger.net/rel/profile-page", "type": "text/html", "href": s.profile_page(user) },
        ],
    }))
}

/// `/.well-known/nodeinfo`: where the NodeInfo document is.
pub fn nodeinfo_links(federation: &Federation) -> Value {
    let href = federation.settings().origin.join("/nodeinfo/2.1").map(String::from).unwrap_or_default();
    json!({ "links": [{ "rel": "http://nodeinfo.diaspora.software/ns/schema/2.1", "href": href }] })
}

/// NodeInfo 2.1: this software, its protocols, and its people and posts in numbers (read at
/// most once every [`crate::USAGE_KEPT`]: crawlers ask often).
pub async fn nodeinfo(federation: &Federation, version: &str) -> Result<Value, FederationError> {
    let (people, posts) = federation.usage().await?;
    Ok(json!({
        "version": "2.1",
        "software": {
            "name": "selfsound",
            "version": version,
            "homepage": federation.settings().origin.as_str(),
        },
        "protocols": ["activitypub"],
        "services": { "inbound": [], "outbound": [] },
        "openRegistrations": true,
        "usage": {
            "users": { "total": people },
            "localPosts": posts,
        },
        "metadata": { "nodeName": "SelfSound" },
    }))
}
