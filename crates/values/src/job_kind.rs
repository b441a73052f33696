//! The kinds of background work (`db::jobs`): each names the domain that does it and what its
//! payload says, so the runner can hand a claimed job to the right use case.

crate::text_enum! {
    /// What a job does.
    pub enum JobKind {
        /// Encodes one track into the renditions players stream (Opus and AAC), and measures
        /// its loudness when it was uploaded before loudness was; payload
        /// `{"post": id, "position": n}`.
        TrackRenditions = "track.renditions",
        /// Queues [`JobKind::TrackRenditions`] for tracks uploaded before renditions existed, a
        /// batch of posts at a time; payload `{"after": post id}` (where the last batch ended).
        OldTracks = "tracks.old",
        /// Reads the words sung in the scores of score posts made before they were read
        /// (issue 34), a batch of posts at a time; payload `{"after": post id}`.
        OldScores = "scores.old",
        /// Delivers one of our activities to one inbox of another server (federation);
        /// payload `{"from": user, "inbox": url, "activity": {...}}`.
        Deliver = "federation.deliver",
        /// Tells other servers what became of a post (made, edited, deleted): builds the
        /// activity and queues a [`JobKind::Deliver`] per inbox; payload
        /// `{"post": id, "author": user, "what": "created"|"updated"|"deleted"}`.
        Announce = "federation.announce",
        /// Builds the archive of a person's data they asked for and e-mails its link
        /// (`app::export`); payload `{"export": id}`.
        DataExport = "account.export",
        /// Removes an archive and its row once its link has expired; payload `{"export": id}`.
        DataExportExpiry = "account.export.expiry",
        /// Pushes one notification (or a test message) to one of its recipient's devices
        /// (`notifications::push`); payload `{"device": id, "notification": id | null}`.
        Push = "notification.push",
    }
}
