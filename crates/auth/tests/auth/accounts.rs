//! Account rules against a real database, on SQLite and on PostgreSQL.

use std::path::{Path, PathBuf};
use std::time::Duration;

use auth::mail::Mailer;
use auth::throttle::Rule;
use auth::token::TokenKeys;
use auth::{AuthConfig, AuthError, AuthService};
use test_support::TestDb;

const PASSWORD: &str = "Sound#Check9";

struct Harness {
    auth: AuthService,
    mail: tempfile::TempDir,
    _db: TestDb,
}

fn harness(db: TestDb) -> Harness {
    harness_with(db, auth::ThrottleRules::default())
}

fn harness_with(db: TestDb, throttle: auth::ThrottleRules) -> Harness {
    let mail = tempfile::tempdir().unwrap();
    let mailer = Mailer::folder(mail.path().to_path_buf(), "SelfSound <no-reply@example.com>").unwrap();
    let config = AuthConfig {
        public_url: "http://127.0.0.1:9".into(),
        sign_in_page: "http://127.0.0.1:9/app/sign-in".into(),
        frontend_origins: vec!["http://127.0.0.1:9".into()],
        reset_page: "http://127.0.0.1:9/app/reset-password#token={token}".into(),
        throttle,
    };
    let auth = AuthService::new(db.db.clone(), TokenKeys::new(&[7; 32]), mailer, None, config);
    Harness { auth, mail, _db: db }
}

fn mails(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
    files.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    files
}

