//! Our posts as ActivityPub `Note`s, the way Mastodon shows them natively: the caption as HTML
//! with its `#tags` and `@mentions` linked (and as `Hashtag` and `Mention` tags), what the post
//! holds as text (a track's name, a score's title and composer, a song's words with their
//! parts) and its files as attachments (tracks as audio `Document`s with their cover as `icon`,
//! pictures and videos, scores as MusicXML). Each post made, edited or deleted is announced to
//! its author's followers on other servers (`announce`).

use std::collections::HashMap;

use db::jobs::{Claimed, Failure};
use posts::{Announced, Announcement, Payload, Post};
use serde_json::{Value, json};
use url::Url;
use values::{PostId, UserId};

use crate::actors::paragraph;
use crate::{Data, Federation, FederationError, delivery, repo};

/// ActivityStreams' audience of everyone.
pub const PUBLIC: &str = "https://www.w3.org/ns/activitystreams#Public";

impl Federation {
    /// A post's object id.
    pub fn note_id(&self, post: PostId) -> Url {
        self.settings.origin.join(&format!("/ap/posts/{post}")).unwrap_or_else(|_| self.settings.origin.clone())
    }

    /// Post `id` as a `Note` with its context, as everyone may see it (`GET /ap/posts/{id}`, and
    /// the post page asked for ActivityPub): not found when a guest could not see it.
    pub async fn note_document(&self, id: PostId) -> Result<Value, FederationError> {
        let post = self.posts.post(id, None).await.map_err(|e| match e {
            posts::PostError::NotFound => FederationError::NotFound,
            other => FederationError::Posts(other),
        })?;
        let mut note = self.note(&post).await?;
        if let Some(object) = note.as_object_mut() {
            object.insert("@context".into(), crate::actors::context());
        }
        Ok(note)
    }

    /// A post as a `Note` (without its context).
    async fn note(&self, post: &Post) -> Result<Value, FederationError> {
        let logins = post.caption.as_deref().map(posts::input::mentioned_logins).unwrap_or_default();
        let mentioned: HashMap<String, UserId> = self
            .db
            .run(move |c| Ok::<_, FederationError>(repo::local_logins(c, &logins)?))
            .await?
            .into_iter()
            .collect();
        Ok(self.note_of(post, &mentioned))
    }

    fn media(&self, key: &str) -> String {
        format!("{}{}", self.settings.origin.as_str().trim_end_matches('/'), storage::url_of(key))
    }

