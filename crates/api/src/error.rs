//! Every error the API answers with, mapped to a status and a `{"detail": ...}` body in one
//! place. Domain errors arrive through one blanket conversion from [`DomainError`]: their kind
//! picks the status, so a new crate or a new variant needs no line here. Faults of ours are
//! logged with their cause chain and answered with a neutral sentence; nothing internal leaks.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use values::{DomainError, ErrorKind};

const INTERNAL_DETAIL: &str = "Something went wrong on our side. Please try again later.";
const UNAVAILABLE_DETAIL: &str = "The service is busy. Please try again in a moment.";

#[derive(Debug)]
pub struct ApiError {
    kind: ErrorKind,
    /// What the person reads.
    detail: String,
    /// The error this came from, logged with its causes when the status is a 5xx.
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
    /// The limit a 429 is for (`crate::limits` names, `uploads`), counted by `crate::metrics`.
    limit: Option<&'static str>,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.detail)
    }
}

impl std::error::Error for ApiError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|s| s as &(dyn std::error::Error + 'static))
    }
}

impl<E: DomainError> From<E> for ApiError {
    fn from(e: E) -> Self {
        let kind = e.kind();
        let detail = if e.is_public() {
            e.to_string()
        } else if kind == ErrorKind::Unavailable {
            UNAVAILABLE_DETAIL.to_owned()
        } else {
            INTERNAL_DETAIL.to_owned()
        };
        ApiError { kind, detail, source: Some(Box::new(e)), limit: None }
    }
}

/// Errors of the HTTP layer itself: a body that cannot be read, a route that does not exist.
impl ApiError {
    pub fn new(kind: ErrorKind, detail: impl Into<String>) -> ApiError {
        ApiError { kind, detail: detail.into(), source: None, limit: None }
    }

    /// Names the limit this refusal is for (metrics count 429s by it).
    pub fn for_limit(mut self, name: &'static str) -> ApiError {
        self.limit = Some(name);
        self
    }

    pub fn limit(&self) -> Option<&'static str> {
        self.limit
    }

    pub fn invalid(detail: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::Invalid, detail)
    }

    pub fn malformed(detail: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::Malformed, detail)
    }

    pub fn not_found() -> ApiError {
        ApiError::new(ErrorKind::NotFound, "Not found")
    }

    pub fn forbidden(detail: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::Forbidden, detail)
    }

    pub fn too_large(detail: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::TooLarge, detail)
    }

    pub fn unsupported_type(detail: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::UnsupportedType, detail)
    }

    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}

/// The one map from kind to status.
pub fn status_of(kind: ErrorKind) -> StatusCode {
    match kind {
        ErrorKind::Invalid => StatusCode::BAD_REQUEST,
        ErrorKind::Malformed => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorKind::Unauthenticated => StatusCode::UNAUTHORIZED,
        ErrorKind::Forbidden => StatusCode::FORBIDDEN,
        ErrorKind::NotFound => StatusCode::NOT_FOUND,
        ErrorKind::Conflict => StatusCode::CONFLICT,
        ErrorKind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorKind::UnsupportedType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ErrorKind::Throttled { .. } => StatusCode::TOO_MANY_REQUESTS,
        ErrorKind::Upstream => StatusCode::BAD_GATEWAY,
        ErrorKind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Detail {
    pub detail: String,
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        status_of(self.kind)
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        if status.is_server_error() {
            let cause = self.source.as_deref().map_or_else(|| self.detail.clone(), |s| values::error_chain(s));
            tracing::error!(status = status.as_u16(), error = %cause, "request failed");
        }
        let mut response = HttpResponse::build(status);
        if let ErrorKind::Throttled { retry_after } = self.kind
            && let Ok(v) = HeaderValue::from_str(&retry_after.as_secs().max(1).to_string())
        {
            response.insert_header((header::RETRY_AFTER, v));
        }
        response.json(Detail { detail: self.detail.clone() })
    }
}

/// Keeps parser messages short: they may quote the input.
pub fn clip(message: impl std::fmt::Display) -> String {
    let text = message.to_string();
    match text.char_indices().nth(160) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("pool exhausted at 10.0.0.7")]
    struct Busy;
    impl DomainError for Busy {
        fn kind(&self) -> ErrorKind {
            ErrorKind::Unavailable
        }
    }

    #[derive(Debug, thiserror::Error)]
    #[error("secret table users_private is corrupt")]
    struct Broken;
    impl DomainError for Broken {
        fn kind(&self) -> ErrorKind {
            ErrorKind::Internal
        }
    }

    #[test]
    fn internal_text_never_reaches_the_person() {
        let busy = ApiError::from(Busy);
        assert_eq!(
            (busy.status_code(), busy.to_string().as_str()),
            (StatusCode::SERVICE_UNAVAILABLE, UNAVAILABLE_DETAIL)
        );
        let broken = ApiError::from(Broken);
        assert_eq!(
            (broken.status_code(), broken.to_string().as_str()),
            (StatusCode::INTERNAL_SERVER_ERROR, INTERNAL_DETAIL)
        );
    }

    #[test]
    fn domain_rules_keep_their_words_and_kinds() {
        let e = ApiError::from(values::InvalidValue::NameEmpty);
        assert_eq!((e.status_code(), e.to_string().as_str()), (StatusCode::BAD_REQUEST, "Name cannot be empty"));
        let e = ApiError::from(db::DbError::NestedTransaction);
        assert_eq!(e.status_code(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
