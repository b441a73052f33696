//! Logging: the subscriber ([`init`]: text for people, or JSON lines with
//! `SELFSOUND_LOG_FORMAT=json`), and the span each request is logged in: its id (also answered
//! in `X-Request-Id`), the peer address (never a header a client could write) and the path with
//! the values of secret-bearing query parameters (`token=`, `code=`, `state=`) replaced, so a
//! verification or sign-in link never lands in a log.
//!
//! The request id is always ours (a random UUID made by `tracing-actix-web`): an `X-Request-Id`
//! a client or a proxy sent is ignored, since anyone can write that header and a forged id
//! would tie someone else's requests together in the log. A balancer that logs our answer's
//! `X-Request-Id` next to its own line joins the two logs.
//!
//! Access lines (target `selfsound::access`) with status and time: every write answered, every
//! read slower than [`SLOW_MS`], and one read in [`READS_SAMPLED`] (`sampled=100` on its line) at
//! INFO; the other reads at DEBUG, so one client reading feeds as fast as it can no longer writes
//! megabytes of log a second (each line was ~240 bytes; the counts by route are in `/metrics`).
//! Refusals (4xx) are a DEBUG line only, so a flood of them cannot fill the disk; faults (5xx)
//! are logged at ERROR with their cause where they are answered (`error.rs`); balancers' probes
//! (`/healthz`, `/readyz`) are DEBUG. Every line carries the request's id.
//! `RUST_LOG=info,selfsound::access=debug` logs every request; `...=warn` none.

use std::io::IsTerminal;
use std::time::Instant;

use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use tracing::Span;
use tracing_actix_web::{DefaultRootSpanBuilder, RequestId, RootSpanBuilder};
use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// The response header carrying the request's id.
pub const REQUEST_ID_HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// Routes a balancer asks every few seconds: not worth a line each.
const PROBES: [&str; 2] = ["/healthz", "/readyz"];

/// One successful read in this many is logged at INFO (the rest at DEBUG).
pub const READS_SAMPLED: u64 = 100;

/// A read that took at least this long is logged at INFO whatever the sample.
pub const SLOW_MS: f64 = 250.0;

/// Successful reads answered by this process, for the sample.
static READS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How an answered request is logged (see the module).
#[derive(Debug, PartialEq, Eq)]
enum AccessLine {
    /// A write, or a slow read: INFO.
    Always,
    /// The read of the sample: INFO, marked `sampled`.
    Sampled,
    /// DEBUG.
    Quiet,
}

fn access_line(method: &actix_web::http::Method, path: &str, ms: f64) -> AccessLine {
    use actix_web::http::Method;
    if PROBES.contains(&path) {
        AccessLine::Quiet
    } else if !matches!(*method, Method::GET | Method::HEAD) || ms >= SLOW_MS {
        AccessLine::Always
    } else if READS.fetch_add(1, std::sync::atomic::Ordering::Relaxed).is_multiple_of(READS_SAMPLED) {
        AccessLine::Sampled
    } else {
        AccessLine::Quiet
    }
}

/// Sets up the process's log: `RUST_LOG` picks what (default `info`), `SELFSOUND_LOG_FORMAT`
/// how: text (coloured on a terminal), or one JSON object a line whose `spans` carry the
/// request's fields (`request_id`, `http.route`, ...). Lines go to standard output.
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    let done = match LogFormat::from_env() {
        LogFormat::Json => builder.json().with_current_span(false).with_span_list(true).try_init(),
        LogFormat::Text => builder.with_ansi(std::io::stdout().is_terminal()).try_init(),
    };
    if let Err(e) = done {
        eprintln!("selfsound: logging could not be set up: {e}");
    }
}

/// When the request arrived, for the access line's time.
#[derive(Clone, Copy)]
struct Arrived(Instant);

/// Answers the request's id in `X-Request-Id` (inside `TracingLogger`, which makes the id).
/// Every answer made inside the app carries it: handlers' and extractors' errors are answers by
/// then. (The request cannot be kept to answer an error passed up as one: routing needs it
/// unshared.)
pub async fn request_id_header(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = req.extensions().get::<RequestId>().and_then(|id| HeaderValue::from_str(&id.to_string()).ok());
    let mut res = next.call(req).await?;
    if let Some(id) = id {
        res.headers_mut().insert(REQUEST_ID_HEADER, id);
    }
    Ok(res)
}

