//! Limits on every write (issue 16 "Abuse limits on every write"): each limited call counts one
//! hit per account and one per client address in `throttle_buckets` (`db::throttle`), so the
//! limits hold across processes; past either, 429 with `Retry-After` and a detail naming the
//! call. The numbers are settings (`SELFSOUND_WRITE_LIMITS`); the defaults let a person at a
//! human pace never meet one and stop a script within its first few dozen calls. Why each number
//! is what it is: docs/security.md, "Limits".

use std::time::Duration;

use values::{ErrorKind, UserId};

use crate::error::ApiError;
use crate::state::AppState;

/// A kind of call with a limit of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Making a post of any kind (audio, pictures and video, scores, lyrics).
    Post,
    Comment,
    /// A like or unlike (`POST /posts/{id}/like` toggles).
    Like,
    /// Listening to or no longer listening to someone.
    Listen,
    /// Blocking or unblocking someone.
    Block,
    Report,
    /// Deleting a comment (one's own, one on one's post, or someone's as an admin).
    CommentDelete,
    /// The mention picker's search (`GET /posts/users/search`), signed in or not.
    Search,
    /// Finding music (`GET /posts/search`), signed in or not: a search costs several feed
    /// pages of the database's time (docs/posts.md, "Finding music").
    MusicSearch,
    /// `PATCH /profile/me` and `PATCH /profile/me/avatar`.
    Profile,
    /// An admin suspending an account or lifting a suspension.
    Suspend,
    /// Editing one's post or comment.
    Edit,
    /// A play of a track or score heard long enough to count (`POST /posts/{id}/plays`),
    /// signed in or not.
    Play,
    /// A repost or taking it back (`POST /posts/{id}/repost` toggles).
    Repost,
    /// Making, changing or deleting a playlist, and adding, moving or removing its items.
    Playlist,
    /// Reading Discover (`GET /discover`), signed in or not: its people to listen to walk
    /// thousands of listens.
    Discover,
    /// Reading a playlist's page (`GET /playlists/{id}`), signed in or not: up to 500 posts.
    PlaylistRead,
    /// Linking a score to a recording with its sync map, changing the map or taking it away
    /// (`PUT`/`DELETE /posts/{id}/recording`).
    Sync,
    /// Setting up, confirming, renewing the recovery codes of or turning off two-factor
    /// sign-in (`/authorization/two-factor/*`); wrong codes have a stricter limit of their own.
    TwoFactor,
    /// Adding, renaming and removing passkeys (`/authorization/passkeys*`).
    Passkey,
    /// Signing in with a passkey, its two calls (`/authorization/passkey-sign-in*`), per client;
    /// each attempt also counts against the client's sign-in limit.
    PasskeySignIn,
    /// Asking for an archive of one's data (`POST /account/data-export`); one a day is the
    /// rule of the archives themselves, this counts the asking.
    DataExport,
    /// Downloading an archive by its e-mailed link (`GET /data-exports/{token}`), signed in or
    /// not; each range of a resumed download counts.
    DataDownload,
    /// Turning Web Push on for a device, choosing its kinds, sending it a test, turning it off
    /// (`/account/push/devices*`); each test is a request to the device's push service.
    PushDevice,
    /// Activities another server sends to our inboxes: the account's count is per remote
    /// actor, the client's per remote server (docs/federation.md).
    Inbox,
}

impl Action {
    pub const ALL: [Action; 25] = [
        Action::Post,
        Action::Comment,
        Action::Like,
        Action::Listen,
        Action::Block,
        Action::Report,
        Action::CommentDelete,
        Action::Search,
        Action::MusicSearch,
        Action::Profile,
        Action::Suspend,
        Action::Edit,
        Action::Play,
        Action::Repost,
        Action::Playlist,
        Action::Discover,
        Action::PlaylistRead,
        Action::Sync,
        Action::TwoFactor,
        Action::Passkey,
        Action::PasskeySignIn,
        Action::DataExport,
        Action::DataDownload,
        Action::PushDevice,
        Action::Inbox,
    ];

