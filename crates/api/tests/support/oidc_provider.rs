//! A small OpenID Connect provider for tests: discovery, an approval page, the token endpoint
//! (checking client secret, redirect URI and PKCE) and a JWKS. ID tokens are RS256, signed with
//! a test key kept beside this file. Used by the API tests and, through the `oidc_provider`
//! example, by the browser tests.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use actix_web::{App, HttpResponse, HttpServer, web};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde::Deserialize;

const KEY_PEM: &str = include_str!("oidc-test-key.pem");
const KEY_N: &str = include_str!("oidc-test-key.n");
pub const KEY_ID: &str = "selfsound-test-key";

#[derive(Clone, Debug)]
pub struct Identity {
    pub sub: String,
    pub email: String,
    pub name: String,
    pub email_verified: bool,
}

#[derive(Clone)]
struct Pending {
    nonce: String,
    challenge: String,
    client_id: String,
    redirect_uri: String,
}

struct Inner {
    issuer: String,
    client_id: String,
    client_secret: String,
    identity: Mutex<Identity>,
    codes: Mutex<HashMap<String, Pending>>,
}

pub struct Provider {
    pub issuer: String,
    inner: Arc<Inner>,
    handle: actix_web::dev::ServerHandle,
}

impl Provider {
    /// Starts on `port` (0 for any free one).
    pub fn start(port: u16, client_id: &str, client_secret: &str, identity: Identity) -> Provider {
        let listener = TcpListener::bind(("127.0.0.1", port)).expect("bind the test provider");
        let issuer = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let inner = Arc::new(Inner {
            issuer: issuer.clone(),
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            identity: Mutex::new(identity),
            codes: Mutex::new(HashMap::new()),
        });
        let data = web::Data::from(inner.clone());
        let server = HttpServer::new(move || {
            App::new()
                .app_data(data.clone())
                .route("/.well-known/openid-configuration", web::get().to(discovery))
                .route("/authorize", web::get().to(authorize))
                .route("/authorize/approve", web::get().to(approve))
                .route("/authorize/deny", web::get().to(deny))
                .route("/token", web::post().to(token))
                .route("/jwks", web::get().to(jwks))
        })
        .workers(1)
        .listen(listener)
        .expect("listen")
        .run();
        let handle = server.handle();
        tokio::spawn(server);
        Provider { issuer, inner, handle }
    }

    /// Whom the next approval signs in as.
    pub fn set_identity(&self, identity: Identity) {
        *self.inner.identity.lock().unwrap() = identity;
    }

    pub async fn stop(&self) {
        self.handle.stop(false).await;
    }
}

async fn discovery(p: web::Data<Inner>) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({
        "issuer": p.issuer,
        "authorization_endpoint": format!("{}/authorize", p.issuer),
        "token_endpoint": format!("{}/token", p.issuer),
        "jwks_uri": format!("{}/jwks", p.issuer),
        "response_types_supported": ["code"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "code_challenge_methods_supported": ["S256"],
    }))
}

#[derive(Deserialize)]
struct AuthorizeQuery {
    response_type: String,
    client_id: String,
    redirect_uri: String,
    scope: String,
    state: String,
    nonce: String,
    code_challenge: String,
    code_challenge_method: String,
}

fn check_authorize(p: &Inner, q: &AuthorizeQuery) -> Result<(), String> {
    if q.response_type != "code" || !q.scope.split(' ').any(|s| s == "openid") {
        return Err("unsupported request".into());
    }
    if q.client_id != p.client_id {
        return Err("unknown client".into());
    }
    if q.code_challenge_method != "S256" || q.code_challenge.len() < 43 || q.state.is_empty() || q.nonce.is_empty() {
        return Err("PKCE S256, state and nonce are required".into());
    }
    Ok(())
}

