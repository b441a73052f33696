//! The HTTP API against the real server on a free port, on SQLite and on PostgreSQL: one test
//! binary for the crate, one module per area.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod access_matrix;
mod audio_metadata;
mod auth;
mod backup;
mod caching;
mod comment_moderation;
mod common;
mod crash;
mod data_export;
mod discover;
mod edits;
mod embeds;
mod federation;
mod hardening;
mod hostile_files;
mod http;
mod limits;
mod media_budget;
mod moderation;
mod moments;
mod notifications;
mod observability;
#[path = "../support/oidc_provider.rs"]
mod oidc_provider;
mod passkeys;
mod playlists;
mod plays;
mod posts;
mod previews;
mod profiles;
mod recordings;
mod renditions;
mod reposts;
mod restart;
mod search;
mod security;
mod shutdown;
mod suspension;
mod tags;
mod two_factor;
mod upload;
mod web_push;
