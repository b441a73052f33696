//! Sheet-music posts: 1 to 5 MusicXML or `.mxl` files (spec §5 MusicXML post), each checked to
//! be a score; titles and composers left blank are taken from the score, then the defaults.

use db::DbConnection;
use db::diesel::prelude::*;
use db::jobs::Failure;
use db::schema::post_scores;
use media_validation::{self as mv, MediaError, ScoreFormat, limits};
use tempfile::NamedTempFile;
use values::{JobKind, PostId, PostKind};

use super::{KindRows, NewPayload, Processing, UploadKind, grouped};
use crate::PostError;
use crate::create::{Stored, head, key, read_all, unreadable};
use crate::input::{score_label, score_stem};
use crate::model::Payload;

/// One score of a sheet-music post.
#[derive(Debug, Clone, PartialEq)]
pub struct Score {
    pub title: String,
    pub composer: String,
    pub file_key: String,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = post_scores)]
pub(crate) struct ScoreRow {
    pub post_id: PostId,
    pub title: String,
    pub composer: String,
    pub file_key: String,
}

/// A score as it is written: its row with the words it sets, which only search reads (the
/// feeds never load them).
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = post_scores)]
pub(crate) struct NewScoreRow {
    pub post_id: PostId,
    pub position: i64,
    pub title: String,
    pub composer: String,
    pub file_key: String,
    pub sung: String,
}

impl From<ScoreRow> for Score {
    fn from(r: ScoreRow) -> Self {
        Score { title: r.title, composer: r.composer, file_key: r.file_key }
    }
}

pub(super) const ROWS: KindRows = KindRows { kind: PostKind::MusicXml, load, object_keys, stored: &STORED };

/// The score's file.
const STORED: [db::StoredColumn; 1] = [db::StoredColumn {
    column: "post_scores.file_key",
    keys: |c| post_scores::table.select(post_scores::file_key).distinct().load(c),
}];

fn load(conn: &mut DbConnection, ids: &[PostId]) -> QueryResult<Vec<(PostId, Payload)>> {
    let rows: Vec<ScoreRow> = post_scores::table
        .filter(db::one_of(post_scores::post_id, ids.iter().map(|id| id.get())))
        .order((post_scores::post_id, post_scores::position))
        .select(ScoreRow::as_select())
        .load(conn)?;
    Ok(grouped(rows, |r| r.post_id, Score::from, Payload::Scores))
}

fn object_keys(conn: &mut DbConnection, ids: &[PostId]) -> QueryResult<Vec<String>> {
    post_scores::table.filter(post_scores::post_id.eq_any(ids)).select(post_scores::file_key).load(conn)
}

impl NewPayload for Vec<NewScoreRow> {
    fn insert(&self, conn: &mut DbConnection) -> QueryResult<()> {
        // Row by row: the multi-backend connection has no batch insert (at most five rows here).
        for r in self {
            diesel::insert_into(post_scores::table).values(r).execute(conn)?;
        }
        Ok(())
    }
}

/// One uploaded score, with the title and composer sent beside it.
pub struct ScoreUpload {
    pub file_name: String,
    pub file: NamedTempFile,
    pub title: Option<String>,
    pub composer: Option<String>,
}

impl UploadKind for ScoreUpload {
    const KIND: PostKind = PostKind::MusicXml;
    const MAX_FILES: usize = limits::MUSICXML_MAX_FILES;

    fn none() -> PostError {
        PostError::NoScore
    }

    fn too_many() -> PostError {
        PostError::TooManyScores
    }

    async fn store(
        ctx: &Processing,
        post: PostId,
        uploads: Vec<ScoreUpload>,
        stored: &mut Stored,
    ) -> Result<Box<dyn NewPayload>, PostError> {
        let mut rows = Vec::with_capacity(uploads.len());
        for (n, upload) in uploads.into_iter().enumerate() {
            let (result, upload) = ctx.analyse(move || Ok((analyse(&upload), upload))).await?;
            let Analysed { format, title, composer, sung } = result?;
            let extension = match format {
                ScoreFormat::Xml => "musicxml",
                ScoreFormat::Mxl => "mxl",
            };
            let file_key = stored.put_file(&ctx.storage, key(post, n, "", extension), upload.file.path()).await?;
            rows.push(NewScoreRow { post_id: post, position: n as i64, title, composer, file_key, sung });
        }
        Ok(Box::new(rows))
    }
}

/// What a score's file says, with what was sent beside it.
struct Analysed {
    format: ScoreFormat,
    title: String,
    composer: String,
    /// The words it sets, or '' (bounded by the reader: `mv::MAX_SUNG_CHARS`).
    sung: String,
}

