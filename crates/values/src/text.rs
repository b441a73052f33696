//! Text a person types that must follow a rule, parsed into types that cannot hold a bad value.
//! The messages are the spec's (§5, §8) where it gives one; clients show them as they are.

pub const NAME_MAX: usize = 15;
pub const EMAIL_MAX: usize = 254;
pub const LOGIN_MIN: usize = 3;
pub const LOGIN_MAX: usize = 20;
pub const BIOGRAPHY_MAX: usize = 130;

/// Why a piece of text was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum InvalidValue {
    #[error("Name cannot be empty")]
    NameEmpty,
    #[error("Name must be 15 characters or less")]
    NameTooLong,
    #[error("Name cannot contain control characters")]
    NameControlCharacters,
    /// Text-direction overrides and invisible characters: they make a name read as another
    /// (`\u{202E}` turns "Ada" around; a zero-width space makes a second "Ada").
    #[error("Name cannot contain invisible or text-direction characters")]
    NameInvisibleCharacters,
    #[error("Email is required")]
    EmailMissing,
    #[error("Please enter a valid email address")]
    EmailMalformed,
    #[error("Login cannot be empty")]
    LoginEmpty,
    #[error("Login must be at least 3 characters")]
    LoginTooShort,
    #[error("Login must be 20 characters or less")]
    LoginTooLong,
    #[error("Login can only contain letters, numbers, underscores and hyphens")]
    LoginCharacters,
    /// A login that would pass for the site's own voice (`admin`, `support`, `selfsound`...).
    #[error("This login is reserved. Please choose another one.")]
    LoginReserved,
    #[error("Biography must be 130 characters or less")]
    BiographyTooLong,
    #[error("Biography cannot contain NUL characters")]
    BiographyNul,
    #[error("Biography cannot contain control or text-direction characters")]
    BiographyHiddenCharacters,
}

impl crate::DomainError for InvalidValue {
    fn kind(&self) -> crate::ErrorKind {
        crate::ErrorKind::Invalid
    }
}

/// Characters that change how the text around them reads without showing themselves:
/// bidirectional embeddings, overrides, isolates and marks (U+202A–U+202E, U+2066–U+2069,
/// U+200E, U+200F, U+061C), zero-width characters (U+200B–U+200D, U+2060, U+FEFF) and the
/// other invisible formatting characters people use to pass one name off as another (the
/// soft hyphen, U+2061–U+206F, Hangul fillers, tag characters).
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{E0000}'..='\u{E007F}'
    )
}

/// The first character of `text` that no text written for others to read may hold (issue 29):
/// a control character other than a line break or a tab (BEL, ESC and their kind reach the
/// terminals that read logs and exports), or one that turns the direction of the text around it
/// (embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069: U+202E makes "txt.exe" read
/// "exe.txt"). Names refuse more: every invisible character ([`Name`]). NUL is such a control
/// character; callers that name it apart check it first.
pub fn hidden_character(text: &str) -> Option<char> {
    text.chars().find(|c| !matches!(c, '\n' | '\r' | '\t') && hides(*c))
}

