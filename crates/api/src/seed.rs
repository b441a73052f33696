//! `selfsound seed --users N --posts M`: fills the configured database with believable data for
//! benchmarks and demos — people with tags, a long-tailed listening graph (a few are listened
//! to by many), posts of all four types spread over the past year and pointing at a few small
//! real media files, likes, comments and reposts with their counters right, and playlists.
//!
//! Rows go in as multi-row INSERTs of a few hundred values, many per transaction, so 10,000
//! people and a million posts take minutes on either backend. Every seeded account has the
//! password [`SEED_PASSWORD`] (hashed once), so a benchmark can sign in as `seed0@example.com`
//! (who listens to 100 people) or `seed1@example.com` (who listens to 1,000).

use bytes::Bytes;
use chrono::{Duration, Utc};
use db::diesel::RunQueryDsl;
use db::{Db, DbConnection};
use rand::Rng;
use rand::seq::IndexedRandom;
use storage::Storage;

pub const SEED_PASSWORD: &str = "Seeded#Sound1";
const BATCH: usize = 500;
const ROWS_PER_TRANSACTION: usize = 20_000;

const FIRST: [&str; 24] = [
    "Ada", "Miles", "Nina", "Louis", "Ella", "John", "Billie", "Ray", "Aretha", "Herbie", "Joni", "Clara", "Amy",
    "Kurt", "Fela", "Celia", "Astor", "Ravi", "Chet", "Mahalia", "Oum", "Nusrat", "Bjork", "Johann",
];
const LAST: [&str; 16] = [
    "Lovelace",
    "Davis",
    "Simone",
    "Armstrong",
    "Fitzgerald",
    "Coltrane",
    "Holiday",
    "Charles",
    "Franklin",
    "Hancock",
    "Mitchell",
    "Schumann",
    "Winehouse",
    "Cobain",
    "Kuti",
    "Cruz",
];
const WORDS: [&str; 20] = [
    "morning", "river", "echo", "blue", "velvet", "storm", "minor", "chord", "city", "lights", "slow", "dance",
    "golden", "hour", "static", "bloom", "night", "drive", "paper", "moon",
];

/// The tags of the seeded captions (a captioned post names one): each in about one post of 24,
/// what a tag page walks (`make bench`, "tag_page").
const GENRES: [&str; 8] = ["jazz", "folk", "ambient", "hiphop", "classical", "rock", "lofi", "soul"];

/// `selfsound seed`'s options.
#[derive(Clone, Debug, PartialEq, Eq, clap::Args)]
pub struct SeedOptions {
    /// How many people to make (at least 2: the benchmark signs in as the first two). `_` may
    /// group digits: 10_000
    #[arg(long, value_name = "N", default_value_t = DEFAULT_USERS, value_parser = people)]
    pub users: usize,
    /// How many posts to make, spread over the past year
    #[arg(long, value_name = "M", default_value_t = DEFAULT_POSTS, value_parser = count)]
    pub posts: usize,
}

impl Default for SeedOptions {
    fn default() -> Self {
        SeedOptions { users: DEFAULT_USERS, posts: DEFAULT_POSTS }
    }
}

const DEFAULT_USERS: usize = 1_000;
const DEFAULT_POSTS: usize = 10_000;

/// A whole number, digits optionally grouped with `_` (`1_000_000`).
fn count(raw: &str) -> Result<usize, String> {
    raw.replace('_', "").parse().map_err(|_| format!("not a whole number: {raw}"))
}

/// A number of people: fewer than two is taken as two.
fn people(raw: &str) -> Result<usize, String> {
    count(raw).map(|n| n.max(2))
}