    /// Its name in `SELFSOUND_WRITE_LIMITS` and in its counters' keys, what its refusal calls
    /// the calls it counts, and its default limit (docs/security.md, "Limits", says why each).
    const fn call(self) -> Call {
        let (name, what, default) = match self {
            Action::Post => ("post", "posts", Limit::per(20, 60)),
            Action::Comment => ("comment", "comments", Limit::per(30, 5)),
            Action::Like => ("like", "likes", Limit::per(60, 10)),
            Action::Listen => ("listen", "listening changes", Limit::per(30, 10)),
            Action::Block => ("block", "block changes", Limit::per(20, 10)),
            // Posts and comments: one limit.
            Action::Report => ("report", "reports", Limit::per(10, 60)),
            Action::CommentDelete => ("comment_delete", "comment deletions", Limit::per(60, 10)),
            Action::Search => ("search", "searches", Limit::per(120, 5)),
            Action::MusicSearch => ("music_search", "searches", Limit::per(120, 5)),
            Action::Profile => ("profile", "profile changes", Limit::per(30, 60)),
            Action::Suspend => ("suspend", "suspension changes", Limit::per(60, 60)),
            // Posts and comments: one limit.
            Action::Edit => ("edit", "edits", Limit::per(30, 10)),
            // A counted play takes 30 s of listening (or a whole shorter track).
            Action::Play => ("play", "plays", Limit::per(60, 10)),
            // Each repost is a notification and a place in every listener's feed.
            Action::Repost => ("repost", "reposts", Limit::per(30, 10)),
            // Putting a playlist in order is a write a move: a few dozen in a sitting.
            Action::Playlist => ("playlist", "playlist changes", Limit::per(120, 10)),
            // Opening Discover, and its lists read again after each like or listen made there.
            Action::Discover => ("discover", "Discover pages", Limit::per(120, 5)),
            // Opening playlists while listening, one after another; each may hold 500 posts.
            Action::PlaylistRead => ("playlist_read", "playlist pages", Limit::per(120, 5)),
            // Each save is a map of up to 1500 bars: an author corrects one bar at a time.
            Action::Sync => ("sync", "sync map changes", Limit::per(60, 10)),
            // A set-up takes two calls; a person does it once, or again on a new phone.
            Action::TwoFactor => ("two_factor", "two-factor changes", Limit::per(20, 60)),
            // A person adds a passkey per device they own, names it, removes an old one.
            Action::Passkey => ("passkey", "passkey changes", Limit::per(20, 60)),
            // Each begun sign-in is a challenge kept for five minutes: a page opened a few times.
            Action::PasskeySignIn => ("passkey_sign_in", "passkey sign-ins", Limit::per(30, 10)),
            // A few devices, five kinds each toggled, a test or two.
            Action::PushDevice => ("push", "notification device changes", Limit::per(60, 60)),
            // An archive a day; asking again, or after a failed one, a few times.
            Action::DataExport => ("data_export", "requests for your data", Limit::per(10, 60)),
            // An archive may be gigabytes: a download, its resumptions, a second device.
            Action::DataDownload => ("data_download", "archive downloads", Limit::per(30, 60)),
            // One person of another server likes, reposts and replies at a human pace; their
            // whole server may speak for thousands of people.
            Action::Inbox => (
                "inbox",
                "activities from your server",
                Limit { account: 120, client: 1200, window: Duration::from_secs(60) },
            ),
        };
        Call { name, what, default }
    }

    /// Its name in `SELFSOUND_WRITE_LIMITS` and in its counters' keys.
    pub fn name(self) -> &'static str {
        self.call().name
    }

    fn what(self) -> &'static str {
        self.call().what
    }

    fn index(self) -> usize {
        Action::ALL.iter().position(|a| *a == self).unwrap_or_default()
    }
}

/// What an [`Action`] is called, and its limit unless configured otherwise.
struct Call {
    name: &'static str,
    what: &'static str,
    default: Limit,
}

/// A handler's argument type names its call's limit: `user: Limited<Commenting>`
/// (`crate::extract::Limited`).
pub trait LimitedCall {
    const ACTION: Action;
}

macro_rules! limited_calls {
    ($($marker:ident => $action:ident),* $(,)?) => {$(
        #[doc = concat!("Counts against the `", stringify!($action), "` limit.")]
        pub struct $marker;
        impl LimitedCall for $marker {
            const ACTION: Action = Action::$action;
        }
    )*};
}

