//! Two-factor sign-in (issue 36; docs/security.md, "Two-factor sign-in"): set up in Settings
//! with the password again, confirmed by a first code, then asked after the password at sign-in
//! through the spec's own call, a code good once, recovery codes good once each, wrong codes
//! limited per account with the owner warned, and turned off only with a code.

use reqwest::StatusCode;
use serde_json::{Value, json};
use test_support::TestDb;
use totp_rs::TOTP;

use crate::common::{PASSWORD, TestApp, spawn_app};

const REQUIRED: &str = "Two-factor authentication required: enter the 6-digit code from your authenticator app.";

/// The app's code `steps_ahead` 30-second steps from now, as an authenticator app would show it.
fn code(otpauth_url: &str, steps_ahead: u64) -> String {
    let totp = TOTP::from_url(otpauth_url).unwrap();
    let now = u64::try_from(chrono::Utc::now().timestamp()).unwrap();
    totp.generate(now + 30 * steps_ahead)
}

async fn sign_in(app: &TestApp, email: &str, code: Option<&str>) -> crate::common::Answer {
    let mut body = json!({"email": email, "password": PASSWORD});
    if let Some(code) = code {
        body["code"] = json!(code);
    }
    app.post("/authorization/logindefault", None, body).await
}

/// Turns two-factor sign-in on for the person of `token`; answers the otpauth URL and the
/// recovery codes.
async fn turn_on(app: &TestApp, token: &str) -> (String, Vec<String>) {
    let setup = app.post("/authorization/two-factor/setup", Some(token), json!({"password": PASSWORD})).await;
    assert_eq!(setup.status, StatusCode::OK, "{:?}", setup.body);
    let url = setup.body["otpauth_url"].as_str().unwrap().to_owned();
    let on = app.post("/authorization/two-factor/enable", Some(token), json!({"code": code(&url, 0)})).await;
    assert_eq!(on.status, StatusCode::OK, "{:?}", on.body);
    let codes = on.body["recovery_codes"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_owned()).collect();
    (url, codes)
}

/// The e-mail with this subject.
fn mail_with_subject(app: &TestApp, subject: &str) -> String {
    std::fs::read_dir(app.mail_dir())
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .find(|m| m.contains(&format!("Subject: {subject}")))
        .unwrap_or_else(|| panic!("no e-mail \"{subject}\""))
}

async fn status(app: &TestApp, token: &str) -> Value {
    let s = app.get("/authorization/two-factor", Some(token)).await;
    assert_eq!(s.status, StatusCode::OK);
    s.body
}

