//! Profile rows.

use db::diesel::prelude::*;
use db::schema::users;
use values::UserId;

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct Profile {
    pub id: UserId,
    pub name: String,
    pub login: String,
    pub email: Option<String>,
    pub description: Option<String>,
    pub avatar_url: Option<String>,
    pub tag_id: Option<String>,
    #[diesel(embed)]
    pub stats: Stats,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct Stats {
    #[diesel(column_name = posts_count)]
    pub posts: i64,
    #[diesel(column_name = listeners_count)]
    pub listeners: i64,
    #[diesel(column_name = listened_to_count)]
    pub listened_to: i64,
}
