//! Link previews: the web app's page for a post (`/app/post/{id}`), a person
//! (`/app/profile/{id}`, `/app/user/{id}`) or a playlist (`/app/playlist/{id}`) is served with Open Graph and Twitter Card tags in
//! its `<head>`, so that a link pasted into a chat or a post elsewhere shows a card (title,
//! author, a line of text, a picture, and for a track its audio). Chat apps fetch the page
//! without running it, so the tags are in the HTML the server sends.
//!
//! A preview shows what the one asking may see: signed out (as previewers are), nothing of a
//! suspended person; signed in, nothing across a block either. What may not be seen, or does
//! not exist, gets the page without tags, as any other path.

use posts::{Payload, Post};
use values::{PlaylistId, PostId, UserId};

use crate::state::AppState;

/// The page a path of the web app (below `/app`) names, if it has a preview.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Previewed {
    Post(PostId),
    Person(UserId),
    Playlist(PlaylistId),
}

impl Previewed {
    /// `/post/{id}`, `/profile/{id}`, `/user/{id}` or `/playlist/{id}` (the web app's routes for
    /// them).
    pub fn of_path(path: &str) -> Option<Previewed> {
        let mut parts = path.trim_matches('/').split('/');
        let (kind, id, rest) = (parts.next()?, parts.next()?, parts.next());
        if rest.is_some() {
            return None;
        }
        match kind {
            "post" => id.parse().ok().map(Previewed::Post),
            "profile" | "user" => id.parse().ok().map(Previewed::Person),
            "playlist" => id.parse().ok().map(Previewed::Playlist),
            _ => None,
        }
    }
}

