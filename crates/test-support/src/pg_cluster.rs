//! A PostgreSQL cluster of a test's own (initdb + pg_ctl from the machine's PostgreSQL), on a
//! free loopback port, that the test may stop and start again: what a database restart does to
//! a running server, without touching the cluster every other test shares.
//!
//! PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user.
//! Without PostgreSQL's programs the test is skipped with a loud message, except under CI.

#![allow(clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::ci;

pub struct PgCluster {
    bin: PathBuf,
    dir: tempfile::TempDir,
    port: u16,
    /// Run PostgreSQL's programs as this user (when we are root).
    run_as: Option<&'static str>,
}

/// The folder of initdb and pg_ctl: `SELFSOUND_TEST_PG_BIN`, or the newest under
/// /usr/lib/postgresql (Debian's layout).
fn bin_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("SELFSOUND_TEST_PG_BIN").map(PathBuf::from) {
        return Some(dir);
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|p| p.join("initdb").is_file() && p.join("pg_ctl").is_file())
        .collect();
    versions.sort_by_key(|p| p.parent().and_then(|v| v.file_name()).and_then(|v| v.to_str()?.parse::<u32>().ok()));
    versions.pop()
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

impl PgCluster {
    /// A fresh cluster, started, or `None` (after a loud message) without PostgreSQL's
    /// programs outside CI.
    pub fn start() -> Option<PgCluster> {
        let Some(bin) = bin_dir() else {
            if ci() {
                panic!("CI needs PostgreSQL's server programs (initdb, pg_ctl) for the restart tests");
            }
            eprintln!("\n*** SKIPPED: no initdb/pg_ctl (Debian: postgresql). Under CI=true this fails. ***\n");
            return None;
        };
        let run_as = is_root().then_some("postgres");
        let dir = tempfile::tempdir().expect("a folder for the cluster");
        if let Some(user) = run_as {
            let chown = Command::new("chown").args(["-R", user]).arg(dir.path()).status().expect("chown");
            assert!(chown.success(), "chown the cluster folder to {user}");
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
        let cluster = PgCluster { bin, dir, port, run_as };
        let data = cluster.data().display().to_string();
        cluster.run("initdb", &["-D", &data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
        cluster.start_again();
        Some(cluster)
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// One of PostgreSQL's programs, as the user the cluster belongs to.
    fn command(&self, program: &str) -> Command {
        let program = self.bin.join(program);
        match self.run_as {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(&program);
                c
            }
            None => Command::new(&program),
        }
    }

    fn run(&self, program: &str, args: &[&str]) {
        let out = self.command(program).args(args).stdin(Stdio::null()).output().expect("run a PostgreSQL program");
        assert!(
            out.status.success(),
            "{program} {}: {}{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// `postgres://…/postgres` on the cluster.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Stops the server at once (`pg_ctl stop -m fast`: sessions are ended, as in a restart).
    pub fn stop(&self) {
        let data = self.data().display().to_string();
        self.run("pg_ctl", &["stop", "-D", &data, "-m", "fast", "-w"]);
    }

    /// Starts the server (again) and waits until it accepts connections.
    pub fn start_again(&self) {
        let data = self.data().display().to_string();
        let log = self.dir.path().join("postgres.log").display().to_string();
        let options = format!(
            "-c listen_addresses=127.0.0.1 -c port={} -c unix_socket_directories={} -c fsync=off",
            self.port,
            self.dir.path().display()
        );
        self.run("pg_ctl", &["start", "-D", &data, "-l", &log, "-w", "-o", &options]);
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let data = self.data().display().to_string();
        let _ = self
            .command("pg_ctl")
            .args(["stop", "-D", &data, "-m", "immediate"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}
