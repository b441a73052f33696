//! The HTTP shell: configuration, routes, extractors, error mapping, CORS, OpenAPI and the
//! built web app, around the domain crates.

mod body_timeout;
pub mod config;
pub mod embed;
pub mod error;
pub mod extract;
mod files;
#[doc(hidden)]
pub mod fuzzing;
pub mod jobs;
pub mod limits;
pub mod logging;
pub mod metrics;
pub mod openapi;
mod previews;
pub mod routes;
pub mod seed;
pub mod server;
pub mod slots;
mod spa;
pub mod state;
pub mod upload;
pub mod upload_slots;
pub mod wire;
