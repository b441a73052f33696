//! Each finding of the attacker's review (docs/security.md), reproduced against the real
//! server, on SQLite and on PostgreSQL; and the password and session features that come with it.

use std::io::{Read, Write};
use std::time::Duration;

use crate::common::{Options, PASSWORD, TestApp, spawn_app, spawn_app_with};
use db::throttle::Rule;
use reqwest::{Method, StatusCode};
use serde_json::json;
use test_support::TestDb;

fn env(vars: &[(&str, &str)]) -> Vec<(String, String)> {
    vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

/// A server that trusts the loopback proxy in front of it (the tests are that proxy).
async fn behind_proxy(db: TestDb, throttle: auth::ThrottleRules) -> TestApp {
    spawn_app_with(
        db,
        Options { env: env(&[("SELFSOUND_TRUSTED_PROXIES", "127.0.0.1/32, ::1")]), throttle, ..Options::default() },
    )
    .await
}

impl TestApp {
    async fn post_from(&self, path: &str, forwarded_for: &str, body: serde_json::Value) -> crate::common::Answer {
        crate::common::mail_clock_tick().await;
        self.raw(self.client.post(format!("{}{path}", self.url)).header("x-forwarded-for", forwarded_for).json(&body))
            .await
    }

    fn newest_link(&self, email: &str, marker: &str) -> String {
        let mut mails: Vec<_> = std::fs::read_dir(self.mail_dir()).unwrap().flatten().map(|e| e.path()).collect();
        mails.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
        let text = mails
            .iter()
            .rev()
            .map(|p| std::fs::read_to_string(p).unwrap().replace("=\r\n", "").replace("=3D", "="))
            .find(|t| t.contains(&format!("To: {email}")) && t.contains(marker))
            .expect("an e-mail to this address");
        let start = text.find(marker).expect("a link");
        let begin = text[..start].rfind("http").unwrap();
        text[begin..].chars().take_while(|c| !c.is_whitespace() && *c != '"' && *c != '<').collect()
    }

    /// The token of the newest password-reset e-mail to `email`.
    async fn reset_token(&self, email: &str) -> String {
        for _ in 0..50 {
            let mails = std::fs::read_dir(self.mail_dir()).map(|d| d.flatten().count()).unwrap_or(0);
            if mails > 0
                && std::fs::read_dir(self.mail_dir()).unwrap().flatten().any(|e| {
                    let t = std::fs::read_to_string(e.path()).unwrap_or_default();
                    t.contains(&format!("To: {email}")) && t.contains("reset-password")
                })
            {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let link = self.newest_link(email, "reset-password#token=");
        link.split("#token=").nth(1).unwrap().to_owned()
    }
}

/// High: a repeated sign-up replaced the password of an unverified account, so an attacker's
/// password was the one that worked once the owner verified.
async fn a_repeated_sign_up_never_changes_the_password(db: TestDb) {
    let app = spawn_app(db).await;
    assert_eq!(app.sign_up("Owner", "owner@example.com", PASSWORD).await.status, StatusCode::OK);
    let link = app.verification_link("owner@example.com");
    let attacker = app.sign_up("Mallory", "owner@example.com", "Attacker#Pass7").await;
    assert_eq!(attacker.status, StatusCode::BAD_REQUEST);
    assert!(attacker.detail().contains("already exists"), "{}", attacker.detail());
    assert_eq!(app.client.get(&link).send().await.unwrap().status(), StatusCode::SEE_OTHER, "the owner's link works");
    assert_eq!(app.log_in("owner@example.com", "Attacker#Pass7").await.status, StatusCode::UNAUTHORIZED);
    let owner = app.log_in("owner@example.com", PASSWORD).await;
    assert_eq!(owner.status, StatusCode::OK);
    let token = owner.body["access_token"].as_str().unwrap().to_owned();
    assert_eq!(app.get("/authorization/me", Some(&token)).await.body["name"], "Owner", "the name stays too");
}

/// Medium: behind a proxy the client address came from the leftmost X-Forwarded-For hop (or
/// `Forwarded`), which the client writes, so rotating it escaped every throttle.
async fn a_client_cannot_choose_its_address_for_the_throttles(db: TestDb) {
    let throttle = auth::ThrottleRules { login_per_client: Rule::per_minutes(2, 5), ..Default::default() };
    let app = behind_proxy(db, throttle).await;
    let body = json!({"email": "ada@example.com", "password": "Wrong#Pass1"});
    for spoof in ["1.1.1.1", "2.2.2.2"] {
        let res = app.post_from("/authorization/logindefault", &format!("{spoof}, 203.0.113.7"), body.clone()).await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED);
    }
    let rotated = app
        .raw(
            app.client
                .post(format!("{}/authorization/logindefault", app.url))
                .header("x-forwarded-for", "3.3.3.3, 203.0.113.7")
                .header("forwarded", "for=4.4.4.4")
                .json(&body),
        )
        .await;
    assert_eq!(rotated.status, StatusCode::TOO_MANY_REQUESTS, "the proxy's hop is the client, whatever is left of it");
    let other = app.post_from("/authorization/logindefault", "203.0.113.8", body.clone()).await;
    assert_eq!(other.status, StatusCode::UNAUTHORIZED, "another real client is not held back");
}

async fn without_trusted_proxies_forwarding_headers_are_ignored(db: TestDb) {
    let throttle = auth::ThrottleRules { login_per_client: Rule::per_minutes(2, 5), ..Default::default() };
    let app = spawn_app_with(db, Options { throttle, ..Options::default() }).await;
    let body = json!({"email": "ada@example.com", "password": "Wrong#Pass1"});
    for hop in ["198.51.100.1", "198.51.100.2"] {
        assert_eq!(
            app.post_from("/authorization/logindefault", hop, body.clone()).await.status,
            StatusCode::UNAUTHORIZED
        );
    }
    let res = app.post_from("/authorization/logindefault", "198.51.100.3", body).await;
    assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS, "the peer address counts, not the header");
}

/// Medium: resend answered an unverified address differently from an unknown one.
async fn resend_answers_alike_for_unknown_unverified_and_verified_addresses(db: TestDb) {
    let app = spawn_app(db).await;
    app.sign_up("Una", "unverified@example.com", PASSWORD).await;
    app.verified_user("Vera", "verified@example.com").await;
    let mut firsts = Vec::new();
    let mut seconds = Vec::new();
    for email in ["unknown@example.com", "unverified@example.com", "verified@example.com"] {
        let first = app.post("/authorization/resend-verification", None, json!({ "email": email })).await;
        let second = app.post("/authorization/resend-verification", None, json!({ "email": email })).await;
        firsts.push((first.status, first.body));
        seconds.push((second.status, second.detail().chars().take(12).collect::<String>()));
    }
    assert!(firsts.iter().all(|f| *f == firsts[0]) && firsts[0].0 == StatusCode::OK, "{firsts:?}");
    assert!(seconds.iter().all(|s| *s == seconds[0]), "{seconds:?}");
    assert_eq!(seconds[0], (StatusCode::TOO_MANY_REQUESTS, "Please wait ".to_owned()));
}

/// Medium: a JPEG's appended images (and their GPS) and trailing bytes survived stripping.
async fn an_avatar_jpeg_is_cut_at_its_end(db: TestDb) {
    let app = spawn_app(db).await;
    let (token, _) = app.person("Ada", "ada@example.com").await;
    let mut jpeg = test_support::media::jpeg(4, 3);
    let mut appended = test_support::media::jpeg(2, 2);
    appended.splice(2..2, exif_segment(b"GPS 51.5N 0.1W"));
    jpeg.extend_from_slice(&appended);
    jpeg.extend_from_slice(b"<script>alert(document.cookie)</script>");
    let res = app.upload_avatar(Some(&token), "avatar", "me.jpg", jpeg).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.body);
    let url = res.body["avatar_url"].as_str().unwrap();
    let path = url.split("/media/").nth(1).unwrap();
    let served = app.client.get(format!("{}/media/{path}", app.url)).send().await.unwrap();
    let bytes = served.bytes().await.unwrap();
    assert!(bytes.ends_with(&[0xFF, 0xD9]), "the file ends at the primary image's EOI");
    let text = String::from_utf8_lossy(&bytes);
    assert!(!text.contains("GPS") && !text.contains("script"), "nothing after it is served");
}

