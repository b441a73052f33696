//! The Authentication calls of spec §7 over HTTP, on SQLite and on PostgreSQL.

use crate::common::{Options, PASSWORD, spawn_app, spawn_app_with};
use reqwest::{Method, StatusCode};
use serde_json::json;
use test_support::TestDb;

async fn sign_up_verify_sign_in_and_out(db: TestDb) {
    let app = spawn_app(db).await;
    let res = app.sign_up("Ada", "Ada@Example.com", PASSWORD).await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(res.body["email"], "ada@example.com");
    assert!(res.body["message"].is_string());

    let unverified = app.log_in("ada@example.com", PASSWORD).await;
    assert_eq!(unverified.status, StatusCode::FORBIDDEN);
    assert!(unverified.detail().contains("verify"), "{}", unverified.detail());

    let link = app.verification_link("ada@example.com");
    let res = app.client.get(&link).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(res.headers()["location"], format!("{}/app/sign-in#verified=true", app.url));
    let again = app.client.get(&link).send().await.unwrap();
    assert_eq!(again.headers()["location"], format!("{}/app/sign-in#verified=false", app.url), "a link works once");

    let login = app.log_in("ada@example.com", PASSWORD).await;
    assert_eq!(login.status, StatusCode::OK);
    let token = login.body["access_token"].as_str().unwrap().to_owned();

    let me = app.get("/authorization/me", Some(&token)).await;
    assert_eq!(me.status, StatusCode::OK);
    assert!(me.body["id"].is_string(), "ids travel as strings");
    assert_eq!(me.body["name"], "Ada");
    assert_eq!(me.body["login"], "ada");
    for field in ["description", "avatar_url", "tag_id"] {
        assert!(me.body.get(field).is_some(), "{field} is part of the answer");
    }
    assert!(me.headers["cache-control"].to_str().unwrap().contains("no-store"));
    // The web app's way of asking: the same person, and never a 401 for a guest or a dead token.
    let session = app.get("/authorization/session", Some(&token)).await;
    assert_eq!(session.status, StatusCode::OK);
    assert_eq!(session.body["user"], me.body, "the same answer as /authorization/me");
    assert!(session.headers["cache-control"].to_str().unwrap().contains("no-store"));
    let guest = app.get("/authorization/session", None).await;
    assert_eq!((guest.status, &guest.body), (StatusCode::OK, &json!({ "user": null })));

    let out = app.call(Method::POST, "/auth/logout", Some(&token), None).await;
    assert_eq!(out.status, StatusCode::OK);
    assert_eq!(app.get("/authorization/me", Some(&token)).await.status, StatusCode::UNAUTHORIZED, "the session ended");
    let ended = app.get("/authorization/session", Some(&token)).await;
    assert_eq!((ended.status, &ended.body), (StatusCode::OK, &json!({ "user": null })), "an ended session is nobody");

    let token = app.log_in("ada@example.com", PASSWORD).await.body["access_token"].as_str().unwrap().to_owned();
    let out = app.call(Method::POST, "/authorization/logout", Some(&token), None).await;
    assert_eq!(out.status, StatusCode::OK);
    assert_eq!(app.get("/authorization/me", Some(&token)).await.status, StatusCode::UNAUTHORIZED);
}

async fn sign_up_rules_are_enforced_by_the_server(db: TestDb) {
    let app = spawn_app(db).await;
    let weak = app.sign_up("Ada", "ada@example.com", "password").await;
    assert_eq!(weak.status, StatusCode::BAD_REQUEST);
    assert!(weak.detail().contains("Password must include"), "{}", weak.detail());

    let empty = app.sign_up("  ", "ada@example.com", PASSWORD).await;
    assert_eq!((empty.status, empty.detail()), (StatusCode::BAD_REQUEST, "Name cannot be empty"));

    let long = app.sign_up("Sixteen chars xx", "ada@example.com", PASSWORD).await;
    assert_eq!(long.status, StatusCode::BAD_REQUEST);

    let email = app.sign_up("Ada", "not-an-email", PASSWORD).await;
    assert_eq!((email.status, email.detail()), (StatusCode::BAD_REQUEST, "Please enter a valid email address"));
    assert_eq!(app.mail_count(), 0, "nothing was created");
}

