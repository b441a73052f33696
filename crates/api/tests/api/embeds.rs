//! A track's player for other sites (issue 32): `/embed/post/{id}` may be framed by any site
//! (every other page still may not), `/oembed` describes it, and the post page names both; what
//! a signed-out visitor may not see has no embed.

use reqwest::StatusCode;
use serde_json::{Value, json};
use test_support::TestDb;
use test_support::media::wav;

use crate::common::{Options, Part, TestApp, make_admin, spawn_app_with};
use crate::previews::{INDEX, meta};

async fn get(app: &TestApp, path: &str) -> reqwest::Response {
    app.client.get(format!("{}{path}", app.url)).send().await.unwrap()
}

async fn embeds_play_anywhere_and_only_what_may_be_seen(db: TestDb) {
    let web = tempfile::tempdir().unwrap();
    std::fs::write(web.path().join("index.html"), INDEX).unwrap();
    let env = vec![("SELFSOUND_WEB_DIR".to_owned(), web.path().display().to_string())];
    let app = spawn_app_with(db, Options { env, ..Options::default() }).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (rita, _) = app.person("Rita", "rita@example.com").await;
    make_admin(&app.db, "rita@example.com");
    let track = app
        .post_form(
            "/posts/audio",
            Some(&ana),
            &[
                Part::file("audio_files", "a.wav", wav(2.0, 440.0, 0.5)),
                Part::file("audio_files", "b.wav", wav(1.0, 330.0, 0.5)),
                Part::text("titles", "Morning <b>"),
                Part::text("titles", "Evening"),
            ],
        )
        .await;
    assert_eq!(track.status, StatusCode::CREATED, "{:?}", track.body);
    let id = track.body["id"].as_str().unwrap().to_owned();
    let embed = format!("{}/embed/post/{id}", app.url);

    // The post page names the player: a player card and the oEmbed answer.
    let html = get(&app, &format!("/app/post/{id}")).await.text().await.unwrap();
    assert_eq!(meta(&html, "twitter:card"), Some("player"), "{html}");
    assert_eq!(meta(&html, "twitter:player"), Some(embed.as_str()));
    assert_eq!(meta(&html, "twitter:player:height"), Some("220"), "one track's player and two rows");
    let link = html.split("type=\"application/json+oembed\" href=\"").nth(1).and_then(|r| r.split('"').next()).unwrap();
    let oembed: Value = app.client.get(link.replace("&amp;", "&")).send().await.unwrap().json().await.unwrap();
    assert_eq!((oembed["version"].as_str(), oembed["type"].as_str()), (Some("1.0"), Some("rich")));
    assert_eq!((oembed["width"].as_u64(), oembed["height"].as_u64()), (Some(560), Some(220)));
    assert_eq!(oembed["title"], "Morning <b> · Unknown Artist");
    assert_eq!((oembed["author_name"].as_str(), oembed["provider_name"].as_str()), (Some("Ana"), Some("SelfSound")));
    assert_eq!(oembed["author_url"], format!("{}/app/profile/{ana_id}", app.url));
    let frame = oembed["html"].as_str().unwrap();
    assert!(frame.starts_with(&format!("<iframe src=\"{embed}\" width=\"560\" height=\"220\"")), "{frame}");
    assert!(frame.contains("title=\"Morning &lt;b&gt; · Unknown Artist on SelfSound\""), "{frame}");
    let narrow: Value = get(&app, &format!("/oembed?url={}/app/post/{id}&maxwidth=300&maxheight=150", app.url))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!((narrow["width"].as_u64(), narrow["height"].as_u64()), (Some(300), Some(150)));

    // The page: framed by anyone, its own files only, the title escaped.
    let res = get(&app, &format!("/embed/post/{id}")).await;
    assert_eq!(res.status(), StatusCode::OK);
    let csp = res.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(csp.contains("frame-ancestors *") && csp.contains("script-src 'self'"), "{csp}");
    assert!(res.headers().get("x-frame-options").is_none(), "the embed may be framed");
    let page = res.text().await.unwrap();
    assert!(page.contains("<span class=\"title\">Morning &lt;b&gt;</span>"), "{page}");
    assert!(!page.contains("Morning <b>"), "nothing unescaped, in the data either");
    assert!(page.contains(&format!("href=\"{}/app/post/{id}\"", app.url)), "a link back");
    let script = page.split("<script src=\"").nth(1).and_then(|r| r.split('"').next()).unwrap();
    let js = get(&app, script).await;
    assert_eq!(js.headers()["content-type"], "text/javascript; charset=utf-8");
    assert!(js.headers()["cache-control"].to_str().unwrap().contains("immutable"));
    // Every other page still refuses to be framed.
    for path in [format!("/app/post/{id}"), format!("/posts/{id}"), "/healthz".to_owned()] {
        assert_eq!(get(&app, &path).await.headers()["x-frame-options"], "DENY", "{path}");
    }

    // What has no player: another kind, an address not of a post here, a format not offered.
    let lyrics = json!({"songTitle": "Song", "artistName": "Band", "parts": [{"type": "verse", "lyrics": "la"}]});
    let lyrics = app.post("/posts/lyrics", Some(&ana), lyrics).await.body["id"].as_str().unwrap().to_owned();
    assert_ne!(
        meta(&get(&app, &format!("/app/post/{lyrics}")).await.text().await.unwrap(), "twitter:card"),
        Some("player")
    );
    let answers = [
        (format!("/embed/post/{lyrics}"), StatusCode::NOT_FOUND),
        ("/embed/post/nope".to_owned(), StatusCode::NOT_FOUND),
        (format!("/oembed?url={}/app/post/{lyrics}", app.url), StatusCode::NOT_FOUND),
        (format!("/oembed?url=https://elsewhere.example/app/post/{id}"), StatusCode::NOT_FOUND),
        (format!("/oembed?url={}/app/post/{id}&format=xml", app.url), StatusCode::NOT_IMPLEMENTED),
        ("/oembed".to_owned(), StatusCode::BAD_REQUEST),
    ];
    for (path, status) in answers {
        let res = get(&app, &path).await;
        assert_eq!(res.status(), status, "{path}");
        if path.starts_with("/oembed") {
            assert!(res.json::<Value>().await.unwrap()["detail"].is_string(), "{path}");
        }
    }

    // A suspended person's track has no embed any more.
    let suspended = app.post(&format!("/admin/users/{ana_id}/suspend"), Some(&rita), json!({"reason": "spam"})).await;
    assert!(suspended.status.is_success(), "{:?}", suspended.body);
    assert_eq!(get(&app, &format!("/embed/post/{id}")).await.status(), StatusCode::NOT_FOUND);
    let oembed = get(&app, &format!("/oembed?url={}/app/post/{id}", app.url)).await;
    assert_eq!(oembed.status(), StatusCode::NOT_FOUND);
}

test_support::both_backends!(embeds_play_anywhere_and_only_what_may_be_seen);