fn exif_segment(payload: &[u8]) -> Vec<u8> {
    let mut body = b"Exif\0\0".to_vec();
    body.extend_from_slice(payload);
    let mut seg = vec![0xFF, 0xE1];
    seg.extend_from_slice(&u16::try_from(body.len() + 2).unwrap().to_be_bytes());
    seg.extend_from_slice(&body);
    seg
}

/// Low: headers. A strict CSP for the app, HSTS on https, and media that never render as pages.
async fn headers_keep_pages_and_media_in_their_place(db: TestDb) {
    let web = tempfile::tempdir().unwrap();
    std::fs::write(web.path().join("index.html"), "<!doctype html><title>SelfSound</title>").unwrap();
    let env = env(&[
        ("SELFSOUND_WEB_DIR", &web.path().display().to_string()),
        ("SELFSOUND_PUBLIC_URL", "https://selfsound.example"),
        ("CORS_ALLOWED_ORIGINS", "https://client.example"),
    ]);
    let app = spawn_app_with(db, Options { env, ..Options::default() }).await;
    let page = app.client.get(format!("{}/app/home", app.url)).send().await.unwrap();
    let csp = page.headers()["content-security-policy"].to_str().unwrap().to_owned();
    for part in ["default-src 'self'", "script-src 'self' 'wasm-unsafe-eval';", "frame-ancestors 'none'"] {
        assert!(csp.contains(part), "{csp}");
    }
    // WebAssembly may be compiled ('wasm-unsafe-eval'); JavaScript may never be evaluated.
    assert!(!csp.contains("unsafe-inline") && !csp.contains("'unsafe-eval'"), "{csp}");
    assert!(page.headers()["strict-transport-security"].to_str().unwrap().contains("max-age="));

    let media = app.data_dir.path().join("media");
    std::fs::create_dir_all(media.join("scores")).unwrap();
    std::fs::write(media.join("scores/evil.musicxml"), "<score-partwise><script>alert(1)</script></score-partwise>")
        .unwrap();
    let xml = app.client.get(format!("{}/media/scores/evil.musicxml", app.url)).send().await.unwrap();
    assert_eq!(xml.status(), StatusCode::OK);
    assert_eq!(xml.headers()["content-security-policy"], "default-src 'none'; sandbox");
    assert_eq!(xml.headers()["content-disposition"], "attachment", "XML is never shown inline");
    std::fs::write(media.join("scores/picture.png"), test_support::media::png(1, None)).unwrap();
    let png = app.client.get(format!("{}/media/scores/picture.png", app.url)).send().await.unwrap();
    assert_eq!(png.headers()["content-security-policy"], "default-src 'none'; sandbox");
    assert!(png.headers().get("content-disposition").is_none(), "images stay inline");

    // CORS answers configured origins only, however the Host header is set.
    let preflight = app
        .client
        .request(Method::OPTIONS, format!("{}/authorization/me", app.url))
        .header("host", "evil.example")
        .header("origin", "http://evil.example")
        .header("access-control-request-method", "DELETE")
        .send()
        .await
        .unwrap();
    assert!(preflight.headers().get("access-control-allow-origin").is_none());
}

