//! Handlers, one module per area; each handler parses, calls one domain function, shapes JSON.

pub mod auth;
pub mod health;
pub mod media;
pub mod profiles;
