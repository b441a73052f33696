//! Federation (issue 33) against another ActivityPub server on loopback: a small one written in
//! this test with `activitypub_federation` (its own actor, key pair, inbox and signatures), so
//! every exchange is real HTTP with real signatures both ways. It finds one of our people by
//! WebFinger, reads their actor, follows them, is accepted (its inbox verifies our signature by
//! fetching our actor), undoes the follow, is refused across a block, and cannot speak for
//! someone else.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use activitypub_federation::FEDERATION_CONTENT_TYPE;
use activitypub_federation::activity_sending::SendActivityTask;
use activitypub_federation::config::{Data, FederationConfig};
use activitypub_federation::fetch::object_id::ObjectId;
use activitypub_federation::http_signatures::generate_actor_keypair;
use activitypub_federation::protocol::public_key::PublicKey;
use activitypub_federation::protocol::verification::verify_domains_match;
use activitypub_federation::traits::{ActivityHandler, Actor, Object};
use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use reqwest::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use test_support::TestDb;
use url::Url;

use crate::common::{Options, Part, TestApp, spawn_app_with};

type Error = activitypub_federation::error::Error;

/// The other server: its one person, Bob, and what its inbox received.
#[derive(Clone)]
struct Peer {
    bob: PeerActor,
    received: Arc<Mutex<Vec<Value>>>,
    /// Actors read from other servers, kept as Mastodon keeps them: a deleted actor's farewell
    /// is checked against the key kept (its server answers 404 by then).
    known: Arc<Mutex<Vec<PeerActor>>>,
}

#[derive(Debug, Clone)]
struct PeerActor {
    id: Url,
    inbox: Url,
    public_key: String,
    private_key: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PeerPerson {
    #[serde(rename = "type")]
    kind: String,
    id: ObjectId<PeerActor>,
    preferred_username: String,
    #[serde(default)]
    name: Option<String>,
    inbox: Url,
    public_key: PublicKey,
}

#[async_trait::async_trait]
impl Object for PeerActor {
    type DataType = Peer;
    type Kind = PeerPerson;
    type Error = Error;

    async fn read_from_id(id: Url, data: &Data<Peer>) -> Result<Option<Self>, Error> {
        if id == data.bob.id {
            return Ok(Some(data.bob.clone()));
        }
        Ok(data.known.lock().unwrap().iter().find(|a| a.id == id).cloned())
    }

    async fn into_json(self, _: &Data<Peer>) -> Result<PeerPerson, Error> {
        Ok(PeerPerson {
            kind: "Person".into(),
            id: self.id.clone().into(),
            preferred_username: "bob".into(),
            name: Some("Bob of Elsewhere".into()),
            inbox: self.inbox.clone(),
            public_key: self.public_key(),
        })
    }

    async fn verify(json: &PeerPerson, expected: &Url, _: &Data<Peer>) -> Result<(), Error> {
        verify_domains_match(json.id.inner(), expected)
    }

    async fn from_json(json: PeerPerson, data: &Data<Peer>) -> Result<Self, Error> {
        let actor = PeerActor {
            id: json.id.into(),
            inbox: json.inbox,
            public_key: json.public_key.public_key_pem,
            private_key: None,
        };
        let mut known = data.known.lock().unwrap();
        known.retain(|a| a.id != actor.id);
        known.push(actor.clone());
        Ok(actor)
    }
}

impl Actor for PeerActor {
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
}

/// Whatever arrives at Bob's inbox, once its signature holds.
#[derive(Debug, Deserialize, Serialize)]
struct Received {
    id: Url,
    actor: ObjectId<PeerActor>,
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    object: Value,
}

#[async_trait::async_trait]
impl ActivityHandler for Received {
    type DataType = Peer;
    type Error = Error;
    fn id(&self) -> &Url {
        &self.id
    }
    fn actor(&self) -> &Url {
        self.actor.inner()
    }
    async fn verify(&self, _: &Data<Peer>) -> Result<(), Error> {
        Ok(())
    }
    async fn receive(self, data: &Data<Peer>) -> Result<(), Error> {
        let json = serde_json::to_value(&self).map_err(|e| Error::Other(e.to_string()))?;
        data.received.lock().unwrap().push(json);
        Ok(())
    }
}

/// An activity Bob sends, as written.
#[derive(Debug)]
struct Sent {
    id: Url,
    actor: Url,
    json: Value,
}

impl Serialize for Sent {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(s)
    }
}

#[async_trait::async_trait]
impl ActivityHandler for Sent {
    type DataType = Peer;
    type Error = Error;
    fn id(&self) -> &Url {
        &self.id
    }
    fn actor(&self) -> &Url {
        &self.actor
    }
    async fn verify(&self, _: &Data<Peer>) -> Result<(), Error> {
        Ok(())
    }
    async fn receive(self, _: &Data<Peer>) -> Result<(), Error> {
        Ok(())
    }
}

struct Elsewhere {
    config: FederationConfig<Peer>,
    origin: String,
    handle: actix_web::dev::ServerHandle,
}

impl Elsewhere {
    /// Starts the other server on a free port of loopback, named `localhost` (the library
    /// signs for host names, not addresses).
    async fn start() -> Elsewhere {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let origin = format!("http://localhost:{}", listener.local_addr().unwrap().port());
        let keys = generate_actor_keypair().unwrap();
        let bob = PeerActor {
            id: Url::parse(&format!("{origin}/users/bob")).unwrap(),
            inbox: Url::parse(&format!("{origin}/users/bob/inbox")).unwrap(),
            public_key: keys.public_key,
            private_key: Some(keys.private_key),
        };
        let peer = Peer { bob, received: Arc::default(), known: Arc::default() };
        let config = FederationConfig::builder()
            .domain(origin.trim_start_matches("http://"))
            .app_data(peer)
            .debug(true)
            .allow_http_urls(true)
            .build()
            .await
            .unwrap();
        let served = config.clone();
        let server = HttpServer::new(move || {
            App::new()
                .app_data(web::Data::new(served.clone()))
                .route("/users/bob", web::get().to(bob_document))
                .route("/users/bob/inbox", web::post().to(bob_inbox))
        })
        .workers(1)
        .listen(listener)
        .unwrap()
        .run();
        let handle = server.handle();
        tokio::spawn(server);
        Elsewhere { config, origin, handle }
    }

    fn bob(&self) -> &PeerActor {
        &self.config.bob
    }

    fn received(&self) -> Vec<Value> {
        self.config.received.lock().unwrap().clone()
    }

