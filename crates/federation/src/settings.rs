//! Whether this server federates, and the addresses it federates under.

use url::Url;
use values::UserId;

/// Where our actors and objects live: our public origin, and the web app's pages for people.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The public origin (`SELFSOUND_PUBLIC_URL`), without a trailing slash.
    pub origin: Url,
    /// The web app (`SELFSOUND_FRONTEND_URL`): profile and post pages.
    pub app: String,
    /// Plain HTTP and loopback peers allowed: only for a public URL on a loopback address (tests).
    pub debug: bool,
}

/// Why federation cannot start with these settings.
pub const NEEDS_HTTPS: &str = "SELFSOUND_FEDERATION=on needs SELFSOUND_PUBLIC_URL to be the public https:// \
     origin other servers reach (http:// only on a loopback address, for tests)";

impl Settings {
    /// The settings for `SELFSOUND_FEDERATION` (`on` or `off`) and our public and app URLs:
    /// none when off; an error for a value that is neither, or an origin other servers could
    /// not trust (`http://` anywhere but loopback, or with a path).
    pub fn new(switch: &str, public_url: &str, app: &str) -> Result<Option<Settings>, String> {
        match switch.trim().to_ascii_lowercase().as_str() {
            "" | "off" | "false" | "0" => return Ok(None),
            "on" | "true" | "1" => {}
            other => return Err(format!("SELFSOUND_FEDERATION must be on or off, not {other:?}")),
        }
        let origin = Url::parse(public_url).map_err(|_| format!("{NEEDS_HTTPS}; it is {public_url:?}"))?;
        if origin.path() != "/" || origin.query().is_some() || origin.host_str().is_none() {
            return Err(format!("{NEEDS_HTTPS}, without a path; it is {public_url:?}"));
        }
        let debug = match origin.scheme() {
            "https" => false,
            "http" if is_loopback(&origin) => true,
            _ => return Err(format!("{NEEDS_HTTPS}; it is {public_url:?}")),
        };
        Ok(Some(Settings { origin, app: app.trim_end_matches('/').to_owned(), debug }))
    }

    /// Our host as other servers name it (`host` or `host:port`), as in handles.
    pub fn domain(&self) -> String {
        host_of(&self.origin).unwrap_or_default()
    }

    fn at(&self, path: &str) -> Url {
        // The origin parsed and the paths are ours: joining cannot fail.
        self.origin.join(path).unwrap_or_else(|_| self.origin.clone())
    }

    /// A local person's actor.
    pub fn actor(&self, user: UserId) -> Url {
        self.at(&format!("/ap/users/{user}"))
    }

    /// The person a local actor URL names, if it is one.
    pub fn user_of(&self, actor: &Url) -> Option<UserId> {
        if actor.origin() != self.origin.origin() {
            return None;
        }
        let id = actor.path().strip_prefix("/ap/users/")?;
        id.parse::<UserId>().ok()
    }

    /// The post of ours an object URL names: its Note (`/ap/posts/{id}`) or its page.
    pub fn post_of(&self, object: &Url) -> Option<values::PostId> {
        let page = Url::parse(&self.app).ok();
        let path = if object.origin() == self.origin.origin() && object.path().starts_with("/ap/posts/") {
            object.path().strip_prefix("/ap/posts/")
        } else {
            let page = page?;
            if object.origin() != page.origin() {
                return None;
            }
            object.path().strip_prefix(page.path().trim_end_matches('/')).and_then(|p| p.strip_prefix("/post/"))
        }?;
        path.trim_end_matches("/create").parse().ok()
    }

    /// A comment's object id (`/ap/comments/{id}`).
    pub fn comment_id(&self, comment: values::CommentId) -> Url {
        self.at(&format!("/ap/comments/{comment}"))
    }

    /// The comment of ours an object URL names, if it names one.
    pub fn comment_of(&self, object: &Url) -> Option<values::CommentId> {
        if object.origin() != self.origin.origin() {
            return None;
        }
        object.path().strip_prefix("/ap/comments/")?.parse().ok()
    }

    pub fn inbox(&self, user: UserId) -> Url {
        self.at(&format!("/ap/users/{user}/inbox"))
    }

    pub fn collection(&self, user: UserId, name: &str) -> Url {
        self.at(&format!("/ap/users/{user}/{name}"))
    }

    /// The inbox every local actor shares.
    pub fn shared_inbox(&self) -> Url {
        self.at("/ap/inbox")
    }

    /// A new activity of ours: a URL nobody else has.
    pub fn new_activity(&self, kind: &str) -> Url {
        self.at(&format!("/ap/activities/{kind}/{}", values::new_raw_id()))
    }

    /// A person's page in the web app.
    pub fn profile_page(&self, user: UserId) -> String {
        format!("{}/user/{user}", self.app)
    }
}

/// A URL's host as handles name it: with its port when it has one (tests on loopback).
pub fn host_of(url: &Url) -> Option<String> {
    let host = url.host_str()?.to_ascii_lowercase();
    Some(match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host,
    })
}

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn off_unless_asked_and_https_unless_loopback() {
        assert!(Settings::new("", "http://0.0.0.0:8080", "x").unwrap().is_none());
        assert!(Settings::new("off", "https://music.example", "x").unwrap().is_none());
        let on = Settings::new("on", "https://music.example", "https://music.example/app").unwrap().unwrap();
        assert!(!on.debug);
        assert_eq!(on.domain(), "music.example");
        let user = UserId::try_from(42).unwrap();
        assert_eq!(on.actor(user).as_str(), "https://music.example/ap/users/42");
        assert_eq!(on.user_of(&on.actor(user)), Some(user));
        assert_eq!(on.user_of(&Url::parse("https://elsewhere.example/ap/users/42").unwrap()), None);
        assert_eq!(on.profile_page(user), "https://music.example/app/user/42");
        let test = Settings::new("on", "http://127.0.0.1:8080", "http://127.0.0.1:8080/app").unwrap().unwrap();
        assert!(test.debug);
        assert_eq!(test.domain(), "127.0.0.1:8080");
        for refused in ["http://music.example", "http://10.0.0.2", "https://music.example/sub", "ftp://x", "nonsense"] {
            let e = Settings::new("on", refused, "x").unwrap_err();
            assert!(e.contains("SELFSOUND_PUBLIC_URL"), "{refused}: {e}");
        }
        assert!(Settings::new("maybe", "https://music.example", "x").is_err());
        assert_ne!(on.new_activity("accept"), on.new_activity("accept"));
        let post = |u: &str| on.post_of(&Url::parse(u).unwrap()).map(|p| p.get());
        assert_eq!(post("https://music.example/ap/posts/77"), Some(77));
        assert_eq!(post("https://music.example/app/post/77"), Some(77));
        assert_eq!(post("https://music.example/ap/posts/x"), None);
        assert_eq!(post("https://elsewhere.example/ap/posts/77"), None);
        assert_eq!(post("https://music.example/ap/users/77"), None);
    }
}