async fn repeated_sign_up_is_answered_as_the_spec_says(db: TestDb) {
    let app = spawn_app(db).await;
    app.sign_up("Ada", "ada@example.com", PASSWORD).await;
    let again = app.sign_up("Ada", "ada@example.com", PASSWORD).await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST);
    assert!(again.detail().contains("already exists"));
    assert_eq!(app.mail_count(), 2, "a fresh verification e-mail is sent");

    app.verified_user("Bea", "bea@example.com").await;
    let verified = app.sign_up("Bea", "bea@example.com", PASSWORD).await;
    assert_eq!((verified.status, verified.detail()), (StatusCode::BAD_REQUEST, "User already exists and is verified"));
}

async fn wrong_password_and_unknown_email_get_one_identical_401(db: TestDb) {
    let app = spawn_app(db).await;
    app.verified_user("Ada", "ada@example.com").await;
    let wrong = app.log_in("ada@example.com", "Wrong#Pass1").await;
    let unknown = app.log_in("nobody@example.com", PASSWORD).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert_eq!((wrong.status, wrong.body.clone()), (unknown.status, unknown.body.clone()));
}

async fn resend_verification_waits_three_minutes(db: TestDb) {
    let app = spawn_app(db).await;
    app.sign_up("Ada", "ada@example.com", PASSWORD).await;
    // The sign-up's own e-mail does not start the cooldown; the first resend does.
    let first = app.post("/authorization/resend-verification", None, json!({"email": "ada@example.com"})).await;
    assert_eq!(first.status, StatusCode::OK);
    let res = app.post("/authorization/resend-verification", None, json!({"email": "ada@example.com"})).await;
    assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(res.detail().starts_with("Please wait "), "{}", res.detail());
    let retry: u64 = res.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((170..=180).contains(&retry), "{retry}");

    let other = app.post("/authorization/resend-verification", None, json!({"email": "new@example.com"})).await;
    assert_eq!(other.status, StatusCode::OK);
    let missing = app.post("/authorization/resend-verification", None, json!({})).await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
}

async fn delete_account_removes_it_and_ends_all_sessions(db: TestDb) {
    let app = spawn_app(db).await;
    let a = app.verified_user("Ada", "ada@example.com").await;
    let b = app.log_in("ada@example.com", PASSWORD).await.body["access_token"].as_str().unwrap().to_owned();
    let res = app.call(Method::DELETE, "/authorization/me", Some(&a), None).await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(app.get("/authorization/me", Some(&b)).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.log_in("ada@example.com", PASSWORD).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.call(Method::DELETE, "/authorization/me", None, None).await.status, StatusCode::UNAUTHORIZED);
}

async fn the_token_cookie_authenticates_and_cross_site_writes_are_refused(db: TestDb) {
    let app = spawn_app(db).await;
    let token = app.verified_user("Ada", "ada@example.com").await;
    let cookie = format!("access_token={token}");
    let me = app.raw(app.client.get(format!("{}/authorization/me", app.url)).header("cookie", &cookie)).await;
    assert_eq!(me.status, StatusCode::OK);

    let delete = |origin: Option<&str>| {
        let mut req = app.client.delete(format!("{}/authorization/me", app.url)).header("cookie", &cookie);
        if let Some(o) = origin {
            req = req.header("origin", o);
        }
        req
    };
    let foreign = app.raw(delete(Some("https://evil.example"))).await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN);
    let none = app.raw(delete(None)).await;
    assert_eq!(none.status, StatusCode::FORBIDDEN, "a cookie write without any origin is refused");
    let ours = app.raw(delete(Some(&app.url))).await;
    assert_eq!(ours.status, StatusCode::OK);
}

