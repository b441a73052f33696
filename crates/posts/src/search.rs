//! Finding music (issue 20): posts whose titles, artists, composers, lyrics or caption match
//! what a person typed, best matches first.
//!
//! **The index.** Each post has one entry in `posts_search`, its key the post's id, written in
//! the transaction that writes the post ([`index`], from `repo::insert_post`), written again in
//! the one that edits it (`edit::edit_post`) and removed in the one that deletes it
//! ([`unindex`]; on PostgreSQL by cascade). An entry has two parts ranked apart: the names of
//! what the post holds (titles, artists, composers) and what it says (lyrics, caption). SQLite
//! keeps them in an FTS5 table (tokenizer `unicode61 remove_diacritics 2`, prefix indexes of 2
//! and 3 characters), PostgreSQL as a `tsvector` (configuration `simple`, names weighted A, words
//! B, accents folded by `unaccent`) under a GIN index. The document of a post is the same SQL
//! the migration filled the index with ([`DOCUMENT_SQLITE`], [`DOCUMENT_POSTGRES`]).
//!
//! **A query** is the words of the text (letters and digits), each matched as a word or the
//! start of one (`beeth` finds Beethoven), all of them required; accents and case never
//! matter.
//!
//! **Ranking, bounded.** The newest [`WINDOW`] posts that match (and that the viewer may see:
//! the block and suspension rules of every list) are read newest first, one index walk, with
//! their score (SQLite's BM25, PostgreSQL's `ts_rank`; names count more than words); they are
//! ranked by score, and the pages go through that ranking. Past it come older matches, newest
//! first. So a rare query is ranked whole, and a word found in a hundred thousand posts costs
//! what a page of a thousand does: the best of the recent ones first, the rest after them.
//! Pages follow `before={id}`, the last post of the page before: in the ranking, or past it.
//! A page costs a fixed number of statements: the window, older matches when the ranking runs
//! out, the posts with their authors, and one per kind of payload.

use db::diesel::prelude::*;
use db::diesel::query_builder::{AstPass, QueryFragment, QueryId};
use db::diesel::sql_types::{BigInt, Bool, Double, Text};
use db::schema::{posts, posts_search};
use db::{DbConnection, Kept, MultiBackend, PageRule};
use social_graph::fragments;
use values::{PostId, PostKind, UserId};

/// Search results: 10 a page by default (as the feeds), at most 50.
pub const SEARCH_PAGE: PageRule = PageRule::new(10, 50);

/// How many of the newest matches are ranked by score.
pub const WINDOW: i64 = 500;

/// The most words of a query that count (the rest are left out), and the most characters of
/// one word.
const MOST_WORDS: usize = 8;
const LONGEST_WORD: usize = 40;

/// A post's document on SQLite, for the post bound to `?` (the migration's backfill is this
/// SELECT over every post).
const DOCUMENT_SQLITE: &str = "INSERT INTO posts_search (rowid, names, words) \
     SELECT p.id, \
       concat_ws(' ', \
         (SELECT group_concat(a.title || ' ' || a.artist, ' ') FROM post_audio a WHERE a.post_id = p.id), \
         (SELECT group_concat(s.title || ' ' || s.composer, ' ') FROM post_scores s WHERE s.post_id = p.id), \
         (SELECT l.title || ' ' || l.artist FROM post_lyrics l WHERE l.post_id = p.id)), \
       concat_ws(' ', p.caption, \
         (SELECT group_concat(json_extract(j.value, '$.lyrics'), ' ') \
          FROM post_lyrics l, json_each(l.parts) j WHERE l.post_id = p.id)) \
     FROM posts p";

/// A post's document on PostgreSQL (as [`DOCUMENT_SQLITE`]), written or written again.
const DOCUMENT_POSTGRES: &str = "INSERT INTO posts_search (rowid, document) \
     SELECT d.id, \
       setweight(to_tsvector('simple', unaccent(coalesce(d.names, ''))), 'A') \
       || setweight(to_tsvector('simple', unaccent(coalesce(d.words, ''))), 'B') \
     FROM ( \
       SELECT p.id, \
         concat_ws(' ', \
           (SELECT string_agg(a.title || ' ' || a.artist, ' ') FROM post_audio a WHERE a.post_id = p.id), \
           (SELECT string_agg(s.title || ' ' || s.composer, ' ') FROM post_scores s WHERE s.post_id = p.id), \
           (SELECT l.title || ' ' || l.artist FROM post_lyrics l WHERE l.post_id = p.id)) AS names, \
         concat_ws(' ', p.caption, \
           (SELECT string_agg(j ->> 'lyrics', ' ') \
            FROM post_lyrics l, jsonb_array_elements(l.parts::jsonb) j WHERE l.post_id = p.id)) AS words \
       FROM posts p";

/// Writes post `id`'s entry (or writes it again after an edit), inside the caller's
/// transaction.
pub(crate) fn index(conn: &mut DbConnection, id: PostId) -> QueryResult<()> {
    match conn {
        DbConnection::Sqlite(_) => {
            Kept::new("DELETE FROM posts_search WHERE rowid = ?").bind::<BigInt, _>(id).execute(conn)?;
            Kept::new(index_one_sqlite()).bind::<BigInt, _>(id).execute(conn)?;
        }
        DbConnection::Postgres(_) => {
            Kept::new(index_one_postgres()).bind::<BigInt, _>(id).execute(conn)?;
        }
    }
    Ok(())
}

