//! Files of the data folder and of backups: they hold the database, people's uploads, e-mails
//! with sign-in links and the token-signing secret, so they are made for this user only.

use std::path::Path;

/// Creates `dir` (and its parents) if missing; a folder this creates is `0700`.
pub fn private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Whether users other than the owner may read or enter `path`.
pub fn loosen_by_others(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o077 != 0)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}
