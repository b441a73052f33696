//! Sheet music: MusicXML (`.musicxml`, `.xml`) and compressed MusicXML (`.mxl`, a zip).
//!
//! XML is read by a streaming parser (quick-xml) that never processes a DTD: the DOCTYPE every
//! real MusicXML file carries is skipped (its external DTD is never fetched), an internal
//! subset declaring entities is refused, and so is any reference to an entity but the five
//! predefined ones and numeric character references — no billion laughs, no external entities.
//! The document must be well-formed with exactly one root, `score-partwise` or
//! `score-timewise`, nested at most [`limits::XML_MAX_DEPTH`] deep.
//!
//! Archives are read with every bound checked while reading, because zip headers lie: the
//! entry count, each entry's and the total unpacked size (counted on the bytes that really come
//! out), names that would leave the folder they are unpacked in, and encryption. Every entry is
//! unpacked once (into nothing) so an archive stored for others to download is known to be sound.

use std::borrow::Cow;
use std::io::{Read, Seek};

use quick_xml::events::{BytesStart, Event};
use quick_xml::reader::Reader;

use crate::{MediaError, limits};

/// Which of the two MusicXML forms a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreFormat {
    /// Plain XML (`.musicxml`, `.xml`).
    Xml,
    /// A zip archive (`.mxl`).
    Mxl,
}

/// What a score says about itself.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScoreFacts {
    /// `work/work-title`, else `movement-title`.
    pub title: Option<String>,
    /// `identification/creator[@type="composer"]`.
    pub composer: Option<String>,
    /// The words sung (`note/lyric/text`, syllables joined into words by `syllabic`), one line
    /// per verse of each part, a verse that another part sings word for word once; at most
    /// [`MAX_SUNG_CHARS`] characters in all. None for a score without words.
    pub sung: Option<String>,
}

/// The most characters of sung words kept (what search indexes of a score's lyrics).
pub const MAX_SUNG_CHARS: usize = 4_000;

/// The most bytes of one `<lyric>` read (a syllable is a few; the rest of a longer one is left).
const LYRIC_MAX_BYTES: usize = 4 * MAX_SUNG_CHARS;

/// Appends what of `more` fits in `limit` bytes of `buffer`, cut at a character's boundary.
fn push_within(buffer: &mut String, more: &str, limit: usize) {
    let room = limit.saturating_sub(buffer.len());
    let mut end = room.min(more.len());
    while !more.is_char_boundary(end) {
        end -= 1;
    }
    buffer.push_str(&more[..end]);
}

/// Longest title or composer kept, in characters (longer text is cut).
const MAX_LABEL_CHARS: usize = 300;
/// Largest `META-INF/container.xml` read (real ones are a few hundred bytes).
const CONTAINER_MAX_BYTES: u64 = 64 * 1024;

// --- Sniffing --------------------------------------------------------------------------------

/// Whether the first bytes look like a MusicXML file or an `.mxl` archive. XML is recognised
/// by its prolog and root (through a UTF-8 or UTF-16 byte-order mark), so HTML, SVG or other
/// XML is refused here, before the upload is stored; a prolog longer than the head is given the
/// benefit of the doubt, [`parse_musicxml`] decides.
pub fn sniff_score(head: &[u8]) -> Option<ScoreFormat> {
    if head.starts_with(b"PK\x03\x04") {
        return Some(ScoreFormat::Mxl);
    }
    let text = match utf16_order(head) {
        // A head may be cut within a character: lossily.
        Some(big_endian) => Cow::Owned(
            char::decode_utf16(utf16_units(head, big_endian))
                .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
                .collect::<String>()
                .into_bytes(),
        ),
        None => Cow::Borrowed(head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head)),
    };
    let mut rest: &[u8] = &text;
    let mut prolog = false;
    loop {
        rest = rest.trim_ascii_start();
        if rest.is_empty() {
            // Only a prolog so far (nothing at all is no score).
            return prolog.then_some(ScoreFormat::Xml);
        }
        prolog = true;
        let skip_past =
            |rest: &[u8], end: &[u8]| rest.windows(end.len()).position(|w| w == end).map(|at| at + end.len());
        if rest.starts_with(b"<?") {
            match skip_past(rest, b"?>") {
                Some(at) => rest = &rest[at..],
                None => return Some(ScoreFormat::Xml),
            }
        } else if rest.starts_with(b"<!--") {
            match skip_past(rest, b"-->") {
                Some(at) => rest = &rest[at..],
                None => return Some(ScoreFormat::Xml),
            }
        } else if let Some(doctype) = rest.strip_prefix(b"<!DOCTYPE") {
            return is_score_root(doctype.trim_ascii_start()).then_some(ScoreFormat::Xml);
        } else if let Some(element) = rest.strip_prefix(b"<") {
            return is_score_root(element).then_some(ScoreFormat::Xml);
        } else {
            return None;
        }
    }
}

