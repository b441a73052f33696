//! Notifications: who commented on, mentioned, listened to or liked whom, their read state, and
//! their live delivery.
//!
//! - A notification is written by [`record`] inside the transaction of what caused it (the
//!   comment, the like, the listen — one use case, one transaction; `app` puts them together).
//!   Never for one's own action, never within a block pair, and a like or a listen toggled off
//!   and on again does not notify twice.
//! - [`Notifications`] holds this domain's own use cases: the list, marking read, the unread
//!   count.
//! - Live delivery: every write that changes someone's notifications names their unread count
//!   ([`db::Topic::Unread`], [`signal`]) and every write that ends sessions names them
//!   ([`db::Topic::Sessions`]); once it commits, `db::changes` tells this process and, through
//!   PostgreSQL's `NOTIFY`, every other one. [`Streams`] are this process's open streams, at
//!   most a few a person, each change counted once for all of a person's streams.
//! - Web Push ([`push`]): each notification is also pushed to its recipient's devices that
//!   asked for its kind, through their browsers' push services, when no tab is open.

mod error;
mod forget;
mod model;
pub mod push;
mod repo;
mod service;
mod streams;

pub use error::NotificationError;
pub use forget::forget_comment;
pub use model::{Event, Kind, Notification, excerpt};
pub use repo::{UNREAD_CAP, all_of, list, mentions_told, record, record_unblocked, signal, unread_count};
pub use service::{NOTIFICATIONS_PAGE, Notifications};
pub use streams::{Heard, STREAMS_PER_PERSON, Stream, Streams};
