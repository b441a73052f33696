//! Shared by the tests of every crate (a dev-dependency only, so production crates carry no
//! `testing` features and are not built twice): fresh databases on SQLite and PostgreSQL
//! ([`TestDb`], [`both_backends!`]), real files made in code ([`media`]), a real
//! S3-compatible store ([`s3`]), and a PostgreSQL cluster of a test's own to stop and start
//! ([`pg_cluster`]).

#![allow(clippy::expect_used, clippy::panic)]

mod db;
pub mod media;
pub mod pg_cluster;
pub mod s3;
pub mod statements;

pub use db::{TestDb, ci, insert_post, insert_user, insert_user_with_email};
