//! A condition written in SQL whose text never changes: `?` stands for each of its BIGINT
//! binds. Diesel's own `sql()` fragments must be assumed to vary, so a statement holding one is
//! prepared (on PostgreSQL, planned) anew on every call; a statement holding a [`Fixed`] keeps
//! its prepared statement, found by its text, like one built from the query DSL.
//!
//! ```ignore
//! posts::table.filter(Fixed::new("posts.id IN (SELECT ... WHERE l.listener_id = ?)", [viewer.get()]))
//! ```

use diesel::backend::Backend;
use diesel::expression::{AppearsOnTable, Expression, SelectableExpression, ValidGrouping, is_aggregate};
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::result::QueryResult;
use diesel::serialize::ToSql;
use diesel::sql_types::{BigInt, Bool};

#[derive(Debug, Clone)]
pub struct Fixed<const N: usize> {
    sql: std::borrow::Cow<'static, str>,
    binds: [i64; N],
}

impl<const N: usize> Fixed<N> {
    /// `sql` must hold exactly `N` question marks, one for each bind, and no other.
    pub fn new(sql: &'static str, binds: [i64; N]) -> Self {
        debug_assert_eq!(sql.matches('?').count(), N, "one `?` for each bind: {sql}");
        Fixed { sql: sql.into(), binds }
    }

    /// [`Fixed::new`] with text made at run time: it must be one of a few texts (a number
    /// written in that is one of a few), or every call would be a statement of its own.
    pub fn made(sql: String, binds: [i64; N]) -> Self {
        debug_assert_eq!(sql.matches('?').count(), N, "one `?` for each bind: {sql}");
        Fixed { sql: sql.into(), binds }
    }
}

impl<const N: usize> Expression for Fixed<N> {
    type SqlType = Bool;
}

impl<const N: usize, QS> AppearsOnTable<QS> for Fixed<N> {}
impl<const N: usize, QS> SelectableExpression<QS> for Fixed<N> {}

impl<const N: usize> ValidGrouping<()> for Fixed<N> {
    type IsAggregate = is_aggregate::Never;
}

impl<const N: usize> QueryId for Fixed<N> {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<const N: usize, DB> QueryFragment<DB> for Fixed<N>
where
    DB: Backend,
    i64: ToSql<BigInt, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        // Not `unsafe_to_cache_prepared`: the text is fixed, so its statement may be kept.
        let mut parts = self.sql.split('?');
        out.push_sql("(");
        if let Some(first) = parts.next() {
            out.push_sql(first);
        }
        for (bind, part) in self.binds.iter().zip(parts) {
            out.push_bind_param::<BigInt, i64>(bind)?;
            out.push_sql(part);
        }
        out.push_sql(")");
        Ok(())
    }
}

/// `column IN (?, ?, …)` over `ids`, with the list padded (by repeating its last id, which
/// changes nothing) to one of a few widths: Diesel's `eq_any` writes one `?` per value on
/// SQLite, so every length is a statement of its own, never kept prepared; here a page's list
/// is one of [`WIDTHS`] (then multiples of 100) long, and each width is prepared once.
pub fn one_of<C>(column: C, ids: impl IntoIterator<Item = i64>) -> OneOf<C> {
    let mut ids: Vec<i64> = ids.into_iter().collect();
    let width = WIDTHS.iter().copied().find(|&w| w >= ids.len()).unwrap_or(ids.len().div_ceil(100) * 100);
    if let Some(&last) = ids.last() {
        ids.resize(width, last);
    }
    OneOf { column, ids }
}

/// The lengths an [`one_of`] list is padded to.
const WIDTHS: [usize; 6] = [1, 2, 5, 10, 20, 50];

#[derive(Debug, Clone)]
pub struct OneOf<C> {
    column: C,
    ids: Vec<i64>,
}

impl<C> Expression for OneOf<C> {
    type SqlType = Bool;
}

impl<C: AppearsOnTable<QS>, QS> AppearsOnTable<QS> for OneOf<C> {}
impl<C: SelectableExpression<QS>, QS> SelectableExpression<QS> for OneOf<C> {}

impl<C: ValidGrouping<()>> ValidGrouping<()> for OneOf<C> {
    type IsAggregate = C::IsAggregate;
}

impl<C> QueryId for OneOf<C> {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<C, DB> QueryFragment<DB> for OneOf<C>
where
    DB: Backend,
    C: QueryFragment<DB>,
    i64: ToSql<BigInt, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        if self.ids.is_empty() {
            // Nothing is one of no ids.
            out.push_sql("1 = 0");
            return Ok(());
        }
        self.column.walk_ast(out.reborrow())?;
        out.push_sql(" IN (");
        for (i, id) in self.ids.iter().enumerate() {
            if i > 0 {
                out.push_sql(", ");
            }
            out.push_bind_param::<BigInt, i64>(id)?;
        }
        out.push_sql(")");
        Ok(())
    }
}

/// `query LIMIT n` with `n` written into the statement's text rather than bound. PostgreSQL
/// plans a kept (prepared) statement once, generically, only when that plan costs no more than
/// one made for the values at hand; with the limit a parameter it must guess how many rows are
/// wanted (a tenth of the table), prices the generic plan far above a ten-row walk and so plans
/// the statement anew on every call. With the limit in the text the generic plan is the walk.
/// One statement is kept per limit asked for (1 to 50). For PostgreSQL only: SQLite does not
/// plan by values (it is built with QPSG, .cargo/config.toml), and its `OFFSET` needs a
/// `LIMIT` before it.
pub fn limit_in_text<Q>(query: Q, limit: i64) -> LimitInText<Q> {
    LimitInText { query, limit: format!(" LIMIT {}", limit.max(0)) }
}

#[derive(Debug, Clone)]
pub struct LimitInText<Q> {
    query: Q,
    limit: String,
}

impl<Q: diesel::query_builder::Query> diesel::query_builder::Query for LimitInText<Q> {
    type SqlType = Q::SqlType;
}

impl<Q> QueryId for LimitInText<Q> {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<Q, DB> QueryFragment<DB> for LimitInText<Q>
where
    DB: Backend,
    Q: QueryFragment<DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        self.query.walk_ast(out.reborrow())?;
        out.push_sql(&self.limit);
        Ok(())
    }
}

impl<Q, Conn> diesel::RunQueryDsl<Conn> for LimitInText<Q> {}
