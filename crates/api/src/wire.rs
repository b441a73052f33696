//! Wire shapes several areas answer with, so they are written once: the user card (search
//! results, listening and block lists, and later post authors, commenters and notification
//! senders) and the plain `{message}` of an action. Area-specific shapes live beside their
//! handlers. Rows are never serialized directly: these are built from domain values.

use db::model::UserCard;
use serde::Serialize;
use utoipa::ToSchema;
use values::UserId;

use crate::state::AppState;

/// A person in a list.
#[derive(Serialize, ToSchema)]
pub struct UserJson {
    #[schema(value_type = String)]
    pub id: UserId,
    pub name: String,
    pub login: String,
    /// Never null: a person without an avatar gets the default picture's address.
    pub avatar_url: String,
    pub tag_id: Option<String>,
}

impl UserJson {
    pub fn new(state: &AppState, u: UserCard) -> UserJson {
        UserJson {
            avatar_url: state.avatar_url(u.avatar_url.as_deref()),
            id: u.id,
            name: u.name,
            login: u.login,
            tag_id: u.tag_id,
        }
    }
}

/// The answer of an action with nothing else to say.
#[derive(Serialize, ToSchema)]
pub struct Message {
    pub message: String,
}

impl Message {
    pub fn new(text: &str) -> Message {
        Message { message: text.to_owned() }
    }
}
