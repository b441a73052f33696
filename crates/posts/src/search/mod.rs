//! Finding music (issue 20): posts whose titles, artists, composers, lyrics or caption match
//! what a person typed, best matches first.
//!
//! **The index.** Each post has one entry in `posts_search`, its key the post's id, written in
//! the transaction that writes the post ([`index`], from `repo::insert_post`), written again in
//! the one that edits it (`edit::edit_post`) and removed in the one that deletes it
//! ([`unindex`]; on PostgreSQL by cascade). An entry has two parts: the names of what the post
//! holds (titles, artists, composers) and what it says (lyrics, caption). SQLite keeps them in an
//! FTS5 table (tokenizer `unicode61 remove_diacritics 2`, prefix indexes of 2 to 6 characters),
//! PostgreSQL as a `tsvector` (configuration `simple`, names weighted A, words B, accents folded by
//! `unaccent`) under a GIN index. The document of a post is the same SQL
//! the migration filled the index with ([`DOCUMENT_SQLITE`], [`DOCUMENT_POSTGRES`]).
//!
//! **A query** is the words of the text (letters and digits), all of them required, accents and
//! case aside; every word but the last is a whole word, and the last (still being typed, perhaps)
//! is the start of one (`moonlight sona` finds Moonlight Sonata), by its first six letters when
//! it is longer (`beethoven` finds what `beetho` does).
//!
//! **Ranking, bounded by the index.** Posts that name the words (titles, artists, composers)
//! come first, then the other matches (lyrics, captions); each of the two newest first. Both are
//! walks of the full-text index newest first that stop after a page, so a word found in a hundred
//! thousand posts costs what a rare one does. Pages follow `before={id}`, the last post of the
//! page before: a probe tells which of the two it was in, and the page goes on from there. A page
//! costs a fixed number of statements: that probe, the walk (and the next group's when the first
//! runs out), the posts with their authors, and one per kind of payload.

mod snippets;

pub use snippets::{Field, Snippet, needs_sung, snippets};

use db::diesel::prelude::*;
use db::diesel::query_builder::{AstPass, QueryFragment, QueryId};
use db::diesel::sql_types::{BigInt, Bool, Text};
use db::schema::{post_scores, posts, posts_search};
use db::{DbConnection, Kept, MultiBackend, PageRule};
use std::collections::HashMap;

use crate::error::PostError;
use social_graph::visibility;
use values::{PostId, PostKind, UserId};

/// Search results: 10 a page by default (as the feeds), at most 50.
pub const SEARCH_PAGE: PageRule = PageRule::new(10, 50);

/// The most words of a query that count (the rest are left out), and the most characters of
/// one word.
const MOST_WORDS: usize = 8;
const LONGEST_WORD: usize = 40;

