//! Profile queries.

use db::diesel::dsl::exists;
use db::diesel::prelude::*;
use db::schema::users;
use db::{DbConnection, Id};

use crate::input::CheckedPatch;
use crate::model::{Profile, Stats};

pub fn profile(conn: &mut DbConnection, id: Id) -> QueryResult<Option<Profile>> {
    users::table.filter(users::id.eq(id.0)).select(Profile::as_select()).first(conn).optional()
}

pub fn stats(conn: &mut DbConnection, id: Id) -> QueryResult<Option<Stats>> {
    users::table.filter(users::id.eq(id.0)).select(Stats::as_select()).first(conn).optional()
}

pub fn login_taken(conn: &mut DbConnection, login: &str, by_other_than: Id) -> QueryResult<bool> {
    diesel::select(exists(users::table.filter(users::login.eq(login)).filter(users::id.ne(by_other_than.0))))
        .get_result(conn)
}

#[derive(AsChangeset)]
#[diesel(table_name = users)]
struct Changes<'a> {
    name: Option<&'a str>,
    login: Option<&'a str>,
    description: Option<Option<&'a str>>,
    tag_id: Option<Option<&'a str>>,
}

pub fn apply(conn: &mut DbConnection, id: Id, patch: &CheckedPatch) -> QueryResult<()> {
    let changes = Changes {
        name: patch.name.as_deref(),
        login: patch.login.as_deref(),
        description: patch.description.as_ref().map(|d| d.as_deref()),
        tag_id: patch.tag_id.as_ref().map(|t| t.as_deref()),
    };
    if changes.name.is_none() && changes.login.is_none() && changes.description.is_none() && changes.tag_id.is_none() {
        return Ok(());
    }
    diesel::update(users::table.filter(users::id.eq(id.0))).set(&changes).execute(conn).map(|_| ())
}

/// Sets the avatar and answers the one it replaces.
pub fn swap_avatar(conn: &mut DbConnection, id: Id, url: &str) -> QueryResult<Option<Option<String>>> {
    let old: Option<Option<String>> =
        users::table.filter(users::id.eq(id.0)).select(users::avatar_url).first(conn).optional()?;
    if old.is_some() {
        diesel::update(users::table.filter(users::id.eq(id.0))).set(users::avatar_url.eq(url)).execute(conn)?;
    }
    Ok(old)
}

/// Which of `urls` some profile uses as its avatar.
pub fn avatars_in_use(conn: &mut DbConnection, urls: &[String]) -> QueryResult<std::collections::HashSet<String>> {
    let used: Vec<Option<String>> =
        users::table.filter(users::avatar_url.eq_any(urls)).select(users::avatar_url).load(conn)?;
    Ok(used.into_iter().flatten().collect())
}
