//! A track's player for other sites (issue 32): `/embed/post/{id}` is a small page of its own —
//! cover, title, artist, play, the waveform to seek on, the post's other tracks, a link back —
//! that any site may put in an iframe (its own `frame-ancestors *`; every other page of ours
//! keeps refusing to be framed), `/oembed?url=…` describes it to sites that ask (oEmbed 1.0,
//! type `rich`), and the post page's HTML names both (`crate::previews`). The page is written
//! here, with its script and styles (`embed/player.js`, `embed/player.css`) served beside it: it
//! loads none of the web app, and works from its own origin's files only.
//!
//! What it shows is what a signed-out visitor may see: a post of a suspended person, a deleted
//! one or one that is not audio has no embed (404).

use std::sync::LazyLock;

use actix_web::http::header;
use actix_web::{HttpResponse, web};
use posts::{Payload, Post};
use serde::{Deserialize, Serialize};
use sha2::Digest;
use values::PostId;

use crate::previews::escape;
use crate::state::AppState;

/// The embed may be framed by any site, and reaches only our own files.
const EMBED_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
    media-src 'self'; frame-ancestors *; base-uri 'none'; form-action 'none'";

const PLAYER_JS: &str = include_str!("embed/player.js");
const PLAYER_CSS: &str = include_str!("embed/player.css");

/// A version for the script and styles' addresses, so they can be cached for good.
static VERSION: LazyLock<String> = LazyLock::new(|| {
    let digest = sha2::Sha256::digest(format!("{PLAYER_JS}{PLAYER_CSS}"));
    digest.iter().take(5).map(|b| format!("{b:02x}")).collect()
});

/// The frame's size for a post of `tracks` tracks: one track's player, and a row for each track
/// when there are more.
pub fn frame_height(tracks: usize) -> u32 {
    if tracks > 1 { 152 + 34 * tracks.min(10) as u32 } else { 152 }
}

/// The widest the frame is offered (narrower frames work: it fits any width from 280 px).
pub const FRAME_WIDTH: u32 = 560;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/embed/post/{post_id}", web::get().to(page))
        .route("/embed/player.js", web::get().to(|| async { asset(PLAYER_JS, "text/javascript; charset=utf-8") }))
        .route("/embed/player.css", web::get().to(|| async { asset(PLAYER_CSS, "text/css; charset=utf-8") }))
        .route("/oembed", web::get().to(oembed));
}

fn asset(body: &'static str, content_type: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((header::CACHE_CONTROL, "public, max-age=31536000, immutable"))
        .body(body)
}

/// The address of `post`'s embed.
pub fn embed_url(state: &AppState, post: PostId) -> String {
    format!("{}/embed/post/{post}", state.config.public_url)
}

/// The address of the oEmbed answer for the post page at `page`.
pub fn oembed_url(state: &AppState, page: &str) -> String {
    format!("{}/oembed?format=json&url={}", state.config.public_url, percent_encode(page))
}

fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The post `id` as a signed-out visitor sees it, when it is a track post.
async fn audio_post(state: &AppState, id: PostId) -> Option<Post> {
    let post = state.posts.post(id, None).await.ok()?;
    matches!(&*post.payload, Payload::Audio(tracks) if !tracks.is_empty()).then_some(post)
}

/// One track as the page's script reads it.
#[derive(Serialize)]
struct TrackData {
    title: String,
    artist: String,
    cover: Option<String>,
    seconds: f64,
    file: String,
    streams: Vec<StreamData>,
    peaks: Option<String>,
}

#[derive(Serialize)]
struct StreamData {
    url: String,
    #[serde(rename = "type")]
    mime: &'static str,
}

async fn page(state: web::Data<AppState>, id: web::Path<String>) -> HttpResponse {
    let found = match id.parse::<PostId>() {
        Ok(id) => audio_post(&state, id).await,
        Err(_) => None,
    };
    let Some(post) = found else {
        return html(
            actix_web::http::StatusCode::NOT_FOUND,
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>SelfSound</title></head>\
             <body><p>This track is not available.</p></body></html>"
                .to_owned(),
        );
    };
    let Payload::Audio(tracks) = &*post.payload else { return HttpResponse::NotFound().finish() };
    let url = |key: &str| state.media_url(&storage::url_of(key));
    let data: Vec<TrackData> = tracks
        .iter()
        .map(|t| TrackData {
            title: t.title.clone(),
            artist: t.artist.clone(),
            cover: t.cover_key.as_deref().map(url),
            seconds: t.duration_ms as f64 / 1000.0,
            file: url(&t.file_key),
            streams: t.renditions.as_ref().map_or_else(Vec::new, |r| {
                vec![
                    StreamData { url: url(&r.opus_key), mime: "audio/webm; codecs=\"opus\"" },
                    StreamData { url: url(&r.aac_key), mime: "audio/mp4; codecs=\"mp4a.40.2\"" },
                ]
            }),
            peaks: t.peaks.clone(),
        })
        .collect();
    // JSON inside a <script> element: no `<` may end it early.
    let json = serde_json::to_string(&data).unwrap_or_else(|_| "[]".to_owned()).replace('<', "\\u003c");
    let first = &tracks[0];
    let link = format!("{}/post/{}", state.config.frontend_url, post.id);
    let cover = match first.cover_key.as_deref() {
        Some(key) => format!("<img class=\"cover\" src=\"{}\" alt=\"\">", escape(&url(key))),
        None => "<div class=\"cover none\" aria-hidden=\"true\"></div>".to_owned(),
    };
    let list = if tracks.len() > 1 {
        let rows: String = tracks
            .iter()
            .enumerate()
            .map(|(i, t)| {
                format!(
                    "<li><button type=\"button\" data-track=\"{i}\"><span class=\"n\">{}</span>\
                     <span class=\"t\">{}</span><span class=\"d\">{}</span></button></li>",
                    i + 1,
                    escape(&t.title),
                    t.duration_text()
                )
            })
            .collect();
        format!("<ol class=\"tracks\" aria-label=\"Tracks\">{rows}</ol>")
    } else {
        String::new()
    };
    let v = VERSION.as_str();
    let body = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\">\
         <title>{title} · {artist} · SelfSound</title>\
         <link rel=\"stylesheet\" href=\"/embed/player.css?v={v}\">\
         <script src=\"/embed/player.js?v={v}\" defer></script></head>\
         <body><main class=\"embed\">{cover}<div class=\"body\"><div class=\"head\">\
         <button type=\"button\" class=\"play\" aria-label=\"Play {title}\"></button>\
         <div class=\"names\"><span class=\"title\">{title}</span><span class=\"artist\">{artist}</span></div>\
         <a class=\"home\" href=\"{link}\" target=\"_blank\" rel=\"noopener\">SelfSound</a></div>\
         <div class=\"wave\" role=\"slider\" tabindex=\"0\" aria-label=\"Seek {title}\" aria-valuemin=\"0\" \
         aria-valuemax=\"{max}\" aria-valuenow=\"0\" aria-valuetext=\"0:00 of {length}\"><canvas></canvas></div>\
         <div class=\"time\"><span class=\"at\">0:00</span><span class=\"length\">{length}</span></div>\
         {list}</div></main>\
         <script type=\"application/json\" id=\"tracks\">{json}</script></body></html>",
        title = escape(&first.title),
        artist = escape(&first.artist),
        link = escape(&link),
        max = (first.duration_ms as f64 / 1000.0).round(),
        length = first.duration_text(),
    );
    html(actix_web::http::StatusCode::OK, body)
}

