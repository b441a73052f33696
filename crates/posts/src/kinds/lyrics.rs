//! Lyrics posts: a song's title, artist and up to ten parts (spec §3 Lyrics post); no files.

use db::DbConnection;
use db::diesel::prelude::*;
use db::schema::post_lyrics;
use serde::{Deserialize, Serialize};
use values::{PostId, PostKind};

use super::{KindRows, NewPayload, no_keys};
use crate::model::Payload;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LyricsPart {
    #[serde(rename = "type")]
    pub part_type: String,
    pub lyrics: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Lyrics {
    pub title: String,
    pub artist: String,
    pub parts: Vec<LyricsPart>,
}

impl Lyrics {
    /// The words of its parts, where tags may be named (`crate::tags`).
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().map(|p| p.lyrics.as_str())
    }

    /// The parts as one text, each under a `[Verse]`-style heading, for clients that show the
    /// lyrics as one block (spec §3 `lyrics_text`).
    pub fn text(&self) -> String {
        self.parts
            .iter()
            .map(|p| format!("[{}]\n{}", heading(&p.part_type), p.lyrics.trim_end()))
            .collect::<Vec<_>>()
            .join("\n\n")
    }
}

/// `pre-chorus` → `Pre-Chorus`.
fn heading(part_type: &str) -> String {
    part_type
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect::<String>()).unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join("-")
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = post_lyrics)]
pub(crate) struct LyricsRow {
    pub post_id: PostId,
    pub title: String,
    pub artist: String,
    /// JSON array of `{type, lyrics}`.
    pub parts: String,
}

impl LyricsRow {
    pub fn new(post_id: PostId, lyrics: Lyrics) -> LyricsRow {
        // A Vec of plain strings always serializes.
        let parts = serde_json::to_string(&lyrics.parts).unwrap_or_else(|_| "[]".to_owned());
        LyricsRow { post_id, title: lyrics.title, artist: lyrics.artist, parts }
    }
}

impl From<LyricsRow> for Lyrics {
    fn from(r: LyricsRow) -> Self {
        // Written by us as JSON; an unreadable value shows as no parts rather than failing a feed.
        let parts = serde_json::from_str(&r.parts).unwrap_or_default();
        Lyrics { title: r.title, artist: r.artist, parts }
    }
}

pub(super) const ROWS: KindRows = KindRows { kind: PostKind::Lyrics, load, object_keys: no_keys, stored: &[] };

fn load(conn: &mut DbConnection, ids: &[PostId]) -> QueryResult<Vec<(PostId, Payload)>> {
    let rows: Vec<LyricsRow> = post_lyrics::table
        .filter(db::one_of(post_lyrics::post_id, ids.iter().map(|id| id.get())))
        .select(LyricsRow::as_select())
        .load(conn)?;
    Ok(rows.into_iter().map(|r| (r.post_id, Payload::Lyrics(r.into()))).collect())
}

impl NewPayload for LyricsRow {
    fn insert(&self, conn: &mut DbConnection) -> QueryResult<()> {
        diesel::insert_into(post_lyrics::table).values(self).execute(conn).map(drop)
    }

    fn words(&self) -> Vec<String> {
        Lyrics::from(self.clone()).words().map(str::to_owned).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lyrics_text_puts_each_part_under_its_heading() {
        let l = Lyrics {
            title: "T".into(),
            artist: "A".into(),
            parts: vec![
                LyricsPart { part_type: "verse".into(), lyrics: "la la\n".into() },
                LyricsPart { part_type: "pre-chorus".into(), lyrics: "oh".into() },
            ],
        };
        assert_eq!(l.text(), "[Verse]\nla la\n\n[Pre-Chorus]\noh");
    }
}
