//! Typed configuration, read from the environment and checked at start with clear messages.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use actix_web::cookie::SameSite;
use auth::oidc::GOOGLE_ISSUER;

#[derive(Clone, Debug)]
pub struct GoogleSettings {
    pub client_id: String,
    pub client_secret: String,
    pub issuer_url: String,
}

#[derive(Clone, Debug)]
pub struct Config {
    /// `DATABASE_URL`: a SQLite path (default `<data dir>/selfsound.sqlite3`) or `postgres://...`.
    pub database_url: String,
    /// `SELFSOUND_DATA_DIR` (default `./data`): database file, media, mail, generated secrets.
    pub data_dir: PathBuf,
    /// `SELFSOUND_BIND` (default `127.0.0.1:8080`).
    pub bind: SocketAddr,
    /// `SELFSOUND_PUBLIC_URL` (default `http://<bind>`): our address as browsers reach it.
    pub public_url: String,
    /// `SELFSOUND_FRONTEND_URL` (default `<public url>/app`): where the web app lives.
    pub frontend_url: String,
    /// `SELFSOUND_FEDERATION` (default `off`): `on` joins the fediverse (docs/federation.md);
    /// it needs an https public URL (http only on loopback, for tests).
    pub federation: Option<federation::Settings>,
    /// `SMTP_URL`: send e-mail over SMTP instead of writing it to `<data dir>/mail`.
    pub smtp_url: Option<String>,
    /// `SELFSOUND_MAIL_FROM` (default `SelfSound <no-reply@<public host>>`).
    pub mail_from: String,
    /// `CORS_ALLOWED_ORIGINS`: comma-separated origins allowed to call the API with credentials.
    pub cors_allowed_origins: Vec<String>,
    /// `GOOGLE_CLIENT_ID` + `GOOGLE_CLIENT_SECRET` (+ `OIDC_ISSUER_URL`, default Google's).
    pub google: Option<GoogleSettings>,
    /// `SELFSOUND_WEB_DIR` (default `frontend/dist`): the built web app.
    pub web_dir: PathBuf,
    /// `SELFSOUND_JWT_SECRET`: token signing secret shared by several processes; when unset one
    /// is generated on first run and kept in `<data dir>/secrets/jwt-secret`.
    pub jwt_secret: Option<String>,
    /// `SELFSOUND_SEALING_KEY` (at least 32 characters): the key secrets kept to be read back
    /// (two-factor sign-in's) are sealed with, shared by several processes. When unset it is
    /// derived from `SELFSOUND_JWT_SECRET` if that is set, else generated on first run and kept
    /// in `<data dir>/secrets/sealing-key`. Losing it turns off nobody's two-factor sign-in but
    /// locks them out of it: keep it with the backups.
    pub sealing_key: Option<String>,
    /// `SELFSOUND_PASSKEY_RP_ID` (default: the public URL's host): the domain passkeys are tied
    /// to; a parent domain of the public URL's host when the web app is served from another
    /// host under it. With neither a domain name nor this, passkeys are off (an IP address).
    pub passkey_rp_id: Option<String>,
    /// `SELFSOUND_BACKUP_KEY` (at least 32 characters; default none): `selfsound backup` signs
    /// its manifest with it and `selfsound restore` refuses a backup not signed with it.
    pub backup_key: Option<String>,
    /// `SELFSOUND_TRUSTED_PROXIES`: comma-separated addresses or CIDRs of the reverse proxies
    /// in front of us (e.g. `127.0.0.1/32,10.0.0.0/8`). A request from one of them has its client
    /// address taken from `X-Forwarded-For`: the rightmost hop that is not a trusted proxy (hops
    /// further left are whatever the client wrote). Empty (default): the peer address.
    /// `Forwarded` is never read.
    pub trusted_proxies: Vec<Cidr>,
    /// `SELFSOUND_S3_BUCKET`: keep media in this S3-compatible bucket instead of
    /// `<data dir>/media`, reached through `AWS_ENDPOINT` (unset: AWS itself), `AWS_REGION`,
    /// `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`.
    pub s3: Option<storage::S3Settings>,
    /// `SELFSOUND_DISCOVER_EVERY` (seconds, default 300): how long what Discover shows (trending,
    /// new and rising, tags) is held before the job that finds it runs again (`posts::discover`).
    pub discover_every: std::time::Duration,
    /// `SELFSOUND_FFMPEG` (default `ffmpeg`, looked up in `PATH`): the ffmpeg that checks and
    /// cleans videos; `off` takes no videos (they answer 503, as when it is not installed).
    pub ffmpeg: Option<PathBuf>,
    /// `SELFSOUND_COOKIE_SAMESITE` (`lax` default, `strict`, or `none` for a client served from
    /// another site; `none` makes the cookie `Secure`, which browsers require for it).
    pub cookie_same_site: SameSite,
    /// `SELFSOUND_VERIFIED_REDIRECT` (default `<frontend>/sign-in#verified={verified}`): where an
    /// e-mailed verification link sends the browser; `{verified}` becomes `true` or `false`.
    /// A hash-routed client sets e.g. `https://client.example/#/sign-in?verified={verified}`.
    pub verified_redirect: String,
    /// `SELFSOUND_RESET_LINK` (default `<frontend>/reset-password#token={token}`): the page a
    /// password-reset e-mail links to; `{token}` becomes the token (keep it in the fragment:
    /// browsers never send that to a server or in a Referer).
    pub reset_link: String,
    /// `SELFSOUND_POST_LINK` (default `<frontend>/post/{id}`): the address of a post's page in
    /// the client admins use, given with each complaint (`post_link`); `{id}` becomes the
    /// post's id. A hash-routed client sets e.g. `https://client.example/#/post/{id}`.
    pub post_link: String,
    /// `SELFSOUND_REQUEST_TIMEOUT_SECS` (default 30): how long a client may take to send a
    /// request's head, and a body that is not an upload.
    pub request_timeout: std::time::Duration,
    /// `SELFSOUND_MAX_CONNECTIONS` (default 10000): open connections per worker thread.
    pub max_connections: usize,
    /// `SELFSOUND_BENCH_CEILING=1`: serve `GET /bench/ceiling?bytes=N`, a fixed JSON body of N
    /// bytes with no database work — the ceiling `make bench` measures pages against.
    pub bench_ceiling: bool,
    /// `ADMIN_EMAILS`: comma-separated addresses whose accounts are given the admin role once
    /// verified: at start, and at the moment an address is verified. An unverified account
    /// never is (whoever signed up first is not yet the owner).
    pub admin_emails: Vec<values::Email>,
    /// Throttle rules for sign-in, sign-up and resend (not read from the environment).
    pub throttle: auth::ThrottleRules,
    /// `SELFSOUND_WRITE_LIMITS`: limits per account and per client address on posts, comments,
    /// likes, listens, blocks, reports, mention searches and profile edits, e.g.
    /// `comment=30/5m,like=60:240/10m` (`name=ACCOUNT/WINDOW`, the client's count three times
    /// the account's, or `name=ACCOUNT:CLIENT/WINDOW`); unnamed calls keep their defaults
    /// (`crate::limits`, docs/security.md "Limits").
    pub write_limits: crate::limits::WriteLimits,
    /// `SELFSOUND_UPLOADS_IN_FLIGHT` (default 8): uploads (posts with files, avatars) this
    /// process reads at once, two at most per account; one beyond answers 429 before its body
    /// is read. Temporary files take at most this many times the largest body (audio: 500 MB).
    pub uploads_in_flight: usize,
    /// `SELFSOUND_JOB_WORKERS` (default 1; 0 runs none): background jobs this process runs at
    /// once (`crate::jobs`; each is one ffmpeg thread at most).
    pub job_workers: usize,
    /// `SELFSOUND_JOB_LEASE_SECS` (default 60): how long a job stays a process's without it
    /// renewing the lease; a job of a process that died is taken over once this has passed.
    pub job_lease: std::time::Duration,
    /// `SELFSOUND_METRICS_BIND` (e.g. `127.0.0.1:9464`; default off): serve `GET /metrics` in
    /// the Prometheus text format on this address of its own, never on the public one
    /// (`crate::metrics`, docs/operations.md "Observability").
    pub metrics_bind: Option<SocketAddr>,
    /// `SELFSOUND_LOG_FORMAT` (`text` default, or `json`: one JSON object a line, each request's
    /// lines carrying its `request_id`; `crate::logging`).
    pub log_format: LogFormat,
}

