//! Why a post was found (issue 34): the words of a search marked where a post has them, in
//! its title, artist or composer, or in the line of its lyrics, caption or sung words that has
//! the most of them. A search result shows it above the post.
//!
//! Words are compared as the index compares them: runs of letters and digits, decomposed,
//! without combining marks, lower case; the last word of a search (perhaps still being typed)
//! matches the words it starts, by its first six letters when it is longer (as
//! [`super::SearchText`] asks the index).

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use values::PostId;

use super::SearchText;
use crate::model::{Payload, Post};

/// The most fields a post's snippet shows (the first that add words not yet marked).
const MOST_FIELDS: usize = 3;
/// The most characters of a line of lyrics, a caption or sung words shown around its words.
const LONGEST_LINE: usize = 120;

/// Where in a post words were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Title,
    Artist,
    Composer,
    Lyrics,
    Caption,
    /// The words a score sets (`post_scores.sung`).
    Sung,
}

impl Field {
    pub fn as_str(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::Artist => "artist",
            Field::Composer => "composer",
            Field::Lyrics => "lyrics",
            Field::Caption => "caption",
            Field::Sung => "sung",
        }
    }
}

/// Some text of a post, in pieces that alternate between text and a word of the search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    pub field: Field,
    /// Each piece with whether it is a word of the search.
    pub pieces: Pieces,
}

/// The words of a search, as they are compared.
struct Words {
    whole: Vec<String>,
    /// The last word's start, when it is matched by it.
    start: Option<String>,
    /// The last word as typed, when it is matched by its start.
    typed: Option<String>,
}

impl Words {
    fn of(text: &SearchText) -> Words {
        let folded: Vec<String> = text.words.iter().map(|w| fold(w)).collect();
        let start = text.prefix().map(|p| fold(&p));
        let typed = start.as_ref().and(folded.last().cloned());
        let whole = if start.is_some() { folded[..folded.len() - 1].to_vec() } else { folded };
        Words { whole, start, typed }
    }

    /// The words as `texts` are marked by: the last by all of it as typed when some word there
    /// starts so ("christenleut" marks "Christenleut'", not "Christus" beside it), else by the
    /// start the index matched.
    fn marking(mut self, texts: &[(Field, &str)]) -> Words {
        let Some(typed) = self.typed.clone() else { return self };
        let narrower = Words { whole: Vec::new(), start: Some(typed.clone()), typed: None };
        if texts.iter().any(|(_, body)| !hits(&narrower, body).is_empty()) {
            self.start = Some(typed);
        }
        self
    }

    fn count(&self) -> usize {
        self.whole.len() + usize::from(self.start.is_some())
    }

    /// Which of the words (by index; the start last) `word` (folded) is.
    fn which(&self, word: &str) -> Option<usize> {
        self.whole
            .iter()
            .position(|w| w == word)
            .or_else(|| self.start.as_ref().filter(|s| word.starts_with(s.as_str())).map(|_| self.whole.len()))
    }
}

/// A word of a text that is a word of the search: where it starts and ends (bytes), and which
/// word of the search it is.
type Hit = (usize, usize, usize);
/// Text in pieces, each with whether it is a word of the search.
pub type Pieces = Vec<(String, bool)>;

/// A word as the index compares it.
fn fold(word: &str) -> String {
    let mut folded = String::with_capacity(word.len());
    for c in word.nfkd().filter(|c| !is_combining_mark(*c)).flat_map(char::to_lowercase) {
        // Letters no decomposition takes apart, which the index's folding (PostgreSQL's
        // `unaccent`, FTS5's `remove_diacritics 2`) still reads as their plain letters.
        match c {
            'ł' => folded.push('l'),
            'ø' => folded.push('o'),
            'đ' | 'ð' => folded.push('d'),
            'ħ' => folded.push('h'),
            'ı' => folded.push('i'),
            'æ' => folded.push_str("ae"),
            'œ' => folded.push_str("oe"),
            'ß' => folded.push_str("ss"),
            'þ' => folded.push_str("th"),
            other => folded.push(other),
        }
    }
    folded
}

