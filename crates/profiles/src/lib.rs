//! Profiles: reading and editing them, the three role tags, the counters people see, user
//! search, and avatars.

mod error;
pub mod input;
mod model;
mod repo;
mod search;
mod service;
pub mod tags;

pub use error::ProfileError;
pub use input::ProfilePatch;
pub use model::{Profile, SearchHit, Stats};
pub use service::{AVATAR_MAX_BYTES, Profiles};
