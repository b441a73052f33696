//! Rows of the accounts tables and what the rest of the app learns about a signed-in person.

use chrono::NaiveDateTime;
use db::diesel::prelude::*;
use db::schema::users;
use values::{SessionId, UserId};

/// A user row as the auth crate reads it.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct Account {
    pub id: UserId,
    pub name: String,
    pub login: String,
    pub email: Option<String>,
    pub password_hash: Option<String>,
    pub description: Option<String>,
    pub avatar_url: Option<String>,
    pub tag_id: Option<String>,
    pub is_admin: bool,
    pub email_verified: bool,
    pub google_sub: Option<String>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = users)]
pub(crate) struct NewAccount<'a> {
    pub id: UserId,
    pub name: &'a str,
    pub login: &'a str,
    pub email: Option<&'a str>,
    pub password_hash: Option<&'a str>,
    pub avatar_url: Option<&'a str>,
    pub email_verified: bool,
    pub google_sub: Option<&'a str>,
    pub created_at: NaiveDateTime,
}

/// The person behind a valid token and a live session.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    pub id: UserId,
    pub session_id: SessionId,
    pub name: String,
    pub login: String,
    pub email: Option<String>,
    pub description: Option<String>,
    pub avatar_url: Option<String>,
    pub tag_id: Option<String>,
    pub is_admin: bool,
}

impl CurrentUser {
    pub(crate) fn from_account(a: Account, session_id: SessionId) -> CurrentUser {
        CurrentUser {
            id: a.id,
            session_id,
            name: a.name,
            login: a.login,
            email: a.email,
            description: a.description,
            avatar_url: a.avatar_url,
            tag_id: a.tag_id,
            is_admin: a.is_admin,
        }
    }
}