limited_calls!(
    Posting => Post,
    Commenting => Comment,
    Liking => Like,
    Listening => Listen,
    Blocking => Block,
    Reporting => Report,
    DeletingComments => CommentDelete,
    Searching => Search,
    SearchingMusic => MusicSearch,
    ProfileEditing => Profile,
    Suspending => Suspend,
    Editing => Edit,
    Playing => Play,
    Reposting => Repost,
    EditingPlaylists => Playlist,
    Discovering => Discover,
    ReadingPlaylists => PlaylistRead,
    Syncing => Sync,
    ChangingTwoFactor => TwoFactor,
    ChangingPasskeys => Passkey,
    SigningInWithPasskeys => PasskeySignIn,
    ExportingData => DataExport,
    DownloadingData => DataDownload,
    ChangingPushDevices => PushDevice,
);

/// At most `account` calls per account and `client` per client address in each `window`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub account: i64,
    pub client: i64,
    pub window: Duration,
}

impl Limit {
    /// The client's limit is three times the account's unless given: a household or an office
    /// behind one address is a few people, each at their own pace.
    const fn per(account: i64, minutes: u64) -> Limit {
        Limit { account, client: account * 3, window: Duration::from_secs(minutes * 60) }
    }
}

/// The windows are swept a day after they start (`db::throttle::sweep`), so none may be longer.
const LONGEST_WINDOW: Duration = Duration::from_secs(24 * 3600);

/// One [`Limit`] per [`Action`], in [`Action::ALL`]'s order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteLimits([Limit; Action::ALL.len()]);

impl Default for WriteLimits {
    fn default() -> Self {
        WriteLimits(Action::ALL.map(|action| action.call().default))
    }
}

impl WriteLimits {
    pub fn of(&self, action: Action) -> Limit {
        self.0[action.index()]
    }

    /// Reads `SELFSOUND_WRITE_LIMITS`: comma-separated `name=COUNT/WINDOW` (the client's count
    /// three times the account's) or `name=ACCOUNT:CLIENT/WINDOW`, a window being a number with
    /// `s`, `m`, `h` or `d` (e.g. `comment=30/5m,like=60:240/10m`). Calls not named keep their
    /// default. Every problem is reported.
    pub fn parse(raw: &str) -> Result<WriteLimits, Vec<String>> {
        let mut limits = WriteLimits::default();
        let mut problems = Vec::new();
        for entry in raw.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            match parse_entry(entry) {
                Ok((action, limit)) => limits.0[action.index()] = limit,
                Err(problem) => problems.push(format!("SELFSOUND_WRITE_LIMITS: {problem}")),
            }
        }
        if problems.is_empty() { Ok(limits) } else { Err(problems) }
    }
}

fn parse_entry(entry: &str) -> Result<(Action, Limit), String> {
    let shape = || format!("{entry:?} must look like comment=30/5m or comment=30:90/5m");
    let (name, rule) = entry.split_once('=').ok_or_else(shape)?;
    let name = name.trim();
    let action = Action::ALL.into_iter().find(|a| a.name() == name).ok_or_else(|| {
        let known: Vec<&str> = Action::ALL.iter().map(|a| a.name()).collect();
        format!("{name:?} is not a limited call (known: {})", known.join(", "))
    })?;
    let (counts, window) = rule.trim().split_once('/').ok_or_else(shape)?;
    let count = |s: &str| s.trim().parse::<i64>().ok().filter(|n| *n > 0);
    let (account, client) = match counts.split_once(':') {
        Some((a, c)) => (count(a).ok_or_else(shape)?, count(c).ok_or_else(shape)?),
        None => {
            let a = count(counts).ok_or_else(shape)?;
            (a, a.saturating_mul(3))
        }
    };
    if client < account {
        return Err(format!("{entry:?}: the client's count must be at least the account's"));
    }
    let window = parse_window(window.trim())
        .ok_or_else(|| format!("{entry:?}: the window must be a number with s, m, h or d, from 1s to 1d (e.g. 5m)"))?;
    Ok((action, Limit { account, client, window }))
}

fn parse_window(raw: &str) -> Option<Duration> {
    let unit = match raw.chars().last()? {
        's' => 1,
        'm' => 60,
        'h' => 3600,
        'd' => 24 * 3600,
        _ => return None,
    };
    let n: u64 = raw[..raw.len() - 1].parse().ok().filter(|n| *n > 0)?;
    let window = Duration::from_secs(n.checked_mul(unit)?);
    (window <= LONGEST_WINDOW).then_some(window)
}

