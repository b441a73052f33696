//! Putting the app together: state from configuration, middleware, routes, and the server.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use actix_cors::Cors;
use actix_web::dev::Server;
use actix_web::middleware::{Compress, Condition, DefaultHeaders};
use actix_web::{App, HttpResponse, HttpServer, web};
use auth::mail::Mailer;
use auth::oidc::{OidcClient, OidcSettings};
use auth::token::TokenKeys;
use auth::{AuthConfig, AuthService};
use db::{Db, PoolOptions};
use tracing_actix_web::TracingLogger;
use utoipa::OpenApi;

use crate::config::Config;
use crate::error::{ApiError, clip};
use crate::state::AppState;
use crate::{logging, openapi, routes, spa};
use utoipa_actix_web::AppExt;

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("{0}")]
    Config(#[from] crate::config::ConfigError),
    #[error("database: {0}")]
    Db(#[from] db::DbError),
    #[error("{0}")]
    Setup(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// What the migrations left to the application (`backfills`), done before anything is served:
/// the tags of posts written before tags existed. Also run by `selfsound migrate`.
pub fn finish_migrations(db: &Db) -> Result<(), StartError> {
    let tagged = posts::tags::backfill(db).map_err(|e| StartError::Setup(format!("the tags of earlier posts: {e}")))?;
    if tagged > 0 {
        tracing::info!(tagged, "wrote the tags of the posts written before tags existed");
    }
    Ok(())
}

/// The token-signing secret: from configuration, else the one kept in the data folder, else a
/// new one written there (readable by this user only).
fn jwt_secret(config: &Config) -> Result<Vec<u8>, StartError> {
    match &config.jwt_secret {
        Some(secret) => Ok(secret.as_bytes().to_vec()),
        None => kept_secret(config, "jwt-secret", "token-signing secret"),
    }
}

/// The key of sealed secrets (`auth::seal`): from configuration; else, where several processes
/// share a configured token secret, derived from it (the sealer's HKDF keeps the two keys
/// apart); else the one kept in the data folder, else a new one written there.
fn sealing_key(config: &Config) -> Result<Vec<u8>, StartError> {
    match (&config.sealing_key, &config.jwt_secret) {
        (Some(key), _) => Ok(key.as_bytes().to_vec()),
        (None, Some(jwt)) => Ok([b"sealing:".as_slice(), jwt.as_bytes()].concat()),
        (None, None) => kept_secret(config, "sealing-key", "sealing key"),
    }
}

/// A secret kept in `<data dir>/secrets/<file>`: the one there (tightened to 0600 if others
/// could read it), else a new random one written there.
fn kept_secret(config: &Config, file: &str, what: &str) -> Result<Vec<u8>, StartError> {
    let dir = config.data_dir.join("secrets");
    let path = dir.join(file);
    if let Ok(existing) = std::fs::read_to_string(&path) {
        let existing = existing.trim();
        if existing.len() >= 32 {
            // A secret others could read is a secret others have: tighten it.
            if operations::files::loosen_by_others(&path) {
                tracing::warn!(path = %path.display(), "the {what} was readable by others; now 0600");
                auth::mail::restrict_to_owner(&path)?;
            }
            return Ok(existing.as_bytes().to_vec());
        }
    }
    operations::files::private_dir(&dir)?;
    let secret = auth::oidc::random_token();
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    std::io::Write::write_all(&mut options.open(&path)?, secret.as_bytes())?;
    tracing::info!(path = %path.display(), "generated a new {what}");
    Ok(secret.into_bytes())
}

/// Web Push's sender, with the server's VAPID key (kept sealed in the database, made on the first
/// start). Devices on loopback are allowed only to a server whose public URL is on loopback.
async fn web_push(
    db: &Db,
    sealer: &auth::seal::Sealer,
    config: &Config,
) -> Result<notifications::push::Pusher, StartError> {
    let (seal, open) = (sealer.clone(), sealer.clone());
    let key = notifications::push::VapidKey::kept(
        db,
        move |der| seal.seal("vapid", der).map_err(|e| e.to_string()),
        move |sealed| open.open("vapid", sealed).map_err(|e| e.to_string()),
    )
    .await
    .map_err(|e| StartError::Setup(format!("the Web Push key: {e}")))?;
    let local = url::Url::parse(&config.public_url).ok().is_some_and(|u| match u.host() {
        Some(url::Host::Domain(name)) => name == "localhost",
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    });
    notifications::push::Pusher::new(db.clone(), key, &config.public_url, local)
        .map_err(|e| StartError::Setup(format!("Web Push: {e}")))
}

/// Connects to the database (running migrations) and builds the services.
pub async fn state(config: Config) -> Result<AppState, StartError> {
    crate::files::prepare_data_dir(&config)?;
    let db = Db::connect(&config.database_url, &PoolOptions::default())?;
    finish_migrations(&db)?;
    db.warn_without_autovacuum();
    grant_configured_admins(&db, &config.admin_emails)?;
    let setup = |e: auth::AuthError| StartError::Setup(e.to_string());
    let mailer = match &config.smtp_url {
        Some(url) => Mailer::smtp(url, &config.mail_from).map_err(setup)?,
        None => Mailer::folder(config.data_dir.join("mail"), &config.mail_from).map_err(setup)?,
    };
    let oidc = match &config.google {
        Some(g) => Some(
            OidcClient::new(OidcSettings {
                issuer_url: g.issuer_url.clone(),
                client_id: g.client_id.clone(),
                client_secret: g.client_secret.clone(),
                redirect_url: format!("{}/auth/callback", config.public_url),
            })
            .map_err(setup)?,
        ),
        None => None,
    };
    let storage = match &config.s3 {
        Some(s3) => storage::Storage::s3(s3),
        None => storage::Storage::local(&config.data_dir.join("media")),
    }
    .map_err(|e| StartError::Setup(format!("media storage: {e}")))?;
    tracing::info!(storage = storage.describe(), "media storage");
    let profiles = profiles::Profiles::new(db.clone(), storage.clone());
    let graph = social_graph::SocialGraph::new(db.clone());
    let ffmpeg = config.ffmpeg.as_deref().and_then(posts::ffmpeg::Ffmpeg::find);
    match (&ffmpeg, &config.ffmpeg) {
        (Some(_), _) => {}
        (None, Some(program)) => tracing::warn!(
            program = %program.display(),
            "ffmpeg cannot be run: video uploads answer 503 until it is installed (apt-get install ffmpeg)"
        ),
        (None, None) => tracing::info!("SELFSOUND_FFMPEG=off: video uploads answer 503"),
    }
    let posts = posts::Posts::new(db.clone(), storage.clone(), ffmpeg);
    // What other processes sharing a PostgreSQL database change: heard so that what this one
    // remembers follows it, and its live streams hear of it.
    db.hear_other_processes()?;
    let notifications = notifications::Notifications::new(db.clone());
    let moderation = moderation::Moderation::new(db.clone());
    let app = app::App::new(db.clone(), storage.clone());
    let trusted_origins = config.trusted_origins();
    let sealer = auth::seal::Sealer::new(&sealing_key(&config)?);
    let pusher = web_push(&db, &sealer, &config).await?;
    let auth = AuthService::new(
        db.clone(),
        TokenKeys::new(&jwt_secret(&config)?),
        mailer,
        oidc,
        AuthConfig {
            public_url: config.public_url.clone(),
            sign_in_page: config.sign_in_page(),
            frontend_origins: trusted_origins.clone(),
            reset_page: config.reset_link.clone(),
            throttle: config.throttle.clone(),
            on_verified: admins_on_verification(config.admin_emails.clone()),
            sealer,
            webauthn: auth::passkeys::relying_party(
                &config.public_url,
                config.passkey_rp_id.as_deref(),
                &trusted_origins,
            )
            .map_err(StartError::Setup)?
            .map(Arc::new),
        },
    );
    auth.read_along(posts.along());
    let federation = match &config.federation {
        Some(settings) => {
            let started = federation::Federation::start(db.clone(), posts.clone(), settings.clone())
                .await
                .map_err(|e| StartError::Setup(e.to_string()))?;
            tracing::info!(domain = started.domain(), test_mode = settings.debug, "federation is on");
            app.on_departure(started.departure());
            Some(started)
        }
        None => None,
    };
    Ok(AppState {
        db,
        storage,
        auth,
        profiles,
        graph,
        posts,
        notifications,
        pusher,
        moderation,
        app,
        rendered: Arc::default(),
        limits: Arc::default(),
        uploads: crate::upload_slots::UploadSlots::new(config.uploads_in_flight),
        inbox: crate::slots::Slots::new(
            crate::routes::federation::INBOX_PER_SERVER,
            crate::routes::federation::INBOX_IN_ALL,
        ),
        jobs: Arc::default(),
        federation,
        config: Arc::new(config),
        trusted_origins: Arc::new(trusted_origins),
    })
}

/// `ADMIN_EMAILS`: the verified accounts with these addresses get the admin role at start. An
/// address without an account, or whose account is not verified yet, is reported: it gets the
/// role the moment its address is verified ([`admins_on_verification`]).
fn grant_configured_admins(db: &Db, emails: &[values::Email]) -> Result<(), StartError> {
    if emails.is_empty() {
        return Ok(());
    }
    for email in emails {
        match db.write_blocking(|c| moderation::set_admin(c, email, true, "ADMIN_EMAILS")) {
            Ok(true) => tracing::info!(email = email.as_str(), "granted the admin role (ADMIN_EMAILS)"),
            Ok(false) => {}
            Err(moderation::ModerationError::NoSuchAccount(_) | moderation::ModerationError::NotVerified(_)) => {
                tracing::warn!(
                    email = email.as_str(),
                    "ADMIN_EMAILS names an address without a verified account; it becomes an admin once its address is verified"
                )
            }
            Err(e) => return Err(StartError::Setup(format!("granting the admin role: {e}"))),
        }
    }
    Ok(())
}

/// `ADMIN_EMAILS` at the moment an address is proved (its verification link, a password-reset
/// link, Google sign-in): the account gets the admin role in the same transaction, with its
/// audit entry. Auth runs this without knowing what it does (it does not depend on moderation).
fn admins_on_verification(emails: Vec<values::Email>) -> auth::OnVerified {
    auth::OnVerified::new(move |conn, _user, email| {
        if emails.contains(email) && moderation::set_admin(conn, email, true, "ADMIN_EMAILS")? {
            tracing::info!(email = email.as_str(), "granted the admin role on verification (ADMIN_EMAILS)");
        }
        Ok(())
    })
}

fn json_config() -> web::JsonConfig {
    use actix_web::error::JsonPayloadError as E;
    web::JsonConfig::default().limit(64 * 1024).error_handler(|err, _| {
        match err {
            E::OverflowKnownLength { .. } | E::Overflow { .. } => ApiError::too_large("Request body is too large"),
            E::ContentType => ApiError::unsupported_type("Content-Type must be application/json"),
            E::Deserialize(e) => ApiError::malformed(format!("Invalid request body: {}", clip(e))),
            E::Payload(actix_web::error::PayloadError::Io(e)) if e.kind() == std::io::ErrorKind::TimedOut => {
                ApiError::invalid("The request body did not arrive in time")
            }
            other => ApiError::invalid(format!("Could not read the request body: {}", clip(other))),
        }
        .into()
    })
}

fn query_config() -> web::QueryConfig {
    web::QueryConfig::default()
        .error_handler(|err, _| ApiError::invalid(format!("Invalid query: {}", clip(err))).into())
}

fn path_config() -> web::PathConfig {
    // A path segment that is not a valid id names nothing: 404, never 500.
    web::PathConfig::default().error_handler(|_, _| ApiError::not_found().into())
}

async fn not_found() -> Result<HttpResponse, ApiError> {
    Err(ApiError::not_found())
}

/// CORS for the configured origins only (the CORS list, and our own public and web-app origins,
/// whose same-origin requests carry an Origin too). The Host header proves nothing: a client
/// writes it.
fn cors(origins: &[String]) -> Cors {
    origins
        .iter()
        .fold(Cors::default(), |c, o| c.allowed_origin(o))
        .allow_any_method()
        .allow_any_header()
        .supports_credentials()
        .max_age(3600)
}

/// Starts serving on `listener`; the returned server runs until stopped.
pub fn run(state: AppState, listener: TcpListener) -> Result<Server, StartError> {
    let config = state.config.clone();
    let web_dir = config.web_dir.clone();
    let cors_enabled = !config.cors_allowed_origins.is_empty();
    let cors_origins = state.trusted_origins.clone();
    // HSTS only where browsers reach us over https (sent over http it would be ignored anyway,
    // and on a development address it would be wrong).
    let hsts = config.public_url.starts_with("https://");
    let bench_ceiling = config.bench_ceiling;
    // Metrics, when asked for, on their own address (`crate::metrics`).
    let metrics = config.metrics_bind.map(|addr| (crate::metrics::Metrics::new(&state), addr));
    let tracker = crate::metrics::Tracker(metrics.as_ref().map(|(m, _)| m.clone()));
    let data = web::Data::new(state.clone());
    let server = HttpServer::new(move || {
        let web_dir = web_dir.clone();
        App::new()
            .into_utoipa_app()
            .openapi(openapi::ApiDoc::openapi())
            .app_data(data.clone())
            .app_data(tracker.clone())
            .app_data(json_config())
            .app_data(query_config())
            .app_data(path_config())
            .configure(routes::configure)
            .openapi_service(openapi::service)
            .into_app()
            .wrap(Condition::new(cors_enabled, cors(&cors_origins)))
            .wrap(Compress::default())
            .wrap(actix_web::middleware::from_fn(crate::body_timeout::limit_body_time))
            .wrap(security_headers(hsts))
            .wrap(actix_web::middleware::from_fn(refuse_framing))
            .wrap(actix_web::middleware::from_fn(logging::request_id_header))
            .wrap(TracingLogger::<logging::RedactingRootSpan>::new())
            .wrap(actix_web::middleware::from_fn(crate::metrics::track))
            .configure(crate::embed::configure)
            .configure(routes::federation::configure)
            .route("/", web::get().to(|| async { HttpResponse::Found().insert_header(("Location", "/app/")).finish() }))
            .configure(|cfg| spa::configure(cfg, &web_dir))
            .configure(|cfg| {
                if bench_ceiling {
                    cfg.route("/bench/ceiling", web::get().to(bench_ceiling_page));
                }
            })
            .default_service(web::to(not_found))
    })
    // Slow clients cannot hold a connection open for free: the request head and bodies must
    // arrive in time (uploads have their own limits in the multipart reader).
    .client_request_timeout(config.request_timeout)
    .client_disconnect_timeout(Duration::from_secs(5))
    .keep_alive(Duration::from_secs(75))
    // Answers go out at once, not held back by Nagle's algorithm until the client acknowledges
    // what went before (which it may delay by 40 ms): actix leaves the socket's default on.
    .tcp_nodelay(true)
    .max_connections(config.max_connections)
    .listen(listener)?
    .shutdown_timeout(SHUTDOWN_GRACE.as_secs())
    // Signals are handled by `run_until_signalled`: live streams must be told before the wait.
    .disable_signals()
    .run();
    if let Some((metrics, addr)) = metrics {
        tokio::spawn(crate::metrics::serve(metrics, addr)?);
    }
    crate::limits::keep_flushing(&state);
    crate::jobs::spawn(&state);
    spawn_sweeper(state);
    Ok(server)
}

/// [`run`], stopping gracefully on SIGTERM or SIGINT ([`stop_on_signal`]): what `selfsound
/// serve` runs. (Servers of the tests run in the test process, whose signals stay its own.)
pub fn run_until_signalled(state: AppState, listener: TcpListener) -> Result<Server, StartError> {
    let streams = state.notifications.streams().clone();
    let server = run(state, listener)?;
    stop_on_signal(server.handle(), streams);
    Ok(server)
}

/// How long a stopping process lets requests in flight finish (an upload of a large video on a
/// slow line included) before it closes their connections.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

/// SIGTERM (what a supervisor or `docker stop` sends) or SIGINT (Ctrl-C): stop accepting at
/// once, end the live streams with a hint to reconnect in a second (to another process behind
/// the balancer), let the requests in flight finish within [`SHUTDOWN_GRACE`], then return from
/// the server's future, so `selfsound serve` exits 0. A second signal stops at once.
fn stop_on_signal(server: actix_web::dev::ServerHandle, streams: notifications::Streams) {
    tokio::spawn(async move {
        let Some(()) = signal().await else { return };
        tracing::info!(grace = ?SHUTDOWN_GRACE, "stopping: no new connections; finishing requests in flight");
        streams.close_all();
        let graceful = server.stop(true);
        tokio::select! {
            () = graceful => tracing::info!("stopped"),
            Some(()) = signal() => {
                tracing::warn!("stopping at once (second signal)");
                server.stop(false).await;
            }
        }
    });
}

/// The next SIGTERM or SIGINT; `None` when signals cannot be listened for.
async fn signal() -> Option<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).ok()?;
    let mut int = signal(SignalKind::interrupt()).ok()?;
    tokio::select! {
        _ = term.recv() => Some(()),
        _ = int.recv() => Some(()),
    }
}

#[derive(serde::Deserialize)]
struct CeilingQuery {
    bytes: Option<usize>,
}

/// A fixed JSON array of about `bytes` bytes, made without any database work: what this binary
/// can serve at best, which `make bench` measures the pages against.
async fn bench_ceiling_page(q: web::Query<CeilingQuery>) -> HttpResponse {
    let bytes = q.bytes.unwrap_or(10_000).clamp(16, 1 << 20);
    let body = format!("[{{\"pad\":\"{}\"}}]", "x".repeat(bytes - 12));
    HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-cache"))
        .content_type("application/json")
        .body(body)
}

/// Headers every answer carries. HSTS when we are served over https.
fn security_headers(hsts: bool) -> DefaultHeaders {
    let headers = DefaultHeaders::new()
        .add(("X-Content-Type-Options", "nosniff"))
        .add(("Referrer-Policy", "strict-origin-when-cross-origin"));
    if hsts { headers.add(("Strict-Transport-Security", "max-age=31536000; includeSubDomains")) } else { headers }
}

/// No page of ours may be framed by another site (`X-Frame-Options: DENY`, beside the web app's
/// `frame-ancestors 'none'`) except the embedded player, which is made for it (`crate::embed`).
async fn refuse_framing(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    let framed = req.path().starts_with("/embed/");
    let mut res = next.call(req).await?;
    if !framed {
        res.headers_mut().insert(
            actix_web::http::header::X_FRAME_OPTIONS,
            actix_web::http::header::HeaderValue::from_static("DENY"),
        );
    }
    Ok(res)
}

/// How old a stored file no row points to must be before the sweep removes it: longer than any
/// upload takes between storing its files and committing its row.
pub const ORPHAN_MARGIN: Duration = Duration::from_secs(3600);

/// Hourly clean-up of expired sessions, links, throttle windows and play marks, and of stored
/// files no row points to (avatars and post files left by a failed upload, a crash or an interrupted delete).
fn spawn_sweeper(state: AppState) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(3600));
        loop {
            every.tick().await;
            swept("expired rows", state.auth.sweep().await);
            swept("unreferenced avatars", state.profiles.sweep_orphan_avatars().await);
            let cutoff = chrono::Utc::now() - chrono::Duration::from_std(ORPHAN_MARGIN).unwrap_or_default();
            swept("unfinished uploads", state.storage.remove_unfinished_uploads(cutoff).await);
            swept("unreferenced post files", state.posts.sweep_orphan_media(ORPHAN_MARGIN).await);
            swept("play marks past the hour", state.posts.sweep_play_marks().await);
        }
    });
}

/// Logs what one part of the sweep removed (nothing when it removed nothing), or why it failed.
fn swept<E: std::fmt::Display>(what: &str, result: Result<usize, E>) {
    match result {
        Ok(0) => {}
        Ok(n) => tracing::info!(removed = n, "swept {what}"),
        Err(e) => tracing::warn!(error = %e, "sweeping {what} failed"),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn a_token_secret_others_can_read_is_made_private() {
        let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let vars = [("SELFSOUND_DATA_DIR", root.path().display().to_string())];
        let config = Config::from_lookup(|k| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone()))
            .unwrap_or_else(|e| panic!("{e}"));
        let first = jwt_secret(&config).unwrap_or_default();
        let path = root.path().join("secrets/jwt-secret");
        let mode = |p: &std::path::Path| std::fs::metadata(p).map(|m| m.permissions().mode() & 0o777).unwrap_or(0);
        assert_eq!((mode(&path), mode(&root.path().join("secrets"))), (0o600, 0o700));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(jwt_secret(&config).unwrap_or_default(), first, "the same secret is read back");
        assert_eq!(mode(&path), 0o600, "and made private again");
    }
}
