//! Posts through the API: creating each type from real files, the wire shapes of spec §3,
//! feeds with the keyset `Link`, likes, comments with mentions, the upload rules of §5, and
//! deleting (files included).

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;
use test_support::media::{VIDEO_PLACE, VIDEO_TITLE, musicxml, png, video, wav};

use crate::common::{Options, Part, TestApp, lyrics_body, multipart, spawn_app, spawn_app_with};

/// What is stored under a post's media URL.
async fn fetch(app: &TestApp, url: &str) -> (StatusCode, String, usize) {
    let res = app.client.get(url).send().await.unwrap();
    let status = res.status();
    let content_type = res.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    (status, content_type, res.bytes().await.unwrap().len())
}

async fn fetch_bytes(app: &TestApp, url: &str) -> Vec<u8> {
    let res = app.client.get(url).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK, "{url}");
    res.bytes().await.unwrap().to_vec()
}

async fn each_type_is_created_from_real_files_and_read_back(db: TestDb) {
    let app = spawn_app(db).await;
    let (token, me) = app.person("Ana", "ana@example.com").await;

    // Audio: a two-second tone; blank title and artist take the spec's defaults (a WAV has no tags).
    let audio = app
        .post_form(
            "/posts/audio",
            Some(&token),
            &[
                Part::file("audio_files", "Morning take.wav", wav(2.0, 440.0, 0.5)),
                Part::text("titles", ""),
                Part::text("artists", " "),
                Part::text("caption", "first try"),
            ],
        )
        .await;
    assert_eq!(audio.status, StatusCode::CREATED, "{:?}", audio.body);
    let post = &audio.body;
    assert_eq!(post["type"], "audio");
    assert_eq!(post["caption"], "first try");
    assert_eq!(post["user"]["id"], me.as_str());
    assert_eq!(post["user"]["login"], "ana");
    assert!(post["user"]["avatar_url"].as_str().unwrap().starts_with("http"));
    assert_eq!((post["likes_count"].as_i64(), post["comments_count"].as_i64()), (Some(0), Some(0)));
    assert_eq!(post["user_liked"], false);
    let track = &post["audio"][0];
    assert_eq!(track["title"], "Morning take");
    assert_eq!(track["artist"], "Unknown Artist");
    assert_eq!(track["duration"], "0:02");
    assert!((track["duration_seconds"].as_f64().unwrap() - 2.0).abs() < 0.05);
    let peaks = track["peaks"].as_str().expect("peaks");
    assert!(peaks.len() <= 1400, "about 1 KB: {}", peaks.len());
    // A sine at half scale (−6 dBFS), mono heard on both speakers: about −6 LUFS (K-weighting
    // takes a little off at 440 Hz), its true peak −6 dBTP.
    let loudness = &track["loudness"];
    let lufs = loudness["integrated_lufs"].as_f64().expect("loudness measured");
    assert!((-7.5..=-5.5).contains(&lufs), "{loudness}");
    assert!((loudness["true_peak_dbtp"].as_f64().unwrap() + 6.0).abs() < 0.5, "{loudness}");
    let (status, content_type, size) = fetch(&app, track["file_url"].as_str().unwrap()).await;
    assert_eq!((status, content_type.as_str(), size), (StatusCode::OK, "audio/wav", wav(2.0, 440.0, 0.5).len()));

    // Media: a wide picture gets a display copy; the original keeps its size without metadata.
    let media = app
        .post_form("/posts/media", Some(&token), &[Part::file("files", "wide.png", png(2000, Some("51.5N 0.1W")))])
        .await;
    assert_eq!(media.status, StatusCode::CREATED, "{:?}", media.body);
    let item = &media.body["media"][0];
    assert_eq!(item["file_type"], "image");
    assert_eq!((item["width"].as_i64(), item["height"].as_i64()), (Some(2000), Some(1)));
    assert_ne!(item["display_url"], item["file_url"]);
    assert!(item["id"].is_string());
    let (status, content_type, _) = fetch(&app, item["display_url"].as_str().unwrap()).await;
    assert_eq!((status, content_type.as_str()), (StatusCode::OK, "image/jpeg"));
    let original = app.client.get(item["file_url"].as_str().unwrap()).send().await.unwrap().bytes().await.unwrap();
    assert!(!original.windows(4).any(|w| w == b"51.5"), "the text chunk is gone");

    // Sheet music: a blank title and composer come from the score itself.
    let score = app
        .post_form(
            "/posts/musicxml",
            Some(&token),
            &[
                Part::file("musicxml_files", "etude.musicxml", musicxml("Étude in C", "Clara")),
                Part::text("titles", ""),
                Part::text("composers", ""),
            ],
        )
        .await;
    assert_eq!(score.status, StatusCode::CREATED, "{:?}", score.body);
    assert_eq!(score.body["musicxml"][0]["title"], "Étude in C");
    assert_eq!(score.body["musicxml"][0]["composer"], "Clara");
    let (status, content_type, _) = fetch(&app, score.body["musicxml"][0]["file_url"].as_str().unwrap()).await;
    assert_eq!((status, content_type.as_str()), (StatusCode::OK, "application/vnd.recordare.musicxml+xml"));

    let song = app.lyrics_post(&token, "Song").await;
    assert_eq!(song["lyrics"]["title"], "Song");
    assert_eq!(song["lyrics"]["lyrics_text"], "[Verse]\nla la");
    assert_eq!(song["lyrics"]["parts"][0]["type"], "verse");

    // The feed: newest first, every payload under its type's key; the post page alike.
    let feed = app.get("/posts/feed?limit=10&offset=0", None).await;
    let kinds: Vec<&str> = feed.body.as_array().unwrap().iter().map(|p| p["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, vec!["lyrics", "musicxml", "media", "audio"]);
    let one = app.get(&format!("/posts/{}", audio.body["id"].as_str().unwrap()), None).await;
    assert_eq!(one.body, feed.body[3]);
    let stats = app.get(&format!("/profiles/{me}/stats"), None).await;
    assert_eq!(stats.body["posts"], 4);

    // What a file says is used only as a title: no extension, no broken text (issue 34); a
    // file name left as the title is made readable.
    let read = app
        .post_form(
            "/posts/musicxml",
            Some(&token),
            &[
                Part::file("musicxml_files", "bach_bwv110.7.mxl.musicxml", musicxml("bwv110.7.mxl", "J.S. Bach")),
                Part::file("musicxml_files", "joplin_maple_leaf_rag.musicxml", musicxml(r"\J.D. 'JUa..J..UU", "{?}")),
            ],
        )
        .await;
    assert_eq!(read.status, StatusCode::CREATED, "{:?}", read.body);
    let read: Vec<(&str, &str)> = read.body["musicxml"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["title"].as_str().unwrap(), s["composer"].as_str().unwrap()))
        .collect();
    assert_eq!(read, [("bwv110.7", "J.S. Bach"), ("Joplin maple leaf rag", "Unknown Composer")]);
}

/// Real videos made by ffmpeg: sniffed by their bytes, remuxed without their metadata (a
/// phone's title and location are gone from what is served), and given a poster frame (a JPEG
/// of the first frame).
async fn videos_are_posted_clean_with_a_poster_frame(db: TestDb) {
    let (Some(mp4), Some(mov), Some(webm)) = (video("mp4"), video("mov"), video("webm")) else { return };
    let app = spawn_app(db).await;
    let (token, _) = app.person("Ana", "ana@example.com").await;
    let files = [("clip.mp4", &mp4), ("clip.mov", &mov), ("clip.webm", &webm)];
    let parts: Vec<Part> = files.iter().map(|(name, bytes)| Part::file("files", name, bytes.to_vec())).collect();
    let post = app.post_form("/posts/media", Some(&token), &parts).await;
    assert_eq!(post.status, StatusCode::CREATED, "{:?}", post.body);
    for (item, (name, original)) in post.body["media"].as_array().unwrap().iter().zip(files) {
        assert!(contains(original, VIDEO_TITLE.as_bytes()), "{name}: the upload carries a title");
        assert_eq!(item["file_type"], "video");
        assert_eq!((item["width"].as_i64(), item["height"].as_i64()), (None, None));
        let url = item["file_url"].as_str().unwrap();
        assert!(url.ends_with(&name[4..]), "{name}: the same container ({url})");
        let served = fetch_bytes(&app, url).await;
        assert!(served.len() > 1000, "{name}: the video itself");
        for secret in [VIDEO_TITLE, VIDEO_PLACE] {
            assert!(!contains(&served, secret.as_bytes()), "{name}: {secret:?} is not served");
        }
        let poster = item["poster_url"].as_str().unwrap_or_else(|| panic!("a poster frame: {item}"));
        let (status, content_type, size) = fetch(&app, poster).await;
        assert_eq!((status, content_type.as_str()), (StatusCode::OK, "image/jpeg"));
        assert!(size > 500, "a real picture, {size} bytes");
    }
}

/// A video container around anything but a video (the first bytes of an MKV or an MP4, then a
/// ZIP or an HTML page, or a video cut short) is refused: nothing in it decodes.
async fn only_videos_that_decode_are_taken(db: TestDb) {
    let Some(mp4) = video("mp4") else { return };
    let app = spawn_app(db).await;
    let (token, _) = app.person("Ana", "ana@example.com").await;
    let mut mkv_zip = vec![0x1A, 0x45, 0xDF, 0xA3];
    mkv_zip.extend_from_slice(b"PK\x03\x04 a zip archive follows <html><script>alert(1)</script>");
    let mut mp4_html = b"\0\0\0\x18ftypisom\0\0\x02\0isomiso2".to_vec();
    mp4_html.extend_from_slice(b"<html><script>alert(1)</script></html>");
    for (name, bytes) in [("clip.mkv", mkv_zip), ("clip.mp4", mp4_html), ("cut.mp4", mp4[..mp4.len() / 3].to_vec())] {
        let refused = app.post_form("/posts/media", Some(&token), &[Part::file("files", name, bytes)]).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{name}: {:?}", refused.body);
        let detail = refused.detail();
        assert!(detail.starts_with(&format!("{name}: ")), "{detail}");
    }
    assert_eq!(app.get("/posts/feed", None).await.body, json!([]), "nothing was posted");
}

async fn without_ffmpeg_videos_answer_503_and_pictures_still_post(db: TestDb) {
    let Some(mp4) = video("mp4") else { return };
    let options = Options { env: vec![("SELFSOUND_FFMPEG".into(), "off".into())], ..Options::default() };
    let app = spawn_app_with(db, options).await;
    let (token, _) = app.person("Bea", "bea@example.com").await;
    let video = app.post_form("/posts/media", Some(&token), &[Part::file("files", "clip.mp4", mp4)]).await;
    assert_eq!(video.status, StatusCode::SERVICE_UNAVAILABLE, "{:?}", video.body);
    assert_eq!(video.detail(), "Video uploads are not available on this server right now; pictures still are");
    let picture = app.post_form("/posts/media", Some(&token), &[Part::file("files", "p.png", png(20, None))]).await;
    assert_eq!(picture.status, StatusCode::CREATED, "{:?}", picture.body);
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

async fn uploads_follow_the_rules_of_the_spec(db: TestDb) {
    let app = spawn_app(db).await;
    let (token, _) = app.person("Ana", "ana@example.com").await;
    let t = Some(token.as_str());

    let none = app.post_form("/posts/audio", t, &[Part::text("caption", "no files")]).await;
    assert_eq!((none.status, none.detail()), (StatusCode::BAD_REQUEST, "Please select at least one audio file"));
    let html = app
        .post_form("/posts/audio", t, &[Part::file("audio_files", "song.mp3", "<html><script>x</script></html>")])
        .await;
    assert_eq!((html.status, html.detail()), (StatusCode::UNSUPPORTED_MEDIA_TYPE, "song.mp3 is not an audio file"));
    let svg = app
        .post_form("/posts/media", t, &[Part::file("files", "pic.png", r#"<svg xmlns="http://www.w3.org/2000/svg"/>"#)])
        .await;
    assert_eq!(svg.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(svg.detail().starts_with("Unsupported file type"), "{}", svg.detail());
    let six: Vec<Part> = (0..6).map(|i| Part::file("files", &format!("{i}.png"), png(4, None))).collect();
    let too_many = app.post_form("/posts/media", t, &six).await;
    assert_eq!(
        (too_many.status, too_many.detail()),
        (StatusCode::PAYLOAD_TOO_LARGE, "Maximum 5 files allowed per post")
    );
    // A picture over 10MB is refused as soon as it crosses the limit of its kind.
    let mut big = png(8, None);
    big.resize(10 * 1024 * 1024 + 10, 0);
    let big = app.post_form("/posts/media", t, &[Part::file("files", "big.png", big)]).await;
    assert_eq!((big.status, big.detail()), (StatusCode::PAYLOAD_TOO_LARGE, "File size exceeds 10MB limit"));
    let not_score =
        app.post_form("/posts/musicxml", t, &[Part::file("musicxml_files", "a.musicxml", "just text")]).await;
    assert_eq!(
        (not_score.status, not_score.detail()),
        (StatusCode::UNSUPPORTED_MEDIA_TYPE, "a.musicxml is not a valid MusicXML file")
    );
    let wrong_root = app
        .post_form("/posts/musicxml", t, &[Part::file("musicxml_files", "b.xml", "<?xml version=\"1.0\"?><html/>")])
        .await;
    assert!(wrong_root.status.is_client_error(), "{:?}", wrong_root.body);
    let no_parts = app.post("/posts/lyrics", t, json!({"songTitle": "S", "artistName": "A", "parts": []})).await;
    assert_eq!((no_parts.status, no_parts.detail()), (StatusCode::BAD_REQUEST, "Please fill in all required fields"));
    let guest = app.post_form("/posts/audio", None, &[Part::file("audio_files", "a.wav", wav(0.5, 440.0, 0.5))]).await;
    assert_eq!(guest.status, StatusCode::UNAUTHORIZED);
    // Nothing of the refused uploads was kept.
    let feed = app.get("/posts/feed", None).await;
    assert_eq!(feed.body, json!([]));
    let stored = walk(&app.data_dir.path().join("media"));
    assert!(stored.iter().all(|p| !p.contains("/posts/")), "{stored:?}");
}

fn walk(dir: &std::path::Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .flatten()
        .flat_map(|e| if e.path().is_dir() { walk(&e.path()) } else { vec![e.path().display().to_string()] })
        .collect()
}

async fn feeds_say_where_the_next_page_is_and_the_cursor_never_repeats(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (me, _) = app.person("Me", "me@example.com").await;
    for i in 0..12 {
        app.lyrics_post(&ana, &format!("s{i}")).await;
    }
    let first = app.get("/posts/feed?limit=10", Some(&me)).await;
    assert_eq!(first.body.as_array().unwrap().len(), 10);
    let link = first.headers.get("link").expect("a next link").to_str().unwrap().to_owned();
    let last = first.body[9]["id"].as_str().unwrap();
    assert_eq!(link, format!("</posts/feed?limit=10&before={last}>; rel=\"next\""));
    app.lyrics_post(&ana, "newest").await;
    let next = link.trim_start_matches('<').split('>').next().unwrap();
    let second = app.get(next, Some(&me)).await;
    let titles: Vec<&str> =
        second.body.as_array().unwrap().iter().map(|p| p["lyrics"]["title"].as_str().unwrap()).collect();
    assert_eq!(titles, vec!["s1", "s0"]);
    assert!(second.headers.get("link").is_none(), "a short page is the last");
    assert_eq!(app.get("/posts/listened-to", None).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.get("/posts/listened-to", Some(&me)).await.body, json!([]));
    assert_eq!(app.get("/posts/feed?before=abc", None).await.status, StatusCode::BAD_REQUEST);
    assert_eq!(app.get("/posts/user/123", None).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get("/posts/999", None).await.detail(), "Post not found");
}

async fn likes_and_comments_speak_the_spec(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let post = app.lyrics_post(&ana, "Song").await;
    let id = post["id"].as_str().unwrap();

    assert_eq!(app.post(&format!("/posts/{id}/like"), None, json!({})).await.status, StatusCode::UNAUTHORIZED);
    let liked = app.post(&format!("/posts/{id}/like"), Some(&bob), json!({})).await;
    assert_eq!(liked.body, json!({"liked": true, "user_liked": true, "likes_count": 1}));
    assert_eq!(app.get(&format!("/posts/{id}"), Some(&bob)).await.body["user_liked"], true);
    let unliked = app.post(&format!("/posts/{id}/like"), Some(&bob), json!({})).await;
    assert_eq!(unliked.body, json!({"liked": false, "user_liked": false, "likes_count": 0}));

    let blank = app.post(&format!("/posts/{id}/comments"), Some(&bob), json!({"content": "   "})).await;
    assert_eq!(blank.status, StatusCode::BAD_REQUEST);
    let made = app.post(&format!("/posts/{id}/comments"), Some(&bob), json!({"content": "love it @ana <b>"})).await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
    let c = &made.body["comment"];
    assert_eq!(c["content"], "love it @ana <b>");
    assert_eq!(c["author_login"], "bob");
    assert_eq!(c["user"]["login"], "bob");
    assert_eq!(c["author_name"], "Bob");
    assert!(c["author_avatar_url"].is_string());
    assert_eq!(c["mentions"][0]["user_id"], ana_id.as_str());
    assert_eq!(c["mentions"][0]["login"], "ana");
    let list = app.get(&format!("/posts/{id}/comments?limit=20&offset=0"), None).await;
    assert_eq!(list.body.as_array().unwrap().len(), 1);
    assert_eq!(list.body[0], *c);
    assert_eq!(app.get(&format!("/posts/{id}"), None).await.body["comments_count"], 1);

    let found = app.get("/posts/users/search?q=an&limit=10", Some(&bob)).await;
    assert_eq!(found.body[0]["login"], "ana");
    let mut keys = found.body[0].as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    keys.sort();
    assert_eq!(keys, vec!["avatar_url", "id", "login", "name"]);
}

async fn deleting_a_post_or_an_account_removes_its_files(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let media = app.post_form("/posts/media", Some(&ana), &[Part::file("files", "wide.png", png(1500, None))]).await;
    let id = media.body["id"].as_str().unwrap().to_owned();
    let file = media.body["media"][0]["file_url"].as_str().unwrap().to_owned();
    let display = media.body["media"][0]["display_url"].as_str().unwrap().to_owned();
    assert_eq!(fetch(&app, &file).await.0, StatusCode::OK);
    assert_eq!(app.call(Method::DELETE, &format!("/posts/{id}"), Some(&bob), None).await.status, StatusCode::FORBIDDEN);
    assert_eq!(
        app.call(Method::DELETE, &format!("/posts/{id}"), Some(&ana), None).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(app.get(&format!("/posts/{id}"), None).await.status, StatusCode::NOT_FOUND);
    assert_eq!(fetch(&app, &file).await.0, StatusCode::NOT_FOUND);
    assert_eq!(fetch(&app, &display).await.0, StatusCode::NOT_FOUND);

    let audio =
        app.post_form("/posts/audio", Some(&bob), &[Part::file("audio_files", "a.wav", wav(1.0, 220.0, 0.3))]).await;
    let track = audio.body["audio"][0]["file_url"].as_str().unwrap().to_owned();
    assert_eq!(app.call(Method::DELETE, "/authorization/me", Some(&bob), None).await.status, StatusCode::OK);
    assert_eq!(fetch(&app, &track).await.0, StatusCode::NOT_FOUND);
    assert_eq!(app.get("/posts/feed", None).await.body, json!([]));
}

/// The raw text of an answer, and its status.
async fn raw_text(app: &TestApp, req: reqwest::RequestBuilder) -> (StatusCode, String) {
    let _ = app;
    let res = req.send().await.unwrap();
    (res.status(), res.text().await.unwrap())
}

/// Pages and the post page write each post from what memory keeps of its JSON (its head and
/// tail, `wire::RenderedPosts`): the very bytes the serializer writes for a new post and an
/// edited one (the create and edit answers still serialize it whole), with each viewer's like
/// and the counts as they are now, and written again when the post, its author's card or its
/// payload changes.
async fn rendered_posts_are_what_serde_writes(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana \"Quote\" <b>", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let form = |path: &str, parts: &[Part]| {
        let (content_type, body) = multipart(parts);
        app.client.post(format!("{}{path}", app.url)).bearer_auth(&ana).header("content-type", content_type).body(body)
    };
    let caption = "a \"caption\" with \\ and ✓ and \u{2028}?";
    let made = [
        form(
            "/posts/audio",
            &[Part::file("audio_files", "Take.wav", wav(1.0, 440.0, 0.5)), Part::text("caption", caption)],
        ),
        form("/posts/media", &[Part::file("files", "wide.png", png(800, None))]),
        form("/posts/musicxml", &[Part::file("musicxml_files", "e.musicxml", musicxml("Étude \"No. 1\"", "Clara"))]),
        app.client.post(format!("{}/posts/lyrics", app.url)).bearer_auth(&ana).json(&lyrics_body("Song\tone")),
    ];
    let mut created = Vec::new();
    for req in made {
        let (status, text) = raw_text(&app, req).await;
        assert_eq!(status, StatusCode::CREATED, "{text}");
        created.push(text);
    }
    let get = |path: String, token: &str| app.client.get(format!("{}{path}", app.url)).bearer_auth(token.to_owned());
    // Twice: written, then from memory.
    for _ in 0..2 {
        let (status, feed) = raw_text(&app, get("/posts/feed?limit=10".into(), &ana)).await;
        assert_eq!(status, StatusCode::OK);
        let newest_first: Vec<&str> = created.iter().rev().map(String::as_str).collect();
        assert_eq!(feed, format!("[{}]", newest_first.join(",")), "the feed's posts are the create answers' bytes");
    }
    let id = |text: &str| serde_json::from_str::<Value>(text).unwrap()["id"].as_str().unwrap().to_owned();
    let audio = id(&created[0]);
    assert_eq!(app.post(&format!("/posts/{audio}/like"), Some(&bob), json!({})).await.status, StatusCode::OK);
    let as_value = |text: &str| serde_json::from_str::<Value>(text).unwrap();
    for (who, liked) in [(&bob, true), (&ana, false)] {
        let (_, page) = raw_text(&app, get(format!("/posts/{audio}"), who)).await;
        let mut expected = as_value(&created[0]);
        expected["likes_count"] = json!(1);
        expected["user_liked"] = json!(liked);
        assert_eq!(as_value(&page), expected, "the counts and this viewer's like are today's");
    }
    // An edit: the post page is the edit answer's bytes (the editor's view).
    let edit = app
        .client
        .patch(format!("{}/posts/{audio}", app.url))
        .bearer_auth(&ana)
        .json(&json!({"caption": "now \"new\"", "titles": ["Renamed ✓"]}));
    let (status, edited) = raw_text(&app, edit).await;
    assert_eq!(status, StatusCode::OK, "{edited}");
    let (_, page) = raw_text(&app, get(format!("/posts/{audio}"), &ana)).await;
    assert_eq!(page, edited);
    // The author's card changes: every post of theirs shows the new one.
    let renamed = app.call(Method::PATCH, "/profile/me", Some(&ana), Some(json!({"name": "Ana Renamed"}))).await;
    assert_eq!(renamed.status, StatusCode::OK, "{:?}", renamed.body);
    let (_, feed) = raw_text(&app, get("/posts/feed?limit=10".into(), &bob)).await;
    let feed = as_value(&feed);
    assert_eq!(feed.as_array().map(Vec::len), Some(4));
    for post in feed.as_array().unwrap() {
        assert_eq!(post["user"]["name"], "Ana Renamed");
    }
}

test_support::both_backends!(
    rendered_posts_are_what_serde_writes,
    each_type_is_created_from_real_files_and_read_back,
    videos_are_posted_clean_with_a_poster_frame,
    only_videos_that_decode_are_taken,
    without_ffmpeg_videos_answer_503_and_pictures_still_post,
    uploads_follow_the_rules_of_the_spec,
    feeds_say_where_the_next_page_is_and_the_cursor_never_repeats,
    likes_and_comments_speak_the_spec,
    deleting_a_post_or_an_account_removes_its_files,
);
