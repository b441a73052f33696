//! The access-control matrix (issue 16, docs/security.md): every call that takes an id, made
//! by each of six people — signed out, another member, a member in a block pair with the
//! owner, the owner, a suspended member and an admin — against objects made fresh for each
//! call, with the status spec §6 and issue 16 allow, and nothing more. A call added later with
//! an id belongs in this table.

use db::diesel::prelude::*;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;
use values::{SessionId, UserId};

use crate::common::{Options, TestApp, spawn_app_with};

/// The six, in the order the expected statuses are written.
const ACTORS: [&str; 6] = ["signed out", "other", "blocked", "owner", "suspended", "admin"];

struct World {
    app: TestApp,
    /// Tokens, `None` for signed out, in [`ACTORS`] order.
    tokens: [Option<String>; 6],
    owner_id: String,
    admin: String,
    other: String,
    /// Whom the admin calls about suspensions name: suspending the owner would end the owner's
    /// sessions, and the calls after it need them.
    target_id: String,
}

/// What one call needs made before it: the ids it names.
#[derive(Default)]
struct Made {
    post: String,
    comment: String,
    notification: String,
    session: String,
    report: String,
    key: String,
    target: String,
}

impl World {
    async fn new(db: TestDb) -> World {
        // Limits are tested elsewhere: here every call must reach its rule.
        let limits = "post=100000/1h,comment=100000/1h,comment_delete=100000/1h,like=100000/1h,listen=100000/1h,\
                      block=100000/1h,report=100000/1h,search=100000/1h,profile=100000/1h";
        let options = Options { env: vec![("SELFSOUND_WRITE_LIMITS".into(), limits.into())], ..Options::default() };
        let app = spawn_app_with(db, options).await;
        let (other, _) = app.person("Bob", "bob@example.com").await;
        let (blocked, blocked_id) = app.person("Cy", "cy@example.com").await;
        let (owner, owner_id) = app.person("Ana", "ana@example.com").await;
        let (suspended, suspended_id) = app.person("Sam", "sam@example.com").await;
        let (admin, _) = app.person("Rita", "rita@example.com").await;
        let (_, target_id) = app.person("Tess", "tess@example.com").await;
        {
            use db::schema::users;
            let mut conn = app.db.get().unwrap();
            db::diesel::update(users::table.filter(users::email.eq("rita@example.com")))
                .set(users::is_admin.eq(true))
                .execute(&mut *conn)
                .unwrap();
        }
        let block = app.call(Method::POST, &format!("/profiles/blocks/{blocked_id}"), Some(&owner), None).await;
        assert!(block.status.is_success(), "{:?}", block.body);
        let sus =
            app.post(&format!("/admin/users/{suspended_id}/suspend"), Some(&admin), json!({"reason": "spam"})).await;
        assert!(sus.status.is_success(), "{:?}", sus.body);
        World {
            tokens: [None, Some(other.clone()), Some(blocked), Some(owner), Some(suspended), Some(admin.clone())],
            app,
            owner_id,
            admin,
            other,
            target_id,
        }
    }

    fn owner(&self) -> &str {
        self.tokens[3].as_deref().unwrap()
    }

    /// The owner's post with the owner's comment on it, another person's comment (which
    /// notifies the owner), a pending report of the post, and a second session of the owner.
    async fn make(&self) -> Made {
        let post = self.app.lyrics_post(self.owner(), "Song").await["id"].as_str().unwrap().to_owned();
        let path = format!("/posts/{post}/comments");
        let comment = self.app.post(&path, Some(self.owner()), json!({"content": "mine"})).await;
        assert_eq!(comment.status, StatusCode::CREATED, "{:?}", comment.body);
        let theirs = self.app.post(&path, Some(&self.other), json!({"content": "nice"})).await;
        assert_eq!(theirs.status, StatusCode::CREATED, "{:?}", theirs.body);
        let notifications = self.app.get("/notifications?limit=1", Some(self.owner())).await;
        let report = json!({"post_id": post, "reason": "Spam", "description": null});
        assert!(self.app.post("/reports/post", Some(&self.other), report).await.status.is_success());
        let reports = self.app.get("/admin/reports?status=pending&limit=100", Some(&self.admin)).await;
        let report = reports.body.as_array().and_then(|l| l.iter().find(|r| r["post_id"] == post.as_str()));
        let report = report.unwrap_or_else(|| panic!("the report in {:?}", reports.body));
        Made {
            comment: id(&comment.body["comment"]["id"]),
            notification: id(&notifications.body[0]["id"]),
            session: self.extra_session(),
            report: id(&report["id"]),
            key: format!("posts/{post}/none.png"),
            target: self.target_id.clone(),
            post,
        }
    }

