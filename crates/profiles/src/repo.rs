//! Profile queries. They run inside their caller's transaction.

use db::DbConnection;
use db::diesel::dsl::exists;
use db::diesel::prelude::*;
use db::schema::users;
use values::{Login, UserId};

use crate::input::CheckedPatch;
use crate::model::{Profile, Stats};

pub fn profile(conn: &mut DbConnection, id: UserId) -> QueryResult<Option<Profile>> {
    users::table.filter(users::id.eq(id)).select(Profile::as_select()).first(conn).optional()
}

/// A profile and when its account was made (a person's archive, `app::export`).
pub fn profile_since(conn: &mut DbConnection, id: UserId) -> QueryResult<Option<(Profile, chrono::NaiveDateTime)>> {
    users::table.filter(users::id.eq(id)).select((Profile::as_select(), users::created_at)).first(conn).optional()
}

pub fn stats(conn: &mut DbConnection, id: UserId) -> QueryResult<Option<Stats>> {
    users::table.filter(users::id.eq(id)).select(Stats::as_select()).first(conn).optional()
}

pub fn login_of(conn: &mut DbConnection, id: UserId) -> QueryResult<Option<String>> {
    users::table.filter(users::id.eq(id)).select(users::login).first(conn).optional()
}

pub fn login_taken(conn: &mut DbConnection, login: &Login, by_other_than: UserId) -> QueryResult<bool> {
    diesel::select(exists(users::table.filter(users::login.eq(login.as_str())).filter(users::id.ne(by_other_than))))
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

pub fn apply(conn: &mut DbConnection, id: UserId, patch: &CheckedPatch) -> QueryResult<()> {
    if patch.is_empty() {
        return Ok(());
    }
    let changes = Changes {
        name: patch.name.as_ref().map(|n| n.as_str()),
        login: patch.login.as_ref().map(|l| l.as_str()),
        description: patch.description.as_ref().map(|d| d.as_ref().map(|b| b.as_str())),
        tag_id: patch.tag_id,
    };
    diesel::update(users::table.filter(users::id.eq(id))).set(&changes).execute(conn)?;
    // Their card wherever it is shown, and what finds them.
    db::changed(conn, &[db::Topic::User(id), db::Topic::People])
}

/// Sets the avatar and answers the one it replaces (`None` when the profile does not exist).
pub fn swap_avatar(conn: &mut DbConnection, id: UserId, url: &str) -> QueryResult<Option<Option<String>>> {
    let old: Option<Option<String>> =
        users::table.filter(users::id.eq(id)).select(users::avatar_url).first(conn).optional()?;
    if old.is_some() {
        diesel::update(users::table.filter(users::id.eq(id))).set(users::avatar_url.eq(url)).execute(conn)?;
        db::changed(conn, &[db::Topic::User(id), db::Topic::People])?;
    }
    Ok(old)
}

/// The avatar a profile points to, if any.
pub fn avatar_of(conn: &mut DbConnection, id: UserId) -> QueryResult<Option<String>> {
    Ok(users::table.filter(users::id.eq(id)).select(users::avatar_url).first(conn).optional()?.flatten())
}

/// Which of `urls` some profile uses as its avatar.
/// The avatars of ours people point at (kept as URL paths, `/media/<key>`; an outside picture,
/// from Google sign-in, is no object of ours).
pub const STORED: [db::StoredColumn; 1] = [db::StoredColumn {
    column: "users.avatar_url",
    keys: |c| {
        let urls: Vec<String> = users::table
            .filter(users::avatar_url.like(format!("{}%", storage::MEDIA_PREFIX)))
            .select(users::avatar_url.assume_not_null())
            .load(c)?;
        Ok(urls.iter().filter_map(|url| storage::key_of(url)).map(str::to_owned).collect())
    },
}];

pub fn avatars_in_use(conn: &mut DbConnection, urls: &[String]) -> QueryResult<std::collections::HashSet<String>> {
    let used: Vec<Option<String>> =
        users::table.filter(users::avatar_url.eq_any(urls)).select(users::avatar_url).load(conn)?;
    Ok(used.into_iter().flatten().collect())
}
