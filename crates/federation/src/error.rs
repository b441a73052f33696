use values::{DomainError, ErrorKind};

/// What can go wrong between servers: each with its kind, mapped to a status once in `api`.
#[derive(Debug, thiserror::Error)]
pub enum FederationError {
    /// Nobody here by that name or address, or gone.
    #[error("Not found")]
    NotFound,
    /// Was here, and is no more (a deleted or suspended person).
    #[error("Gone")]
    Gone,
    /// The activity or object breaks a rule of ours; the text says which.
    #[error("{0}")]
    Refused(String),
    /// The sender's signature or identity did not hold.
    #[error("{0}")]
    Unauthenticated(String),
    /// The other server answered wrongly, or not in time.
    #[error("Another server answered wrongly: {0}")]
    Upstream(String),
    /// Not taken from this actor or server (a suspended person, a blocked server).
    #[error("{0}")]
    Forbidden(String),
    #[error("That server is blocked already")]
    AlreadyBlocked,
    /// A person of another server whose handle is taken here by another actor.
    #[error("That handle is taken here by another account")]
    HandleTaken,
    #[error(transparent)]
    App(#[from] app::AppError),
    #[error(transparent)]
    Graph(#[from] social_graph::GraphError),
    #[error(transparent)]
    Posts(#[from] posts::PostError),
    #[error(transparent)]
    Db(#[from] db::DbError),
    #[error("federation: {0}")]
    Internal(String),
}

impl From<diesel::result::Error> for FederationError {
    fn from(e: diesel::result::Error) -> Self {
        FederationError::Db(e.into())
    }
}

impl From<activitypub_federation::error::Error> for FederationError {
    fn from(e: activitypub_federation::error::Error) -> Self {
        use activitypub_federation::error::Error as E;
        match e {
            E::NotFound => FederationError::NotFound,
            E::ObjectDeleted(_) => FederationError::Gone,
            E::ActivitySignatureInvalid | E::ActivityBodyDigestInvalid => {
                FederationError::Unauthenticated("The activity's signature does not hold.".into())
            }
            E::UrlVerificationError(why) => FederationError::Refused(format!("Refused address: {why}")),
            E::RequestLimit => FederationError::Refused("Too many requests for one activity.".into()),
            E::ParseReceivedActivity(e, _) => FederationError::Refused(format!("Not an activity we understand: {e}")),
            E::Other(why) => FederationError::Refused(why),
            E::UrlParse(e) => FederationError::Refused(format!("Not an address: {e}")),
            E::ResponseBodyLimit => FederationError::Upstream("its answer is too large".into()),
            E::FetchInvalidContentType(_)
            | E::FetchWrongId(_)
            | E::ParseFetchedObject(..)
            | E::WebfingerResolveFailed(_)
            | E::Reqwest(_)
            | E::ReqwestMiddleware(_) => FederationError::Upstream(e.to_string()),
            other => FederationError::Internal(other.to_string()),
        }
    }
}

impl DomainError for FederationError {
    fn kind(&self) -> ErrorKind {
        match self {
            FederationError::NotFound | FederationError::Gone => ErrorKind::NotFound,
            FederationError::Refused(_) => ErrorKind::Invalid,
            FederationError::Unauthenticated(_) => ErrorKind::Unauthenticated,
            FederationError::Upstream(_) => ErrorKind::Upstream,
            FederationError::HandleTaken | FederationError::AlreadyBlocked => ErrorKind::Conflict,
            FederationError::Forbidden(_) => ErrorKind::Forbidden,
            FederationError::App(e) => e.kind(),
            FederationError::Graph(e) => e.kind(),
            FederationError::Posts(e) => e.kind(),
            FederationError::Db(e) => e.kind(),
            FederationError::Internal(_) => ErrorKind::Internal,
        }
    }
}
