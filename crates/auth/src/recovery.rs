//! Passwords after sign-up: the e-mailed reset link for a forgotten one, and changing one while
//! signed in. Either way the sessions the old password opened end.

use std::time::Duration;

use values::{Email, SessionId, UserId};

use crate::oidc::random_token;
use crate::password::{self, NewPassword};
use crate::service::{AuthService, address_proved, later, sha256_hex};
use crate::{AuthError, repo};

/// How long an e-mailed password-reset link works.
const RESET_LIFETIME: Duration = Duration::from_secs(3600);

impl AuthService {
    /// Mails a single-use, one-hour link to set a new password. The answer is the same whether
    /// or not the address has an account (and so is its throttling: per client, and one request
    /// per address per cooldown), and the e-mail goes out after the answer, so neither the
    /// answer nor its timing tells who has an account.
    pub async fn request_password_reset(&self, email: &str, client: &str) -> Result<(), AuthError> {
        let email = Email::parse(email)?;
        let per_client = self.0.config.throttle.reset_per_client;
        let Some(account) = self.mail_request("reset", &email, client, per_client).await? else { return Ok(()) };
        let service = self.clone();
        tokio::spawn(async move {
            if let Err(e) = service.send_reset(account.id, &email, &account.name).await {
                tracing::error!(error = %values::error_chain(&e), "could not send the password-reset e-mail");
            }
        });
        Ok(())
    }

    async fn send_reset(&self, user_id: UserId, email: &Email, name: &str) -> Result<(), AuthError> {
        let raw = random_token();
        let hash = sha256_hex(&raw);
        self.0
            .db
            .write(move |conn| {
                Ok::<_, AuthError>(repo::replace_reset_token(
                    conn,
                    user_id,
                    &hash,
                    db::time::now(),
                    later(RESET_LIFETIME),
                )?)
            })
            .await?;
        let link = self.0.config.reset_page.replace("{token}", &raw);
        self.0.mailer.send_password_reset(email.as_str(), name, &link).await
    }

    /// E-mails the account's owner the link of the archive of their data (`app::export`);
    /// false when the account has no address to send it to.
    pub async fn mail_data_export(&self, user: UserId, link: &str, until: &str) -> Result<bool, AuthError> {
        let account = self.0.db.run(move |conn| Ok::<_, AuthError>(repo::account_by_id(conn, user)?)).await?;
        let Some(crate::Account { email: Some(email), name, .. }) = account else { return Ok(false) };
        self.0.mailer.send_data_export(&email, &name, link, until).await?;
        Ok(true)
    }

    /// Sets a new password through a reset link. The link works once; every session of the
    /// account ends (whoever knew the old password is signed out), and the address counts as
    /// verified, since the link reached its mailbox: an unverified account's pending sign-ups
    /// go, as when one of their links is opened.
    pub async fn reset_password(&self, token: &str, new_password: &str) -> Result<(), AuthError> {
        if token.is_empty() || token.len() > 200 {
            return Err(AuthError::BadResetLink);
        }
        let hash = password::hash_blocking(NewPassword::parse(new_password)?).await?;
        let token_hash = sha256_hex(token);
        let on_verified = self.0.config.on_verified.clone();
        self.0
            .db
            .write(move |conn| {
                let user = repo::take_reset_token(conn, &token_hash)?.ok_or(AuthError::BadResetLink)?;
                let was_verified = repo::account_by_id(conn, user)?.is_some_and(|a| a.email_verified);
                repo::set_password(conn, user, &hash, true)?;
                repo::delete_sessions_except(conn, user, None)?;
                if !was_verified {
                    address_proved(conn, user, &on_verified)?;
                }
                Ok::<_, AuthError>(())
            })
            .await
    }

    /// Changes the password of a signed-in person who knows the current one. Wrong guesses
    /// count as failed sign-ins (same throttles). Every other session ends; this one stays.
    pub async fn change_password(
        &self,
        user_id: UserId,
        session_id: SessionId,
        current: &str,
        new_password: &str,
        client: &str,
    ) -> Result<(), AuthError> {
        let new_password = NewPassword::parse(new_password)?;
        self.reauthenticate(user_id, current, client).await?;
        let hash = password::hash_blocking(new_password).await?;
        self.0
            .db
            .write(move |conn| {
                repo::set_password(conn, user_id, &hash, false)?;
                repo::delete_reset_tokens(conn, user_id)?;
                repo::delete_sessions_except(conn, user_id, Some(session_id))?;
                Ok::<_, AuthError>(())
            })
            .await
    }
}