/// Low: ten wrong passwords from anywhere locked the owner out for 15 minutes.
async fn failed_sign_ins_elsewhere_never_lock_the_owner_out(db: TestDb) {
    let throttle = auth::ThrottleRules {
        login_failures_per_client: Rule::per_minutes(3, 15),
        login_failures_per_account: Rule::per_minutes(3, 15),
        login_slowdown_step: Duration::from_millis(20),
        ..Default::default()
    };
    let app = behind_proxy(db, throttle).await;
    app.verified_user("Ada", "ada@example.com").await;
    let wrong = json!({"email": "ada@example.com", "password": "Wrong#Pass1"});
    for _ in 0..3 {
        let res = app.post_from("/authorization/logindefault", "198.51.100.66", wrong.clone()).await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED);
    }
    let attacker = app.post_from("/authorization/logindefault", "198.51.100.66", wrong.clone()).await;
    assert_eq!(attacker.status, StatusCode::TOO_MANY_REQUESTS, "the failing client waits");
    let right = json!({"email": "ada@example.com", "password": PASSWORD});
    let owner = app.post_from("/authorization/logindefault", "192.0.2.10", right).await;
    assert_eq!(owner.status, StatusCode::OK, "the owner, elsewhere, only slows down: {:?}", owner.body);
}