    fn note_of(&self, post: &Post, mentioned: &HashMap<String, UserId>) -> Value {
        let s = &self.settings;
        let author = post.author.id;
        let page = format!("{}/post/{}", s.app, post.id);
        let tags = posts::tags::tags_in(post.caption.as_deref());
        let mut content = post.caption.as_deref().map(|c| caption_html(c, self, &tags, mentioned)).unwrap_or_default();
        let mut attachment = Vec::new();
        match &*post.payload {
            Payload::Audio(tracks) => {
                for t in tracks {
                    content.push_str(&paragraph(&format!("🎵 {} — {} ({})", t.title, t.artist, t.duration_text())));
                    let mut track = json!({
                        "type": "Document",
                        "mediaType": media_type(&t.file_key),
                        "url": self.media(&t.file_key),
                        "name": format!("{} — {}", t.title, t.artist),
                    });
                    if let Some(cover) = &t.cover_key {
                        track["icon"] =
                            json!({ "type": "Image", "mediaType": media_type(cover), "url": self.media(cover) });
                    }
                    attachment.push(track);
                }
            }
            Payload::Media(files) => {
                for f in files {
                    let mut file = json!({
                        "type": "Document",
                        "mediaType": media_type(&f.file_key),
                        "url": self.media(&f.file_key),
                    });
                    if let (Some(w), Some(h)) = (f.width, f.height) {
                        file["width"] = w.into();
                        file["height"] = h.into();
                    }
                    attachment.push(file);
                }
            }
            Payload::Scores(scores) => {
                for score in scores {
                    let by = if score.composer.trim().is_empty() {
                        String::new()
                    } else {
                        format!(" by {}", score.composer)
                    };
                    content.push_str(&format!(
                        "<p>🎼 <a href=\"{}\">{}</a>{}</p>",
                        escape(&page),
                        escape(&score.title),
                        escape(&by)
                    ));
                    attachment.push(json!({
                        "type": "Document",
                        "mediaType": media_type(&score.file_key),
                        "url": self.media(&score.file_key),
                        "name": format!("{}{by}", score.title),
                    }));
                }
            }
            Payload::Lyrics(l) => {
                content.push_str(&format!("<p><strong>{}</strong> — {}</p>", escape(&l.title), escape(&l.artist)));
                for part in &l.parts {
                    let label = part_label(&part.part_type);
                    let lines: Vec<String> = part.lyrics.lines().map(escape).collect();
                    content.push_str(&format!("<p><em>{}</em><br>{}</p>", escape(&label), lines.join("<br>")));
                }
            }
        }
        let mut tag: Vec<Value> = tags
            .iter()
            .map(|t| json!({ "type": "Hashtag", "href": format!("{}/tag/{t}", s.app), "name": format!("#{t}") }))
            .collect();
        tag.extend(mentioned.iter().map(|(login, user)| {
            json!({ "type": "Mention", "href": s.actor(*user), "name": format!("@{login}@{}", s.domain()) })
        }));
        let mut note = json!({
            "id": self.note_id(post.id),
            "type": "Note",
            "attributedTo": s.actor(author),
            "content": content,
            "url": page,
            "published": post.created_at.and_utc().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            "to": [PUBLIC],
            "cc": [s.collection(author, "followers")],
            "sensitive": false,
            "attachment": attachment,
            "tag": tag,
        });
        if let Some(edited) = post.edited_at {
            note["updated"] = edited.and_utc().to_rfc3339_opts(chrono::SecondsFormat::Secs, true).into();
        }
        note
    }

    /// Runs one announce job: the activity telling what became of the post, queued for each
    /// inbox of its author's followers on other servers (a server's shared inbox once).
    pub async fn announce(&self, job: &Claimed) -> Result<(), Failure> {
        let retry = |e: FederationError| Failure::Retry(e.to_string());
        let a: Announcement = serde_json::from_str(&job.payload)
            .map_err(|e| Failure::GiveUp(format!("an announcement that cannot be read: {e}")))?;
        if let Some(comment) = a.comment {
            return self.announce_comment(&a, comment).await;
        }
        let author = a.author;
        let inboxes =
            self.db.run(move |c| Ok::<_, FederationError>(repo::follower_inboxes(c, author)?)).await.map_err(retry)?;
        if inboxes.is_empty() {
            return Ok(());
        }
        if self.local_actor(author).await.map_err(retry)?.is_none() {
            return Ok(());
        }
        let s = &self.settings;
        let activity = match a.what {
            Announced::Deleted => {
                let id = s.new_activity("delete");
                json!({
                    "@context": "https://www.w3.org/ns/activitystreams",
                    "id": id,
                    "type": "Delete",
                    "actor": s.actor(author),
                    "to": [PUBLIC],
                    "object": { "id": self.note_id(a.post), "type": "Tombstone" },
                })
            }
            Announced::Created | Announced::Updated => {
                let post = match self.posts.post(a.post, None).await {
                    Ok(post) => post,
                    // Gone or hidden since: its own announcement (a delete) follows, or nothing.
                    Err(posts::PostError::NotFound) => return Ok(()),
                    Err(e) => return Err(Failure::Retry(e.to_string())),
                };
                let note = self.note(&post).await.map_err(retry)?;
                let (kind, id) = match a.what {
                    Announced::Created => {
                        ("Create", self.note_id(a.post).join(&format!("/ap/posts/{}/create", a.post)))
                    }
                    _ => ("Update", Ok(s.new_activity("update"))),
                };
                let id = id.map_err(|e| Failure::GiveUp(e.to_string()))?;
                json!({
                    "@context": crate::actors::context(),
                    "id": id,
                    "type": kind,
                    "actor": s.actor(author),
                    "published": note["published"],
                    "to": [PUBLIC],
                    "cc": [s.collection(author, "followers")],
                    "object": note,
                })
            }
        };
        let id = activity["id"].as_str().and_then(|i| Url::parse(i).ok()).ok_or(Failure::GiveUp("no id".into()))?;
        let inboxes: Vec<Url> = inboxes.iter().filter_map(|i| Url::parse(i).ok()).collect();
        self.db.write(move |c| delivery::enqueue_all(c, author, &id, &inboxes, &activity)).await.map_err(retry)
    }
}