/// The words of `text` with where each is (byte ranges) and which word of the search it is.
fn hits(words: &Words, text: &str) -> Vec<Hit> {
    let mut found = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        // A combining mark belongs to its letter (a title in decomposed form, as macOS names files).
        match (c.is_alphanumeric() || is_combining_mark(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                if let Some(w) = words.which(&fold(&text[s..i])) {
                    found.push((s, i, w));
                }
                start = None;
            }
            _ => {}
        }
    }
    found
}

/// `text[from..to]` in pieces, its hits marked; "…" before and after it when `cut`.
fn pieces(text: &str, (from, to): (usize, usize), cut: (bool, bool), hits: &[Hit]) -> Vec<(String, bool)> {
    let mut out: Pieces = Vec::new();
    let mut at = from;
    let mut push = |piece: String, hit: bool| match out.last_mut() {
        Some((last, false)) if !hit => last.push_str(&piece),
        _ if !piece.is_empty() => out.push((piece, hit)),
        _ => {}
    };
    if cut.0 {
        push("…".to_owned(), false);
    }
    for &(s, e, _) in hits.iter().filter(|(s, e, _)| *s >= from && *e <= to) {
        push(text[at..s].to_owned(), false);
        push(text[s..e].to_owned(), true);
        at = e;
    }
    push(text[at..to].to_owned(), false);
    if cut.1 {
        push("…".to_owned(), false);
    }
    out
}

/// The line of `text` with the most of the words that `shown` does not have, then the most
/// words (the first such), cut to about [`LONGEST_LINE`] characters around its first hit; and
/// which words it has.
fn best_line(words: &Words, text: &str, shown: &[bool]) -> Option<(Pieces, Vec<bool>)> {
    // (new words, words), where the line starts and ends, its hits.
    type Line = ((usize, usize), usize, usize, Vec<Hit>);
    let mut best: Option<Line> = None;
    let mut offset = 0;
    for line in text.split('\n') {
        let found = hits(words, line);
        let has = distinct(words, &found);
        let new = has.iter().zip(shown).filter(|(h, s)| **h && !**s).count();
        let distinct = (new, has.iter().filter(|h| **h).count());
        if distinct.1 > 0 && best.as_ref().is_none_or(|(n, ..)| distinct > *n) {
            let shifted = found.iter().map(|(s, e, w)| (s + offset, e + offset, *w)).collect();
            best = Some((distinct, offset, offset + line.len(), shifted));
        }
        offset += line.len() + 1;
    }
    let (_, line_start, line_end, found) = best?;
    let line = &text[line_start..line_end];
    let lead = line.len() - line.trim_start().len();
    let (start, end) = (line_start + lead, line_start + line.trim_end().len());
    let (mut from, mut to) = (start, end);
    if text[from..to].chars().count() > LONGEST_LINE {
        // A few words before the first hit, then as much as fits.
        // Around the first word not shown yet (else the first), so the cut line adds it.
        let first =
            found.iter().find(|h| !shown.get(h.2).copied().unwrap_or(false)).or(found.first()).map_or(from, |h| h.0);
        let lead_in = &text[from..first];
        let starts: Vec<usize> = lead_in
            .char_indices()
            .filter(|(i, c)| !c.is_whitespace() && lead_in[..*i].ends_with(char::is_whitespace))
            .map(|(i, _)| from + i)
            .collect();
        from = starts.iter().rev().nth(3).copied().unwrap_or(from);
        to = text[from..to].char_indices().nth(LONGEST_LINE).map_or(to, |(i, _)| from + i);
        // End at a word's end.
        if to < end
            && let Some(space) = text[from..to].rfind(' ')
            && space > 0
        {
            to = from + space;
        }
    }
    let marked = distinct(words, &found.iter().copied().filter(|h| h.0 >= from && h.1 <= to).collect::<Vec<_>>());
    Some((pieces(text, (from, to), (from > start, to < end), &found), marked))
}

