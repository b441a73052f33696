//! Outgoing e-mail through lettre: written to a folder by default (the link is also logged), or
//! sent over SMTP when `SMTP_URL` is set.

use std::path::PathBuf;

use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::AuthError;

#[derive(Clone)]
enum Transport {
    Folder(AsyncFileTransport<Tokio1Executor>),
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
}

#[derive(Clone)]
pub struct Mailer {
    transport: Transport,
    from: Mailbox,
}

impl Mailer {
    /// Writes each message as an `.eml` file into `dir` (created if missing).
    pub fn folder(dir: PathBuf, from: &str) -> Result<Mailer, AuthError> {
        std::fs::create_dir_all(&dir)
            .map_err(|e| AuthError::Unexpected(format!("creating mail folder {}: {e}", dir.display())))?;
        Ok(Mailer { transport: Transport::Folder(AsyncFileTransport::new(dir)), from: parse_from(from)? })
    }

    /// Sends over SMTP; `url` as lettre reads it, e.g. `smtps://user:pass@smtp.example.com`
    /// or `smtp://localhost:25`.
    pub fn smtp(url: &str, from: &str) -> Result<Mailer, AuthError> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| AuthError::Unexpected(format!("SMTP_URL is not usable: {e}")))?
            .build();
        Ok(Mailer { transport: Transport::Smtp(transport), from: parse_from(from)? })
    }

    pub async fn send_verification(&self, to: &str, name: &str, link: &str) -> Result<(), AuthError> {
        let to: Mailbox = to.parse().map_err(|e| AuthError::Unexpected(format!("recipient: {e}")))?;
        let text = format!(
            "Hi {name},\n\nWelcome to SelfSound! Confirm your e-mail address to finish signing up:\n\n{link}\n\n\
             The link works for 24 hours. If you did not sign up, ignore this message.\n"
        );
        let html = format!(
            "<p>Hi {},</p><p>Welcome to SelfSound! Confirm your e-mail address to finish signing up:</p>\
             <p><a href=\"{link}\">Verify my e-mail</a></p>\
             <p>The link works for 24 hours. If you did not sign up, ignore this message.</p>",
            html_escape(name)
        );
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject("Verify your SelfSound e-mail")
            .multipart(MultiPart::alternative_plain_html(text, html))
            .map_err(|e| AuthError::Unexpected(format!("building e-mail: {e}")))?;
        match &self.transport {
            Transport::Folder(t) => {
                let id = t.send(message).await.map_err(|e| AuthError::Unexpected(format!("writing e-mail: {e}")))?;
                tracing::info!(mail_id = %id, %link, "verification e-mail written to the mail folder");
            }
            Transport::Smtp(t) => {
                t.send(message).await.map_err(|e| AuthError::Unexpected(format!("sending e-mail: {e}")))?;
                tracing::info!("verification e-mail sent over SMTP");
            }
        }
        Ok(())
    }
}

fn parse_from(from: &str) -> Result<Mailbox, AuthError> {
    from.parse().map_err(|e| AuthError::Unexpected(format!("sender address {from:?}: {e}")))
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_verification_mail_lands_in_the_folder_with_its_link() {
        let dir = tempfile::tempdir().map(|d| d.keep()).unwrap_or_default();
        let mailer = Mailer::folder(dir.clone(), "SelfSound <no-reply@example.com>");
        let Ok(mailer) = mailer else { panic!("mailer") };
        let link = "http://127.0.0.1:8080/authorization/verify?token=abc";
        assert!(mailer.send_verification("ada@example.com", "<Ada>", link).await.is_ok());
        let files: Vec<_> = std::fs::read_dir(&dir).into_iter().flatten().flatten().collect();
        assert_eq!(files.len(), 1);
        let text = std::fs::read_to_string(files[0].path()).unwrap_or_default();
        assert!(text.contains("To: ada@example.com"));
        assert!(text.contains("&lt;Ada&gt;"), "names are escaped in HTML");
        assert!(text.replace("=\r\n", "").replace("=3D", "=").contains(link));
        let _ = std::fs::remove_dir_all(dir);
    }
}