/// Low: a body that trickles in held a connection forever.
async fn slow_bodies_time_out(db: TestDb) {
    let app =
        spawn_app_with(db, Options { env: env(&[("SELFSOUND_REQUEST_TIMEOUT_SECS", "1")]), ..Options::default() })
            .await;
    let addr = app.url.trim_start_matches("http://").to_owned();
    // A head that never ends.
    let mut head = std::net::TcpStream::connect(&addr).unwrap();
    head.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    head.write_all(b"POST /authorization/logindefault HTTP/1.1\r\nHost: x\r\n").unwrap();
    let started = std::time::Instant::now();
    let mut buf = Vec::new();
    let _ = head.read_to_end(&mut buf);
    assert!(started.elapsed() < Duration::from_secs(8), "the server hung up on the slow head");
    // A body that stops halfway.
    let mut body = std::net::TcpStream::connect(&addr).unwrap();
    body.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    body.write_all(
        b"POST /authorization/logindefault HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"email\":",
    )
    .unwrap();
    let mut answer = String::new();
    let _ = body.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains("did not arrive in time"), "{answer}");
}

/// Low: logout skipped the Origin check, and the CSRF check believed the Host and
/// X-Forwarded-Host headers.
async fn cookie_writes_need_one_of_our_origins_whatever_the_host_header(db: TestDb) {
    let app = spawn_app(db).await;
    let token = app.verified_user("Ada", "ada@example.com").await;
    let cookie = format!("access_token={token}");
    let logout = app
        .raw(
            app.client
                .post(format!("{}/auth/logout", app.url))
                .header("cookie", &cookie)
                .header("origin", "https://evil.example"),
        )
        .await;
    assert_eq!(logout.status, StatusCode::FORBIDDEN);
    assert_eq!(app.get("/authorization/me", Some(&token)).await.status, StatusCode::OK, "still signed in");

    for (host, forwarded) in [("evil.example", None), ("127.0.0.1", Some("evil.example"))] {
        let mut req = app
            .client
            .patch(format!("{}/profile/me", app.url))
            .header("cookie", &cookie)
            .header("host", host)
            .header("origin", "http://evil.example")
            .json(&json!({"name": "Pwned"}));
        if let Some(f) = forwarded {
            req = req.header("x-forwarded-host", f);
        }
        assert_eq!(app.raw(req).await.status, StatusCode::FORBIDDEN, "{host} {forwarded:?}");
    }
    let ours = app
        .raw(
            app.client
                .post(format!("{}/authorization/logout", app.url))
                .header("cookie", &cookie)
                .header("origin", &app.url),
        )
        .await;
    assert_eq!(ours.status, StatusCode::OK);
    assert_eq!(app.get("/authorization/me", Some(&token)).await.status, StatusCode::UNAUTHORIZED);
}

/// Low: a storage failure's text (a file path) reached the 503 body.
async fn storage_failures_answer_a_neutral_503(db: TestDb) {
    let app = spawn_app(db).await;
    let (token, _) = app.person("Ada", "ada@example.com").await;
    let media = app.data_dir.path().join("media");
    let _ = std::fs::remove_dir_all(&media);
    std::fs::write(&media, b"not a folder").unwrap();
    let res = app.upload_avatar(Some(&token), "avatar", "me.png", test_support::media::png(2, None)).await;
    assert!(res.status.is_server_error(), "{}", res.status);
    assert!(!res.detail().contains('/') && !res.detail().contains("media"), "{}", res.detail());
}

