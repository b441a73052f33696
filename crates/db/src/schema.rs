//! Diesel's view of the tables (kept by hand; the migrations under `migrations/` are the source).

diesel::table! {
    users (id) {
        id -> BigInt,
        name -> Text,
        login -> Text,
        email -> Nullable<Text>,
        password_hash -> Nullable<Text>,
        description -> Nullable<Text>,
        avatar_url -> Nullable<Text>,
        tag_id -> Nullable<Text>,
        is_admin -> Bool,
        email_verified -> Bool,
        google_sub -> Nullable<Text>,
        created_at -> Timestamp,
        posts_count -> BigInt,
        listeners_count -> BigInt,
        listened_to_count -> BigInt,
    }
}

diesel::table! {
    listens (listener_id, listened_id) {
        listener_id -> BigInt,
        listened_id -> BigInt,
        created_at -> Timestamp,
    }
}

diesel::table! {
    blocks (blocker_id, blocked_id) {
        blocker_id -> BigInt,
        blocked_id -> BigInt,
        created_at -> Timestamp,
    }
}

diesel::table! {
    sessions (id) {
        id -> BigInt,
        user_id -> BigInt,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        user_agent -> Nullable<Text>,
        last_seen_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    password_reset_tokens (token_hash) {
        token_hash -> Text,
        user_id -> BigInt,
        created_at -> Timestamp,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    email_verification_tokens (token_hash) {
        token_hash -> Text,
        user_id -> BigInt,
        name -> Text,
        password_hash -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    throttle_buckets (key) {
        key -> Text,
        window_start -> Timestamp,
        hits -> BigInt,
    }
}

diesel::table! {
    oidc_logins (state) {
        state -> Text,
        pkce_verifier -> Text,
        nonce -> Text,
        return_to -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    posts (id) {
        id -> BigInt,
        user_id -> BigInt,
        kind -> Text,
        caption -> Nullable<Text>,
        created_at -> Timestamp,
        likes_count -> BigInt,
        comments_count -> BigInt,
        edited_at -> Nullable<Timestamp>,
        /// Counted plays of all its tracks or scores (issue 31).
        plays_count -> BigInt,
        /// An audio post's genre (`posts::genre`).
        genre -> Nullable<Text>,
        /// How many people reposted it (issue 31).
        reposts_count -> BigInt,
        /// Changes background work made to its payload (`posts::renditions`).
        payload_rev -> BigInt,
    }
}

diesel::table! {
    /// Counted plays of a post by day (days since 1970-01-01, UTC): what Discover reads.
    plays_daily (post_id, day) {
        post_id -> BigInt,
        day -> BigInt,
        plays -> BigInt,
    }
}

diesel::table! {
    /// Work a migration left to the application, and how far it got (`posts::tags::backfill`).
    backfills (name) {
        name -> Text,
        after_id -> BigInt,
    }
}

diesel::table! {
    /// A person's playlist (issue 31).
    playlists (id) {
        id -> BigInt,
        user_id -> BigInt,
        title -> Text,
        description -> Nullable<Text>,
        is_public -> Bool,
        items_count -> BigInt,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    /// A sheet-music post's score following a track of an audio post (`posts::syncs`).
    score_recordings (post_id, score) {
        post_id -> BigInt,
        score -> BigInt,
        recording_id -> BigInt,
        track -> BigInt,
        points -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    /// A track or score of a post in a playlist, by its place in the post.
    playlist_items (id) {
        id -> BigInt,
        playlist_id -> BigInt,
        position -> BigInt,
        post_id -> BigInt,
        track -> BigInt,
        added_at -> Timestamp,
    }
}

diesel::table! {
    /// A post passed on by a person to their listeners (issue 31); the id orders it among posts.
    reposts (id) {
        id -> BigInt,
        post_id -> BigInt,
        user_id -> BigInt,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Every post's words, for finding music (issue 20): an FTS5 table on SQLite, a `tsvector`
    /// on PostgreSQL (`document`, named only in SQL written for it: `posts::search`).
    posts_search (rowid) {
        rowid -> BigInt,
    }
}

diesel::table! {
    post_media (post_id, position) {
        post_id -> BigInt,
        position -> BigInt,
        id -> BigInt,
        file_key -> Text,
        file_type -> Text,
        width -> Nullable<BigInt>,
        height -> Nullable<BigInt>,
        display_key -> Nullable<Text>,
        poster_key -> Nullable<Text>,
    }
}

diesel::table! {
    post_audio (post_id, position) {
        post_id -> BigInt,
        position -> BigInt,
        title -> Text,
        artist -> Text,
        file_key -> Text,
        cover_key -> Nullable<Text>,
        duration_ms -> BigInt,
        peaks -> Nullable<Text>,
        plays_count -> BigInt,
        loudness_lufs -> Nullable<Double>,
        true_peak_dbtp -> Nullable<Double>,
        opus_key -> Nullable<Text>,
        aac_key -> Nullable<Text>,
    }
}

diesel::table! {
    jobs (id) {
        id -> BigInt,
        kind -> Text,
        subject -> Text,
        payload -> Text,
        owner_id -> Nullable<BigInt>,
        lane_seq -> BigInt,
        state -> Text,
        attempts -> BigInt,
        run_after -> Timestamp,
        leased_by -> Nullable<Text>,
        lease_until -> Nullable<Timestamp>,
        last_error -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    post_scores (post_id, position) {
        post_id -> BigInt,
        position -> BigInt,
        title -> Text,
        composer -> Text,
        file_key -> Text,
        plays_count -> BigInt,
        sung -> Text,
    }
}

diesel::table! {
    /// The tags of each post, normalised (`posts::tags`), with its author.
    post_tags (tag, post_id) {
        tag -> Text,
        post_id -> BigInt,
        user_id -> BigInt,
    }
}

diesel::table! {
    /// Who was last counted playing which track, and when (`posts::plays`).
    play_marks (post_id, position, listener) {
        post_id -> BigInt,
        position -> BigInt,
        listener -> Text,
        heard_at -> Timestamp,
    }
}

diesel::table! {
    post_lyrics (post_id) {
        post_id -> BigInt,
        title -> Text,
        artist -> Text,
        parts -> Text,
    }
}

diesel::table! {
    likes (post_id, user_id) {
        post_id -> BigInt,
        user_id -> BigInt,
        created_at -> Timestamp,
    }
}

diesel::table! {
    comments (id) {
        id -> BigInt,
        post_id -> BigInt,
        user_id -> BigInt,
        content -> Text,
        created_at -> Timestamp,
        edited_at -> Nullable<Timestamp>,
        /// A comment on a moment of an audio post's track: how far into it, in milliseconds.
        at_ms -> Nullable<BigInt>,
        /// Which of the post's tracks or scores (0 for the first), beside `at_ms` or `bar`.
        track -> Nullable<BigInt>,
        /// A comment on bars of a score: the first, counted from 1, and the last.
        bar -> Nullable<BigInt>,
        bar_end -> Nullable<BigInt>,
    }
}

diesel::table! {
    comment_mentions (comment_id, user_id) {
        comment_id -> BigInt,
        user_id -> BigInt,
    }
}

diesel::table! {
    notifications (id) {
        id -> BigInt,
        recipient_id -> BigInt,
        sender_id -> BigInt,
        kind -> Text,
        post_id -> Nullable<BigInt>,
        excerpt -> Nullable<Text>,
        created_at -> Timestamp,
        is_read -> Bool,
        comment_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    reports (id) {
        id -> BigInt,
        post_id -> BigInt,
        post_kind -> Text,
        post_author_id -> Nullable<BigInt>,
        reporter_id -> Nullable<BigInt>,
        reason -> Text,
        description -> Nullable<Text>,
        status -> Text,
        created_at -> Timestamp,
        resolved_at -> Nullable<Timestamp>,
        comment_id -> Nullable<BigInt>,
        comment_author_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    admin_actions (id) {
        id -> BigInt,
        admin_id -> Nullable<BigInt>,
        admin_login -> Text,
        action -> Text,
        report_id -> Nullable<BigInt>,
        post_id -> Nullable<BigInt>,
        subject_id -> Nullable<BigInt>,
        created_at -> Timestamp,
        comment_id -> Nullable<BigInt>,
        detail -> Nullable<Text>,
    }
}

diesel::table! {
    suspensions (id) {
        id -> BigInt,
        user_id -> BigInt,
        admin_id -> Nullable<BigInt>,
        admin_login -> Text,
        reason -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    federation_actors (user_id) {
        user_id -> BigInt,
        ap_id -> Text,
        domain -> Text,
        inbox -> Text,
        shared_inbox -> Nullable<Text>,
        public_key_pem -> Text,
        url -> Nullable<Text>,
        fetched_at -> Timestamp,
    }
}

diesel::table! {
    actor_keys (user_id) {
        user_id -> BigInt,
        public_key_pem -> Text,
        private_key_pem -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    blocked_domains (domain) {
        domain -> Text,
        admin_login -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    federation_objects (ap_id) {
        ap_id -> Text,
        comment_id -> BigInt,
        user_id -> BigInt,
    }
}

diesel::table! {
    federation_received (activity_id) {
        activity_id -> Text,
        received_at -> Timestamp,
    }
}

diesel::table! {
    /// An account's TOTP secret, sealed (issue 36, `auth::two_factor`).
    two_factor (user_id) {
        user_id -> BigInt,
        secret_sealed -> Text,
        enabled_at -> Nullable<Timestamp>,
        last_step -> BigInt,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// An account's unused recovery codes, by their SHA-256.
    recovery_codes (user_id, code_hash) {
        user_id -> BigInt,
        code_hash -> Text,
    }
}

diesel::table! {
    /// An archive of a person's data they asked for (issue 36, `app::export`).
    data_exports (id) {
        id -> BigInt,
        user_id -> BigInt,
        state -> Text,
        token_hash -> Nullable<Text>,
        file_key -> Nullable<Text>,
        size_bytes -> Nullable<BigInt>,
        requested_at -> Timestamp,
        ready_at -> Nullable<Timestamp>,
        expires_at -> Nullable<Timestamp>,
        mailed_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// A person's passkeys (issue 36, `auth::passkeys`).
    passkeys (id) {
        id -> BigInt,
        user_id -> BigInt,
        credential_id -> Text,
        passkey -> Text,
        name -> Text,
        created_at -> Timestamp,
        last_used_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// A passkey registration or sign-in begun, not yet finished.
    passkey_ceremonies (id) {
        id -> BigInt,
        user_id -> Nullable<BigInt>,
        state -> Text,
        expires_at -> Timestamp,
    }
}

diesel::joinable!(sessions -> users (user_id));
diesel::table! {
    /// A device a person turned Web Push notifications on for (issue 36, `notifications::push`).
    push_devices (id) {
        id -> BigInt,
        user_id -> BigInt,
        session_id -> BigInt,
        endpoint -> Text,
        p256dh -> Text,
        auth -> Text,
        name -> Text,
        mentions -> Bool,
        comments -> Bool,
        listens -> Bool,
        likes -> Bool,
        reposts -> Bool,
        created_at -> Timestamp,
        last_sent_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// A key the server made once, sealed (the VAPID key of Web Push).
    server_secrets (name) {
        name -> Text,
        sealed -> Text,
        created_at -> Timestamp,
    }
}

diesel::joinable!(passkeys -> users (user_id));
diesel::joinable!(push_devices -> users (user_id));
diesel::joinable!(push_devices -> sessions (session_id));
diesel::joinable!(data_exports -> users (user_id));
diesel::joinable!(two_factor -> users (user_id));
diesel::joinable!(recovery_codes -> users (user_id));
diesel::joinable!(email_verification_tokens -> users (user_id));
diesel::joinable!(password_reset_tokens -> users (user_id));
diesel::joinable!(posts -> users (user_id));
diesel::joinable!(post_media -> posts (post_id));
diesel::joinable!(post_audio -> posts (post_id));
diesel::joinable!(post_scores -> posts (post_id));
diesel::joinable!(post_lyrics -> posts (post_id));
diesel::joinable!(play_marks -> posts (post_id));
diesel::joinable!(post_tags -> posts (post_id));
diesel::joinable!(comments -> users (user_id));
diesel::joinable!(comment_mentions -> users (user_id));
diesel::joinable!(comment_mentions -> comments (comment_id));
diesel::joinable!(notifications -> posts (post_id));
diesel::joinable!(notifications -> comments (comment_id));
diesel::joinable!(admin_actions -> reports (report_id));
diesel::joinable!(suspensions -> users (user_id));
diesel::joinable!(federation_actors -> users (user_id));
diesel::joinable!(actor_keys -> users (user_id));
diesel::joinable!(playlists -> users (user_id));
diesel::joinable!(playlist_items -> playlists (playlist_id));

diesel::allow_tables_to_appear_in_same_query!(
    users,
    sessions,
    two_factor,
    recovery_codes,
    data_exports,
    passkeys,
    passkey_ceremonies,
    push_devices,
    server_secrets,
    email_verification_tokens,
    password_reset_tokens,
    throttle_buckets,
    oidc_logins,
    listens,
    blocks,
    posts,
    posts_search,
    post_media,
    post_audio,
    post_scores,
    post_lyrics,
    play_marks,
    post_tags,
    reposts,
    plays_daily,
    backfills,
    playlists,
    playlist_items,
    score_recordings,
    likes,
    comments,
    comment_mentions,
    notifications,
    reports,
    admin_actions,
    suspensions,
    jobs,
    federation_actors,
    actor_keys,
    federation_received,
    federation_objects,
    blocked_domains,
);