/// Whether `name…` starts with a MusicXML root element name, as a whole name.
fn is_score_root(name: &[u8]) -> bool {
    [&b"score-partwise"[..], b"score-timewise"].iter().any(|root| {
        name.strip_prefix(*root)
            .is_some_and(|after| after.first().is_none_or(|c| c.is_ascii_whitespace() || b"/>[".contains(c)))
    })
}

/// Some(big-endian?) when the bytes are UTF-16: by byte-order mark, or by `<` and `?` or `!`
/// as 16-bit units.
fn utf16_order(bytes: &[u8]) -> Option<bool> {
    match bytes.get(0..4)? {
        [0xFF, 0xFE, ..] | [b'<', 0, b'?' | b'!', 0] => Some(false),
        [0xFE, 0xFF, ..] | [0, b'<', 0, b'?' | b'!'] => Some(true),
        _ => None,
    }
}

/// The 16-bit units of UTF-16 text, without its byte-order mark (an odd last byte is ignored).
fn utf16_units(bytes: &[u8], big_endian: bool) -> impl Iterator<Item = u16> + '_ {
    let units = bytes
        .chunks_exact(2)
        .map(move |p| if big_endian { u16::from_be_bytes([p[0], p[1]]) } else { u16::from_le_bytes([p[0], p[1]]) });
    units.skip_while(|u| *u == 0xFEFF)
}

/// The document as UTF-8 (UTF-16 transcoded, a UTF-8 byte-order mark dropped).
fn as_utf8(bytes: &[u8]) -> Result<Cow<'_, [u8]>, MediaError> {
    match utf16_order(bytes) {
        Some(big_endian) => {
            if !bytes.len().is_multiple_of(2) {
                return Err(MediaError::Malformed);
            }
            let text: Result<String, _> = char::decode_utf16(utf16_units(bytes, big_endian)).collect();
            Ok(Cow::Owned(text.map_err(|_| MediaError::Malformed)?.into_bytes()))
        }
        None => Ok(Cow::Borrowed(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))),
    }
}

// --- Safe XML walking ------------------------------------------------------------------------

/// What a document's reader wants from the walk.
trait Visitor {
    /// An element opens at `depth` (1 for the root). An error stops the walk.
    fn start(&mut self, depth: usize, element: &BytesStart<'_>) -> Result<(), MediaError>;
    fn end(&mut self, depth: usize);
    /// Whether the next text would be used (to convert only what is).
    fn wants_text(&self) -> bool;
    fn text(&mut self, text: &str);
}

/// Walks a document with the rules of the module comment, calling `visitor`. Errors before the
/// root element opened mean the bytes are no such document (`NotMusicXml`); after, that they
/// are a damaged one (`Malformed`).
fn walk(bytes: &[u8], visitor: &mut impl Visitor) -> Result<(), MediaError> {
    let text = as_utf8(bytes)?;
    let mut reader = Reader::from_reader(&text[..]);
    reader.config_mut().check_comments = true;
    let mut depth = 0usize;
    let mut root_seen = false;
    let mut doctype_seen = false;
    let mut latin1 = false;
    loop {
        let damaged = if root_seen { MediaError::Malformed } else { MediaError::NotMusicXml };
        let event = reader.read_event().map_err(|_| damaged.clone())?;
        match event {
            Event::Decl(decl) => {
                if root_seen {
                    return Err(damaged);
                }
                // Without a transcoder, ISO-8859-1 (Latin-1) text is read byte for byte; any
                // other declared single-byte encoding is read as UTF-8, lossily.
                latin1 = decl.encoding().and_then(Result::ok).is_some_and(|e| {
                    let e = e.to_ascii_lowercase();
                    matches!(&e[..], b"iso-8859-1" | b"iso8859-1" | b"latin1" | b"latin-1" | b"l1")
                });
            }
            Event::DocType(doctype) => {
                if root_seen || doctype_seen {
                    return Err(damaged);
                }
                doctype_seen = true;
                // The internal subset, between [ and ]: no entity declarations in it.
                let content: &[u8] = &doctype;
                if let Some(subset) = content.iter().position(|b| *b == b'[').map(|at| &content[at..])
                    && subset.windows(8).any(|w| w == b"<!ENTITY")
                {
                    return Err(MediaError::XmlEntity);
                }
            }
            Event::PI(_) | Event::Comment(_) => {}
            Event::Start(_) | Event::Empty(_) if root_seen && depth == 0 => {
                return Err(MediaError::Malformed); // a second root
            }
            Event::Start(element) => {
                depth += 1;
                if depth > limits::XML_MAX_DEPTH {
                    return Err(MediaError::XmlTooDeep { max_depth: limits::XML_MAX_DEPTH });
                }
                // The name first: a root with the right name and bad attributes is a damaged
                // score, not something else.
                visitor.start(depth, &element)?;
                root_seen = true;
                check_attributes(&element)?;
            }
            Event::Empty(element) => {
                if depth + 1 > limits::XML_MAX_DEPTH {
                    return Err(MediaError::XmlTooDeep { max_depth: limits::XML_MAX_DEPTH });
                }
                visitor.start(depth + 1, &element)?;
                root_seen = true;
                check_attributes(&element)?;
                visitor.end(depth + 1);
            }
            Event::End(_) => {
                visitor.end(depth);
                depth = depth.checked_sub(1).ok_or(damaged)?;
            }
            Event::Text(content) => {
                if depth == 0 {
                    if !content.iter().all(u8::is_ascii_whitespace) {
                        return Err(damaged);
                    }
                } else if visitor.wants_text() {
                    visitor.text(&decode_text(&content, latin1));
                }
            }
            Event::CData(content) => {
                if depth == 0 {
                    return Err(damaged);
                }
                if visitor.wants_text() {
                    visitor.text(&decode_text(&content, latin1));
                }
            }
            Event::GeneralRef(reference) => {
                if depth == 0 {
                    return Err(damaged);
                }
                let resolved = resolve_reference(&reference)?;
                if visitor.wants_text() {
                    visitor.text(resolved.encode_utf8(&mut [0; 4]));
                }
            }
            Event::Eof => {
                return match (root_seen, depth) {
                    (false, _) => Err(MediaError::NotMusicXml),
                    (true, 0) => Ok(()),
                    (true, _) => Err(MediaError::Malformed),
                };
            }
        }
    }
}

fn decode_text(raw: &[u8], latin1: bool) -> String {
    if latin1 { raw.iter().copied().map(char::from).collect() } else { String::from_utf8_lossy(raw).into_owned() }
}

/// The character a reference stands for: `lt`, `gt`, `amp`, `apos`, `quot`, or `#N` / `#xN`
/// naming a character XML allows. Any other name is an entity: refused.
fn resolve_reference(name: &[u8]) -> Result<char, MediaError> {
    let c = match name {
        b"lt" => '<',
        b"gt" => '>',
        b"amp" => '&',
        b"apos" => '\'',
        b"quot" => '"',
        [b'#', b'x', hex @ ..] => char_from(hex, 16)?,
        [b'#', decimal @ ..] => char_from(decimal, 10)?,
        _ => return Err(MediaError::XmlEntity),
    };
    Ok(c)
}

fn char_from(digits: &[u8], radix: u32) -> Result<char, MediaError> {
    let digits = std::str::from_utf8(digits).map_err(|_| MediaError::Malformed)?;
    if digits.is_empty() || digits.len() > 8 || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(MediaError::Malformed);
    }
    let code = u32::from_str_radix(digits, radix).map_err(|_| MediaError::Malformed)?;
    let allowed = matches!(code, 0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF);
    char::from_u32(code).filter(|_| allowed).ok_or(MediaError::Malformed)
}

