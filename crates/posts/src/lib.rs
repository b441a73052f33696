//! Posts of four kinds (media, audio, sheet music, lyrics), the feeds that list them, the post
//! page, likes and comments with @mentions.
//!
//! Like the other domains: functions taking `&mut DbConnection` run inside their caller's
//! transaction ([`release_account`], [`delete_post_rows`], [`toggle_like`], [`add_comment`]), and [`Posts`] holds this domain's
//! use cases, one transaction each. Stored objects (audio, images, scores) are written before a
//! post's transaction and removed if it does not commit; a deleted post's objects are removed
//! after its transaction has committed.

mod comments;
mod create;
pub mod discover;
mod edit;
mod error;
pub mod export;
mod feed;
pub mod ffmpeg;
#[doc(hidden)]
pub mod fuzzing;
pub mod genre;
pub mod input;
mod kinds;
mod memory;
mod model;
pub mod playlists;
pub mod plays;
pub mod renditions;
mod repo;
pub mod reposts;
pub mod search;
mod service;
pub mod syncs;
pub mod tags;

pub use comments::{
    COMMENTS_PAGE, CommentRef, Commented, MENTION_PAGE, MENTIONS_NOTIFIED, MOMENTS_SHOWN, RemovedBy,
    add as add_comment, delete_rows as delete_comment_rows, list as comment_page, moments as comment_moments,
    one as one_comment, removable as removable_comment, texts as comment_texts, visible_comment,
};
pub use edit::{PostEdit, edit_comment};
pub use error::{PostError, UploadDefect};
pub use feed::{DENSE_LISTENING, FEED_PAGE, Feed, FeedPage, one as find_post, page as feed_page};
pub use input::{Caption, CommentMoment, CommentText, LyricsInput, LyricsPartInput, MomentInput};
pub use kinds::audio::AudioUpload;
pub use kinds::media::MediaUpload;
pub use kinds::scores::ScoreUpload;
pub use kinds::{UploadKind, stored_columns};
pub use model::{
    AudioTrack, Comment, Lyrics, LyricsPart, MediaFile, MediaType, Mention, Payload, Post, RepostMark, Score,
};
pub use repo::{Announced, Announcement};
pub use repo::{
    LikeToggle, PostRef, delete_post_rows, existing as existing_posts, marks_of, toggle_like, visible as visible_post,
};
pub use service::{Discovered, Posts, release_account};