/// Counts one `action` by `user` (when signed in) from `client`, per account and per client; a
/// full window answers 429 with the wait. Counted in this process's tally
/// ([`db::tally`], added to the database's counters every `FLUSH_EVERY`), or, when the tally
/// holds as many counters as it may, in the database at once (both counters in one statement).
pub async fn count(
    state: &AppState,
    action: Action,
    limit: Limit,
    user: Option<UserId>,
    client: &str,
) -> Result<(), ApiError> {
    let client_key = format!("write:{}:client:{client}", action.name());
    let account_key = user.map(|u| format!("write:{}:user:{u}", action.name()));
    let mut counters = vec![(client_key, limit.client)];
    if let Some(key) = account_key {
        counters.insert(0, (key, limit.account));
    }
    let keys: Vec<(&str, i64)> = counters.iter().map(|(key, max)| (key.as_str(), *max)).collect();
    let counted = match state.limits.hit_all(&keys, limit.window) {
        Some(counted) => counted,
        None => {
            state
                .db
                .write_without_transaction(move |conn| {
                    let keys: Vec<(&str, i64)> = counters.iter().map(|(key, max)| (key.as_str(), *max)).collect();
                    Ok::<_, db::DbError>(db::throttle::hit_all(conn, &keys, limit.window))
                })
                .await?
        }
    };
    counted.map_err(|e| match e {
        db::throttle::Throttled::Full(wait) => ApiError::new(
            ErrorKind::Throttled { retry_after: wait },
            format!(
                "Too many {} in a short time. Please try again in {}.",
                action.what(),
                db::throttle::human_wait(wait)
            ),
        )
        .for_limit(action.name()),
        other => other.into(),
    })
}

/// Adds what this process's tally counted to the database's counters every `FLUSH_EVERY`,
/// for as long as the runtime runs. A flush that fails is logged, and its hits are sent with
/// the next.
pub fn keep_flushing(state: &AppState) {
    let (limits, db) = (state.limits.clone(), state.db.clone());
    tokio::spawn(async move {
        let mut every = tokio::time::interval(db::tally::FLUSH_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            flush(&limits, &db).await;
        }
    });
}

/// Adds what `limits` counted to the database's counters now, when it counted anything.
pub async fn flush(limits: &std::sync::Arc<db::tally::Tally>, db: &db::Db) {
    if !limits.has_pending() {
        return;
    }
    let limits = limits.clone();
    if let Err(e) = db.write_without_transaction(move |conn| limits.flush(conn)).await {
        tracing::warn!(error = %e, "the write limits' counts could not be added to the database's; sent again next time");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_name_calls_counts_and_windows() {
        let l = WriteLimits::parse("comment=5/30s, like=10:100/2h,report=1/1d").unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(l.of(Action::Comment), Limit { account: 5, client: 15, window: Duration::from_secs(30) });
        assert_eq!(l.of(Action::Like), Limit { account: 10, client: 100, window: Duration::from_secs(7200) });
        assert_eq!(l.of(Action::Report).window, LONGEST_WINDOW);
        assert_eq!(l.of(Action::Post), WriteLimits::default().of(Action::Post), "unnamed calls keep their default");
        assert_eq!(WriteLimits::parse(""), Ok(WriteLimits::default()));
    }

    #[test]
    fn every_bad_entry_is_reported_with_its_reason() {
        let problems = WriteLimits::parse("coment=5/1m,like=0/1m,post=5/2d,search=10:5/1m,block=3,profile=3/5x")
            .err()
            .unwrap_or_default();
        assert_eq!(problems.len(), 6, "{problems:?}");
        assert!(problems[0].contains("not a limited call") && problems[0].contains("comment"));
        assert!(problems[2].contains("from 1s to 1d"));
        assert!(problems[3].contains("at least the account's"));
        assert!(problems.iter().all(|p| p.starts_with("SELFSOUND_WRITE_LIMITS: ")));
    }

    #[test]
    fn defaults_let_a_person_through_and_stop_a_script_early() {
        for action in Action::ALL {
            let l = WriteLimits::default().of(action);
            assert!(l.account <= 120 && l.client >= l.account * 3, "{action:?}: {l:?}");
        }
    }
}
