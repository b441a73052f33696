//! A real S3-compatible server for tests (moto's), with a fresh bucket.
//!
//! The server comes from `target/test-tools/venv` (`make test-tools` installs it) or
//! `SELFSOUND_TEST_MOTO`. Without it, tests are skipped with a loud message, except under CI.

#![allow(clippy::expect_used, clippy::panic)]

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use storage::S3Settings;

/// The running server; stopped when dropped.
pub struct S3TestServer {
    child: Child,
    pub settings: S3Settings,
}

impl Drop for S3TestServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn binary() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("SELFSOUND_TEST_MOTO") {
        return Some(PathBuf::from(p));
    }
    let local = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/test-tools/venv/bin/moto_server");
    local.is_file().then_some(local)
}

impl S3TestServer {
    /// Starts a server with an empty bucket named `bucket`, or `None` (after a loud message)
    /// when none is installed and this is not CI.
    pub async fn start(bucket: &str) -> Option<S3TestServer> {
        let Some(bin) = binary() else {
            if std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false") {
                panic!("CI needs an S3-compatible test server: make test-tools");
            }
            eprintln!(
                "\n*** SKIPPED: no S3 test server (make test-tools installs moto). Under CI=true this fails. ***\n"
            );
            return None;
        };
        let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
        let child = Command::new(bin)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start moto_server");
        let endpoint = format!("http://127.0.0.1:{port}");
        let server = S3TestServer {
            child,
            settings: S3Settings {
                bucket: bucket.into(),
                endpoint: Some(endpoint.clone()),
                region: Some("us-east-1".into()),
                access_key_id: Some("test".into()),
                secret_access_key: Some("test".into()),
            },
        };
        let client = reqwest::Client::new();
        for _ in 0..150 {
            // Buckets are made by whoever runs the store, not by the app: one plain S3 call.
            if let Ok(r) = client.put(format!("{endpoint}/{bucket}")).send().await {
                assert!(r.status().is_success(), "creating the test bucket: {}", r.status());
                return Some(server);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("moto_server did not start");
    }
}