async fn common_passwords_are_refused_at_sign_up(db: TestDb) {
    let app = spawn_app(db).await;
    let res = app.sign_up("Ada", "ada@example.com", "Password123!").await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);
    assert_eq!(res.detail(), "This password is too common. Please choose a less common one.");
    assert_eq!(app.mail_count(), 0);
}

async fn forgot_password_sets_a_new_one_and_ends_every_session(db: TestDb) {
    let app = spawn_app(db).await;
    let old_session = app.verified_user("Ada", "ada@example.com").await;
    let res = app.post("/authorization/password-reset", None, json!({"email": "ada@example.com"})).await;
    let unknown = app.post("/authorization/password-reset", None, json!({"email": "nobody@example.com"})).await;
    assert_eq!((res.status, &res.body), (StatusCode::OK, &unknown.body), "the same answer either way");
    let token = app.reset_token("ada@example.com").await;

    let weak =
        app.post("/authorization/password-reset/confirm", None, json!({"token": token, "password": "short"})).await;
    assert!(weak.detail().starts_with("Password must include"), "{}", weak.detail());
    let done = app
        .post("/authorization/password-reset/confirm", None, json!({"token": token, "password": "New#Melody42"}))
        .await;
    assert_eq!(done.status, StatusCode::OK, "{:?}", done.body);
    assert_eq!(app.get("/authorization/me", Some(&old_session)).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.log_in("ada@example.com", PASSWORD).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.log_in("ada@example.com", "New#Melody42").await.status, StatusCode::OK);
    let again = app
        .post("/authorization/password-reset/confirm", None, json!({"token": token, "password": "Other#Tune42"}))
        .await;
    assert_eq!(
        (again.status, again.detail()),
        (StatusCode::BAD_REQUEST, "This password reset link is invalid or has expired.")
    );

    let soon = app.post("/authorization/password-reset", None, json!({"email": "ada@example.com"})).await;
    assert_eq!(soon.status, StatusCode::TOO_MANY_REQUESTS, "one request per address per cooldown");
}

async fn changing_the_password_ends_the_other_sessions(db: TestDb) {
    let app = spawn_app(db).await;
    let this = app.verified_user("Ada", "ada@example.com").await;
    let other = app.log_in("ada@example.com", PASSWORD).await.body["access_token"].as_str().unwrap().to_owned();
    let change = |current: &str, new: &str| json!({"current_password": current, "new_password": new});
    let wrong = app.post("/authorization/password", Some(&this), change("Wrong#Pass1", "New#Melody42")).await;
    assert_eq!((wrong.status, wrong.detail()), (StatusCode::BAD_REQUEST, "Current password is incorrect"));
    let common = app.post("/authorization/password", Some(&this), change(PASSWORD, "Qwerty123!")).await;
    assert_eq!(common.status, StatusCode::BAD_REQUEST);
    let ok = app.post("/authorization/password", Some(&this), change(PASSWORD, "New#Melody42")).await;
    assert_eq!(ok.status, StatusCode::OK, "{:?}", ok.body);
    assert_eq!(app.get("/authorization/me", Some(&this)).await.status, StatusCode::OK, "this session stays");
    assert_eq!(app.get("/authorization/me", Some(&other)).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.log_in("ada@example.com", "New#Melody42").await.status, StatusCode::OK);
    let signed_out = app.post("/authorization/password", None, change(PASSWORD, "New#Melody43")).await;
    assert_eq!(signed_out.status, StatusCode::UNAUTHORIZED);
}