/// Runs one announce job with the request data of the process.
pub async fn announce(data: &Data, job: &Claimed) -> Result<(), Failure> {
    data.app_data().announce(job).await
}

pub(crate) fn escape(text: &str) -> String {
    let html = paragraph(text);
    html["<p>".len()..html.len() - "</p>".len()].to_owned()
}

/// A caption as HTML: escaped, line breaks kept, its tags linked to their pages here and its
/// mentions of our people to their profiles.
pub(crate) fn caption_html(
    text: &str,
    federation: &Federation,
    tags: &[String],
    mentioned: &HashMap<String, UserId>,
) -> String {
    let s = &federation.settings;
    let mut html = String::from("<p>");
    let mut rest = text;
    let mut at_word_start = true;
    while let Some(c) = rest.chars().next() {
        let linked = if at_word_start && (c == '#' || c == '@') {
            let word_len = rest[1..]
                .find(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '-'))
                .map_or(rest.len(), |n| n + 1);
            let word = &rest[1..word_len];
            let link = match c {
                '#' => posts::tags::normalize(word).filter(|t| tags.contains(t)).map(|t| {
                    format!(
                        "<a href=\"{}/tag/{}\" class=\"mention hashtag\" rel=\"tag\">#<span>{}</span></a>",
                        escape(&s.app),
                        escape(&t),
                        escape(word)
                    )
                }),
                _ => mentioned.get(&word.to_ascii_lowercase()).map(|user| {
                    format!(
                        "<span class=\"h-card\"><a href=\"{}\" class=\"u-url mention\">@<span>{}</span></a></span>",
                        escape(&s.profile_page(*user)),
                        escape(word)
                    )
                }),
            };
            link.map(|l| (l, word_len))
        } else {
            None
        };
        match linked {
            Some((link, len)) => {
                html.push_str(&link);
                rest = &rest[len..];
                at_word_start = false;
            }
            None => {
                match c {
                    '\n' => html.push_str("<br>"),
                    c => html.push_str(&escape(c.encode_utf8(&mut [0; 4]))),
                }
                at_word_start = c.is_whitespace();
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    html.push_str("</p>");
    html
}

/// A lyrics part's label as the post page shows it (`chorus` → `Chorus`, `verse` → `Verse`).
fn part_label(kind: &str) -> String {
    let mut chars = kind.trim().chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars.map(|c| if c == '_' || c == '-' { ' ' } else { c })).collect(),
        None => "Part".into(),
    }
}

/// A stored file's media type, as our server serves it (the one table, by its key's extension).
fn media_type(key: &str) -> &'static str {
    media_validation::content_type_for(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_labels_read_as_on_the_post_page() {
        assert_eq!(part_label("chorus"), "Chorus");
        assert_eq!(part_label("pre_chorus"), "Pre chorus");
        assert_eq!(part_label(""), "Part");
        assert_eq!(media_type("a/b.mxl"), "application/vnd.recordare.musicxml");
        assert_eq!(media_type("a/b.flac"), "audio/flac");
    }
}
