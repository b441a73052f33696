//! Tags (issue 31): `#words` in a post's caption and a song's lyrics, each a link to the page of
//! the newest posts with that tag.
//!
//! A tag is `#` at the start of the text or after anything but a letter, digit or `_` (so the
//! chord `C#m` is no tag), then letters, digits and `_`, at least one a letter (`#1` is a
//! number), at most [`LONGEST_TAG`] characters. It is found whatever its case and accents:
//! `#Café`, `#CAFE` and `#cafe` are the tag `cafe` (Unicode's decomposition, its combining marks
//! left out, then lower case). A post has at most [`MOST_TAGS`], the first it names.
//!
//! `post_tags (tag, post_id)` holds them with the post's author, written with the post and again
//! by an edit, gone with the post by cascade. A tag's page walks that key newest first with the
//! block and suspension rule on the author beside it, then reads the page's posts as search
//! results are read: a fixed handful of statements however many posts carry the tag.

use db::diesel::prelude::*;
use db::schema::{backfills, post_lyrics, post_tags, posts};
use db::{Db, DbConnection, Keyset};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use values::{PostId, UserId};

use crate::PostError;
use crate::kinds::lyrics::LyricsRow;
use crate::memory::Memory;
use crate::model::{Lyrics, Post};

/// The most characters of one tag (more are not a tag).
pub const LONGEST_TAG: usize = 50;

/// The most tags of one post: the first it names.
pub const MOST_TAGS: usize = 10;

fn is_tag_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `raw` (without its `#`) as the tag it is: decomposed, without combining marks, lower case.
/// None when it is not a tag (empty, too long, no letter, or a character a tag may not hold).
pub fn normalize(raw: &str) -> Option<String> {
    let tag: String = raw.nfkd().filter(|c| !is_combining_mark(*c)).flat_map(char::to_lowercase).collect();
    let fits = !tag.is_empty() && tag.chars().count() <= LONGEST_TAG;
    (fits && tag.chars().all(is_tag_char) && tag.chars().any(char::is_alphabetic)).then_some(tag)
}

/// The tags `texts` name, normalised, each once, in the order first named, at most [`MOST_TAGS`].
pub fn tags_in<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for text in texts {
        let mut before: Option<char> = None;
        for (i, c) in text.char_indices() {
            let starts = c == '#' && !before.is_some_and(is_tag_char);
            before = Some(c);
            if !starts {
                continue;
            }
            let rest = &text[i + 1..];
            let end = rest.find(|c: char| !is_tag_char(c)).unwrap_or(rest.len());
            if let Some(tag) = normalize(&rest[..end])
                && !found.contains(&tag)
            {
                found.push(tag);
                if found.len() == MOST_TAGS {
                    return found;
                }
            }
        }
    }
    found
}

/// Writes post `post`'s tags (by `author`): its genre's, if it has one (`crate::genre`), then
/// those `texts` name, at most [`MOST_TAGS`], replacing those it had, inside the caller's
/// transaction: one statement, and one for each tag.
pub(crate) fn write<'a>(
    conn: &mut DbConnection,
    post: PostId,
    author: UserId,
    genre: Option<&str>,
    texts: impl IntoIterator<Item = &'a str>,
) -> QueryResult<()> {
    diesel::delete(post_tags::table.filter(post_tags::post_id.eq(post))).execute(conn)?;
    let mut tags: Vec<String> = genre.map(crate::genre::tag).into_iter().collect();
    for tag in tags_in(texts) {
        if !tags.contains(&tag) && tags.len() < MOST_TAGS {
            tags.push(tag);
        }
    }
    // One row a statement (a statement of many rows is not written for both backends at once).
    for tag in tags {
        diesel::insert_into(post_tags::table)
            .values((post_tags::tag.eq(tag), post_tags::post_id.eq(post), post_tags::user_id.eq(author)))
            .execute(conn)?;
    }
    Ok(())
}

/// The `backfills` row of the posts written before tags existed.
const BACKFILL: &str = "post_tags";
/// Posts a backfill transaction reads (a few milliseconds of the writer each).
const BACKFILL_BATCH: i64 = 2_000;

/// Writes the tags of the posts written before `post_tags` existed (migration 23 leaves this
/// to the application: SQL cannot normalise a tag as [`normalize`] does). It walks every post in
/// id order, [`BACKFILL_BATCH`] a transaction, writing the tags of those that name any, and
/// keeps how far it got in `backfills`, whose row goes when it is done: run at every start, it
/// does nothing once done, and resumes where a process that died half-way left off. Processes
/// starting together share the walk: each batch moves the mark only from where it read it, so a
/// batch another process took first is not written twice. Answers how many posts got tags.
pub fn backfill(db: &Db) -> Result<u64, PostError> {
    let mut tagged = 0;
    while let Some(n) = db.write_blocking(backfill_batch)? {
        tagged += n;
    }
    Ok(tagged)
}

