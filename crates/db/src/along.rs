//! What a domain reads of a viewer new to the process, read along with the statement that
//! checks their session.
//!
//! A person's first page in a process asks two things of the database before anything else:
//! whether their session still stands (auth), and what they like, reposted and listen to
//! (posts' memory). On PostgreSQL each is a round trip, and with a community's people coming
//! and going every person is new to a process once a minute: the two were a third of
//! PostgreSQL's statements (issue 30). The domain that wants something of the viewer offers it
//! as [`Along`], one text column of SQL; auth, which does not depend on it, puts that column in
//! its session check and hands back what it answered, with the moment noted before the read.

use std::sync::Arc;

use values::UserId;

use crate::Seen;

/// One column of SQL for a viewer, read along with another domain's statement about them.
pub trait Along: Send + Sync {
    /// The column wanted of `viewer` now, none when what it reads is held: an SQL expression
    /// answering text (or NULL) in which each `?` stands for the viewer's id. The same text for
    /// the same need, so that the statement it becomes is prepared once.
    fn wanted(&self, viewer: UserId) -> Option<&'static str>;

    /// What the column answered for `viewer` (none for NULL), read after `seen` was noted. Not
    /// called when the statement found no row (a session that does not stand).
    fn found(&self, viewer: UserId, seen: Option<Seen>, text: Option<String>);
}

/// A shared [`Along`].
pub type Alongside = Arc<dyn Along>;
