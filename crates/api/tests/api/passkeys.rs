//! Passkeys (issue 36; docs/security.md, "Passkeys") as far as a client without an
//! authenticator sees them: the options asked (a discoverable credential with user
//! verification, for the password again), ceremonies good once, answers that do not verify
//! refused, passkeys of other accounts out of reach, and no passkeys at all on a server reached
//! by an IP address. The ceremonies themselves run in Chromium with its virtual authenticator
//! (frontend/e2e/passkeys.spec.ts).

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;

use crate::common::{Options, PASSWORD, TestApp, spawn_app, spawn_app_with};

async fn on_localhost(db: TestDb) -> TestApp {
    spawn_app_with(db, Options { public_host: Some("localhost"), ..Options::default() }).await
}

/// A made-up answer of an authenticator: well formed, signed by nobody.
fn forged(kind: &str) -> Value {
    let b64 = "AAAAAAAAAAAAAAAAAAAAAA";
    let response = if kind == "create" {
        json!({"attestationObject": b64, "clientDataJSON": b64})
    } else {
        json!({"authenticatorData": b64, "clientDataJSON": b64, "signature": b64, "userHandle": "AAAAAAAAAAAAAAAAAAAAAQ"})
    };
    json!({"id": b64, "rawId": b64, "type": "public-key", "response": response, "clientExtensionResults": {}})
}

async fn passkeys_are_asked_for_with_the_password_and_checked(db: TestDb) {
    let app = on_localhost(db).await;
    let ana = app.verified_user("Ana", "ana@example.com").await;
    let listed = app.get("/authorization/passkeys", Some(&ana)).await;
    assert_eq!((listed.status, listed.body.clone()), (StatusCode::OK, json!([])));

    // The password again: a session alone cannot add a way in.
    let wrong = app.post("/authorization/passkeys/options", Some(&ana), json!({"password": "Wrong#Pass1"})).await;
    assert_eq!((wrong.status, wrong.detail()), (StatusCode::BAD_REQUEST, "Current password is incorrect"));
    let asked = app.post("/authorization/passkeys/options", Some(&ana), json!({"password": PASSWORD})).await;
    assert_eq!(asked.status, StatusCode::OK, "{:?}", asked.body);
    assert_eq!(asked.headers["cache-control"], "no-store");
    let options = &asked.body["public_key"];
    assert_eq!(options["rp"]["id"], "localhost");
    assert_eq!(options["user"]["name"], "ana@example.com");
    assert_eq!(options["authenticatorSelection"]["residentKey"], "required", "{options}");
    assert_eq!(options["authenticatorSelection"]["userVerification"], "required");
    assert!(options["challenge"].as_str().unwrap().len() >= 43, "32 random bytes at least");
    let ceremony = asked.body["ceremony"].as_str().unwrap().to_owned();

    // An answer that does not verify is refused, and the ceremony is spent.
    let body = json!({"ceremony": ceremony, "name": "Phone", "credential": forged("create")});
    let refused = app.post("/authorization/passkeys", Some(&ana), body.clone()).await;
    assert_eq!(
        (refused.status, refused.detail()),
        (StatusCode::UNAUTHORIZED, "That passkey could not be verified. Please try again.")
    );
    let again = app.post("/authorization/passkeys", Some(&ana), body).await;
    assert_eq!(
        (again.status, again.detail()),
        (StatusCode::BAD_REQUEST, "That passkey request has expired. Please try again.")
    );

    // Another account cannot finish Ana's ceremony.
    let bob = app.verified_user("Bob", "bob@example.com").await;
    let anas = app.post("/authorization/passkeys/options", Some(&ana), json!({"password": PASSWORD})).await;
    let stolen = json!({"ceremony": anas.body["ceremony"], "name": "Mine now", "credential": forged("create")});
    let taken = app.post("/authorization/passkeys", Some(&bob), stolen).await;
    assert_eq!(taken.status, StatusCode::BAD_REQUEST);
    // ... nor spend it: it still answers Ana (here with her answer refused).
    let hers = json!({"ceremony": anas.body["ceremony"], "name": "Phone", "credential": forged("create")});
    assert_eq!(app.post("/authorization/passkeys", Some(&ana), hers).await.status, StatusCode::UNAUTHORIZED);
    // Names are checked before anything else is spent.
    let unnamed = json!({"ceremony": anas.body["ceremony"], "name": "  ", "credential": forged("create")});
    let refused = app.post("/authorization/passkeys", Some(&ana), unnamed).await;
    assert_eq!(
        (refused.status, refused.detail()),
        (StatusCode::BAD_REQUEST, "Passkey name must be 1 to 60 characters")
    );

    // Someone else's passkey, or none: not found.
    let path = "/authorization/passkeys/123456789";
    assert_eq!(
        app.call(Method::PATCH, path, Some(&ana), Some(json!({"name": "x"}))).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(app.call(Method::DELETE, path, Some(&ana), None).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get("/authorization/passkeys", None).await.status, StatusCode::UNAUTHORIZED);
}

async fn a_passkey_sign_in_is_a_challenge_signed_once(db: TestDb) {
    let app = on_localhost(db).await;
    app.verified_user("Ana", "ana@example.com").await;
    let asked = app.post("/authorization/passkey-sign-in/options", None, json!({})).await;
    assert_eq!(asked.status, StatusCode::OK, "{:?}", asked.body);
    let options = &asked.body["public_key"];
    assert_eq!(options["rpId"], "localhost");
    assert_eq!(options["userVerification"], "required");
    assert!(
        options.get("allowCredentials").is_none_or(|c| c.as_array().is_some_and(Vec::is_empty)),
        "the browser offers them"
    );
    assert!(asked.body.get("mediation").is_none());

    let body = json!({"ceremony": asked.body["ceremony"], "credential": forged("get")});
    let refused = app.post("/authorization/passkey-sign-in", None, body.clone()).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{:?}", refused.body);
    assert!(refused.headers.get("set-cookie").is_none());
    let again = app.post("/authorization/passkey-sign-in", None, body).await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST, "a ceremony is good once");
    let unknown =
        app.post("/authorization/passkey-sign-in", None, json!({"ceremony": "42", "credential": forged("get")})).await;
    assert_eq!(
        (unknown.status, unknown.detail()),
        (StatusCode::BAD_REQUEST, "That passkey request has expired. Please try again.")
    );
    let malformed =
        app.post("/authorization/passkey-sign-in", None, json!({"ceremony": "x", "credential": {"id": 1}})).await;
    assert!(malformed.status.is_client_error(), "{:?}", malformed.body);
}

/// Reached by an IP address, a server has no domain to tie passkeys to: they are off, and say so.
async fn passkeys_need_a_domain_name(db: TestDb) {
    let app = spawn_app(db).await;
    let ana = app.verified_user("Ana", "ana@example.com").await;
    let off = app.post("/authorization/passkey-sign-in/options", None, json!({})).await;
    assert_eq!(
        (off.status, off.detail()),
        (StatusCode::SERVICE_UNAVAILABLE, "Passkeys are not available on this server.")
    );
    let off = app.post("/authorization/passkeys/options", Some(&ana), json!({"password": PASSWORD})).await;
    assert_eq!(off.status, StatusCode::SERVICE_UNAVAILABLE);
}

test_support::both_backends!(
    passkeys_are_asked_for_with_the_password_and_checked,
    a_passkey_sign_in_is_a_challenge_signed_once,
    passkeys_need_a_domain_name
);
