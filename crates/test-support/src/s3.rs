//! A real S3-compatible object store for tests: a single Garage node on loopback, with a fresh
//! bucket and key, in a temporary folder of its own.
//!
//! Garage is the store a scaled-out SelfSound runs on (deploy/); the tests use the same program.
//! It comes from `SELFSOUND_TEST_GARAGE`, `garage` on `PATH`, or the per-machine tool cache
//! `make test-tools` installs it into (`~/.cache/selfsound/garage/bin/garage`, built once per
//! machine: about 9 minutes on two cores). Without it tests are skipped with a loud message,
//! except under CI, where a missing Garage fails like a missing Chromium.

#![allow(clippy::expect_used, clippy::panic)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use storage::{S3Settings, Storage, StorageError};

/// The region Garage signs for (`s3_region`); clients must use the same.
const REGION: &str = "garage";

/// The running store; stopped (and its folder removed) when dropped.
pub struct S3TestServer {
    child: Child,
    dir: tempfile::TempDir,
    config: PathBuf,
    pub settings: S3Settings,
}

impl Drop for S3TestServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where Garage is on this machine, if anywhere.
pub fn garage_binary() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SELFSOUND_TEST_GARAGE").map(PathBuf::from).filter(|p| p.is_file()) {
        return Some(p);
    }
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join("garage"))
        .find(|p| p.is_file());
    let cached = || {
        let home = std::env::var_os("HOME").map(PathBuf::from)?;
        let p = home.join(".cache/selfsound/garage/bin/garage");
        p.is_file().then_some(p)
    };
    on_path.or_else(cached)
}

fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

fn random_hex(bytes: usize) -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..bytes).map(|_| format!("{:02x}", rng.random::<u8>())).collect()
}

impl S3TestServer {
    /// Starts a Garage node with an empty bucket named `bucket` and a key allowed to read and
    /// write it, or `None` (after a loud message) when Garage is not installed and this is not CI.
    pub async fn start(bucket: &str) -> Option<S3TestServer> {
        let Some(bin) = garage_binary() else {
            if under_ci() {
                panic!("CI needs Garage, the S3-compatible store the tests run against: make test-tools installs it");
            }
            eprintln!(
                "\n*** SKIPPED: no Garage (make test-tools installs it, once per machine). Under CI=true this fails. ***\n"
            );
            return None;
        };
        let dir = tempfile::tempdir().expect("a folder for Garage");
        let (s3_port, rpc_port) = (free_port(), free_port());
        let config = dir.path().join("garage.toml");
        std::fs::write(
            &config,
            format!(
                r#"metadata_dir = "{root}/meta"
data_dir = "{root}/data"
db_engine = "sqlite"
replication_factor = 1
rpc_bind_addr = "127.0.0.1:{rpc_port}"
rpc_public_addr = "127.0.0.1:{rpc_port}"
rpc_secret = "{secret}"

[s3_api]
s3_region = "{REGION}"
api_bind_addr = "127.0.0.1:{s3_port}"
"#,
                root = dir.path().display(),
                secret = random_hex(32),
            ),
        )
        .expect("write garage.toml");
        let log = std::fs::File::create(dir.path().join("garage.log")).expect("garage.log");
        let child = Command::new(&bin)
            .arg("-c")
            .arg(&config)
            .arg("server")
            .env("RUST_LOG", "warn")
            .stdout(log.try_clone().expect("garage.log"))
            .stderr(log)
            .spawn()
            .expect("start garage");
        let key_id = format!("GK{}", random_hex(12));
        let secret = random_hex(32);
        let server = S3TestServer {
            child,
            config,
            settings: S3Settings {
                bucket: bucket.into(),
                endpoint: Some(format!("http://127.0.0.1:{s3_port}")),
                region: Some(REGION.into()),
                access_key_id: Some(key_id.clone()),
                secret_access_key: Some(secret.clone()),
            },
            dir,
        };
        // Garage's own set-up steps, through its command line (which talks to the node over RPC):
        // the node takes all the (one-node) layout, then a key and a bucket are made for us.
        server.wait_for_node(&bin);
        let node = server.garage(&bin, &["node", "id", "-q"]);
        let node = node.trim().split('@').next().unwrap_or_default().to_owned();
        server.garage(&bin, &["layout", "assign", "-z", "dc1", "-c", "1G", &node]);
        server.garage(&bin, &["layout", "apply", "--version", "1"]);
        server.garage(&bin, &["key", "import", "--yes", "-n", "selfsound-test", &key_id, &secret]);
        server.garage(&bin, &["bucket", "create", bucket]);
        server.garage(&bin, &["bucket", "allow", "--read", "--write", "--owner", bucket, "--key", "selfsound-test"]);
        server.wait_for_bucket().await;
        Some(server)
    }

    /// The node's folder (its log is `garage.log` there).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The settings as the server reads them from its environment.
    pub fn env(&self) -> Vec<(String, String)> {
        let s = &self.settings;
        [
            ("SELFSOUND_S3_BUCKET", Some(s.bucket.clone())),
            ("AWS_ENDPOINT", s.endpoint.clone()),
            ("AWS_REGION", s.region.clone()),
            ("AWS_ACCESS_KEY_ID", s.access_key_id.clone()),
            ("AWS_SECRET_ACCESS_KEY", s.secret_access_key.clone()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.unwrap_or_default()))
        .collect()
    }

    /// Every key in the bucket under the prefixes the application writes (`posts/`, `avatars/`).
    pub async fn keys(&self) -> Vec<String> {
        let storage = Storage::s3(&self.settings).expect("S3 settings");
        let mut keys = Vec::new();
        for prefix in ["avatars", "posts"] {
            keys.extend(storage.list_older_than(prefix, chrono::DateTime::<chrono::Utc>::MAX_UTC).await.expect("list"));
        }
        keys
    }

    fn garage(&self, bin: &Path, args: &[&str]) -> String {
        let out =
            Command::new(bin).arg("-c").arg(&self.config).args(args).stdin(Stdio::null()).output().expect("run garage");
        assert!(
            out.status.success(),
            "garage {}: {}{}\n(log: {})",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(self.dir.path().join("garage.log")).unwrap_or_default()
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Until the node answers its command line (it has opened its database and RPC port).
    fn wait_for_node(&self, bin: &Path) {
        for _ in 0..300 {
            let status = Command::new(bin)
                .arg("-c")
                .arg(&self.config)
                .arg("status")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .expect("run garage status");
            if status.success() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!(
            "Garage did not start; its log:\n{}",
            std::fs::read_to_string(self.dir.path().join("garage.log")).unwrap_or_default()
        );
    }

    /// Until a signed request for a missing object answers "not found": the layout is applied
    /// and the key may read the bucket.
    async fn wait_for_bucket(&self) {
        let storage = Storage::s3(&self.settings).expect("S3 settings");
        let mut last = String::new();
        for _ in 0..200 {
            match storage.get("readiness/probe", None).await {
                Err(StorageError::NotFound) => return,
                Ok(_) => panic!("a fresh bucket holds an object"),
                Err(e) => last = e.to_string(),
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the Garage bucket never became ready: {last}");
    }
}
