//! A person's sessions as they see them in Settings: which devices are signed in, ending one,
//! and signing out everywhere.

use chrono::NaiveDateTime;
use values::{SessionId, UserId};

use crate::service::AuthService;
use crate::{AuthError, repo};

/// One live session, described for a person.
#[derive(Debug, Clone)]
pub struct SessionInfo {
    pub id: SessionId,
    /// "Chrome on Linux", "Safari on iPhone", or "Unknown device".
    pub device: String,
    pub created_at: NaiveDateTime,
    pub last_seen_at: NaiveDateTime,
    /// The session the request itself came with.
    pub current: bool,
}

impl AuthService {
    pub async fn sessions(&self, user_id: UserId, current: SessionId) -> Result<Vec<SessionInfo>, AuthError> {
        let rows = self.0.db.run(move |conn| Ok::<_, AuthError>(repo::live_sessions(conn, user_id)?)).await?;
        Ok(rows
            .into_iter()
            .map(|r| SessionInfo {
                id: r.id,
                device: describe_device(r.user_agent.as_deref()),
                created_at: r.created_at,
                last_seen_at: r.last_seen_at.unwrap_or(r.created_at),
                current: r.id == current,
            })
            .collect())
    }

    /// Ends one of the person's own sessions (another person's is "not found").
    pub async fn end_session(&self, user_id: UserId, session_id: SessionId) -> Result<(), AuthError> {
        let ended = self
            .0
            .db
            .write(move |conn| Ok::<_, AuthError>(repo::delete_own_session(conn, user_id, session_id)?))
            .await?;
        if ended == 0 {
            return Err(AuthError::NoSuchSession);
        }
        Ok(())
    }

    /// Ends every session of the person, the one asking included.
    pub async fn logout_everywhere(&self, user_id: UserId) -> Result<(), AuthError> {
        self.0.db.write(move |conn| Ok::<_, AuthError>(repo::delete_sessions_except(conn, user_id, None)?)).await?;
        Ok(())
    }
}

/// "Browser on system" from a user agent, good enough for a person to recognise their devices.
pub fn describe_device(user_agent: Option<&str>) -> String {
    let Some(ua) = user_agent.filter(|ua| !ua.trim().is_empty()) else { return "Unknown device".into() };
    let has = |needle: &str| ua.contains(needle);
    let browser = if has("Edg/") || has("EdgA/") || has("EdgiOS/") {
        Some("Edge")
    } else if has("OPR/") || has("Opera") {
        Some("Opera")
    } else if has("Firefox/") || has("FxiOS/") {
        Some("Firefox")
    } else if has("Chrome/") || has("CriOS/") || has("Chromium/") {
        Some("Chrome")
    } else if has("Safari/") {
        Some("Safari")
    } else {
        None
    };
    let system = if has("iPhone") {
        Some("iPhone")
    } else if has("iPad") {
        Some("iPad")
    } else if has("Android") {
        Some("Android")
    } else if has("Windows") {
        Some("Windows")
    } else if has("Mac OS X") || has("Macintosh") {
        Some("macOS")
    } else if has("CrOS") {
        Some("ChromeOS")
    } else if has("Linux") {
        Some("Linux")
    } else {
        None
    };
    match (browser, system) {
        (Some(b), Some(s)) => format!("{b} on {s}"),
        (Some(b), None) => b.to_owned(),
        (None, Some(s)) => format!("A browser on {s}"),
        (None, None) => ua.split_whitespace().next().unwrap_or("Unknown device").chars().take(40).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::describe_device;

    #[test]
    fn common_browsers_are_named() {
        let cases = [
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
                "Chrome on Linux",
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
                "Safari on iPhone",
            ),
            ("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0", "Firefox on Windows"),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36 Edg/140.0",
                "Edge on Windows",
            ),
            ("curl/8.5.0", "curl/8.5.0"),
        ];
        for (ua, want) in cases {
            assert_eq!(describe_device(Some(ua)), want, "{ua}");
        }
        assert_eq!(describe_device(None), "Unknown device");
        assert_eq!(describe_device(Some("  ")), "Unknown device");
    }
}