/// A control character, or one that turns the direction of the text around it (see
/// [`hidden_character`]).
pub fn hides(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A pictograph of an emoji sequence (a zero-width joiner between two of them makes one emoji:
/// 👩‍💻, 🏳️‍🌈), or what may follow one within it (variation selector 16, skin tones).
fn emoji_part(c: char) -> bool {
    matches!(c, '\u{2600}'..='\u{27BF}' | '\u{1F000}'..='\u{1FAFF}' | '\u{FE0F}' | '\u{2B50}' | '\u{2B55}')
}

/// Whether `name` holds an invisible or text-direction character, a zero-width joiner inside an
/// emoji sequence excepted.
fn has_invisible(name: &str) -> bool {
    let chars: Vec<char> = name.chars().collect();
    chars.iter().enumerate().any(|(i, c)| {
        invisible(*c)
            && !(*c == '\u{200D}'
                && i > 0
                && chars.get(i - 1).copied().is_some_and(emoji_part)
                && chars.get(i + 1).copied().is_some_and(emoji_part))
    })
}

/// A display name: trimmed, 1 to 15 characters, no control characters (NUL included), no
/// invisible or text-direction characters (but for the joiner inside an emoji).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name(String);

impl Name {
    pub fn parse(raw: &str) -> Result<Name, InvalidValue> {
        let name = raw.trim();
        if name.is_empty() {
            return Err(InvalidValue::NameEmpty);
        }
        if name.chars().count() > NAME_MAX {
            return Err(InvalidValue::NameTooLong);
        }
        if name.chars().any(char::is_control) {
            return Err(InvalidValue::NameControlCharacters);
        }
        if has_invisible(name) {
            return Err(InvalidValue::NameInvisibleCharacters);
        }
        Ok(Name(name.to_owned()))
    }

    /// A name made from outside data (a Google profile), cut to fit instead of refused;
    /// `None` when nothing usable is left.
    pub fn fitted(raw: &str) -> Option<Name> {
        let cut: String = raw.trim().chars().filter(|c| !c.is_control() && !invisible(*c)).take(NAME_MAX).collect();
        Name::parse(&cut).ok()
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

/// An e-mail address: trimmed, lower-cased, of a valid shape, at most 254 characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Email, InvalidValue> {
        let email = raw.trim().to_lowercase();
        if email.is_empty() {
            return Err(InvalidValue::EmailMissing);
        }
        if email.len() > EMAIL_MAX
            || email.chars().any(char::is_control)
            || !validator::ValidateEmail::validate_email(&email)
        {
            return Err(InvalidValue::EmailMalformed);
        }
        Ok(Email(email))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The part before the `@`, used to propose a login.
    pub fn local_part(&self) -> &str {
        self.0.split('@').next().unwrap_or_default()
    }
}

/// Logins that would pass for the site's own voice or for a role, refused whatever the case and
/// with or without `_` and `-` in them (`Ad_Min` is `admin`); and any login containing
/// [`RESERVED_LOGIN_PART`]. The web app checks a copy before it saves
/// (frontend/src/features/profiles/reserved-logins.ts; a test below keeps the two the same).
const RESERVED_LOGINS: &[&str] = &[
    "abuse",
    "admin",
    "admins",
    "administrator",
    "administrators",
    "all",
    "anonymous",
    "api",
    "contact",
    "everyone",
    "help",
    "helpdesk",
    "here",
    "hostmaster",
    "info",
    "mod",
    "moderator",
    "moderators",
    "mods",
    "noreply",
    "null",
    "official",
    "owner",
    "postmaster",
    "root",
    "security",
    "staff",
    "superuser",
    "support",
    "sysadmin",
    "system",
    "team",
    "undefined",
    "webmaster",
];

/// No login may contain it, however written.
const RESERVED_LOGIN_PART: &str = "selfsound";

fn reserved(login: &str) -> bool {
    let bare: String = login.chars().filter(|c| *c != '_' && *c != '-').collect::<String>().to_ascii_lowercase();
    bare.contains(RESERVED_LOGIN_PART) || RESERVED_LOGINS.contains(&bare.as_str())
}

/// A login (the @handle): `@`, spaces and dots stripped, lower-cased, 3 to 20 of letters,
/// digits, `_` and `-` (what @mentions can match), and not one of the reserved logins.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Login(String);

impl Login {
    pub fn parse(raw: &str) -> Result<Login, InvalidValue> {
        let login = Login::normalize(raw);
        if login.is_empty() {
            return Err(InvalidValue::LoginEmpty);
        }
        if login.chars().count() > LOGIN_MAX {
            return Err(InvalidValue::LoginTooLong);
        }
        if !login.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err(InvalidValue::LoginCharacters);
        }
        if login.chars().count() < LOGIN_MIN {
            return Err(InvalidValue::LoginTooShort);
        }
        if reserved(&login) {
            return Err(InvalidValue::LoginReserved);
        }
        Ok(Login(login))
    }

    /// What `parse` would make of `raw` before judging it (`@`, spaces and dots stripped,
    /// lower-cased): lets a caller see that a person sends back the login they already have,
    /// which stays theirs even if it predates a rule.
    pub fn normalize(raw: &str) -> String {
        raw.chars().filter(|c| *c != '@' && *c != '.' && !c.is_whitespace()).collect::<String>().to_lowercase()
    }

    /// A login proposed from an e-mail's local part or a name: lower-case letters, digits and
    /// underscores, at most 15 characters (room for a numeric suffix within the 20 allowed).
    /// One shorter than 3 characters or reserved gets `_user` after it (`al_user`,
    /// `admin_user`; "selfsound" is left out), so a proposal is always a login `parse` accepts.
    pub fn base_from(seed: &str) -> Login {
        let base: String = seed
            .chars()
            .filter_map(|c| {
                let c = c.to_ascii_lowercase();
                if c.is_ascii_alphanumeric() || c == '_' {
                    Some(c)
                } else if c == '-' || c == '.' || c == '+' {
                    Some('_')
                } else {
                    None
                }
            })
            .take(15)
            .collect();
        let mut base = base;
        while base.contains(RESERVED_LOGIN_PART) {
            base = base.replace(RESERVED_LOGIN_PART, "");
        }
        let base = base.trim_matches('_');
        if base.is_empty() {
            Login("user".to_owned())
        } else if base.len() < LOGIN_MIN || reserved(base) {
            Login(format!("{base}_user"))
        } else {
            Login(base.to_owned())
        }
    }

    /// This login with a number after it (`ada4521`), still within the limit.
    pub fn with_suffix(&self, n: u32) -> Login {
        let digits = n.to_string();
        let keep = LOGIN_MAX.saturating_sub(digits.len());
        Login(format!("{}{digits}", self.0.chars().take(keep).collect::<String>()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

/// A biography: trimmed, at most 130 characters, never empty (empty text means "none").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Biography(String);

impl Biography {
    /// `None` for blank text: a cleared biography.
    pub fn parse(raw: &str) -> Result<Option<Biography>, InvalidValue> {
        let bio = raw.trim();
        if bio.chars().count() > BIOGRAPHY_MAX {
            return Err(InvalidValue::BiographyTooLong);
        }
        // PostgreSQL cannot store it (a 500 there), and no person types it.
        if bio.contains('\0') {
            return Err(InvalidValue::BiographyNul);
        }
        if hidden_character(bio).is_some() {
            return Err(InvalidValue::BiographyHiddenCharacters);
        }
        Ok((!bio.is_empty()).then(|| Biography(bio.to_owned())))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

/// `text` safe as HTML element text or inside a double- or single-quoted attribute: nothing in
/// it is markup (link previews, e-mails, the archive's index page).
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detail<T: std::fmt::Debug>(r: Result<T, InvalidValue>) -> String {
        r.err().map(|e| e.to_string()).unwrap_or_default()
    }

    #[test]
    fn name_is_trimmed_and_kept() {
        assert_eq!(Name::parse("  Ada  ").map(Name::into_inner).ok(), Some("Ada".into()));
    }

    #[test]
    fn empty_name_is_refused_with_the_spec_detail() {
        assert_eq!(detail(Name::parse("")), "Name cannot be empty");
        assert_eq!(detail(Name::parse("   ")), "Name cannot be empty");
    }

    #[test]
    fn name_of_15_characters_passes_and_16_does_not() {
        assert!(Name::parse("abcdefghijklmno").is_ok());
        assert!(Name::parse("Åßçđéƒĝħîĵķłḿñø").is_ok(), "characters, not bytes, are counted");
        assert_eq!(detail(Name::parse("abcdefghijklmnop")), "Name must be 15 characters or less");
    }

    #[test]
    fn outside_names_are_cut_to_fit() {
        assert_eq!(
            Name::fitted("Gina Google With A Long Name").map(Name::into_inner).as_deref(),
            Some("Gina Google Wit")
        );
        assert_eq!(Name::fitted("  \u{7}  "), None);
    }

    #[test]
    fn email_is_lower_cased_and_trimmed() {
        assert_eq!(Email::parse(" Ada@Example.COM ").ok().map(|e| e.0), Some("ada@example.com".into()));
    }

    #[test]
    fn malformed_emails_are_refused() {
        for bad in ["ada", "ada@", "@example.com", "a b@example.com", "ada@@example.com"] {
            assert_eq!(detail(Email::parse(bad)), "Please enter a valid email address", "{bad}");
        }
        assert_eq!(detail(Email::parse("")), "Email is required");
        let huge = format!("{}@example.com", "a".repeat(300));
        assert_eq!(detail(Email::parse(&huge)), "Please enter a valid email address");
    }

    #[test]
    fn logins_lose_at_signs_spaces_and_dots() {
        assert_eq!(Login::parse("@DJ. Max").ok().map(Login::into_inner), Some("djmax".into()));
        assert_eq!(Login::parse(" a.b.c ").ok().map(Login::into_inner), Some("abc".into()));
    }

    #[test]
    fn login_limits() {
        assert!(Login::parse(&"a".repeat(20)).is_ok());
        assert_eq!(detail(Login::parse(&"a".repeat(21))), "Login must be 20 characters or less");
        assert_eq!(detail(Login::parse("@. ")), "Login cannot be empty");
        assert!(detail(Login::parse("a/b")).starts_with("Login can only contain"));
        assert!(detail(Login::parse("<script>")).starts_with("Login can only contain"));
    }

    #[test]
    fn proposed_logins_keep_safe_characters() {
        assert_eq!(Login::base_from("Ada.Lovelace+music").as_str(), "ada_lovelace_mu");
        assert_eq!(Login::base_from("...").as_str(), "user");
        assert_eq!(Login::base_from("Zoë").as_str(), "zo_user");
        assert_eq!(Login::base_from("ada").with_suffix(4521).as_str(), "ada4521");
        assert!(Login::parse(Login::base_from(&"x".repeat(40)).with_suffix(99_999).as_str()).is_ok());
    }

    #[test]
    fn names_refuse_direction_overrides_and_invisible_characters() {
        for bad in [
            "\u{202E}adA",
            "Ada\u{202A}",
            "A\u{202B}da",
            "A\u{202C}da",
            "A\u{202D}da",
            "A\u{2066}da",
            "A\u{2067}da",
            "A\u{2068}da",
            "A\u{2069}da",
            "A\u{200B}da",
            "A\u{200C}da",
            "A\u{200D}da",
            "A\u{2060}da",
            "A\u{FEFF}da",
            "A\u{200F}da",
            "A\u{3164}",
        ] {
            assert_eq!(
                detail(Name::parse(bad)),
                "Name cannot contain invisible or text-direction characters",
                "{bad:?}"
            );
        }
        assert_eq!(detail(Name::parse("\u{200B}")), "Name cannot contain invisible or text-direction characters");
        assert!(Name::parse("Zoë ♪ 音楽 🎸").is_ok(), "letters and symbols of any script pass");
        assert!(Name::parse("Ada 👩\u{200D}💻").is_ok(), "a joiner inside an emoji passes");
        assert!(Name::parse("🏳\u{FE0F}\u{200D}🌈 Ray").is_ok(), "after a variation selector too");
        assert!(Name::parse("👩\u{200D}da").is_err(), "but not between an emoji and a letter");
        assert_eq!(Name::fitted("\u{202E}Gina\u{200B}").map(Name::into_inner).as_deref(), Some("Gina"));
    }

    #[test]
    fn a_nul_is_refused_in_every_text() {
        assert_eq!(detail(Name::parse("A\0da")), "Name cannot contain control characters");
        assert_eq!(detail(Email::parse("ada\0@example.com")), "Please enter a valid email address");
        assert_eq!(detail(Email::parse("ada@example.com\0")), "Please enter a valid email address");
        assert!(detail(Login::parse("ada\0ada")).starts_with("Login can only contain"));
        assert_eq!(detail(Biography::parse("Hello\0there")), "Biography cannot contain NUL characters");
    }

    #[test]
    fn logins_have_at_least_three_characters() {
        assert_eq!(detail(Login::parse("ab")), "Login must be at least 3 characters");
        assert_eq!(detail(Login::parse("@a.b")), "Login must be at least 3 characters");
        assert!(Login::parse("abc").is_ok());
    }

    #[test]
    fn reserved_logins_are_refused_in_any_case_and_spelling() {
        for bad in [
            "admin",
            "ADMIN",
            "Administrator",
            "root",
            "support",
            "help",
            "moderator",
            "mod",
            "staff",
            "system",
            "selfsound",
            "security",
            "official",
            "abuse",
            "postmaster",
            "webmaster",
            "info",
            "contact",
            "team",
            "owner",
            "null",
            "undefined",
            "anonymous",
            "ad_min",
            "Ad-Min",
            "@Root",
            "self_sound",
            "selfsound_team",
            "the-selfsound",
        ] {
            assert_eq!(detail(Login::parse(bad)), "This login is reserved. Please choose another one.", "{bad}");
        }
        for fine in ["admiral", "rooted", "helpful", "moderato", "systems_band", "info_dj", "stafford"] {
            assert!(Login::parse(fine).is_ok(), "{fine}");
        }
    }

    /// The web app checks reserved logins before a save with its own copy of the list, the part
    /// and the message (it cannot import Rust): they must be the server's.
    #[test]
    fn the_web_apps_reserved_logins_are_the_servers() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../frontend/src/features/profiles/reserved-logins.ts");
        let ts = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let quoted = |line: &str| line.trim().trim_end_matches([',', ';']).trim_matches('\'').to_owned();
        let list: Vec<String> = ts
            .split_once("export const RESERVED_LOGINS")
            .and_then(|(_, rest)| rest.split_once("= [\n"))
            .and_then(|(_, rest)| rest.split_once("\n];"))
            .map(|(list, _)| list.lines().map(quoted).collect())
            .unwrap_or_else(|| panic!("{path}: no `export const RESERVED_LOGINS ... = [` list, one login a line"));
        assert_eq!(list, RESERVED_LOGINS, "{path} must list the server's RESERVED_LOGINS, in the same order");
        let constant = |name: &str| {
            ts.lines()
                .find_map(|l| l.strip_prefix(&format!("export const {name} = ")))
                .map(quoted)
                .unwrap_or_else(|| panic!("{path}: no `export const {name} = '...';`"))
        };
        assert_eq!(constant("RESERVED_LOGIN_PART"), RESERVED_LOGIN_PART);
        assert_eq!(constant("RESERVED_LOGIN_MESSAGE"), InvalidValue::LoginReserved.to_string());
    }

    #[test]
    fn proposed_logins_are_always_valid() {
        assert_eq!(Login::base_from("al").as_str(), "al_user");
        assert_eq!(Login::base_from("x").as_str(), "x_user");
        assert_eq!(Login::base_from("Admin").as_str(), "admin_user");
        assert_eq!(Login::base_from("support").as_str(), "support_user");
        assert_eq!(Login::base_from("selfsound").as_str(), "user");
        assert_eq!(Login::base_from("selfsound.fan").as_str(), "fan");
        assert_eq!(Login::base_from("ad-min").as_str(), "ad_min_user");
        for seed in ["a", "ab", "root", "mod", "no-reply", "x.y", "administrator", "selfselfsoundsound", "Zoë", "_-_"]
        {
            let proposed = Login::base_from(seed);
            assert!(Login::parse(proposed.as_str()).is_ok(), "{seed} → {}", proposed.as_str());
            assert!(Login::parse(proposed.with_suffix(99_999).as_str()).is_ok(), "{seed} with a suffix");
        }
    }

    #[test]
    fn biography_limits() {
        assert_eq!(Biography::parse(&"b".repeat(130)).ok().flatten().map(|b| b.0.len()), Some(130));
        assert_eq!(detail(Biography::parse(&"b".repeat(131))), "Biography must be 130 characters or less");
        assert_eq!(Biography::parse("   "), Ok(None));
    }
}
