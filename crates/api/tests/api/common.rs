//! `spawn_app()`: the real server on a free port with its own fresh database, and typed helpers
//! that speak to it like a client written from the spec would.

#![allow(dead_code)]

use std::collections::HashMap;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use db::diesel::prelude::*;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;
use values::{Login, SessionId};

pub const PASSWORD: &str = "Sound#Check9";
/// The token-signing secret every test server gets, so tests can sign in people directly.
pub const JWT_SECRET: &str = "test-secret-test-secret-test-secret-0123";

pub struct TestApp {
    pub url: String,
    pub client: reqwest::Client,
    pub data_dir: tempfile::TempDir,
    pub db: TestDb,
    handle: actix_web::dev::ServerHandle,
}

#[derive(Default)]
pub struct Options {
    pub env: Vec<(String, String)>,
    /// The host the server's public URL names (`127.0.0.1` unless given): federation signs
    /// for host names, so its tests name it `localhost`.
    pub public_host: Option<&'static str>,
    pub throttle: auth::ThrottleRules,
}

pub async fn spawn_app(db: TestDb) -> TestApp {
    spawn_app_with(db, Options::default()).await
}

pub async fn spawn_app_with(db: TestDb, options: Options) -> TestApp {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}");
    let public_url = format!("http://{}:{port}", options.public_host.unwrap_or("127.0.0.1"));
    let data_dir = tempfile::tempdir().unwrap();
    let mut env: HashMap<String, String> = HashMap::from([
        ("DATABASE_URL".into(), db.url.clone()),
        ("SELFSOUND_DATA_DIR".into(), data_dir.path().display().to_string()),
        ("SELFSOUND_PUBLIC_URL".into(), public_url),
        ("SELFSOUND_WEB_DIR".into(), data_dir.path().join("no-web-app").display().to_string()),
        ("SELFSOUND_JWT_SECRET".into(), JWT_SECRET.into()),
    ]);
    env.extend(options.env);
    let mut config = api::config::Config::from_lookup(|k| env.get(k).cloned()).unwrap();
    config.throttle = options.throttle;
    let state = api::server::state(config).await.unwrap();
    let server = api::server::run(state, listener).unwrap();
    let handle = server.handle();
    tokio::spawn(server);
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    TestApp { url, client, data_dir, db, handle }
}

pub struct Answer {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl Answer {
    pub fn detail(&self) -> &str {
        self.body["detail"].as_str().unwrap_or_default()
    }
}

impl TestApp {
    pub async fn stop(&self) {
        self.handle.stop(false).await;
    }

    pub async fn call(&self, method: Method, path: &str, token: Option<&str>, body: Option<Value>) -> Answer {
        let mut req = self.client.request(method, format!("{}{path}", self.url));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        answer(req.send().await.unwrap()).await
    }