/// What the score file at `path` (sent as `name`) says of itself, and its form.
fn read_facts(path: &std::path::Path, name: &str) -> Result<(ScoreFormat, mv::ScoreFacts), PostError> {
    let not_score = || PostError::NotMusicXml(name.to_owned());
    let format = mv::sniff_score(&head(path)?).ok_or_else(not_score)?;
    let facts = match format {
        ScoreFormat::Xml => mv::parse_musicxml(&read_all(path)?),
        ScoreFormat::Mxl => {
            let file = std::fs::File::open(path).map_err(|e| PostError::Processing(e.to_string()))?;
            mv::parse_mxl(file)
        }
    }
    .map_err(|e| match e {
        MediaError::UnsupportedType | MediaError::NotMusicXml => not_score(),
        other => unreadable(name, other),
    })?;
    Ok((format, facts))
}

fn analyse(upload: &ScoreUpload) -> Result<Analysed, PostError> {
    let name = &upload.file_name;
    let (format, facts) = read_facts(upload.file.path(), name)?;
    let title = score_label(upload.title.as_deref(), false)
        .or_else(|| score_label(facts.title.as_deref(), true))
        .unwrap_or_else(|| score_stem(name));
    let composer = score_label(upload.composer.as_deref(), false)
        .or_else(|| score_label(facts.composer.as_deref(), true))
        .unwrap_or_else(|| "Unknown Composer".to_owned());
    Ok(Analysed { format, title, composer, sung: facts.sung.unwrap_or_default() })
}

/// Score posts whose files one [`JobKind::OldScores`] job reads again.
const OLD_SCORES_BATCH: i64 = 50;

/// A score posted before its words were read.
struct OldScore {
    post: PostId,
    position: i64,
    file_key: String,
}

impl crate::Posts {
    /// Reads the words sung in the scores of the next [`OLD_SCORES_BATCH`] score posts after
    /// `after` that were posted before scores' words were read (issue 34), writes them and
    /// indexes each post again, then queues the next batch: what migration 000031 starts. A
    /// score whose file cannot be read any more keeps no words; one read twice (a lapsed
    /// lease) is written once.
    pub(crate) async fn read_old_scores(&self, after: i64) -> Result<(), Failure> {
        let retry =
            |what: &'static str| move |e: PostError| Failure::Retry(format!("{what}: {}", values::error_chain(&e)));
        let (ids, old) = self
            .db
            .run(move |conn: &mut DbConnection| {
                let ids: Vec<PostId> = post_scores::table
                    .filter(post_scores::post_id.gt(after))
                    .select(post_scores::post_id)
                    .distinct()
                    .order(post_scores::post_id)
                    .limit(OLD_SCORES_BATCH)
                    .load(conn)?;
                let old: Vec<(PostId, i64, String)> = post_scores::table
                    .filter(post_scores::post_id.eq_any(&ids))
                    .filter(post_scores::sung.eq(""))
                    .order((post_scores::post_id, post_scores::position))
                    .select((post_scores::post_id, post_scores::position, post_scores::file_key))
                    .load(conn)?;
                Ok::<_, PostError>((ids, old))
            })
            .await
            .map_err(retry("reading old scores"))?;
        let mut found: Vec<(OldScore, String)> = Vec::new();
        for (post, position, file_key) in old {
            let work =
                tempfile::NamedTempFile::new().map_err(|e| Failure::Retry(format!("a file for the job: {e}")))?;
            match self.download(&file_key, work.path()).await {
                Ok(()) => {}
                Err(Failure::GiveUp(_)) => continue, // the file is gone: no words to read
                Err(other) => return Err(other),
            }
            let name = file_key.clone();
            let read = self.processing.analyse(move || Ok(read_facts(work.path(), &name).map(|(_, f)| f.sung))).await;
            // A stored score always read once; one that does not now keeps no words.
            if let Ok(Ok(Some(sung))) = read {
                found.push((OldScore { post, position, file_key }, sung));
            }
        }
        let next = ids.last().filter(|_| ids.len() as i64 == OLD_SCORES_BATCH).copied();
        self.db
            .write(move |conn| {
                let mut posts: Vec<PostId> = Vec::new();
                for (score, sung) in &found {
                    let written = diesel::update(
                        post_scores::table
                            .filter(post_scores::post_id.eq(score.post))
                            .filter(post_scores::position.eq(score.position))
                            .filter(post_scores::file_key.eq(&score.file_key))
                            .filter(post_scores::sung.eq("")),
                    )
                    .set(post_scores::sung.eq(sung))
                    .execute(conn)?;
                    if written == 1 && !posts.contains(&score.post) {
                        posts.push(score.post);
                    }
                }
                for post in &posts {
                    crate::search::index(conn, *post)?;
                }
                if !posts.is_empty() {
                    db::changed(conn, &[db::Topic::Words])?;
                }
                if let Some(last) = next {
                    let job = db::jobs::NewJob {
                        kind: JobKind::OldScores,
                        subject: format!("after:{last}"),
                        payload: serde_json::json!({ "after": last.get() }).to_string(),
                        owner: None,
                    };
                    db::jobs::enqueue(conn, &job, None)?;
                }
                Ok::<_, PostError>(())
            })
            .await
            .map_err(retry("writing old scores' words"))
    }
}