async fn sessions_are_listed_ended_one_by_one_and_everywhere(db: TestDb) {
    let app = spawn_app(db).await;
    app.verified_user("Ada", "ada@example.com").await;
    let sign_in = |ua: &'static str| {
        app.client
            .post(format!("{}/authorization/logindefault", app.url))
            .header("user-agent", ua)
            .json(&json!({"email": "ada@example.com", "password": PASSWORD}))
    };
    let laptop = app
        .raw(sign_in(
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36",
        ))
        .await
        .body["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let phone = app
        .raw(sign_in("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1"))
        .await
        .body["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let list = app.get("/authorization/sessions", Some(&laptop)).await;
    assert_eq!(list.status, StatusCode::OK);
    let sessions = list.body.as_array().unwrap();
    assert_eq!(sessions.len(), 3, "{sessions:?}");
    let current: Vec<_> = sessions.iter().filter(|s| s["current"] == true).collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0]["device"], "Chrome on Linux");
    assert!(sessions.iter().any(|s| s["device"] == "Safari on iPhone"));
    assert!(sessions.iter().all(|s| s["id"].is_string() && s["last_seen_at"].is_string()));

    let phone_id =
        sessions.iter().find(|s| s["device"] == "Safari on iPhone").unwrap()["id"].as_str().unwrap().to_owned();
    let (eve, _) = app.person("Eve", "eve@example.com").await;
    let theirs = app.call(Method::DELETE, &format!("/authorization/sessions/{phone_id}"), Some(&eve), None).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND, "nobody ends another person's session");
    let ended = app.call(Method::DELETE, &format!("/authorization/sessions/{phone_id}"), Some(&laptop), None).await;
    assert_eq!(ended.status, StatusCode::OK);
    assert_eq!(app.get("/authorization/me", Some(&phone)).await.status, StatusCode::UNAUTHORIZED);

    let all = app.call(Method::POST, "/authorization/logout-all", Some(&laptop), None).await;
    assert_eq!(all.status, StatusCode::OK);
    assert!(all.headers["set-cookie"].to_str().unwrap().starts_with("access_token=;"));
    assert_eq!(app.get("/authorization/me", Some(&laptop)).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.post("/authorization/logout-all", None, json!({})).await.status, StatusCode::UNAUTHORIZED);
}

/// High: anyone could take `admin`, `support` or `selfsound` as their login, whatever the
/// case; low: names could carry text-direction overrides and invisible characters (one name
/// passing for another), logins of one or two characters could never be mentioned, and a NUL
/// answered 500 on PostgreSQL.
async fn reserved_logins_and_disguised_names_are_refused(db: TestDb) {
    let app = spawn_app(db).await;
    let (ada, _) = app.person("Ada", "ada@example.com").await;
    let patch = |body: serde_json::Value| app.call(Method::PATCH, "/profile/me", Some(&ada), Some(body));
    for login in ["admin", "Administrator", "ROOT", "support", "Help", "moderator", "mod", "staff", "system"] {
        let res = patch(json!({"login": login})).await;
        assert_eq!(
            (res.status, res.detail()),
            (StatusCode::BAD_REQUEST, "This login is reserved. Please choose another one."),
            "{login}"
        );
    }
    for login in ["SelfSound", "security", "official", "ad_min", "self-sound_team", "postmaster", "null"] {
        assert_eq!(patch(json!({"login": login})).await.status, StatusCode::BAD_REQUEST, "{login}");
    }
    let short = patch(json!({"login": "ab"})).await;
    assert_eq!((short.status, short.detail()), (StatusCode::BAD_REQUEST, "Login must be at least 3 characters"));
    for name in ["\u{202E}adA", "Ada\u{200B}", "A\u{2066}da\u{2069}", "\u{FEFF}Ada", "A\u{200D}da", "A\u{2060}da"] {
        let res = patch(json!({"name": name})).await;
        assert_eq!(
            (res.status, res.detail()),
            (StatusCode::BAD_REQUEST, "Name cannot contain invisible or text-direction characters"),
            "{name:?}"
        );
    }
    for body in [json!({"name": "A\u{0}da"}), json!({"login": "ada\u{0}"}), json!({"description": "bio\u{0}"})] {
        let res = patch(body.clone()).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{body}: {:?}", res.body);
    }
    let me = app.get("/authorization/me", Some(&ada)).await.body;
    assert_eq!((me["name"].as_str(), me["login"].as_str()), (Some("Ada"), Some("ada")), "nothing changed");
    assert_eq!(patch(json!({"login": "Admiral"})).await.status, StatusCode::OK, "a word that only starts alike");

    // Sign-up: the same rules for the name and the address; the login it proposes skips the
    // reserved ones and is long enough to be mentioned.
    let bidi = app.sign_up("\u{202E}adA", "eve@example.com", PASSWORD).await;
    assert_eq!(bidi.status, StatusCode::BAD_REQUEST);
    assert_eq!(bidi.detail(), "Name cannot contain invisible or text-direction characters");
    assert_eq!(app.sign_up("E\u{0}ve", "eve@example.com", PASSWORD).await.status, StatusCode::BAD_REQUEST);
    assert_eq!(app.sign_up("Eve", "eve\u{0}@example.com", PASSWORD).await.status, StatusCode::BAD_REQUEST);
    for (email, login) in [("admin@example.com", "admin_user"), ("al@example.com", "al_user")] {
        let token = app.verified_user("Someone", email).await;
        assert_eq!(app.get("/authorization/me", Some(&token)).await.body["login"], login, "{email}");
    }
}

