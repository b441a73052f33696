//! Use cases that span domains. The domain crates stand side by side and never call "up" or in
//! a circle; what needs several of them is put together here, one transaction per use case:
//! each domain's part runs inside it (functions taking `&mut DbConnection`), and stored objects
//! are removed only after it has committed.
//!
//! Later areas add theirs here: a like with its counter and notification, a comment with its
//! mentions, resolving a complaint by deleting the post.

use std::collections::HashSet;

use db::model::UserCard;
use db::{Db, DbError, write_tx};
use storage::Storage;
use values::{DomainError, ErrorKind, UserId};

/// An error of one of the domains a use case called; its kind is that domain's.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Auth(#[from] auth::AuthError),
    #[error(transparent)]
    Profile(#[from] profiles::ProfileError),
    #[error(transparent)]
    Graph(#[from] social_graph::GraphError),
    #[error(transparent)]
    Posts(#[from] posts::PostError),
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<db::diesel::result::Error> for AppError {
    fn from(e: db::diesel::result::Error) -> Self {
        AppError::Db(e.into())
    }
}

impl DomainError for AppError {
    fn kind(&self) -> ErrorKind {
        match self {
            AppError::Auth(e) => e.kind(),
            AppError::Profile(e) => e.kind(),
            AppError::Graph(e) => e.kind(),
            AppError::Posts(e) => e.kind(),
            AppError::Db(e) => e.kind(),
        }
    }
}

/// A search result: the person, and whether the searcher already listens to them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchHit {
    pub user: UserCard,
    pub active: bool,
}

#[derive(Clone)]
pub struct App {
    db: Db,
    storage: Storage,
}

impl App {
    pub fn new(db: Db, storage: Storage) -> App {
        App { db, storage }
    }

    /// Deletes an account with everything it owns, in one transaction: each domain fixes what
    /// others see (listener counts, like and comment counts), deletes what it owns (posts) and
    /// names the stored objects it owned; the user row goes
    /// last, and its sessions with it, so every token stops working at once. The objects are
    /// removed after the commit; one that cannot be removed now is left to the hourly sweep.
    pub async fn delete_account(&self, user: UserId) -> Result<(), AppError> {
        let objects = self
            .db
            .run(move |conn| {
                write_tx(conn, |conn| {
                    social_graph::release_account(conn, user)?;
                    let mut objects = posts::release_account(conn, user)?;
                    objects.extend(profiles::release_account(conn, user)?);
                    auth::release_account(conn, user)?;
                    Ok::<_, AppError>(objects)
                })
            })
            .await?;
        for key in objects {
            if let Err(e) = self.storage.delete(&key).await {
                tracing::warn!(error = %values::error_chain(&e), %key, "could not remove a deleted account's object");
            }
        }
        Ok(())
    }

    /// People matching `query`; with a signed-in viewer, each says whether the viewer already
    /// listens to them (one more query for the whole page). The viewer is never among them.
    pub async fn search_people(
        &self,
        viewer: Option<UserId>,
        query: &str,
        limit: Option<i64>,
    ) -> Result<Vec<SearchHit>, AppError> {
        let query = profiles::search::normalize(query);
        let limit = profiles::search::PAGE.page(limit, None).limit;
        self.db
            .run(move |conn| {
                let people = profiles::search::search(conn, &query, viewer, limit)?;
                let listening = match viewer {
                    Some(me) => {
                        let ids: Vec<UserId> = people.iter().map(|u| u.id).collect();
                        social_graph::listening_among(conn, me, &ids)?
                    }
                    None => HashSet::new(),
                };
                Ok(people.into_iter().map(|user| SearchHit { active: listening.contains(&user.id), user }).collect())
            })
            .await
    }
}
