//! The kinds of post, which more than one domain names (posts stores them, moderation files
//! complaints about them and counts them).

crate::text_enum! {
    /// The four kinds of post (spec §1), as stored and sent as `type`.
    pub enum PostKind {
        Media = "media",
        Audio = "audio",
        MusicXml = "musicxml",
        Lyrics = "lyrics",
    }
}

impl PostKind {
    /// How people call the kind ("Audio posts", "MusicXML posts").
    pub fn label(self) -> &'static str {
        match self {
            PostKind::Media => "Media",
            PostKind::Audio => "Audio",
            PostKind::MusicXml => "MusicXML",
            PostKind::Lyrics => "Lyrics",
        }
    }

    /// One post of the kind in a sentence, after "a" or "an": "audio post", "score".
    pub fn one(self) -> &'static str {
        match self {
            PostKind::Media => "media post",
            PostKind::Audio => "audio post",
            PostKind::MusicXml => "score",
            PostKind::Lyrics => "lyrics post",
        }
    }
}
