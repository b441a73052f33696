//! What every handler can reach: the services, storage, the database and the configuration.

use std::sync::Arc;

use app::App;
use auth::AuthService;
use db::Db;
use moderation::Moderation;
use notifications::Notifications;
use posts::Posts;
use profiles::Profiles;
use social_graph::SocialGraph;
use storage::Storage;

use crate::config::Config;
use crate::routes::media::DEFAULT_AVATAR_PATH;

#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub storage: Storage,
    pub auth: AuthService,
    pub profiles: Profiles,
    pub graph: SocialGraph,
    pub posts: Posts,
    pub notifications: Notifications,
    /// Web Push: the server's VAPID key and the client that reaches push services.
    pub pusher: notifications::push::Pusher,
    pub moderation: Moderation,
    /// Use cases that span domains.
    pub app: App,
    /// Posts as JSON, what of each is the same for every viewer written once.
    pub rendered: Arc<crate::routes::posts::RenderedPosts>,
    /// The write limits' counts of this process (`crate::limits::count`).
    pub limits: Arc<db::tally::Tally>,
    /// Uploads in flight, per account and in all (taken before a body is read).
    pub uploads: crate::upload_slots::UploadSlots,
    /// Activities being received, per sending server and in all (`routes::federation`).
    pub inbox: crate::slots::Slots<String>,
    /// What this process's job runner counted, and the queue's figures (`crate::jobs`).
    pub jobs: Arc<crate::jobs::JobCounts>,
    /// Federation, when it is on (`SELFSOUND_FEDERATION`).
    pub federation: Option<federation::Config>,
    pub config: Arc<Config>,
    /// Origins allowed to send cookie-authenticated writes (CSRF check) and to receive tokens.
    pub trusted_origins: Arc<Vec<String>>,
}

impl AppState {
    /// Media we store are kept as paths (`/media/...`); clients get absolute addresses, so the
    /// web app works from another origin too. Outside addresses pass unchanged.
    pub fn media_url(&self, url: &str) -> String {
        if url.starts_with('/') { format!("{}{url}", self.config.public_url) } else { url.to_owned() }
    }

    /// A person's avatar, never null: without one of their own, the default picture we serve
    /// (a client written from the spec may otherwise try to load a missing file forever).
    pub fn avatar_url(&self, url: Option<&str>) -> String {
        self.media_url(url.unwrap_or(DEFAULT_AVATAR_PATH))
    }
}
