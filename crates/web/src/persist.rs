//! Autosave, share links and page parameters: the replayable log (seed + every command + every clock
//! advance) as JSON for `localStorage`, and deflated + base64url for the URL hash. Decoding never
//! panics: hostile or corrupted input gives an error message, and the caller falls back to the
//! default cluster.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{json, Value};

/// The `localStorage` key of the autosave.
pub const STORAGE_KEY: &str = "dsplay:state";

/// The `localStorage` key of the session a link replaced (until the user restores or replaces it).
pub const PREVIOUS_KEY: &str = "dsplay:previous";

/// The hash parameter of a share link (`#s=…`).
pub const HASH_KEY: &str = "s";

/// The largest decompressed share state accepted (1 MiB).
pub const MAX_DECOMPRESSED: usize = 1 << 20;

/// The longest log a share link may carry (its replay must stay quick). The autosave, written by
/// this app only, has no entry limit: what the writer stores, the reader restores.
pub const MAX_ENTRIES: usize = 20_000;

/// URLs longer than this may be cut by some browsers or servers.
pub const LONG_URL: usize = 8 * 1024;

/// What is saved and shared: enough to replay the session exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// The seed of the first session.
    pub seed: u64,
    /// Every command run and every clock advance (`sim advance Nms`), in order.
    pub log: Vec<String>,
    /// The clock was running.
    pub playing: bool,
}

impl Saved {
    /// The JSON text (for `localStorage`).
    pub fn to_json(&self) -> String {
        json!({ "v": 1, "seed": self.seed, "playing": self.playing, "log": self.log }).to_string()
    }

    /// The same session with consecutive clock advances merged into one (replaying `a` then `b`
    /// milliseconds is replaying `a + b`): what the autosave and share links store.
    pub fn compacted(&self) -> Saved {
        let mut log: Vec<String> = Vec::with_capacity(self.log.len());
        let mut pending: Option<u64> = None;
        for entry in &self.log {
            match parse_advance_entry(entry) {
                Some(ms) => pending = Some(pending.unwrap_or(0).saturating_add(ms)),
                None => {
                    log.extend(pending.take().map(advance_entry));
                    log.push(entry.clone());
                }
            }
        }
        log.extend(pending.map(advance_entry));
        Saved {
            seed: self.seed,
            log,
            playing: self.playing,
        }
    }

    /// Parses [`Saved::to_json`]'s text; an error says what is wrong.
    pub fn from_json(text: &str) -> Result<Saved, String> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| format!("not valid JSON ({e})"))?;
        if value.get("v").and_then(Value::as_u64) != Some(1) {
            return Err("unknown format version".into());
        }
        let seed = value.get("seed").and_then(Value::as_u64).ok_or("no seed")?;
        let playing = value
            .get("playing")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let entries = value
            .get("log")
            .and_then(Value::as_array)
            .ok_or("no command log")?;
        let log = entries
            .iter()
            .map(|e| {
                e.as_str()
                    .map(str::to_string)
                    .ok_or("a command is not a string")
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Saved { seed, log, playing })
    }

    /// The hash value of a share link: deflate + base64url.
    pub fn to_hash(&self) -> String {
        let deflated = miniz_oxide::deflate::compress_to_vec(self.to_json().as_bytes(), 9);
        URL_SAFE_NO_PAD.encode(deflated)
    }

    /// Decodes [`Saved::to_hash`]'s text, refusing anything that inflates beyond
    /// [`MAX_DECOMPRESSED`].
    pub fn from_hash(text: &str) -> Result<Saved, String> {
        if text.len() > 4 * MAX_DECOMPRESSED {
            return Err("the link is too long".into());
        }
        let bytes = URL_SAFE_NO_PAD
            .decode(text.trim().trim_end_matches('='))
            .map_err(|_| "the link is not valid base64url".to_string())?;
        let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_DECOMPRESSED)
            .map_err(|e| match e.status {
                miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                    "the link unpacks to more than 1 MiB".to_string()
                }
                _ => "the link's data is not valid deflate".to_string(),
            })?;
        let text =
            String::from_utf8(json).map_err(|_| "the link's data is not UTF-8".to_string())?;
        let saved = Saved::from_json(&text)?;
        if saved.log.len() > MAX_ENTRIES {
            return Err(format!("more than {MAX_ENTRIES} commands"));
        }
        Ok(saved)
    }
}