/// What a card shows.
#[derive(Debug, Default, PartialEq, Eq)]
struct Card {
    kind: &'static str,
    title: String,
    description: String,
    url: String,
    image: Option<String>,
    audio: Option<(String, &'static str)>,
    /// A track post's player for other sites (`crate::embed`): its address, the oEmbed answer's
    /// and the frame's height.
    player: Option<Player>,
}

#[derive(Debug, PartialEq, Eq)]
struct Player {
    embed: String,
    oembed: String,
    height: u32,
}

/// The tags for `page` as `viewer` may see it; none when they may not.
pub async fn tags(state: &AppState, page: Previewed, viewer: Option<UserId>) -> Option<String> {
    let card = match page {
        Previewed::Post(id) => post_card(state, &state.posts.post(id, viewer).await.ok()?),
        Previewed::Person(id) => {
            let person = state.profiles.profile(id).await.ok()?;
            if is_hidden(state, id, viewer).await {
                return None;
            }
            Card {
                kind: "profile",
                title: format!("{} (@{})", person.name, person.login),
                description: person.description.unwrap_or_else(|| format!("{} is on SelfSound.", person.name)),
                url: format!("{}/profile/{}", state.config.frontend_url, person.id),
                image: Some(state.avatar_url(person.avatar_url.as_deref())),
                audio: None,
                player: None,
            }
        }
        Previewed::Playlist(id) => playlist_card(state, &state.posts.playlist(id, viewer).await.ok()?),
    };
    Some(card.html())
}

/// Whether `person` is hidden from `viewer` (`social_graph::visibility`, the one rule).
async fn is_hidden(state: &AppState, person: UserId, viewer: Option<UserId>) -> bool {
    let hidden = state
        .db
        .read(move |conn| Ok::<_, db::DbError>(social_graph::visibility::is_hidden(conn, person, viewer)?))
        .await;
    hidden.unwrap_or(true)
}

fn post_card(state: &AppState, p: &Post) -> Card {
    let by = &p.author.name;
    let url = |key: &str| state.media_url(&storage::url_of(key));
    let caption = p.caption.clone().filter(|c| !c.trim().is_empty());
    let mut card = Card {
        kind: "article",
        url: format!("{}/post/{}", state.config.frontend_url, p.id),
        image: p.author.avatar_url.as_deref().map(|a| state.avatar_url(Some(a))),
        ..Card::default()
    };
    match &*p.payload {
        Payload::Audio(tracks) => {
            let first = tracks.first();
            card.kind = "music.song";
            card.title = first.map_or_else(|| format!("A track by {by}"), |t| format!("{} · {}", t.title, t.artist));
            card.description = caption.unwrap_or_else(|| match tracks.len() {
                1 => format!("A track shared by {by} on SelfSound."),
                n => format!("{n} tracks shared by {by} on SelfSound."),
            });
            if let Some(cover) = first.and_then(|t| t.cover_key.as_deref()) {
                card.image = Some(url(cover));
            }
            card.audio = first.map(|t| (url(&t.file_key), media_validation::content_type_for(&t.file_key)));
            if first.is_some() {
                card.player = Some(Player {
                    embed: crate::embed::embed_url(state, p.id),
                    oembed: crate::embed::oembed_url(state, &card.url),
                    height: crate::embed::frame_height(tracks.len()),
                });
            }
        }
        Payload::Media(files) => {
            let first = files.first();
            let video = first.is_some_and(|f| matches!(f.media_type, posts::MediaType::Video));
            card.title = caption.clone().map_or_else(
                || if video { format!("A video by {by}") } else { format!("A photo by {by}") },
                |c| shorten(&c, 70),
            );
            card.description = caption.unwrap_or_else(|| format!("Shared by {by} on SelfSound."));
            let picture = first.and_then(|f| {
                if video { f.poster_key.as_deref() } else { Some(f.display_key.as_deref().unwrap_or(&f.file_key)) }
            });
            if let Some(key) = picture {
                card.image = Some(url(key));
            }
        }
        Payload::Scores(scores) => {
            let first = scores.first();
            card.title =
                first.map_or_else(|| format!("Sheet music by {by}"), |s| format!("{} · {}", s.title, s.composer));
            card.description = caption.unwrap_or_else(|| format!("Sheet music shared by {by} on SelfSound."));
        }
        Payload::Lyrics(l) => {
            card.title = format!("{} · {}", l.title, l.artist);
            let first_lines =
                l.parts.first().map(|part| shorten(&part.lyrics.lines().take(2).collect::<Vec<_>>().join(" / "), 160));
            card.description =
                caption.or(first_lines).unwrap_or_else(|| format!("Lyrics shared by {by} on SelfSound."));
        }
    }
    card
}

/// A playlist as its page shows it to the one asking (a private one has no preview: only its
/// owner may see it, and previewers are signed out): its title, owner and tracks, the first
/// track's cover and audio.
fn playlist_card(state: &AppState, page: &posts::playlists::PlaylistPage) -> Card {
    let p = &page.playlist;
    let url = |key: &str| state.media_url(&storage::url_of(key));
    let first = page.entries.iter().find_map(|e| match e.post.as_ref().map(|p| &*p.payload) {
        Some(Payload::Audio(tracks)) => tracks.get(usize::try_from(e.track).ok()?),
        _ => None,
    });
    let shown = page.entries.iter().filter(|e| e.post.is_some()).count();
    let tracks = if shown == 1 { "1 track".to_owned() } else { format!("{shown} tracks") };
    Card {
        kind: "music.playlist",
        title: format!("{} · a playlist by {}", p.title, page.owner.name),
        description: p
            .description
            .clone()
            .map_or_else(|| format!("{tracks} gathered by {} on SelfSound.", page.owner.name), |d| shorten(&d, 160)),
        url: format!("{}/playlist/{}", state.config.frontend_url, p.id),
        image: first
            .and_then(|t| t.cover_key.as_deref())
            .map(url)
            .or_else(|| Some(state.avatar_url(page.owner.avatar_url.as_deref()))),
        audio: first.map(|t| (url(&t.file_key), media_validation::content_type_for(&t.file_key))),
        player: None,
    }
}

/// The type a track's file is served as, by its extension (the stored files are checked audio).
/// `text` cut to at most `max` characters at a word, with an ellipsis when cut.
fn shorten(text: &str, max: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= max {
        return text;
    }
    let cut: String = text.chars().take(max - 1).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head).trim_end();
    format!("{cut}…")
}

pub(crate) use values::escape_html as escape;