/// An attribute value with its references resolved (checked as in text).
fn unescape_value(raw: &[u8]) -> Result<Cow<'_, [u8]>, MediaError> {
    if !raw.contains(&b'&') {
        if raw.contains(&b'<') {
            return Err(MediaError::Malformed);
        }
        return Ok(Cow::Borrowed(raw));
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.iter().position(|b| *b == b'&' || *b == b'<') {
        if rest[at] == b'<' {
            return Err(MediaError::Malformed);
        }
        out.extend_from_slice(&rest[..at]);
        let after = &rest[at + 1..];
        let end = after.iter().take(16).position(|b| *b == b';').ok_or(MediaError::Malformed)?;
        out.extend_from_slice(resolve_reference(&after[..end])?.encode_utf8(&mut [0; 4]).as_bytes());
        rest = &after[end + 1..];
    }
    out.extend_from_slice(rest);
    Ok(Cow::Owned(out))
}

/// Every attribute well-formed (quoted, not repeated) and with allowed references only, and at
/// most [`limits::XML_MAX_ATTRIBUTES`] of them. Linear: quick-xml's own check for repeated names
/// compares each attribute with every one before it.
fn check_attributes(element: &BytesStart<'_>) -> Result<(), MediaError> {
    let mut names = std::collections::HashSet::new();
    for (n, attribute) in element.attributes().with_checks(false).enumerate() {
        if n >= limits::XML_MAX_ATTRIBUTES {
            return Err(MediaError::XmlTooManyAttributes { max: limits::XML_MAX_ATTRIBUTES });
        }
        let attribute = attribute.map_err(|_| MediaError::Malformed)?;
        if !names.insert(attribute.key.as_ref().to_vec()) {
            return Err(MediaError::Malformed);
        }
        unescape_value(&attribute.value)?;
    }
    Ok(())
}

/// The value of an element's attribute `name` (references resolved), lossily as text.
fn attribute(element: &BytesStart<'_>, name: &[u8]) -> Option<String> {
    element
        .attributes()
        .with_checks(false)
        .take(limits::XML_MAX_ATTRIBUTES)
        .flatten()
        .find(|a| a.key.local_name().as_ref() == name)
        .and_then(|a| unescape_value(&a.value).ok().map(|v| String::from_utf8_lossy(&v).into_owned()))
}

/// Text gathered for a label: whitespace collapsed, length bounded while gathering.
#[derive(Default)]
struct LabelText {
    text: String,
}