/// The page's options, from the query string and the hash (`?embed&readonly`, `#s=…&embed`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageParams {
    /// Hide the chrome (header, editor) to fit an iframe.
    pub embed: bool,
    /// Start the clock (in embed mode the clock starts paused otherwise).
    pub autoplay: bool,
    /// The terminal input is disabled.
    pub readonly: bool,
    /// Commands to run on load.
    pub script: Option<String>,
    /// A share link's state (`s=`).
    pub shared: Option<String>,
    /// `?lesson=<url>`: a lesson file to fetch and open.
    pub lesson_url: Option<String>,
    /// `#lesson=<id>`: a built-in lesson to open.
    pub lesson_id: Option<String>,
    /// `#lesson-text=<…>`: a lesson carried in the link itself (`dsplay_lesson::link`).
    pub lesson_text: Option<String>,
    /// `origin=`: the only origin the postMessage API answers (requests from others are ignored,
    /// replies are posted to it only); normalized by [`normalize_origin`], or kept as given if it
    /// is not an origin, so that it matches no sender. `None`: any origin (the default).
    pub origin: Option<String>,
    /// `speed=`: the clock's first speed (clamped to the offered ones).
    pub speed: Option<f64>,
    /// `view=`: what the embed shows (`cluster`, `cluster+terminal`, `cluster+events`; `full`,
    /// the default, is `None`), as the app's CSS class.
    pub view: Option<&'static str>,
}

impl PageParams {
    /// Parses `location.search` and `location.hash` (with or without their `?` / `#`).
    pub fn parse(search: &str, hash: &str) -> PageParams {
        let mut params = PageParams::default();
        for (in_hash, part) in [
            (false, search.trim_start_matches('?')),
            (true, hash.trim_start_matches('#')),
        ] {
            for pair in part.split('&').filter(|p| !p.is_empty()) {
                let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                match key {
                    "embed" => params.embed = true,
                    "autoplay" => params.autoplay = true,
                    "readonly" => params.readonly = true,
                    "script" => params.script = Some(percent_decode(value)),
                    HASH_KEY => params.shared = Some(value.to_string()),
                    "lesson" if in_hash => params.lesson_id = Some(percent_decode(value)),
                    dsplay_lesson::link::HASH_KEY if in_hash => {
                        params.lesson_text = Some(value.to_string())
                    }
                    "lesson" => params.lesson_url = Some(percent_decode(value)),
                    "speed" => params.speed = percent_decode(value).parse().ok(),
                    "view" => params.view = view_class(&percent_decode(value)),
                    "origin" => {
                        let raw = percent_decode(value);
                        params.origin = Some(normalize_origin(&raw).unwrap_or(raw));
                    }
                    _ => {}
                }
            }
        }
        params
    }

    /// Whether a postMessage request from `origin` (the event's `origin`) may run. An `origin=`
    /// that is not a real origin (`null`, the origin of every sandboxed frame, or junk) matches
    /// nothing.
    pub fn accepts_origin(&self, origin: &str) -> bool {
        match self.origin.as_deref() {
            None => true,
            Some(only) => normalize_origin(only).as_deref() == Some(origin),
        }
    }

    /// The target origin of postMessage replies: the `origin=` parameter, else `*`.
    pub fn reply_origin(&self) -> &str {
        self.origin.as_deref().unwrap_or("*")
    }
}

/// The CSS class of a `view=` value (`None` for `full` and unknown values: everything shows).
fn view_class(view: &str) -> Option<&'static str> {
    match view.replace(' ', "+").as_str() {
        "cluster" => Some("view-cluster"),
        "cluster+terminal" => Some("view-terminal"),
        "cluster+events" => Some("view-events"),
        _ => None,
    }
}

