//! Edits by their author (issue 19): the words of a post (its caption; the titles and artists of
//! its tracks, the titles and composers of its scores; a song's title, artist and parts) and of
//! a comment. Files never change: a different recording is a new post.
//!
//! An edit that changes something sets `edited_at` (shown as 'edited') and tells what changed
//! ([`Topic::Post`]); one that changes nothing writes nothing. The payload a process remembers
//! is kept for the `edited_at` it was read with (`crate::cache`), so an edit through any process
//! is seen by all of them at their next read of the post's row.

use std::collections::HashSet;

use db::diesel::prelude::*;
use db::schema::{comment_mentions, comments, post_audio, post_lyrics, post_scores, posts};
use db::{DbConnection, Topic};
use values::{CommentId, PostId, PostKind, UserId};

use crate::PostError;
use crate::comments::{Commented, resolve_mentions};
use crate::input::{Caption, CommentText, LyricsInput, LyricsPartInput, label};
use crate::kinds::lyrics::LyricsRow;
use crate::model::{AudioTrack, Comment, Payload, Post, Score};

/// An edit of a post as its author sent it: each field `None` stays as it is. `caption`
/// `Some(None)` or blank takes the caption away. `titles` and `artists` (audio) or `composers`
/// (sheet music) name every track or score in order; `song_title`, `artist_name` and `parts`
/// are a song's, as a new lyrics post takes them.
#[derive(Debug, Clone, Default)]
pub struct PostEdit {
    pub caption: Option<Option<String>>,
    pub titles: Option<Vec<String>>,
    pub artists: Option<Vec<String>>,
    pub composers: Option<Vec<String>>,
    pub song_title: Option<String>,
    pub artist_name: Option<String>,
    pub parts: Option<Vec<LyricsPartInput>>,
    /// Audio: a genre of `crate::genre`'s list; `Some(None)` or blank takes it away.
    pub genre: Option<Option<String>>,
}

/// "an audio post": for messages.
fn kind_words(kind: PostKind) -> &'static str {
    match kind {
        PostKind::Media => "a picture or video post",
        PostKind::Audio => "an audio post",
        PostKind::MusicXml => "a sheet music post",
        PostKind::Lyrics => "a lyrics post",
    }
}

impl PostEdit {
    /// The post's caption, payload and genre with this edit applied, checked as a new post's are.
    fn apply(self, post: &Post) -> Result<(Option<String>, Payload, Option<String>), PostError> {
        let kind = post.kind();
        let refuse = |field: &'static str| PostError::EditDoesNotApply { field, kind: kind_words(kind) };
        let caption = match self.caption {
            Some(sent) => Caption::parse(sent.as_deref())?.map(Caption::into_inner),
            None => post.caption.clone(),
        };
        let genre = match self.genre {
            Some(_) if kind != PostKind::Audio => return Err(refuse("genre")),
            Some(sent) => crate::genre::parse(sent.as_deref())?.map(str::to_owned),
            None => post.genre.clone(),
        };
        let lyrics_sent = self.song_title.is_some() || self.artist_name.is_some() || self.parts.is_some();
        let payload = match &*post.payload {
            Payload::Media(files) => {
                let sent = [
                    ("titles", self.titles.is_some()),
                    ("artists", self.artists.is_some()),
                    ("composers", self.composers.is_some()),
                    ("songTitle, artistName and parts", lyrics_sent),
                ];
                if let Some((field, _)) = sent.into_iter().find(|(_, sent)| *sent) {
                    return Err(refuse(field));
                }
                Payload::Media(files.clone())
            }
            Payload::Audio(tracks) => {
                if self.composers.is_some() {
                    return Err(refuse("composers"));
                }
                if lyrics_sent {
                    return Err(refuse("songTitle, artistName and parts"));
                }
                let titles = labels(self.titles, tracks.len(), "titles", "title", "track")?;
                let artists = labels(self.artists, tracks.len(), "artists", "artist", "track")?;
                Payload::Audio(
                    tracks
                        .iter()
                        .enumerate()
                        .map(|(i, t)| AudioTrack {
                            title: pick(&titles, i, &t.title),
                            artist: pick(&artists, i, &t.artist),
                            ..t.clone()
                        })
                        .collect(),
                )
            }
            Payload::Scores(scores) => {
                if self.artists.is_some() {
                    return Err(refuse("artists"));
                }
                if lyrics_sent {
                    return Err(refuse("songTitle, artistName and parts"));
                }
                let titles = labels(self.titles, scores.len(), "titles", "title", "score")?;
                let composers = labels(self.composers, scores.len(), "composers", "composer", "score")?;
                Payload::Scores(
                    scores
                        .iter()
                        .enumerate()
                        .map(|(i, s)| Score {
                            title: pick(&titles, i, &s.title),
                            composer: pick(&composers, i, &s.composer),
                            ..s.clone()
                        })
                        .collect(),
                )
            }
            Payload::Lyrics(song) => {
                let sent = [("titles", self.titles.is_some()), ("artists", self.artists.is_some())];
                if let Some((field, _)) = sent.into_iter().find(|(_, sent)| *sent) {
                    return Err(refuse(field));
                }
                if self.composers.is_some() {
                    return Err(refuse("composers"));
                }
                // Checked whole, as a new song is: what was not sent is what the song has.
                let parts = self.parts.unwrap_or_else(|| {
                    song.parts
                        .iter()
                        .map(|p| LyricsPartInput {
                            part_type: Some(p.part_type.clone()),
                            lyrics: Some(p.lyrics.clone()),
                        })
                        .collect()
                });
                let input = LyricsInput {
                    song_title: Some(self.song_title.unwrap_or_else(|| song.title.clone())),
                    artist_name: Some(self.artist_name.unwrap_or_else(|| song.artist.clone())),
                    parts,
                    caption: None,
                };
                Payload::Lyrics(input.check()?.0)
            }
        };
        Ok((caption, payload, genre))
    }
}

