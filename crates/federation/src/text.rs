//! What other servers write, as our plain text: a reply's HTML becomes a comment's words. No
//! markup of theirs is kept (so none can reach a page); line breaks and paragraphs are, links
//! are kept as their addresses, and each mention reads as its handle (`@ana` for one of ours,
//! `@bob@their.server` for anyone else, which is not taken for one of ours).

/// `html` as text. `mention` says what a link (its address, its text) reads as, when it is
/// a mention.
pub(crate) fn plain_text(html: &str, mention: &dyn Fn(&str, &str) -> Option<String>) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    let mut link: Option<(String, usize)> = None;
    while let Some(at) = rest.find(['<', '&']) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if rest.starts_with('&') {
            let end = rest.char_indices().take(12).find(|(_, c)| *c == ';').map(|(i, _)| i);
            match end.and_then(|e| entity(&rest[1..e]).map(|c| (c, e))) {
                Some((c, e)) => {
                    out.push(c);
                    rest = &rest[e + 1..];
                }
                None => {
                    out.push('&');
                    rest = &rest[1..];
                }
            }
            continue;
        }
        let Some(end) = rest.find('>') else {
            rest = "";
            break;
        };
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        match (name.as_str(), closing) {
            ("br", _) => out.push('\n'),
            ("p" | "div" | "blockquote" | "li", true) => out.push_str("\n\n"),
            ("a", false) => link = Some((attribute(tag, "href").unwrap_or_default(), out.len())),
            ("a", true) => {
                if let Some((href, start)) = link.take() {
                    let shown = out[start..].trim().to_owned();
                    if let Some(handle) = mention(&href, &shown) {
                        out.truncate(start);
                        out.push_str(&handle);
                    } else if !shown.starts_with('#')
                        && (href.starts_with("https://") || href.starts_with("http://"))
                        && shown != href
                        && !href.ends_with(shown.trim_start_matches("https://").trim_start_matches("http://"))
                    {
                        out.push_str(&format!(" ({href})"));
                    }
                }
            }
            _ => {}
        }
    }
    out.push_str(rest);
    tidy(&out)
}

/// Lines without trailing spaces, at most one blank line between paragraphs, nothing around.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = 0;
    for line in text.lines().map(str::trim_end) {
        if line.trim().is_empty() {
            blank += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        out.push_str(line);
    }
    out
}

/// An attribute's value in a tag's text.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    let mut from = 0;
    while let Some(found) = lower[from..].find(name) {
        let at = from + found;
        let before_ok = at == 0 || lower.as_bytes()[at - 1].is_ascii_whitespace();
        let after = lower[at + name.len()..].trim_start();
        if before_ok && after.starts_with('=') {
            let value = tag[tag.len() - after.len() + 1..].trim_start();
            let quote = value.chars().next()?;
            let raw = if quote == '"' || quote == '\'' {
                value[1..].split(quote).next()?
            } else {
                value.split(|c: char| c.is_whitespace()).next()?
            };
            return Some(plain_text(raw, &|_, _| None));
        }
        from = at + name.len();
    }
    None
}

fn entity(name: &str) -> Option<char> {
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        _ => {
            let code = match name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => name.strip_prefix('#')?.parse().ok()?,
            };
            char::from_u32(code).filter(|c| !c.is_control() || *c == '\n')?
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(html: &str) -> String {
        plain_text(html, &|href, _| match href {
            "https://music.example/ap/users/1" => Some("@ana".into()),
            "https://elsewhere.example/@bob" => Some("@bob@elsewhere.example".into()),
            _ => None,
        })
    }

    #[test]
    fn replies_read_as_plain_text() {
        // Mastodon's reply: a mention of ours, one of theirs, a tag, a shortened link.
        let html = "<p><span class=\"h-card\"><a href=\"https://music.example/ap/users/1\" class=\"u-url mention\">@<span>ana</span></a></span> \
            <span class=\"h-card\"><a href=\"https://elsewhere.example/@bob\" class=\"u-url mention\">@<span>bob</span></a></span> \
            love it &amp; the <a href=\"https://elsewhere.example/tags/jazz\" class=\"mention hashtag\" rel=\"tag\">#<span>jazz</span></a></p>\
            <p>see <a href=\"https://example.com/a/long/path\" rel=\"nofollow\"><span class=\"invisible\">https://</span><span class=\"ellipsis\">example.com/a/lo</span><span class=\"invisible\">ng/path</span></a><br>bye</p>";
        assert_eq!(
            text(html),
            "@ana @bob@elsewhere.example love it & the #jazz\n\nsee https://example.com/a/long/path\nbye"
        );
        assert_eq!(text("<a href='https://x.example/p'>my page</a>"), "my page (https://x.example/p)");
        assert_eq!(
            text("<script>alert(1)</script><b>bold</b> &lt;3 &#233;&#x41; &bogus;"),
            "alert(1)bold <3 éA &bogus;"
        );
        assert_eq!(text("unclosed <a href=\"x"), "unclosed");
        assert_eq!(text("<p></p><p>  </p><p>one</p>\n\n\n<p>two</p>"), "one\n\ntwo");
        assert_eq!(text("&#0; &#xD800; &#99999999;"), "&#0; &#xD800; &#99999999;");
    }
}