    pub async fn raw(&self, req: reqwest::RequestBuilder) -> Answer {
        answer(req.send().await.unwrap()).await
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Answer {
        self.call(Method::GET, path, token, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Answer {
        self.call(Method::POST, path, token, Some(body)).await
    }

    pub async fn sign_up(&self, name: &str, email: &str, password: &str) -> Answer {
        mail_clock_tick().await;
        self.post("/authorization/signup", None, json!({"name": name, "email": email, "password": password})).await
    }

    pub async fn log_in(&self, email: &str, password: &str) -> Answer {
        self.post("/authorization/logindefault", None, json!({"email": email, "password": password})).await
    }

    pub fn mail_dir(&self) -> PathBuf {
        self.data_dir.path().join("mail")
    }

    /// The verification link of the newest e-mail to `email`.
    pub fn verification_link(&self, email: &str) -> String {
        let mut mails: Vec<_> = std::fs::read_dir(self.mail_dir()).unwrap().flatten().map(|e| e.path()).collect();
        mails.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
        let text = mails
            .iter()
            .rev()
            .map(|p| std::fs::read_to_string(p).unwrap().replace("=\r\n", "").replace("=3D", "="))
            .find(|t| t.contains(&format!("To: {email}")))
            .expect("an e-mail to this address");
        let start = text.find("http").expect("a link");
        let link: String = text[start..].chars().take_while(|c| !c.is_whitespace() && *c != '"' && *c != '<').collect();
        assert!(link.contains("/authorization/verify?token="), "{link}");
        link
    }

    pub fn mail_count(&self) -> usize {
        std::fs::read_dir(self.mail_dir()).map(|d| d.count()).unwrap_or(0)
    }

    /// Signs up, follows the e-mailed link and signs in; answers the access token.
    pub async fn verified_user(&self, name: &str, email: &str) -> String {
        assert_eq!(self.sign_up(name, email, PASSWORD).await.status, StatusCode::OK);
        let link = self.verification_link(email);
        let res = self.client.get(&link).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
        let answer = self.log_in(email, PASSWORD).await;
        assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
        answer.body["access_token"].as_str().unwrap().to_owned()
    }
}

/// File times move in clock ticks of a few milliseconds: two e-mails written within one tick
/// would look equally new to the helpers that find the newest. Calls that send mail wait a tick.
pub async fn mail_clock_tick() {
    tokio::time::sleep(std::time::Duration::from_millis(15)).await;
}

async fn answer(res: reqwest::Response) -> Answer {
    let status = res.status();
    let headers = res.headers().clone();
    let text = res.text().await.unwrap();
    let body = if text.is_empty() { Value::Null } else { serde_json::from_str(&text).unwrap_or(Value::String(text)) };
    Answer { status, headers, body }
}

/// A verified, signed-in person, made straight in the database of any server of the tests
/// (they share the token-signing secret). Answers (token, id).
pub fn person_in(db: &TestDb, name: &str, email: &str) -> (String, String) {
    use db::schema::sessions;
    let session = SessionId::generate();
    let login = Login::base_from(email.split('@').next().unwrap()).into_inner();
    let now = db::time::now();
    let expires = now + chrono::Duration::hours(24);
    let mut conn = db.get().unwrap();
    let id = test_support::insert_user_with_email(&mut conn, name, &login, email);
    db::diesel::insert_into(sessions::table)
        .values((
            sessions::id.eq(session),
            sessions::user_id.eq(id),
            sessions::created_at.eq(now),
            sessions::expires_at.eq(expires),
        ))
        .execute(&mut *conn)
        .unwrap();
    let token = auth::token::TokenKeys::new(JWT_SECRET.as_bytes()).issue(id, session, expires).unwrap();
    (token, id.to_string())
}

/// Makes the account with this e-mail address an admin, straight in the database (the role
/// itself and the command line that grants it are tested in `moderation.rs`).
pub fn make_admin(db: &TestDb, email: &str) {
    use db::schema::users;
    db::diesel::update(users::table.filter(users::email.eq(email)))
        .set(users::is_admin.eq(true))
        .execute(&mut *db.get().unwrap())
        .unwrap();
}

/// The body of `POST /posts/lyrics` for a one-verse song titled `title`.
pub fn lyrics_body(title: &str) -> Value {
    json!({"songTitle": title, "artistName": "Band", "parts": [{"type": "verse", "lyrics": "la la"}], "caption": "new"})
}

impl TestApp {
    /// A verified, signed-in person, made straight in the database: no e-mail, no Argon2, for
    /// tests that are not about signing up (`verified_user` goes the whole way). The login is
    /// the one sign-up would give. Answers (token, id).
    pub async fn person(&self, name: &str, email: &str) -> (String, String) {
        person_in(&self.db, name, email)
    }

    /// Posts a one-verse lyrics post titled `title` (the quickest post to make, for tests of
    /// what hangs on posts); answers the post as created.
    pub async fn lyrics_post(&self, token: &str, title: &str) -> Value {
        let made = self.post("/posts/lyrics", Some(token), lyrics_body(title)).await;
        assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
        made.body
    }

    /// Sends `bytes` as the multipart field `field` of `PATCH /profile/me/avatar`.
    pub async fn upload_avatar(&self, token: Option<&str>, field: &str, filename: &str, bytes: Vec<u8>) -> Answer {
        let boundary = "selfsound-test-boundary";
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{filename}\"\r\nContent-Type: image/png\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(&bytes);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let mut req = self
            .client
            .patch(format!("{}/profile/me/avatar", self.url))
            .header("content-type", format!("multipart/form-data; boundary={boundary}"))
            .body(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        self.raw(req).await
    }
}

/// One part of a multipart form.
pub enum Part {
    File { field: &'static str, name: String, bytes: Vec<u8> },
    Text { field: &'static str, value: String },
}

impl Part {
    pub fn file(field: &'static str, name: &str, bytes: impl Into<Vec<u8>>) -> Part {
        Part::File { field, name: name.to_owned(), bytes: bytes.into() }
    }

    pub fn text(field: &'static str, value: &str) -> Part {
        Part::Text { field, value: value.to_owned() }
    }
}

/// A multipart/form-data body of `parts`, with its content type.
pub fn multipart(parts: &[Part]) -> (String, Vec<u8>) {
    let boundary = "selfsound-test-boundary-7d1f";
    let mut body = Vec::new();
    for part in parts {
        match part {
            Part::File { field, name, bytes } => {
                body.extend_from_slice(
                    format!(
                        "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                    )
                    .as_bytes(),
                );
                body.extend_from_slice(bytes);
            }
            Part::Text { field, value } => body.extend_from_slice(
                format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"\r\n\r\n{value}").as_bytes(),
            ),
        }
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

impl TestApp {
    /// Sends `parts` as a multipart form to `path` (POST).
    pub async fn post_form(&self, path: &str, token: Option<&str>, parts: &[Part]) -> Answer {
        let (content_type, body) = multipart(parts);
        let mut req = self.client.post(format!("{}{path}", self.url)).header("content-type", content_type).body(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        self.raw(req).await
    }
}

/// A real PNG of `w`×1 pixels with a text chunk carrying a "location".
pub fn png_with_location(w: u32) -> Vec<u8> {
    test_support::media::png(w, Some("51.5N 0.1W"))
}

/// A `selfsound serve` process of its own on a free port.
pub struct Process {
    pub url: String,
    child: Child,
    _data: tempfile::TempDir,
}

impl Process {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills it (SIGKILL), as a crash does, and waits until it is gone.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends it SIGTERM, as a supervisor stopping it does.
    pub fn terminate(&self) {
        let sent = Command::new("kill").args(["-TERM", &self.pid().to_string()]).status().unwrap();
        assert!(sent.success());
    }

    /// Its exit status, once it has exited within `limit`; `None` if it is still running.
    pub async fn exited_within(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let started = Instant::now();
        while started.elapsed() < limit {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        None
    }

    /// Its `SELFSOUND_DATA_DIR` (media under `media/`).
    pub fn data_dir(&self) -> &std::path::Path {
        self._data.path()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `log`: where its log goes (at the default level, info); none: nowhere, warnings only.
pub async fn start_process(database_url: &str, log: Option<&std::path::Path>) -> Process {
    start_process_with(database_url, log, &[]).await
}

/// [`start_process`] with more settings in its environment.
pub async fn start_process_with(database_url: &str, log: Option<&std::path::Path>, env: &[(&str, &str)]) -> Process {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}");
    let data = tempfile::tempdir().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_selfsound"))
        .arg("serve")
        .env("DATABASE_URL", database_url)
        .env("SELFSOUND_DATA_DIR", data.path())
        .env("SELFSOUND_BIND", format!("127.0.0.1:{port}"))
        .env("SELFSOUND_PUBLIC_URL", &url)
        .env("SELFSOUND_JWT_SECRET", JWT_SECRET)
        .env("SELFSOUND_WEB_DIR", data.path().join("no-web-app"))
        .env("RUST_LOG", if log.is_some() { "info" } else { "warn" })
        .envs(env.iter().copied())
        .stdout(match log {
            Some(path) => Stdio::from(std::fs::File::create(path).unwrap()),
            None => Stdio::null(),
        })
        .spawn()
        .unwrap();
    let process = Process { child, url, _data: data };
    let started = Instant::now();
    while reqwest::get(format!("{}/healthz", process.url)).await.is_err() {
        assert!(started.elapsed() < Duration::from_secs(30), "the server did not start");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    process
}
