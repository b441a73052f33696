//! Comments made here, told to other servers: a comment by one of our people on a post of ours
//! is a `Note` replying to the post's, sent (`Create`, then `Update` after an edit, `Delete`
//! of its `Tombstone` when it goes) to the servers of the post's author's followers (Mastodon
//! takes a reply to an account its people follow), of the commenter's followers, and of the
//! people of other servers who replied on the post (addressed in `cc`, so their servers take it
//! too). Replies from other servers, kept as comments, are never sent back out.

use std::collections::{BTreeSet, HashMap};

use db::jobs::Failure;
use posts::{Announced, Announcement};
use serde_json::{Value, json};
use url::Url;
use values::{CommentId, UserId};

use crate::notes::{PUBLIC, caption_html};
use crate::{Federation, FederationError, delivery, repo};

/// The most people of other servers who replied on a post that a comment is also sent to.
pub const PARTICIPANTS_TOLD: i64 = 50;

impl Federation {
    /// Comment `id` as a `Note` with its context (`GET /ap/comments/{id}`): not found unless it
    /// is one of ours, on a post everyone may see.
    pub async fn comment_document(&self, id: CommentId) -> Result<Value, FederationError> {
        let found = self.db.run(move |c| Ok::<_, FederationError>(posts::one_comment(c, id)?)).await?;
        let Some(comment) = found else { return Err(FederationError::NotFound) };
        if self.local_actor(comment.author.id).await?.is_none() {
            return Err(FederationError::NotFound);
        }
        if let Err(e) = self.posts.post(comment.post_id, None).await {
            return Err(match e {
                posts::PostError::NotFound => FederationError::NotFound,
                other => FederationError::Posts(other),
            });
        }
        let (note, _) = self.comment_note(&comment).await?;
        let mut note = note;
        if let Some(object) = note.as_object_mut() {
            object.insert("@context".into(), crate::actors::context());
        }
        Ok(note)
    }

    /// A comment as a `Note` replying to its post's, and the people of other servers it
    /// addresses (who replied on the post), by actor id and inbox.
    async fn comment_note(&self, comment: &posts::Comment) -> Result<(Value, Vec<(String, String)>), FederationError> {
        let s = &self.settings;
        let (post, author) = (comment.post_id, comment.author.id);
        let logins = posts::input::mentioned_logins(&comment.content);
        let (mentioned, participants) = self
            .db
            .run(move |c| {
                let mentioned: HashMap<String, UserId> = repo::local_logins(c, &logins)?.into_iter().collect();
                let participants = repo::remote_commenters(c, post, PARTICIPANTS_TOLD)?;
                Ok::<_, FederationError>((mentioned, participants))
            })
            .await?;
        let tags = posts::tags::tags_in(Some(comment.content.as_str()));
        let content = caption_html(&comment.content, self, &tags, &mentioned);
        let mut cc: Vec<Value> = vec![json!(s.collection(author, "followers"))];
        cc.extend(participants.iter().map(|(actor, _)| json!(actor)));
        let mut note = json!({
            "id": s.comment_id(comment.id),
            "type": "Note",
            "attributedTo": s.actor(author),
            "inReplyTo": self.note_id(post),
            "content": content,
            "url": format!("{}/post/{post}", s.app),
            "published": comment.created_at.and_utc().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            "to": [PUBLIC],
            "cc": cc,
        });
        if let Some(edited) = comment.edited_at {
            note["updated"] = edited.and_utc().to_rfc3339_opts(chrono::SecondsFormat::Secs, true).into();
        }
        Ok((note, participants))
    }

    /// Runs the announcement of what became of comment `id` (`a.author` wrote it).
    pub(crate) async fn announce_comment(&self, a: &Announcement, id: CommentId) -> Result<(), Failure> {
        let retry = |e: FederationError| Failure::Retry(e.to_string());
        let (commenter, post) = (a.author, a.post);
        // A reply from another server kept as a comment is theirs to tell, not ours.
        if self.local_actor(commenter).await.map_err(retry)?.is_none() {
            return Ok(());
        }
        let s = &self.settings;
        let post_author = match self.posts.post(post, None).await {
            Ok(p) => Some(p.author.id),
            Err(posts::PostError::NotFound) => None,
            Err(e) => return Err(Failure::Retry(e.to_string())),
        };
        let (activity, participants) = match a.what {
            Announced::Deleted => {
                let participants = self
                    .db
                    .run(move |c| Ok::<_, FederationError>(repo::remote_commenters(c, post, PARTICIPANTS_TOLD)?))
                    .await;
                let activity = json!({
                    "@context": "https://www.w3.org/ns/activitystreams",
                    "id": s.new_activity("delete"),
                    "type": "Delete",
                    "actor": s.actor(commenter),
                    "to": [PUBLIC],
                    "object": { "id": s.comment_id(id), "type": "Tombstone" },
                });
                (activity, participants.map_err(retry)?)
            }
            Announced::Created | Announced::Updated => {
                let found = self.db.run(move |c| Ok::<_, FederationError>(posts::one_comment(c, id)?)).await;
                // Gone since: its own announcement (a delete) follows.
                let Some(comment) = found.map_err(retry)? else { return Ok(()) };
                if post_author.is_none() {
                    return Ok(());
                }
                let (note, participants) = self.comment_note(&comment).await.map_err(retry)?;
                let (kind, activity_id) = match a.what {
                    Announced::Created => ("Create", Url::parse(&format!("{}/create", s.comment_id(id)))),
                    _ => ("Update", Ok(s.new_activity("update"))),
                };
                let activity_id = activity_id.map_err(|e| Failure::GiveUp(e.to_string()))?;
                let activity = json!({
                    "@context": crate::actors::context(),
                    "id": activity_id,
                    "type": kind,
                    "actor": s.actor(commenter),
                    "published": note["published"],
                    "to": [PUBLIC],
                    "cc": note["cc"],
                    "object": note,
                });
                (activity, participants)
            }
        };
        let mut inboxes: BTreeSet<String> = participants.into_iter().map(|(_, inbox)| inbox).collect();
        let people: Vec<UserId> = std::iter::once(commenter).chain(post_author).collect();
        let followers = self
            .db
            .run(move |c| {
                let mut all = Vec::new();
                for person in &people {
                    all.extend(repo::follower_inboxes(c, *person)?);
                }
                Ok::<_, FederationError>(all)
            })
            .await
            .map_err(retry)?;
        inboxes.extend(followers);
        if inboxes.is_empty() {
            return Ok(());
        }
        let activity_id = activity["id"]
            .as_str()
            .and_then(|i| Url::parse(i).ok())
            .ok_or(Failure::GiveUp("an activity without an id".into()))?;
        let inboxes: Vec<Url> = inboxes.iter().filter_map(|i| Url::parse(i).ok()).collect();
        self.db
            .write(move |c| delivery::enqueue_all(c, commenter, &activity_id, &inboxes, &activity))
            .await
            .map_err(retry)
    }
}