    /// Sends `activity` from Bob to `inbox`, signed with his key.
    async fn send(&self, inbox: &str, activity: Value) {
        let data = self.config.to_request_data();
        let sent = Sent {
            id: Url::parse(activity["id"].as_str().unwrap()).unwrap(),
            actor: self.bob().id.clone(),
            json: activity,
        };
        let tasks =
            SendActivityTask::prepare(&sent, self.bob(), vec![Url::parse(inbox).unwrap()], &data).await.unwrap();
        assert_eq!(tasks.len(), 1, "our inbox is an address the library delivers to");
        for task in tasks {
            task.sign_and_send(&data).await.unwrap();
        }
    }

    /// An activity of Bob's: `kind` of `object`, numbered `n` among his of that kind.
    fn activity(&self, kind: &str, n: u32, object: Value) -> Value {
        json!({
            "@context": "https://www.w3.org/ns/activitystreams",
            "id": format!("{}/activities/{}/{n}", self.origin, kind.to_lowercase()),
            "type": kind,
            "actor": self.bob().id,
            "object": object,
        })
    }

    fn follow(&self, n: u32, object: &str) -> Value {
        json!({
            "@context": "https://www.w3.org/ns/activitystreams",
            "id": format!("{}/activities/follow/{n}", self.origin),
            "type": "Follow",
            "actor": self.bob().id,
            "object": object,
        })
    }

