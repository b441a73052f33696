//! MusicXML and `.mxl`: real scores read, hostile XML and archives refused with the right error.
//!
//! Hostile archives are written by hand (below), since a zip library will not write lying
//! sizes, names that leave the archive or a deflate bomb.

use std::io::{BufWriter, Cursor, Write};

use media_validation::{MediaError, ScoreFacts, ScoreFormat, limits, parse_musicxml, parse_mxl, sniff_score};

use crate::tools::head;

const SCORE: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" "http://www.musicxml.org/dtds/partwise.dtd">
<score-partwise version="4.0">
  <work>
    <work-number>BWV 846</work-number>
    <work-title>Prelude in C</work-title>
  </work>
  <movement-title>Prelude</movement-title>
  <identification>
    <creator type="composer">Johann Sebastian Bach</creator>
    <rights>Public domain</rights>
    <encoding><software>Test</software><encoding-date>2026-11-23</encoding-date></encoding>
  </identification>
  <part-list>
    <score-part id="P1"><part-name>Piano</part-name></score-part>
  </part-list>
  <part id="P1">
    <measure number="1">
      <attributes>
        <divisions>4</divisions>
        <key><fifths>0</fifths></key>
        <time><beats>4</beats><beat-type>4</beat-type></time>
        <clef><sign>G</sign><line>2</line></clef>
      </attributes>
      <note><pitch><step>C</step><octave>4</octave></pitch><duration>4</duration><type>quarter</type></note>
      <note><pitch><step>E</step><octave>4</octave></pitch><duration>4</duration><type>quarter</type></note>
      <note><pitch><step>G</step><octave>4</octave></pitch><duration>4</duration><type>quarter</type></note>
      <note><pitch><step>C</step><octave>5</octave></pitch><duration>4</duration><type>quarter</type></note>
    </measure>
  </part>
</score-partwise>
"#;

const CONTAINER: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<container>
  <rootfiles>
    <rootfile full-path="scores/prelude.musicxml" media-type="application/vnd.recordare.musicxml+xml"/>
    <rootfile full-path="scores/prelude.pdf" media-type="application/pdf"/>
  </rootfiles>
</container>
"#;

fn bach() -> ScoreFacts {
    ScoreFacts { title: Some("Prelude in C".into()), composer: Some("Johann Sebastian Bach".into()), sung: None }
}

#[test]
fn a_real_score_is_read() {
    assert_eq!(sniff_score(head(SCORE.as_bytes())), Some(ScoreFormat::Xml));
    assert_eq!(parse_musicxml(SCORE.as_bytes()), Ok(bach()));
    let timewise = SCORE.replace("score-partwise", "score-timewise").replace("Partwise", "Timewise");
    assert_eq!(parse_musicxml(timewise.as_bytes()), Ok(bach()));
}

