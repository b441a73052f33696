//! ffmpeg, run bounded: the one outside program the server runs, on hostile files. Every run is
//! one thread, an address-space limit, a wall-clock limit (and a CPU-time limit the kernel keeps), an explicit input format (the one
//! the bytes were sniffed as; never ffmpeg's own guess) read through the `file` protocol only
//! (so a playlist or a reference movie inside cannot make it open a network address), an empty
//! environment, and an empty working folder of its own that is removed afterwards.
//!
//! Videos need it (docs/media.md): each is remuxed without its metadata and must have a frame
//! that decodes. Without ffmpeg, video uploads answer 503 and everything else works.

use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The address space one ffmpeg run may use. Copying streams takes a few MB and decoding the
/// largest frame accepted (see [`MAX_PIXELS`]) about 100 MB; a crafted file that makes a
/// decoder allocate more fails instead of driving the machine into swap (a 3 MB MKV with one
/// 16000×16000 frame took ffmpeg to 2.1 GB).
const ADDRESS_SPACE_KB: u64 = 512 * 1024;
/// The largest frame decoded: 8K UHD (7680×4320), the most a browser plays.
pub const MAX_PIXELS: u64 = 7680 * 4320;
/// Bytes of ffmpeg's error output kept for the log.
const ERROR_OUTPUT_KEPT: u64 = 2048;

/// A found ffmpeg program.
#[derive(Debug, Clone)]
pub struct Ffmpeg {
    program: PathBuf,
}

/// Why a run failed: the file is unusable (ffmpeg refused it, or it outlasted its limit), or
/// ffmpeg could not be run at all (ours, not the person's).
#[derive(Debug)]
pub enum RunError {
    Refused(String),
    TimedOut,
    NotRun(std::io::Error),
}

impl Ffmpeg {
    /// `program` (a path, or a name looked up in `PATH`) when it runs and says it is ffmpeg.
    pub fn find(program: &Path) -> Option<Ffmpeg> {
        let program = if program.components().count() > 1 {
            program.to_owned()
        } else {
            std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join(program)).find(|p| p.is_file())?
        };
        let out = Command::new(&program).arg("-version").stdin(Stdio::null()).stderr(Stdio::null()).output().ok()?;
        (out.status.success() && out.stdout.starts_with(b"ffmpeg version")).then_some(Ffmpeg { program })
    }

    /// Runs ffmpeg with `args` in the empty folder `work` (inputs and outputs are given as paths
    /// inside it or absolute paths), bounded as the module comment says.
    pub fn run<I, S>(&self, work: &Path, args: I, limit: Duration) -> Result<(), RunError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let errors = work.join(".ffmpeg-errors");
        let errors_file = std::fs::File::create(&errors).map_err(RunError::NotRun)?;
        // `ulimit` in a shell that then becomes ffmpeg (exec): the limits without unsafe code.
        // The CPU-time limit is the kernel's: it holds even if this process dies mid-run (a
        // crash, `kill -9`) and leaves ffmpeg behind with nobody to watch its clock.
        let cpu_seconds = limit.as_secs() + 5;
        let mut child = Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("ulimit -v {ADDRESS_SPACE_KB} && ulimit -t {cpu_seconds} && exec \"$0\" \"$@\""))
            .arg(&self.program)
            .args(["-nostdin", "-hide_banner", "-loglevel", "error", "-threads", "1", "-filter_threads", "1"])
            .args(args)
            .current_dir(work)
            .env_clear()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(errors_file)
            .spawn()
            .map_err(RunError::NotRun)?;
        let started = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if started.elapsed() > limit => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(RunError::TimedOut);
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
                Err(e) => return Err(RunError::NotRun(e)),
            }
        };
        if status.success() {
            return Ok(());
        }
        let mut said = String::new();
        if let Ok(f) = std::fs::File::open(&errors) {
            let _ = f.take(ERROR_OUTPUT_KEPT).read_to_string(&mut said);
        }
        Err(RunError::Refused(format!("{status}: {}", said.trim())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_that_is_not_ffmpeg_is_not_found() {
        assert!(Ffmpeg::find(Path::new("/nonexistent/ffmpeg")).is_none());
        assert!(Ffmpeg::find(Path::new("true")).is_none(), "runs, but is not ffmpeg");
    }

    #[test]
    fn runs_are_bounded_in_time() {
        let Some(ffmpeg) = Ffmpeg::find(Path::new("ffmpeg")) else {
            eprintln!("SKIPPED: no ffmpeg");
            return;
        };
        let work = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        // An endless generated input: only the limit stops it.
        let args = ["-f", "lavfi", "-i", "sine", "-f", "null", "-"];
        assert!(matches!(ffmpeg.run(work.path(), args, Duration::from_millis(300)), Err(RunError::TimedOut)));
        let refused =
            ffmpeg.run(work.path(), ["-f", "mov", "-i", "missing.mp4", "-f", "null", "-"], Duration::from_secs(20));
        assert!(matches!(refused, Err(RunError::Refused(_))), "{refused:?}");
    }
}