    /// Waits for the activities Bob's inbox holds to number `n`.
    async fn wait_for(&self, n: usize) -> Vec<Value> {
        let start = Instant::now();
        loop {
            let got = self.received();
            if got.len() >= n || start.elapsed() > Duration::from_secs(20) {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

async fn bob_document(data: web::Data<FederationConfig<Peer>>) -> HttpResponse {
    let data = data.to_request_data();
    let person = data.bob.clone().into_json(&data).await.unwrap();
    let document = activitypub_federation::protocol::context::WithContext::new_default(person);
    HttpResponse::Ok().content_type(FEDERATION_CONTENT_TYPE).json(document)
}

async fn bob_inbox(data: web::Data<FederationConfig<Peer>>, request: HttpRequest, body: web::Bytes) -> HttpResponse {
    let data = data.to_request_data();
    match activitypub_federation::actix_web::inbox::receive_activity::<Received, PeerActor, Peer>(request, body, &data)
        .await
    {
        Ok(answer) => answer,
        Err(e) => HttpResponse::Unauthorized().body(e.to_string()),
    }
}

async fn federating(db: TestDb) -> TestApp {
    let options = Options {
        env: vec![("SELFSOUND_FEDERATION".into(), "on".into())],
        public_host: Some("localhost"),
        ..Options::default()
    };
    spawn_app_with(db, options).await
}

async fn federation_finds_follows_and_answers_with_signatures(db: TestDb) {
    let app = federating(db).await;
    let origin = app.url.replace("127.0.0.1", "localhost");
    let host = origin.trim_start_matches("http://").to_owned();
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let elsewhere = Elsewhere::start().await;

    // Found by WebFinger, as a Mastodon user typing @ana@host would.
    let finger =
        app.client.get(format!("{origin}/.well-known/webfinger?resource=acct:ana@{host}")).send().await.unwrap();
    assert_eq!(finger.status(), StatusCode::OK);
    assert_eq!(finger.headers()["content-type"], "application/jrd+json");
    let finger: Value = finger.json().await.unwrap();
    assert_eq!(finger["subject"], format!("acct:ana@{host}"));
    let actor_url = finger["links"][0]["href"].as_str().unwrap().to_owned();
    assert_eq!(actor_url, format!("{origin}/ap/users/{ana_id}"));
    let nobody = app.get(&format!("/.well-known/webfinger?resource=acct:nobody@{host}"), None).await;
    assert_eq!(nobody.status, StatusCode::NOT_FOUND);
    let other_host = app.get("/.well-known/webfinger?resource=acct:ana@elsewhere.example", None).await;
    assert_eq!(other_host.status, StatusCode::NOT_FOUND);

    // Her actor: a Person with a key, an inbox, collections and her profile page.
    let actor = app.client.get(&actor_url).header("Accept", FEDERATION_CONTENT_TYPE).send().await.unwrap();
    assert_eq!(actor.status(), StatusCode::OK);
    assert_eq!(actor.headers()["content-type"], FEDERATION_CONTENT_TYPE);
    let actor: Value = actor.json().await.unwrap();
    assert_eq!(actor["type"], "Person");
    assert_eq!(actor["preferredUsername"], "ana");
    assert_eq!(actor["name"], "Ana");
    assert_eq!(actor["inbox"], format!("{actor_url}/inbox"));
    assert_eq!(actor["endpoints"]["sharedInbox"], format!("{origin}/ap/inbox"));
    assert_eq!(actor["url"], format!("{origin}/app/user/{ana_id}"));
    assert_eq!(actor["publicKey"]["owner"], actor_url.as_str());
    assert!(actor["publicKey"]["publicKeyPem"].as_str().unwrap().starts_with("-----BEGIN PUBLIC KEY-----"));
    assert!(actor.to_string().find("PRIVATE").is_none(), "the private key never leaves: {actor}");
    let again: Value = app.client.get(&actor_url).send().await.unwrap().json().await.unwrap();
    assert_eq!(again["publicKey"], actor["publicKey"], "one key pair, made once");

    let node: Value = app.get("/.well-known/nodeinfo", None).await.body;
    assert_eq!(node["links"][0]["href"], format!("{origin}/nodeinfo/2.1"));
    let info = app.get("/nodeinfo/2.1", None).await;
    assert_eq!(info.body["software"]["name"], "selfsound");
    assert_eq!(info.body["protocols"], json!(["activitypub"]));
    assert_eq!(info.body["usage"]["users"]["total"], 1);

    // Bob follows her: he listens to her now, she is told, and his server gets an Accept signed
    // with her key (his inbox checks it against the key her actor shows).
    elsewhere.send(&format!("{actor_url}/inbox"), elsewhere.follow(1, &actor_url)).await;
    let stats = app.get(&format!("/profiles/{ana_id}/stats"), None).await;
    assert_eq!(stats.body["listeners"], 1, "{:?}", stats.body);
    let told = app.get("/notifications?limit=20&offset=0", Some(&ana)).await.body;
    assert_eq!(told[0]["type"], "listening", "{told:#?}");
    let bob_handle = format!("bob@{}", elsewhere.origin.trim_start_matches("http://"));
    assert_eq!(told[0]["username"], bob_handle.as_str());
    assert_eq!(told[0]["sender_name"], "Bob of Elsewhe…", "a name longer than ours may be, cut");
    let listeners = app.get(&format!("/profiles/{ana_id}/listeners"), None).await.body;
    assert_eq!(listeners["people"][0]["login"], bob_handle.as_str(), "among her listeners by his handle");
    let got = elsewhere.wait_for(1).await;
    assert_eq!(got.len(), 1, "an Accept reaches the follower's server: {got:#?}");
    assert_eq!(got[0]["type"], "Accept");
    assert_eq!(got[0]["actor"], actor_url.as_str());
    assert_eq!(got[0]["object"]["id"], format!("{}/activities/follow/1", elsewhere.origin));
    assert_eq!(got[0]["object"]["type"], "Follow");

    // The same follow again changes nothing but is answered again.
    elsewhere.send(&format!("{origin}/ap/inbox"), elsewhere.follow(1, &actor_url)).await;
    assert_eq!(app.get(&format!("/profiles/{ana_id}/stats"), None).await.body["listeners"], 1);
    assert_eq!(elsewhere.wait_for(2).await.len(), 2);

    // Unsigned, or signed by a key that is not Bob's: refused, and nothing changes.
    let unfollow = json!({
        "@context": "https://www.w3.org/ns/activitystreams",
        "id": format!("{}/activities/undo/1", elsewhere.origin),
        "type": "Undo",
        "actor": elsewhere.bob().id,
        "object": elsewhere.follow(1, &actor_url),
    });
    let unsigned = app
        .client
        .post(format!("{actor_url}/inbox"))
        .header("Content-Type", FEDERATION_CONTENT_TYPE)
        .body(unfollow.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(unsigned.status(), StatusCode::UNAUTHORIZED);
    let forged = forged_by_another_key(&elsewhere, &format!("{actor_url}/inbox"), &unfollow).await;
    assert_eq!(forged, StatusCode::UNAUTHORIZED);
    assert_eq!(app.get(&format!("/profiles/{ana_id}/stats"), None).await.body["listeners"], 1);

    // Not JSON, or no actor: a clear 400.
    let junk = app.client.post(format!("{origin}/ap/inbox")).body("not json").send().await.unwrap();
    assert_eq!(junk.status(), StatusCode::BAD_REQUEST);

    // Undo: he no longer listens.
    elsewhere.send(&format!("{actor_url}/inbox"), unfollow).await;
    assert_eq!(app.get(&format!("/profiles/{ana_id}/stats"), None).await.body["listeners"], 0);

    // She blocks him: his next follow is refused with a Reject.
    let bob_id = bob_id_in(&app, &bob_handle);
    // Following him back from here is the next step of federation; until then it says so.
    let back = app.post(&format!("/profiles/listening/{bob_id}"), Some(&ana), json!({})).await;
    assert_eq!(back.status, StatusCode::BAD_REQUEST);
    assert_eq!(back.detail(), "Listening to people on other servers from here is not possible yet.");
    let blocked = app.post(&format!("/profiles/blocks/{bob_id}"), Some(&ana), json!({})).await;
    assert!(blocked.status.is_success(), "{:?}", blocked.body);
    elsewhere.send(&format!("{actor_url}/inbox"), elsewhere.follow(2, &actor_url)).await;
    assert_eq!(app.get(&format!("/profiles/{ana_id}/stats"), None).await.body["listeners"], 0);
    let got = elsewhere.wait_for(3).await;
    assert_eq!(got.len(), 3, "{got:#?}");
    assert_eq!(got[2]["type"], "Reject");

    elsewhere.handle.stop(false).await;
}

/// Posts `activity` to `inbox` as Bob's but signed with another key: the status our server
/// answers.
async fn forged_by_another_key(elsewhere: &Elsewhere, inbox: &str, activity: &Value) -> StatusCode {
    let other_keys = generate_actor_keypair().unwrap();
    let impostor = PeerActor { private_key: Some(other_keys.private_key), ..elsewhere.bob().clone() };
    let mut builder = FederationConfig::builder();
    builder.domain(elsewhere.config.domain()).app_data((*elsewhere.config).clone()).debug(true).allow_http_urls(true);
    builder.signed_fetch_actor(&impostor);
    let config = builder.build().await.unwrap();
    let data = config.to_request_data();
    let client = reqwest_middleware::ClientWithMiddleware::from(reqwest::Client::new());
    let host = Url::parse(inbox).unwrap();
    let request = client
        .post(inbox)
        .header("Content-Type", FEDERATION_CONTENT_TYPE)
        .header("Host", format!("{}:{}", host.host_str().unwrap(), host.port().unwrap()))
        .header("Date", chrono::Utc::now().format("%a, %d %b %Y %H:%M:%S GMT").to_string());
    let signed = data.sign_request(request, activity.to_string().into()).await.unwrap();
    reqwest::Client::new().execute(signed).await.unwrap().status()
}

fn bob_id_in(app: &TestApp, handle: &str) -> String {
    use db::diesel::prelude::*;
    use db::schema::users;
    let id: values::UserId =
        users::table.filter(users::login.eq(handle)).select(users::id).first(&mut *app.db.get().unwrap()).unwrap();
    id.to_string()
}

/// Bob of the other server follows Ana and waits for her Accept: her actor's address.
async fn followed_by_bob(app: &TestApp, elsewhere: &Elsewhere, ana_id: &str) -> String {
    let origin = app.url.replace("127.0.0.1", "localhost");
    let actor_url = format!("{origin}/ap/users/{ana_id}");
    elsewhere.send(&format!("{origin}/ap/inbox"), elsewhere.follow(1, &actor_url)).await;
    let got = elsewhere.wait_for(1).await;
    assert_eq!(got.last().map(|a| a["type"].clone()), Some(json!("Accept")), "{got:#?}");
    actor_url
}

async fn posts_reach_followers_as_notes_mastodon_shows(db: TestDb) {
    let app = federating(db).await;
    let origin = app.url.replace("127.0.0.1", "localhost");
    let host = origin.trim_start_matches("http://").to_owned();
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (cy, cy_id) = app.person("Cy", "cyd@example.com").await;
    let elsewhere = Elsewhere::start().await;
    let actor_url = followed_by_bob(&app, &elsewhere, &ana_id).await;

    // A track: a Create of a Note with the caption's tag and mention, and the track as audio.
    let parts = [
        Part::file("audio_files", "night.wav", test_support::media::wav(1.0, 440.0, 0.3)),
        Part::text("titles", "Night Take"),
        Part::text("artists", "Ana"),
        Part::text("caption", "First #demo with @cyd <3"),
    ];
    let made = app.post_form("/posts/audio", Some(&ana), &parts).await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    let post = made.body["id"].as_str().unwrap().to_owned();
    let got = elsewhere.wait_for(2).await;
    assert_eq!(got.len(), 2, "{got:#?}");
    let create = &got[1];
    assert_eq!(create["type"], "Create");
    assert_eq!(create["actor"], actor_url.as_str());
    let note = &create["object"];
    assert_eq!(note["type"], "Note");
    assert_eq!(note["id"], format!("{origin}/ap/posts/{post}"));
    assert_eq!(note["attributedTo"], actor_url.as_str());
    assert_eq!(note["url"], format!("{origin}/app/post/{post}"));
    assert_eq!(note["to"], json!(["https://www.w3.org/ns/activitystreams#Public"]));
    let content = note["content"].as_str().unwrap();
    assert!(content.contains("First <a href=\""), "{content}");
    assert!(
        content.contains("/app/tag/demo\" class=\"mention hashtag\" rel=\"tag\">#<span>demo</span></a>"),
        "{content}"
    );
    assert!(content.contains(&format!("/app/user/{cy_id}\" class=\"u-url mention\">@<span>cyd</span>")), "{content}");
    assert!(content.contains("&lt;3"), "the caption is escaped: {content}");
    assert!(content.contains("Night Take — Ana (0:01)"), "{content}");
    let tags = note["tag"].as_array().unwrap();
    assert!(
        tags.contains(&json!({"type": "Hashtag", "href": format!("{origin}/app/tag/demo"), "name": "#demo"})),
        "{tags:?}"
    );
    assert!(
        tags.contains(
            &json!({"type": "Mention", "href": format!("{origin}/ap/users/{cy_id}"), "name": format!("@cyd@{host}")})
        ),
        "{tags:?}"
    );
    let track = &note["attachment"][0];
    assert_eq!(track["type"], "Document");
    assert_eq!(track["mediaType"], "audio/wav");
    assert_eq!(track["name"], "Night Take — Ana");
    let file = app.client.get(track["url"].as_str().unwrap().replace("localhost", "127.0.0.1")).send().await.unwrap();
    assert_eq!(file.status(), StatusCode::OK, "the attachment is served");

    // The same Note when asked for: at its id, and at the post page with ActivityPub's type.
    for path in [format!("/ap/posts/{post}"), format!("/app/post/{post}")] {
        let asked = app
            .client
            .get(format!("{}{path}", app.url))
            .header("Accept", "application/activity+json")
            .send()
            .await
            .unwrap();
        assert_eq!(asked.status(), StatusCode::OK, "{path}");
        assert_eq!(asked.headers()["content-type"], FEDERATION_CONTENT_TYPE);
        let asked: Value = asked.json().await.unwrap();
        assert_eq!(asked["id"], note["id"], "{path}");
        assert_eq!(asked["content"], note["content"], "{path}");
    }
    let page =
        app.client.get(format!("{}/app/post/{post}", app.url)).header("Accept", "text/html").send().await.unwrap();
    assert_ne!(page.headers().get("content-type").map(|v| v.to_str().unwrap()), Some(FEDERATION_CONTENT_TYPE));

    // An edit goes out as an Update of the Note; a delete as a Delete of its Tombstone.
    let edited = app
        .call(reqwest::Method::PATCH, &format!("/posts/{post}"), Some(&ana), Some(json!({"caption": "Final take"})))
        .await;
    assert!(edited.status.is_success(), "{:?}", edited.body);
    let got = elsewhere.wait_for(3).await;
    assert_eq!(got[2]["type"], "Update", "{got:#?}");
    assert_eq!(got[2]["object"]["id"], note["id"]);
    assert!(got[2]["object"]["content"].as_str().unwrap().starts_with("<p>Final take</p>"));
    assert!(got[2]["object"]["updated"].is_string());
    let deleted = app.call(reqwest::Method::DELETE, &format!("/posts/{post}"), Some(&ana), None).await;
    assert!(deleted.status.is_success(), "{:?}", deleted.body);
    let got = elsewhere.wait_for(4).await;
    assert_eq!(got[3]["type"], "Delete", "{got:#?}");
    assert_eq!(got[3]["object"]["id"], note["id"]);
    let gone = app.client.get(format!("{}/ap/posts/{post}", app.url)).send().await.unwrap();
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);

    // A lyrics post: the words with their parts, as the post page labels them.
    app.lyrics_post(&ana, "Harbour").await;
    let got = elsewhere.wait_for(5).await;
    let lyrics = got[4]["object"]["content"].as_str().unwrap();
    assert!(lyrics.contains("<strong>Harbour</strong>") && lyrics.contains("<em>Verse</em><br>la la"), "{lyrics}");

    // An admin removes a post on a complaint: other servers are told it is gone, as when its
    // author deletes it.
    let spam = got[4]["object"]["id"].as_str().unwrap().to_owned();
    let spam_id = spam.rsplit('/').next().unwrap().to_owned();
    let (root, _) = app.person("Mo", "mo.kelly@example.com").await;
    crate::common::make_admin(&app.db, "mo.kelly@example.com");
    let report = app.post("/reports/post", Some(&cy), json!({"post_id": spam_id, "reason": "Spam"})).await;
    assert!(report.status.is_success(), "{:?}", report.body);
    let reports = app.get("/admin/reports", Some(&root)).await.body;
    let resolve = format!("/admin/reports/{}/resolve", reports[0]["id"].as_str().unwrap());
    let removed = app.post(&resolve, Some(&root), json!({"action": "delete_post"})).await;
    assert!(removed.status.is_success(), "{:?}", removed.body);
    let got = elsewhere.wait_for(6).await;
    assert_eq!(got[5]["type"], "Delete", "{got:#?}");
    assert_eq!(got[5]["object"]["id"], spam.as_str());
    assert_eq!(got[5]["object"]["type"], "Tombstone");

    // Ana deletes her account: her follower's server is told, signed with her key (which his
    // server kept: her actor is gone by the time it arrives).
    let bye = app.call(reqwest::Method::DELETE, "/authorization/me", Some(&ana), None).await;
    assert!(bye.status.is_success(), "{:?}", bye.body);
    let got = elsewhere.wait_for(7).await;
    assert_eq!(got.len(), 7, "{got:#?}");
    assert_eq!((got[6]["type"].as_str(), got[6]["object"].as_str()), (Some("Delete"), Some(actor_url.as_str())));
    assert_eq!(got[6]["actor"], actor_url.as_str());
    let gone = app.client.get(&actor_url).header("Accept", FEDERATION_CONTENT_TYPE).send().await.unwrap();
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
    let queued = app.db.db.run(|c| Ok::<_, db::DbError>(db::jobs::figures(c)?)).await.unwrap();
    assert_eq!(queued.queued, 0, "no delivery left holding her key");
    elsewhere.handle.stop(false).await;
}

async fn likes_reposts_and_replies_from_elsewhere(db: TestDb) {
    let app = federating(db).await;
    let origin = app.url.replace("127.0.0.1", "localhost");
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (cyd, cyd_id) = app.person("Cy", "cyd@example.com").await;
    let elsewhere = Elsewhere::start().await;
    let actor_url = followed_by_bob(&app, &elsewhere, &ana_id).await;
    let post = app.lyrics_post(&ana, "Harbour").await["id"].as_str().unwrap().to_owned();
    let note = format!("{origin}/ap/posts/{post}");
    let inbox = format!("{origin}/ap/inbox");
    let activity = |kind: &str, n: u32, object: Value| elsewhere.activity(kind, n, object);
    let counts =
        |body: &Value| (body["likes_count"].clone(), body["reposts_count"].clone(), body["comments_count"].clone());

    // A like and a boost count as ours do, each once however often it arrives.
    let like = activity("Like", 1, json!(note));
    let boost = activity("Announce", 1, json!(note));
    for _ in 0..2 {
        elsewhere.send(&inbox, like.clone()).await;
        elsewhere.send(&inbox, boost.clone()).await;
    }
    let seen = app.get(&format!("/posts/{post}"), Some(&cyd)).await.body;
    assert_eq!(counts(&seen), (json!(1), json!(1), json!(0)), "{seen:#?}");
    let told = app.get("/notifications?limit=20&offset=0", Some(&ana)).await.body;
    assert_eq!(told.as_array().unwrap().len(), 3, "listen, like, repost: {told:#?}");

    // A reply: a comment with his handle, its HTML as text, its mention of Cy telling her, and
    // a mention of someone of his server not taken for one of ours.
    let reply_id = format!("{}/notes/reply-1", elsewhere.origin);
    let reply = json!({
        "id": reply_id,
        "type": "Note",
        "attributedTo": elsewhere.bob().id,
        "inReplyTo": note,
        "content": format!(
            "<p><span class=\"h-card\"><a href=\"{origin}/app/user/{ana_id}\" class=\"u-url mention\">@<span>ana</span></a></span> \
             <span class=\"h-card\"><a href=\"{origin}/ap/users/x\" class=\"u-url mention\">@<span>cyd</span></a></span> \
             <a href=\"{0}/@ana\" class=\"u-url mention\">@<span>ana</span></a> so good &amp; <b>true</b><script>x</script></p>",
            elsewhere.origin
        ),
        "to": ["https://www.w3.org/ns/activitystreams#Public"],
    });
    elsewhere.send(&inbox, activity("Create", 1, reply.clone())).await;
    let comments = app.get(&format!("/posts/{post}/comments?limit=20&offset=0"), None).await.body;
    assert_eq!(comments.as_array().unwrap().len(), 1, "{comments:#?}");
    let comment = &comments[0];
    let elsewhere_host = elsewhere.origin.trim_start_matches("http://");
    assert_eq!(comment["content"], format!("@ana @cyd @ana@{elsewhere_host} so good & truex"));
    let cy_told = app.get("/notifications?limit=20&offset=0", Some(&cyd)).await.body;
    assert_eq!(cy_told[0]["type"], "mention", "{cy_told:#?}");
    assert_eq!(cy_told[0]["username"], format!("bob@{elsewhere_host}"));
    // The same reply again adds nothing; a reply to the reply joins the same post.
    elsewhere.send(&inbox, activity("Create", 1, reply.clone())).await;
    let mut second = reply.clone();
    second["id"] = json!(format!("{}/notes/reply-2", elsewhere.origin));
    second["inReplyTo"] = json!(reply_id);
    second["content"] = json!("<p>and again</p>");
    elsewhere.send(&inbox, activity("Create", 2, second.clone())).await;
    let seen = app.get(&format!("/posts/{post}"), None).await.body;
    assert_eq!(seen["comments_count"], 2, "{seen:#?}");
    // Cy answers here: Bob's server hears it as a reply to the post, by Cy, addressed to him,
    // once (his server follows Ana and took part: one inbox); her edit and delete follow.
    let cy_actor = format!("{origin}/ap/users/{cyd_id}");
    let by_cy = |kind: &'static str| {
        let cy_actor = cy_actor.clone();
        move |got: &Vec<Value>| {
            got.iter().filter(|a| a["type"] == kind && a["actor"] == cy_actor.as_str()).cloned().collect::<Vec<_>>()
        }
    };
    let answered =
        app.post(&format!("/posts/{post}/comments"), Some(&cyd), json!({"content": "@ana thank you #fado"})).await;
    assert!(answered.status.is_success(), "{:?}", answered.body);
    let cy_comment = answered.body["comment"]["id"].as_str().unwrap().to_owned();
    let start = Instant::now();
    while by_cy("Create")(&elsewhere.received()).is_empty() && start.elapsed() < Duration::from_secs(20) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let created = by_cy("Create")(&elsewhere.received());
    assert_eq!(created.len(), 1, "{created:#?}");
    let note_of_cy = &created[0]["object"];
    assert_eq!(note_of_cy["id"], format!("{origin}/ap/comments/{cy_comment}"));
    assert_eq!(note_of_cy["inReplyTo"], note.as_str());
    assert_eq!(note_of_cy["attributedTo"], cy_actor.as_str());
    assert!(note_of_cy["cc"].as_array().unwrap().contains(&json!(elsewhere.bob().id)), "{note_of_cy:#?}");
    assert!(note_of_cy["content"].as_str().unwrap().contains("/tag/fado"), "{note_of_cy:#?}");
    let served = app.client.get(format!("{}/ap/comments/{cy_comment}", app.url)).send().await.unwrap();
    assert_eq!(served.status(), StatusCode::OK);
    assert_eq!(served.json::<Value>().await.unwrap()["attributedTo"], cy_actor.as_str());
    // Bob answers Cy's comment: a comment on the same post.
    let mut to_cy = reply.clone();
    to_cy["id"] = json!(format!("{}/notes/reply-3", elsewhere.origin));
    to_cy["inReplyTo"] = note_of_cy["id"].clone();
    to_cy["content"] = json!("<p>you are welcome</p>");
    elsewhere.send(&inbox, activity("Create", 3, to_cy)).await;
    let comments = app.get(&format!("/posts/{post}/comments?limit=20&offset=0"), None).await.body;
    assert!(comments.as_array().unwrap().iter().any(|c| c["content"] == "you are welcome"), "{comments:#?}");
    let edit = app
        .call(
            reqwest::Method::PATCH,
            &format!("/posts/{post}/comments/{cy_comment}"),
            Some(&cyd),
            Some(json!({"content": "@ana thank you so much"})),
        )
        .await;
    assert!(edit.status.is_success(), "{:?}", edit.body);
    // (An edit told after the comment is gone is not sent: its delete is.)
    let start = Instant::now();
    while by_cy("Update")(&elsewhere.received()).is_empty() && start.elapsed() < Duration::from_secs(20) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let gone =
        app.call(reqwest::Method::DELETE, &format!("/posts/{post}/comments/{cy_comment}"), Some(&cyd), None).await;
    assert!(gone.status.is_success(), "{:?}", gone.body);
    let start = Instant::now();
    while by_cy("Delete")(&elsewhere.received()).is_empty() && start.elapsed() < Duration::from_secs(20) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let updated = by_cy("Update")(&elsewhere.received());
    assert_eq!(updated.len(), 1, "{updated:#?}");
    assert_eq!(updated[0]["object"]["id"], note_of_cy["id"]);
    let deleted = by_cy("Delete")(&elsewhere.received());
    assert_eq!(deleted[0]["object"]["id"], note_of_cy["id"]);
    assert_eq!(deleted[0]["object"]["type"], "Tombstone");
    // Replies from his server are never sent back to it.
    assert!(elsewhere.received().iter().all(|a| a["actor"] != elsewhere.bob().id.as_str()));
    let reply_3 = format!("{}/notes/reply-3", elsewhere.origin);
    elsewhere.send(&inbox, activity("Delete", 3, json!({"id": reply_3, "type": "Tombstone"}))).await;

    // He edits it: its comment's text follows, and Ana, now mentioned, is told.
    let mut edited = second.clone();
    edited["content"] = json!(format!(
        "<p>and again, <a href=\"{origin}/app/user/{ana_id}\" class=\"u-url mention\">@<span>ana</span></a></p>"
    ));
    let told = |body: Value| body.as_array().map_or(0, Vec::len);
    let told_before = told(app.get("/notifications?limit=20&offset=0", Some(&ana)).await.body);
    elsewhere.send(&inbox, activity("Update", 1, edited.clone())).await;
    let texts = |body: &Value| body.as_array().unwrap().iter().map(|c| c["content"].clone()).collect::<Vec<_>>();
    let comments = app.get(&format!("/posts/{post}/comments?limit=20&offset=0"), None).await.body;
    assert!(texts(&comments).contains(&json!("and again, @ana")), "{comments:#?}");
    let told_after = told(app.get("/notifications?limit=20&offset=0", Some(&ana)).await.body);
    assert_eq!(told_after, told_before + 1, "the mention the edit added tells her");
    // Someone else's update of his reply changes nothing.
    let mut forged = edited.clone();
    forged["content"] = json!("<p>not his words</p>");
    forged["attributedTo"] = json!(format!("{}/users/eve", elsewhere.origin));
    elsewhere.send(&inbox, activity("Update", 2, forged)).await;
    let comments = app.get(&format!("/posts/{post}/comments?limit=20&offset=0"), None).await.body;
    assert!(!texts(&comments).contains(&json!("not his words")), "{comments:#?}");

    // Undone and deleted: the like and the repost go, the first reply goes.
    elsewhere.send(&inbox, activity("Undo", 1, like)).await;
    elsewhere.send(&inbox, activity("Undo", 2, boost)).await;
    elsewhere.send(&inbox, activity("Delete", 1, json!({"id": reply_id, "type": "Tombstone"}))).await;
    let seen = app.get(&format!("/posts/{post}"), Some(&cyd)).await.body;
    assert_eq!(counts(&seen), (json!(0), json!(0), json!(1)), "{seen:#?}");
    assert_eq!(
        app.get(&format!("/posts/{post}/comments?limit=20&offset=0"), None).await.body[0]["content"],
        "and again, @ana"
    );
    // He deletes his account: his here goes, with his reply and his listening.
    elsewhere.send(&inbox, activity("Delete", 2, json!(elsewhere.bob().id))).await;
    let seen = app.get(&format!("/posts/{post}"), None).await.body;
    assert_eq!(seen["comments_count"], 0, "{seen:#?}");
    assert_eq!(app.get(&format!("/profiles/{ana_id}/stats"), None).await.body["listeners"], 0);
    let _ = actor_url;
    elsewhere.handle.stop(false).await;
}

async fn moderation_reaches_the_fediverse(db: TestDb) {
    let app = federating(db).await;
    let origin = app.url.replace("127.0.0.1", "localhost");
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (root, _) = app.person("Mo", "mo.kelly@example.com").await;
    crate::common::make_admin(&app.db, "mo.kelly@example.com");
    let elsewhere = Elsewhere::start().await;
    followed_by_bob(&app, &elsewhere, &ana_id).await;
    let elsewhere_host = elsewhere.origin.trim_start_matches("http://").to_owned();
    let bob_id = bob_id_in(&app, &format!("bob@{elsewhere_host}"));
    let post = app.lyrics_post(&ana, "Harbour").await["id"].as_str().unwrap().to_owned();
    let note = format!("{origin}/ap/posts/{post}");
    let inbox = format!("{origin}/ap/inbox");
    let activity = |kind: &str, n: u32, object: Value| elsewhere.activity(kind, n, object);
    let likes = || async { app.get(&format!("/posts/{post}"), None).await.body["likes_count"].clone() };

    // Their report arrives as a complaint by the person who sent it.
    let mut flag = activity("Flag", 1, json!([note, format!("{origin}/ap/users/{ana_id}")]));
    flag["content"] = json!("<p>Spam &amp; more spam</p>");
    elsewhere.send(&inbox, flag).await;
    let reports = app.get("/admin/reports", Some(&root)).await.body;
    assert_eq!(reports.as_array().map(Vec::len), Some(1), "{reports:#?}");
    assert_eq!(reports[0]["reason"], "Other");
    assert_eq!(reports[0]["description"], format!("From {elsewhere_host}: Spam & more spam"));

    // Suspended here, his activities are refused; lifted, they count again.
    let suspended =
        app.post(&format!("/admin/users/{bob_id}/suspend"), Some(&root), json!({"reason": "spam from afar"})).await;
    assert!(suspended.status.is_success(), "{:?}", suspended.body);
    elsewhere.send(&inbox, activity("Like", 1, json!(note))).await;
    assert_eq!(likes().await, 0);
    app.call(reqwest::Method::DELETE, &format!("/admin/users/{bob_id}/suspend"), Some(&root), None).await;
    elsewhere.send(&inbox, activity("Like", 2, json!(note))).await;
    assert_eq!(likes().await, 1);

    // An admin blocks his server: his account here goes with its like and its follow, and
    // nothing more is taken from it.
    let not_admin = app.post("/admin/federation/blocked-domains", Some(&ana), json!({"domain": elsewhere_host})).await;
    assert_eq!(not_admin.status, StatusCode::FORBIDDEN);
    let bad = app.post("/admin/federation/blocked-domains", Some(&root), json!({"domain": "not a server"})).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{:?}", bad.body);
    let blocked = app
        .post("/admin/federation/blocked-domains", Some(&root), json!({"domain": format!("HTTP://{elsewhere_host}/")}))
        .await;
    assert_eq!(blocked.status, StatusCode::CREATED, "{:?}", blocked.body);
    assert_eq!(blocked.body, json!({"domain": elsewhere_host, "accounts_removed": 1}));
    let again = app.post("/admin/federation/blocked-domains", Some(&root), json!({"domain": elsewhere_host})).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(likes().await, 0);
    assert_eq!(app.get(&format!("/profiles/{ana_id}/stats"), None).await.body["listeners"], 0);
    let listed = app.get("/admin/federation/blocked-domains", Some(&root)).await.body;
    assert_eq!(listed[0]["domain"], elsewhere_host.as_str());
    assert_eq!(listed[0]["admin_login"], "mo_kelly");
    elsewhere.send(&inbox, elsewhere.follow(7, &format!("{origin}/ap/users/{ana_id}"))).await;
    elsewhere.send(&inbox, activity("Like", 3, json!(note))).await;
    assert_eq!(likes().await, 0);
    assert_eq!(app.get(&format!("/profiles/{ana_id}/stats"), None).await.body["listeners"], 0);
    let forbidden = app
        .client
        .post(&inbox)
        .header("Content-Type", FEDERATION_CONTENT_TYPE)
        .body(activity("Like", 4, json!(note)).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(forbidden.status(), StatusCode::FORBIDDEN, "refused before anything is fetched or checked");

    // Lifted: taken again.
    let path = format!("/admin/federation/blocked-domains/{elsewhere_host}");
    assert_eq!(app.call(reqwest::Method::DELETE, &path, Some(&root), None).await.status, StatusCode::NO_CONTENT);
    assert_eq!(app.call(reqwest::Method::DELETE, &path, Some(&root), None).await.status, StatusCode::NOT_FOUND);
    elsewhere.send(&inbox, activity("Like", 5, json!(note))).await;
    assert_eq!(likes().await, 1);
    elsewhere.handle.stop(false).await;
}

/// The inbox reads at most 256 KB, and counts each remote actor's and server's activities.
async fn the_inbox_is_bounded(db: TestDb) {
    let options = Options {
        env: vec![
            ("SELFSOUND_FEDERATION".into(), "on".into()),
            ("SELFSOUND_WRITE_LIMITS".into(), "inbox=2:3/1m".into()),
        ],
        public_host: Some("localhost"),
        ..Options::default()
    };
    let app = spawn_app_with(db, options).await;
    let inbox = format!("{}/ap/inbox", app.url);
    let send = |body: String| app.client.post(&inbox).header("Content-Type", FEDERATION_CONTENT_TYPE).body(body).send();
    let huge = json!({"actor": "https://a.example/users/x", "content": "x".repeat(300 * 1024)}).to_string();
    assert_eq!(send(huge).await.unwrap().status(), StatusCode::PAYLOAD_TOO_LARGE);
    let from =
        |actor: &str| json!({"id": format!("{actor}/1"), "type": "Like", "actor": actor, "object": "x"}).to_string();
    // Unsigned: refused, and counted all the same.
    for _ in 0..2 {
        assert_eq!(send(from("https://a.example/users/x")).await.unwrap().status(), StatusCode::UNAUTHORIZED);
    }
    let third = send(from("https://a.example/users/x")).await.unwrap();
    assert_eq!(third.status(), StatusCode::TOO_MANY_REQUESTS, "two an actor");
    assert!(third.headers().contains_key("retry-after"));
    assert_eq!(send(from("https://a.example/users/y")).await.unwrap().status(), StatusCode::UNAUTHORIZED);
    let server_full = send(from("https://a.example/users/z")).await.unwrap();
    assert_eq!(server_full.status(), StatusCode::TOO_MANY_REQUESTS, "three a server");
    assert_eq!(send(from("https://b.example/users/x")).await.unwrap().status(), StatusCode::UNAUTHORIZED);
}

async fn federation_is_off_unless_asked(db: TestDb) {
    let app = crate::common::spawn_app(db).await;
    let (_, ana_id) = app.person("Ana", "ana@example.com").await;
    for path in ["/.well-known/webfinger?resource=acct:ana@localhost", "/nodeinfo/2.1", &format!("/ap/users/{ana_id}")]
    {
        assert_eq!(app.get(path, None).await.status, StatusCode::NOT_FOUND, "{path}");
    }
    let inbox = app.client.post(format!("{}/ap/inbox", app.url)).body("{}").send().await.unwrap();
    assert_eq!(inbox.status(), StatusCode::NOT_FOUND);
}

/// A server that never answers (its connections held open) or answers with a document that
/// is too large or claims to be someone else's: its activities wait at most for the fetch's
/// bounds and are refused (401), it holds at most its share of the process's inbox slots (the
/// next is 429 at once), and everyone else's activities and every local request are answered
/// meanwhile.
async fn a_slow_or_hostile_server_holds_only_its_share(db: TestDb) {
    use base64::Engine;
    use sha2::Digest;
    use tokio::io::AsyncWriteExt;
    let options = Options {
        env: vec![("SELFSOUND_FEDERATION".into(), "on".into())],
        public_host: Some("localhost"),
        ..Options::default()
    };
    let app = spawn_app_with(db, options).await;
    let inbox = format!("{}/ap/inbox", app.url);

    // Silent: takes connections and never says a word.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let silent_port = silent.local_addr().unwrap().port();
    let asked = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counting = asked.clone();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = silent.accept().await {
            held.push(socket);
            counting.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    });
    // Hostile: every document it serves is 2 MB, or claims another server's actor.
    let hostile = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hostile_port = hostile.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = hostile.accept().await {
            tokio::spawn(async move {
                let mut buffer = vec![0u8; 4096];
                let read = tokio::io::AsyncReadExt::read(&mut socket, &mut buffer).await.unwrap_or(0);
                let request = String::from_utf8_lossy(&buffer[..read]).to_string();
                let body = if request.contains("/users/liar") {
                    json!({"id": "https://victim.example/users/ana", "type": "Person", "preferredUsername": "ana",
                        "inbox": "https://victim.example/inbox",
                        "publicKey": {"id": "https://victim.example/users/ana#main-key", "owner": "https://victim.example/users/ana",
                            "publicKeyPem": "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----"}})
                    .to_string()
                } else {
                    format!("{{\"id\": \"{}\"}}", "x".repeat(2 * 1024 * 1024))
                };
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/activity+json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(body.as_bytes()).await;
            });
        }
    });

    let activity = |port: u16, who: &str, n: u32| {
        let actor = format!("http://localhost:{port}/users/{who}");
        json!({"id": format!("http://localhost:{port}/a/{who}/{n}"), "type": "Like", "actor": actor,
            "object": format!("http://localhost:{}/ap/posts/1", app.url.rsplit(':').next().unwrap())})
        .to_string()
    };
    let send = |body: String| {
        let actor = serde_json::from_str::<Value>(&body).unwrap()["actor"].as_str().unwrap().to_owned();
        let digest =
            format!("SHA-256={}", base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(&body)));
        let signature = format!(
            "keyId=\"{actor}#main-key\",algorithm=\"rsa-sha256\",headers=\"(request-target) host date digest\",signature=\"AAAA\""
        );
        app.client
            .post(&inbox)
            .header("Content-Type", FEDERATION_CONTENT_TYPE)
            .header("Date", chrono::Utc::now().format("%a, %d %b %Y %H:%M:%S GMT").to_string())
            .header("Digest", digest)
            .header("Signature", signature)
            .body(body)
            .send()
    };

