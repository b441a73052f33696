//! Making real media files with ffmpeg in a temporary folder.
//!
//! ffmpeg is a test-time tool only. When it (or an encoder a test needs) is missing, the test
//! fails under `CI=true`, and elsewhere is skipped with a loud message, so a developer without
//! it can still run the rest.

use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// A temporary folder to make files in with ffmpeg.
pub struct Ffmpeg {
    dir: tempfile::TempDir,
}

/// The encoders ffmpeg has here, or `None` when it cannot be run.
fn encoders() -> Option<&'static str> {
    static ENCODERS: OnceLock<Option<String>> = OnceLock::new();
    ENCODERS
        .get_or_init(|| {
            let out = Command::new("ffmpeg").args(["-hide_banner", "-encoders"]).stderr(Stdio::null()).output().ok()?;
            out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
        })
        .as_deref()
}

fn missing(test: &str, what: &str) -> Option<Ffmpeg> {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{test}: {what} is required to run this test under CI=true");
    }
    eprintln!("\n!!!!! SKIPPED {test}: {what} is not installed; install ffmpeg to run it !!!!!\n");
    None
}

/// ffmpeg with the given encoders (e.g. "libmp3lame"), or `None` after a loud skip message.
pub fn ffmpeg(test: &str, needed: &[&str]) -> Option<Ffmpeg> {
    let Some(list) = encoders() else { return missing(test, "ffmpeg") };
    for encoder in needed {
        if !list.lines().any(|line| line.split_whitespace().nth(1) == Some(encoder)) {
            return missing(test, &format!("ffmpeg's {encoder} encoder"));
        }
    }
    Some(Ffmpeg { dir: tempfile::tempdir().expect("a temporary folder") })
}

impl Ffmpeg {
    /// The path of `name` in the folder, as an argument.
    pub fn path(&self, name: &str) -> String {
        self.dir.path().join(name).to_string_lossy().into_owned()
    }

    /// Runs `ffmpeg <args> <folder>/<output>` and answers the file it made.
    pub fn make(&self, output: &str, args: &[&str]) -> Vec<u8> {
        let out = self.path(output);
        let result = Command::new("ffmpeg")
            .args(["-nostdin", "-hide_banner", "-v", "error", "-y"])
            .args(args)
            .arg(&out)
            .stdin(Stdio::null())
            .output()
            .expect("running ffmpeg");
        assert!(result.status.success(), "ffmpeg {args:?} {out} failed: {}", String::from_utf8_lossy(&result.stderr));
        std::fs::read(&out).expect("ffmpeg's output")
    }

    /// Whether ffmpeg decodes `bytes` (written to `name`) without an error.
    pub fn decodes(&self, name: &str, bytes: &[u8]) -> bool {
        let path = self.path(name);
        std::fs::write(&path, bytes).expect("writing a file");
        Command::new("ffmpeg")
            .args(["-nostdin", "-v", "error", "-xerror", "-i", &path, "-f", "null", "-"])
            .stdin(Stdio::null())
            .output()
            .is_ok_and(|o| o.status.success() && o.stderr.is_empty())
    }
}

/// The first 4 KiB, what the server sniffs before the rest of an upload arrives.
pub fn head(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.len().min(4096)]
}
