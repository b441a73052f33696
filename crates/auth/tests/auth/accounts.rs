//! Account rules against a real database, on SQLite and on PostgreSQL.

use std::path::{Path, PathBuf};
use std::time::Duration;

use auth::mail::Mailer;
use auth::token::TokenKeys;
use auth::{AuthConfig, AuthError, AuthService, OnVerified};
use db::diesel::prelude::*;
use db::schema::sessions;
use db::throttle::Rule;
use test_support::TestDb;
use values::UserId;

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
    harness_full(db, throttle, &OnVerified::default())
}

fn harness_full(db: TestDb, throttle: auth::ThrottleRules, on_verified: &OnVerified) -> Harness {
    let mail = tempfile::tempdir().unwrap();
    let mailer = Mailer::folder(mail.path().to_path_buf(), "SelfSound <no-reply@example.com>").unwrap();
    let config = AuthConfig {
        public_url: "http://127.0.0.1:9".into(),
        sign_in_page: "http://127.0.0.1:9/app/sign-in".into(),
        frontend_origins: vec!["http://127.0.0.1:9".into()],
        reset_page: "http://127.0.0.1:9/app/reset-password#token={token}".into(),
        throttle,
        on_verified: on_verified.clone(),
        sealer: auth::seal::Sealer::new(&[9; 32]),
        webauthn: None,
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
    token_in(&mails(dir).pop().expect("an e-mail was written"))
}

/// The verification token of one e-mail.
fn token_in(mail: &Path) -> String {
    let text = std::fs::read_to_string(mail).unwrap().replace("=\r\n", "").replace("=3D", "=");
    let start = text.find("verify?token=").expect("a verification link") + "verify?token=".len();
    text[start..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect()
}

/// Signs up and answers the token of the link that sign-up mailed (a repeated sign-up answers
/// the spec's "already exists" error, which is fine here).
async fn sign_up_for_link(h: &Harness, name: &str, email: &str, password: &str) -> String {
    let before = mails(h.mail.path()).len();
    match h.auth.signup(name, email, password, "c1").await {
        Ok(_) | Err(AuthError::AlreadyExistsUnverified) => {}
        Err(e) => panic!("sign-up: {e}"),
    }
    let all = mails(h.mail.path());
    assert_eq!(all.len(), before + 1, "each sign-up mails its own link");
    latest_token(h.mail.path())
}

async fn name_of(h: &Harness, email: &str, password: &str) -> String {
    let token = h.auth.login(email, password, None, "c9").await.unwrap();
    h.auth.authenticate(&token).await.unwrap().name
}

async fn verified_user(h: &Harness, email: &str) {
    h.auth.signup("Ada", email, PASSWORD, "c1").await.unwrap();
    h.auth.verify_email(&latest_token(h.mail.path())).await.unwrap();
}

async fn signup_mails_a_link_that_verifies_once(db: TestDb) {
    let h = harness(db);
    let out = h.auth.signup(" Ada ", "Ada@Example.com", PASSWORD, "c1").await.unwrap();
    assert_eq!(out.email, "ada@example.com");
    assert!(matches!(h.auth.login("ada@example.com", PASSWORD, None, "c1").await, Err(AuthError::NotVerified)));
    let token = latest_token(h.mail.path());
    h.auth.verify_email(&token).await.unwrap();
    assert!(matches!(h.auth.verify_email(&token).await, Err(AuthError::BadVerificationLink)));
    assert!(h.auth.login("ADA@example.com", PASSWORD, None, "c1").await.is_ok());
}

async fn second_signup_of_a_verified_address_is_refused(db: TestDb) {
    let h = harness(db);
    verified_user(&h, "ada@example.com").await;
    let again = h.auth.signup("Ada", "ada@example.com", PASSWORD, "c1").await;
    assert_eq!(again.err().unwrap().to_string(), "User already exists and is verified");
}

/// High: whoever signed up first kept the account's password, so an attacker who signed up the
/// owner's address first got in once the owner opened their link. Each sign-up now keeps its
/// own password and name with its own link, and a link verifies the sign-up that sent it.
async fn a_link_verifies_the_password_of_the_sign_up_that_sent_it(db: TestDb) {
    let h = harness(db);
    let attacker = sign_up_for_link(&h, "Mallory", "ada@example.com", "Attacker#Pass7").await;
    let owner = sign_up_for_link(&h, "Ada", "ada@example.com", PASSWORD).await;
    assert_ne!(attacker, owner);
    h.auth.verify_email(&owner).await.unwrap();
    assert_eq!(name_of(&h, "ada@example.com", PASSWORD).await, "Ada", "the owner's password and name");
    let attacker_sign_in = h.auth.login("ada@example.com", "Attacker#Pass7", None, "c9").await;
    assert!(matches!(attacker_sign_in, Err(AuthError::BadCredentials)));
    assert!(
        matches!(h.auth.verify_email(&attacker).await, Err(AuthError::BadVerificationLink)),
        "once the address is verified, another pending link changes nothing"
    );
    assert!(h.auth.login("ada@example.com", PASSWORD, None, "c9").await.is_ok());
    assert!(h.auth.login("ada@example.com", "Attacker#Pass7", None, "c8").await.is_err());
}

/// The other order: the owner first, then a repeated sign-up. It changes nothing of the account
/// and leaves the owner's link working.
async fn a_repeated_sign_up_keeps_earlier_links_working(db: TestDb) {
    let h = harness(db);
    let owner = sign_up_for_link(&h, "Ada", "ada@example.com", PASSWORD).await;
    let again = h.auth.signup("Mallory", "ada@example.com", "Other#Pass1", "c1").await;
    assert_eq!(
        again.err().unwrap().to_string(),
        "User already exists but is not verified. A new verification email has been sent."
    );
    let repeat = latest_token(h.mail.path());
    h.auth.verify_email(&owner).await.unwrap();
    assert!(matches!(h.auth.verify_email(&repeat).await, Err(AuthError::BadVerificationLink)));
    assert_eq!(name_of(&h, "ada@example.com", PASSWORD).await, "Ada");
    let retry = h.auth.login("ada@example.com", "Other#Pass1", None, "c1").await;
    assert!(matches!(retry, Err(AuthError::BadCredentials)), "the repeat's password does not work");
}

/// Before verifying, the newest sign-up's password answers "please verify"; any other is wrong.
async fn signing_in_before_verifying_checks_the_newest_sign_up(db: TestDb) {
    let h = harness(db);
    sign_up_for_link(&h, "Ada", "ada@example.com", "First#Pass1").await;
    sign_up_for_link(&h, "Ada", "ada@example.com", PASSWORD).await;
    assert!(matches!(h.auth.login("ada@example.com", PASSWORD, None, "c1").await, Err(AuthError::NotVerified)));
    assert!(matches!(h.auth.login("ada@example.com", "First#Pass1", None, "c1").await, Err(AuthError::BadCredentials)));
    assert!(matches!(h.auth.login("ada@example.com", "Wrong#Pass1", None, "c1").await, Err(AuthError::BadCredentials)));
}

/// "Resend" is not a sign-up: it mails a fresh link for the newest pending sign-up (whose old
/// link stops working), leaves the others alone, and sends nothing when none is pending.
async fn resend_renews_the_link_of_the_newest_sign_up(db: TestDb) {
    let rules = auth::ThrottleRules { resend_cooldown: Duration::from_millis(300), ..Default::default() };
    let h = harness_with(db, rules);
    let first = sign_up_for_link(&h, "Ada", "ada@example.com", "First#Pass1").await;
    let newest = sign_up_for_link(&h, "Ada L", "ada@example.com", PASSWORD).await;
    h.auth.resend_verification("ada@example.com", "c1").await.unwrap();
    let fresh = latest_token(h.mail.path());
    assert!(![&first, &newest].contains(&&fresh));
    assert!(std::fs::read_to_string(mails(h.mail.path()).pop().unwrap()).unwrap().contains("Hi Ada L,"));
    assert!(matches!(h.auth.verify_email(&newest).await, Err(AuthError::BadVerificationLink)), "renewed");
    h.auth.verify_email(&fresh).await.unwrap();
    assert_eq!(name_of(&h, "ada@example.com", PASSWORD).await, "Ada L");
    assert!(matches!(h.auth.verify_email(&first).await, Err(AuthError::BadVerificationLink)), "verified now");

    // An unverified address whose sign-ups have all gone (expired and swept): nothing is sent.
    sign_up_for_link(&h, "Bea", "bea@example.com", PASSWORD).await;
    {
        use db::diesel::prelude::*;
        db::diesel::delete(db::schema::email_verification_tokens::table).execute(&mut h._db.get().unwrap()).unwrap();
    }
    let sent = mails(h.mail.path()).len();
    tokio::time::sleep(Duration::from_millis(350)).await;
    h.auth.resend_verification("bea@example.com", "c1").await.unwrap();
    assert_eq!(mails(h.mail.path()).len(), sent, "no link to renew: sign up again");
}

/// A password-reset link proves the address too: the pending sign-ups of an unverified account
/// go with it.
async fn a_password_reset_of_an_unverified_account_ends_its_pending_sign_ups(db: TestDb) {
    let rules = auth::ThrottleRules { resend_cooldown: Duration::from_millis(1), ..Default::default() };
    let h = harness_with(db, rules);
    let attacker = sign_up_for_link(&h, "Mallory", "ada@example.com", "Attacker#Pass7").await;
    h.auth.request_password_reset("ada@example.com", "c1").await.unwrap();
    let mut reset = None;
    for _ in 0..100 {
        let newest = std::fs::read_to_string(mails(h.mail.path()).pop().unwrap()).unwrap();
        let newest = newest.replace("=\r\n", "").replace("=3D", "=");
        if let Some(at) = newest.find("#token=") {
            let token: String =
                newest[at + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
            reset = Some(token);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    h.auth.reset_password(&reset.expect("a reset e-mail"), PASSWORD).await.unwrap();
    assert!(matches!(h.auth.verify_email(&attacker).await, Err(AuthError::BadVerificationLink)));
    assert!(h.auth.login("ada@example.com", PASSWORD, None, "c1").await.is_ok());
    assert!(h.auth.login("ada@example.com", "Attacker#Pass7", None, "c2").await.is_err());
}

/// What another domain attaches to a verification (the api grants `ADMIN_EMAILS` there) runs
/// in the verifying transaction: when it fails, the address stays unverified and the link
/// keeps working.
async fn work_attached_to_verification_runs_in_its_transaction(db: TestDb) {
    use std::sync::{Arc, Mutex};
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let fail = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let hook = {
        let (seen, fail) = (seen.clone(), fail.clone());
        OnVerified::new(move |_conn, _user, email| {
            if fail.load(std::sync::atomic::Ordering::SeqCst) {
                return Err("the attached work failed".into());
            }
            seen.lock().unwrap().push(email.as_str().to_owned());
            Ok(())
        })
    };
    let h = harness_full(db, auth::ThrottleRules::default(), &hook);
    let link = sign_up_for_link(&h, "Ada", "ada@example.com", PASSWORD).await;
    let failed = h.auth.verify_email(&link).await.err().unwrap();
    assert!(matches!(failed, AuthError::AfterVerification(_)), "{failed}");
    assert!(matches!(h.auth.login("ada@example.com", PASSWORD, None, "c1").await, Err(AuthError::NotVerified)));
    fail.store(false, std::sync::atomic::Ordering::SeqCst);
    h.auth.verify_email(&link).await.unwrap();
    assert_eq!(*seen.lock().unwrap(), ["ada@example.com"]);
    assert!(h.auth.login("ada@example.com", PASSWORD, None, "c1").await.is_ok());
}

async fn wrong_password_and_unknown_address_get_the_same_answer(db: TestDb) {
    let h = harness(db);
    verified_user(&h, "ada@example.com").await;
    let wrong = h.auth.login("ada@example.com", "Wrong#Pass1", None, "c1").await.err().unwrap();
    let unknown = h.auth.login("nobody@example.com", PASSWORD, None, "c1").await.err().unwrap();
    assert!(matches!(wrong, AuthError::BadCredentials));
    assert_eq!(wrong.to_string(), unknown.to_string());
}

async fn logout_ends_the_session_for_real(db: TestDb) {
    let h = harness(db);
    verified_user(&h, "ada@example.com").await;
    let token = h.auth.login("ada@example.com", PASSWORD, None, "c1").await.unwrap();
    let other = h.auth.login("ada@example.com", PASSWORD, None, "c1").await.unwrap();
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
    let a = h.auth.login("ada@example.com", PASSWORD, None, "c1").await.unwrap();
    let b = h.auth.login("ada@example.com", PASSWORD, None, "c1").await.unwrap();
    let me = h.auth.authenticate(&a).await.unwrap();
    // The account's own part of a deletion (the whole use case is `app::delete_account`).
    h._db.write_blocking(|conn| auth::release_account(conn, me.id)).unwrap();
    assert!(h.auth.authenticate(&a).await.is_err());
    assert!(h.auth.authenticate(&b).await.is_err());
    assert!(matches!(h.auth.login("ada@example.com", PASSWORD, None, "c1").await, Err(AuthError::BadCredentials)));
    h.auth.signup("Ada", "ada@example.com", PASSWORD, "c1").await.expect("the address is free again");
}

async fn logins_are_unique_even_for_the_same_local_part(db: TestDb) {
    let h = harness(db);
    verified_user(&h, "ada@one.example").await;
    verified_user(&h, "ada@two.example").await;
    let a = h.auth.login("ada@one.example", PASSWORD, None, "c1").await.unwrap();
    let b = h.auth.login("ada@two.example", PASSWORD, None, "c1").await.unwrap();
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
        assert!(h.auth.login("ada@example.com", PASSWORD, None, "10.0.0.1").await.is_ok());
    }
    let err = h.auth.login("ada@example.com", PASSWORD, None, "10.0.0.1").await.err().unwrap();
    assert!(matches!(err, AuthError::Throttled(_)), "{err}");
    assert!(
        h.auth.login("ada@example.com", PASSWORD, None, "10.0.0.2").await.is_ok(),
        "another client is not held back"
    );
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
            h.auth.login("ada@example.com", "Wrong#1x", None, client.as_str()).await,
            Err(AuthError::BadCredentials)
        ));
    }
    for _ in 0..2 {
        assert!(matches!(
            h.auth.login("ada@example.com", "Wrong#1x", None, "10.0.0.0").await,
            Err(AuthError::BadCredentials)
        ));
    }
    let err = h.auth.login("ada@example.com", PASSWORD, None, "10.0.0.0").await.err().unwrap();
    assert!(
        matches!(err, AuthError::Throttled(_)),
        "the client that failed 3 times waits, right password or not: {err}"
    );
    let started = std::time::Instant::now();
    assert!(
        h.auth.login("ada@example.com", PASSWORD, None, "10.0.0.9").await.is_ok(),
        "a fresh client is never locked out"
    );
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
        tokio::spawn(async move { auth.login("ada@example.com", "Wrong#Pass1", None, "10.0.0.66").await })
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
    let owner = h.auth.login("ada@example.com", PASSWORD, None, "10.0.0.67").await;
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

async fn sweep_forgets_expired_rows(db: TestDb) {
    let h = harness(db);
    verified_user(&h, "ada@example.com").await;
    h.auth.login("ada@example.com", PASSWORD, None, "c1").await.unwrap();
    // Nothing has expired yet: live sessions survive a sweep.
    h.auth.sweep().await.unwrap();
    let token = h.auth.login("ada@example.com", PASSWORD, None, "c1").await.unwrap();
    assert!(h.auth.authenticate(&token).await.is_ok());
}

// --- Sessions checked a moment ago (`auth::known`) ------------------------------------------

/// A read with `token`, as a page's: its session checked, or taken as checked a moment ago.
async fn read_with(h: &Harness, token: &str) -> Result<UserId, AuthError> {
    h.auth.authenticate_reading(token, |_, _| ()).await.map(|(user, ())| user)
}

/// A checked session is known to its person until a session of theirs ends (anyone else's
/// ending changes nothing), and only under the token that names both.
async fn a_checked_session_is_known_to_its_user_until_one_of_theirs_ends(db: TestDb) {
    // As in a server whose PostgreSQL listener is up: what is checked may be remembered.
    db.changes().listening(true);
    let h = harness(db);
    verified_user(&h, "ada@example.com").await;
    h.auth.signup("Bob", "bob@example.com", PASSWORD, "c1").await.unwrap();
    h.auth.verify_email(&latest_token(h.mail.path())).await.unwrap();
    let token = h.auth.login("ada@example.com", PASSWORD, None, "c1").await.unwrap();
    let other = h.auth.login("ada@example.com", PASSWORD, None, "c1").await.unwrap();
    let bobs = h.auth.login("bob@example.com", PASSWORD, None, "c1").await.unwrap();
    assert_eq!(h.auth.known_viewer(&token), None, "not checked yet");
    let ada = read_with(&h, &token).await.unwrap();
    assert_eq!(h.auth.known_viewer(&token), Some(ada));
    let keys = TokenKeys::new(&[7; 32]);
    let (_, session) = keys.verify(&token).unwrap();
    let bob = read_with(&h, &bobs).await.unwrap();
    let naming_bob = keys.issue(bob, session, db::time::now() + chrono::Duration::hours(1)).unwrap();
    assert_eq!(h.auth.known_viewer(&naming_bob), None, "a token naming another person");
    assert!(read_with(&h, &naming_bob).await.is_err());
    h.auth.logout(&bobs).await.unwrap();
    assert_eq!(h.auth.known_viewer(&token), Some(ada), "someone else's session ended");
    h.auth.logout(&other).await.unwrap();
    assert_eq!(h.auth.known_viewer(&token), None, "a session of Ada's ended: hers are checked again");
    assert_eq!(read_with(&h, &token).await.unwrap(), ada, "this one still stands");
    assert_eq!(h.auth.known_viewer(&token), Some(ada));
    h.auth.logout(&token).await.unwrap();
    assert_eq!(h.auth.known_viewer(&token), None);
    assert!(matches!(read_with(&h, &token).await, Err(AuthError::Unauthenticated)));
}

/// What another domain wants of a viewer (`db::Along`) is read in the statement that checks
/// their session, and handed back; not when the session is known, nor when it does not stand.
async fn a_session_check_reads_what_another_domain_wants_along(db: TestDb) {
    #[derive(Default)]
    struct Wants {
        asked: std::sync::Mutex<Vec<UserId>>,
        found: std::sync::Mutex<Vec<(UserId, Option<String>, bool)>>,
    }
    impl db::Along for Wants {
        fn wanted(&self, viewer: UserId) -> Option<&'static str> {
            self.asked.lock().unwrap().push(viewer);
            Some("'seen ' || CAST(? AS TEXT) || ' and ' || CAST(? AS TEXT)")
        }
        fn found(&self, viewer: UserId, seen: Option<db::Seen>, text: Option<String>) {
            self.found.lock().unwrap().push((viewer, text, seen.is_some()));
        }
    }
    db.changes().listening(true);
    let h = harness(db);
    let wants = std::sync::Arc::new(Wants::default());
    h.auth.read_along(wants.clone());
    verified_user(&h, "ada@example.com").await;
    let token = h.auth.login("ada@example.com", PASSWORD, None, "c1").await.unwrap();
    let ada = read_with(&h, &token).await.unwrap();
    let said = format!("seen {ada} and {ada}");
    assert_eq!(*wants.found.lock().unwrap(), vec![(ada, Some(said.clone()), true)], "each ? the viewer");
    assert_eq!(read_with(&h, &token).await.unwrap(), ada);
    assert_eq!(wants.asked.lock().unwrap().len(), 1, "a session known is not checked: nothing read along");
    h.auth.logout(&token).await.unwrap();
    assert!(matches!(read_with(&h, &token).await, Err(AuthError::Unauthenticated)));
    assert_eq!(wants.asked.lock().unwrap().len(), 2);
    assert_eq!(wants.found.lock().unwrap().len(), 1, "a session that does not stand hands nothing back");
}

/// A session past its expiry is never taken from memory.
async fn an_expired_session_is_not_taken_from_memory(db: TestDb) {
    db.changes().listening(true);
    let h = harness(db);
    verified_user(&h, "ada@example.com").await;
    let token = h.auth.login("ada@example.com", PASSWORD, None, "c1").await.unwrap();
    let expires = db::time::now() + chrono::Duration::seconds(1);
    diesel::update(sessions::table).set(sessions::expires_at.eq(expires)).execute(&mut h._db.get().unwrap()).unwrap();
    let ada = read_with(&h, &token).await.unwrap();
    assert_eq!(h.auth.known_viewer(&token), Some(ada));
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(h.auth.known_viewer(&token), None);
    assert!(matches!(read_with(&h, &token).await, Err(AuthError::Unauthenticated)));
}

test_support::both_backends!(
    a_checked_session_is_known_to_its_user_until_one_of_theirs_ends,
    an_expired_session_is_not_taken_from_memory,
    a_session_check_reads_what_another_domain_wants_along,
    signup_mails_a_link_that_verifies_once,
    second_signup_of_a_verified_address_is_refused,
    a_link_verifies_the_password_of_the_sign_up_that_sent_it,
    a_repeated_sign_up_keeps_earlier_links_working,
    signing_in_before_verifying_checks_the_newest_sign_up,
    resend_renews_the_link_of_the_newest_sign_up,
    a_password_reset_of_an_unverified_account_ends_its_pending_sign_ups,
    work_attached_to_verification_runs_in_its_transaction,
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
    sweep_forgets_expired_rows,
);
