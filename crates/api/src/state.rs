//! What every handler can reach: the services, the database and the configuration.

use std::sync::Arc;

use auth::AuthService;
use db::Db;

use crate::config::Config;

#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub auth: AuthService,
    pub config: Arc<Config>,
    /// Origins allowed to send cookie-authenticated writes (CSRF check) and to receive tokens.
    pub trusted_origins: Arc<Vec<String>>,
}
