//! Outgoing e-mail through lettre: written to a folder by default (links logged at debug only), or
//! sent over SMTP when `SMTP_URL` is set.

use std::path::PathBuf;

use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use values::escape_html as html_escape;

use crate::AuthError;

#[derive(Clone)]
enum Transport {
    Folder(AsyncFileTransport<Tokio1Executor>, PathBuf),
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
}

#[derive(Clone)]
pub struct Mailer {
    transport: Transport,
    from: Mailbox,
}

impl Mailer {
    /// Writes each message as an `.eml` file into `dir` (created if missing, for this user only:
    /// the messages carry sign-in links).
    pub fn folder(dir: PathBuf, from: &str) -> Result<Mailer, AuthError> {
        let problem = |e: std::io::Error| AuthError::Unexpected(format!("creating mail folder {}: {e}", dir.display()));
        std::fs::create_dir_all(&dir).map_err(problem)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).map_err(problem)?;
        }
        Ok(Mailer { transport: Transport::Folder(AsyncFileTransport::new(dir.clone()), dir), from: parse_from(from)? })
    }

    /// Sends over SMTP; `url` as lettre reads it, e.g. `smtps://user:pass@smtp.example.com`
    /// or `smtp://localhost:25`.
    pub fn smtp(url: &str, from: &str) -> Result<Mailer, AuthError> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| AuthError::Unexpected(format!("SMTP_URL is not usable: {e}")))?
            .build();
        Ok(Mailer { transport: Transport::Smtp(transport), from: parse_from(from)? })
    }

    /// The link of one sign-up: it makes that sign-up's name and password the account's. The
    /// mail names the name it was made with, and says what to do about a sign-up one did not make.
    pub async fn send_verification(&self, to: &str, name: &str, link: &str) -> Result<(), AuthError> {
        let text = format!(
            "Hi {name},\n\nWelcome to SelfSound! Someone signed up with this e-mail address under the name \
             \"{name}\". If it was you, confirm your address to finish signing up (the link sets the password \
             chosen at that sign-up):\n\n{link}\n\nThe link works for 24 hours.\n\n\
             If you did not sign up, or not under this name, ignore this e-mail: nothing changes until the link \
             is opened.\n"
        );
        let html = format!(
            "<p>Hi {name},</p><p>Welcome to SelfSound! Someone signed up with this e-mail address under the \
             name “{name}”. If it was you, confirm your address to finish signing up (the link sets the password \
             chosen at that sign-up):</p>\
             <p><a href=\"{link}\">Verify my e-mail</a></p>\
             <p>The link works for 24 hours.</p>\
             <p>If you did not sign up, or not under this name, ignore this e-mail: nothing changes until the \
             link is opened.</p>",
            name = html_escape(name)
        );
        self.send(to, "Verify your SelfSound e-mail", text, html, link).await
    }

    pub async fn send_password_reset(&self, to: &str, name: &str, link: &str) -> Result<(), AuthError> {
        let text = format!(
            "Hi {name},\n\nSomeone asked to reset the password of your SelfSound account. To choose a new \
             password, open this link:\n\n{link}\n\nThe link works once, for one hour. If it was not you, \
             ignore this message: your password stays as it is.\n"
        );
        let html = format!(
            "<p>Hi {},</p><p>Someone asked to reset the password of your SelfSound account.</p>\
             <p><a href=\"{link}\">Choose a new password</a></p>\
             <p>The link works once, for one hour. If it was not you, ignore this message: your password \
             stays as it is.</p>",
            html_escape(name)
        );
        self.send(to, "Reset your SelfSound password", text, html, link).await
    }

    /// Wrong two-factor codes reached the account's limit after a right password: someone has it.
    pub async fn send_second_factor_warning(&self, to: &str, name: &str, link: &str) -> Result<(), AuthError> {
        let text = format!(
            "Hi {name},\n\nSomeone signed in to your SelfSound account with your password, then entered \
             wrong two-factor codes several times. Your two-factor sign-in kept them out, but they know your \
             password: change it now (Settings, then Password), or choose a new one with \"Forgot password?\" \
             on the sign-in page:\n\n{link}\n\nIf it was you, all is well: wait a few minutes and use the \
             code your authenticator app shows, or a recovery code.\n"
        );
        let html = format!(
            "<p>Hi {},</p><p>Someone signed in to your SelfSound account with your password, then entered \
             wrong two-factor codes several times. Your two-factor sign-in kept them out, but they know your \
             password: change it now (Settings, then Password), or choose a new one with “Forgot password?” \
             on the sign-in page.</p><p><a href=\"{link}\">Go to SelfSound</a></p>\
             <p>If it was you, all is well: wait a few minutes and use the code your authenticator app shows, \
             or a recovery code.</p>",
            html_escape(name)
        );
        self.send(to, "Someone has your SelfSound password", text, html, link).await
    }

    /// Two-factor sign-in was turned on or off: said to the owner, so that someone else doing it
    /// (with their password and a session) does not go unnoticed.
    pub async fn send_two_factor_changed(&self, to: &str, name: &str, on: bool, link: &str) -> Result<(), AuthError> {
        let (subject, what) = if on {
            ("Two-factor sign-in is on", "turned on: signing in now asks for a code from an authenticator app")
        } else {
            ("Two-factor sign-in is off", "turned off: signing in now asks for your password only")
        };
        let text = format!(
            "Hi {name},\n\nTwo-factor sign-in for your SelfSound account was {what}.\n\nIf it was not you, \
             someone has your password and a signed-in device: choose a new password with \"Forgot password?\" \
             on the sign-in page, then sign out everywhere (Settings, then Sessions), and write to the \
             server's administrators:\n\n{link}\n"
        );
        let html = format!(
            "<p>Hi {},</p><p>Two-factor sign-in for your SelfSound account was {what}.</p>\
             <p>If it was not you, someone has your password and a signed-in device: choose a new password \
             with “Forgot password?” on the sign-in page, then sign out everywhere (Settings, then Sessions), \
             and write to the server's administrators.</p><p><a href=\"{link}\">Go to SelfSound</a></p>",
            html_escape(name)
        );
        self.send(to, subject, text, html, link).await
    }

    /// A passkey was added to the account: said to the owner, so that someone else adding one
    /// (with their password and a session) does not go unnoticed.
    pub async fn send_passkey_added(&self, to: &str, name: &str, passkey: &str, link: &str) -> Result<(), AuthError> {
        let text = format!(
            "Hi {name},\n\nA passkey named \"{passkey}\" was added to your SelfSound account: it can now sign \
             in without your password.\n\nIf it was not you, someone has your password and a signed-in \
             device: remove the passkey (Settings, then Passkeys), choose a new password with \"Forgot \
             password?\" on the sign-in page and sign out everywhere (Settings, then Sessions):\n\n{link}\n"
        );
        let html = format!(
            "<p>Hi {},</p><p>A passkey named “{}” was added to your SelfSound account: it can now sign in \
             without your password.</p><p>If it was not you, someone has your password and a signed-in device: \
             remove the passkey (Settings, then Passkeys), choose a new password with “Forgot password?” on the \
             sign-in page and sign out everywhere (Settings, then Sessions).</p><p><a href=\"{link}\">Go to \
             SelfSound</a></p>",
            html_escape(name),
            html_escape(passkey)
        );
        self.send(to, "A passkey was added to your account", text, html, link).await
    }

    /// The archive of a person's data they asked for is ready ("Download my data"): its link,
    /// which works until `until` (a date as the person reads it).
    pub async fn send_data_export(&self, to: &str, name: &str, link: &str, until: &str) -> Result<(), AuthError> {
        let text = format!(
            "Hi {name},\n\nThe copy of your SelfSound data you asked for is ready: your profile, your posts \
             with their original files, your comments, likes, reposts, playlists, listens, blocks and \
             notifications, in one zip file. Download it here:\n\n{link}\n\nThe link works until {until}. \
             Anyone who has it can download the archive, so do not pass it on. Open index.html in the zip \
             to look through it.\n\nIf you did not ask for it, someone is signed in to your account: \
             change your password (Settings, then Password) and sign out everywhere (Settings, then \
             Sessions).\n"
        );
        let html = format!(
            "<p>Hi {},</p><p>The copy of your SelfSound data you asked for is ready: your profile, your \
             posts with their original files, your comments, likes, reposts, playlists, listens, blocks and \
             notifications, in one zip file.</p><p><a href=\"{link}\">Download my data</a></p>\
             <p>The link works until {until}. Anyone who has it can download the archive, so do not pass it \
             on. Open index.html in the zip to look through it.</p>\
             <p>If you did not ask for it, someone is signed in to your account: change your password \
             (Settings, then Password) and sign out everywhere (Settings, then Sessions).</p>",
            html_escape(name)
        );
        self.send(to, "Your SelfSound data is ready to download", text, html, link).await
    }

    /// Sends one message. Links carry secrets: they are logged only at debug level (for a
    /// developer without a mail server), and e-mail files are readable by this user alone.
    async fn send(&self, to: &str, subject: &str, text: String, html: String, link: &str) -> Result<(), AuthError> {
        let to: Mailbox = to.parse().map_err(|e| AuthError::Unexpected(format!("recipient: {e}")))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(subject)
            .multipart(MultiPart::alternative_plain_html(text, html))
            .map_err(|e| AuthError::Unexpected(format!("building e-mail: {e}")))?;
        match &self.transport {
            Transport::Folder(t, dir) => {
                let id = t.send(message).await.map_err(|e| AuthError::Unexpected(format!("writing e-mail: {e}")))?;
                let path = dir.join(format!("{id}.eml"));
                restrict_to_owner(&path)
                    .map_err(|e| AuthError::Unexpected(format!("protecting {}: {e}", path.display())))?;
                tracing::info!(mail_id = %id, subject, "e-mail written to the mail folder");
                tracing::debug!(%link, "the e-mail's link");
            }
            Transport::Smtp(t) => {
                t.send(message).await.map_err(|e| AuthError::Unexpected(format!("sending e-mail: {e}")))?;
                tracing::info!(subject, "e-mail sent over SMTP");
            }
        }
        Ok(())
    }
}

/// Makes a file readable and writable by this user only.
pub fn restrict_to_owner(path: &std::path::Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

fn parse_from(from: &str) -> Result<Mailbox, AuthError> {
    from.parse().map_err(|e| AuthError::Unexpected(format!("sender address {from:?}: {e}")))
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
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = files[0].metadata().map(|m| m.permissions().mode() & 0o777).unwrap_or_default();
            assert_eq!(mode, 0o600, "only this user reads the links in e-mails");
        }
        let text = std::fs::read_to_string(files[0].path()).unwrap_or_default();
        assert!(text.contains("To: ada@example.com"));
        assert!(text.contains("&lt;Ada&gt;"), "names are escaped in HTML");
        let plain = text.replace("=\r\n", "").replace("=3D", "=");
        assert!(
            plain.contains("If you did not sign up, or not under this name, ignore this e-mail: nothing changes until"),
            "it says what to do about a sign-up one did not make"
        );
        assert!(text.replace("=\r\n", "").replace("=3D", "=").contains(link));
        let _ = std::fs::remove_dir_all(dir);
    }
}