/// How log lines are written (`SELFSOUND_LOG_FORMAT`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// For people: one line of text an event.
    #[default]
    Text,
    /// For log collectors: one JSON object a line.
    Json,
}

impl LogFormat {
    pub fn parse(raw: Option<&str>) -> Result<LogFormat, String> {
        match raw.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            None | Some("text") => Ok(LogFormat::Text),
            Some("json") => Ok(LogFormat::Json),
            Some(other) => Err(format!("SELFSOUND_LOG_FORMAT must be text or json, not {other:?}")),
        }
    }

    /// The format logging starts with, before the rest of the configuration is read: a value
    /// that is not understood falls back to text here, and [`Config::from_env`] reports it.
    pub fn from_env() -> LogFormat {
        LogFormat::parse(std::env::var("SELFSOUND_LOG_FORMAT").ok().filter(|v| !v.trim().is_empty()).as_deref())
            .unwrap_or_default()
    }
}

/// Every problem found in the environment, reported together.
#[derive(Debug)]
pub struct ConfigError(pub Vec<String>);

impl std::error::Error for ConfigError {}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "configuration is not usable:")?;
        for p in &self.0 {
            writeln!(f, "  - {p}")?;
        }
        Ok(())
    }
}

/// An address range: `10.0.0.0/8`, `::1/128`, or a bare address (a range of one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

