//! Link previews: the web app's page of a post, a person or a playlist carries Open Graph and Twitter Card
//! tags for who asks, and none for what they may not see.

use reqwest::{Method, StatusCode};
use serde_json::json;
use test_support::TestDb;
use test_support::media::wav;

use crate::common::{Options, Part, TestApp, make_admin, spawn_app_with};

/// The web app's `index.html` as the build writes it: a title and a description of its own.
pub(crate) const INDEX: &str = "<!doctype html>\n<html lang=\"en\">\n  <head>\n    <meta charset=\"UTF-8\" />\n    \
    <meta name=\"description\" content=\"SelfSound — a home for every voice in music.\" />\n    \
    <title>SelfSound</title>\n  </head>\n  <body><div id=\"root\"></div></body>\n</html>";

/// The page at `path` as `token` (or a guest) gets it.
async fn page(app: &TestApp, path: &str, token: Option<&str>) -> String {
    let mut req = app.client.get(format!("{}{path}", app.url));
    if let Some(token) = token {
        req = req.bearer_auth(token);
    }
    let res = req.send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK, "{path}");
    assert_eq!(res.headers()["cache-control"], "no-cache");
    assert!(res.headers()["content-security-policy"].to_str().unwrap().contains("script-src 'self'"));
    res.text().await.unwrap()
}

/// The content of the `<meta>` tag whose attribute names `key`.
pub(crate) fn meta<'a>(html: &'a str, key: &str) -> Option<&'a str> {
    let pattern = format!("=\"{key}\" content=\"");
    let rest = &html[html.find(&pattern)? + pattern.len()..];
    Some(&rest[..rest.find('"')?])
}

