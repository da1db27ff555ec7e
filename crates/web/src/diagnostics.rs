//! Editor diagnostics while typing: the same parsing and validation `kubectl apply` runs, without
//! touching the cluster. Each diagnostic carries the line the editor marks inline: the line a YAML
//! error names, else the line of the field path it is about, else the first line.

use dsplay_api::manifest::parse_manifests;
use dsplay_api::validation::validate_create;

/// One problem in the editor text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// `error` or `warning` (CodeMirror's lint severities of the same names).
    pub severity: &'static str,
    /// The message (kubectl's wording where there is one).
    pub message: String,
    /// The 1-based line to mark in the editor.
    pub line: usize,
}

/// Checks every document of `text`.
pub fn check(text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut push = |severity, message: String, line: Option<usize>| {
        out.push(Diagnostic {
            severity,
            message,
            line: line.unwrap_or(1),
        })
    };
    for result in parse_manifests(text) {
        match result {
            Err(e) => {
                let message = e.to_string();
                let line = line_in_message(&message);
                push("error", message, line);
                if let Some(hint) = e.hint() {
                    push("warning", hint, line);
                }
            }
            Ok(manifest) => {
                for field in &manifest.unknown_fields {
                    let message = format!("unknown field \"{field}\"");
                    push("warning", message, line_of_path(text, field));
                }
                for error in validate_create(&manifest.object) {
                    let line = line_of_path(text, &error.path);
                    push("error", error.to_string(), line);
                }
            }
        }
    }
    out
}

/// The first line number a message names (`yaml: line 3: …`, `line 7: key "a" already set`).
fn line_in_message(message: &str) -> Option<usize> {
    message.match_indices("line ").find_map(|(at, word)| {
        let rest = &message[at + word.len()..];
        let end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        rest[..end].parse().ok().filter(|&line| line > 0)
    })
}

/// The line of the deepest key of a field path (`spec.template.spec.containers[0].imagez`) that
/// the text has, walking it top-down: each key is looked for after the line of the one before.
/// Cheap and good enough for block YAML and pretty-printed JSON; flow style finds less.
fn line_of_path(text: &str, path: &str) -> Option<usize> {
    let mut lines = text.lines().enumerate();
    let mut found = None;
    for key in path.split('.') {
        let key = key.split('[').next().unwrap_or(key);
        match lines.by_ref().find(|(_, line)| key_of(line) == Some(key)) {
            Some((index, _)) => found = Some(index + 1),
            None => break,
        }
    }
    found
}

/// The mapping key a line starts with (`  - name: x` → `name`, `"kind": …` → `kind`).
fn key_of(line: &str) -> Option<&str> {
    let body = line.trim_start().trim_start_matches("- ").trim_start();
    let (key, _) = body.split_once(':')?;
    Some(key.trim().trim_matches(['"', '\'']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_is_clean_and_garbage_is_not() {
        assert_eq!(check(crate::demo::DEMO_DAEMON_SET), Vec::new());
        assert!(check("kind: [unclosed")
            .iter()
            .any(|d| d.severity == "error"));
    }

    #[test]
    fn syntax_errors_point_at_the_line_yaml_names() {
        let text = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: [oops\n";
        let errors = check(text);
        let message = &errors[0].message;
        assert_eq!(Some(errors[0].line), line_in_message(message), "{message}");
        assert!(errors[0].line > 1, "{message}");
    }

    #[test]
    fn unknown_fields_point_at_their_key() {
        let text = crate::demo::DEMO_DAEMON_SET.replacen("image:", "imagez:", 1);
        let line = text.lines().position(|l| l.contains("imagez:")).unwrap() + 1;
        let warnings = check(&text);
        let imagez = warnings
            .iter()
            .find(|d| d.message.contains("imagez"))
            .expect("a warning about imagez");
        assert_eq!((imagez.severity, imagez.line), ("warning", line));
    }

    #[test]
    fn paths_resolve_to_the_deepest_key_present() {
        let text = "metadata:\n  name: a\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        imagez: x\n";
        assert_eq!(
            line_of_path(text, "spec.template.spec.containers[0].imagez"),
            Some(8)
        );
        assert_eq!(
            line_of_path(text, "spec.template.spec.containers[0].image"),
            Some(6)
        );
        assert_eq!(line_of_path(text, "status.x"), None);
        assert_eq!(line_of_path("{\n  \"kind\": 1\n}", "kind"), Some(2));
        assert_eq!(line_in_message("yaml: line 12: did not find"), Some(12));
        assert_eq!(line_in_message("no line here"), None);
    }
}