/// A `'...'` SQL literal of text we made up (only letters, digits and a few marks; quotes are
/// doubled anyway).
fn text(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

fn stamp(t: chrono::DateTime<Utc>) -> String {
    format!("'{}'", t.naive_utc().format("%Y-%m-%d %H:%M:%S%.6f"))
}

/// Inserts `rows` (each a parenthesised tuple) into `table (columns)`, `BATCH` at a time.
fn insert(conn: &mut DbConnection, table: &str, columns: &str, rows: &[String]) -> Result<(), String> {
    for chunk in rows.chunks(BATCH) {
        let sql = format!("INSERT INTO {table} ({columns}) VALUES {}", chunk.join(","));
        db::diesel::sql_query(sql).execute(conn).map_err(|e| format!("seeding {table}: {e}"))?;
    }
    Ok(())
}

/// Runs `f`, about [`ROWS_PER_TRANSACTION`] rows, as one write (a command of its own: it waits
/// for it here).
fn in_tx(db: &Db, f: impl FnOnce(&mut DbConnection) -> Result<(), String>) -> Result<(), String> {
    db.write_blocking(|conn| f(conn).map_err(SeedError)).map_err(|e: SeedError| e.0)
}

#[derive(Debug)]
struct SeedError(String);

impl From<db::diesel::result::Error> for SeedError {
    fn from(e: db::diesel::result::Error) -> Self {
        SeedError(e.to_string())
    }
}

impl From<db::DbError> for SeedError {
    fn from(e: db::DbError) -> Self {
        SeedError(e.to_string())
    }
}

/// A long tail: small indexes are picked far more often (about Zipf's law).
fn popular(rng: &mut impl Rng, n: usize) -> usize {
    let u: f64 = rng.random();
    ((n as f64) * u.powi(3)) as usize % n
}

/// The few real files every seeded post points at.
struct Files {
    audio: String,
    peaks: String,
    image: String,
    score: String,
}

async fn store_files(storage: &Storage) -> Result<Files, String> {
    let wav = sine_wav(20.0);
    let facts = media_validation::analyze_audio(std::io::Cursor::new(wav.clone()), media_validation::AudioKind::Wav)
        .map_err(|e| format!("the seed audio: {e}"))?;
    use base64::Engine;
    let peaks = base64::engine::general_purpose::STANDARD.encode(facts.peaks.downsample(500).to_bytes());
    let put = |key: &'static str, bytes: Vec<u8>| async move {
        storage.put(key, Bytes::from(bytes)).await.map_err(|e| format!("storing {key}: {e}")).map(|()| key.to_owned())
    };
    Ok(Files {
        audio: put("seed/tone.wav", wav).await?,
        peaks,
        image: put("seed/picture.png", gradient_png()).await?,
        score: put("seed/etude.musicxml", SCORE.as_bytes().to_vec()).await?,
    })
}

pub async fn run(db: &Db, storage: &Storage, options: &SeedOptions) -> Result<(), String> {
    let started = std::time::Instant::now();
    let files = store_files(storage).await?;
    let hash = auth::password::hash(SEED_PASSWORD).map_err(|e| e.to_string())?;
    let (users, posts) = (options.users, options.posts);
    let db = db.clone();
    tokio::task::spawn_blocking(move || {
        let user_ids = seed_users(&db, users, &hash)?;
        tracing::info!(users, elapsed = ?started.elapsed(), "seeded people");
        seed_listening(&db, &user_ids)?;
        tracing::info!(elapsed = ?started.elapsed(), "seeded listening");
        let playable = seed_posts(&db, &user_ids, posts, &files)?;
        tracing::info!(posts, elapsed = ?started.elapsed(), "seeded posts");
        seed_playlists(&db, &user_ids, &playable)?;
        tracing::info!(elapsed = ?started.elapsed(), "seeded playlists");
        // The rows went in as SQL of their own, past `posts::insert_post`: their search entries
        // are written here, all at once.
        in_tx(&db, |conn| {
            posts::search::index_missing(conn).map(drop).map_err(|e| format!("indexing posts for search: {e}"))
        })?;
        tracing::info!(elapsed = ?started.elapsed(), "indexed posts for search");
        recount(&db)?;
        tracing::info!(elapsed = ?started.elapsed(), "seeding done");
        Ok(())
    })
    .await
    .map_err(|e| e.to_string())?
}