/// The page a person sees at the provider: who they will sign in as, and two buttons.
async fn authorize(p: web::Data<Inner>, q: web::Query<AuthorizeQuery>, req: actix_web::HttpRequest) -> HttpResponse {
    if let Err(e) = check_authorize(&p, &q) {
        return HttpResponse::BadRequest().body(e);
    }
    let identity = p.identity.lock().unwrap().clone();
    let query = req.query_string();
    HttpResponse::Ok().content_type("text/html; charset=utf-8").body(format!(
        "<!doctype html><title>Test provider</title><h1>Sign in with the test provider</h1>\
         <p>Continue to SelfSound as <b>{}</b> ({})?</p>\
         <p><a id=\"approve\" href=\"/authorize/approve?{query}\">Continue</a> \
         <a id=\"deny\" href=\"/authorize/deny?{query}\">Cancel</a></p>",
        identity.name, identity.email
    ))
}

async fn approve(p: web::Data<Inner>, q: web::Query<AuthorizeQuery>) -> HttpResponse {
    if let Err(e) = check_authorize(&p, &q) {
        return HttpResponse::BadRequest().body(e);
    }
    let code = auth::oidc::random_token();
    p.codes.lock().unwrap().insert(
        code.clone(),
        Pending {
            nonce: q.nonce.clone(),
            challenge: q.code_challenge.clone(),
            client_id: q.client_id.clone(),
            redirect_uri: q.redirect_uri.clone(),
        },
    );
    let mut to = url::Url::parse(&q.redirect_uri).unwrap();
    to.query_pairs_mut().append_pair("code", &code).append_pair("state", &q.state);
    HttpResponse::Found().insert_header(("Location", to.to_string())).finish()
}

async fn deny(q: web::Query<AuthorizeQuery>) -> HttpResponse {
    let mut to = url::Url::parse(&q.redirect_uri).unwrap();
    to.query_pairs_mut().append_pair("error", "access_denied").append_pair("state", &q.state);
    HttpResponse::Found().insert_header(("Location", to.to_string())).finish()
}

#[derive(Deserialize)]
struct TokenForm {
    grant_type: String,
    code: String,
    redirect_uri: String,
    client_id: String,
    client_secret: String,
    code_verifier: String,
}

async fn token(p: web::Data<Inner>, f: web::Form<TokenForm>) -> HttpResponse {
    let bad = |what: &str| {
        HttpResponse::BadRequest().json(serde_json::json!({"error": "invalid_grant", "error_description": what}))
    };
    let Some(pending) = p.codes.lock().unwrap().remove(&f.code) else { return bad("unknown or used code") };
    if f.grant_type != "authorization_code" || f.client_id != p.client_id || f.client_secret != p.client_secret {
        return bad("client authentication failed");
    }
    if f.redirect_uri != pending.redirect_uri || f.client_id != pending.client_id {
        return bad("redirect_uri mismatch");
    }
    if auth::oidc::pkce_challenge(&f.code_verifier) != pending.challenge {
        return bad("PKCE verification failed");
    }
    let identity = p.identity.lock().unwrap().clone();
    let now = chrono::Utc::now().timestamp();
    let claims = serde_json::json!({
        "iss": p.issuer, "sub": identity.sub, "aud": p.client_id, "iat": now, "exp": now + 600,
        "nonce": pending.nonce, "email": identity.email, "email_verified": identity.email_verified,
        "name": identity.name,
    });
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(KEY_ID.into());
    let key = EncodingKey::from_rsa_pem(KEY_PEM.as_bytes()).unwrap();
    let id_token = jsonwebtoken::encode(&header, &claims, &key).unwrap();
    HttpResponse::Ok().json(serde_json::json!({
        "access_token": auth::oidc::random_token(), "token_type": "Bearer", "expires_in": 600, "id_token": id_token,
    }))
}

async fn jwks() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({"keys": [{
        "kty": "RSA", "use": "sig", "alg": "RS256", "kid": KEY_ID, "n": KEY_N.trim(), "e": "AQAB",
    }]}))
}
