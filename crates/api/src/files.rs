//! The data folder holds the database, e-mails with sign-in links and the token-signing
//! secret: it is created for this user only, and a looser one is reported at start.

use std::path::Path;

use operations::files::{loosen_by_others, private_dir};

use crate::config::Config;

/// The data folder (0700 when new; a warning when it is open to others) and, on SQLite, the
/// database file made 0600 before SQLite first opens it (SQLite gives its `-wal` and `-shm`
/// files the database file's mode).
pub fn prepare_data_dir(config: &Config) -> std::io::Result<()> {
    private_dir(&config.data_dir)?;
    if loosen_by_others(&config.data_dir) {
        tracing::warn!(
            dir = %config.data_dir.display(),
            "the data folder can be read by other users of this machine (it holds the database, e-mails with \
             sign-in links and the token secret); consider chmod 700"
        );
    }
    let url = &config.database_url;
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok(());
    }
    let path = Path::new(url.strip_prefix("sqlite://").unwrap_or(url));
    if url.contains(":memory:") || path.exists() {
        return Ok(());
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        private_dir(parent)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path).map(|_| ())
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).map(|m| m.permissions().mode() & 0o777).unwrap_or_default()
    }

    #[test]
    fn a_new_data_folder_and_database_are_for_this_user_only() {
        let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let data = root.path().join("data");
        let vars = [("SELFSOUND_DATA_DIR", data.display().to_string())];
        let config = Config::from_lookup(|k| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone()))
            .unwrap_or_else(|e| panic!("{e}"));
        prepare_data_dir(&config).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mode(&data), 0o700);
        assert_eq!(mode(&data.join("selfsound.sqlite3")), 0o600);
        assert!(!loosen_by_others(&data));
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap_or_else(|e| panic!("{e}"));
        assert!(loosen_by_others(&data), "a loose folder is noticed");
    }
}