async fn a_post_or_a_persons_page_carries_its_preview_for_who_may_see_it(db: TestDb) {
    let web = tempfile::tempdir().unwrap();
    std::fs::write(web.path().join("index.html"), INDEX).unwrap();
    let env = vec![("SELFSOUND_WEB_DIR".to_owned(), web.path().display().to_string())];
    let app = spawn_app_with(db, Options { env, ..Options::default() }).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (ben, ben_id) = app.person("Ben", "ben@example.com").await;
    let (rita, _) = app.person("Rita", "rita@example.com").await;
    make_admin(&app.db, "rita@example.com");

    let lyrics = json!({"songTitle": "Song <b>", "artistName": "Band & Co", "parts": [{"type": "verse", "lyrics": "first line\nsecond line\nthird"}]});
    let lyrics = app.post("/posts/lyrics", Some(&ana), lyrics).await.body["id"].as_str().unwrap().to_owned();
    let html = page(&app, &format!("/app/post/{lyrics}"), None).await;
    assert_eq!(meta(&html, "og:title"), Some("Song &lt;b&gt; · Band &amp; Co"), "{html}");
    assert_eq!(meta(&html, "og:description"), Some("first line / second line"));
    assert_eq!(meta(&html, "og:url"), Some(format!("{}/app/post/{lyrics}", app.url).as_str()));
    assert_eq!(meta(&html, "og:site_name"), Some("SelfSound"));
    assert_eq!(meta(&html, "twitter:title"), meta(&html, "og:title"));
    assert!(html.contains("<title>Song &lt;b&gt; · Band &amp; Co · SelfSound</title>"));
    assert_eq!(html.matches("<title>").count(), 1, "its own title, in place of the app's");
    assert_eq!(html.matches("name=\"description\"").count(), 1);
    assert!(html.contains("<div id=\"root\"></div>"), "the app itself is there");

    // A track: its title and artist, the track itself, and a card for it.
    let track = app
        .post_form(
            "/posts/audio",
            Some(&ana),
            &[
                Part::file("audio_files", "take.wav", wav(1.0, 440.0, 0.5)),
                Part::text("titles", "Morning"),
                Part::text("artists", "Ana"),
                Part::text("caption", "recorded at dawn"),
            ],
        )
        .await;
    assert_eq!(track.status, StatusCode::CREATED, "{:?}", track.body);
    let html = page(&app, &format!("/app/post/{}", track.body["id"].as_str().unwrap()), None).await;
    assert_eq!(meta(&html, "og:type"), Some("music.song"));
    assert_eq!(meta(&html, "og:title"), Some("Morning · Ana"));
    assert_eq!(meta(&html, "og:description"), Some("recorded at dawn"));
    assert_eq!(meta(&html, "og:audio"), track.body["audio"][0]["file_url"].as_str());
    assert_eq!(meta(&html, "og:audio:type"), Some("audio/wav"));
    let audio = app.client.get(meta(&html, "og:audio").unwrap()).send().await.unwrap();
    assert_eq!(audio.status(), StatusCode::OK, "the previewed track can be fetched");

    // A playlist: its title and owner, its first track's audio; a private one has none.
    let list = app.post("/playlists", Some(&ana), json!({"title": "Dawn <set>"})).await.body["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let item = json!({"post_id": track.body["id"], "track": 0});
    assert_eq!(app.post(&format!("/playlists/{list}/items"), Some(&ana), item).await.status, StatusCode::CREATED);
    let html = page(&app, &format!("/app/playlist/{list}"), None).await;
    assert_eq!(meta(&html, "og:type"), Some("music.playlist"));
    assert_eq!(meta(&html, "og:title"), Some("Dawn &lt;set&gt; · a playlist by Ana"));
    assert_eq!(meta(&html, "og:description"), Some("1 track gathered by Ana on SelfSound."));
    assert_eq!(meta(&html, "og:audio"), track.body["audio"][0]["file_url"].as_str());
    assert_eq!(meta(&html, "og:url"), Some(format!("{}/app/playlist/{list}", app.url).as_str()));
    let private = json!({"public": false});
    assert_eq!(
        app.call(Method::PATCH, &format!("/playlists/{list}"), Some(&ana), Some(private)).await.status,
        StatusCode::OK
    );
    assert_eq!(meta(&page(&app, &format!("/app/playlist/{list}"), None).await, "og:title"), None, "private");

    // A person: their name, login and picture.
    let html = page(&app, &format!("/app/profile/{ana_id}"), None).await;
    assert_eq!(meta(&html, "og:title"), Some("Ana (@ana)"));
    assert_eq!(meta(&html, "og:type"), Some("profile"));
    assert!(meta(&html, "og:image").unwrap().starts_with("http"), "{html}");
    assert_eq!(meta(&html, "twitter:card"), Some("summary_large_image"));
    assert_eq!(meta(&page(&app, &format!("/app/user/{ana_id}"), None).await, "og:title"), Some("Ana (@ana)"));

    // Nothing across a block, for the one asking; the rest still see it.
    assert!(app.call(Method::POST, &format!("/profiles/blocks/{ben_id}"), Some(&ana), None).await.status.is_success());
    for path in [format!("/app/post/{lyrics}"), format!("/app/profile/{ana_id}")] {
        let html = page(&app, &path, Some(&ben)).await;
        assert_eq!(meta(&html, "og:title"), None, "{path} across a block: {html}");
        assert!(html.contains("<title>SelfSound</title>"));
        assert!(meta(&page(&app, &path, None).await, "og:title").is_some());
    }

    // Nothing of a suspended person, nor of what does not exist.
    let suspended = app.post(&format!("/admin/users/{ana_id}/suspend"), Some(&rita), json!({"reason": "spam"})).await;
    assert!(suspended.status.is_success(), "{:?}", suspended.body);
    for path in [format!("/app/post/{lyrics}"), format!("/app/profile/{ana_id}"), "/app/post/12345".to_owned()] {
        assert_eq!(meta(&page(&app, &path, None).await, "og:title"), None, "{path}");
    }
    assert_eq!(page(&app, "/app/home", None).await, INDEX, "other pages as built");
}

test_support::both_backends!(a_post_or_a_persons_page_carries_its_preview_for_who_may_see_it);
