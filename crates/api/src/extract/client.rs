//! Who is asking, apart from who they are signed in as: the client address throttling keys on,
//! and the browser's user agent (the sessions list names devices by it).

use std::net::IpAddr;

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

/// The client's address as throttles key on it.
pub(super) fn client_addr(req: &HttpRequest, trusted: &[Cidr]) -> String {
    client_ip(req, trusted).map_or_else(|| "unknown".to_owned(), |ip| ip.to_string())
}

/// The client's address. Each proxy appends the address it got the request from to
/// `X-Forwarded-For`, so walking it from the right past our own proxies finds the first hop
/// no proxy of ours vouches for; anything left of it was written by the client.
pub fn client_ip(req: &HttpRequest, trusted: &[Cidr]) -> Option<IpAddr> {
    let peer = req.peer_addr()?.ip();
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
        let Ok(ip) = hop.parse::<IpAddr>() else { break };
        client = ip;
        if !is_trusted(ip) {
            break;
        }
    }
    Some(client)
}