impl Card {
    fn twitter_card(&self) -> &'static str {
        match (&self.player, &self.image) {
            (Some(_), _) => "player",
            (None, Some(_)) => "summary_large_image",
            (None, None) => "summary",
        }
    }

    /// The `<meta>` tags, and a `<title>` that names the page.
    fn html(&self) -> String {
        let mut tags = vec![
            ("property", "og:site_name", "SelfSound".to_owned()),
            ("property", "og:type", self.kind.to_owned()),
            ("property", "og:title", self.title.clone()),
            ("property", "og:description", self.description.clone()),
            ("property", "og:url", self.url.clone()),
            ("name", "twitter:card", self.twitter_card().to_owned()),
            ("name", "twitter:title", self.title.clone()),
            ("name", "twitter:description", self.description.clone()),
            ("name", "description", self.description.clone()),
        ];
        if let Some(image) = &self.image {
            tags.push(("property", "og:image", image.clone()));
            tags.push(("name", "twitter:image", image.clone()));
        }
        if let Some((audio, kind)) = &self.audio {
            tags.push(("property", "og:audio", audio.clone()));
            tags.push(("property", "og:audio:type", (*kind).to_owned()));
        }
        if let Some(player) = &self.player {
            // Chat apps that support them play the track in place (Twitter's player card).
            tags.push(("name", "twitter:player", player.embed.clone()));
            tags.push(("name", "twitter:player:width", crate::embed::FRAME_WIDTH.to_string()));
            tags.push(("name", "twitter:player:height", player.height.to_string()));
        }
        let mut html = format!("<title>{} · SelfSound</title>\n", escape(&self.title));
        if let Some(player) = &self.player {
            html.push_str(&format!(
                "    <link rel=\"alternate\" type=\"application/json+oembed\" href=\"{}\" title=\"{}\" />\n",
                escape(&player.oembed),
                escape(&self.title)
            ));
        }
        for (attribute, key, value) in tags {
            html.push_str(&format!("    <meta {attribute}=\"{key}\" content=\"{}\" />\n", escape(&value)));
        }
        html
    }
}

/// `index` with `tags` in its head, in place of its own title and description.
pub fn into_page(index: &str, tags: &str) -> String {
    let without = drop_element(index, "<title>", "</title>");
    let without = drop_element(&without, "<meta name=\"description\"", ">");
    match without.find("</head>") {
        Some(at) => format!("{}{tags}  {}", &without[..at], &without[at..]),
        None => without,
    }
}

/// `html` without the first element from `start` to the next `end`.
fn drop_element(html: &str, start: &str, end: &str) -> String {
    let Some(from) = html.find(start) else { return html.to_owned() };
    let Some(length) = html[from..].find(end) else { return html.to_owned() };
    let to = from + length + end.len();
    let to = if html[to..].starts_with('\n') { to + 1 } else { to };
    format!("{}{}", &html[..from], html[to..].trim_start_matches([' ']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_post_a_persons_or_a_playlists_page_has_a_preview() {
        let post = PostId::generate();
        let person = UserId::generate();
        let playlist = PlaylistId::generate();
        assert_eq!(Previewed::of_path(&format!("/playlist/{playlist}")), Some(Previewed::Playlist(playlist)));
        assert_eq!(Previewed::of_path(&format!("/post/{post}")), Some(Previewed::Post(post)));
        assert_eq!(Previewed::of_path(&format!("/profile/{person}")), Some(Previewed::Person(person)));
        assert_eq!(Previewed::of_path(&format!("/user/{person}/")), Some(Previewed::Person(person)));
        for other in ["/home", "/post/abc", "/profile", "/settings", "/playlist/x", &format!("/post/{post}/x")] {
            assert_eq!(Previewed::of_path(other), None, "{other}");
        }
    }

    #[test]
    fn tags_are_escaped_and_go_in_the_head_in_place_of_the_title() {
        let card = Card {
            kind: "article",
            title: "<script>alert(1)</script> & \"quotes\"".into(),
            description: "it's".into(),
            url: "https://example.com/app/post/1".into(),
            image: None,
            audio: None,
            player: None,
        };
        let index = "<html>\n  <head>\n    <meta name=\"description\" content=\"SelfSound\" />\n    <title>SelfSound</title>\n  </head>\n</html>";
        let page = into_page(index, &card.html());
        assert!(!page.contains("<script>"), "{page}");
        assert!(page.contains("content=\"&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;\""), "{page}");
        assert!(page.contains("content=\"it&#39;s\""));
        assert_eq!(page.matches("<title>").count(), 1);
        assert_eq!(page.matches("name=\"description\"").count(), 1);
        assert!(page.contains("twitter:card\" content=\"summary\""));
        assert!(page.find("og:title").unwrap_or(usize::MAX) < page.find("</head>").unwrap_or(0));
    }

    #[test]
    fn long_text_is_cut_at_a_word() {
        assert_eq!(shorten("one two three", 20), "one two three");
        assert_eq!(shorten("one two three four", 12), "one two…");
        assert_eq!(shorten("  spaced\n\nout  ", 20), "spaced out");
    }
}
