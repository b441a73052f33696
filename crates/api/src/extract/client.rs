//! Who is asking, apart from who they are signed in as: the client address throttling keys on,
//! and the browser's user agent (the sessions list names devices by it).

use std::net::{IpAddr, Ipv6Addr};

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, web};

use crate::config::Cidr;
use crate::error::ApiError;
use crate::state::AppState;

/// Who is asking: the client address throttling keys on (the peer, or, behind a trusted proxy,
/// the rightmost `X-Forwarded-For` hop that is not one of our proxies), and the user agent.
pub struct Client(pub auth::ClientInfo);

impl FromRequest for Client {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let proxies =
            req.app_data::<web::Data<AppState>>().map(|s| s.config.trusted_proxies.clone()).unwrap_or_default();
        let addr = client_addr(req, &proxies);
        let user_agent = req.headers().get(header::USER_AGENT).and_then(|v| v.to_str().ok()).map(str::to_owned);
        std::future::ready(Ok(Client(auth::ClientInfo { addr, user_agent })))
    }
}

/// The client's address as throttles key on it: an IPv4 address, or the /64 network of an
/// IPv6 one. One IPv6 subscriber is handed a whole /64 (RFC 6177) and may use any address in
/// it, so counting each address apart let one client take a limit many times over.
pub(super) fn client_addr(req: &HttpRequest, trusted: &[Cidr]) -> String {
    client_ip(req, trusted).map_or_else(|| "unknown".to_owned(), throttle_key)
}

/// The key of `ip`'s counters: the address itself for IPv4, its /64 for IPv6.
fn throttle_key(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let network = Ipv6Addr::from(u128::from(v6) & !((1_u128 << 64) - 1));
            format!("{network}/64")
        }
    }
}

/// The client's address. Each proxy appends the address it got the request from to
/// `X-Forwarded-For`, so walking it from the right past our own proxies finds the first hop
/// no proxy of ours vouches for; anything left of it was written by the client. An IPv4
/// address written as IPv6 (`::ffff:a.b.c.d`, as a dual-stack socket reports it) is the IPv4
/// address.
pub fn client_ip(req: &HttpRequest, trusted: &[Cidr]) -> Option<IpAddr> {
    let peer = req.peer_addr()?.ip().to_canonical();
    let is_trusted = |ip: IpAddr| trusted.iter().any(|c| c.contains(ip));
    if !is_trusted(peer) {
        return Some(peer);
    }
    let hops: Vec<&str> = req
        .headers()
        .get_all("x-forwarded-for")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        // A hop that is not an address is not something a proxy of ours wrote.
        let Some(ip) = hop_address(hop) else { break };
        client = ip;
        if !is_trusted(ip) {
            break;
        }
    }
    Some(client)
}

/// The address of one `X-Forwarded-For` hop, as proxies write it: `a.b.c.d` or an IPv6
/// address, either perhaps with the port it came from (`a.b.c.d:port`, `[v6]:port`, as some
/// proxies write it: without this every client behind them shared the proxy's counter).
fn hop_address(hop: &str) -> Option<IpAddr> {
    let ip = if let Ok(ip) = hop.parse::<IpAddr>() {
        ip
    } else if let Some(bracketed) = hop.strip_prefix('[') {
        let (v6, rest) = bracketed.split_once(']')?;
        if !(rest.is_empty() || rest.strip_prefix(':').is_some_and(is_port)) {
            return None;
        }
        IpAddr::V6(v6.parse().ok()?)
    } else {
        let (v4, port) = hop.rsplit_once(':')?;
        if !is_port(port) {
            return None;
        }
        IpAddr::V4(v4.parse().ok()?)
    };
    Some(ip.to_canonical())
}

fn is_port(s: &str) -> bool {
    s.parse::<u16>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hops_are_read_with_or_without_their_port() {
        let ip = |s: &str| s.parse::<IpAddr>().ok();
        for (hop, want) in [
            ("203.0.113.7", ip("203.0.113.7")),
            ("203.0.113.7:51234", ip("203.0.113.7")),
            ("2001:db8::1", ip("2001:db8::1")),
            ("[2001:db8::1]", ip("2001:db8::1")),
            ("[2001:db8::1]:443", ip("2001:db8::1")),
            ("::ffff:203.0.113.7", ip("203.0.113.7")),
            ("[::ffff:203.0.113.7]:80", ip("203.0.113.7")),
            ("203.0.113.7:99999", None),
            ("203.0.113.7:", None),
            ("[2001:db8::1]x", None),
            ("unknown", None),
            ("_hidden", None),
        ] {
            assert_eq!(hop_address(hop), want, "{hop}");
        }
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64() {
        let key = |s: &str| throttle_key(s.parse().unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED)));
        assert_eq!(key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("198.51.100.4"), "198.51.100.4");
    }
}
