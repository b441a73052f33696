//! Shared by the tests of every crate (a dev-dependency only, so production crates carry no
//! `testing` features and are not built twice): fresh databases on SQLite and PostgreSQL
//! ([`TestDb`], [`both_backends!`]), real files made in code ([`media`]), and a real
//! S3-compatible server ([`s3`]).

#![allow(clippy::expect_used, clippy::panic)]

mod db;
pub mod media;
pub mod s3;
pub mod statements;

pub use db::{TestDb, ci, insert_post, insert_user, insert_user_with_email};
