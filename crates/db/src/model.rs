//! Row shapes several domains read.

use diesel::prelude::*;
use values::UserId;

use crate::schema::users;

/// A person as lists show them: search results, listening and block lists, post authors.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, QueryableByName, Selectable)]
#[diesel(table_name = users)]
pub struct UserCard {
    pub id: UserId,
    pub name: String,
    pub login: String,
    pub avatar_url: Option<String>,
    pub tag_id: Option<String>,
}
