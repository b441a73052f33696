//! The verification e-mail over real SMTP, to a local aiosmtpd server that keeps what it
//! receives in a Maildir. The server comes from `target/test-tools/venv` (`make test-tools`) or
//! `SELFSOUND_TEST_AIOSMTPD`; without it the test is skipped loudly, except under CI.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use auth::mail::Mailer;

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn aiosmtpd() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("SELFSOUND_TEST_AIOSMTPD") {
        return Some(PathBuf::from(p));
    }
    let local = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/test-tools/venv/bin/aiosmtpd");
    if local.is_file() {
        return Some(local);
    }
    if std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false") {
        panic!("CI needs the SMTP test server: make test-tools");
    }
    eprintln!(
        "\n*** SKIPPED: no SMTP test server (make test-tools installs aiosmtpd). Under CI=true this fails. ***\n"
    );
    None
}

#[tokio::test]
async fn the_verification_mail_goes_out_over_smtp() {
    let Some(bin) = aiosmtpd() else { return };
    let maildir = tempfile::tempdir().unwrap();
    for sub in ["tmp", "new", "cur"] {
        std::fs::create_dir(maildir.path().join(sub)).unwrap();
    }
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let _server = Server(
        Command::new(bin)
            .args(["-n", "-l", &format!("127.0.0.1:{port}"), "-c", "aiosmtpd.handlers.Mailbox"])
            .arg(maildir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start aiosmtpd"),
    );
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let mailer = Mailer::smtp(&format!("smtp://127.0.0.1:{port}"), "SelfSound <no-reply@example.com>").unwrap();
    let link = "http://127.0.0.1:8080/authorization/verify?token=abcDEF123-_xyz";
    mailer.send_verification("ada@example.com", "Ada", link).await.unwrap();

    let new = maildir.path().join("new");
    let mut text = String::new();
    for _ in 0..50 {
        if let Some(file) = std::fs::read_dir(&new).ok().and_then(|mut d| d.next()).and_then(Result::ok) {
            text = std::fs::read_to_string(file.path()).unwrap();
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(text.contains("To: ada@example.com"), "the message arrived: {text}");
    assert!(text.contains("Subject: Verify your SelfSound e-mail"));
    assert!(text.replace("=\r\n", "").replace("=\n", "").replace("=3D", "=").contains(link));
}