/// High: whoever signed up first kept the account. An attacker signed up the owner's address
/// with their own password; the owner signed up later (told "a verification email has been
/// sent"), opened the link in their inbox, and was verified with the attacker's password.
/// Each sign-up now has its own link, and a link verifies the sign-up that sent it.
async fn who_signs_up_first_does_not_keep_the_account(db: TestDb) {
    let app = spawn_app(db).await;
    assert_eq!(app.sign_up("Mallory", "owner@example.com", "Attacker#Pass7").await.status, StatusCode::OK);
    let attacker_link = app.verification_link("owner@example.com");
    let owner = app.sign_up("Owner", "owner@example.com", PASSWORD).await;
    assert_eq!(owner.status, StatusCode::BAD_REQUEST, "the spec's answer stays");
    assert_eq!(owner.detail(), "User already exists but is not verified. A new verification email has been sent.");
    let owner_link = app.verification_link("owner@example.com");
    assert_ne!(attacker_link, owner_link);
    let mail = newest_mail_to(&app, "owner@example.com");
    assert!(mail.contains("Hi Owner,"), "the mail greets the name of its own sign-up");
    assert!(mail.contains("If you did not sign up, or not under this name, ignore this e-mail: nothing changes until"));

    assert_eq!(app.client.get(&owner_link).send().await.unwrap().status(), StatusCode::SEE_OTHER);
    assert_eq!(app.log_in("owner@example.com", "Attacker#Pass7").await.status, StatusCode::UNAUTHORIZED);
    let signed_in = app.log_in("owner@example.com", PASSWORD).await;
    assert_eq!(signed_in.status, StatusCode::OK, "{:?}", signed_in.body);
    let token = signed_in.body["access_token"].as_str().unwrap().to_owned();
    assert_eq!(app.get("/authorization/me", Some(&token)).await.body["name"], "Owner");

    // The attacker's link, opened afterwards, changes nothing.
    let late = app.client.get(&attacker_link).send().await.unwrap();
    assert!(late.headers()["location"].to_str().unwrap().contains("verified=false"), "{:?}", late.headers());
    assert_eq!(app.log_in("owner@example.com", "Attacker#Pass7").await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.log_in("owner@example.com", PASSWORD).await.status, StatusCode::OK);
}

fn newest_mail_to(app: &TestApp, email: &str) -> String {
    let mut mails: Vec<_> = std::fs::read_dir(app.mail_dir()).unwrap().flatten().map(|e| e.path()).collect();
    mails.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    mails
        .iter()
        .rev()
        .map(|p| std::fs::read_to_string(p).unwrap().replace("=\r\n", "").replace("=3D", "="))
        .find(|t| t.contains(&format!("To: {email}")))
        .expect("an e-mail to this address")
}