impl LabelText {
    fn push(&mut self, more: &str) {
        // Bytes, not characters, bound the buffer: 4 bytes a character at most, plus spaces.
        if self.text.len() < MAX_LABEL_CHARS * 8 {
            self.text.push_str(more);
        }
    }

    fn finish(self) -> Option<String> {
        let cleaned: String = self.text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        let joined = cleaned.split_whitespace().collect::<Vec<_>>().join(" ");
        let bounded: String = joined.chars().take(MAX_LABEL_CHARS).collect();
        let trimmed = bounded.trim_end();
        (!trimmed.is_empty()).then(|| trimmed.to_owned())
    }
}

// --- MusicXML --------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    WorkTitle,
    MovementTitle,
    Composer,
}

#[derive(Default)]
struct ScoreReader {
    /// The names of the root and the two levels under it, where the wanted elements are.
    path: [Vec<u8>; 3],
    gathering: Option<(Field, usize, LabelText)>,
    work_title: Option<String>,
    movement_title: Option<String>,
    composer: Option<String>,
    sung: SungWords,
}

/// The words of a score's `<lyric>` elements as they are read, verse by verse.
#[derive(Default)]
struct SungWords {
    /// Each verse so far: which part and verse (`lyric/@number`) it is, its text, and whether
    /// its last syllable leaves a word open (`begin` or `middle`).
    verses: Vec<(String, String, String, bool)>,
    /// The `id` of the `<part>` being read: a part's verse 1 is not another's (in a timewise
    /// score a part opens again in every measure, under the same id).
    part: String,
    /// The `<lyric>` being read: its depth, number, `syllabic` and text, and whether a
    /// `<syllabic>` or `<text>` under it is being read.
    lyric: Option<Lyric>,
    /// Characters kept in all: reading stops adding past [`MAX_SUNG_CHARS`].
    kept: usize,
}

#[derive(Default)]
struct Lyric {
    depth: usize,
    number: String,
    syllabic: String,
    text: String,
    reading: Option<SungField>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum SungField {
    Syllabic,
    Text,
}

impl SungWords {
    fn start(&mut self, depth: usize, name: &[u8], element: &BytesStart<'_>) {
        match (name, &mut self.lyric) {
            (b"part", None) => self.part = attribute(element, b"id").unwrap_or_default().chars().take(32).collect(),
            (b"lyric", None) => {
                let number = attribute(element, b"number").unwrap_or_default();
                self.lyric = Some(Lyric { depth, number: number.chars().take(8).collect(), ..Lyric::default() });
            }
            (b"syllabic", Some(l)) if depth == l.depth + 1 => l.reading = Some(SungField::Syllabic),
            (b"text", Some(l)) if depth == l.depth + 1 => {
                // An elision's second text is another word.
                if !l.text.is_empty() && l.text.len() < LYRIC_MAX_BYTES {
                    l.text.push(' ');
                }
                l.reading = Some(SungField::Text);
            }
            _ => {}
        }
    }

    fn end(&mut self, depth: usize) {
        let Some(l) = &mut self.lyric else { return };
        if depth == l.depth + 1 {
            l.reading = None;
        } else if depth == l.depth
            && let Some(l) = self.lyric.take()
        {
            self.add(l);
        }
    }

    fn wants_text(&self) -> bool {
        self.lyric.as_ref().is_some_and(|l| l.reading.is_some()) && self.kept < MAX_SUNG_CHARS
    }

    fn text(&mut self, text: &str) {
        let Some(l) = &mut self.lyric else { return };
        match l.reading {
            // Bytes bound the buffers (a syllable is short; a long one is cut when added).
            // Each bounded as it grows: one text event may be as long as the file.
            Some(SungField::Syllabic) => push_within(&mut l.syllabic, text.trim(), 16),
            Some(SungField::Text) => push_within(&mut l.text, text, LYRIC_MAX_BYTES),
            None => {}
        }
    }

    /// Adds a syllable to its verse: after a space, unless the syllable before left its word
    /// open.
    fn add(&mut self, l: Lyric) {
        let syllable: String = l.text.split_whitespace().collect::<Vec<_>>().join(" ");
        // Room for a space before it, always (so the bound holds whichever it gets).
        let room = MAX_SUNG_CHARS.saturating_sub(self.kept + 1);
        let syllable: String = syllable.chars().filter(|c| !c.is_control()).take(room).collect();
        if syllable.is_empty() {
            return;
        }
        let at = match self.verses.iter().position(|(part, number, ..)| *part == self.part && *number == l.number) {
            Some(at) => at,
            None => {
                self.verses.push((self.part.clone(), l.number, String::new(), false));
                self.verses.len() - 1
            }
        };
        let (_, _, verse, open) = &mut self.verses[at];
        let joined = *open && matches!(l.syllabic.as_str(), "middle" | "end");
        if !verse.is_empty() && !joined {
            verse.push(' ');
            self.kept += 1;
        }
        self.kept += syllable.chars().count();
        verse.push_str(&syllable);
        *open = matches!(l.syllabic.as_str(), "begin" | "middle");
    }