async fn bad_input_gets_a_4xx_with_a_detail_never_a_5xx(db: TestDb) {
    let app = spawn_app(db).await;
    app.verified_user("Ada", "ada@example.com").await;
    let paths = ["/authorization/signup", "/authorization/logindefault", "/authorization/resend-verification"];
    let huge = "x".repeat(100_000);
    let bodies: Vec<(&str, String)> = vec![
        ("malformed", "{\"email\": ".into()),
        ("not an object", "[1,2,3]".into()),
        ("wrong types", r#"{"email": 5, "password": true, "name": []}"#.into()),
        ("missing fields", "{}".into()),
        ("null", "null".into()),
        ("huge body", format!(r#"{{"email": "{huge}", "password": "{huge}", "name": "{huge}"}}"#)),
        ("long strings", format!(r#"{{"email": "{0}@x.com", "password": "{0}", "name": "{0}"}}"#, "y".repeat(20_000))),
        ("unicode", r#"{"email": "ü@ü.ü", "password": "\u0000\u0001", "name": "\u202e"}"#.into()),
    ];
    for path in paths {
        for (what, body) in &bodies {
            let res = app
                .raw(
                    app.client
                        .post(format!("{}{path}", app.url))
                        .header("content-type", "application/json")
                        .body(body.clone()),
                )
                .await;
            assert!(res.status.is_client_error(), "{path} {what}: {}", res.status);
            assert!(!res.detail().is_empty(), "{path} {what}: a detail is given: {:?}", res.body);
        }
        let text = app.raw(app.client.post(format!("{}{path}", app.url)).body("email=a")).await;
        assert_eq!(text.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{path}");
    }

    let forged = [
        "garbage".to_owned(),
        "a.b.c".to_owned(),
        "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.".to_owned(),
        jsonwebtoken::encode(
            &jsonwebtoken::Header::default(),
            &json!({"sub": "1", "sid": "1", "iat": 0, "exp": 4_000_000_000u64, "iss": "selfsound", "aud": "selfsound-api"}),
            &jsonwebtoken::EncodingKey::from_secret(b"not-the-server-secret-not-the-server"),
        )
        .unwrap(),
        "x".repeat(10_000),
    ];
    for token in &forged {
        let res = app.get("/authorization/me", Some(token)).await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED);
        assert_eq!(res.detail(), "Not authenticated");
    }
    let res =
        app.raw(app.client.get(format!("{}/authorization/me", app.url)).header("authorization", "Basic abc")).await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED);

    let verify =
        app.client.get(format!("{}/authorization/verify?token={}", app.url, "z".repeat(5000))).send().await.unwrap();
    assert_eq!(verify.status(), StatusCode::SEE_OTHER);
    let verify = app.client.get(format!("{}/authorization/verify", app.url)).send().await.unwrap();
    assert_eq!(verify.headers()["location"], format!("{}/app/sign-in#verified=false", app.url));

    let unknown = app.get("/no/such/call", None).await;
    assert_eq!((unknown.status, unknown.detail()), (StatusCode::NOT_FOUND, "Not found"));
}

async fn an_expired_session_is_refused(db: TestDb) {
    let app = spawn_app(db).await;
    let token = app.verified_user("Ada", "ada@example.com").await;
    {
        use db::diesel::prelude::*;
        let mut conn = app.db.get().unwrap();
        let past = db::time::now() - chrono::Duration::hours(1);
        db::diesel::update(db::schema::sessions::table)
            .set(db::schema::sessions::expires_at.eq(past))
            .execute(&mut *conn)
            .unwrap();
    }
    assert_eq!(app.get("/authorization/me", Some(&token)).await.status, StatusCode::UNAUTHORIZED);
}

async fn sign_in_is_throttled_per_client_address(db: TestDb) {
    let throttle =
        auth::ThrottleRules { login_per_client: db::throttle::Rule::per_minutes(3, 5), ..Default::default() };
    let app = spawn_app_with(db, Options { throttle, ..Options::default() }).await;
    for _ in 0..3 {
        assert_eq!(app.log_in("ada@example.com", "Wrong#Pass1").await.status, StatusCode::UNAUTHORIZED);
    }
    let res = app.log_in("ada@example.com", "Wrong#Pass1").await;
    assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(res.detail().starts_with("Too many attempts"));
    assert!(res.headers.contains_key("retry-after"));
}

async fn health_and_openapi_answer(db: TestDb) {
    let app = spawn_app(db).await;
    let health = app.get("/healthz", None).await;
    assert_eq!(health.status, StatusCode::OK);
    assert_eq!(health.body["status"], "ok");
    let doc = app.get("/openapi.json", None).await;
    assert_eq!(doc.status, StatusCode::OK);
    for path in ["/authorization/signup", "/authorization/logindefault", "/authorization/me", "/auth/login"] {
        assert!(doc.body["paths"].get(path).is_some(), "{path} is documented");
    }
    let root = app.client.get(format!("{}/", app.url)).send().await.unwrap();
    assert_eq!((root.status(), root.headers()["location"].to_str().unwrap()), (StatusCode::FOUND, "/app/"));
}

async fn google_sign_in_says_clearly_when_it_is_not_set_up(db: TestDb) {
    let app = spawn_app(db).await;
    let res = app.get("/auth/login?state=x&mobile=false&ios=false", None).await;
    assert_eq!(res.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(res.detail(), "Google sign-in is not set up on this server.");
    assert_eq!(app.get("/auth/providers", None).await.body["google"], false);
}

fn location(res: &reqwest::Response) -> String {
    res.headers()["location"].to_str().unwrap().to_owned()
}

/// The state cookie `GET /auth/login` gives the browser, as a `Cookie` header value.
pub fn state_cookie(start: &reqwest::Response) -> String {
    let set = start
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap())
        .find(|v| v.starts_with("selfsound_oidc_state="))
        .expect("a state cookie");
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax"), "{set}");
    set.split(';').next().unwrap().to_owned()
}

/// Follows a started Google sign-in through the test provider (`approve` or `deny`) back to our
/// callback, as the browser that started it (it brings the state cookie).
async fn through_provider(
    app: &crate::common::TestApp,
    start: &reqwest::Response,
    decision: &str,
) -> reqwest::Response {
    let to = location(start).replace("/authorize?", &format!("/authorize/{decision}?"));
    let back = app.client.get(to).send().await.unwrap();
    app.client.get(location(&back)).header("cookie", state_cookie(start)).send().await.unwrap()
}

/// A test provider signing in as (`sub`, `email`, `name`), and our server configured for it.
async fn app_with_google(
    db: TestDb,
    sub: &str,
    email: &str,
    name: &str,
) -> (crate::oidc_provider::Provider, crate::common::TestApp) {
    let identity = crate::oidc_provider::Identity {
        sub: sub.into(),
        email: email.into(),
        name: name.into(),
        email_verified: true,
    };
    let provider = crate::oidc_provider::Provider::start(0, "client-1", "secret-1", identity);
    let env = vec![
        ("GOOGLE_CLIENT_ID".to_owned(), "client-1".to_owned()),
        ("GOOGLE_CLIENT_SECRET".to_owned(), "secret-1".to_owned()),
        ("OIDC_ISSUER_URL".to_owned(), provider.issuer.clone()),
    ];
    let app = spawn_app_with(db, Options { env, ..Options::default() }).await;
    (provider, app)
}

async fn google_sign_in_end_to_end_against_a_test_provider(db: TestDb) {
    let (provider, app) = app_with_google(db, "sub-123", "gina@example.com", "Gina Google With A Long Name").await;
    assert_eq!(app.get("/auth/providers", None).await.body["google"], true);
    let sign_in_page = format!("{}/app/sign-in", app.url);

    // Start: to the provider, with PKCE, state and nonce.
    let start = app
        .client
        .get(format!("{}/auth/login", app.url))
        .query(&[("state", sign_in_page.as_str()), ("mobile", "false"), ("ios", "false")])
        .send()
        .await
        .unwrap();
    assert_eq!(start.status(), StatusCode::FOUND);
    let to_provider = url::Url::parse(&location(&start)).unwrap();
    assert!(to_provider.as_str().starts_with(&format!("{}/authorize?", provider.issuer)));
    let q: std::collections::HashMap<_, _> = to_provider.query_pairs().into_owned().collect();
    assert_eq!(q["code_challenge_method"], "S256");
    assert_eq!(q["redirect_uri"], format!("{}/auth/callback", app.url));

    // The person approves at the provider, which sends the browser back to our callback.
    let approve = to_provider.as_str().replace("/authorize?", "/authorize/approve?");
    let back = app.client.get(approve).send().await.unwrap();
    let callback = location(&back);
    assert!(callback.starts_with(&format!("{}/auth/callback?", app.url)));
    let cookie = state_cookie(&start);
    let done = app.client.get(&callback).header("cookie", &cookie).send().await.unwrap();
    let landing = url::Url::parse(&location(&done)).unwrap();
    assert_eq!(landing.as_str().split('?').next().unwrap(), sign_in_page);
    let token = landing.query_pairs().find(|(k, _)| k == "token").map(|(_, v)| v.into_owned()).expect("?token=");

    let me = app.get("/authorization/me", Some(&token)).await;
    assert_eq!(me.status, StatusCode::OK);
    assert_eq!(me.body["name"], "Gina Google Wit", "names are cut to 15 characters");
    assert_eq!(me.body["email"], "gina@example.com");
    let first_id = me.body["id"].clone();

    // The callback cannot be replayed: the state was used up.
    let replay = app.client.get(&callback).header("cookie", &cookie).send().await.unwrap();
    assert!(location(&replay).ends_with("?error=google"));

    // Signing in again finds the same user by the provider's subject.
    let again = app.client.get(format!("{}/auth/login", app.url)).send().await.unwrap();
    let done = through_provider(&app, &again, "approve").await;
    let landing = location(&done);
    assert!(landing.starts_with(&format!("{sign_in_page}?token=")), "no state: our own sign-in page ({landing})");
    let token = landing.split("token=").nth(1).unwrap();
    assert_eq!(app.get("/authorization/me", Some(token)).await.body["id"], first_id);

    // A foreign return address is never given a token.
    let evil = app
        .client
        .get(format!("{}/auth/login", app.url))
        .query(&[("state", "https://evil.example/steal")])
        .send()
        .await
        .unwrap();
    let done = through_provider(&app, &evil, "approve").await;
    assert!(location(&done).starts_with(&sign_in_page));

    // Cancelling at the provider comes back as an error on the sign-in page.
    let start = app.client.get(format!("{}/auth/login", app.url)).send().await.unwrap();
    let done = through_provider(&app, &start, "deny").await;
    assert_eq!(location(&done), format!("{sign_in_page}?error=google"));

    // A forged callback is refused.
    let forged = app.client.get(format!("{}/auth/callback?code=x&state=nothing", app.url)).send().await.unwrap();
    assert_eq!(location(&forged), format!("{sign_in_page}?error=google"));
    provider.stop().await;
}

async fn google_sign_in_links_an_account_with_the_same_verified_address(db: TestDb) {
    let (provider, app) = app_with_google(db, "sub-ada", "ada@example.com", "Ada G").await;
    let password_token = app.verified_user("Ada", "ada@example.com").await;
    let start = app.client.get(format!("{}/auth/login", app.url)).send().await.unwrap();
    let done = through_provider(&app, &start, "approve").await;
    let token = location(&done).split("token=").nth(1).unwrap().to_owned();
    let via_google = app.get("/authorization/me", Some(&token)).await.body;
    let via_password = app.get("/authorization/me", Some(&password_token)).await.body;
    assert_eq!(via_google["id"], via_password["id"]);
    assert_eq!(via_google["name"], "Ada", "the existing profile is kept");
    provider.stop().await;
}

/// Google proves the address of an account that was only signed up: the account takes the
/// Google profile's name, and every pending sign-up (an attacker's among them) goes.
async fn google_sign_in_proves_an_unverified_address_and_ends_its_pending_sign_ups(db: TestDb) {
    let (provider, app) = app_with_google(db, "sub-ada", "ada@example.com", "Ada G").await;
    assert_eq!(app.sign_up("Mallory", "ada@example.com", "Attacker#Pass7").await.status, StatusCode::OK);
    let attacker_link = app.verification_link("ada@example.com");
    let start = app.client.get(format!("{}/auth/login", app.url)).send().await.unwrap();
    let done = through_provider(&app, &start, "approve").await;
    let token = location(&done).split("token=").nth(1).unwrap().to_owned();
    assert_eq!(app.get("/authorization/me", Some(&token)).await.body["name"], "Ada G");
    let late = app.client.get(&attacker_link).send().await.unwrap();
    assert!(location(&late).contains("verified=false"), "{}", location(&late));
    assert_eq!(app.log_in("ada@example.com", "Attacker#Pass7").await.status, StatusCode::UNAUTHORIZED);
    provider.stop().await;
}

/// Login CSRF: an attacker starts a sign-in with their own Google account and has the victim's
/// browser open the callback link; without the state cookie of the browser that started it,
/// no token is handed out. A token goes only to a sign-in page of ours.
async fn google_sign_in_finishes_only_in_the_browser_that_started_it(db: TestDb) {
    let (provider, app) = app_with_google(db, "sub-eve", "eve@example.com", "Eve").await;
    let sign_in_page = format!("{}/app/sign-in", app.url);
    let start = app.client.get(format!("{}/auth/login", app.url)).send().await.unwrap();
    let back = app.client.get(location(&start).replace("/authorize?", "/authorize/approve?")).send().await.unwrap();
    let planted = app.client.get(location(&back)).send().await.unwrap();
    assert_eq!(location(&planted), format!("{sign_in_page}?error=google"), "another browser gets no token");
    let wrong = app.client.get(location(&back)).header("cookie", "selfsound_oidc_state=guess").send().await.unwrap();
    assert_eq!(location(&wrong), format!("{sign_in_page}?error=google"));

    for elsewhere in [format!("{}/app/home", app.url), format!("{}/app/profile?x=1", app.url)] {
        let start = app
            .client
            .get(format!("{}/auth/login", app.url))
            .query(&[("state", elsewhere.as_str())])
            .send()
            .await
            .unwrap();
        let done = through_provider(&app, &start, "approve").await;
        assert!(location(&done).starts_with(&format!("{sign_in_page}?token=")), "{elsewhere}: {}", location(&done));
    }
    provider.stop().await;
}

async fn the_web_app_is_served_with_history_fallback(db: TestDb) {
    let web = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(web.path().join("assets")).unwrap();
    std::fs::write(web.path().join("index.html"), "<!doctype html><title>SelfSound</title>").unwrap();
    std::fs::write(web.path().join("assets/app-abc123.js"), "console.log(1)").unwrap();
    std::fs::write(web.path().join("assets/gm-0-abc123.sf3"), vec![7u8; 64 * 1024]).unwrap();
    let env = vec![("SELFSOUND_WEB_DIR".to_owned(), web.path().display().to_string())];
    let app = spawn_app_with(db, Options { env, ..Options::default() }).await;
    for path in ["/app/", "/app/sign-in", "/app/user/123"] {
        let res = app.client.get(format!("{}{path}", app.url)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert_eq!(res.headers()["cache-control"], "no-cache");
        assert!(res.text().await.unwrap().contains("<title>SelfSound</title>"), "{path}");
    }
    let asset = app.client.get(format!("{}/app/assets/app-abc123.js", app.url)).send().await.unwrap();
    assert_eq!(asset.status(), StatusCode::OK);
    assert!(asset.headers()["cache-control"].to_str().unwrap().contains("immutable"));
    assert_eq!(asset.headers()["x-content-type-options"], "nosniff");
    // A SoundFont (Ogg Vorbis inside) is sent as it is, never compressed again on the fly.
    let bank = app
        .client
        .get(format!("{}/app/assets/gm-0-abc123.sf3", app.url))
        .header("accept-encoding", "gzip, br")
        .send()
        .await
        .unwrap();
    assert_eq!(bank.status(), StatusCode::OK);
    assert!(bank.headers()["cache-control"].to_str().unwrap().contains("immutable"));
    assert_ne!(bank.headers().get("content-encoding").map(|v| v.to_str().unwrap()), Some("gzip"));
    assert_eq!(bank.bytes().await.unwrap().len(), 64 * 1024);
}

async fn cors_allows_credentials_only_for_configured_origins(db: TestDb) {
    let env = vec![("CORS_ALLOWED_ORIGINS".to_owned(), "http://localhost:5173".to_owned())];
    let app = spawn_app_with(db, Options { env, ..Options::default() }).await;
    let preflight = |origin: &str| {
        app.client
            .request(Method::OPTIONS, format!("{}/authorization/me", app.url))
            .header("origin", origin)
            .header("access-control-request-method", "GET")
            .header("access-control-request-headers", "authorization")
    };
    let ok = preflight("http://localhost:5173").send().await.unwrap();
    assert!(ok.status().is_success());
    assert_eq!(ok.headers()["access-control-allow-origin"], "http://localhost:5173");
    assert_eq!(ok.headers()["access-control-allow-credentials"], "true");
    let refused = preflight("https://evil.example").send().await.unwrap();
    assert!(refused.headers().get("access-control-allow-origin").is_none());
}

test_support::both_backends!(
    sign_up_verify_sign_in_and_out,
    sign_up_rules_are_enforced_by_the_server,
    repeated_sign_up_is_answered_as_the_spec_says,
    wrong_password_and_unknown_email_get_one_identical_401,
    resend_verification_waits_three_minutes,
    delete_account_removes_it_and_ends_all_sessions,
    the_token_cookie_authenticates_and_cross_site_writes_are_refused,
    bad_input_gets_a_4xx_with_a_detail_never_a_5xx,
    an_expired_session_is_refused,
    sign_in_is_throttled_per_client_address,
    health_and_openapi_answer,
    google_sign_in_says_clearly_when_it_is_not_set_up,
    google_sign_in_end_to_end_against_a_test_provider,
    google_sign_in_links_an_account_with_the_same_verified_address,
    google_sign_in_proves_an_unverified_address_and_ends_its_pending_sign_ups,
    google_sign_in_finishes_only_in_the_browser_that_started_it,
    the_web_app_is_served_with_history_fallback,
    cors_allows_credentials_only_for_configured_origins,
);