fn seed_users(db: &Db, n: usize, hash: &str) -> Result<Vec<i64>, String> {
    let mut rng = rand::rng();
    let start = Utc::now() - Duration::days(400);
    let mut ids = Vec::with_capacity(n);
    let mut rows = Vec::with_capacity(ROWS_PER_TRANSACTION);
    let tags: Vec<Option<&str>> = profiles::tags::ALL.iter().map(|t| Some(t.id)).chain([None]).collect();
    for i in 0..n {
        let first = FIRST[i % FIRST.len()];
        let last = LAST[(i / FIRST.len()) % LAST.len()];
        let id = values::raw_id_at(start + Duration::seconds(i as i64));
        ids.push(id);
        let tag = tags.choose(&mut rng).copied().flatten().map_or("NULL".to_owned(), text);
        rows.push(format!(
            "({id},{},{},{},{},{},{},TRUE,{})",
            text(&format!("{first} {last}")),
            text(&format!("{}_{}{i}", first.to_lowercase(), last.to_lowercase())),
            text(&format!("seed{i}@example.com")),
            text(hash),
            text(&format!("{first} plays {} {} music.", WORDS[i % WORDS.len()], WORDS[(i / 3) % WORDS.len()])),
            tag,
            stamp(start + Duration::seconds(i as i64)),
        ));
        if rows.len() == ROWS_PER_TRANSACTION || i + 1 == n {
            let batch = std::mem::take(&mut rows);
            in_tx(db, |c| {
                insert(
                    c,
                    "users",
                    "id, name, login, email, password_hash, description, tag_id, email_verified, created_at",
                    &batch,
                )
            })?;
        }
    }
    Ok(ids)
}

/// Everyone listens to a few people, chosen with a long tail (a few are listened to by many);
/// the first two seeded people listen to 100 and 1,000 for the benchmark.
fn seed_listening(db: &Db, users: &[i64]) -> Result<(), String> {
    let mut rng = rand::rng();
    let now = stamp(Utc::now() - Duration::days(30));
    let mut rows = Vec::new();
    let n = users.len();
    for (i, &me) in users.iter().enumerate() {
        let wanted = match i {
            0 => 100,
            1 => 1000,
            _ => 1 + popular(&mut rng, 60),
        }
        .min(n - 1);
        let mut chosen = std::collections::HashSet::with_capacity(wanted);
        let mut tries = 0;
        while chosen.len() < wanted && tries < wanted * 20 {
            tries += 1;
            let other = if i < 2 { rng.random_range(0..n) } else { popular(&mut rng, n) };
            if other != i {
                chosen.insert(other);
            }
        }
        for other in chosen {
            rows.push(format!("({me},{},{now})", users[other]));
        }
        if rows.len() >= ROWS_PER_TRANSACTION || i + 1 == n {
            let batch = std::mem::take(&mut rows);
            in_tx(db, |c| insert(c, "listens", "listener_id, listened_id, created_at", &batch))?;
        }
    }
    Ok(())
}

/// How many of the posts with a track or a score [`seed_posts`] keeps aside for playlists.
const PLAYABLE_KEPT: usize = 10_000;

