//! Web Push (issue 36; docs/security.md, "Web Push"): notifications reach a person's devices
//! through their browsers' push services when no tab of ours is open.
//!
//! - **Devices** ([`devices`]): each browser a person turned notifications on for, by the
//!   subscription it gave (the push service's endpoint and the keys to encrypt to), with which
//!   kinds it is told of. A device belongs to the session that turned it on: signing out, a
//!   password change or an admin's suspension ends the session and the device with it, so a
//!   stolen session's thief stops hearing the moment the owner takes the session back.
//! - **Queued with the notification**: [`queue`] runs inside [`crate::record`]'s transaction
//!   and queues one job per notification and device that wants its kind (`db::jobs`,
//!   `notification.push`, in the recipient's lane).
//! - **Delivered** ([`Pusher::run_job`]): the notification is read again when the job runs
//!   (gone, read meanwhile, or older than a day: nothing is sent), encrypted to the device
//!   (RFC 8291, aes128gcm), signed for the push service with the server's VAPID key (RFC 8292,
//!   [`vapid`]) and posted; retried with the jobs' backoff while the service fails, and the
//!   device removed when it answers 404 or 410 (the browser dropped the subscription).
//! - **Only to public addresses**: an endpoint is a URL the browser gave, so anyone signed in
//!   could name any URL; it must be `https` and every address it is reached at public
//!   ([`address`]), unless the server itself runs on loopback (tests and development).

pub mod address;
pub mod devices;
mod send;
pub mod vapid;

pub use devices::{Kinds, KindsChange, MOST_DEVICES, PushDevice, Subscription, queue};
pub use send::{Message, PUSH_TTL, Pusher};
pub use vapid::VapidKey;