/// High: `selfsound admin grant` and `ADMIN_EMAILS` gave the admin role to whoever had signed up
/// an address first, verified or not. Now only a verified account gets it: the command refuses
/// (exit status 1), and `ADMIN_EMAILS` applies at start to verified accounts and at the moment
/// an address is verified.
async fn admin_rights_never_go_to_an_unverified_account(db: TestDb) {
    use db::diesel::prelude::*;
    use db::schema::{admin_actions, users};
    let (boss, _) = crate::common::person_in(&db, "Boss", "boss@example.com");
    let env = vec![("ADMIN_EMAILS".to_owned(), "boss@example.com, owner@example.com".to_owned())];
    let app = spawn_app_with(db, Options { env: env.clone(), ..Options::default() }).await;
    assert_eq!(app.get("/admin/analytics", Some(&boss)).await.status, StatusCode::OK, "verified: granted at start");

    // An attacker signs up the address the operator means to make admin.
    assert_eq!(app.sign_up("Mallory", "owner@example.com", "Attacker#Pass7").await.status, StatusCode::OK);
    let is_admin = |app: &TestApp| -> bool {
        users::table
            .filter(users::email.eq("owner@example.com"))
            .select(users::is_admin)
            .first(&mut *app.db.get().unwrap())
            .unwrap()
    };
    let refused = crate::moderation::admin_command(&app, "grant", "owner@example.com");
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("owner@example.com is not verified yet, and the admin role goes only to verified accounts"),
        "{said}"
    );
    assert!(!is_admin(&app));
    // A restart with ADMIN_EMAILS does not grant it either.
    app.stop().await;
    let TestApp { db, .. } = app;
    let app = spawn_app_with(db, Options { env, ..Options::default() }).await;
    assert!(!is_admin(&app), "ADMIN_EMAILS skips an unverified account at start");

    // The owner signs up and opens their own link: verified, and an admin at that moment.
    app.sign_up("Owner", "owner@example.com", PASSWORD).await;
    let link = app.verification_link("owner@example.com");
    assert_eq!(app.client.get(&link).send().await.unwrap().status(), StatusCode::SEE_OTHER);
    assert!(is_admin(&app));
    let owner = app.log_in("owner@example.com", PASSWORD).await.body["access_token"].as_str().unwrap().to_owned();
    assert_eq!(app.get("/admin/analytics", Some(&owner)).await.status, StatusCode::OK);
    let audit: i64 = admin_actions::table
        .filter(admin_actions::admin_login.eq("ADMIN_EMAILS"))
        .count()
        .get_result(&mut *app.db.get().unwrap())
        .unwrap();
    assert_eq!(audit, 2, "each grant has its audit entry (boss at start, owner on verification)");
    assert_eq!(app.log_in("owner@example.com", "Attacker#Pass7").await.status, StatusCode::UNAUTHORIZED);
}

test_support::both_backends!(
    a_repeated_sign_up_never_changes_the_password,
    a_client_cannot_choose_its_address_for_the_throttles,
    without_trusted_proxies_forwarding_headers_are_ignored,
    resend_answers_alike_for_unknown_unverified_and_verified_addresses,
    an_avatar_jpeg_is_cut_at_its_end,
    headers_keep_pages_and_media_in_their_place,
    failed_sign_ins_elsewhere_never_lock_the_owner_out,
    slow_bodies_time_out,
    cookie_writes_need_one_of_our_origins_whatever_the_host_header,
    storage_failures_answer_a_neutral_503,
    common_passwords_are_refused_at_sign_up,
    forgot_password_sets_a_new_one_and_ends_every_session,
    changing_the_password_ends_the_other_sessions,
    sessions_are_listed_ended_one_by_one_and_everywhere,
    reserved_logins_and_disguised_names_are_refused,
    who_signs_up_first_does_not_keep_the_account,
    admin_rights_never_go_to_an_unverified_account,
);