/// Posts spread over the past year; answers some of those with a track or a score (the newest
/// [`PLAYABLE_KEPT`]), for playlists.
fn seed_posts(db: &Db, users: &[i64], n: usize, files: &Files) -> Result<Vec<i64>, String> {
    let mut rng = rand::rng();
    let mut playable = std::collections::VecDeque::with_capacity(PLAYABLE_KEPT);
    let start = Utc::now() - Duration::days(365);
    let step = if n == 0 { 0 } else { 365 * 24 * 3600 * 1000 / n as i64 };
    let mut batch = Batch::default();
    let mut comment_n = 0usize;
    for i in 0..n {
        let at = start + Duration::milliseconds(step * i as i64);
        let id = values::raw_id_at(at);
        let author = users[popular(&mut rng, users.len())];
        let roll: u32 = rng.random_range(0..100);
        let kind = match roll {
            0..40 => "audio",
            40..65 => "media",
            65..85 => "lyrics",
            _ => "musicxml",
        };
        let title = format!("{} {}", WORDS[rng.random_range(0..WORDS.len())], WORDS[rng.random_range(0..WORDS.len())]);
        match kind {
            "audio" => batch.audio.push(format!(
                "({id},0,{},{},{},NULL,20000,{})",
                text(&title),
                text("Seed Band"),
                text(&files.audio),
                text(&files.peaks)
            )),
            "media" => batch.media.push(format!(
                "({id},0,{},{},'image',640,360,NULL,NULL)",
                values::new_raw_id(),
                text(&files.image)
            )),
            "lyrics" => batch.lyrics.push(format!(
                "({id},{},{},{})",
                text(&title),
                text("Seed Band"),
                text(&format!(r#"[{{"type":"verse","lyrics":"{title}\nall night long"}},{{"type":"chorus","lyrics":"oh {title}"}}]"#))
            )),
            _ => batch.scores.push(format!("({id},0,{},{},{})", text(&title), text("Seed Composer"), text(&files.score))),
        }
        if kind == "audio" || kind == "musicxml" {
            if playable.len() == PLAYABLE_KEPT {
                playable.pop_front();
            }
            playable.push_back(id);
        }
        // Likes and comments with a long tail: most posts have a few, some have many.
        let likes = popular(&mut rng, 40);
        let mut likers = std::collections::HashSet::new();
        for _ in 0..likes {
            likers.insert(users[rng.random_range(0..users.len())]);
        }
        for liker in &likers {
            batch.likes.push(format!("({id},{liker},{})", stamp(at)));
        }
        let comments = if rng.random_range(0..5) == 0 { 1 + popular(&mut rng, 8) } else { 0 };
        for c in 0..comments {
            comment_n += 1;
            let by = users[rng.random_range(0..users.len())];
            let cid = values::raw_id_at(at + Duration::seconds(c as i64 + 1));
            batch.comments.push(format!(
                "({cid},{id},{by},{},{})",
                text(&format!("Love the {title} part #{comment_n}")),
                stamp(at)
            ));
        }
        // One post in ten is reposted, by a few people (never its author), within days.
        let mut reposters = std::collections::HashSet::new();
        if rng.random_range(0..10) == 0 {
            for _ in 0..1 + popular(&mut rng, 5) {
                let by = users[rng.random_range(0..users.len())];
                if by != author {
                    reposters.insert(by);
                }
            }
        }
        for (k, by) in reposters.iter().enumerate() {
            let when = (at + Duration::hours(1 + 7 * k as i64)).min(Utc::now());
            batch.reposts.push(format!("({},{id},{by},{})", values::raw_id_at(when), stamp(when)));
        }
        let caption = if i % 3 == 0 {
            // Written past `posts::insert_post`: its tag row too.
            let genre = GENRES[(i / 3) % GENRES.len()];
            batch.tags.push(format!("('{genre}',{id},{author})"));
            text(&format!("New {kind}: {title} #{genre}"))
        } else {
            "NULL".to_owned()
        };
        batch.posts.push(format!(
            "({id},{author},'{kind}',{},{},{},{},{})",
            caption,
            stamp(at),
            likers.len(),
            comments,
            reposters.len()
        ));
        if batch.len() >= ROWS_PER_TRANSACTION || i + 1 == n {
            let full = std::mem::take(&mut batch);
            in_tx(db, |c| full.write(c))?;
        }
    }
    Ok(playable.into())
}

/// Playlists: one person in twenty has a public one of [`PLAYLIST_ITEMS`] tracks and scores of
/// recent posts (anyone's), the first seeded person among them (the benchmark's playlist page).
const PLAYLIST_ITEMS: usize = 20;

fn seed_playlists(db: &Db, users: &[i64], playable: &[i64]) -> Result<(), String> {
    if playable.len() < PLAYLIST_ITEMS {
        return Ok(());
    }
    let mut rng = rand::rng();
    let now = Utc::now();
    let (mut lists, mut items) = (Vec::new(), Vec::new());
    for (i, owner) in users.iter().enumerate().step_by(20) {
        let made = now - Duration::days(rng.random_range(1..300));
        let list = values::raw_id_at(made);
        lists.push(format!(
            "({list},{owner},{},{},TRUE,{PLAYLIST_ITEMS},{},{})",
            text(&format!("{} mix {i}", WORDS[i % WORDS.len()])),
            text("Tracks I keep coming back to."),
            stamp(made),
            stamp(made)
        ));
        for (position, post) in playable.choose_multiple(&mut rng, PLAYLIST_ITEMS).enumerate() {
            let added = made + Duration::minutes(position as i64);
            items.push(format!("({},{list},{position},{post},0,{})", values::raw_id_at(added), stamp(added)));
        }
        if items.len() >= ROWS_PER_TRANSACTION || i + 20 >= users.len() {
            let (l, t) = (std::mem::take(&mut lists), std::mem::take(&mut items));
            in_tx(db, |c| {
                insert(
                    c,
                    "playlists",
                    "id, user_id, title, description, is_public, items_count, created_at, updated_at",
                    &l,
                )?;
                insert(c, "playlist_items", "id, playlist_id, position, post_id, track, added_at", &t)
            })?;
        }
    }
    Ok(())
}

#[derive(Default)]
struct Batch {
    posts: Vec<String>,
    media: Vec<String>,
    audio: Vec<String>,
    scores: Vec<String>,
    lyrics: Vec<String>,
    likes: Vec<String>,
    comments: Vec<String>,
    tags: Vec<String>,
    reposts: Vec<String>,
}

impl Batch {
    fn len(&self) -> usize {
        self.posts.len() * 2 + self.likes.len() + self.comments.len() + self.reposts.len()
    }

    fn write(self, c: &mut DbConnection) -> Result<(), String> {
        insert(
            c,
            "posts",
            "id, user_id, kind, caption, created_at, likes_count, comments_count, reposts_count",
            &self.posts,
        )?;
        insert(
            c,
            "post_media",
            "post_id, position, id, file_key, file_type, width, height, display_key, poster_key",
            &self.media,
        )?;
        insert(
            c,
            "post_audio",
            "post_id, position, title, artist, file_key, cover_key, duration_ms, peaks",
            &self.audio,
        )?;
        insert(c, "post_scores", "post_id, position, title, composer, file_key", &self.scores)?;
        insert(c, "post_lyrics", "post_id, title, artist, parts", &self.lyrics)?;
        insert(c, "likes", "post_id, user_id, created_at", &self.likes)?;
        insert(c, "comments", "id, post_id, user_id, content, created_at", &self.comments)?;
        insert(c, "post_tags", "tag, post_id, user_id", &self.tags)?;
        insert(c, "reposts", "id, post_id, user_id, created_at", &self.reposts)
    }
}

/// The counters kept on the user rows, from the rows just written (one statement each).
fn recount(db: &Db) -> Result<(), String> {
    in_tx(db, |conn| {
        for sql in [
            "UPDATE users SET posts_count = (SELECT count(*) FROM posts p WHERE p.user_id = users.id)",
            "UPDATE users SET listeners_count = (SELECT count(*) FROM listens l WHERE l.listened_id = users.id)",
            "UPDATE users SET listened_to_count = (SELECT count(*) FROM listens l WHERE l.listener_id = users.id)",
        ] {
            db::diesel::sql_query(sql).execute(conn).map_err(|e| format!("counting: {e}"))?;
        }
        Ok(())
    })?;
    // Fresh statistics, so the planners know the tables' sizes; on PostgreSQL also the
    // visibility map autovacuum would set on a live site in time, without which every
    // index-only scan (a page's probes of `listens`, of `posts (user_id, id)`) reads the table
    // too: 1 ms more for a Listened to page. (Not a write of rows, and VACUUM cannot run
    // inside a transaction: on a connection of its own.)
    let mut conn = db.get().map_err(|e| e.to_string())?;
    let conn = &mut *conn;
    let analyze = if matches!(conn, DbConnection::Postgres(_)) { "VACUUM ANALYZE" } else { "ANALYZE" };
    db::diesel::sql_query(analyze).execute(conn).map_err(|e| e.to_string())?;
    Ok(())
}

/// 16-bit mono 8 kHz WAV: a tone that swells and fades, so its waveform has a shape.
fn sine_wav(seconds: f32) -> Vec<u8> {
    const RATE: u32 = 8000;
    let samples = (seconds * RATE as f32) as u32;
    let mut out = Vec::with_capacity(44 + samples as usize * 2);
    let data_len = samples * 2;
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    for v in [
        16u32.to_le_bytes().as_slice(),
        &1u16.to_le_bytes(),
        &1u16.to_le_bytes(),
        &RATE.to_le_bytes(),
        &(RATE * 2).to_le_bytes(),
        &2u16.to_le_bytes(),
        &16u16.to_le_bytes(),
    ] {
        out.extend_from_slice(v);
    }
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for i in 0..samples {
        let t = i as f32 / RATE as f32;
        let envelope = (t / seconds * std::f32::consts::PI).sin() * (0.6 + 0.4 * (t * 1.7).sin());
        let v = (t * 220.0 * std::f32::consts::TAU).sin() * envelope * 0.8 * f32::from(i16::MAX);
        out.extend_from_slice(&(v as i16).to_le_bytes());
    }
    out
}

/// A 64×36 PNG with a colour gradient (stored, uncompressed deflate blocks).
fn gradient_png() -> Vec<u8> {
    let (w, h) = (64u32, 36u32);
    let mut raw = Vec::new();
    for y in 0..h {
        raw.push(0);
        for x in 0..w {
            raw.extend_from_slice(&[(x * 4) as u8, (y * 7) as u8, 180]);
        }
    }
    let mut z = vec![0x78, 0x01];
    for (i, block) in raw.chunks(65_535).enumerate() {
        let last = (i + 1) * 65_535 >= raw.len();
        z.push(u8::from(last));
        let len = block.len() as u16;
        z.extend_from_slice(&len.to_le_bytes());
        z.extend_from_slice(&(!len).to_le_bytes());
        z.extend_from_slice(block);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in &raw {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    z.extend_from_slice(&((b << 16) | a).to_be_bytes());
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    for (kind, data) in [(b"IHDR", ihdr), (b"IDAT", z), (b"IEND", Vec::new())] {
        png.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut body = kind.to_vec();
        body.extend_from_slice(&data);
        png.extend_from_slice(&body);
        png.extend_from_slice(&crc32(&body).to_be_bytes());
    }
    png
}

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

const SCORE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" "http://www.musicxml.org/dtds/partwise.dtd">
<score-partwise version="4.0">
  <work><work-title>Seed Etude</work-title></work>
  <identification><creator type="composer">Seed Composer</creator></identification>
  <part-list><score-part id="P1"><part-name>Piano</part-name></score-part></part-list>
  <part id="P1">
    <measure number="1">
      <attributes><divisions>1</divisions><key><fifths>0</fifths></key><time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes>
      <note><pitch><step>C</step><octave>4</octave></pitch><duration>1</duration><type>quarter</type></note>
      <note><pitch><step>D</step><octave>4</octave></pitch><duration>1</duration><type>quarter</type></note>
      <note><pitch><step>E</step><octave>4</octave></pitch><duration>1</duration><type>quarter</type></note>
      <note><pitch><step>F</step><octave>4</octave></pitch><duration>1</duration><type>quarter</type></note>
    </measure>
  </part>
</score-partwise>
"#;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        seed: SeedOptions,
    }

    fn parse(args: &[&str]) -> Result<SeedOptions, clap::Error> {
        Line::try_parse_from(std::iter::once("seed").chain(args.iter().copied())).map(|l| l.seed)
    }

    #[test]
    fn options_have_defaults_and_take_grouped_digits() {
        assert_eq!(parse(&[]).unwrap(), SeedOptions::default());
        assert_eq!(parse(&[]).unwrap(), SeedOptions { users: 1_000, posts: 10_000 });
        let big = parse(&["--users", "10_000", "--posts", "1_000_000"]).unwrap();
        assert_eq!(big, SeedOptions { users: 10_000, posts: 1_000_000 });
        assert_eq!(parse(&["--posts=0"]).unwrap().posts, 0);
    }

    #[test]
    fn there_are_always_two_people_for_the_benchmark_to_sign_in_as() {
        assert_eq!(parse(&["--users", "0"]).unwrap().users, 2);
        assert_eq!(parse(&["--users", "1"]).unwrap().users, 2);
        assert_eq!(parse(&["--users", "3"]).unwrap().users, 3);
    }

    #[test]
    fn bad_options_are_usage_errors_and_help_is_not_one() {
        use clap::error::ErrorKind;
        for bad in [&["--users", "lots"][..], &["--users"], &["--posts", "-5"], &["--people", "5"], &["5"]] {
            let kind = parse(bad).map(|_| ()).unwrap_err().kind();
            assert_ne!(kind, ErrorKind::DisplayHelp, "{bad:?}");
            assert_eq!(parse(bad).unwrap_err().exit_code(), 2, "{bad:?}");
        }
        let help = parse(&["--help"]).unwrap_err();
        assert_eq!((help.kind(), help.exit_code()), (ErrorKind::DisplayHelp, 0));
        assert!(help.to_string().contains("--users <N>"), "{help}");
    }
}
