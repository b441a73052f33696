//! Profile rules against a real database and a real storage folder, on SQLite and PostgreSQL.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use profiles::{ProfileError, ProfilePatch, Profiles};
use test_support::{TestDb, insert_user};
use values::UserId;

struct Harness {
    profiles: Profiles,
    media: tempfile::TempDir,
    db: TestDb,
}

fn harness(db: TestDb) -> Harness {
    let media = tempfile::tempdir().unwrap();
    let storage = storage::Storage::local(media.path()).unwrap();
    Harness { profiles: Profiles::new(db.db.clone(), storage), media, db }
}

fn user(h: &Harness, name: &str, login: &str) -> UserId {
    insert_user(&mut h.db.get().unwrap(), name, login)
}

const MUSICIAN: &str = "b361c6f9-9425-4548-8c07-cb408140c304";

async fn editing_changes_only_what_was_sent(db: TestDb) {
    let h = harness(db);
    let me = user(&h, "Ada", "ada");
    let patch = ProfilePatch {
        name: Some("Ada L".into()),
        login: Some("@Ada.Lovelace".into()),
        description: Some(Some("  Composer  ".into())),
        tag_id: Some(Some(MUSICIAN.into())),
    };
    let p = h.profiles.update(me, patch).await.unwrap();
    assert_eq!((p.name.as_str(), p.login.as_str()), ("Ada L", "adalovelace"));
    assert_eq!(p.description.as_deref(), Some("Composer"));
    assert_eq!(p.tag_id.as_deref(), Some(MUSICIAN));
    let p = h.profiles.update(me, ProfilePatch { name: Some("Ada".into()), ..Default::default() }).await.unwrap();
    assert_eq!(p.login, "adalovelace", "fields left out stay");
    assert_eq!(p.tag_id.as_deref(), Some(MUSICIAN));
    let p = h
        .profiles
        .update(me, ProfilePatch { tag_id: Some(None), description: Some(None), ..Default::default() })
        .await
        .unwrap();
    assert_eq!((p.tag_id, p.description), (None, None), "null clears");
}

async fn a_taken_login_is_refused(db: TestDb) {
    let h = harness(db);
    let me = user(&h, "Ada", "ada");
    user(&h, "Bea", "bea");
    let err =
        h.profiles.update(me, ProfilePatch { login: Some("@BEA".into()), ..Default::default() }).await.err().unwrap();
    assert!(matches!(err, ProfileError::LoginTaken));
    let same = h.profiles.update(me, ProfilePatch { login: Some("ada".into()), ..Default::default() }).await;
    assert!(same.is_ok(), "keeping one's own login is fine");
}

/// Logins made before the 3-character minimum and the reserved list stay their owners': the
/// spec's client sends the login back with every edit.
async fn an_old_login_that_breaks_a_newer_rule_is_kept(db: TestDb) {
    let h = harness(db);
    for old in ["al", "support"] {
        let me = user(&h, "Al", old);
        let patch = ProfilePatch { name: Some("Al B".into()), login: Some(old.into()), ..Default::default() };
        let p = h.profiles.update(me, patch).await.unwrap();
        assert_eq!((p.name.as_str(), p.login.as_str()), ("Al B", old));
    }
}

async fn bad_edits_change_nothing(db: TestDb) {
    let h = harness(db);
    let me = user(&h, "Ada", "ada");
    for patch in [
        ProfilePatch { name: Some("x".repeat(16)), ..Default::default() },
        ProfilePatch { login: Some("x".repeat(21)), ..Default::default() },
        ProfilePatch { login: Some("xy".into()), ..Default::default() },
        ProfilePatch { login: Some("Admin".into()), ..Default::default() },
        ProfilePatch { name: Some("\u{202E}adA".into()), ..Default::default() },
        ProfilePatch { description: Some(Some("nul\0".into())), ..Default::default() },
        ProfilePatch { description: Some(Some("b".repeat(131))), ..Default::default() },
        ProfilePatch { tag_id: Some(Some("admin".into())), name: Some("Changed".into()), ..Default::default() },
    ] {
        assert!(matches!(h.profiles.update(me, patch).await, Err(ProfileError::Invalid(_))));
    }
    assert_eq!(h.profiles.profile(me).await.unwrap().name, "Ada");
}

/// The tag may be sent by name, and the placeholder or an empty string clears it.
async fn tags_are_set_by_name_and_cleared_by_the_placeholder(db: TestDb) {
    let h = harness(db);
    let me = user(&h, "Ada", "ada");
    let tag = |t: &str| ProfilePatch { tag_id: Some(Some(t.to_owned())), ..Default::default() };
    assert_eq!(
        h.profiles.update(me, tag("learner")).await.unwrap().tag_id.as_deref(),
        Some(profiles::tags::LEARNER.id)
    );
    assert_eq!(h.profiles.update(me, tag("Add tag")).await.unwrap().tag_id, None);
    h.profiles.update(me, tag("Musician")).await.unwrap();
    assert_eq!(h.profiles.update(me, tag("")).await.unwrap().tag_id, None);
}