const SECRET_PARAMS: [&str; 5] = ["token", "access_token", "code", "state", "password"];
/// Paths whose last segment is a secret (an archive's download link).
const SECRET_PATHS: [&str; 1] = ["/data-exports/"];

pub struct RedactingRootSpan;

impl RootSpanBuilder for RedactingRootSpan {
    fn on_request_start(request: &ServiceRequest) -> Span {
        let peer = request.peer_addr().map(|a| a.ip().to_string()).unwrap_or_default();
        let route = request.match_pattern().unwrap_or_else(|| "default".into());
        let request_id = request.extensions().get::<RequestId>().map(ToString::to_string).unwrap_or_default();
        request.extensions_mut().insert(Arrived(Instant::now()));
        tracing::info_span!(
            "HTTP request",
            request_id = %request_id,
            http.method = %request.method(),
            http.route = %route,
            http.target = %redact(request.uri().path(), request.uri().query()),
            http.client_ip = %peer,
            http.status_code = tracing::field::Empty,
            otel.status_code = tracing::field::Empty,
            exception.message = tracing::field::Empty,
            exception.details = tracing::field::Empty,
        )
    }

    /// An answer is one INFO line (a probe's DEBUG); a refusal (4xx) one short DEBUG line, so
    /// a flood of refused requests cannot fill the disk; faults (5xx) are logged at ERROR with
    /// their cause chain where they are answered (`error.rs`).
    fn on_request_end<B: MessageBody>(span: Span, outcome: &Result<ServiceResponse<B>, actix_web::Error>) {
        let status = match outcome {
            Ok(response) => response.status(),
            Err(e) => e.as_response_error().status_code(),
        };
        if status.is_client_error() {
            span.in_scope(|| tracing::debug!(status = status.as_u16(), "refused"));
        } else if !status.is_server_error()
            && let Ok(response) = outcome
        {
            let request = response.request();
            let took = request.extensions().get::<Arrived>().map(|a| a.0.elapsed());
            let ms = took.map_or(0.0, |t| (t.as_secs_f64() * 1e4).round() / 10.0);
            let status = status.as_u16();
            span.in_scope(|| match access_line(request.method(), request.path(), ms) {
                AccessLine::Always => tracing::info!(target: "selfsound::access", status, ms, "answered"),
                AccessLine::Sampled => {
                    tracing::info!(target: "selfsound::access", status, ms, sampled = READS_SAMPLED, "answered")
                }
                AccessLine::Quiet => tracing::debug!(target: "selfsound::access", status, ms, "answered"),
            });
        }
        DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}

/// `path?query` with the values of secret parameters, and secrets in the path, replaced by `***`.
pub fn redact(path: &str, query: Option<&str>) -> String {
    let path = match SECRET_PATHS.iter().find(|prefix| path.starts_with(*prefix)) {
        Some(prefix) => format!("{prefix}***"),
        None => path.to_owned(),
    };
    let Some(query) = query.filter(|q| !q.is_empty()) else { return path };
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) if SECRET_PARAMS.iter().any(|s| name.eq_ignore_ascii_case(s)) => format!("{name}=***"),
            _ => pair.to_owned(),
        })
        .collect();
    format!("{path}?{}", pairs.join("&"))
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn secrets_in_query_strings_are_not_logged() {
        assert_eq!(redact("/authorization/verify", Some("token=abc123")), "/authorization/verify?token=***");
        assert_eq!(
            redact("/auth/callback", Some("code=x&state=y&scope=openid")),
            "/auth/callback?code=***&state=***&scope=openid"
        );
        assert_eq!(redact("/profiles/search", Some("query=ada")), "/profiles/search?query=ada");
        assert_eq!(redact("/home", None), "/home");
        assert_eq!(redact("/data-exports/s3cr3t", None), "/data-exports/***", "a download link's secret");
    }
}