/// The longest start of a word that is looked up as one (the migration's longest prefix index).
const LONGEST_PREFIX: usize = 6;

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
          FROM post_lyrics l, json_each(l.parts) j WHERE l.post_id = p.id), \
         (SELECT group_concat(s.sung, ' ') FROM post_scores s WHERE s.post_id = p.id)) \
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
            FROM post_lyrics l, jsonb_array_elements(l.parts::jsonb) j WHERE l.post_id = p.id), \
           (SELECT string_agg(s.sung, ' ') FROM post_scores s WHERE s.post_id = p.id)) AS words \
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
            let sql =
                format!("{DOCUMENT_POSTGRES} WHERE NOT EXISTS (SELECT 1 FROM posts_search s WHERE s.rowid = p.id)) d");
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
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
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

    /// The last word as the start of a word, when it is one (two characters or more): its
    /// first [`LONGEST_PREFIX`] characters. Prefixes up to that long have an index of their own
    /// (`prefix` in the migration), walked like a word's; a longer one would gather every word
    /// that starts so first (a common word: 40 ms at a million posts, against 3).
    fn prefix(&self) -> Option<String> {
        let last = self.words.last()?;
        (last.chars().count() > 1).then(|| last.chars().take(LONGEST_PREFIX).collect())
    }

    /// The words as FTS5 terms: each quoted (a quoted word is tokenized by the table's own
    /// tokenizer, so accents fold alike), the last as a prefix when it is one.
    fn fts5_terms(&self) -> String {
        self.fts5_joined(" ")
    }

    /// The FTS5 terms joined by `by` (" ": all of them; " OR ": any).
    fn fts5_joined(&self, by: &str) -> String {
        let prefix = self.prefix();
        let last = self.words.len() - 1;
        let term = |(i, w): (usize, &String)| match &prefix {
            Some(p) if i == last => format!("\"{p}\"*"),
            _ => format!("\"{w}\""),
        };
        self.words.iter().enumerate().map(term).collect::<Vec<_>>().join(by)
    }

    /// FTS5's query for `tier`: the words in the names column, or anywhere but not all there;
    /// or any of them anywhere.
    fn fts5(&self, tier: Tier) -> String {
        let terms = self.fts5_terms();
        match tier {
            Tier::Names => format!("{{names}} : ({terms})"),
            Tier::Others => format!("({terms}) NOT ({{names}} : ({terms}))"),
            Tier::Some => self.fts5_joined(" OR "),
        }
    }

    /// How many words it has (at most [`MOST_WORDS`]).
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether it has no words (never: [`SearchText::parse`] makes none then).
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// PostgreSQL's query, as the arguments of the migration's `search_query`: the words
    /// matched whole, space-separated, and the start of a word (or ''). The database unaccents
    /// and quotes them itself (`unaccent` makes syntax of some letters: "ʻ" is "'"), so no
    /// input is tsquery syntax.
    fn pg_words(&self) -> (String, String) {
        match self.prefix() {
            Some(start) => (self.words[..self.words.len() - 1].join(" "), start),
            None => (self.words.join(" "), String::new()),
        }
    }
}

/// The two groups of matches, shown in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tier {
    /// Every word in what the post is called: titles, artists, composers.
    Names,
    /// The other matches: the words in the lyrics or the caption.
    Others,
    /// Any of the words anywhere (when no post has all of them).
    Some,
}

/// `posts_search` matches the query of one tier: FTS5's `MATCH` on SQLite; on PostgreSQL `@@`
/// the names' query, or the whole query and not the names'. Fixed text for each, its query
/// bound, so its statement is kept prepared.
#[derive(Debug, Clone)]
struct Matches {
    sqlite: bool,
    /// PostgreSQL: whether the full-text index may answer it (`@@`), or each row is checked
    /// (`ts_match_vq`, the same test, which no index answers): so a walk by key stays one.
    indexed: bool,
    tier: Tier,
    /// FTS5's query; or PostgreSQL's words matched whole, then the start of a word.
    queries: Vec<String>,
}

impl Matches {
    fn new(conn: &DbConnection, text: &SearchText, tier: Tier) -> Matches {
        match conn {
            DbConnection::Sqlite(_) => Matches { sqlite: true, indexed: true, tier, queries: vec![text.fts5(tier)] },
            DbConnection::Postgres(_) => {
                let (whole, start) = text.pg_words();
                Matches { sqlite: false, indexed: true, tier, queries: vec![whole, start] }
            }
        }
    }

    /// The same test, checked row by row on PostgreSQL (see `indexed`).
    fn row_by_row(self) -> Matches {
        Matches { indexed: false, ..self }
    }
}