/// One batch of [`backfill`]: None when there is nothing left to do.
fn backfill_batch(conn: &mut DbConnection) -> Result<Option<u64>, PostError> {
    let mark: Option<i64> = backfills::table.find(BACKFILL).select(backfills::after_id).first(conn).optional()?;
    let Some(after) = mark else { return Ok(None) };
    let rows: Vec<(PostId, UserId, Option<String>, Option<String>)> = posts::table
        .filter(posts::id.gt(after))
        .order(posts::id)
        .select((posts::id, posts::user_id, posts::genre, posts::caption))
        .limit(BACKFILL_BATCH)
        .load(conn)?;
    let Some(&(last, ..)) = rows.last().filter(|_| rows.len() as i64 == BACKFILL_BATCH) else {
        // The last batch: the row goes with it (if another process has not taken it first).
        let gone =
            diesel::delete(backfills::table.filter(backfills::name.eq(BACKFILL).and(backfills::after_id.eq(after))))
                .execute(conn)?;
        return Ok(Some(if gone == 1 { write_found(conn, &rows)? } else { 0 }));
    };
    let moved =
        diesel::update(backfills::table.filter(backfills::name.eq(BACKFILL).and(backfills::after_id.eq(after))))
            .set(backfills::after_id.eq(last.get()))
            .execute(conn)?;
    Ok(Some(if moved == 1 { write_found(conn, &rows)? } else { 0 }))
}

/// The tags of `rows` (posts with their author, genre and caption), with their lyrics' words.
fn write_found(conn: &mut DbConnection, rows: &[(PostId, UserId, Option<String>, Option<String>)]) -> QueryResult<u64> {
    let ids: Vec<i64> = rows.iter().map(|r| r.0.get()).collect();
    let songs: Vec<LyricsRow> =
        post_lyrics::table.filter(db::one_of(post_lyrics::post_id, ids)).select(LyricsRow::as_select()).load(conn)?;
    let songs: std::collections::HashMap<PostId, Lyrics> =
        songs.into_iter().map(|r| (r.post_id, Lyrics::from(r))).collect();
    let mut tagged = 0;
    for (id, author, genre, caption) in rows {
        let song = songs.get(id);
        let texts = || caption.as_deref().into_iter().chain(song.into_iter().flat_map(Lyrics::words));
        // Nothing to write for a post that names no tag: it has no rows to replace either (a
        // genre, the other source of tags, came after tags did and was always written with them).
        if genre.is_none() && tags_in(texts()).is_empty() {
            continue;
        }
        write(conn, *id, *author, genre.as_deref(), texts())?;
        tagged += 1;
    }
    Ok(tagged)
}

/// The newest posts with `tag` older than the cursor, as `viewer` may see them: the walk of
/// `post_tags (tag, post_id)` with the block and suspension rule, then the posts, from `memory`
/// where it holds them (else a statement, and one per kind of payload not held).
pub(crate) fn page(
    conn: &mut DbConnection,
    tag: &str,
    page: Keyset<PostId>,
    viewer: Option<UserId>,
    memory: Option<&Memory>,
) -> QueryResult<Vec<Post>> {
    let Some(tag) = normalize(tag) else { return Ok(Vec::new()) };
    let mut q = post_tags::table.filter(post_tags::tag.eq(tag)).select(post_tags::post_id).into_boxed();
    q = social_graph::visibility::shown_to(q, post_tags::user_id, viewer);
    if let Some(before) = page.before {
        q = q.filter(post_tags::post_id.lt(before));
    }
    let ids: Vec<PostId> = q.order(post_tags::post_id.desc()).limit(page.limit).load(conn)?;
    crate::feed::these_held(conn, &ids, viewer, memory)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_words_after_a_hash_whatever_their_case_and_accents() {
        assert_eq!(tags_in(["New #Jazz tune, #café-style! #CAFE #jazz"]), ["jazz", "cafe"]);
        assert_eq!(
            tags_in(["#Dvořák #ÅngströM #naïve #東京 #lo_fi"]),
            ["dvorak", "angstrom", "naive", "東京", "lo_fi"]
        );
        // A chord, a number, an address, a lone hash and an empty one are no tags.
        assert_eq!(tags_in(["in C#m and F#, track #1, a#b, # , ##"]), Vec::<String>::new());
        assert_eq!(tags_in(["(#folk) #2024mix"]), ["folk", "2024mix"]);
        // Across texts, each once, in the order first named.
        assert_eq!(tags_in(["#verse", "la #Chorus la", "#verse"]), ["verse", "chorus"]);
    }

    #[test]
    fn a_post_has_at_most_ten_tags_of_at_most_fifty_characters() {
        let many: String = (0..15).map(|i| format!("#t{i} ")).collect();
        assert_eq!(tags_in([many.as_str()]).len(), MOST_TAGS);
        let long = format!("#{}", "a".repeat(LONGEST_TAG + 1));
        assert_eq!(tags_in([long.as_str()]), Vec::<String>::new());
        let fits = format!("#{}", "a".repeat(LONGEST_TAG));
        assert_eq!(tags_in([fits.as_str()]).len(), 1);
        assert_eq!(normalize("Café"), Some("cafe".to_owned()));
        assert_eq!(normalize("no spaces"), None);
        assert_eq!(normalize("123"), None);
    }
}
