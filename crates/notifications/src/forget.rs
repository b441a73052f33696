//! Notifications that go with what they are about, when that is deleted.

use db::DbConnection;
use db::diesel::dsl::not;
use db::diesel::prelude::*;
use db::schema::notifications;
use values::{CommentId, UserId};

use crate::NotificationError;
use crate::repo::signal;

/// Deletes the notifications naming a comment that is being deleted (a comment on someone's
/// post, a mention in it), inside the deleting transaction, and answers whose unread count went
/// down (their streams are told once it commits, as for [`crate::record`]). The foreign key
/// would cascade too; deleting them here first is what lets the badges follow.
pub fn forget_comment(conn: &mut DbConnection, comment: CommentId) -> Result<Vec<UserId>, NotificationError> {
    let about = notifications::table.filter(notifications::comment_id.eq(comment));
    let mut unread: Vec<UserId> =
        about.filter(not(notifications::is_read)).select(notifications::recipient_id).load(conn)?;
    unread.sort_unstable();
    unread.dedup();
    diesel::delete(about).execute(conn)?;
    signal(conn, &unread)?;
    Ok(unread)
}
