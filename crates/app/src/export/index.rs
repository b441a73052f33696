//! The archive's `index.html`: the person's profile and every post with its pictures, players
//! and words, readable in any browser straight from the unpacked zip (files by relative paths;
//! no script, no outside address), and where the rest is.

use super::{Counts, FileOut, PostOut, ProfileOut};

use values::escape_html as esc;

/// A time of the archive (`2026-12-07T14:03:00Z`) as people read it: "7 December 2026, 14:03 UTC".
fn readable(iso: &str) -> String {
    match chrono::NaiveDateTime::parse_from_str(iso, "%Y-%m-%dT%H:%M:%SZ") {
        Ok(t) => t.format("%-d %B %Y, %H:%M UTC").to_string(),
        Err(_) => iso.to_owned(),
    }
}

const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;\
color:#1b1b1f;background:#fafafa}h1{font-size:1.6rem;margin:0}h2{margin-top:2.5rem;border-bottom:1px solid #ddd}\
header{display:flex;gap:1rem;align-items:center}header img{width:96px;height:96px;border-radius:50%;object-fit:cover}\
article{background:#fff;border:1px solid #e2e2e6;border-radius:12px;padding:1rem;margin:1rem 0}\
article img,article video{max-width:100%;border-radius:8px;display:block;margin:.5rem 0}audio{width:100%}\
.meta{color:#5f5f6b;font-size:.875rem}pre{white-space:pre-wrap;font:inherit}table{border-collapse:collapse}\
td,th{padding:.25rem .75rem;text-align:left;border-bottom:1px solid #eee}";

/// The page up to its posts.
pub(super) fn head(name: &str, profile: &ProfileOut, avatar: Option<&FileOut>, made_at: &str) -> String {
    let picture = match avatar.and_then(|a| a.path.as_deref()) {
        Some(path) => format!("<img src=\"{}\" alt=\"\">", esc(path)),
        None => String::new(),
    };
    let bio = profile.bio.as_deref().map(|b| format!("<p>{}</p>", esc(b))).unwrap_or_default();
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{name}'s SelfSound data</title><style>{STYLE}</style></head><body>\
         <header>{picture}<div><h1>{name}</h1><div class=\"meta\">@{login} · joined {joined}</div>{bio}</div></header>\
         <p class=\"meta\">Your SelfSound data as of {made_at}. Every file of this archive is described in \
         <a href=\"archive.json\">archive.json</a>; your posts with their files are below and in \
         <a href=\"posts.json\">posts.json</a>.</p><h2>Posts</h2>\n",
        name = esc(name),
        login = esc(&profile.login),
        joined = readable(&profile.joined_at),
        made_at = readable(made_at),
    )
}

/// One post.
pub(super) fn post(post: &PostOut) -> String {
    let mut html = format!(
        "<article id=\"post-{id}\"><div class=\"meta\">{kind} · {at}{edited}</div>",
        id = post.id,
        kind = kind_label(post.kind),
        at = readable(&post.created_at),
        edited = post.edited_at.as_deref().map(|e| format!(" · edited {}", readable(e))).unwrap_or_default(),
    );
    if let Some(caption) = &post.caption {
        html.push_str(&format!("<p>{}</p>", esc(caption)));
    }
    for (i, track) in post.tracks.iter().enumerate() {
        html.push_str(&format!("<p><strong>{}</strong> — {}</p>", esc(&track.title), esc(&track.artist)));
        if let Some(cover) = file_of(post, "cover", i) {
            html.push_str(&format!("<img src=\"{}\" alt=\"Cover of {}\">", esc(cover), esc(&track.title)));
        }
        if let Some(audio) = file_of(post, "track", i) {
            html.push_str(&format!("<audio controls preload=\"none\" src=\"{}\"></audio>", esc(audio)));
        }
    }
    for (i, media) in post.media.iter().enumerate() {
        match (media.r#type, file_of(post, media.r#type, i)) {
            ("video", Some(path)) => {
                html.push_str(&format!("<video controls preload=\"none\" src=\"{}\"></video>", esc(path)))
            }
            (_, Some(path)) => html.push_str(&format!("<img src=\"{}\" alt=\"\">", esc(path))),
            (_, None) => {}
        }
    }
    for (i, score) in post.scores.iter().enumerate() {
        let title = format!("{} — {}", esc(&score.title), esc(&score.composer));
        match file_of(post, "score", i) {
            Some(path) => html.push_str(&format!("<p>Score: <a href=\"{}\">{title}</a></p>", esc(path))),
            None => html.push_str(&format!("<p>Score: {title}</p>")),
        }
    }
    if let Some(lyrics) = &post.lyrics {
        html.push_str(&format!("<p><strong>{}</strong> — {}</p>", esc(&lyrics.title), esc(&lyrics.artist)));
        for part in &lyrics.parts {
            html.push_str(&format!("<p class=\"meta\">{}</p><pre>{}</pre>", esc(&part.r#type), esc(&part.lyrics)));
        }
    }
    if post.files.iter().any(|f| f.path.is_none()) {
        html.push_str(
            "<p class=\"meta\">Some of this post's files were missing from storage when the archive was made.</p>",
        );
    }
    html.push_str(&format!(
        "<div class=\"meta\">{} likes · {} comments · {} plays · {} reposts</div></article>\n",
        post.likes_count, post.comments_count, post.plays_count, post.reposts_count
    ));
    html
}

/// The page after its posts: where the rest of the data is.
pub(super) fn tail(counts: &Counts) -> String {
    let none = if counts.posts == 0 { "<p>You have not posted anything.</p>" } else { "" };
    let rows = [
        ("comments.json", "Comments you wrote", counts.comments),
        ("likes.json", "Posts you like", counts.likes),
        ("reposts.json", "Posts you reposted", counts.reposts),
        ("playlists.json", "Your playlists", counts.playlists),
        ("listens.json", "People you listen to", counts.listening_to),
        ("listens.json", "People who listen to you", counts.listeners),
        ("blocks.json", "People you blocked", counts.blocks),
        ("notifications.json", "Your notifications", counts.notifications),
    ]
    .iter()
    .map(|(file, what, n)| format!("<tr><td>{what}</td><td>{n}</td><td><a href=\"{file}\">{file}</a></td></tr>"))
    .collect::<String>();
    format!("{none}<h2>Everything else</h2><table>{rows}</table></body></html>\n")
}

fn kind_label(kind: &str) -> &'static str {
    match kind {
        "audio" => "Audio",
        "media" => "Pictures and video",
        "musicxml" => "Sheet music",
        _ => "Lyrics",
    }
}

/// Where the archive holds the post's file of `role` at `position`.
fn file_of<'a>(post: &'a PostOut, role: &str, position: usize) -> Option<&'a str> {
    post.files.iter().find(|f| f.role == role && f.position == position).and_then(|f| f.path.as_deref())
}
