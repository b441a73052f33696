//! The rows federation keeps: people of other servers, our people's keys, activities received.

use chrono::NaiveDateTime;
use db::schema::{actor_keys, federation_actors, federation_objects, suspensions, users};
use db::{DbConnection, Kept};
use diesel::dsl::exists;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel::sql_types::{BigInt, Text, Timestamp};
use values::{CommentId, PostId, UserId};

use crate::FederationError;

/// A person of ours, as their actor shows them.
#[derive(Debug, Clone, Queryable)]
pub(crate) struct LocalPerson {
    pub name: String,
    pub login: String,
    pub description: Option<String>,
    pub avatar_url: Option<String>,
    pub tag_id: Option<String>,
    pub created_at: NaiveDateTime,
    pub listeners: i64,
    pub listening: i64,
    pub posts: i64,
}

/// A person of ours: none for a person of another server, or nobody.
pub(crate) fn local_person(conn: &mut DbConnection, id: UserId) -> QueryResult<Option<LocalPerson>> {
    users::table
        .filter(users::id.eq(id))
        .filter(diesel::dsl::not(exists(federation_actors::table.filter(federation_actors::user_id.eq(users::id)))))
        .select((
            users::name,
            users::login,
            users::description,
            users::avatar_url,
            users::tag_id,
            users::created_at,
            users::listeners_count,
            users::listened_to_count,
            users::posts_count,
        ))
        .first(conn)
        .optional()
}

/// A person of ours by login (a handle's first half).
pub(crate) fn local_by_login(conn: &mut DbConnection, login: &str) -> QueryResult<Option<UserId>> {
    if login.contains('@') {
        return Ok(None);
    }
    users::table.filter(users::login.eq(login)).select(users::id).first(conn).optional()
}

pub(crate) fn suspended(conn: &mut DbConnection, id: UserId) -> QueryResult<bool> {
    diesel::select(exists(suspensions::table.filter(suspensions::user_id.eq(id)))).get_result(conn)
}

/// A person's key pair (public, private), if made.
pub(crate) fn keys(conn: &mut DbConnection, id: UserId) -> QueryResult<Option<(String, String)>> {
    actor_keys::table
        .filter(actor_keys::user_id.eq(id))
        .select((actor_keys::public_key_pem, actor_keys::private_key_pem))
        .first(conn)
        .optional()
}

/// Keeps a person's first key pair; a pair made at the same time elsewhere wins if it came
/// first (the caller reads the kept one back).
pub(crate) fn keep_keys(conn: &mut DbConnection, id: UserId, public: &str, private: &str) -> QueryResult<()> {
    Kept::new(
        "INSERT INTO actor_keys (user_id, public_key_pem, private_key_pem, created_at) VALUES (?, ?, ?, ?) \
         ON CONFLICT DO NOTHING",
    )
    .bind::<BigInt, _>(id)
    .bind::<Text, _>(public.to_owned())
    .bind::<Text, _>(private.to_owned())
    .bind::<Timestamp, _>(db::time::now())
    .execute(conn)?;
    Ok(())
}

/// A person of another server, as we know them.
#[derive(Debug, Clone, Queryable)]
pub(crate) struct RemoteActor {
    pub user: UserId,
    pub ap_id: String,
    pub inbox: String,
    pub shared_inbox: Option<String>,
    pub public_key: String,
    pub fetched_at: NaiveDateTime,
}

pub(crate) fn remote_by_ap_id(conn: &mut DbConnection, ap_id: &str) -> QueryResult<Option<RemoteActor>> {
    federation_actors::table
        .filter(federation_actors::ap_id.eq(ap_id))
        .select((
            federation_actors::user_id,
            federation_actors::ap_id,
            federation_actors::inbox,
            federation_actors::shared_inbox,
            federation_actors::public_key_pem,
            federation_actors::fetched_at,
        ))
        .first(conn)
        .optional()
}

/// What another server says of one of its people.
#[derive(Debug, Clone)]
pub(crate) struct NewRemote {
    pub ap_id: String,
    pub domain: String,
    pub login: String,
    pub name: String,
    pub avatar_url: Option<String>,
    pub inbox: String,
    pub shared_inbox: Option<String>,
    pub public_key: String,
    pub url: Option<String>,
}

/// Where a person of another server lives and how their signatures are checked, as of `now`:
/// what a first sight records and every later one refreshes.
macro_rules! whereabouts {
    ($new:expr, $now:expr) => {
        (
            federation_actors::inbox.eq(&$new.inbox),
            federation_actors::shared_inbox.eq(&$new.shared_inbox),
            federation_actors::public_key_pem.eq(&$new.public_key),
            federation_actors::url.eq(&$new.url),
            federation_actors::fetched_at.eq($now),
        )
    };
}