    /// The verses, one a line, each once; at most [`MAX_SUNG_CHARS`] characters with the line
    /// breaks.
    fn finish(self) -> Option<String> {
        let mut lines: Vec<String> = Vec::new();
        for (_, _, verse, _) in self.verses {
            if !lines.contains(&verse) {
                lines.push(verse);
            }
        }
        let text: String = lines.join("\n").chars().take(MAX_SUNG_CHARS).collect();
        (!text.is_empty()).then_some(text)
    }
}

impl ScoreReader {
    fn slot(&mut self, field: Field) -> &mut Option<String> {
        match field {
            Field::WorkTitle => &mut self.work_title,
            Field::MovementTitle => &mut self.movement_title,
            Field::Composer => &mut self.composer,
        }
    }
}

impl Visitor for ScoreReader {
    fn start(&mut self, depth: usize, element: &BytesStart<'_>) -> Result<(), MediaError> {
        let name = element.local_name();
        let name = name.as_ref();
        if depth == 1 && !matches!(name, b"score-partwise" | b"score-timewise") {
            return Err(MediaError::NotMusicXml);
        }
        if let Some(slot) = self.path.get_mut(depth - 1) {
            slot.clear();
            slot.extend_from_slice(name);
        }
        self.sung.start(depth, name, element);
        let parent = |level: usize, wanted: &[u8]| self.path.get(level).is_some_and(|p| p == wanted);
        let field = match (depth, name) {
            (3, b"work-title") if parent(1, b"work") => Some(Field::WorkTitle),
            (2, b"movement-title") => Some(Field::MovementTitle),
            (3, b"creator")
                if parent(1, b"identification") && attribute(element, b"type").as_deref() == Some("composer") =>
            {
                Some(Field::Composer)
            }
            _ => None,
        };
        if let Some(field) = field
            && self.gathering.is_none()
            && self.slot(field).is_none()
        {
            self.gathering = Some((field, depth, LabelText::default()));
        }
        Ok(())
    }

    fn end(&mut self, depth: usize) {
        self.sung.end(depth);
        if self.gathering.as_ref().is_some_and(|(_, at, _)| *at == depth)
            && let Some((field, _, text)) = self.gathering.take()
        {
            *self.slot(field) = text.finish();
        }
    }

    fn wants_text(&self) -> bool {
        self.gathering.is_some() || self.sung.wants_text()
    }

    fn text(&mut self, text: &str) {
        if let Some((_, _, gathered)) = &mut self.gathering {
            gathered.push(text);
        }
        if self.sung.wants_text() {
            self.sung.text(text);
        }
    }
}

/// Checks a MusicXML document (see the module comment) and reads its title, composer and the
/// words it sets.
/// The caller bounds its size ([`limits::MUSICXML_MAX_BYTES`]).
pub fn parse_musicxml(bytes: &[u8]) -> Result<ScoreFacts, MediaError> {
    let mut reader = ScoreReader::default();
    walk(bytes, &mut reader)?;
    Ok(ScoreFacts {
        title: reader.work_title.or(reader.movement_title),
        composer: reader.composer,
        sung: reader.sung.finish(),
    })
}

// --- .mxl ------------------------------------------------------------------------------------

/// Reads `META-INF/container.xml`: the path of the first `rootfile`.
#[derive(Default)]
struct ContainerReader {
    root_path: Option<String>,
}

impl Visitor for ContainerReader {
    fn start(&mut self, depth: usize, element: &BytesStart<'_>) -> Result<(), MediaError> {
        let name = element.local_name();
        if depth == 1 && name.as_ref() != b"container" {
            return Err(MediaError::NotMusicXml);
        }
        if name.as_ref() == b"rootfile" && self.root_path.is_none() {
            self.root_path = attribute(element, b"full-path");
        }
        Ok(())
    }

    fn end(&mut self, _depth: usize) {}

    fn wants_text(&self) -> bool {
        false
    }

