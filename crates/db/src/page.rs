//! Paging. Lists answer a page at a time, two ways:
//!
//! - [`Page`]: the spec's `limit`/`offset` (§7: `?limit=10&offset=20`), what clients written
//!   from the spec send. Each list has a [`PageRule`] with its default and its maximum `limit`;
//!   a `limit` outside `1..=max` is clamped, a negative `offset` is 0, and an offset past
//!   [`MAX_OFFSET`] answers an empty page without asking the database to skip that many rows.
//! - [`Keyset`]: `?before=<id>&limit=n`, the cursor feeds use to go deep cheaply. Ids are
//!   time-ordered, so "older than this id, newest first" is `WHERE id < :before ORDER BY id DESC
//!   LIMIT n`, one index range scan however deep the page.

use diesel::ExpressionMethods;
use diesel::expression::{AsExpression, Expression};
use diesel::query_dsl::methods::{FilterDsl, LimitDsl, OffsetDsl, OrderDsl};
use diesel::sql_types::BigInt;

/// The deepest `offset` a list serves; past it a page is empty. Going deeper is what the
/// keyset cursor is for.
pub const MAX_OFFSET: i64 = 10_000;

/// The default and the largest page size of one list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageRule {
    pub default: i64,
    pub max: i64,
}

impl PageRule {
    pub const fn new(default: i64, max: i64) -> PageRule {
        PageRule { default, max }
    }

    /// The page a request's `limit` and `offset` ask for, within this rule.
    pub fn page(self, limit: Option<i64>, offset: Option<i64>) -> Page {
        let offset = offset.unwrap_or(0).max(0);
        if offset > MAX_OFFSET {
            return Page { limit: 0, offset: MAX_OFFSET };
        }
        Page { limit: self.limit(limit), offset }
    }

    /// The keyset page a request's `before` and `limit` ask for, within this rule.
    pub fn keyset<I>(self, before: Option<I>, limit: Option<i64>) -> Keyset<I> {
        Keyset { before, limit: self.limit(limit) }
    }

    fn limit(self, limit: Option<i64>) -> i64 {
        limit.unwrap_or(self.default).clamp(1, self.max.max(1))
    }
}

/// `LIMIT limit OFFSET offset`. A `limit` of 0 is a page past the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page {
    pub limit: i64,
    pub offset: i64,
}

impl Page {
    /// Adds this page's `LIMIT` and `OFFSET` to a query.
    pub fn apply<Q>(self, query: Q) -> <Q::Output as OffsetDsl>::Output
    where
        Q: LimitDsl,
        Q::Output: OffsetDsl,
    {
        query.limit(self.limit).offset(self.offset)
    }
}

/// Rows older than `before` (all rows when `None`), newest first, at most `limit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keyset<I> {
    pub before: Option<I>,
    pub limit: i64,
}

impl<I> Keyset<I> {
    /// Adds `WHERE id < :before ORDER BY id DESC LIMIT n` to a boxed query (a boxed query keeps
    /// its type through each step, which is what lets the filter be optional).
    pub fn apply<Q, C>(self, query: Q, id: C) -> Q
    where
        C: ExpressionMethods + Expression<SqlType = BigInt> + Copy,
        I: AsExpression<BigInt>,
        Q: FilterDsl<diesel::dsl::Lt<C, I>, Output = Q>
            + OrderDsl<diesel::dsl::Desc<C>, Output = Q>
            + LimitDsl<Output = Q>,
    {
        let query = match self.before {
            Some(before) => query.filter(id.lt(before)),
            None => query,
        };
        query.order(id.desc()).limit(self.limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEED: PageRule = PageRule::new(10, 50);

    #[test]
    fn limits_are_clamped_to_the_rule() {
        assert_eq!(FEED.page(None, None), Page { limit: 10, offset: 0 });
        assert_eq!(FEED.page(Some(500), Some(20)), Page { limit: 50, offset: 20 });
        assert_eq!(FEED.page(Some(0), Some(-5)), Page { limit: 1, offset: 0 });
        assert_eq!(FEED.page(Some(-3), None).limit, 1);
    }

    #[test]
    fn offsets_past_the_deepest_page_are_empty() {
        assert_eq!(FEED.page(Some(10), Some(MAX_OFFSET)).limit, 10);
        assert_eq!(FEED.page(Some(10), Some(MAX_OFFSET + 1)).limit, 0);
        assert_eq!(FEED.page(Some(10), Some(i64::MAX)), Page { limit: 0, offset: MAX_OFFSET });
    }

    #[test]
    fn keyset_limits_follow_the_rule_too() {
        assert_eq!(FEED.keyset(Some(7_i64), Some(1000)), Keyset { before: Some(7), limit: 50 });
        assert_eq!(FEED.keyset::<i64>(None, None), Keyset { before: None, limit: 10 });
    }
}