/// [`DOCUMENT_SQLITE`] for one post: one text, so its statement is kept prepared.
fn index_one_sqlite() -> &'static str {
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SQL.get_or_init(|| format!("{DOCUMENT_SQLITE} WHERE p.id = ?"))
}

/// [`DOCUMENT_POSTGRES`] for one post, written or written again.
fn index_one_postgres() -> &'static str {
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SQL.get_or_init(|| {
        format!("{DOCUMENT_POSTGRES} WHERE p.id = ?) d ON CONFLICT (rowid) DO UPDATE SET document = excluded.document")
    })
}

/// Writes the entry of every post that has none (posts written past the application: the
/// seeder's rows). One statement.
pub fn index_missing(conn: &mut DbConnection) -> QueryResult<usize> {
    match conn {
        DbConnection::Sqlite(_) => {
            // A contentless FTS5 table cannot say which rowids it holds cheaply; its
            // `posts_search_docsize` shadow table does.
            let sql = format!("{DOCUMENT_SQLITE} WHERE p.id NOT IN (SELECT id FROM posts_search_docsize)");
            db::diesel::sql_query(sql).execute(conn)
        }
        DbConnection::Postgres(_) => {
            let sql = format!(
                "{DOCUMENT_POSTGRES} WHERE NOT EXISTS (SELECT 1 FROM posts_search s WHERE s.rowid = p.id)) d"
            );
            db::diesel::sql_query(sql).execute(conn)
        }
    }
}

/// Removes the entries of deleted posts, inside the deleting transaction (PostgreSQL's go
/// with their posts by cascade).
pub(crate) fn unindex(conn: &mut DbConnection, ids: &[PostId]) -> QueryResult<()> {
    if matches!(conn, DbConnection::Sqlite(_)) {
        for id in ids {
            Kept::new("DELETE FROM posts_search WHERE rowid = ?").bind::<BigInt, _>(*id).execute(conn)?;
        }
    }
    Ok(())
}

/// What a person typed, as the words it is matched by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchText {
    words: Vec<String>,
}

impl SearchText {
    /// The words of `text` (runs of letters and digits, lowercased), at most [`MOST_WORDS`];
    /// none when it has none (nothing is then found, without asking the database).
    pub fn parse(text: &str) -> Option<SearchText> {
        let words: Vec<String> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| w.chars().take(LONGEST_WORD).collect::<String>().to_lowercase())
            .take(MOST_WORDS)
            .collect();
        (!words.is_empty()).then_some(SearchText { words })
    }

    /// FTS5's query: every word quoted, all of them required, each of two characters or more
    /// also as a prefix (`"beeth"*`; a single letter, the `s` of "Beethoven's", only as
    /// itself: as a prefix it would be most of the index). A quoted word is tokenized by the
    /// table's own tokenizer, so accents fold alike.
    fn fts5(&self) -> String {
        let word = |w: &String| if w.chars().count() > 1 { format!("\"{w}\"*") } else { format!("\"{w}\"") };
        self.words.iter().map(word).collect::<Vec<_>>().join(" ")
    }

    /// PostgreSQL's `to_tsquery` text, the same words: `beeth:* & s` (words hold only letters
    /// and digits, so nothing in them is tsquery syntax).
    fn tsquery(&self) -> String {
        let word = |w: &String| if w.chars().count() > 1 { format!("{w}:*") } else { w.clone() };
        self.words.iter().map(word).collect::<Vec<_>>().join(" & ")
    }
}

/// `posts_search` matches the query: FTS5's `MATCH`, or `@@` on PostgreSQL. Fixed text with
/// one bind, so its statement is kept prepared.
#[derive(Debug, Clone)]
struct Matches {
    sqlite: bool,
    query: String,
}

impl db::diesel::Expression for Matches {
    type SqlType = Bool;
}
impl<QS> db::diesel::AppearsOnTable<QS> for Matches {}
impl<QS> db::diesel::SelectableExpression<QS> for Matches {}
impl db::diesel::expression::ValidGrouping<()> for Matches {
    type IsAggregate = db::diesel::expression::is_aggregate::Never;
}
impl QueryId for Matches {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}
impl QueryFragment<MultiBackend> for Matches {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, MultiBackend>) -> QueryResult<()> {
        if self.sqlite {
            out.push_sql("posts_search MATCH ");
        } else {
            out.push_sql("posts_search.document @@ to_tsquery('simple', unaccent(");
        }
        out.push_bind_param::<Text, String>(&self.query)?;
        if !self.sqlite {
            out.push_sql("))");
        }
        Ok(())
    }
}

/// How well a post matches, higher is better: BM25 with names weighing four times words
/// (SQLite; its `bm25` is lower for better), `ts_rank` over the weighted vector (PostgreSQL).
#[derive(Debug, Clone)]
struct Score {
    sqlite: bool,
    query: String,
}