impl Cidr {
    pub fn parse(raw: &str) -> Option<Cidr> {
        let (addr, prefix) = match raw.split_once('/') {
            Some((a, p)) => (a.parse::<IpAddr>().ok()?, Some(p.parse::<u8>().ok()?)),
            None => (raw.parse::<IpAddr>().ok()?, None),
        };
        let bits = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = prefix.unwrap_or(bits);
        (prefix <= bits).then_some(Cidr { addr, prefix })
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) if self.addr.is_ipv4() => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            other => other,
        };
        let keep = |bits: u32, value: u128| if self.prefix == 0 { 0 } else { value >> (bits - u32::from(self.prefix)) };
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                keep(32, u128::from(u32::from(net))) == keep(32, u128::from(u32::from(ip)))
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => keep(128, u128::from(net)) == keep(128, u128::from(ip)),
            _ => false,
        }
    }
}

fn origin_of(url: &str) -> Option<String> {
    url::Url::parse(url).ok().map(|u| u.origin().ascii_serialization()).filter(|o| o != "null")
}

impl Config {
    pub fn from_env() -> Result<Config, ConfigError> {
        Config::from_env_with(|_| None)
    }

    /// The environment, where `flags` (the command line's) answer first for the settings they
    /// name; an empty value counts as unset either way.
    pub fn from_env_with(flags: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        Config::from_lookup(|name| flags(name).or_else(|| std::env::var(name).ok()).filter(|v| !v.trim().is_empty()))
    }