    /// A second session of the owner (not the one their token names).
    fn extra_session(&self) -> String {
        use db::schema::sessions;
        let session = SessionId::generate();
        let now = db::time::now();
        let owner: UserId = self.owner_id.parse().unwrap();
        db::diesel::insert_into(sessions::table)
            .values((
                sessions::id.eq(session),
                sessions::user_id.eq(owner),
                sessions::created_at.eq(now),
                sessions::expires_at.eq(now + chrono::Duration::hours(1)),
            ))
            .execute(&mut *self.app.db.get().unwrap())
            .unwrap();
        session.to_string()
    }
}

/// An id as the wire has it: a string, or a number.
fn id(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => panic!("an id, not {other}"),
    }
}

/// One call: its method, its path and body from what was made, and the status each of the six
/// gets, in [`ACTORS`] order.
struct Call {
    method: Method,
    path: fn(&Made, &str) -> String,
    body: fn(&Made) -> Option<Value>,
    expected: [u16; 6],
}

fn no_body(_: &Made) -> Option<Value> {
    None
}

fn calls() -> Vec<Call> {
    use Method as M;
    let call = |method, path, body, expected| Call { method, path, body, expected };
    vec![
        // Posts and their comments: public to read; a block pair never sees the other's. A
        // token whose session a suspension ended reads what anyone signed out reads.
        call(M::GET, |m, _| format!("/posts/{}", m.post), no_body, [200, 200, 404, 200, 200, 200]),
        call(M::GET, |m, _| format!("/posts/{}/comments", m.post), no_body, [200, 200, 404, 200, 200, 200]),
        call(M::POST, |m, _| format!("/posts/{}/like", m.post), no_body, [401, 200, 404, 200, 401, 200]),
        call(
            M::POST,
            |m, _| format!("/posts/{}/comments", m.post),
            |_| Some(json!({"content": "hello"})),
            [401, 201, 404, 201, 401, 201],
        ),
        // Only the author deletes a post (admins delete through a complaint).
        call(M::DELETE, |m, _| format!("/posts/{}", m.post), no_body, [401, 403, 404, 204, 401, 403]),
        // A comment: its author, the post's author, or an admin.
        call(
            M::DELETE,
            |m, _| format!("/posts/{}/comments/{}", m.post, m.comment),
            no_body,
            [401, 403, 404, 204, 401, 204],
        ),
        // Reports: anyone signed in but the author; nobody about what a block hides.
        call(
            M::POST,
            |_, _| "/reports/post".into(),
            |m| Some(json!({"post_id": m.post, "reason": "Spam", "description": null})),
            [401, 200, 404, 400, 401, 201],
        ),
        call(
            M::POST,
            |_, _| "/reports/comment".into(),
            |m| Some(json!({"comment_id": m.comment, "reason": "Spam", "description": null})),
            [401, 201, 404, 400, 401, 201],
        ),
        // People. Listening across a block answers the spec's 403; unlistening or unblocking
        // oneself changes nothing and says so.
        call(M::GET, |_, o| format!("/posts/user/{o}"), no_body, [200, 200, 200, 200, 200, 200]),
        call(M::GET, |_, o| format!("/profiles/{o}"), no_body, [200, 200, 200, 200, 200, 200]),
        call(M::GET, |_, o| format!("/profiles/{o}/stats"), no_body, [200, 200, 200, 200, 200, 200]),
        call(M::GET, |_, o| format!("/profile/{o}/stats"), no_body, [200, 200, 200, 200, 200, 200]),
        call(M::GET, |_, o| format!("/profiles/blocks/check/{o}"), no_body, [401, 200, 200, 200, 401, 200]),
        call(M::POST, |_, o| format!("/profiles/listening/{o}"), no_body, [401, 200, 403, 400, 401, 200]),
        call(M::DELETE, |_, o| format!("/profiles/listening/{o}"), no_body, [401, 200, 200, 200, 401, 200]),
        call(M::POST, |_, o| format!("/profiles/blocks/{o}"), no_body, [401, 200, 200, 400, 401, 200]),
        call(M::DELETE, |_, o| format!("/profiles/blocks/{o}"), no_body, [401, 200, 200, 200, 401, 200]),
        // What is the owner's own: nobody else even learns it exists.
        call(
            M::PATCH,
            |m, _| format!("/notifications/{}/read", m.notification),
            no_body,
            [401, 404, 404, 204, 401, 404],
        ),
        call(
            M::DELETE,
            |m, _| format!("/authorization/sessions/{}", m.session),
            no_body,
            [401, 404, 404, 200, 401, 404],
        ),
        // Admin calls.
        call(
            M::POST,
            |m, _| format!("/admin/reports/{}/resolve", m.report),
            |_| Some(json!({"action": "ignore"})),
            [401, 403, 403, 403, 401, 200],
        ),
        call(M::GET, |m, _| format!("/admin/users/{}/suspend", m.target), no_body, [401, 403, 403, 403, 401, 200]),
        call(
            M::POST,
            |m, _| format!("/admin/users/{}/suspend", m.target),
            |_| Some(json!({"reason": "spam"})),
            [401, 403, 403, 403, 401, 200],
        ),
        call(M::DELETE, |m, _| format!("/admin/users/{}/suspend", m.target), no_body, [401, 403, 403, 403, 401, 409]),
        // Media are public by their unguessable key; a missing one is missing for everyone.
        call(M::GET, |m, _| format!("/media/{}", m.key), no_body, [404, 404, 404, 404, 404, 404]),
    ]
}

