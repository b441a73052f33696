//! Federation over ActivityPub (docs/federation.md): our people as actors other servers can
//! find (WebFinger, NodeInfo) and follow, and what those servers send as our listens. It sits
//! beside `app`, calling the domains (never the other way round); the protocol itself —
//! signatures, fetching, the checks on addresses — is `activitypub_federation`'s, as Lemmy
//! runs it. Off unless `SELFSOUND_FEDERATION=on` (`Settings`).

pub mod activities;
pub mod actors;
mod comments;
pub mod delivery;
pub mod domains;
mod error;
pub mod notes;
mod repo;
pub mod settings;
mod text;
pub mod wellknown;

use std::sync::Arc;
use std::time::Duration;

use activitypub_federation::config::FederationConfig;
use db::Db;

pub use error::FederationError;
pub use settings::Settings;

/// A request's (or a job's) view of federation: ours, and the library's state.
pub type Data = activitypub_federation::config::Data<Federation>;
/// What the server keeps for the life of the process.
pub type Config = FederationConfig<Federation>;

/// How long another server has to answer a fetch or a delivery.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// The most other servers' requests one incoming activity may cause (fetching its actor, the
/// object it names…), so that no activity sends us walking.
pub const FETCHES_PER_ACTIVITY: u32 = 20;

/// What federation works with.
#[derive(Clone)]
pub struct Federation {
    db: Db,
    posts: posts::Posts,
    settings: Arc<Settings>,
    /// NodeInfo's figures and when they were read.
    usage: Arc<std::sync::Mutex<Option<(std::time::Instant, Usage)>>>,
}

/// Our people, and their posts.
type Usage = (i64, i64);

/// How long NodeInfo's figures are kept.
pub const USAGE_KEPT: Duration = Duration::from_secs(600);

impl Federation {
    /// Starts federation with `settings` (from [`Settings::new`]).
    pub async fn start(db: Db, posts: posts::Posts, settings: Settings) -> Result<Config, FederationError> {
        let domain = settings.domain();
        let debug = settings.debug;
        posts.announce_changes();
        let federation = Federation { db, posts, settings: Arc::new(settings), usage: Default::default() };
        FederationConfig::builder()
            .domain(domain)
            .app_data(federation)
            .debug(debug)
            .allow_http_urls(debug)
            .request_timeout(REQUEST_TIMEOUT)
            .http_fetch_limit(FETCHES_PER_ACTIVITY)
            .build()
            .await
            .map_err(|e| FederationError::Internal(format!("federation settings: {e}")))
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// What an account's deletion does here (`app::App::on_departure`): its followers'
    /// servers are told ([`delivery::farewell_on`]).
    pub fn departure(&self) -> app::Departure {
        let settings = self.settings.clone();
        Box::new(move |conn, user| {
            delivery::farewell_on(conn, &settings, user).map_err(|e| match e {
                FederationError::Db(e) => app::AppError::Db(e),
                other => app::AppError::Departure(other.to_string()),
            })
        })
    }

    /// Our people (of this server) and their posts, as counted at most [`USAGE_KEPT`] ago.
    async fn usage(&self) -> Result<Usage, FederationError> {
        let kept = *self.usage.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((at, figures)) = kept
            && at.elapsed() < USAGE_KEPT
        {
            return Ok(figures);
        }
        let figures = self.db.run(|c| Ok::<_, FederationError>(repo::usage(c)?)).await?;
        *self.usage.lock().unwrap_or_else(std::sync::PoisonError::into_inner) =
            Some((std::time::Instant::now(), figures));
        Ok(figures)
    }
}