/// Which of the words `found` has.
fn distinct(words: &Words, found: &[Hit]) -> Vec<bool> {
    let mut has = vec![false; words.count()];
    for (_, _, w) in found {
        has[*w] = true;
    }
    has
}

/// The texts of `post` a snippet may come from, names first; `sung`, the words its scores set.
fn texts<'a>(post: &'a Post, sung: &'a [String]) -> Vec<(Field, &'a str)> {
    let mut texts = Vec::new();
    match &*post.payload {
        Payload::Audio(tracks) => {
            for t in tracks {
                texts.extend([(Field::Title, t.title.as_str()), (Field::Artist, t.artist.as_str())]);
            }
        }
        Payload::Scores(scores) => {
            for s in scores {
                texts.extend([(Field::Title, s.title.as_str()), (Field::Composer, s.composer.as_str())]);
            }
        }
        Payload::Lyrics(l) => {
            texts.extend([(Field::Title, l.title.as_str()), (Field::Artist, l.artist.as_str())]);
            texts.extend(l.parts.iter().map(|p| (Field::Lyrics, p.lyrics.as_str())));
        }
        Payload::Media(_) => {}
    }
    texts.extend(post.caption.as_deref().map(|c| (Field::Caption, c)));
    texts.extend(sung.iter().map(|s| (Field::Sung, s.as_str())));
    texts
}

/// Why `post` was found by `text`: at most [`MOST_FIELDS`] snippets, each adding words of the
/// search the ones before did not have (a long text may give more than one line).
pub fn snippets(text: &SearchText, post: &Post, sung: &[String]) -> Vec<Snippet> {
    let texts = texts(post, sung);
    let words = Words::of(text).marking(&texts);
    let mut has = vec![false; words.count()];
    let mut out = Vec::new();
    let mut add = |field: Field, (pieces, marked): (Pieces, Vec<bool>), has: &mut Vec<bool>| {
        let new = marked.iter().zip(has.iter()).any(|(m, h)| *m && !*h);
        if new {
            for (h, m) in has.iter_mut().zip(&marked) {
                *h |= *m;
            }
            out.push(Snippet { field, pieces });
        }
        new
    };
    for (field, body) in texts {
        match field {
            Field::Title | Field::Artist | Field::Composer => {
                let found = hits(&words, body);
                let marked = distinct(&words, &found);
                add(field, (pieces(body, (0, body.len()), (false, false), &found), marked), &mut has);
            }
            _ => {
                while let Some(line) = best_line(&words, body, &has) {
                    if !add(field, line, &mut has) {
                        break;
                    }
                }
            }
        }
        if has.iter().all(|h| *h) {
            break;
        }
    }
    out.truncate(MOST_FIELDS);
    out
}

/// How many of the words of `text` a post's texts have, and how many of them its names have.
fn words_in(words: &Words, post: &Post, sung: &[String]) -> (usize, usize) {
    let (mut all, mut named) = (vec![false; words.count()], vec![false; words.count()]);
    for (field, body) in texts(post, sung) {
        for (_, _, w) in hits(words, body) {
            all[w] = true;
            if matches!(field, Field::Title | Field::Artist | Field::Composer) {
                named[w] = true;
            }
        }
    }
    let count = |has: &[bool]| has.iter().filter(|h| **h).count();
    (count(&all), count(&named))
}

/// Whether `post`'s own texts (without the words its scores set) have every word of `text`:
/// when not, and it is a score, its sung words are read to tell why it was found.
pub fn needs_sung(text: &SearchText, post: &Post) -> bool {
    let words = Words::of(text);
    matches!(&*post.payload, Payload::Scores(_)) && words_in(&words, post, &[]).0 < words.count()
}