/// The labels sent for a post's `count` items, cleaned as a new post's are: one for each item,
/// none blank. None when none were sent.
fn labels(
    sent: Option<Vec<String>>,
    count: usize,
    field: &'static str,
    one: &'static str,
    item: &'static str,
) -> Result<Option<Vec<String>>, PostError> {
    let Some(sent) = sent else { return Ok(None) };
    if sent.len() != count {
        return Err(PostError::EditCount { field, count, item });
    }
    sent.iter()
        .map(|text| {
            crate::input::plain(text)?;
            label(Some(text)).ok_or(PostError::BlankLabel(one))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

fn pick(sent: &Option<Vec<String>>, i: usize, current: &str) -> String {
    sent.as_ref().and_then(|s| s.get(i)).cloned().unwrap_or_else(|| current.to_owned())
}

/// Applies `edit` to `post` (as read for its author, inside the caller's transaction) and
/// writes what changed. Answers whether anything did.
pub(crate) fn edit_post(conn: &mut DbConnection, me: UserId, post: &Post, edit: PostEdit) -> Result<bool, PostError> {
    if post.author.id != me {
        return Err(PostError::NotEditor);
    }
    let (caption, payload, genre) = edit.apply(post)?;
    if caption == post.caption && payload == *post.payload && genre == post.genre {
        return Ok(false);
    }
    match &payload {
        Payload::Media(_) => {}
        Payload::Audio(tracks) => {
            for (position, t) in (0i64..).zip(tracks) {
                diesel::update(post_audio::table.find((post.id, position)))
                    .set((post_audio::title.eq(&t.title), post_audio::artist.eq(&t.artist)))
                    .execute(conn)?;
            }
        }
        Payload::Scores(scores) => {
            for (position, s) in (0i64..).zip(scores) {
                diesel::update(post_scores::table.find((post.id, position)))
                    .set((post_scores::title.eq(&s.title), post_scores::composer.eq(&s.composer)))
                    .execute(conn)?;
            }
        }
        Payload::Lyrics(song) => {
            let row = LyricsRow::new(post.id, song.clone());
            diesel::update(post_lyrics::table.find(post.id))
                .set((
                    post_lyrics::title.eq(&row.title),
                    post_lyrics::artist.eq(&row.artist),
                    post_lyrics::parts.eq(&row.parts),
                ))
                .execute(conn)?;
        }
    }
    diesel::update(posts::table.find(post.id))
        .set((posts::caption.eq(&caption), posts::genre.eq(&genre), posts::edited_at.eq(edited_at(post.edited_at))))
        .execute(conn)?;
    crate::search::index(conn, post.id)?;
    let lyrics: Vec<&str> = match &payload {
        Payload::Lyrics(song) => song.words().collect(),
        _ => Vec::new(),
    };
    crate::tags::write(conn, post.id, me, genre.as_deref(), caption.as_deref().into_iter().chain(lyrics))?;
    db::changed(conn, &[Topic::Post(post.id), Topic::Words])?;
    Ok(true)
}

/// Now, or just after the last edit if the clock reads earlier (another process's clock): a
/// payload is remembered for the `edited_at` it was read with, so every edit must move it.
fn edited_at(last: Option<chrono::NaiveDateTime>) -> chrono::NaiveDateTime {
    let now = db::time::now();
    match last {
        Some(last) if last >= now => last + chrono::Duration::microseconds(1),
        _ => now,
    }
}

/// Changes the text of comment `id` on `post`, written by `me`, inside the caller's
/// transaction: its mentions become those of the new text, and `to_notify` holds only the
/// people it did not mention before (whether they were told of it at some earlier time is the
/// caller's to check). The same text writes nothing. A comment that is missing, on another post
/// or hidden from `me` is not found; someone else's is forbidden.
pub fn edit_comment(
    conn: &mut DbConnection,
    me: UserId,
    post: PostId,
    id: CommentId,
    text: &str,
) -> Result<Commented, PostError> {
    let content = CommentText::parse(text)?.into_inner();
    let found = crate::comments::visible_comment(conn, id, me)?.filter(|c| c.post.id == post);
    let found = found.ok_or(PostError::CommentNotFound)?;
    if found.author != me {
        return Err(PostError::NotCommentEditor);
    }
    let before: Comment = crate::comments::one(conn, id)?.ok_or(PostError::CommentNotFound)?;
    if before.content == content {
        return Ok(Commented { comment: before, post_author: found.post.author, to_notify: Vec::new() });
    }
    let mentioned_before: HashSet<UserId> = before.mentions.iter().map(|m| m.user_id).collect();
    let resolved = resolve_mentions(conn, me, found.post.author, &content)?;
    let edited_at = edited_at(before.edited_at);
    diesel::update(comments::table.find(id))
        .set((comments::content.eq(&content), comments::edited_at.eq(edited_at)))
        .execute(conn)?;
    diesel::delete(comment_mentions::table.filter(comment_mentions::comment_id.eq(id))).execute(conn)?;
    crate::comments::insert_mentions(conn, id, &resolved.mentioned)?;
    db::changed(conn, &[Topic::Comments(post)])?;
    let mentions = resolved.mentions();
    let to_notify = resolved.to_notify.into_iter().filter(|u| !mentioned_before.contains(u)).collect();
    let comment = Comment { content, edited_at: Some(edited_at), mentions, ..before };
    Ok(Commented { comment, post_author: found.post.author, to_notify })
}
