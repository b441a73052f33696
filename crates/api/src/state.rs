//! What every handler can reach: the services, the database and the configuration.

use std::sync::Arc;

use auth::AuthService;
use db::Db;
use profiles::Profiles;

use crate::config::Config;

#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub auth: AuthService,
    pub profiles: Profiles,
    pub config: Arc<Config>,
    /// Origins allowed to send cookie-authenticated writes (CSRF check) and to receive tokens.
    pub trusted_origins: Arc<Vec<String>>,
}

impl AppState {
    /// Media we store are kept as paths (`/media/...`); clients get absolute addresses, so the
    /// web app works from another origin too. Outside addresses pass unchanged.
    pub fn media_url(&self, url: Option<String>) -> Option<String> {
        url.map(|u| if u.starts_with('/') { format!("{}{u}", self.config.public_url) } else { u })
    }
}
