//! What can go wrong with posts, each with the detail a person should read (spec §5, §8).

use media_validation::MediaError;
use values::{DomainError, ErrorKind};

#[derive(Debug, thiserror::Error)]
pub enum PostError {
    #[error("Post not found")]
    NotFound,
    #[error("You can only delete your own posts")]
    NotAuthor,
    /// Missing, on another post, or hidden from the caller by a block with its author.
    #[error("Comment not found")]
    CommentNotFound,
    #[error("You can only delete your own comments, or comments on your own posts")]
    NotCommentAuthor,
    #[error("User not found")]
    UserNotFound,
    /// Reposts pass someone else's post on (issue 31).
    #[error("You cannot repost your own post")]
    OwnRepost,

    // Playlists (issue 31).
    #[error("Playlist not found")]
    PlaylistNotFound,
    #[error("You can only change your own playlists")]
    NotPlaylistOwner,
    #[error("A playlist needs a title")]
    PlaylistTitleBlank,
    #[error("A playlist's title can be at most 100 characters")]
    PlaylistTitleTooLong,
    #[error("A playlist's description can be at most 1000 characters")]
    PlaylistDescriptionTooLong,
    #[error("You can have at most 200 playlists")]
    TooManyPlaylists,
    #[error("A playlist holds at most 500 tracks")]
    PlaylistFull,
    #[error("Only audio tracks and scores go in a playlist")]
    NotForPlaylists,
    #[error("This track is already in the playlist")]
    AlreadyInPlaylist,
    #[error("This track is not in the playlist")]
    PlaylistItemNotFound,
    #[error("A place in a playlist counts from 0")]
    PlaylistPlaceNegative,

    // A score following a recording (issue 35).
    #[error("Only sheet music posts follow a recording")]
    NotAScore,
    #[error("You can only link recordings to your own scores")]
    NotSyncAuthor,
    #[error("Recording not found")]
    RecordingNotFound,
    #[error("A score follows a track of an audio post")]
    RecordingNotAudio,
    #[error("This score has no recording")]
    NoRecording,
    #[error("A sync map needs at least 2 bars")]
    SyncTooShort,
    #[error("A sync map has at most 1500 bars")]
    SyncTooLong,
    #[error("Bars count from 0 and times from 0 ms")]
    SyncNegative,
    /// Its place in the map, from 1.
    #[error("Point {0} must be a later bar at a later time than the one before")]
    SyncNotIncreasing(usize),
    #[error("Point {point} is past the end of the track ({end})")]
    SyncPastEnd { point: usize, end: String },

    // Edits (issue 19).
    #[error("You can only edit your own posts")]
    NotEditor,
    #[error("You can only edit your own comments")]
    NotCommentEditor,
    /// A field of another kind of post.
    #[error("{field} cannot be changed on {kind}")]
    EditDoesNotApply { field: &'static str, kind: &'static str },
    #[error("Send {count} {field}, one for each {item} of the post")]
    EditCount { field: &'static str, count: usize, item: &'static str },
    #[error("A {0} cannot be blank")]
    BlankLabel(&'static str),

    // Audio (spec §5 Audio post).
    #[error("Please select at least one audio file")]
    NoAudio,
    #[error("Maximum 10 audio files allowed per post")]
    TooManyAudio,
    #[error("{0} is not an audio file")]
    NotAudio(String),
    #[error("{0} exceeds 50MB limit")]
    AudioTooLarge(String),
    /// The tracks of one post share a decoding budget (`limits::AUDIO_POST_MAX_SECONDS`).
    #[error("The tracks of a post can last at most {hours} hours in all")]
    AudioTotalTooLong { hours: u64 },

    // Media (spec §5 Media post).
    #[error("Please select at least one file")]
    NoMedia,
    #[error("Maximum 5 files allowed per post")]
    TooManyMedia,
    #[error("Unsupported file type: {0}. Allowed: jpeg, jpg, png, gif, webp, mp4, mov, avi, mkv, webm")]
    UnsupportedMedia(String),
    #[error("File size exceeds {limit_mb}MB limit")]
    MediaTooLarge { limit_mb: u64 },
    #[error("Total file size exceeds 200MB limit")]
    MediaTotalTooLarge,
    /// Videos are checked and cleaned with ffmpeg; without it none are taken (docs/media.md).
    #[error("Video uploads are not available on this server right now; pictures still are")]
    VideoUnavailable,

    /// A request larger than all the files a kind allows at their largest.
    #[error("The upload is too large: at most {files} files of {limit_mb}MB")]
    UploadTooLarge { files: usize, limit_mb: u64 },

    // Sheet music (spec §5 MusicXML post).
    #[error("Please select at least one MusicXML file")]
    NoScore,
    #[error("Maximum 5 MusicXML files allowed per post")]
    TooManyScores,
    #[error("{0} is not a valid MusicXML file")]
    NotMusicXml(String),
    #[error("{0} exceeds 10MB limit")]
    ScoreTooLarge(String),

    // Lyrics (spec §5 Lyrics post).
    #[error("Please fill in all required fields")]
    LyricsIncomplete,
    #[error("A song can have at most 10 parts")]
    TooManyParts,
    #[error("Unknown part type: {0}. Use intro, verse, pre-chorus, chorus, bridge or outro")]
    UnknownPartType(String),

    /// A file that is what it claims to be but cannot be used.
    #[error("{file}: {defect}")]
    Unreadable { file: String, defect: UploadDefect },

    /// NUL cannot be stored (PostgreSQL refuses it in text) and never belongs in what people write.
    #[error("Text cannot contain a NUL character")]
    NulCharacter,
    /// Control characters but line breaks and tabs, and text-direction overrides
    /// (`values::hidden_character`).
    #[error("Text cannot contain control or text-direction characters")]
    HiddenCharacters,
    #[error("The caption is too long (at most 2000 characters)")]
    CaptionTooLong,
    #[error("Write something before publishing")]
    EmptyComment,
    #[error("A comment can be at most 2000 characters")]
    CommentTooLong,
    /// `track` sent without `at_ms`, or either below zero.
    #[error("A comment on a moment needs at_ms, a time in milliseconds from 0, and may name its track from 0")]
    MomentUnclear,
    #[error("Only comments on audio posts can be on a moment of a track")]
    MomentNotOnAudio,
    /// `bar_end` without `bar`, either below 1, an end before the start, or a time as well.
    #[error("A comment on bars needs bar, counted from 1, and may end at bar_end, no earlier")]
    BarsUnclear,
    #[error("Only comments on sheet music can be on bars")]
    BarsNotOnScore,
    #[error("This post has no score {0}")]
    NoSuchScore(i64),
    #[error("This post has no track {0}")]
    NoSuchTrack(i64),
    #[error("The time is past the end of the track ({0})")]
    MomentPastEnd(String),

    // Genres (issue 31).
    #[error(
        "Unknown genre: {0}. Choose one of Acoustic, Ambient, Blues, Classical, Country, Electronic, Experimental, Folk, Funk, Hip-hop, Jazz, Latin, Metal, Pop, Punk, R&B, Reggae, Rock, Soul or Soundtrack"
    )]
    UnknownGenre(String),
    #[error("Only audio posts have a genre")]
    GenreNotOnAudio,

    // Plays (issue 31).
    #[error("Only audio tracks and scores are played")]
    NotPlayable,

    /// A search that ran past [`crate::search::SEARCH_TIME_LIMIT`] (PostgreSQL).
    #[error("This search takes too long to answer: try other words, or one kind of post")]
    SearchTooCostly,

    #[error(transparent)]
    Db(#[from] db::DbError),
    #[error("storing a file failed")]
    Storage(#[from] storage::StorageError),
    #[error("processing an upload failed: {0}")]
    Processing(String),
}

/// Why a file of an accepted kind cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UploadDefect {
    #[error("the file is damaged or incomplete")]
    Damaged,
    #[error("{0}")]
    Media(MediaError),
    #[error("no picture of the video could be decoded")]
    NoVideoFrame,
    #[error("the video took too long to check")]
    VideoTooSlow,
}

