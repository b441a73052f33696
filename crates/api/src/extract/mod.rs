//! Request extractors, one module a concern: the access token and the cross-site check
//! ([`token`]), who is signed in and the write limits counted with it ([`session`]), and the
//! client's address and browser ([`client`]).

mod client;
mod session;
mod token;

pub use client::{Client, client_ip};
pub use session::{AdminUser, AuthUser, Limited, MaybeLimited, MaybeUser, ReadLimited, Readers, Session};
pub use token::{TOKEN_COOKIE, raw_token};
