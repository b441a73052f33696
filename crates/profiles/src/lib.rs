//! Profiles: reading and editing them, the three role tags, the counters people see, finding
//! people by name or login, and avatars.

mod error;
pub mod input;
mod model;
mod repo;
pub mod search;
mod service;
pub mod tags;

pub use error::{AvatarDefect, InvalidEdit, ProfileError};
pub use input::ProfilePatch;
pub use model::{Profile, Stats};
pub use repo::{STORED, profile_since};
pub use service::{AVATAR_MAX_BYTES, Profiles, release_account};
