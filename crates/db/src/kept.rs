//! Writes kept prepared. Diesel prepares every `UPDATE`, every upsert and every `sql_query`
//! anew on each call (it marks them unsafe to keep, since their text may differ from call to
//! call), so each like, comment and counted write limit paid SQLite's parser and planner, or a
//! PostgreSQL parse, several times over (issue 18). A [`Kept`] statement is SQL whose text is
//! one of a few, written out with `?` for each bind: it keeps its prepared statement, found by
//! its text, like a query of the DSL.
//!
//! ```ignore
//! Kept::new("UPDATE posts SET likes_count = likes_count + ? WHERE id = ?")
//!     .bind::<BigInt, _>(delta)
//!     .bind::<BigInt, _>(post)
//!     .execute(conn)?;
//! ```
//!
//! Written out by hand, so kept for the statements every write runs; the rest stay in the DSL.
//! Both backends read the same text: `?` becomes `$1`, `$2`, … on PostgreSQL.

use std::borrow::Cow;
use std::marker::PhantomData;

use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::result::QueryResult;
use diesel::serialize::ToSql;
use diesel::sql_types::{HasSqlType, Untyped};

use crate::MultiBackend;

/// A statement of fixed text with its binds, kept prepared (see the module).
pub struct Kept {
    sql: Cow<'static, str>,
    binds: Vec<Box<dyn Bind>>,
}

impl Kept {
    /// `sql` holds one `?` for each bind to come, and no other.
    pub fn new(sql: &'static str) -> Kept {
        Kept { sql: Cow::Borrowed(sql), binds: Vec::new() }
    }

    /// [`Kept::new`] with text made at run time: it must be one of a few texts (e.g. one for
    /// each number of rows up to a small bound), or every call would be a statement of its own.
    pub fn made(sql: String) -> Kept {
        Kept { sql: Cow::Owned(sql), binds: Vec::new() }
    }

    /// The value of the next `?`, as SQL type `ST`.
    pub fn bind<ST, V>(mut self, value: V) -> Kept
    where
        ST: 'static,
        MultiBackend: HasSqlType<ST>,
        V: ToSql<ST, MultiBackend> + Send + 'static,
    {
        self.binds.push(Box::new(Value::<ST, V> { value, sql_type: PhantomData }));
        self
    }
}

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kept").field("sql", &self.sql).field("binds", &self.binds.len()).finish()
    }
}

trait Bind: Send {
    fn push<'b>(&'b self, out: &mut AstPass<'_, 'b, MultiBackend>) -> QueryResult<()>;
}

struct Value<ST, V> {
    value: V,
    sql_type: PhantomData<fn() -> ST>,
}

impl<ST, V> Bind for Value<ST, V>
where
    MultiBackend: HasSqlType<ST>,
    V: ToSql<ST, MultiBackend> + Send,
{
    fn push<'b>(&'b self, out: &mut AstPass<'_, 'b, MultiBackend>) -> QueryResult<()> {
        out.push_bind_param::<ST, V>(&self.value)
    }
}

impl QueryFragment<MultiBackend> for Kept {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, MultiBackend>) -> QueryResult<()> {
        // Not `unsafe_to_cache_prepared`: the text is one of a few, so its statement may be kept.
        debug_assert_eq!(self.sql.matches('?').count(), self.binds.len(), "one `?` for each bind: {}", self.sql);
        let mut parts = self.sql.split('?');
        if let Some(first) = parts.next() {
            out.push_sql(first);
        }
        for (bind, part) in self.binds.iter().zip(parts) {
            bind.push(&mut out)?;
            out.push_sql(part);
        }
        Ok(())
    }
}

impl QueryId for Kept {
    type QueryId = ();
    // Found by its text.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl Query for Kept {
    type SqlType = Untyped;
}

impl<Conn> diesel::RunQueryDsl<Conn> for Kept {}
