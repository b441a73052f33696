//! Operating an installation, outside the requests it serves: `selfsound backup`, `restore`
//! and `verify` ([`backup`]), and the data folder's files, made for this user only ([`files`]).
//! The domains name the stored objects their rows point at (`posts::stored_columns`,
//! `profiles::STORED`); nothing here keeps a list of its own.

use std::path::PathBuf;

pub mod backup;
pub mod files;

/// Where an installation keeps what it holds: its database, its data folder (the media folder
/// of the embedded default is `media` under it), and the bucket its media are in, if any.
#[derive(Debug, Clone)]
pub struct Installation {
    pub database_url: String,
    pub data_dir: PathBuf,
    pub s3: Option<storage::S3Settings>,
    /// `SELFSOUND_BACKUP_KEY`: the operator's key that backups are signed with and restores
    /// check (see [`backup`]); none: backups are unsigned and a restore trusts what it is given.
    pub backup_key: Option<String>,
}