    fn text(&mut self, _text: &str) {}
}

fn zip_error(e: zip::result::ZipError) -> MediaError {
    match e {
        zip::result::ZipError::UnsupportedArchive(zip::result::ZipError::PASSWORD_REQUIRED)
        | zip::result::ZipError::InvalidPassword => MediaError::EncryptedArchive,
        // Compression methods this build cannot unpack (bzip2, LZMA…), multi-disk archives.
        zip::result::ZipError::UnsupportedArchive(_) => MediaError::UnsupportedType,
        zip::result::ZipError::FileNotFound => MediaError::NotMusicXml,
        _ => MediaError::Malformed,
    }
}

/// Unpacks entry `index` into `sink`, at most `limit` bytes and at most what is left of
/// `budget`, counting what really comes out (the sizes in the headers may lie).
fn unpack<R: Read + Seek>(
    archive: &mut zip::ZipArchive<R>,
    index: usize,
    limit: u64,
    budget: &mut u64,
    sink: &mut impl std::io::Write,
) -> Result<(), MediaError> {
    let entry = archive.by_index(index).map_err(zip_error)?;
    let allowed = limit.min(*budget);
    let copied = std::io::copy(&mut entry.take(allowed + 1), sink).map_err(|_| MediaError::Malformed)?;
    if copied > allowed {
        let max_bytes = if limit <= *budget { limit } else { limits::MXL_MAX_TOTAL_BYTES };
        return Err(MediaError::ArchiveTooLarge { max_bytes });
    }
    *budget -= copied;
    Ok(())
}

/// Checks a compressed MusicXML archive (see the module comment) and reads the title and
/// composer of its score, the file `META-INF/container.xml` names first. The caller bounds the
/// archive's own size.
pub fn parse_mxl(reader: impl Read + Seek) -> Result<ScoreFacts, MediaError> {
    // Opening reads the central directory: memory in proportion to the archive's size, which
    // the caller bounds (each entry takes at least 46 bytes of it).
    let mut archive = zip::ZipArchive::new(reader).map_err(|e| match e {
        zip::result::ZipError::InvalidArchive(_) => MediaError::Malformed,
        other => zip_error(other),
    })?;
    if archive.len() > limits::MXL_MAX_ENTRIES {
        return Err(MediaError::TooManyEntries { max: limits::MXL_MAX_ENTRIES });
    }
    let mut declared = 0u64;
    for index in 0..archive.len() {
        let entry = archive.by_index_raw(index).map_err(zip_error)?;
        if entry.encrypted() {
            return Err(MediaError::EncryptedArchive);
        }
        // `enclosed_name` refuses absolute names and `..` past the top; a backslash is a
        // separator to Windows unzippers, and a symbolic link can point anywhere.
        if entry.enclosed_name().is_none() || entry.name().contains('\\') || entry.is_symlink() {
            return Err(MediaError::UnsafeArchivePath);
        }
        // The declared sizes first: an honest bomb is refused without unpacking anything.
        declared = declared.saturating_add(entry.size());
        if entry.size() > limits::MXL_MAX_ENTRY_BYTES {
            return Err(MediaError::ArchiveTooLarge { max_bytes: limits::MXL_MAX_ENTRY_BYTES });
        }
        if declared > limits::MXL_MAX_TOTAL_BYTES {
            return Err(MediaError::ArchiveTooLarge { max_bytes: limits::MXL_MAX_TOTAL_BYTES });
        }
    }

    let mut budget = limits::MXL_MAX_TOTAL_BYTES;
    let container_index = archive.index_for_name("META-INF/container.xml").ok_or(MediaError::NotMusicXml)?;
    let mut container = Vec::new();
    unpack(&mut archive, container_index, CONTAINER_MAX_BYTES, &mut budget, &mut container).map_err(|e| match e {
        MediaError::ArchiveTooLarge { .. } => MediaError::NotMusicXml, // no real container is that large
        other => other,
    })?;
    let mut paths = ContainerReader::default();
    walk(&container, &mut paths).map_err(|e| match e {
        MediaError::Malformed => MediaError::NotMusicXml,
        other => other,
    })?;
    let root_path = paths.root_path.ok_or(MediaError::NotMusicXml)?;
    let root_path = root_path.strip_prefix("./").unwrap_or(&root_path);
    let score_index = archive.index_for_name(root_path).ok_or(MediaError::NotMusicXml)?;
    let mut score = Vec::new();
    unpack(&mut archive, score_index, limits::MXL_MAX_ENTRY_BYTES, &mut budget, &mut score)?;

    for index in (0..archive.len()).filter(|i| *i != container_index && *i != score_index) {
        unpack(&mut archive, index, limits::MXL_MAX_ENTRY_BYTES, &mut budget, &mut std::io::sink())?;
    }
    parse_musicxml(&score)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCORE: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" "http://www.musicxml.org/dtds/partwise.dtd">
<score-partwise version="4.0">
  <work><work-number>Op. 1</work-number><work-title>Rock &amp; Roll &#x2014; <![CDATA[<live>]]></work-title></work>
  <movement-title>First movement</movement-title>
  <identification>
    <creator type="lyricist">Someone Else</creator>
    <creator type="composer">  Ana
       Lima </creator>
  </identification>
  <part-list><score-part id="P1"><part-name>Piano</part-name></score-part></part-list>
  <part id="P1"><measure number="1"/></part>
</score-partwise>
"#;

    #[test]
    fn title_and_composer_are_read() {
        let facts = parse_musicxml(SCORE.as_bytes());
        assert_eq!(
            facts,
            Ok(ScoreFacts {
                title: Some("Rock & Roll — <live>".into()),
                composer: Some("Ana Lima".into()),
                sung: None
            })
        );
    }

    #[test]
    fn movement_title_when_there_is_no_work_title() {
        let xml = "<score-timewise><movement-title>Adagio</movement-title><work><work-title> </work-title></work></score-timewise>";
        assert_eq!(
            parse_musicxml(xml.as_bytes()),
            Ok(ScoreFacts { title: Some("Adagio".into()), composer: None, sung: None })
        );
        // Elements of the same name elsewhere do not count.
        let xml = "<score-partwise><part><work><work-title>No</work-title></work></part></score-partwise>";
        assert_eq!(parse_musicxml(xml.as_bytes()), Ok(ScoreFacts::default()));
    }

    #[test]
    #[allow(clippy::unwrap_used)]
    fn sung_words_are_read_verse_by_verse() {
        let note = |number: &str, syllabic: &str, text: &str| {
            format!(
                "<note><pitch><step>C</step><octave>4</octave></pitch><duration>1</duration>\
                 <lyric number=\"{number}\"><syllabic>{syllabic}</syllabic><text>{text}</text></lyric></note>"
            )
        };
        let first_verse = [
            note("1", "single", "Carry"),
            note("1", "single", "me"),
            note("1", "begin", "Har"),
            note("1", "end", "bour"),
            note("1", "begin", "ri"),
            note("1", "middle", "ve"),
            note("1", "end", "r&amp;s"),
        ]
        .concat();
        let soprano = format!("{}{first_verse}", note("2", "single", "Hold"));
        // The alto sings the soprano's first verse word for word: it is kept once.
        let alto = &first_verse;
        let xml = format!(
            "<score-partwise><part id=\"S\"><measure number=\"1\">{soprano}</measure></part>\
             <part id=\"A\"><measure number=\"1\">{alto}</measure></part></score-partwise>"
        );
        let facts = parse_musicxml(xml.as_bytes()).unwrap();
        assert_eq!(facts.sung.as_deref(), Some("Hold\nCarry me Harbour river&s"));
        // An elision joins two words in one lyric; a score without words has none.
        let elided = "<score-partwise><part id=\"P\"><measure><note><lyric><text>te</text><elision/><text>et</text></lyric></note></measure></part></score-partwise>";
        assert_eq!(parse_musicxml(elided.as_bytes()).unwrap().sung.as_deref(), Some("te et"));
        assert_eq!(parse_musicxml(SCORE.as_bytes()).unwrap().sung, None);
        // Bounded: a score of endless words keeps MAX_SUNG_CHARS of them.
        let long = format!(
            "<score-partwise><part id=\"P\"><measure>{}</measure></part></score-partwise>",
            note("1", "single", "word").repeat(2_000)
        );
        let sung = parse_musicxml(long.as_bytes()).unwrap().sung.unwrap();
        assert!(sung.chars().count() <= MAX_SUNG_CHARS, "{}", sung.len());
        assert!(sung.chars().count() > MAX_SUNG_CHARS - 10);
        // Thousands of one-letter verses: their line breaks count too.
        let verses: String = (0..5_000).map(|n| note(&n.to_string(), "single", "a")).collect();
        let many = format!("<score-partwise><part id=\"P\"><measure>{verses}</measure></part></score-partwise>");
        let sung = parse_musicxml(many.as_bytes()).unwrap().sung.unwrap();
        assert!(sung.chars().count() <= MAX_SUNG_CHARS, "{}", sung.chars().count());
        // One text as long as the file, and a million empty ones: read within their bounds.
        let huge = format!(
            "<score-partwise><part id=\"P\"><measure><note><lyric><text>{}</text>{}</lyric></note></measure></part></score-partwise>",
            "é".repeat(100_000),
            "<text/>".repeat(200_000)
        );
        let sung = parse_musicxml(huge.as_bytes()).unwrap().sung.unwrap();
        assert!(sung.chars().count() <= MAX_SUNG_CHARS, "{}", sung.chars().count());
    }

    #[test]
    fn utf16_and_latin1_scores() {
        let text = SCORE.replace("UTF-8", "UTF-16");
        let mut le = vec![0xFF, 0xFE];
        le.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        let mut be = vec![0xFE, 0xFF];
        be.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
        for bytes in [&le, &be] {
            assert_eq!(sniff_score(&bytes[..bytes.len().min(4096)]), Some(ScoreFormat::Xml));
            assert_eq!(parse_musicxml(bytes).map(|f| f.composer), Ok(Some("Ana Lima".into())));
        }
        let latin1 = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><score-partwise><work><work-title>Tr\xe4umerei</work-title></work></score-partwise>";
        assert_eq!(parse_musicxml(latin1).map(|f| f.title), Ok(Some("Träumerei".into())));
        assert_eq!(parse_musicxml(&le[..le.len() - 1]), Err(MediaError::Malformed), "odd length");
    }

    #[test]
    fn references_are_checked() {
        assert_eq!(resolve_reference(b"amp"), Ok('&'));
        assert_eq!(resolve_reference(b"#65"), Ok('A'));
        assert_eq!(resolve_reference(b"#x1F600"), Ok('😀'));
        assert_eq!(resolve_reference(b"nbsp"), Err(MediaError::XmlEntity));
        assert_eq!(resolve_reference(b"#0"), Err(MediaError::Malformed));
        assert_eq!(resolve_reference(b"#xD800"), Err(MediaError::Malformed));
        assert_eq!(resolve_reference(b"#x110000"), Err(MediaError::Malformed));
        assert_eq!(resolve_reference(b"#99999999999"), Err(MediaError::Malformed));
        assert_eq!(resolve_reference(b"#"), Err(MediaError::Malformed));
        assert_eq!(unescape_value(b"a &lt; b").as_deref(), Ok(&b"a < b"[..]));
        assert_eq!(unescape_value(b"a &ent; b"), Err(MediaError::XmlEntity));
        assert_eq!(unescape_value(b"a & b"), Err(MediaError::Malformed));
        assert_eq!(unescape_value(b"a < b"), Err(MediaError::Malformed));
    }

    #[test]
    fn attributes_are_bounded_and_never_repeated() {
        let many: String = (0..200_000).map(|i| format!(" a{i}=\"1\"")).collect();
        let xml = format!("<score-partwise><part{many}/></score-partwise>");
        let max = limits::XML_MAX_ATTRIBUTES;
        assert_eq!(parse_musicxml(xml.as_bytes()), Err(MediaError::XmlTooManyAttributes { max }));
        let creator =
            format!("<score-partwise><identification><creator{many}>x</creator></identification></score-partwise>");
        assert_eq!(parse_musicxml(creator.as_bytes()), Err(MediaError::XmlTooManyAttributes { max }));
        let repeated = r#"<score-partwise><part id="a" id="b"/></score-partwise>"#;
        assert_eq!(parse_musicxml(repeated.as_bytes()), Err(MediaError::Malformed));
        let fine: String = (0..max).map(|i| format!(" a{i}=\"1\"")).collect();
        assert!(parse_musicxml(format!("<score-partwise><part{fine}/></score-partwise>").as_bytes()).is_ok());
    }

    #[test]
    fn entities_in_attributes_are_refused_too() {
        let xml = r#"<score-partwise version="&ver;"></score-partwise>"#;
        assert_eq!(parse_musicxml(xml.as_bytes()), Err(MediaError::XmlEntity));
        let xml = r#"<score-partwise><part id="&#x41;&amp;"/></score-partwise>"#;
        assert!(parse_musicxml(xml.as_bytes()).is_ok());
    }

    #[test]
    fn structure_rules() {
        let cases: [(&str, MediaError); 9] = [
            ("<score-partwise></score-partwise><score-partwise/>", MediaError::Malformed),
            ("<score-partwise/><x/>", MediaError::Malformed),
            ("<html><body/></html>", MediaError::NotMusicXml),
            ("<svg xmlns='http://www.w3.org/2000/svg'/>", MediaError::NotMusicXml),
            ("just text", MediaError::NotMusicXml),
            ("", MediaError::NotMusicXml),
            ("<score-partwise><part></score-partwise>", MediaError::Malformed),
            ("<score-partwise><part>", MediaError::Malformed),
            ("<score-partwise/>trailing text", MediaError::Malformed),
        ];
        for (xml, expected) in cases {
            assert_eq!(parse_musicxml(xml.as_bytes()), Err(expected), "{xml}");
        }
        assert_eq!(parse_musicxml(b"<score-partwise/>"), Ok(ScoreFacts::default()));
        assert_eq!(
            parse_musicxml(b"<?xml version='1.0'?><!-- c --><score-partwise/><!-- after -->"),
            Ok(ScoreFacts::default())
        );
    }

    #[test]
    fn depth_is_bounded() {
        let deep = format!("<score-partwise>{}{}</score-partwise>", "<a>".repeat(300), "</a>".repeat(300));
        assert_eq!(parse_musicxml(deep.as_bytes()), Err(MediaError::XmlTooDeep { max_depth: limits::XML_MAX_DEPTH }));
    }

    #[test]
    fn labels_are_bounded() {
        let long = format!("<score-partwise><movement-title>{}</movement-title></score-partwise>", "x".repeat(100_000));
        let title = parse_musicxml(long.as_bytes()).ok().and_then(|f| f.title);
        assert_eq!(title.map(|t| t.chars().count()), Some(MAX_LABEL_CHARS));
    }

    #[test]
    fn sniffing_scores() {
        assert_eq!(sniff_score(b"PK\x03\x04\x14\0"), Some(ScoreFormat::Mxl));
        assert_eq!(sniff_score(SCORE.as_bytes()), Some(ScoreFormat::Xml));
        assert_eq!(sniff_score(b"\xEF\xBB\xBF<score-timewise version=\"3.1\">"), Some(ScoreFormat::Xml));
        assert_eq!(sniff_score(b"<?xml version=\"1.0\"?>\n<!-- long comment"), Some(ScoreFormat::Xml));
        assert_eq!(sniff_score(b"<?xml version=\"1.0\"?>"), Some(ScoreFormat::Xml), "the root beyond the head");
        for not in [
            &b"<!DOCTYPE html><html>"[..],
            b"<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>",
            b"<score-partwisex>",
            b"hello",
            b"",
            b"   ",
            b"\x89PNG",
        ] {
            assert_eq!(sniff_score(not), None, "{}", String::from_utf8_lossy(not));
        }
    }
}