/// Posts in the order a search with only some of its words shows them: most words first, then
/// those that name more of them, then the newest.
pub fn rank(text: &SearchText, posts: Vec<Post>, sung: &HashMap<PostId, Vec<String>>) -> Vec<Post> {
    let words = Words::of(text);
    let none = Vec::new();
    let mut scored: Vec<((usize, usize), Post)> =
        posts.into_iter().map(|p| (words_in(&words, &p, sung.get(&p.id).unwrap_or(&none)), p)).collect();
    scored.sort_by(|(a, p), (b, q)| b.cmp(a).then(q.id.cmp(&p.id)));
    scored.into_iter().map(|(_, p)| p).collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn marked(pieces: &[(String, bool)]) -> String {
        pieces.iter().map(|(t, hit)| if *hit { format!("[{t}]") } else { t.clone() }).collect()
    }

    #[test]
    fn words_are_marked_as_the_index_finds_them() {
        let words = Words::of(&SearchText::parse("dvorak symph").unwrap());
        let text = "Dvořák: Symphony No. 9";
        let found = hits(&words, text);
        assert_eq!(marked(&pieces(text, (0, text.len()), (false, false), &found)), "[Dvořák]: [Symphony] No. 9");
        // The last word by its first six letters; the others whole.
        let words = Words::of(&SearchText::parse("river beethoven").unwrap());
        let text = "Rivers of Beethovenian joy";
        assert_eq!(marked(&pieces(text, (0, 26), (false, false), &hits(&words, text))), "Rivers of [Beethovenian] joy");
    }

    #[test]
    fn letters_fold_as_the_index_folds_them() {
        let words = Words::of(&SearchText::parse("lodz aeolian").unwrap());
        let text = "Łódź and the Æolian harp";
        assert_eq!(hits(&words, text).len(), 2);
        // A title in decomposed form (combining marks after their letters) is one word.
        let decomposed = "Dvor\u{030C}a\u{0301}k";
        let words = Words::of(&SearchText::parse("dvorak").unwrap());
        assert_eq!(hits(&words, decomposed), vec![(0, decomposed.len(), 0)]);
    }

    #[test]
    fn a_long_line_is_cut_around_a_word_not_shown_yet() {
        let words = Words::of(&SearchText::parse("london premiere").unwrap());
        let line = format!("London {} premiere tonight", "la ".repeat(60));
        let shown = vec![true, false];
        let (pieces, has) = best_line(&words, &line, &shown).unwrap();
        assert!(has[1], "{}", marked(&pieces));
        assert!(marked(&pieces).contains("[premiere]"));
    }

    #[test]
    fn the_last_word_marks_by_all_of_it_where_it_can() {
        let text = SearchText::parse("christenleut").unwrap();
        let words = Words::of(&text);
        let sung = "Wir Christenleut' haben jetzund Freud, weil uns zu Trost ist Christus Mensch geboren";
        let narrowed = Words::of(&text).marking(&[(Field::Sung, sung)]);
        assert_eq!(hits(&words, sung).len(), 2, "the index's start matches both");
        assert_eq!(hits(&narrowed, sung).len(), 1);
        // Only "Christus": marked by the start the index found it by.
        let other = "Christus ist erstanden";
        assert_eq!(hits(&Words::of(&text).marking(&[(Field::Sung, other)]), other).len(), 1);
    }

    #[test]
    fn the_line_with_most_words_is_shown_cut_around_them() {
        let words = Words::of(&SearchText::parse("carry me home where the river goes").unwrap());
        let song = "Lights on the harbour\nCarry me home, where the river goes\nHome again";
        let none = vec![false; words.count()];
        let (pieces, has) = best_line(&words, song, &none).unwrap();
        assert_eq!(marked(&pieces), "[Carry] [me] [home], [where] [the] [river] [goes]");
        assert!(has.iter().all(|h| *h));
        let long = format!("{}carry me home {}", "la ".repeat(60), "la ".repeat(60));
        let (pieces, _) = best_line(&words, &long, &none).unwrap();
        let shown = marked(&pieces);
        assert!(shown.starts_with("…la la la la [carry] [me] [home]"), "{shown}");
        assert!(shown.ends_with("la…"), "{shown}");
        assert!(shown.chars().count() < LONGEST_LINE + 20, "{shown}");
    }
}
