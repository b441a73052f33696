//! Which addresses a push request may go to: an endpoint is a URL a browser (or anyone signed
//! in) gave, so it must not reach into the server's own network (SSRF). Names are resolved by
//! [`PublicResolver`], which answers only public addresses; addresses written in the URL are
//! checked by [`endpoint_allowed`].

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::{Host, Url};

/// Whether `ip` is an address of the public internet: not loopback, private, link-local,
/// shared (CGNAT), documentation, multicast, broadcast or unspecified.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_public_v4(v4),
            None => is_public_v6(v6),
        },
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    !(ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_documentation()
        || ip.is_multicast()
        || a == 0
        || (a == 100 && (64..128).contains(&b))
        || (a == 192 && b == 0)
        || (a == 198 && (18..20).contains(&b))
        || a >= 240)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    !(ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        || (first == 0x2001 && ip.segments()[1] == 0x0db8)
        || ip.to_ipv4().is_some_and(|v4| !is_public_v4(v4)))
}

/// Whether a push request may go to `url`: `https`, no user name or password, and a host that is
/// a name or a public address. With `allow_local` (the server itself runs on loopback) plain
/// `http` and loopback are allowed too.
pub fn endpoint_allowed(url: &Url, allow_local: bool) -> bool {
    let scheme = url.scheme() == "https" || (allow_local && url.scheme() == "http");
    let plain = url.username().is_empty() && url.password().is_none();
    let host = match url.host() {
        Some(Host::Domain(name)) => allow_local || !is_local_name(name),
        Some(Host::Ipv4(ip)) => is_public(IpAddr::V4(ip)) || (allow_local && ip.is_loopback()),
        Some(Host::Ipv6(ip)) => is_public(IpAddr::V6(ip)) || (allow_local && ip.is_loopback()),
        None => false,
    };
    scheme && plain && host
}

/// Names that are never on the public internet.
fn is_local_name(name: &str) -> bool {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost") || name.ends_with(".local") || name.ends_with(".internal")
}

/// Resolves names as the system does, answering only public addresses (all of them loopback too
/// with `allow_local`): a name that points into our network is refused, whatever it is called.
#[derive(Debug, Clone, Copy)]
pub struct PublicResolver {
    pub allow_local: bool,
}

impl Resolve for PublicResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_local = self.allow_local;
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let found: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await?
                .filter(|a| is_public(a.ip()) || (allow_local && a.ip().is_loopback()))
                .collect();
            if found.is_empty() {
                return Err(format!("{host} has no public address").into());
            }
            Ok(Box::new(found.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowed(url: &str, local: bool) -> bool {
        endpoint_allowed(&Url::parse(url).unwrap_or_else(|e| panic!("{url}: {e}")), local)
    }

    #[test]
    fn only_https_to_public_hosts() {
        assert!(allowed("https://fcm.googleapis.com/fcm/send/abc", false));
        assert!(allowed("https://[2a00:1450:4001::200e]/x", false));
        assert!(allowed("https://8.8.8.8/x", false));
        for refused in [
            "http://push.example.com/x",
            "https://user:pw@push.example.com/x",
            "https://127.0.0.1/x",
            "https://10.1.2.3/x",
            "https://172.16.0.1/x",
            "https://192.168.1.1/x",
            "https://169.254.169.254/latest/meta-data",
            "https://100.64.0.1/x",
            "https://0.0.0.0/x",
            "https://[::1]/x",
            "https://[fd00::1]/x",
            "https://[fe80::1]/x",
            "https://[::ffff:127.0.0.1]/x",
            "https://localhost/x",
            "https://db.internal/x",
            "file:///etc/passwd",
        ] {
            assert!(!allowed(refused, false), "{refused}");
        }
    }

    #[test]
    fn loopback_and_http_only_for_a_server_on_loopback() {
        assert!(allowed("http://localhost:8090/notify/abc", true));
        assert!(allowed("http://127.0.0.1:8090/notify/abc", true));
        assert!(!allowed("https://10.1.2.3/x", true), "still not the private network");
    }
}
