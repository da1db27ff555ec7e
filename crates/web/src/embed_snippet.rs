//! The Embed button's text: a `<dsplay-embed>` snippet (and a plain iframe fallback) whose
//! `script` replays the current session's log after the default cluster.

use crate::state::State;

/// The snippet for a playground served at `base` (its folder URL, ending in `/`) replaying `log`.
pub fn embed_snippet(base: &str, log: &[String]) -> String {
    let default = State::default_saved().log;
    let rest = log.strip_prefix(default.as_slice()).unwrap_or(log);
    let script = rest.join("\n");
    let attribute = if script.is_empty() {
        String::new()
    } else {
        format!(" script=\"{}\"", html_escape(&script))
    };
    let query = if script.is_empty() {
        String::new()
    } else {
        format!("&script={}", percent_encode(&script))
    };
    format!(
        "<script src=\"{base}embed.js\" defer></script>\n\
         <dsplay-embed src=\"{base}\" height=\"620\"{attribute}></dsplay-embed>\n\n\
         <!-- Without JavaScript on the host page: -->\n\
         <iframe src=\"{base}?embed{query}\" title=\"DaemonSet Playground\" width=\"900\" height=\"620\" style=\"border:0\"></iframe>\n"
    )
}

/// `text` safe inside a double-quoted HTML attribute.
fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `text` percent-encoded but for the unreserved characters (as `encodeURIComponent`, stricter).
fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snippet_replays_what_followed_the_default_cluster() {
        let mut log = State::default_saved().log;
        log.push("kubectl label nodes kind-worker a=\"b\"".into());
        log.push("sim advance 500ms".into());
        let text = embed_snippet("https://x.example/play/", &log);
        assert!(text.contains("<script src=\"https://x.example/play/embed.js\" defer></script>"));
        assert!(text.contains(
            "script=\"kubectl label nodes kind-worker a=&quot;b&quot;\nsim advance 500ms\""
        ));
        assert!(text.contains(
            "?embed&script=kubectl%20label%20nodes%20kind-worker%20a%3D%22b%22%0Asim%20advance%20500ms\""
        ));
        assert!(
            !text.contains("kind: DaemonSet"),
            "the default cluster is not repeated"
        );
    }

    #[test]
    fn a_fresh_session_needs_no_script() {
        let text = embed_snippet("/", &State::default_saved().log);
        assert!(text.contains("<dsplay-embed src=\"/\" height=\"620\"></dsplay-embed>"));
        assert!(text.contains("src=\"/?embed\""));
    }
}