async fn unknown_profiles_are_not_found(db: TestDb) {
    let h = harness(db);
    let ghost = UserId::try_from(42).unwrap();
    assert!(matches!(h.profiles.profile(ghost).await, Err(ProfileError::NotFound)));
    assert!(matches!(h.profiles.stats(ghost).await, Err(ProfileError::NotFound)));
}

async fn stats_follow_listening(db: TestDb) {
    let h = harness(db);
    let (a, b) = (user(&h, "A", "a"), user(&h, "B", "b"));
    h.db.write_blocking(|c| social_graph::listen(c, a, b)).unwrap();
    let s = h.profiles.stats(b).await.unwrap();
    assert_eq!((s.posts, s.listeners, s.listened_to), (0, 1, 0));
    assert_eq!(h.profiles.stats(a).await.unwrap().listened_to, 1);
}

fn png_with_text() -> Vec<u8> {
    test_support::media::png(2, Some("Location 51.5N 0.1W"))
}

fn stored_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            if e.path().is_dir() { stack.push(e.path()) } else { out.push(e.path()) }
        }
    }
    out
}

async fn an_avatar_is_stored_clean_and_replaces_the_old_one(db: TestDb) {
    let h = harness(db);
    let me = user(&h, "Ada", "ada");
    let first = h.profiles.replace_avatar(me, png_with_text()).await.unwrap();
    assert!(first.starts_with(&format!("/media/avatars/{me}/")) && first.ends_with(".png"), "{first}");
    let files = stored_files(h.media.path());
    assert_eq!(files.len(), 1);
    let stored = std::fs::read(&files[0]).unwrap();
    assert!(!String::from_utf8_lossy(&stored).contains("51.5N"), "metadata is stripped");
    assert_eq!(h.profiles.profile(me).await.unwrap().avatar_url.as_deref(), Some(first.as_str()));

    let second = h.profiles.replace_avatar(me, png_with_text()).await.unwrap();
    assert_ne!(first, second);
    assert_eq!(stored_files(h.media.path()).len(), 1, "the old avatar is removed");
}

async fn avatars_are_judged_by_their_bytes(db: TestDb) {
    let h = harness(db);
    let me = user(&h, "Ada", "ada");
    assert!(matches!(
        h.profiles.replace_avatar(me, b"GIF89a not allowed".to_vec()).await,
        Err(ProfileError::AvatarType)
    ));
    assert!(matches!(h.profiles.replace_avatar(me, b"<svg/>".to_vec()).await, Err(ProfileError::AvatarType)));
    let mut huge = png_with_text();
    huge.resize(profiles::AVATAR_MAX_BYTES, 0);
    assert!(matches!(h.profiles.replace_avatar(me, huge).await, Err(ProfileError::AvatarTooLarge)));
    let truncated = png_with_text()[..40].to_vec();
    assert!(matches!(h.profiles.replace_avatar(me, truncated).await, Err(ProfileError::AvatarUnreadable(_))));
    assert!(stored_files(h.media.path()).is_empty(), "nothing was stored");
    assert_eq!(h.profiles.profile(me).await.unwrap().avatar_url, None);
}

async fn orphan_avatars_are_swept_and_used_ones_kept(db: TestDb) {
    let h = harness(db);
    let me = user(&h, "Ada", "ada");
    let used = h.profiles.replace_avatar(me, png_with_text()).await.unwrap();
    // An object no row points to, as an interrupted upload would leave, written two hours ago.
    let orphan = h.media.path().join("avatars/999/0123456789abcdef.png");
    std::fs::create_dir_all(orphan.parent().unwrap()).unwrap();
    std::fs::write(&orphan, png_with_text()).unwrap();
    let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
    for path in stored_files(h.media.path()) {
        std::fs::File::options().write(true).open(&path).unwrap().set_modified(two_hours_ago).unwrap();
    }
    assert_eq!(h.profiles.sweep_orphan_avatars().await.unwrap(), 1);
    assert!(!orphan.exists());
    let kept = h.media.path().join(used.trim_start_matches("/media/"));
    assert!(kept.exists(), "the avatar in use stays");
}

test_support::both_backends!(
    orphan_avatars_are_swept_and_used_ones_kept,
    editing_changes_only_what_was_sent,
    a_taken_login_is_refused,
    an_old_login_that_breaks_a_newer_rule_is_kept,
    bad_edits_change_nothing,
    unknown_profiles_are_not_found,
    tags_are_set_by_name_and_cleared_by_the_placeholder,
    stats_follow_listening,
    an_avatar_is_stored_clean_and_replaces_the_old_one,
    avatars_are_judged_by_their_bytes,
);
