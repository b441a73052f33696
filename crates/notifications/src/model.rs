//! What a notification is, and the rows it is stored in.

use chrono::NaiveDateTime;
use db::model::UserCard;
use db::schema::notifications;
use diesel::prelude::*;
use values::{CommentId, NotificationId, PostId, UserId};

values::text_enum! {
    /// The four kinds of spec §3 (stored and sent as `type`), and reposts (issue 31; sent as
    /// the spec's `other`, [`Kind::spec_type`]), each with the words the list shows after the
    /// sender's name.
    pub enum Kind {
        /// Someone @mentioned the recipient in a comment.
        Mention = "mention",
        /// Someone commented on the recipient's post.
        Comment = "comment",
        /// Someone started listening to the recipient.
        Listening = "listening",
        /// Someone liked the recipient's post (the spec's `other`).
        Like = "other",
        /// Someone reposted the recipient's post to their listeners.
        Repost = "repost",
    }
}

impl Kind {
    /// What the sender did, as the list reads it after their name.
    pub fn action(self) -> &'static str {
        match self {
            Kind::Mention => "mentioned you in a comment",
            Kind::Comment => "commented on your post",
            Kind::Listening => "started listening to you",
            Kind::Like => "liked your post",
            Kind::Repost => "reposted your post",
        }
    }

    /// The spec's `type` of it (mention, comment, listening or other): a repost is `other`, as a
    /// like is, so that a client that knows the four shows it by its message.
    pub fn spec_type(self) -> &'static str {
        match self {
            Kind::Repost => Kind::Like.as_str(),
            other => other.as_str(),
        }
    }

    /// What happened once per sender and post (or person) is told once, however often it is
    /// undone and done again.
    pub fn told_once(self) -> bool {
        matches!(self, Kind::Like | Kind::Listening | Kind::Repost)
    }
}

/// Something that happened to someone, to be written as a notification by [`crate::record`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub recipient: UserId,
    pub sender: UserId,
    pub kind: Kind,
    pub post: Option<PostId>,
    /// The comment, for comments and mentions: the notification goes when it does.
    pub comment: Option<CommentId>,
    /// The start of the comment, for comments and mentions.
    pub excerpt: Option<String>,
}

/// At most this many characters of a comment travel with its notification.
pub const EXCERPT_CHARS: usize = 100;

/// The start of a comment as its notification quotes it: whitespace folded, at most
/// [`EXCERPT_CHARS`] characters, with an ellipsis when cut.
pub fn excerpt(text: &str) -> String {
    let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if folded.chars().count() <= EXCERPT_CHARS {
        return folded;
    }
    let cut: String = folded.chars().take(EXCERPT_CHARS - 1).collect();
    format!("{}…", cut.trim_end())
}

// `None` is written as NULL, not `DEFAULT` (the columns have none): one text, so the insert of
// every like, comment and listen is kept prepared.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = notifications, treat_none_as_default_value = false)]
pub(crate) struct NotificationRow {
    pub id: NotificationId,
    pub recipient_id: UserId,
    pub sender_id: UserId,
    pub kind: Kind,
    pub post_id: Option<PostId>,
    pub excerpt: Option<String>,
    pub created_at: NaiveDateTime,
    pub is_read: bool,
    pub comment_id: Option<CommentId>,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = notifications)]
pub(crate) struct ListedRow {
    pub id: NotificationId,
    pub kind: Kind,
    pub post_id: Option<PostId>,
    pub excerpt: Option<String>,
    pub created_at: NaiveDateTime,
    pub is_read: bool,
}

/// A notification as its recipient's list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    pub id: NotificationId,
    pub kind: Kind,
    pub sender: UserCard,
    pub post: Option<PostId>,
    pub excerpt: Option<String>,
    pub created_at: NaiveDateTime,
    pub read: bool,
}

impl Notification {
    /// The action text of spec §3's `message`: what the sender did, with the start of the
    /// comment when there is one.
    pub fn message(&self) -> String {
        match &self.excerpt {
            Some(text) if !text.is_empty() => format!("{}: \u{201c}{text}\u{201d}", self.kind.action()),
            _ => self.kind.action().to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_travel_by_the_spec_names() {
        for k in [Kind::Mention, Kind::Comment, Kind::Listening, Kind::Like] {
            assert_eq!(Kind::parse(k.as_str()), Some(k));
        }
        assert_eq!(Kind::Like.as_str(), "other");
        assert_eq!(Kind::parse("like"), None);
        assert_eq!(Kind::parse("repost"), Some(Kind::Repost));
        assert_eq!(Kind::Repost.spec_type(), "other");
        assert_eq!(Kind::Comment.spec_type(), "comment");
    }

    #[test]
    fn an_excerpt_folds_whitespace_and_cuts_long_text() {
        assert_eq!(excerpt("  so\n\ngood  "), "so good");
        let long = "word ".repeat(40);
        let cut = excerpt(&long);
        assert!(cut.ends_with('…'));
        assert!(cut.chars().count() <= EXCERPT_CHARS);
        assert_eq!(excerpt(&"é".repeat(EXCERPT_CHARS)), "é".repeat(EXCERPT_CHARS), "counted in characters");
    }
}