async fn two_factor_sign_in_asks_for_a_code_after_the_password(db: TestDb) {
    let app = spawn_app(db).await;
    let token = app.verified_user("Ada", "ada@example.com").await;
    assert_eq!(status(&app, &token).await, json!({"enabled": false, "recovery_codes_left": 0}));

    // The password again: a session alone cannot tie the account to another phone.
    let wrong = app.post("/authorization/two-factor/setup", Some(&token), json!({"password": "Wrong#Pass1"})).await;
    assert_eq!((wrong.status, wrong.detail()), (StatusCode::BAD_REQUEST, "Current password is incorrect"));
    let early = app.post("/authorization/two-factor/enable", Some(&token), json!({"code": "123456"})).await;
    assert_eq!((early.status, early.detail()), (StatusCode::BAD_REQUEST, "Start setting up two-factor sign-in first"));

    let setup = app.post("/authorization/two-factor/setup", Some(&token), json!({"password": PASSWORD})).await;
    assert_eq!(setup.status, StatusCode::OK, "{:?}", setup.body);
    let url = setup.body["otpauth_url"].as_str().unwrap().to_owned();
    let secret = setup.body["secret"].as_str().unwrap().to_owned();
    assert!(url.starts_with("otpauth://totp/SelfSound:ada%40example.com?"), "{url}");
    assert!(url.contains(&format!("secret={secret}")) && secret.len() == 32, "{url}");
    assert!(setup.body["qr_svg"].as_str().unwrap().contains("<svg"));
    assert_eq!(setup.headers["cache-control"], "no-store");
    // Kept sealed: the database holds nothing of the key.
    let sealed: String = {
        use db::diesel::prelude::*;
        db::schema::two_factor::table
            .select(db::schema::two_factor::secret_sealed)
            .first(&mut *app.db.get().unwrap())
            .unwrap()
    };
    assert!(sealed.starts_with("v1.") && !sealed.contains(&secret), "{sealed}");
    // Not on until a code confirms it.
    assert_eq!(sign_in(&app, "ada@example.com", None).await.status, StatusCode::OK);
    let bad = app.post("/authorization/two-factor/enable", Some(&token), json!({"code": "000000"})).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{:?}", bad.body);
    assert!(bad.detail().starts_with("That code is not right"), "{}", bad.detail());

    let first = code(&url, 0);
    let on = app.post("/authorization/two-factor/enable", Some(&token), json!({"code": first})).await;
    assert_eq!(on.status, StatusCode::OK, "{:?}", on.body);
    let recovery: Vec<String> =
        on.body["recovery_codes"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_owned()).collect();
    assert_eq!(recovery.len(), 10);
    assert!(recovery.iter().all(|c| c.len() == 14 && c.matches('-').count() == 2), "{recovery:?}");
    assert_eq!(status(&app, &token).await, json!({"enabled": true, "recovery_codes_left": 10}));
    // The owner hears of it, whoever did it.
    assert!(mail_with_subject(&app, "Two-factor sign-in is on").contains("To: ada@example.com"));
    let again = app.post("/authorization/two-factor/setup", Some(&token), json!({"password": PASSWORD})).await;
    assert_eq!((again.status, again.detail()), (StatusCode::BAD_REQUEST, "Two-factor sign-in is already on"));

    // The spec's call: a right password without a code is a documented 401.
    let asked = sign_in(&app, "ada@example.com", None).await;
    assert_eq!((asked.status, asked.detail()), (StatusCode::UNAUTHORIZED, REQUIRED));
    assert!(asked.headers.get("set-cookie").is_none(), "no session yet");
    // A wrong password says so whatever the code: the code is only asked after it.
    let wrong_password = app
        .post(
            "/authorization/logindefault",
            None,
            json!({"email": "ada@example.com", "password": "Wrong#Pass1", "code": "123456"}),
        )
        .await;
    assert_eq!(
        (wrong_password.status, wrong_password.detail()),
        (StatusCode::UNAUTHORIZED, "Incorrect email or password")
    );
    // A code is good once: the one that turned it on does not sign in.
    let replayed = sign_in(&app, "ada@example.com", Some(&first)).await;
    assert_eq!(replayed.status, StatusCode::UNAUTHORIZED);
    assert!(replayed.detail().starts_with("Incorrect two-factor code"), "{}", replayed.detail());
    let next = code(&url, 1);
    let signed_in = sign_in(&app, "ada@example.com", Some(next.replace("", " ").trim())).await;
    assert_eq!(signed_in.status, StatusCode::OK, "spaces in a code are fine: {:?}", signed_in.body);

    // Recovery codes: each once, typed in any case.
    let with_recovery = sign_in(&app, "ada@example.com", Some(&recovery[0].to_uppercase())).await;
    assert_eq!(with_recovery.status, StatusCode::OK, "{:?}", with_recovery.body);
    assert_eq!(sign_in(&app, "ada@example.com", Some(&recovery[0])).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(status(&app, &token).await["recovery_codes_left"], 9);
    // New ones in place of the old.
    let renewed =
        app.post("/authorization/two-factor/recovery-codes", Some(&token), json!({"code": recovery[1]})).await;
    assert_eq!(renewed.status, StatusCode::OK, "{:?}", renewed.body);
    let fresh: Vec<String> =
        renewed.body["recovery_codes"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_owned()).collect();
    assert_eq!(status(&app, &token).await["recovery_codes_left"], 10);
    assert!(!fresh.contains(&recovery[2]));

    // Off only with a code. (Wrong codes so far: 4 of the 5 the account may have in 15 minutes.)
    let refused = app.post("/authorization/two-factor/disable", Some(&token), json!({"code": "12345"})).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let off = app.post("/authorization/two-factor/disable", Some(&token), json!({"code": fresh[0]})).await;
    assert_eq!(off.status, StatusCode::OK, "{:?}", off.body);
    assert_eq!(status(&app, &token).await, json!({"enabled": false, "recovery_codes_left": 0}));
    assert_eq!(sign_in(&app, "ada@example.com", None).await.status, StatusCode::OK);
    assert!(mail_with_subject(&app, "Two-factor sign-in is off").contains("To: ada@example.com"));
    let twice = app.post("/authorization/two-factor/disable", Some(&token), json!({"code": fresh[1]})).await;
    assert_eq!((twice.status, twice.detail()), (StatusCode::BAD_REQUEST, "Two-factor sign-in is not on"));
}

async fn wrong_codes_are_limited_per_account_and_the_owner_is_warned(db: TestDb) {
    let app = spawn_app(db).await;
    let token = app.verified_user("Ada", "ada@example.com").await;
    let (url, _) = turn_on(&app, &token).await;
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    let mails_before = app.mail_count();
    for _ in 0..5 {
        let wrong = sign_in(&app, "ada@example.com", Some("000000")).await;
        assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "{:?}", wrong.body);
    }
    // Past the limit even the right code waits: guesses from anywhere share the count.
    let right = sign_in(&app, "ada@example.com", Some(&code(&url, 1))).await;
    assert_eq!(right.status, StatusCode::TOO_MANY_REQUESTS, "{:?}", right.body);
    assert!(right.headers.contains_key("retry-after"));
    assert!(right.detail().starts_with("Too many attempts."), "{}", right.detail());
    // Settings' checks share it: the attacker cannot get more guesses from a stolen session.
    let from_settings = app.post("/authorization/two-factor/disable", Some(&token), json!({"code": "000000"})).await;
    assert_eq!(from_settings.status, StatusCode::TOO_MANY_REQUESTS);
    // Told once, when the fifth wrong code came.
    assert_eq!(app.mail_count(), mails_before + 1);
    assert!(mail_with_subject(&app, "Someone has your SelfSound password").contains("To: ada@example.com"));
}

test_support::both_backends!(
    two_factor_sign_in_asks_for_a_code_after_the_password,
    wrong_codes_are_limited_per_account_and_the_owner_is_warned
);