impl From<diesel::result::Error> for PostError {
    fn from(e: diesel::result::Error) -> Self {
        PostError::Db(e.into())
    }
}

impl DomainError for PostError {
    fn kind(&self) -> ErrorKind {
        use PostError::*;
        match self {
            NotFound | UserNotFound | CommentNotFound | PlaylistNotFound | PlaylistItemNotFound => ErrorKind::NotFound,
            RecordingNotFound | NoRecording => ErrorKind::NotFound,
            NotSyncAuthor => ErrorKind::Forbidden,
            NotAScore
            | RecordingNotAudio
            | SyncTooShort
            | SyncTooLong
            | SyncNegative
            | SyncNotIncreasing(_)
            | SyncPastEnd { .. } => ErrorKind::Invalid,
            NotAuthor | NotCommentAuthor | NotEditor | NotCommentEditor | NotPlaylistOwner => ErrorKind::Forbidden,
            AlreadyInPlaylist => ErrorKind::Conflict,
            PlaylistTitleBlank
            | PlaylistTitleTooLong
            | PlaylistDescriptionTooLong
            | TooManyPlaylists
            | PlaylistFull
            | NotForPlaylists
            | PlaylistPlaceNegative => ErrorKind::Invalid,
            EditDoesNotApply { .. } | EditCount { .. } | BlankLabel(_) => ErrorKind::Invalid,
            NoAudio
            | NoMedia
            | NoScore
            | LyricsIncomplete
            | TooManyParts
            | UnknownPartType(_)
            | Unreadable { .. }
            | NulCharacter
            | HiddenCharacters
            | CaptionTooLong
            | EmptyComment
            | CommentTooLong
            | MomentUnclear
            | MomentNotOnAudio
            | BarsUnclear
            | BarsNotOnScore
            | NoSuchScore(_)
            | NoSuchTrack(_)
            | MomentPastEnd(_)
            | NotPlayable
            | UnknownGenre(_)
            | GenreNotOnAudio
            | OwnRepost
            | SearchTooCostly => ErrorKind::Invalid,
            TooManyAudio
            | AudioTooLarge(_)
            | AudioTotalTooLong { .. }
            | TooManyMedia
            | MediaTooLarge { .. }
            | MediaTotalTooLarge
            | UploadTooLarge { .. }
            | TooManyScores
            | ScoreTooLarge(_) => ErrorKind::TooLarge,
            NotAudio(_) | UnsupportedMedia(_) | NotMusicXml(_) => ErrorKind::UnsupportedType,
            Db(e) => e.kind(),
            Storage(e) => match e.kind() {
                // Our own key missing is our fault, not the person's.
                ErrorKind::NotFound | ErrorKind::Invalid => ErrorKind::Internal,
                other => other,
            },
            VideoUnavailable => ErrorKind::Unavailable,
            Processing(_) => ErrorKind::Internal,
        }
    }

    fn is_public(&self) -> bool {
        // Written for the person: videos are off here, not the server busy.
        matches!(self, PostError::VideoUnavailable)
            || !matches!(self.kind(), ErrorKind::Internal | ErrorKind::Unavailable)
    }
}