/// Records or refreshes a person of another server: a `users` row (their handle as login, no
/// e-mail, no password) and where they live. Answers their id here.
pub(crate) fn upsert_remote(conn: &mut DbConnection, new: &NewRemote) -> Result<UserId, FederationError> {
    let now = db::time::now();
    let known: Option<UserId> = federation_actors::table
        .filter(federation_actors::ap_id.eq(&new.ap_id))
        .select(federation_actors::user_id)
        .first(conn)
        .optional()?;
    let user = match known {
        Some(user) => {
            diesel::update(users::table.filter(users::id.eq(user)))
                .set((users::name.eq(&new.name), users::avatar_url.eq(&new.avatar_url)))
                .execute(conn)?;
            diesel::update(federation_actors::table.filter(federation_actors::user_id.eq(user)))
                .set(whereabouts!(new, now))
                .execute(conn)?;
            user
        }
        None => {
            let taken: bool =
                diesel::select(exists(users::table.filter(users::login.eq(&new.login)))).get_result(conn)?;
            if taken {
                return Err(FederationError::HandleTaken);
            }
            let user = UserId::generate();
            diesel::insert_into(users::table)
                .values((
                    users::id.eq(user),
                    users::name.eq(&new.name),
                    users::login.eq(&new.login),
                    users::avatar_url.eq(&new.avatar_url),
                    users::created_at.eq(now),
                ))
                .execute(conn)?;
            diesel::insert_into(federation_actors::table)
                .values((
                    federation_actors::user_id.eq(user),
                    federation_actors::ap_id.eq(&new.ap_id),
                    federation_actors::domain.eq(&new.domain),
                    whereabouts!(new, now),
                ))
                .execute(conn)?;
            user
        }
    };
    Ok(user)
}

/// Notes an activity as received: false when it was before (it is not acted on twice).
pub(crate) fn first_receipt(conn: &mut DbConnection, activity: &str) -> QueryResult<bool> {
    let added =
        Kept::new("INSERT INTO federation_received (activity_id, received_at) VALUES (?, ?) ON CONFLICT DO NOTHING")
            .bind::<Text, _>(activity.to_owned())
            .bind::<Timestamp, _>(db::time::now())
            .execute(conn)?;
    Ok(added == 1)
}

/// Our own people, and their posts.
pub(crate) fn usage(conn: &mut DbConnection) -> QueryResult<(i64, i64)> {
    #[derive(QueryableByName)]
    struct Usage {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        people: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        posts: i64,
    }
    let u: Usage = diesel::sql_query(
        "SELECT COUNT(*) AS people, CAST(COALESCE(SUM(posts_count), 0) AS BIGINT) AS posts FROM users \
         WHERE NOT EXISTS (SELECT 1 FROM federation_actors f WHERE f.user_id = users.id)",
    )
    .get_result(conn)?;
    Ok((u.people, u.posts))
}

/// The inboxes of a person's listeners on other servers: each server's shared inbox once, or
/// the listener's own where their server has none.
pub(crate) fn follower_inboxes(conn: &mut DbConnection, user: UserId) -> QueryResult<Vec<String>> {
    use db::schema::listens;
    let rows: Vec<(String, Option<String>)> = listens::table
        .inner_join(federation_actors::table.on(federation_actors::user_id.eq(listens::listener_id)))
        .filter(listens::listened_id.eq(user))
        .select((federation_actors::inbox, federation_actors::shared_inbox))
        .load(conn)?;
    let mut inboxes: Vec<String> = rows.into_iter().map(|(inbox, shared)| shared.unwrap_or(inbox)).collect();
    inboxes.sort_unstable();
    inboxes.dedup();
    Ok(inboxes)
}

/// The people of other servers who replied on `post` (their replies kept as comments), at most
/// `most`: their actor ids and inboxes (a server's shared inbox where it has one).
pub(crate) fn remote_commenters(
    conn: &mut DbConnection,
    post: PostId,
    most: i64,
) -> QueryResult<Vec<(String, String)>> {
    use db::schema::comments;
    let rows: Vec<(String, String, Option<String>)> = federation_actors::table
        .filter(
            federation_actors::user_id
                .eq_any(comments::table.filter(comments::post_id.eq(post)).select(comments::user_id)),
        )
        .select((federation_actors::ap_id, federation_actors::inbox, federation_actors::shared_inbox))
        .limit(most)
        .load(conn)?;
    Ok(rows.into_iter().map(|(actor, inbox, shared)| (actor, shared.unwrap_or(inbox))).collect())
}

/// Our people among `logins` (a caption's mentions), with their ids.
pub(crate) fn local_logins(conn: &mut DbConnection, logins: &[String]) -> QueryResult<Vec<(String, UserId)>> {
    if logins.is_empty() {
        return Ok(Vec::new());
    }
    users::table
        .filter(users::login.eq_any(logins))
        .filter(diesel::dsl::not(exists(federation_actors::table.filter(federation_actors::user_id.eq(users::id)))))
        .select((users::login, users::id))
        .load(conn)
}

/// Keeps which comment a reply from another server became.
pub(crate) fn keep_reply(conn: &mut DbConnection, ap_id: &str, comment: CommentId, user: UserId) -> QueryResult<()> {
    diesel::insert_into(federation_objects::table)
        .values((
            federation_objects::ap_id.eq(ap_id),
            federation_objects::comment_id.eq(comment),
            federation_objects::user_id.eq(user),
        ))
        .execute(conn)?;
    Ok(())
}

/// The comment a reply from another server became: its id, its author here, its post.
pub(crate) fn reply(conn: &mut DbConnection, ap_id: &str) -> QueryResult<Option<(CommentId, UserId, PostId)>> {
    use db::schema::comments;
    federation_objects::table
        .inner_join(comments::table.on(comments::id.eq(federation_objects::comment_id)))
        .filter(federation_objects::ap_id.eq(ap_id))
        .select((federation_objects::comment_id, federation_objects::user_id, comments::post_id))
        .first(conn)
        .optional()
}
