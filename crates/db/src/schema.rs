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

diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(email_verification_tokens -> users (user_id));
diesel::joinable!(password_reset_tokens -> users (user_id));

diesel::allow_tables_to_appear_in_same_query!(
    users,
    sessions,
    email_verification_tokens,
    password_reset_tokens,
    throttle_buckets,
    oidc_logins,
    listens,
    blocks,
);