/// `text` as browsers serialize an origin (`MessageEvent.origin`): `http(s)://host[:port]`,
/// lowercase, without a trailing `/` and without the scheme's default port. `None` if `text` is
/// not such an origin (another scheme, a path, a query, credentials, spaces).
pub fn normalize_origin(text: &str) -> Option<String> {
    let text = text.trim().to_ascii_lowercase();
    let (scheme, rest) = text.split_once("://")?;
    let default_port = match scheme {
        "https" => ":443",
        "http" => ":80",
        _ => return None,
    };
    let authority = rest.strip_suffix('/').unwrap_or(rest);
    let valid = !authority.is_empty()
        && !authority.starts_with(':')
        && authority
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-.:[]".contains(c));
    if !valid {
        return None;
    }
    let host = authority.strip_suffix(default_port).unwrap_or(authority);
    Some(format!("{scheme}://{host}"))
}

/// `params` (a query string or a hash, with or without its `?`/`#`) without the parameters that
/// load a session (`script=`, `s=`), so a reload does not load it again; `""` when nothing is left,
/// else with the leading `?`/`#` given as `lead`.
pub fn without_link_params(params: &str, lead: char) -> String {
    let kept: Vec<&str> = params
        .trim_start_matches(['?', '#'])
        .split('&')
        .filter(|p| !p.is_empty())
        .filter(|p| {
            let key = p.split_once('=').map_or(*p, |(k, _)| k);
            !matches!(key, "script" | "lesson" | dsplay_lesson::link::HASH_KEY) && key != HASH_KEY
        })
        .collect();
    if kept.is_empty() {
        String::new()
    } else {
        format!("{lead}{}", kept.join("&"))
    }
}

/// Decodes `%XX` escapes and `+` (as a space), keeping invalid escapes as they are.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The log entry for a clock advance made by Play or Step.
pub fn advance_entry(ms: u64) -> String {
    format!("sim advance {ms}ms")
}

