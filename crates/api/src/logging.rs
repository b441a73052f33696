//! The span each request is logged in: the peer address (never a header a client could write)
//! and the path with the values of secret-bearing query parameters (`token=`, `code=`,
//! `state=`) replaced, so a verification or sign-in link never lands in a log.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use tracing::Span;
use tracing_actix_web::{DefaultRootSpanBuilder, RootSpanBuilder};

const SECRET_PARAMS: [&str; 5] = ["token", "access_token", "code", "state", "password"];

pub struct RedactingRootSpan;

impl RootSpanBuilder for RedactingRootSpan {
    fn on_request_start(request: &ServiceRequest) -> Span {
        let peer = request.peer_addr().map(|a| a.ip().to_string()).unwrap_or_default();
        let route = request.match_pattern().unwrap_or_else(|| "default".into());
        tracing::info_span!(
            "HTTP request",
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

    /// A refusal (4xx) is one short DEBUG line, so a flood of refused requests cannot fill the
    /// disk; faults (5xx) are logged at ERROR with their cause chain where they are answered
    /// (`error.rs`).
    fn on_request_end<B: MessageBody>(span: Span, outcome: &Result<ServiceResponse<B>, actix_web::Error>) {
        let status = match outcome {
            Ok(response) => response.status(),
            Err(e) => e.as_response_error().status_code(),
        };
        if status.is_client_error() {
            span.in_scope(|| tracing::debug!(status = status.as_u16(), "refused"));
        }
        DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}

/// `path?query` with the values of secret parameters replaced by `***`.
pub fn redact(path: &str, query: Option<&str>) -> String {
    let Some(query) = query.filter(|q| !q.is_empty()) else { return path.to_owned() };
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
    }
}