impl Matches {
    /// PostgreSQL: `document @@ query`, or the function behind `@@`, which no index answers.
    /// The query is a subquery so that it is made once a statement: written inline, PostgreSQL
    /// made it again for every row it checked, which was most of a walk's cost (a word in no
    /// post, 5,000 posts walked: 13 ms, now 2.6).
    fn pg_match<'b>(
        &self,
        out: &mut AstPass<'_, 'b, MultiBackend>,
        whole: &'b String,
        start: &'b String,
        names: bool,
    ) -> QueryResult<()> {
        out.push_sql(if self.indexed { "posts_search.document @@ " } else { "ts_match_vq(posts_search.document, " });
        out.push_sql(if self.tier == Tier::Some { "(SELECT search_query_any(" } else { "(SELECT search_query(" });
        out.push_bind_param::<Text, String>(whole)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, String>(start)?;
        out.push_sql(match (self.tier, names) {
            (Tier::Some, _) => "))",
            (_, true) => ", true))",
            (_, false) => ", false))",
        });
        if !self.indexed {
            out.push_sql(")");
        }
        Ok(())
    }
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
        match (self.sqlite, self.tier, self.queries.as_slice()) {
            (true, _, [query]) => {
                out.push_sql("posts_search MATCH ");
                out.push_bind_param::<Text, String>(query)?;
            }
            (false, Tier::Names, [whole, start]) => self.pg_match(&mut out, whole, start, true)?,
            (false, Tier::Some, [whole, start]) => self.pg_match(&mut out, whole, start, false)?,
            (false, Tier::Others, [whole, start]) => {
                self.pg_match(&mut out, whole, start, false)?;
                out.push_sql(" AND NOT ");
                self.pg_match(&mut out, whole, start, true)?;
            }
            _ => out.push_sql("1 = 0"),
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

/// The newest `limit` matches of `tier` older than `older_than` (all when none) that `viewer`
/// may see, newest first: a walk of the index newest first, stopped after `limit`.
///
/// On PostgreSQL in two steps, because its planner cannot tell a rare word from a common one
/// when a word is a prefix (it guesses 2% of rows either way), and walked newest first a word
/// in no post reads every row (0.9 s at a million posts): first the 5,000 posts below where the
/// page starts, by key, each row checked (a common word fills the page there: 0.3 ms), then,
/// only if the page is not full, the older ones through the GIN index, sorted. Each statement is
/// written so that only its own plan is possible (the row-by-row test no index answers; `+ 0`
/// keeps the key's index out of the other), so a plan made once for any words holds for all.
///
/// With `since`, only the posts written since a first page was held (`crate::memory`): those
/// from an id on, one walk by key, which they are few enough for; or those named, each looked
/// up by its key.
#[allow(clippy::too_many_arguments)]
fn matches(
    conn: &mut DbConnection,
    search: &Search,
    viewer: Option<UserId>,
    tier: Tier,
    older_than: Option<PostId>,
    since: Since<'_>,
    limit: i64,
    known: &KnownFloor<'_>,
) -> QueryResult<Vec<PostId>> {
    let postgres = matches!(conn, DbConnection::Postgres(_));
    let query = |matching: Matches| {
        let q = posts_search::table
            .inner_join(posts::table.on(posts::id.eq(posts_search::rowid)))
            .filter(matching)
            .select(posts::id)
            .into_boxed();
        let mut q = visibility::shown_to(q, posts::user_id, viewer);
        if let Some(kind) = search.kind {
            q = q.filter(posts::kind.eq(kind));
        }
        q
    };
    let matching = Matches::new(conn, &search.text, tier);
    // On PostgreSQL each post named is looked up by its key and tested; SQLite's full-text
    // table, asked for rowids IN a list, matched first and filtered after (a common word read
    // its whole index), so it walks from the oldest of them up instead, which may find posts
    // beside them too (a caller merging what is new takes each once).
    let since = match since {
        Since::These(ids) if postgres => {
            let new =
                query(matching.row_by_row()).filter(db::one_of(posts_search::rowid, ids.iter().map(|id| id.get())));
            return db::limit_in_text(new.order(posts_search::rowid.desc()), limit).load(conn);
        }
        Since::These(ids) => Since::From(ids.iter().map(|id| id.get()).min().unwrap_or(i64::MAX)),
        since => since,
    };
    if !postgres {
        let mut q = query(matching);
        if let Some(before) = older_than {
            q = q.filter(posts_search::rowid.lt(before.get()));
        }
        if let Since::From(since) = since {
            q = q.filter(posts_search::rowid.ge(since));
        }
        return db::limit_in_text(q.order(posts_search::rowid.desc()), limit).load(conn);
    }
    // Where the walk by key ends: the 5,000th post below the start (none: fewer are left, and
    // the walk takes them all). The limits in the text, so that PostgreSQL plans each statement
    // once (`db::limit_in_text`).
    let start = older_than.map_or(i64::MAX, PostId::get);
    let floor: Option<i64> = match (since, known(start)) {
        (Since::From(since), _) => {
            let new = query(matching.row_by_row()).filter(posts_search::rowid.ge(since));
            return db::limit_in_text(new.order(posts_search::rowid.desc()), limit).load(conn);
        }
        (_, Some(floor)) => floor,
        (_, None) => {
            Kept::new(WINDOW_FLOOR).bind::<BigInt, _>(start).get_result::<Floor>(conn).optional()?.map(|f| f.id)
        }
    };
    let recent = query(matching.clone().row_by_row())
        .filter(posts_search::rowid.lt(start))
        .filter(posts_search::rowid.ge(floor.unwrap_or(0)));
    let mut found: Vec<PostId> = db::limit_in_text(recent.order(posts_search::rowid.desc()), limit).load(conn)?;
    let rest = limit - found.len() as i64;
    if let Some(floor) = floor
        && rest > 0
    {
        let older = query(matching).filter((posts_search::rowid + 0_i64).lt(floor));
        found.extend(db::limit_in_text(older.order((posts_search::rowid + 0_i64).desc()), rest).load::<PostId>(conn)?);
    }
    Ok(found)
}

/// The 5,000th post below where a page starts, which PostgreSQL walks by key (checking each
/// row) before it asks the full-text index for the posts below it. 5,000 balances the two at a
/// million posts: a word in fewer than one post in 500 costs about 0.5 µs a post walked (up to
/// 3 ms, since the query is made once a statement), one in more fills the page there, and what
/// goes to the index is then at most ~2,000 matches at a few µs each. Counting from the page's
/// start (not from the newest post) keeps a deep page of a common word as cheap as the first.
/// One index-only walk of the posts' key.
const WINDOW_FLOOR: &str = "SELECT p.id FROM posts p WHERE p.id < ? ORDER BY p.id DESC OFFSET 4999 LIMIT 1";

/// How many posts below a page's start PostgreSQL walks by key ([`WINDOW_FLOOR`]'s offset + 1).
pub(crate) const WINDOW: usize = 5_000;

/// The [`WINDOW`]th post below a start, when memory knows it (the list of the newest posts
/// held reaches that far): `Some(None)` when fewer are left, `None` when memory cannot tell
/// and [`WINDOW_FLOOR`] asks the database (a fifth of the PostgreSQL time of music search).
pub(crate) type KnownFloor<'a> = dyn Fn(i64) -> Option<Option<i64>> + 'a;

#[derive(QueryableByName)]
struct Floor {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

/// Whether post `id` names the words (the first tier) and `viewer` may see it: one probe of
/// the index by key. A post the viewer may not see goes on among the others whatever it is
/// called, so a page's start tells nothing of a hidden post's names (docs/security.md: a walk
/// of `before={hidden}` letter by letter once spelled a blocked author's title out).
fn names_the_words(
    conn: &mut DbConnection,
    text: &SearchText,
    id: PostId,
    viewer: Option<UserId>,
) -> QueryResult<bool> {
    let q = posts_search::table
        .inner_join(posts::table.on(posts::id.eq(posts_search::rowid)))
        .filter(Matches::new(conn, text, Tier::Names))
        .filter(posts_search::rowid.eq(id.get()))
        .select(posts_search::rowid)
        .into_boxed();
    visibility::shown_to(q, posts::user_id, viewer).first::<i64>(conn).optional().map(|found| found.is_some())
}

/// The longest a search's statements may run on PostgreSQL, together with [`MOST_WORDS`],
/// [`LONGEST_PREFIX`] and the walk's 5,000 posts the bound on one search's work
/// (docs/posts.md, "Finding music": the costliest searches measured, and why the index's step
/// has no tighter bound). SQLite's walks follow its index in order and need none.
pub const SEARCH_TIME_LIMIT_MS: u32 = 500;

/// The ids of a page of `search` for `viewer`, in the order they are shown (see the module);
/// on PostgreSQL within [`SEARCH_TIME_LIMIT_MS`], or [`PostError::SearchTooCostly`].
pub(crate) fn page_ids(
    conn: &mut DbConnection,
    search: &Search,
    viewer: Option<UserId>,
    known: &KnownFloor<'_>,
) -> Result<Vec<PostId>, PostError> {
    bounded(conn, |c| page_ids_unbounded(c, search, viewer, known))
}

/// A page of `search` as `viewer` sees it, as the database answers it (nothing remembered):
/// what [`crate::Posts::search_on`] answers from memory when it can.
pub fn page(conn: &mut DbConnection, search: &Search, viewer: Option<UserId>) -> Result<Vec<crate::Post>, PostError> {
    let ids = page_ids(conn, search, viewer, &|_| None)?;
    Ok(crate::feed::these(conn, &ids, viewer, None)?)
}

/// Which posts a first page is found among.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Since<'a> {
    /// Every post.
    Ever,
    /// The posts from this id on (made since a moment before a page held was read).
    From(i64),
    /// These posts (written since a page held was read, as their stamps tell), and on SQLite
    /// perhaps others made since the oldest of them.
    These(&'a [PostId]),
}

/// A first page of `search` (its `before` is not looked at) as a guest sees it, each post with
/// its group: what memory holds of a search (`crate::memory`), among the posts `since` says.
/// On PostgreSQL within [`SEARCH_TIME_LIMIT_MS`].
pub(crate) fn first_page(
    conn: &mut DbConnection,
    search: &Search,
    since: Since<'_>,
    known: &KnownFloor<'_>,
) -> Result<Vec<(PostId, Tier)>, PostError> {
    bounded(conn, |c| {
        let limit = search.limit.max(0);
        let mut found = Vec::new();
        // Pictures and videos have no names (as `page_ids_unbounded`).
        for tier in [Tier::Names, Tier::Others] {
            let rest = limit - found.len() as i64;
            if rest <= 0 || (tier == Tier::Names && search.kind == Some(PostKind::Media)) {
                continue;
            }
            let ids = matches(c, search, None, tier, None, since, rest, known)?;
            found.extend(ids.into_iter().map(|id| (id, tier)));
        }
        Ok(found)
    })
}

/// `run` within [`SEARCH_TIME_LIMIT_MS`] on PostgreSQL ([`PostError::SearchTooCostly`] past
/// it); as it is on SQLite.
fn bounded<T>(conn: &mut DbConnection, run: impl FnOnce(&mut DbConnection) -> QueryResult<T>) -> Result<T, PostError> {
    if matches!(conn, DbConnection::Sqlite(_)) {
        return Ok(run(conn)?);
    }
    use db::diesel::connection::SimpleConnection;
    conn.batch_execute(&format!("SET statement_timeout = {SEARCH_TIME_LIMIT_MS}"))?;
    let found = run(conn);
    conn.batch_execute("RESET statement_timeout")?;
    found.map_err(|e| match e {
        db::diesel::result::Error::DatabaseError(_, info) if info.message().contains("statement timeout") => {
            PostError::SearchTooCostly
        }
        other => other.into(),
    })
}

fn page_ids_unbounded(
    conn: &mut DbConnection,
    search: &Search,
    viewer: Option<UserId>,
    known: &KnownFloor<'_>,
) -> QueryResult<Vec<PostId>> {
    let limit = search.limit.max(0);
    if limit == 0 {
        return Ok(Vec::new());
    }
    // Where the page starts: after `before` in the tier it is in (a post that matches nothing
    // any more, deleted or edited since, or that the viewer may not see, goes on among the
    // others, older than it). Pictures and videos have no names: their search starts among the
    // others (asking the index for names none of them has read every post that has the words).
    let (start, older_than) = match search.before {
        _ if search.kind == Some(PostKind::Media) => (Tier::Others, search.before),
        None => (Tier::Names, None),
        Some(before) if names_the_words(conn, &search.text, before, viewer)? => (Tier::Names, Some(before)),
        Some(before) => (Tier::Others, Some(before)),
    };
    let mut ids = Vec::new();
    if start == Tier::Names {
        ids = matches(conn, search, viewer, Tier::Names, older_than, Since::Ever, limit, known)?;
    }
    let rest = limit - ids.len() as i64;
    if rest > 0 {
        let from = if start == Tier::Others { older_than } else { None };
        ids.extend(matches(conn, search, viewer, Tier::Others, from, Since::Ever, rest, known)?);
    }
    Ok(ids)
}

/// The most posts a search with only some of its words ranks: the newest that have any of
/// them (one walk of the index, as a page's), so a fallback costs what a page does.
pub const SOME_WORDS_RANKED: i64 = 100;

/// A page of a search, with why each post was found.
#[derive(Debug, Clone, Default)]
pub struct Found {
    pub posts: Vec<crate::Post>,
    /// False when no post has every word, and these have some of them (best first).
    pub every_word: bool,
    /// The words the scores on the page set, by post, where they tell why it was found.
    pub sung: HashMap<PostId, Vec<String>>,
}

/// A page of `search` when no post has all of its words: among the [`SOME_WORDS_RANKED`]
/// newest posts that have any, those with the most words first (`snippets::rank`); the page
/// after `before` in that order. On PostgreSQL within [`SEARCH_TIME_LIMIT_MS`].
pub(crate) fn some_words_page(
    conn: &mut DbConnection,
    search: &Search,
    viewer: Option<UserId>,
    known: &KnownFloor<'_>,
    memory: Option<&crate::memory::Memory>,
) -> Result<Found, PostError> {
    bounded(conn, |c| {
        let ids = matches(c, search, viewer, Tier::Some, None, Since::Ever, SOME_WORDS_RANKED, known)?;
        let posts = crate::feed::these_held(c, &ids, viewer, memory)?;
        let sung = sung_words(c, posts.iter().filter(|p| needs_sung(&search.text, p)).map(|p| p.id))?;
        let ranked = snippets::rank(&search.text, posts, &sung);
        let from = search.before.map_or(0, |b| ranked.iter().position(|p| p.id == b).map_or(ranked.len(), |i| i + 1));
        let posts: Vec<crate::Post> = ranked.into_iter().skip(from).take(search.limit.max(0) as usize).collect();
        Ok(Found { posts, every_word: false, sung })
    })
}

/// Whether a post `viewer` may see has every word of `search` (of its kind).
pub(crate) fn has_every_word(
    conn: &mut DbConnection,
    search: &Search,
    viewer: Option<UserId>,
    known: &KnownFloor<'_>,
) -> Result<bool, PostError> {
    let first = Search { before: None, limit: 1, ..search.clone() };
    Ok(!page_ids(conn, &first, viewer, known)?.is_empty())
}

/// The words the scores of posts `ids` set, by post, each score's in order: one statement.
pub(crate) fn sung_words(
    conn: &mut DbConnection,
    ids: impl IntoIterator<Item = PostId>,
) -> QueryResult<HashMap<PostId, Vec<String>>> {
    let ids: Vec<i64> = ids.into_iter().map(PostId::get).collect();
    let mut by_post: HashMap<PostId, Vec<String>> = HashMap::new();
    if ids.is_empty() {
        return Ok(by_post);
    }
    let rows: Vec<(PostId, String)> = post_scores::table
        .filter(db::one_of(post_scores::post_id, ids))
        .filter(post_scores::sung.ne(""))
        .order((post_scores::post_id, post_scores::position))
        .select((post_scores::post_id, post_scores::sung))
        .load(conn)?;
    for (id, sung) in rows {
        by_post.entry(id).or_default().push(sung);
    }
    Ok(by_post)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn words_are_what_is_matched() {
        let t = SearchText::parse("  Beethoven's  Mondschein-Sonate, op.27 ").unwrap();
        assert_eq!(t.words, ["beethoven", "s", "mondschein", "sonate", "op", "27"]);
        assert_eq!(t.fts5_terms(), "\"beethoven\" \"s\" \"mondschein\" \"sonate\" \"op\" \"27\"*");
        assert_eq!(t.fts5(Tier::Others), format!("({}) NOT ({{names}} : ({}))", t.fts5_terms(), t.fts5_terms()));
        assert_eq!(t.pg_words(), ("beethoven s mondschein sonate op".to_owned(), "27".to_owned()));
        let long = SearchText::parse("Moonlight Beethoven").unwrap();
        assert_eq!(long.fts5_terms(), "\"moonlight\" \"beetho\"*");
        assert_eq!(long.pg_words(), ("moonlight".to_owned(), "beetho".to_owned()));
        let one_letter = SearchText::parse("a").unwrap();
        assert_eq!(one_letter.fts5_terms(), "\"a\"");
        assert_eq!(one_letter.pg_words(), ("a".to_owned(), String::new()));
        assert_eq!(SearchText::parse("Dvořák").unwrap().words, ["dvořák"]);
        assert!(SearchText::parse(" '\"*:&|!()<> ").is_none(), "no words, no query");
        let many = SearchText::parse(&"a ".repeat(100)).unwrap();
        assert_eq!(many.words.len(), MOST_WORDS);
        let long = SearchText::parse(&"x".repeat(500)).unwrap();
        assert_eq!(long.words[0].len(), LONGEST_WORD);
    }
}