    // A document too large, or one that says it is someone else: refused, not read whole.
    assert_eq!(send(activity(hostile_port, "big", 1)).await.unwrap().status(), StatusCode::UNAUTHORIZED);
    assert_eq!(send(activity(hostile_port, "liar", 1)).await.unwrap().status(), StatusCode::UNAUTHORIZED);

    // The silent server's activities wait on it, each holding a slot: four at most.
    let waiting: Vec<_> = (0..4u32)
        .map(|n| {
            let request = send(activity(silent_port, &format!("p{n}"), n));
            tokio::spawn(async move { request.await.map(|r| r.status()) })
        })
        .collect();
    // Once all four wait on it (it has their four fetches), a fifth is turned away at once.
    while asked.load(std::sync::atomic::Ordering::SeqCst) < 4 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let fifth = send(activity(silent_port, "p9", 100)).await.unwrap();
    assert_eq!(fifth.status(), StatusCode::TOO_MANY_REQUESTS, "the server's fifth at once is turned away");
    assert!(fifth.headers().contains_key("retry-after"));
    // Meanwhile everyone else is answered: another server's activity, and a page of ours.
    assert_eq!(send(activity(hostile_port, "big", 2)).await.unwrap().status(), StatusCode::UNAUTHORIZED);
    assert_eq!(app.get("/posts/feed?limit=10&offset=0", None).await.status, StatusCode::OK);
    let finished = waiting.iter().filter(|w| w.is_finished()).count();
    let mut statuses = Vec::new();
    for w in waiting {
        statuses.push(w.await.unwrap().unwrap());
    }
    assert_eq!(finished, 0, "the silent server's four are still waiting: {statuses:?}");
    for status in statuses {
        assert_eq!(status, StatusCode::UNAUTHORIZED, "given up on after the fetch's time");
    }
}