/// An `.mxl` as a zip library writes it (deflated entries).
fn mxl(container: &str, files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let stored = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let deflated = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("mimetype", stored).unwrap();
    zip.write_all(b"application/vnd.recordare.musicxml").unwrap();
    zip.start_file("META-INF/container.xml", deflated).unwrap();
    zip.write_all(container.as_bytes()).unwrap();
    for (name, bytes) in files {
        zip.start_file(*name, deflated).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

#[test]
fn a_real_mxl_is_read_through_its_container() {
    let archive = mxl(CONTAINER, &[("scores/prelude.musicxml", SCORE.as_bytes()), ("scores/prelude.pdf", b"%PDF-1.4")]);
    assert_eq!(sniff_score(head(&archive)), Some(ScoreFormat::Mxl));
    assert_eq!(parse_mxl(Cursor::new(archive)), Ok(bach()));
}

#[test]
fn an_mxl_without_a_score_is_not_musicxml() {
    let no_container = {
        let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
        zip.start_file("prelude.musicxml", zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(SCORE.as_bytes()).unwrap();
        zip.finish().unwrap().into_inner()
    };
    let missing_rootfile = mxl(CONTAINER, &[("elsewhere.musicxml", SCORE.as_bytes())]);
    let no_rootfile = mxl("<container><rootfiles/></container>", &[("scores/prelude.musicxml", SCORE.as_bytes())]);
    let not_a_score = mxl(CONTAINER, &[("scores/prelude.musicxml", b"<html><body/></html>")]);
    for archive in [no_container, missing_rootfile, no_rootfile, not_a_score] {
        assert_eq!(parse_mxl(Cursor::new(archive)), Err(MediaError::NotMusicXml));
    }
}

// --- Hostile XML -----------------------------------------------------------------------------

#[test]
fn billion_laughs_is_refused() {
    let xml = r#"<?xml version="1.0"?>
<!DOCTYPE score-partwise [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<score-partwise><work><work-title>&lol9;</work-title></work></score-partwise>"#;
    assert_eq!(parse_musicxml(xml.as_bytes()), Err(MediaError::XmlEntity));
}

#[test]
fn external_entities_are_refused() {
    let xxe = r#"<?xml version="1.0"?>
<!DOCTYPE score-partwise [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<score-partwise><work><work-title>&xxe;</work-title></work></score-partwise>"#;
    assert_eq!(parse_musicxml(xxe.as_bytes()), Err(MediaError::XmlEntity));
    let parameter = r#"<!DOCTYPE score-partwise [<!ENTITY % remote SYSTEM "http://evil.example/x.dtd"> %remote;]>
<score-partwise/>"#;
    assert_eq!(parse_musicxml(parameter.as_bytes()), Err(MediaError::XmlEntity));
    // A reference to an entity declared nowhere (say, in the external DTD) is refused too.
    let undeclared = r#"<!DOCTYPE score-partwise SYSTEM "http://evil.example/x.dtd">
<score-partwise><work><work-title>&copy;</work-title></work></score-partwise>"#;
    assert_eq!(parse_musicxml(undeclared.as_bytes()), Err(MediaError::XmlEntity));
}

#[test]
fn documents_that_are_not_one_score_are_refused() {
    let two_roots = format!("{SCORE}<score-partwise/>");
    assert_eq!(parse_musicxml(two_roots.as_bytes()), Err(MediaError::Malformed));
    let wrong_root = SCORE.replace("score-partwise", "opus");
    assert_eq!(parse_musicxml(wrong_root.as_bytes()), Err(MediaError::NotMusicXml));
    let mismatched = SCORE.replace("</work-title>", "</work-titel>");
    assert_eq!(parse_musicxml(mismatched.as_bytes()), Err(MediaError::Malformed));
    let bad_attribute = SCORE.replace(r#"version="4.0""#, r#"version="4.0" version="3.1""#);
    assert_eq!(parse_musicxml(bad_attribute.as_bytes()), Err(MediaError::Malformed));
    let deep = SCORE
        .replace("<part-list>", &"<x>".repeat(limits::XML_MAX_DEPTH))
        .replace("</part-list>", &"</x>".repeat(limits::XML_MAX_DEPTH));
    assert_eq!(parse_musicxml(deep.as_bytes()), Err(MediaError::XmlTooDeep { max_depth: limits::XML_MAX_DEPTH }));
}

#[test]
fn other_files_are_not_scores() {
    let html = "<!DOCTYPE html><html><body>hello</body></html>";
    let svg = r#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#;
    let text = "Prelude in C, by Bach\n";
    for file in [html, svg, text, ""] {
        assert_eq!(sniff_score(file.as_bytes()), None, "{file}");
        assert_eq!(parse_musicxml(file.as_bytes()), Err(MediaError::NotMusicXml), "{file}");
    }
    assert_eq!(parse_mxl(Cursor::new(text.as_bytes())), Err(MediaError::Malformed));
}

#[test]
fn truncated_scores_are_refused() {
    let bytes = SCORE.as_bytes();
    // Cut anywhere after the root element opened (before, it is no score at all).
    let root = SCORE.find("<work>").unwrap_or(0);
    for cut in (root..bytes.len() - 2).step_by(37) {
        assert_eq!(parse_musicxml(&bytes[..cut]), Err(MediaError::Malformed), "cut at {cut}");
    }
    let archive = mxl(CONTAINER, &[("scores/prelude.musicxml", SCORE.as_bytes())]);
    for cut in (0..archive.len() - 1).step_by(41) {
        let result = parse_mxl(Cursor::new(&archive[..cut]));
        assert!(matches!(result, Err(MediaError::Malformed | MediaError::NotMusicXml)), "mxl cut at {cut}: {result:?}");
    }
}

// --- Hostile archives, written by hand -------------------------------------------------------

fn crc32(data: &[u8]) -> u32 {
    let mut c = 0xFFFF_FFFFu32;
    for &b in data {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
    }
    !c
}

/// One entry of a hand-written zip.
struct Entry {
    name: Vec<u8>,
    /// 0 stored, 8 deflated.
    method: u16,
    flags: u16,
    crc: u32,
    /// The uncompressed size the headers declare (true or not).
    declared_size: u32,
    /// Unix file mode, or 0.
    unix_mode: u32,
    data: Data,
}

enum Data {
    Bytes(Vec<u8>),
    /// `head`, then `zeros` zero bytes, then `tail`: a deflate bomb too large to hold.
    Bomb {
        head: Vec<u8>,
        zeros: u64,
        tail: Vec<u8>,
    },
}

impl Data {
    fn len(&self) -> u64 {
        match self {
            Data::Bytes(b) => b.len() as u64,
            Data::Bomb { head, zeros, tail } => head.len() as u64 + zeros + tail.len() as u64,
        }
    }

    fn write(&self, out: &mut impl Write) {
        match self {
            Data::Bytes(b) => out.write_all(b).unwrap(),
            Data::Bomb { head, zeros, tail } => {
                out.write_all(head).unwrap();
                let chunk = vec![0u8; 64 * 1024];
                let mut left = *zeros;
                while left > 0 {
                    let n = left.min(chunk.len() as u64) as usize;
                    out.write_all(&chunk[..n]).unwrap();
                    left -= n as u64;
                }
                out.write_all(tail).unwrap();
            }
        }
    }
}

fn stored(name: &str, bytes: &[u8]) -> Entry {
    Entry {
        name: name.as_bytes().to_vec(),
        method: 0,
        flags: 0,
        crc: crc32(bytes),
        declared_size: bytes.len() as u32,
        unix_mode: 0,
        data: Data::Bytes(bytes.to_vec()),
    }
}

fn container_entry() -> Entry {
    stored("META-INF/container.xml", CONTAINER.as_bytes())
}

/// A zip of `entries` (local headers, data, central directory), written as it goes.
fn write_zip(out: &mut impl Write, entries: &[Entry]) {
    let mut offset = 0u64;
    let mut offsets = Vec::new();
    for e in entries {
        offsets.push(offset as u32);
        let mut h = 0x0403_4b50u32.to_le_bytes().to_vec();
        h.extend_from_slice(&20u16.to_le_bytes());
        h.extend_from_slice(&e.flags.to_le_bytes());
        h.extend_from_slice(&e.method.to_le_bytes());
        h.extend_from_slice(&[0, 0, 0x21, 0]); // time, date (1980-01-01)
        h.extend_from_slice(&e.crc.to_le_bytes());
        h.extend_from_slice(&(e.data.len() as u32).to_le_bytes());
        h.extend_from_slice(&e.declared_size.to_le_bytes());
        h.extend_from_slice(&(e.name.len() as u16).to_le_bytes());
        h.extend_from_slice(&0u16.to_le_bytes());
        h.extend_from_slice(&e.name);
        out.write_all(&h).unwrap();
        e.data.write(out);
        offset += h.len() as u64 + e.data.len();
    }
    let mut directory = Vec::new();
    for (e, at) in entries.iter().zip(offsets) {
        directory.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        let made_by: u16 = if e.unix_mode != 0 { (3 << 8) | 20 } else { 20 };
        directory.extend_from_slice(&made_by.to_le_bytes());
        directory.extend_from_slice(&20u16.to_le_bytes());
        directory.extend_from_slice(&e.flags.to_le_bytes());
        directory.extend_from_slice(&e.method.to_le_bytes());
        directory.extend_from_slice(&[0, 0, 0x21, 0]);
        directory.extend_from_slice(&e.crc.to_le_bytes());
        directory.extend_from_slice(&(e.data.len() as u32).to_le_bytes());
        directory.extend_from_slice(&e.declared_size.to_le_bytes());
        directory.extend_from_slice(&(e.name.len() as u16).to_le_bytes());
        directory.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0]); // extra, comment, disk, internal
        directory.extend_from_slice(&(e.unix_mode << 16).to_le_bytes());
        directory.extend_from_slice(&at.to_le_bytes());
        directory.extend_from_slice(&e.name);
    }
    out.write_all(&directory).unwrap();
    let mut end = 0x0605_4b50u32.to_le_bytes().to_vec();
    end.extend_from_slice(&[0, 0, 0, 0]);
    end.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    end.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    end.extend_from_slice(&(directory.len() as u32).to_le_bytes());
    end.extend_from_slice(&(offset as u32).to_le_bytes());
    end.extend_from_slice(&0u16.to_le_bytes());
    out.write_all(&end).unwrap();
}

fn zip_bytes(entries: &[Entry]) -> Vec<u8> {
    let mut out = Vec::new();
    write_zip(&mut out, entries);
    out
}

#[test]
fn the_hand_written_zip_is_a_real_mxl() {
    let archive = zip_bytes(&[container_entry(), stored("scores/prelude.musicxml", SCORE.as_bytes())]);
    assert_eq!(parse_mxl(Cursor::new(archive)), Ok(bach()));
}

#[test]
fn names_that_leave_the_archive_are_refused() {
    for name in ["../evil.xml", "scores/../../evil.xml", "/etc/evil.xml", "..\\evil.xml", "a\0b.xml"] {
        let archive =
            zip_bytes(&[container_entry(), stored("scores/prelude.musicxml", SCORE.as_bytes()), stored(name, b"x")]);
        assert_eq!(parse_mxl(Cursor::new(archive)), Err(MediaError::UnsafeArchivePath), "{name}");
    }
    // A symbolic link may point anywhere once unpacked.
    let mut link = stored("scores/link", b"/etc/passwd");
    link.unix_mode = 0o120_777;
    let archive = zip_bytes(&[container_entry(), stored("scores/prelude.musicxml", SCORE.as_bytes()), link]);
    assert_eq!(parse_mxl(Cursor::new(archive)), Err(MediaError::UnsafeArchivePath));
    // A name that goes down and back up stays inside.
    let archive = zip_bytes(&[container_entry(), stored("scores/x/../prelude.musicxml", SCORE.as_bytes())]);
    assert_eq!(parse_mxl(Cursor::new(archive)), Err(MediaError::NotMusicXml), "inside, but not the rootfile's name");
}

#[test]
fn too_many_entries_are_refused() {
    let mut entries = vec![container_entry(), stored("scores/prelude.musicxml", SCORE.as_bytes())];
    entries.extend((0..limits::MXL_MAX_ENTRIES).map(|i| stored(&format!("images/{i}.png"), b"")));
    let archive = zip_bytes(&entries);
    assert_eq!(parse_mxl(Cursor::new(archive)), Err(MediaError::TooManyEntries { max: limits::MXL_MAX_ENTRIES }));
    entries.truncate(limits::MXL_MAX_ENTRIES);
    assert_eq!(parse_mxl(Cursor::new(zip_bytes(&entries))), Ok(bach()), "as many as allowed");
}

#[test]
fn encrypted_entries_are_refused() {
    let mut secret = stored("scores/prelude.musicxml", SCORE.as_bytes());
    secret.flags = 1; // traditional PKWARE encryption
    let archive = zip_bytes(&[container_entry(), secret]);
    assert_eq!(parse_mxl(Cursor::new(archive)), Err(MediaError::EncryptedArchive));
}

/// Writes bits least significant first, as deflate does.
#[derive(Default)]
struct Bits {
    bytes: Vec<u8>,
    count: u64,
}

impl Bits {
    fn put(&mut self, value: u32, n: u32) {
        for i in 0..n {
            if self.count.is_multiple_of(8) {
                self.bytes.push(0);
            }
            let last = self.bytes.len() - 1;
            self.bytes[last] |= (((value >> i) & 1) as u8) << (self.count % 8);
            self.count += 1;
        }
    }

    /// A Huffman code: its bits most significant first.
    fn code(&mut self, code: u32, n: u32) {
        for i in (0..n).rev() {
            self.put((code >> i) & 1, 1);
        }
    }
}

/// A deflate stream of `1 + 258 × pairs` zero bytes whose middle is `zeros` zero bytes: one
/// dynamic-Huffman block where "copy 258 bytes from 1 back" takes two bits, both 0.
fn deflate_bomb(min_output: u64) -> (Data, u64) {
    for clen_codes in [18u32, 19] {
        let mut b = Bits::default();
        b.put(1, 1); // last block
        b.put(2, 2); // dynamic Huffman codes
        b.put(29, 5); // 286 literal/length codes
        b.put(0, 5); // 1 distance code
        b.put(clen_codes - 4, 4);
        // Code lengths of the code-length alphabet, in its odd order: 18 → 1 bit, 1 and 2 → 2.
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
        for symbol in &order[..clen_codes as usize] {
            b.put(
                match symbol {
                    18 => 1,
                    1 | 2 => 2,
                    _ => 0,
                },
                3,
            );
        }
        // Canonical codes: 18 → 0, 1 → 10, 2 → 11.
        let (zeros_code, one, two) = ((0, 1), (0b10, 2), (0b11, 2));
        let run_of_zeros = |b: &mut Bits, mut n: u32| {
            while n > 0 {
                let take = n.min(138);
                b.code(zeros_code.0, zeros_code.1);
                b.put(take - 11, 7);
                n -= take;
            }
        };
        // Literal 0 and end-of-block: 2 bits; length 258 (symbol 285): 1 bit; distance 1: 1 bit.
        b.code(two.0, two.1); // symbol 0
        run_of_zeros(&mut b, 255); // 1..=255
        b.code(two.0, two.1); // 256
        run_of_zeros(&mut b, 28); // 257..=284
        b.code(one.0, one.1); // 285
        b.code(one.0, one.1); // distance 0
        // Canonical codes: 285 → 0, literal 0 → 10, end of block → 11; distance → 0.
        b.code(0b10, 2); // one literal zero byte
        if b.count % 2 == 1 {
            continue; // pairs of bits can never reach a byte boundary: one more code length
        }
        let mut pairs = 0u64;
        while b.count % 8 != 0 {
            b.put(0, 2);
            pairs += 1;
        }
        let head = b.bytes;
        let zeros = (min_output / 258).div_ceil(4);
        pairs += zeros * 4;
        let mut tail = Bits::default();
        tail.code(0b11, 2); // end of block
        return (Data::Bomb { head, zeros, tail: tail.bytes }, 1 + 258 * pairs);
    }
    unreachable!("one of the two header lengths is even")
}

#[test]
fn the_deflate_bomb_really_inflates() {
    // A small one, inflated by a zip library: proves the hand-made stream is what it claims.
    let (data, size) = deflate_bomb(100_000);
    let mut bytes = Vec::new();
    data.write(&mut bytes);
    let entry = Entry {
        name: b"zeros".to_vec(),
        method: 8,
        flags: 0,
        crc: crc32(&vec![0; size as usize]),
        declared_size: size as u32,
        unix_mode: 0,
        data: Data::Bytes(bytes),
    };
    let mut archive = zip::ZipArchive::new(Cursor::new(zip_bytes(&[entry]))).unwrap();
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut archive.by_index(0).unwrap(), &mut out).unwrap();
    assert_eq!(out.len() as u64, size);
    assert!(out.iter().all(|b| *b == 0));
}

/// An `.mxl` whose `name` entry inflates to more than 2 GB, written to a file as it goes.
fn bomb_archive(dir: &std::path::Path, name: &str, honest_size: bool) -> std::fs::File {
    let (data, size) = deflate_bomb(2 << 30);
    assert!(data.len() < 3 << 20, "a few MB on disk: {}", data.len());
    let bomb = Entry {
        name: name.as_bytes().to_vec(),
        method: 8,
        flags: 0,
        crc: 0, // never checked: reading stops at the limit
        declared_size: if honest_size { u32::try_from(size).unwrap() } else { 1000 },
        unix_mode: 0,
        data,
    };
    let mut entries = vec![container_entry()];
    if name != "scores/prelude.musicxml" {
        entries.push(stored("scores/prelude.musicxml", SCORE.as_bytes()));
    }
    entries.push(bomb);
    let path = dir.join(format!("bomb-{honest_size}.mxl"));
    let mut out = BufWriter::new(std::fs::File::create(&path).unwrap());
    write_zip(&mut out, &entries);
    out.flush().unwrap();
    std::fs::File::open(&path).unwrap()
}

#[test]
fn a_deflate_bomb_is_refused_while_reading() {
    let dir = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    // Headers that tell the truth: refused before unpacking anything.
    let honest = bomb_archive(dir.path(), "scores/prelude.musicxml", true);
    let expected = MediaError::ArchiveTooLarge { max_bytes: limits::MXL_MAX_ENTRY_BYTES };
    assert_eq!(parse_mxl(honest), Err(expected.clone()));
    // Headers that lie (1000 bytes): refused once more than the limit has come out.
    for name in ["scores/prelude.musicxml", "images/cover.png"] {
        let lying = bomb_archive(dir.path(), name, false);
        assert_eq!(parse_mxl(lying), Err(expected.clone()), "{name}");
    }
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}

#[test]
fn many_entries_add_up_to_the_total_limit() {
    // Twenty entries of 3 MB each, honest about it: each within the entry limit, 60 MB in all.
    let block = stored("block", &vec![b' '; 3 << 20]);
    let mut entries = vec![container_entry(), stored("scores/prelude.musicxml", SCORE.as_bytes())];
    entries.extend((0..20).map(|i| Entry {
        name: format!("images/{i}.raw").into_bytes(),
        data: Data::Bytes(match &block.data {
            Data::Bytes(b) => b.clone(),
            Data::Bomb { .. } => unreachable!(),
        }),
        ..block
    }));
    let honest = zip_bytes(&entries);
    let expected = MediaError::ArchiveTooLarge { max_bytes: limits::MXL_MAX_TOTAL_BYTES };
    assert_eq!(parse_mxl(Cursor::new(honest)), Err(expected.clone()));
    // The same, each claiming 10 bytes: the total is counted on what comes out.
    for entry in &mut entries[2..] {
        entry.declared_size = 10;
    }
    assert_eq!(parse_mxl(Cursor::new(zip_bytes(&entries))), Err(expected));
}
