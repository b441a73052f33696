//! Every error the API answers with, mapped to a status and a `{"detail": ...}` body in one place.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use auth::AuthError;
use db::DbError;
use profiles::ProfileError;
use social_graph::GraphError;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error(transparent)]
    Auth(#[from] AuthError),
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    PayloadTooLarge(String),
    #[error("{0}")]
    UnsupportedMediaType(String),
    #[error("{0}")]
    Unprocessable(String),
    #[error("{0}")]
    Unavailable(String),
    #[error(transparent)]
    Profile(#[from] ProfileError),
    #[error(transparent)]
    Graph(#[from] GraphError),
    #[error(transparent)]
    Db(#[from] DbError),
}

#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Detail {
    pub detail: String,
}

impl ApiError {
    /// What the person reads. Internal failures are logged with their cause chain and answered
    /// with a neutral sentence; nothing internal leaks out.
    fn detail(&self) -> String {
        match self {
            ApiError::Auth(AuthError::Db(_) | AuthError::Unexpected(_))
            | ApiError::Profile(ProfileError::Db(_) | ProfileError::Storage(_))
            | ApiError::Graph(GraphError::Db(_))
            | ApiError::Db(_) => {
                if self.status_code() == StatusCode::SERVICE_UNAVAILABLE {
                    "The service is busy. Please try again in a moment.".into()
                } else {
                    "Something went wrong on our side. Please try again later.".into()
                }
            }
            ApiError::Auth(AuthError::Google(_)) => "Google sign-in failed. Please try again.".into(),
            other => other.to_string(),
        }
    }
}

fn db_status(e: &DbError) -> StatusCode {
    match e {
        DbError::Pool(_) => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::Auth(e) => match e {
                AuthError::Invalid(_)
                | AuthError::AlreadyVerified
                | AuthError::AlreadyExistsUnverified
                | AuthError::BadVerificationLink => StatusCode::BAD_REQUEST,
                AuthError::BadCredentials | AuthError::Unauthenticated => StatusCode::UNAUTHORIZED,
                AuthError::NotVerified => StatusCode::FORBIDDEN,
                AuthError::Throttled(_) | AuthError::ResendCooldown(_) => StatusCode::TOO_MANY_REQUESTS,
                AuthError::GoogleNotConfigured => StatusCode::SERVICE_UNAVAILABLE,
                AuthError::Google(_) => StatusCode::BAD_GATEWAY,
                AuthError::Db(e) => db_status(e),
                AuthError::Unexpected(_) => StatusCode::INTERNAL_SERVER_ERROR,
            },
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Profile(e) => match e {
                ProfileError::NotFound => StatusCode::NOT_FOUND,
                ProfileError::Invalid(_) | ProfileError::AvatarUnreadable(_) => StatusCode::BAD_REQUEST,
                ProfileError::LoginTaken => StatusCode::CONFLICT,
                ProfileError::AvatarType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ProfileError::AvatarTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
                ProfileError::Db(e) => db_status(e),
                ProfileError::Storage(_) => StatusCode::SERVICE_UNAVAILABLE,
            },
            ApiError::Graph(e) => match e {
                GraphError::UserNotFound => StatusCode::NOT_FOUND,
                GraphError::SelfListen | GraphError::SelfBlock => StatusCode::BAD_REQUEST,
                GraphError::Blocked => StatusCode::FORBIDDEN,
                GraphError::Db(e) => db_status(e),
            },
            ApiError::Db(e) => db_status(e),
        }
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        if status.is_server_error() {
            tracing::error!(error = %error_chain(self), "request failed");
        }
        let mut response = HttpResponse::build(status);
        if let ApiError::Auth(AuthError::Throttled(wait) | AuthError::ResendCooldown(wait)) = self
            && let Ok(v) = HeaderValue::from_str(&wait.as_secs().max(1).to_string())
        {
            response.insert_header((header::RETRY_AFTER, v));
        }
        response.json(Detail { detail: self.detail() })
    }
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// Keeps parser messages short: they may quote the input.
pub fn clip(message: impl std::fmt::Display) -> String {
    let text = message.to_string();
    match text.char_indices().nth(160) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}