async fn every_call_with_an_id_allows_what_the_rules_allow_and_nothing_more(db: TestDb) {
    let world = World::new(db).await;
    let mut wrong = Vec::new();
    for c in calls() {
        let mut made = world.make().await;
        for (n, actor) in ACTORS.iter().enumerate() {
            // What a deletion took is made again for the next person.
            if c.method == Method::DELETE && n > 0 {
                made = world.make().await;
            }
            let path = (c.path)(&made, &world.owner_id);
            let got = world.app.call(c.method.clone(), &path, world.tokens[n].as_deref(), (c.body)(&made)).await;
            if got.status.as_u16() != c.expected[n] {
                wrong.push(format!(
                    "{} {path} as {actor}: {} (expected {}) {}",
                    c.method,
                    got.status.as_u16(),
                    c.expected[n],
                    got.body
                ));
            }
            if got.status.is_client_error() {
                assert!(
                    got.body["detail"].is_string(),
                    "{} {path} as {actor}: a 4xx with a detail: {}",
                    c.method,
                    got.body
                );
            }
            // A suspension or a block made by the matrix is undone for the next call.
            let undone = path.ends_with("/suspend") || path.starts_with("/profiles/blocks/");
            if c.method == Method::POST && undone && got.status.is_success() {
                let undo = world.app.call(Method::DELETE, &path, world.tokens[n].as_deref(), None).await;
                assert!(undo.status.is_success(), "{:?}", undo.body);
            }
        }
    }
    assert!(wrong.is_empty(), "{} of the matrix differ:\n{}", wrong.len(), wrong.join("\n"));
}

test_support::both_backends!(every_call_with_an_id_allows_what_the_rules_allow_and_nothing_more);
