//! Accounts and sign-in against real databases (SQLite and PostgreSQL) and a real SMTP server:
//! one test binary for the crate.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod accounts;
mod smtp;