/// The verification token in the newest e-mail (quoted-printable undone).
fn latest_token(dir: &Path) -> String {
    let newest = mails(dir).pop().expect("an e-mail was written");
    let text = std::fs::read_to_string(newest).unwrap().replace("=\r\n", "").replace("=3D", "=");
    let start = text.find("verify?token=").expect("a verification link") + "verify?token=".len();
    text[start..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect()
}

async fn verified_user(h: &Harness, email: &str) {
    h.auth.signup("Ada", email, PASSWORD, "c1").await.unwrap();
    h.auth.verify_email(&latest_token(h.mail.path())).await.unwrap();
}

async fn signup_mails_a_link_that_verifies_once(db: TestDb) {
    let h = harness(db);
    let out = h.auth.signup(" Ada ", "Ada@Example.com", PASSWORD, "c1").await.unwrap();
    assert_eq!(out.email, "ada@example.com");
    assert!(matches!(h.auth.login("ada@example.com", PASSWORD, "c1").await, Err(AuthError::NotVerified)));
    let token = latest_token(h.mail.path());
    h.auth.verify_email(&token).await.unwrap();
    assert!(matches!(h.auth.verify_email(&token).await, Err(AuthError::BadVerificationLink)));
    assert!(h.auth.login("ADA@example.com", PASSWORD, "c1").await.is_ok());
}

async fn second_signup_of_a_verified_address_is_refused(db: TestDb) {
    let h = harness(db);
    verified_user(&h, "ada@example.com").await;
    let again = h.auth.signup("Ada", "ada@example.com", PASSWORD, "c1").await;
    assert_eq!(again.err().unwrap().to_string(), "User already exists and is verified");
}

async fn second_signup_of_an_unverified_address_sends_a_fresh_link(db: TestDb) {
    let h = harness(db);
    h.auth.signup("Ada", "ada@example.com", PASSWORD, "c1").await.unwrap();
    let first = latest_token(h.mail.path());
    let again = h.auth.signup("Ada L", "ada@example.com", "Other#Pass1", "c1").await;
    assert!(again.err().unwrap().to_string().contains("already exists"));
    assert_eq!(mails(h.mail.path()).len(), 2, "a fresh e-mail is sent");
    assert!(h.auth.verify_email(&first).await.is_err(), "the older link no longer works");
    h.auth.verify_email(&latest_token(h.mail.path())).await.unwrap();
    // A repeated sign-up never changes the account: whoever signed up again (an attacker
    // racing the owner) gets nothing by it; the owner's password and name stay.
    let retry = h.auth.login("ada@example.com", "Other#Pass1", "c1").await;
    assert!(matches!(retry, Err(AuthError::BadCredentials)), "the repeat's password does not work");
    let token = h.auth.login("ada@example.com", PASSWORD, "c1").await.unwrap();
    assert_eq!(h.auth.authenticate(&token).await.unwrap().name, "Ada");
}

async fn wrong_password_and_unknown_address_get_the_same_answer(db: TestDb) {
    let h = harness(db);
    verified_user(&h, "ada@example.com").await;
    let wrong = h.auth.login("ada@example.com", "Wrong#Pass1", "c1").await.err().unwrap();
    let unknown = h.auth.login("nobody@example.com", PASSWORD, "c1").await.err().unwrap();
    assert!(matches!(wrong, AuthError::BadCredentials));
    assert_eq!(wrong.to_string(), unknown.to_string());
}

async fn logout_ends_the_session_for_real(db: TestDb) {
    let h = harness(db);
    verified_user(&h, "ada@example.com").await;
    let token = h.auth.login("ada@example.com", PASSWORD, "c1").await.unwrap();
    let other = h.auth.login("ada@example.com", PASSWORD, "c1").await.unwrap();
    let me = h.auth.authenticate(&token).await.unwrap();
    assert_eq!(me.name, "Ada");
    assert_eq!(me.login, "ada");
    h.auth.logout(&token).await.unwrap();
    assert!(h.auth.authenticate(&token).await.is_err(), "the token's session is gone");
    assert!(h.auth.authenticate(&other).await.is_ok(), "other sessions live on");
}

async fn deleting_the_account_ends_every_session(db: TestDb) {
    let h = harness(db);
    verified_user(&h, "ada@example.com").await;
    let a = h.auth.login("ada@example.com", PASSWORD, "c1").await.unwrap();
    let b = h.auth.login("ada@example.com", PASSWORD, "c1").await.unwrap();
    let me = h.auth.authenticate(&a).await.unwrap();
    // The account's own part of a deletion (the whole use case is `app::delete_account`).
    db::write_tx(&mut h._db.get().unwrap(), |conn| auth::release_account(conn, me.id)).unwrap();
    assert!(h.auth.authenticate(&a).await.is_err());
    assert!(h.auth.authenticate(&b).await.is_err());
    assert!(matches!(h.auth.login("ada@example.com", PASSWORD, "c1").await, Err(AuthError::BadCredentials)));
    h.auth.signup("Ada", "ada@example.com", PASSWORD, "c1").await.expect("the address is free again");
}

async fn logins_are_unique_even_for_the_same_local_part(db: TestDb) {
    let h = harness(db);
    verified_user(&h, "ada@one.example").await;
    verified_user(&h, "ada@two.example").await;
    let a = h.auth.login("ada@one.example", PASSWORD, "c1").await.unwrap();
    let b = h.auth.login("ada@two.example", PASSWORD, "c1").await.unwrap();
    let (a, b) = (h.auth.authenticate(&a).await.unwrap(), h.auth.authenticate(&b).await.unwrap());
    assert_eq!(a.login, "ada");
    assert_ne!(a.login, b.login);
    assert!(b.login.starts_with("ada") && b.login.len() <= 20);
}

async fn resend_has_a_three_minute_cooldown_per_address(db: TestDb) {
    let h = harness(db);
    h.auth.signup("Ada", "ada@example.com", PASSWORD, "c1").await.unwrap();
    // The sign-up's own e-mail does not start the cooldown; the first resend does, for any
    // address, so the answers say nothing about which addresses have an account.
    h.auth.resend_verification("ada@example.com", "c1").await.unwrap();
    let err = h.auth.resend_verification("ada@example.com", "c1").await.err().unwrap();
    let AuthError::ResendCooldown(left) = err else { panic!("cooldown expected, got {err}") };
    assert!(left > Duration::from_secs(170) && left <= Duration::from_secs(180), "{left:?}");
    assert!(err.to_string().starts_with("Please wait 2:") || err.to_string().starts_with("Please wait 3:00"));
    h.auth.resend_verification("nobody@example.com", "c1").await.unwrap();
    let unknown = h.auth.resend_verification("nobody@example.com", "c1").await.err().unwrap();
    assert!(matches!(unknown, AuthError::ResendCooldown(_)), "an unknown address is answered alike");
}

/// Two resends at the same moment: the cooldown lets one through (it was read, then written).
async fn parallel_resends_pass_the_cooldown_once(db: TestDb) {
    let h = harness(db);
    h.auth.signup("Ada", "ada@example.com", PASSWORD, "c1").await.unwrap();
    let resends: Vec<_> = (0..6)
        .map(|_| {
            let auth = h.auth.clone();
            tokio::spawn(async move { auth.resend_verification("ada@example.com", "c1").await })
        })
        .collect();
    let mut passed = 0;
    for resend in resends {
        match resend.await.unwrap() {
            Ok(()) => passed += 1,
            Err(e) => assert!(matches!(e, AuthError::ResendCooldown(_)), "{e}"),
        }
    }
    assert_eq!(passed, 1);
}

async fn resend_after_the_cooldown_sends_a_new_link(db: TestDb) {
    let rules = auth::ThrottleRules { resend_cooldown: Duration::from_secs(1), ..Default::default() };
    let h = harness_with(db, rules);
    h.auth.signup("Ada", "ada@example.com", PASSWORD, "c1").await.unwrap();
    tokio::time::sleep(Duration::from_millis(1100)).await;
    h.auth.resend_verification("ada@example.com", "c1").await.unwrap();
    assert_eq!(mails(h.mail.path()).len(), 2);
}

async fn sign_in_is_throttled_per_client(db: TestDb) {
    let rules = auth::ThrottleRules { login_per_client: Rule::per_minutes(3, 5), ..Default::default() };
    let h = harness_with(db, rules);
    verified_user(&h, "ada@example.com").await;
    for _ in 0..3 {
        assert!(h.auth.login("ada@example.com", PASSWORD, "10.0.0.1").await.is_ok());
    }
    let err = h.auth.login("ada@example.com", PASSWORD, "10.0.0.1").await.err().unwrap();
    assert!(matches!(err, AuthError::Throttled(_)), "{err}");
    assert!(h.auth.login("ada@example.com", PASSWORD, "10.0.0.2").await.is_ok(), "another client is not held back");
}

async fn failed_sign_ins_lock_the_failing_client_and_only_slow_the_account(db: TestDb) {
    let rules = auth::ThrottleRules {
        login_failures_per_client: Rule::per_minutes(3, 15),
        login_failures_per_account: Rule::per_minutes(3, 15),
        login_slowdown_step: Duration::from_millis(40),
        ..Default::default()
    };
    let h = harness_with(db, rules);
    verified_user(&h, "ada@example.com").await;
    for i in 0..3 {
        let client = format!("10.0.0.{i}");
        assert!(matches!(
            h.auth.login("ada@example.com", "Wrong#1x", client.as_str()).await,
            Err(AuthError::BadCredentials)
        ));
    }
    for _ in 0..2 {
        assert!(matches!(
            h.auth.login("ada@example.com", "Wrong#1x", "10.0.0.0").await,
            Err(AuthError::BadCredentials)
        ));
    }
    let err = h.auth.login("ada@example.com", PASSWORD, "10.0.0.0").await.err().unwrap();
    assert!(
        matches!(err, AuthError::Throttled(_)),
        "the client that failed 3 times waits, right password or not: {err}"
    );
    let started = std::time::Instant::now();
    assert!(h.auth.login("ada@example.com", PASSWORD, "10.0.0.9").await.is_ok(), "a fresh client is never locked out");
    assert!(started.elapsed() >= Duration::from_millis(40), "but it is slowed down");
}

/// 30 wrong passwords at once from one client: exactly the limit of them are checked, the rest
/// wait. (The counter was read before the check and written after it, so parallel attempts all
/// saw room: 30 gave 12 checks, not 10.)
async fn parallel_wrong_passwords_get_exactly_the_limit_of_checks(db: TestDb) {
    let rules = auth::ThrottleRules {
        login_per_client: Rule::per_minutes(1000, 5),
        login_failures_per_client: Rule::per_minutes(10, 15),
        login_failures_per_account: Rule::per_minutes(1000, 15),
        ..Default::default()
    };
    let h = harness_with(db, rules);
    verified_user(&h, "ada@example.com").await;
    let attempts = (0..30).map(|_| {
        let auth = h.auth.clone();
        tokio::spawn(async move { auth.login("ada@example.com", "Wrong#Pass1", "10.0.0.66").await })
    });
    let (mut checked, mut waited) = (0, 0);
    for attempt in attempts.collect::<Vec<_>>() {
        match attempt.await.unwrap() {
            Err(AuthError::BadCredentials) => checked += 1,
            Err(AuthError::Throttled(_)) => waited += 1,
            other => panic!("unexpected answer: {:?}", other.map(|_| "a token")),
        }
    }
    assert_eq!((checked, waited), (10, 20), "exactly the limit of passwords were checked");
    let owner = h.auth.login("ada@example.com", PASSWORD, "10.0.0.67").await;
    assert!(owner.is_ok(), "another client is not held back");
}

async fn sign_up_is_throttled_per_client(db: TestDb) {
    let rules = auth::ThrottleRules { signup_per_client: Rule::per_minutes(2, 60), ..Default::default() };
    let h = harness_with(db, rules);
    h.auth.signup("A", "a@example.com", PASSWORD, "c1").await.unwrap();
    h.auth.signup("B", "b@example.com", PASSWORD, "c1").await.unwrap();
    let err = h.auth.signup("C", "c@example.com", PASSWORD, "c1").await.err().unwrap();
    assert!(matches!(err, AuthError::Throttled(_)));
    assert!(err.to_string().starts_with("Too many attempts"));
}

async fn sign_up_is_throttled_per_address(db: TestDb) {
    let rules = auth::ThrottleRules { signup_per_account: Rule::per_minutes(2, 60), ..Default::default() };
    let h = harness_with(db, rules);
    h.auth.signup("A", "a@example.com", PASSWORD, "c1").await.unwrap();
    assert!(matches!(
        h.auth.signup("A", "a@example.com", PASSWORD, "c2").await,
        Err(AuthError::AlreadyExistsUnverified)
    ));
    let err = h.auth.signup("A", "a@example.com", PASSWORD, "c3").await.err().unwrap();
    assert!(matches!(err, AuthError::Throttled(_)), "from any client: {err}");
    assert_eq!(mails(h.mail.path()).len(), 2, "no more mail to that address");
}

async fn throttle_window_starts_again_after_it_ends(db: TestDb) {
    let rule = Rule { max: 2, window: Duration::from_secs(1) };
    let mut conn = db.get().unwrap();
    auth::throttle::hit(&mut conn, "k", rule).unwrap();
    auth::throttle::hit(&mut conn, "k", rule).unwrap();
    assert!(auth::throttle::hit(&mut conn, "k", rule).is_err());
    std::thread::sleep(Duration::from_millis(1100));
    assert!(auth::throttle::hit(&mut conn, "k", rule).is_ok(), "a new window");
}

async fn sweep_forgets_expired_rows(db: TestDb) {
    let h = harness(db);
    verified_user(&h, "ada@example.com").await;
    h.auth.login("ada@example.com", PASSWORD, "c1").await.unwrap();
    // Nothing has expired yet: live sessions survive a sweep.
    h.auth.sweep().await.unwrap();
    let token = h.auth.login("ada@example.com", PASSWORD, "c1").await.unwrap();
    assert!(h.auth.authenticate(&token).await.is_ok());
}

test_support::both_backends!(
    signup_mails_a_link_that_verifies_once,
    second_signup_of_a_verified_address_is_refused,
    second_signup_of_an_unverified_address_sends_a_fresh_link,
    wrong_password_and_unknown_address_get_the_same_answer,
    logout_ends_the_session_for_real,
    deleting_the_account_ends_every_session,
    logins_are_unique_even_for_the_same_local_part,
    resend_has_a_three_minute_cooldown_per_address,
    resend_after_the_cooldown_sends_a_new_link,
    parallel_resends_pass_the_cooldown_once,
    sign_in_is_throttled_per_client,
    failed_sign_ins_lock_the_failing_client_and_only_slow_the_account,
    parallel_wrong_passwords_get_exactly_the_limit_of_checks,
    sign_up_is_throttled_per_client,
    sign_up_is_throttled_per_address,
    throttle_window_starts_again_after_it_ends,
    sweep_forgets_expired_rows,
);