/// The milliseconds of an [`advance_entry`], if `entry` is one.
pub fn parse_advance_entry(entry: &str) -> Option<u64> {
    entry
        .strip_prefix("sim advance ")?
        .strip_suffix("ms")?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Saved {
        Saved {
            seed: 7,
            log: vec![
                "kubectl apply -f - <<EOF\na: 'b'\nEOF".into(),
                "sim advance 1500ms".into(),
            ],
            playing: true,
        }
    }

    #[test]
    fn json_and_hash_round_trip() {
        let saved = sample();
        assert_eq!(Saved::from_json(&saved.to_json()), Ok(saved.clone()));
        let hash = saved.to_hash();
        assert!(hash
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_eq!(Saved::from_hash(&hash), Ok(saved));
    }

    #[test]
    fn corrupted_and_hostile_input_is_an_error_not_a_panic() {
        assert!(Saved::from_json("{not json").is_err());
        assert!(Saved::from_json("{\"v\":1,\"seed\":1,\"log\":[1]}").is_err());
        assert!(Saved::from_json("{\"v\":2,\"seed\":1,\"log\":[]}").is_err());
        assert!(Saved::from_hash("!!!").is_err());
        assert!(Saved::from_hash("AAAA").is_err());
        // A zip bomb: 4 MiB of zeros deflate to a few KiB but must be refused.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 4 << 20], 9);
        let err = Saved::from_hash(&URL_SAFE_NO_PAD.encode(bomb)).unwrap_err();
        assert!(err.contains("1 MiB"), "{err}");
    }

    #[test]
    fn page_params_come_from_query_and_hash() {
        let p = PageParams::parse("?embed&readonly", "#s=abc&autoplay");
        assert!(p.embed && p.readonly && p.autoplay);
        assert_eq!(p.shared.as_deref(), Some("abc"));
        let p = PageParams::parse("?script=kubectl%20get%20nodes%0Asim+now", "");
        assert_eq!(p.script.as_deref(), Some("kubectl get nodes\nsim now"));
        assert_eq!(PageParams::parse("", ""), PageParams::default());
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
    }

    #[test]
    fn link_parameters_are_dropped_from_the_url_after_use() {
        assert_eq!(without_link_params("?script=sim%20now", '?'), "");
        assert_eq!(
            without_link_params("?autoplay&script=x&readonly", '?'),
            "?autoplay&readonly"
        );
        assert_eq!(without_link_params("#s=abc&embed", '#'), "#embed");
        assert_eq!(without_link_params("#lesson-text=abc", '#'), "");
        assert_eq!(without_link_params("", '#'), "");
    }

    #[test]
    fn a_lesson_in_the_hash_is_read_only_from_the_hash() {
        let params = PageParams::parse("", "#lesson-text=7VlfT_x-");
        assert_eq!(params.lesson_text.as_deref(), Some("7VlfT_x-"));
        assert_eq!(PageParams::parse("?lesson-text=x", "").lesson_text, None);
    }

    #[test]
    fn the_origin_parameter_limits_who_may_post() {
        let any = PageParams::parse("?embed", "");
        assert!(any.accepts_origin("https://anyone.example"));
        assert_eq!(any.reply_origin(), "*");
        let only = PageParams::parse("?embed&origin=https%3A%2F%2FDocs.Example%3A443%2F", "");
        assert_eq!(only.origin.as_deref(), Some("https://docs.example"));
        assert!(only.accepts_origin("https://docs.example"));
        assert!(!only.accepts_origin("https://evil.example"));
        assert!(!only.accepts_origin("http://docs.example"));
        assert_eq!(only.reply_origin(), "https://docs.example");
        let hash = PageParams::parse("", "#embed&origin=http://localhost:8000");
        assert!(hash.accepts_origin("http://localhost:8000"));
        // Not an origin: kept as given, so it matches no sender.
        let bad = PageParams::parse("?origin=https://docs.example/page", "");
        assert_eq!(bad.origin.as_deref(), Some("https://docs.example/page"));
        assert!(!bad.accepts_origin("https://docs.example"));
        // `null` is the origin of every sandboxed frame and of data: URLs: it names no one.
        let null = PageParams::parse("?embed&origin=null", "");
        assert!(!null.accepts_origin("null"));
    }

    #[test]
    fn origins_are_normalized_like_browsers_serialize_them() {
        let n = |t: &str| normalize_origin(t);
        assert_eq!(n("https://a.example"), Some("https://a.example".into()));
        assert_eq!(n(" HTTP://A.example:80/ "), Some("http://a.example".into()));
        assert_eq!(
            n("http://127.0.0.1:8080"),
            Some("http://127.0.0.1:8080".into())
        );
        assert_eq!(n("https://[::1]:8443"), Some("https://[::1]:8443".into()));
        for bad in [
            "*",
            "null",
            "a.example",
            "ftp://a.example",
            "https://",
            "https://a/b",
            "https://u@a",
            "https://a?x",
        ] {
            assert_eq!(n(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_long_autosave_restores_and_advances_are_merged() {
        let mut log = Vec::new();
        for i in 0..(MAX_ENTRIES + 5_000) {
            log.push(format!("sim node add n{i}"));
            log.push(advance_entry(100));
            log.push(advance_entry(150));
        }
        let saved = Saved {
            seed: 1,
            log,
            playing: false,
        }
        .compacted();
        assert_eq!(saved.log.len(), 2 * (MAX_ENTRIES + 5_000));
        assert_eq!(saved.log[1], advance_entry(250));
        let read = Saved::from_json(&saved.to_json()).expect("what the writer stores restores");
        assert_eq!(read, saved);
        assert!(
            Saved::from_hash(&saved.to_hash()).is_err(),
            "a share link stays bounded"
        );
    }

    #[test]
    fn advance_entries_parse_back() {
        assert_eq!(parse_advance_entry(&advance_entry(250)), Some(250));
        assert_eq!(parse_advance_entry("sim advance 30s"), None);
    }
}
