//! Wire shapes several areas answer with, so they are written once: the person card (search
//! results, listening and block lists, post authors, commenters, complaint parties, the mention
//! picker) and the plain `{message}` of an action. Area-specific shapes live beside their
//! handlers. Rows are never serialized directly: these are built from domain values.

use db::model::UserCard;
use serde::Serialize;
use utoipa::ToSchema;
use values::UserId;

use crate::state::AppState;

/// A person, as every answer shows them.
#[derive(Serialize, ToSchema)]
pub struct UserJson {
    #[schema(value_type = String)]
    pub id: UserId,
    pub name: String,
    pub login: String,
    /// Never null: a person without an avatar gets the default picture's address.
    pub avatar_url: String,
    /// The role tag; absent only from the mention picker's answer (spec §3 Mention search result).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = CardTagJson)]
    pub tag: Option<CardTagJson>,
}

/// A person's role tag under both names clients read (spec §3, §7). Both are present in every
/// person card but the mention picker's.
#[derive(Serialize, ToSchema)]
pub struct CardTagJson {
    /// The tag's id, null for none.
    #[schema(required = false)]
    pub tag_id: Option<String>,
    /// The tag's id again.
    #[schema(required = false)]
    pub role: Option<String>,
}

impl UserJson {
    /// The whole card.
    pub fn new(state: &AppState, u: UserCard) -> UserJson {
        let tag = CardTagJson { role: u.tag_id.clone(), tag_id: u.tag_id.clone() };
        UserJson { tag: Some(tag), ..UserJson::without_tag(state, u) }
    }

    /// The card without the tag: the mention picker's shape (id, login, name, avatar_url).
    pub fn without_tag(state: &AppState, u: UserCard) -> UserJson {
        UserJson {
            avatar_url: state.avatar_url(u.avatar_url.as_deref()),
            id: u.id,
            name: u.name,
            login: u.login,
            tag: None,
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

/// A JSON field that was sent, even as null (`Some(None)`), apart from one left out (`None`):
/// `#[serde(default, deserialize_with = "crate::wire::present")]` on an `Option<Option<T>>`.
pub fn present<'de, D: serde::Deserializer<'de>, T: serde::Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}