    /// Reads configuration through `get` (the environment, or a map in tests).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let mut problems = Vec::new();
        let data_dir = PathBuf::from(get("SELFSOUND_DATA_DIR").unwrap_or_else(|| "./data".into()));
        let bind_raw = get("SELFSOUND_BIND").unwrap_or_else(|| "127.0.0.1:8080".into());
        let bind = bind_raw.parse().unwrap_or_else(|_| {
            problems.push(format!("SELFSOUND_BIND must be an address like 127.0.0.1:8080, not {bind_raw:?}"));
            SocketAddr::from(([127, 0, 0, 1], 8080))
        });
        let public_url = get("SELFSOUND_PUBLIC_URL").unwrap_or_else(|| format!("http://{bind}"));
        let public_url = public_url.trim_end_matches('/').to_owned();
        if origin_of(&public_url).is_none() {
            problems.push(format!("SELFSOUND_PUBLIC_URL must be an http(s) address, not {public_url:?}"));
        }
        let frontend_url = get("SELFSOUND_FRONTEND_URL").unwrap_or_else(|| format!("{public_url}/app"));
        let frontend_url = frontend_url.trim_end_matches('/').to_owned();
        if origin_of(&frontend_url).is_none() {
            problems.push(format!("SELFSOUND_FRONTEND_URL must be an http(s) address, not {frontend_url:?}"));
        }
        let federation =
            federation::Settings::new(&get("SELFSOUND_FEDERATION").unwrap_or_default(), &public_url, &frontend_url)
                .unwrap_or_else(|problem| {
                    problems.push(problem);
                    None
                });
        let database_url =
            get("DATABASE_URL").unwrap_or_else(|| data_dir.join("selfsound.sqlite3").display().to_string());
        let mut cors_allowed_origins = Vec::new();
        for raw in get("CORS_ALLOWED_ORIGINS").unwrap_or_default().split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match origin_of(raw) {
                Some(o) if o == raw.trim_end_matches('/') => cors_allowed_origins.push(o),
                _ => problems.push(format!(
                    "CORS_ALLOWED_ORIGINS entries must be origins like https://app.example.com, not {raw:?}"
                )),
            }
        }
        let google = match (get("GOOGLE_CLIENT_ID"), get("GOOGLE_CLIENT_SECRET")) {
            (Some(client_id), Some(client_secret)) => {
                let issuer_url = get("OIDC_ISSUER_URL").unwrap_or_else(|| GOOGLE_ISSUER.into());
                if origin_of(&issuer_url).is_none() {
                    problems.push(format!("OIDC_ISSUER_URL must be an http(s) address, not {issuer_url:?}"));
                }
                Some(GoogleSettings { client_id, client_secret, issuer_url })
            }
            (None, None) => None,
            _ => {
                problems.push("GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together".into());
                None
            }
        };
        let host = url::Url::parse(&public_url).ok().and_then(|u| u.host_str().map(str::to_owned));
        let mail_from = get("SELFSOUND_MAIL_FROM").unwrap_or_else(|| {
            let host = host.filter(|h| h.contains('.') && h.parse::<std::net::IpAddr>().is_err());
            format!("SelfSound <no-reply@{}>", host.unwrap_or_else(|| "selfsound.localhost".into()))
        });
        let jwt_secret = get("SELFSOUND_JWT_SECRET");
        if jwt_secret.as_ref().is_some_and(|s| s.len() < 32) {
            problems.push("SELFSOUND_JWT_SECRET must be at least 32 characters".into());
        }
        let sealing_key = get("SELFSOUND_SEALING_KEY");
        if sealing_key.as_ref().is_some_and(|s| s.len() < 32) {
            problems.push("SELFSOUND_SEALING_KEY must be at least 32 characters".into());
        }
        let backup_key = get("SELFSOUND_BACKUP_KEY");
        if backup_key.as_ref().is_some_and(|s| s.len() < 32) {
            problems.push("SELFSOUND_BACKUP_KEY must be at least 32 characters".into());
        }
        if get("SELFSOUND_TRUST_PROXY").is_some() {
            problems.push(
                "SELFSOUND_TRUST_PROXY is replaced by SELFSOUND_TRUSTED_PROXIES: the addresses of your proxies, \
                 e.g. 127.0.0.1/32"
                    .into(),
            );
        }
        let mut trusted_proxies = Vec::new();
        for raw in
            get("SELFSOUND_TRUSTED_PROXIES").unwrap_or_default().split(',').map(str::trim).filter(|s| !s.is_empty())
        {
            match Cidr::parse(raw) {
                Some(c) => trusted_proxies.push(c),
                None => problems.push(format!(
                    "SELFSOUND_TRUSTED_PROXIES entries must be addresses or CIDRs like 10.0.0.0/8, not {raw:?}"
                )),
            }
        }
        let number = |name: &str, default: u64, problems: &mut Vec<String>| match get(name) {
            None => default,
            Some(v) => v.parse::<u64>().ok().filter(|n| *n > 0).unwrap_or_else(|| {
                problems.push(format!("{name} must be a positive whole number, not {v:?}"));
                default
            }),
        };
        let request_timeout =
            std::time::Duration::from_secs(number("SELFSOUND_REQUEST_TIMEOUT_SECS", 30, &mut problems));
        let max_connections = number("SELFSOUND_MAX_CONNECTIONS", 10_000, &mut problems) as usize;
        let uploads_in_flight = number("SELFSOUND_UPLOADS_IN_FLIGHT", 8, &mut problems) as usize;
        let job_workers = match get("SELFSOUND_JOB_WORKERS").map(|v| v.trim().parse::<usize>()) {
            None => 1,
            Some(Ok(n)) if n <= 64 => n,
            Some(_) => {
                problems.push("SELFSOUND_JOB_WORKERS must be a whole number from 0 to 64".to_owned());
                1
            }
        };
        let job_lease = std::time::Duration::from_secs(number("SELFSOUND_JOB_LEASE_SECS", 60, &mut problems));
        let metrics_bind = get("SELFSOUND_METRICS_BIND").and_then(|raw| match raw.parse::<SocketAddr>() {
            Ok(addr) if addr == bind => {
                problems.push(format!(
                    "SELFSOUND_METRICS_BIND must be an address of its own, not SELFSOUND_BIND's ({raw})"
                ));
                None
            }
            Ok(addr) => Some(addr),
            Err(_) => {
                problems.push(format!("SELFSOUND_METRICS_BIND must be an address like 127.0.0.1:9464, not {raw:?}"));
                None
            }
        });
        let log_format = LogFormat::parse(get("SELFSOUND_LOG_FORMAT").as_deref()).unwrap_or_else(|problem| {
            problems.push(problem);
            LogFormat::Text
        });
        let bench_ceiling = get("SELFSOUND_BENCH_CEILING").is_some_and(|v| v == "1" || v.eq_ignore_ascii_case("true"));
        let s3 = get("SELFSOUND_S3_BUCKET").map(|bucket| storage::S3Settings {
            bucket,
            endpoint: get("AWS_ENDPOINT"),
            region: get("AWS_REGION"),
            access_key_id: get("AWS_ACCESS_KEY_ID"),
            secret_access_key: get("AWS_SECRET_ACCESS_KEY"),
        });
        if let Some(endpoint) = s3.as_ref().and_then(|s| s.endpoint.as_deref())
            && origin_of(endpoint).is_none()
        {
            problems.push(format!("AWS_ENDPOINT must be an http(s) address, not {endpoint:?}"));
        }
        let discover_every = match get("SELFSOUND_DISCOVER_EVERY").map(|v| v.trim().parse::<u64>()) {
            None => std::time::Duration::from_secs(300),
            Some(Ok(secs)) if secs <= 86_400 => std::time::Duration::from_secs(secs),
            Some(_) => {
                problems.push("SELFSOUND_DISCOVER_EVERY must be a number of seconds up to 86400".to_owned());
                std::time::Duration::from_secs(300)
            }
        };
        let ffmpeg = match get("SELFSOUND_FFMPEG") {
            Some(v) if v.eq_ignore_ascii_case("off") => None,
            Some(v) => Some(PathBuf::from(v)),
            None => Some(PathBuf::from("ffmpeg")),
        };
        let cookie_same_site = match get("SELFSOUND_COOKIE_SAMESITE").map(|v| v.to_ascii_lowercase()).as_deref() {
            None | Some("lax") => SameSite::Lax,
            Some("strict") => SameSite::Strict,
            Some("none") => SameSite::None,
            Some(other) => {
                problems.push(format!("SELFSOUND_COOKIE_SAMESITE must be lax, strict or none, not {other:?}"));
                SameSite::Lax
            }
        };
        let verified_redirect = get("SELFSOUND_VERIFIED_REDIRECT")
            .unwrap_or_else(|| format!("{frontend_url}/sign-in#verified={{verified}}"));
        if !verified_redirect.contains("{verified}")
            || origin_of(&verified_redirect.replace("{verified}", "true")).is_none()
        {
            problems.push(format!(
                "SELFSOUND_VERIFIED_REDIRECT must be an http(s) address containing {{verified}}, not {verified_redirect:?}"
            ));
        }
        let reset_link =
            get("SELFSOUND_RESET_LINK").unwrap_or_else(|| format!("{frontend_url}/reset-password#token={{token}}"));
        if !reset_link.contains("{token}") || origin_of(&reset_link.replace("{token}", "t")).is_none() {
            problems.push(format!(
                "SELFSOUND_RESET_LINK must be an http(s) address containing {{token}}, not {reset_link:?}"
            ));
        }
        let post_link = get("SELFSOUND_POST_LINK").unwrap_or_else(|| format!("{frontend_url}/post/{{id}}"));
        if !post_link.contains("{id}") || origin_of(&post_link.replace("{id}", "1")).is_none() {
            problems
                .push(format!("SELFSOUND_POST_LINK must be an http(s) address containing {{id}}, not {post_link:?}"));
        }
        let mut admin_emails = Vec::new();
        for raw in get("ADMIN_EMAILS").unwrap_or_default().split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match values::Email::parse(raw) {
                Ok(e) => admin_emails.push(e),
                Err(_) => problems.push(format!("ADMIN_EMAILS entries must be e-mail addresses, not {raw:?}")),
            }
        }
        let write_limits = crate::limits::WriteLimits::parse(&get("SELFSOUND_WRITE_LIMITS").unwrap_or_default())
            .unwrap_or_else(|found| {
                problems.extend(found);
                crate::limits::WriteLimits::default()
            });
        if !problems.is_empty() {
            return Err(ConfigError(problems));
        }
        Ok(Config {
            database_url,
            data_dir,
            bind,
            public_url,
            frontend_url,
            federation,
            smtp_url: get("SMTP_URL"),
            mail_from,
            cors_allowed_origins,
            google,
            web_dir: PathBuf::from(get("SELFSOUND_WEB_DIR").unwrap_or_else(|| "frontend/dist".into())),
            jwt_secret,
            sealing_key,
            passkey_rp_id: get("SELFSOUND_PASSKEY_RP_ID"),
            backup_key,
            trusted_proxies,
            s3,
            ffmpeg,
            discover_every,
            cookie_same_site,
            verified_redirect,
            reset_link,
            post_link,
            request_timeout,
            max_connections,
            bench_ceiling,
            admin_emails,
            throttle: auth::ThrottleRules::default(),
            write_limits,
            uploads_in_flight,
            job_workers,
            job_lease,
            metrics_bind,
            log_format,
        })
    }

    /// The cookie must be `Secure` for `SameSite=None`, and should be wherever we are on https.
    pub fn cookie_secure(&self) -> bool {
        self.cookie_same_site == SameSite::None || self.public_url.starts_with("https://")
    }

    /// Where a verification link sends the browser, for a link that worked or did not.
    pub fn verified_redirect(&self, verified: bool) -> String {
        self.verified_redirect.replace("{verified}", if verified { "true" } else { "false" })
    }

    /// The address of post `id`'s page in the client admins use (`SELFSOUND_POST_LINK`).
    pub fn post_link(&self, id: impl std::fmt::Display) -> String {
        self.post_link.replace("{id}", &id.to_string())
    }

    /// Origins whose pages are ours: the public address, the web app's and the CORS list.
    pub fn trusted_origins(&self) -> Vec<String> {
        let mut origins: Vec<String> =
            [&self.public_url, &self.frontend_url].iter().filter_map(|u| origin_of(u)).collect();
        origins.extend(self.cors_allowed_origins.iter().cloned());
        origins.sort();
        origins.dedup();
        origins
    }

    pub fn sign_in_page(&self) -> String {
        format!("{}/sign-in", self.frontend_url)
    }

    /// Where this installation keeps its database and media (for `backup`, `restore`, `verify`).
    pub fn installation(&self) -> operations::Installation {
        operations::Installation {
            database_url: self.database_url.clone(),
            data_dir: self.data_dir.clone(),
            s3: self.s3.clone(),
            backup_key: self.backup_key.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        Config::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn defaults_need_no_settings() {
        let c = config(&[]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.bind.to_string(), "127.0.0.1:8080");
        assert_eq!(c.public_url, "http://127.0.0.1:8080");
        assert_eq!(c.sign_in_page(), "http://127.0.0.1:8080/app/sign-in");
        assert!(c.database_url.ends_with("selfsound.sqlite3"));
        assert!(c.google.is_none());
        assert_eq!(c.trusted_origins(), vec!["http://127.0.0.1:8080".to_owned()]);
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let err = config(&[
            ("SELFSOUND_BIND", "nonsense"),
            ("GOOGLE_CLIENT_ID", "id-only"),
            ("CORS_ALLOWED_ORIGINS", "https://ok.example, not a url"),
            ("SELFSOUND_JWT_SECRET", "short"),
        ])
        .err()
        .map(|e| e.0)
        .unwrap_or_default();
        assert_eq!(err.len(), 4, "{err:?}");
        assert!(err[0].contains("SELFSOUND_BIND"));
        let err = config(&[("SELFSOUND_WRITE_LIMITS", "comment=lots")]).err().map(|e| e.0).unwrap_or_default();
        assert!(err.len() == 1 && err[0].contains("comment=30/5m"), "{err:?}");
    }

    #[test]
    fn metrics_are_off_unless_given_an_address_of_their_own() {
        let c = config(&[]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((c.metrics_bind, c.log_format), (None, LogFormat::Text));
        let c = config(&[("SELFSOUND_METRICS_BIND", "127.0.0.1:9464"), ("SELFSOUND_LOG_FORMAT", "JSON")])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((c.metrics_bind.map(|a| a.port()), c.log_format), (Some(9464), LogFormat::Json));
        let err = config(&[("SELFSOUND_METRICS_BIND", "127.0.0.1:8080"), ("SELFSOUND_LOG_FORMAT", "xml")])
            .err()
            .map(|e| e.0)
            .unwrap_or_default();
        assert!(err.len() == 2 && err[0].contains("of its own") && err[1].contains("text or json"), "{err:?}");
    }

    #[test]
    fn google_needs_both_halves_and_defaults_to_googles_issuer() {
        let c =
            config(&[("GOOGLE_CLIENT_ID", "id"), ("GOOGLE_CLIENT_SECRET", "secret")]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.google.map(|g| g.issuer_url), Some("https://accounts.google.com".into()));
    }

    #[test]
    fn the_verification_redirect_and_cookie_suit_a_client_on_another_site() {
        let c = config(&[]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.verified_redirect(true), "http://127.0.0.1:8080/app/sign-in#verified=true");
        assert_eq!((c.cookie_same_site, c.cookie_secure()), (SameSite::Lax, false));
        let c = config(&[
            ("SELFSOUND_VERIFIED_REDIRECT", "https://client.example/#/sign-in?verified={verified}"),
            ("SELFSOUND_COOKIE_SAMESITE", "None"),
        ])
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.verified_redirect(false), "https://client.example/#/sign-in?verified=false");
        assert_eq!((c.cookie_same_site, c.cookie_secure()), (SameSite::None, true));
        let bad =
            config(&[("SELFSOUND_VERIFIED_REDIRECT", "https://client.example/"), ("SELFSOUND_COOKIE_SAMESITE", "x")]);
        assert_eq!(bad.err().map(|e| e.0.len()), Some(2));
    }

    #[test]
    fn a_complaints_post_link_suits_a_hash_routed_client() {
        let c = config(&[]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.post_link(42), "http://127.0.0.1:8080/app/post/42");
        let c =
            config(&[("SELFSOUND_POST_LINK", "https://client.example/#/post/{id}")]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.post_link(42), "https://client.example/#/post/42");
        for bad in ["https://client.example/#/post/", "client.example/post/{id}"] {
            let err = config(&[("SELFSOUND_POST_LINK", bad)]).err().map(|e| e.0).unwrap_or_default();
            assert!(err.len() == 1 && err[0].contains("SELFSOUND_POST_LINK"), "{bad}: {err:?}");
        }
    }

    #[test]
    fn trusted_proxies_are_address_ranges() {
        let c = config(&[("SELFSOUND_TRUSTED_PROXIES", "127.0.0.1, 10.0.0.0/8, ::1/128")])
            .unwrap_or_else(|e| panic!("{e}"));
        let ip = |s: &str| s.parse::<IpAddr>().unwrap_or(IpAddr::from([0, 0, 0, 0]));
        let trusted = |s: &str| c.trusted_proxies.iter().any(|p| p.contains(ip(s)));
        assert!(trusted("127.0.0.1") && trusted("10.200.3.4") && trusted("::1") && trusted("::ffff:10.1.1.1"));
        assert!(!trusted("127.0.0.2") && !trusted("11.0.0.1") && !trusted("::2"));
        assert_eq!(Cidr::parse("0.0.0.0/0").map(|c| c.contains(ip("8.8.8.8"))), Some(true));
        let bad = config(&[("SELFSOUND_TRUSTED_PROXIES", "10.0.0.0/33,nonsense"), ("SELFSOUND_TRUST_PROXY", "true")]);
        assert_eq!(bad.err().map(|e| e.0.len()), Some(3));
    }

    #[test]
    fn cors_origins_are_trusted() {
        let c = config(&[("CORS_ALLOWED_ORIGINS", "https://app.example.com/, http://localhost:5173")])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.cors_allowed_origins, vec!["https://app.example.com", "http://localhost:5173"]);
        assert!(c.trusted_origins().contains(&"http://localhost:5173".to_owned()));
    }
}