impl db::diesel::Expression for Score {
    type SqlType = Double;
}
impl<QS> db::diesel::AppearsOnTable<QS> for Score {}
impl<QS> db::diesel::SelectableExpression<QS> for Score {}
impl db::diesel::expression::ValidGrouping<()> for Score {
    type IsAggregate = db::diesel::expression::is_aggregate::Never;
}
impl QueryId for Score {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}
impl QueryFragment<MultiBackend> for Score {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, MultiBackend>) -> QueryResult<()> {
        if self.sqlite {
            out.push_sql("-bm25(posts_search, 4.0, 1.0)");
        } else {
            out.push_sql("ts_rank(posts_search.document, to_tsquery('simple', unaccent(");
            out.push_bind_param::<Text, String>(&self.query)?;
            out.push_sql(")))::float8");
        }
        Ok(())
    }
}

/// What a search asks: the words, an optional kind of post, and where the page starts.
#[derive(Debug, Clone)]
pub struct Search {
    pub text: SearchText,
    pub kind: Option<PostKind>,
    /// The last post of the page before.
    pub before: Option<PostId>,
    pub limit: i64,
}

/// The newest `limit` matches older than `older_than` (all when none) that `viewer` may see,
/// newest first, with their scores. One statement: a walk of the index newest first.
fn matches(
    conn: &mut DbConnection,
    search: &Search,
    viewer: Option<UserId>,
    older_than: Option<PostId>,
    limit: i64,
) -> QueryResult<Vec<(PostId, f64)>> {
    let sqlite = matches!(conn, DbConnection::Sqlite(_));
    let query = if sqlite { search.text.fts5() } else { search.text.tsquery() };
    let mut q = posts_search::table
        .inner_join(posts::table.on(posts::id.eq(posts_search::rowid)))
        .filter(Matches { sqlite, query: query.clone() })
        .filter(fragments::not_suspended(posts::user_id))
        .select((posts::id, Score { sqlite, query }))
        .into_boxed();
    if let Some(v) = viewer {
        q = q.filter(fragments::not_blocked(posts::user_id, v));
    }
    if let Some(kind) = search.kind {
        q = q.filter(posts::kind.eq(kind));
    }
    if let Some(before) = older_than {
        q = q.filter(posts_search::rowid.lt(before.get()));
    }
    // The limit in the text (one of two: the window, or a page's rest), so that PostgreSQL
    // plans the statement once (`db::limit_in_text`).
    db::limit_in_text(q.order(posts_search::rowid.desc()), limit).load(conn)
}

/// The ids of a page of `search` for `viewer`, in the order they are shown (see the module).
pub(crate) fn page_ids(conn: &mut DbConnection, search: &Search, viewer: Option<UserId>) -> QueryResult<Vec<PostId>> {
    let limit = search.limit.max(0) as usize;
    if limit == 0 {
        return Ok(Vec::new());
    }
    let window = matches(conn, search, viewer, None, WINDOW)?;
    let complete = (window.len() as i64) < WINDOW;
    let oldest = window.last().map(|(id, _)| *id);
    let mut ranked = window;
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    // Where the page starts: after `before` in the ranking; past the ranking when `before`
    // is older than every post in it. A `before` that is neither (deleted, or hidden since)
    // ends the ranking: nothing is shown twice.
    let (mut ids, older_than): (Vec<PostId>, Option<PostId>) = match search.before {
        None => (ranked.iter().map(|(id, _)| *id).take(limit).collect(), oldest),
        Some(before) => match ranked.iter().position(|(id, _)| *id == before) {
            Some(at) => (ranked[at + 1..].iter().map(|(id, _)| *id).take(limit).collect(), oldest),
            None if oldest.is_some_and(|o| before < o) => (Vec::new(), Some(before)),
            None => (Vec::new(), oldest),
        },
    };
    if ids.len() < limit
        && !complete
        && let Some(older_than) = older_than
    {
        let rest = limit - ids.len();
        ids.extend(matches(conn, search, viewer, Some(older_than), rest as i64)?.into_iter().map(|(id, _)| id));
    }
    Ok(ids)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn words_are_what_is_matched() {
        let t = SearchText::parse("  Beethoven's  Mondschein-Sonate, op.27 ").unwrap();
        assert_eq!(t.words, ["beethoven", "s", "mondschein", "sonate", "op", "27"]);
        assert_eq!(t.fts5(), "\"beethoven\"* \"s\" \"mondschein\"* \"sonate\"* \"op\"* \"27\"*");
        assert_eq!(t.tsquery(), "beethoven:* & s & mondschein:* & sonate:* & op:* & 27:*");
        assert_eq!(SearchText::parse("Dvořák").unwrap().words, ["dvořák"]);
        assert!(SearchText::parse(" '\"*:&|!()<> ").is_none(), "no words, no query");
        let many = SearchText::parse(&"a ".repeat(100)).unwrap();
        assert_eq!(many.words.len(), MOST_WORDS);
        let long = SearchText::parse(&"x".repeat(500)).unwrap();
        assert_eq!(long.words[0].len(), LONGEST_WORD);
    }
}