fn html(status: actix_web::http::StatusCode, body: String) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CONTENT_SECURITY_POLICY, EMBED_CSP))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body)
}

#[derive(Deserialize)]
struct OembedQuery {
    url: Option<String>,
    format: Option<String>,
    maxwidth: Option<u32>,
    maxheight: Option<u32>,
}

#[derive(Serialize)]
struct Oembed {
    version: &'static str,
    #[serde(rename = "type")]
    kind: &'static str,
    provider_name: &'static str,
    provider_url: String,
    title: String,
    author_name: String,
    author_url: String,
    html: String,
    width: u32,
    height: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    thumbnail_url: Option<String>,
}

/// The post a page address names: `{frontend}/post/{id}` or our own `/app/post/{id}`.
fn post_of_page(state: &AppState, page: &str) -> Option<PostId> {
    let page = page.split(['?', '#']).next()?;
    let own_app = format!("{}/app", state.config.public_url);
    [state.config.frontend_url.as_str(), own_app.as_str()]
        .iter()
        .find_map(|base| page.strip_prefix(base)?.strip_prefix("/post/"))
        .and_then(|id| id.trim_end_matches('/').parse().ok())
}

async fn oembed(state: web::Data<AppState>, q: web::Query<OembedQuery>) -> HttpResponse {
    let detail = |status: actix_web::http::StatusCode, detail: &str| {
        HttpResponse::build(status).json(serde_json::json!({ "detail": detail }))
    };
    if q.format.as_deref().is_some_and(|f| f != "json") {
        // oEmbed 1.0: a format the provider does not offer is 501.
        return detail(actix_web::http::StatusCode::NOT_IMPLEMENTED, "Only format=json is offered");
    }
    let Some(page) = q.url.as_deref() else {
        return detail(actix_web::http::StatusCode::BAD_REQUEST, "url is required: the address of a post's page");
    };
    let Some(id) = post_of_page(&state, page) else {
        return detail(actix_web::http::StatusCode::NOT_FOUND, "Not the address of a post on this server");
    };
    let Some(post) = audio_post(&state, id).await else {
        return detail(actix_web::http::StatusCode::NOT_FOUND, "This post has no player to embed");
    };
    let Payload::Audio(tracks) = &*post.payload else { return HttpResponse::NotFound().finish() };
    let first = &tracks[0];
    let width = q.maxwidth.map_or(FRAME_WIDTH, |w| w.clamp(280, FRAME_WIDTH));
    let height = q.maxheight.map_or(frame_height(tracks.len()), |h| h.clamp(120, frame_height(tracks.len())));
    let title = format!("{} · {}", first.title, first.artist);
    let frame = format!(
        "<iframe src=\"{}\" width=\"{width}\" height=\"{height}\" style=\"border:0;max-width:100%\" \
         allow=\"autoplay\" loading=\"lazy\" title=\"{}\"></iframe>",
        escape(&embed_url(&state, post.id)),
        escape(&format!("{title} on SelfSound")),
    );
    let answer = Oembed {
        version: "1.0",
        kind: "rich",
        provider_name: "SelfSound",
        provider_url: state.config.frontend_url.clone(),
        title,
        author_name: post.author.name.clone(),
        author_url: format!("{}/profile/{}", state.config.frontend_url, post.author.id),
        html: frame,
        width,
        height,
        thumbnail_url: first.cover_key.as_deref().map(|k| state.media_url(&storage::url_of(k))),
    };
    HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-cache")).json(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_encoded_and_frames_sized() {
        assert_eq!(percent_encode("http://a.b/app/post/1?x=y&z"), "http%3A%2F%2Fa.b%2Fapp%2Fpost%2F1%3Fx%3Dy%26z");
        assert_eq!(frame_height(1), 152);
        assert_eq!(frame_height(3), 152 + 3 * 34);
        assert_eq!(frame_height(40), frame_height(10));
    }
}