/// A farewell that cannot be delivered is given up on without keeping the key it carried.
async fn an_undelivered_farewell_keeps_no_key(db: TestDb) {
    use db::diesel::prelude::*;
    use db::schema::jobs;
    let app = federating(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let elsewhere = Elsewhere::start().await;
    followed_by_bob(&app, &elsewhere, &ana_id).await;
    // His server is gone: nothing answers at his inbox any more.
    elsewhere.handle.stop(false).await;
    let bye = app.call(reqwest::Method::DELETE, "/authorization/me", Some(&ana), None).await;
    assert!(bye.status.is_success(), "{:?}", bye.body);
    let mut c = app.db.get().unwrap();
    let farewell = || jobs::table.filter(jobs::subject.like("%#delete %"));
    let carried: String = farewell().select(jobs::payload).first(&mut c).expect("a farewell is queued");
    assert!(carried.contains("PRIVATE KEY"), "it carries her key to sign with");
    // Once its first try has failed (it waits for its backoff), its last try, at once.
    let start = Instant::now();
    loop {
        let set = db::diesel::update(farewell().filter(jobs::state.eq("queued")).filter(jobs::attempts.ge(1)))
            .set((jobs::attempts.eq(db::jobs::MOST_ATTEMPTS - 1), jobs::run_after.eq(db::time::now())))
            .execute(&mut c)
            .unwrap();
        if set == 1 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "the farewell's first try did not happen");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let start = Instant::now();
    loop {
        let (state, payload): (String, String) =
            farewell().select((jobs::state, jobs::payload)).first(&mut c).expect("the farewell is kept");
        if state == "failed" {
            assert!(!payload.contains("PRIVATE KEY"), "{payload}");
            assert!(payload.contains("\"type\":\"Delete\""), "the rest of it is kept: {payload}");
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "the farewell was not tried: {state}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

test_support::both_backends!(
    federation_finds_follows_and_answers_with_signatures,
    posts_reach_followers_as_notes_mastodon_shows,
    likes_reposts_and_replies_from_elsewhere,
    moderation_reaches_the_fediverse,
    the_inbox_is_bounded,
    a_slow_or_hostile_server_holds_only_its_share,
    an_undelivered_farewell_keeps_no_key,
    federation_is_off_unless_asked
);
