//! Servers an admin blocks: their people's likes, reposts, replies and follows go with their
//! accounts here, and nothing more is taken from them (docs/federation.md, "Moderation").

use chrono::NaiveDateTime;
use db::DbConnection;
use db::schema::{blocked_domains, federation_actors};
use diesel::prelude::*;
use values::UserId;

use crate::{Federation, FederationError};

/// A blocked server, as the admin panel lists it.
#[derive(Debug, Clone, Queryable)]
pub struct BlockedDomain {
    pub domain: String,
    pub admin_login: String,
    pub blocked_at: NaiveDateTime,
}

/// The most blocked servers listed at once.
pub const MOST_LISTED: i64 = 1000;

/// A server's name as a block names it: its host (and port), lower case, without a scheme, a
/// path or a final dot. None for what is not a host name.
pub fn domain_name(raw: &str) -> Option<String> {
    let raw = raw.trim().to_ascii_lowercase();
    let raw = raw.strip_prefix("https://").or_else(|| raw.strip_prefix("http://")).unwrap_or(&raw);
    let host = raw.split(['/', '?', '#']).next()?.trim_end_matches('.');
    let (name, port) = match host.rsplit_once(':') {
        Some((name, port)) if !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()) => (name, Some(port)),
        _ => (host, None),
    };
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            && !l.starts_with('-')
    };
    (name.len() <= 253 && name.split('.').all(label_ok)).then(|| match port {
        Some(port) => format!("{name}:{port}"),
        None => name.to_owned(),
    })
}

/// Whether `host` is `domain` or under it.
fn under(host: &str, domain: &str) -> bool {
    host == domain || host.ends_with(&format!(".{domain}"))
}

/// Whether a block stands on `host` (a remote actor's server).
pub(crate) fn blocked(conn: &mut DbConnection, host: &str) -> QueryResult<bool> {
    let host = host.to_ascii_lowercase();
    // The host and each domain above it: `a.b.example` asks for itself, `b.example`, `example`.
    let mut candidates = vec![host.clone()];
    let mut rest = host.as_str();
    while let Some((_, above)) = rest.split_once('.') {
        candidates.push(above.to_owned());
        rest = above;
    }
    diesel::select(diesel::dsl::exists(blocked_domains::table.filter(blocked_domains::domain.eq_any(candidates))))
        .get_result(conn)
}

impl Federation {
    /// An admin blocks a server: its people's accounts here go (their likes, reposts, replies
    /// and follows with them), in one transaction. Answers how many accounts went.
    pub async fn block_domain(&self, admin: &moderation::Admin, raw: &str) -> Result<usize, FederationError> {
        let domain = domain_name(raw).ok_or_else(|| {
            FederationError::Refused(format!("{raw:?} is not a server's name (like social.example)."))
        })?;
        if under(&self.settings.domain(), &domain) {
            return Err(FederationError::Refused("This server cannot block itself.".into()));
        }
        let admin = admin.login().to_owned();
        self.db
            .write(move |c| {
                let added = diesel::insert_into(blocked_domains::table)
                    .values((
                        blocked_domains::domain.eq(&domain),
                        blocked_domains::admin_login.eq(&admin),
                        blocked_domains::created_at.eq(db::time::now()),
                    ))
                    .execute(c);
                match added {
                    Err(diesel::result::Error::DatabaseError(
                        diesel::result::DatabaseErrorKind::UniqueViolation,
                        _,
                    )) => {
                        return Err(FederationError::AlreadyBlocked);
                    }
                    other => other?,
                };
                // The server and every host under it; a valid name holds no LIKE wildcard.
                let people: Vec<UserId> = federation_actors::table
                    .filter(
                        federation_actors::domain.eq(&domain).or(federation_actors::domain.like(format!("%.{domain}"))),
                    )
                    .select(federation_actors::user_id)
                    .load(c)?;
                for user in &people {
                    // Their avatars are addresses elsewhere: no stored objects come back.
                    app::delete_account_on(c, *user)?;
                }
                Ok(people.len())
            })
            .await
    }

    /// An admin lifts a block: the server's activities are taken again (what went stays gone).
    pub async fn unblock_domain(&self, _admin: &moderation::Admin, raw: &str) -> Result<(), FederationError> {
        let domain = domain_name(raw).ok_or(FederationError::NotFound)?;
        let removed = self
            .db
            .write(move |c| {
                Ok::<_, FederationError>(
                    diesel::delete(blocked_domains::table.filter(blocked_domains::domain.eq(&domain))).execute(c)?,
                )
            })
            .await?;
        if removed == 0 { Err(FederationError::NotFound) } else { Ok(()) }
    }

    /// The blocked servers, by name.
    pub async fn blocked_domains(&self, _admin: &moderation::Admin) -> Result<Vec<BlockedDomain>, FederationError> {
        self.db
            .run(|c| {
                Ok::<_, FederationError>(
                    blocked_domains::table
                        .select((blocked_domains::domain, blocked_domains::admin_login, blocked_domains::created_at))
                        .order(blocked_domains::domain)
                        .limit(MOST_LISTED)
                        .load(c)?,
                )
            })
            .await
    }

    /// Whether a block stands on `host`.
    pub async fn domain_blocked(&self, host: &str) -> Result<bool, FederationError> {
        let host = host.to_owned();
        self.db.run(move |c| Ok::<_, FederationError>(blocked(c, &host)?)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn servers_are_named_as_hosts() {
        assert_eq!(domain_name(" Evil.Example. ").as_deref(), Some("evil.example"));
        assert_eq!(domain_name("https://evil.example/@bob").as_deref(), Some("evil.example"));
        assert_eq!(domain_name("localhost:3000").as_deref(), Some("localhost:3000"));
        for bad in ["", "evil example", "-x.example", "a..b", "evil.example:port", "<script>"] {
            assert_eq!(domain_name(bad), None, "{bad:?}");
        }
        assert!(under("a.evil.example", "evil.example"));
        assert!(under("evil.example", "evil.example"));
        assert!(!under("notevil.example", "evil.example"));
    }
}
