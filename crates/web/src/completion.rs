//! Tab completion for the terminal: commands, kinds and object names.

const KUBECTL: &[&str] = &[
    "annotate",
    "api-resources",
    "api-versions",
    "apply",
    "cluster-info",
    "cordon",
    "create",
    "delete",
    "describe",
    "drain",
    "events",
    "explain",
    "expose",
    "get",
    "label",
    "logs",
    "patch",
    "replace",
    "rollout",
    "scale",
    "set",
    "taint",
    "top",
    "uncordon",
    "version",
];
const SIM: &[&str] = &[
    "advance", "curl", "image", "node", "now", "reset", "seed", "settle",
];
const SIM_NODE: &[&str] = &["add", "condition", "fail", "recover"];
const ROLLOUT: &[&str] = &["history", "restart", "status", "undo"];
const KINDS: &[&str] = &[
    "controllerrevisions",
    "daemonsets",
    "ds",
    "endpointslices",
    "events",
    "namespaces",
    "nodes",
    "pods",
    "priorityclasses",
    "services",
    "svc",
    "all",
];

/// Completes the last word of `line`: returns the new line, or `None` if nothing fits.
/// Several candidates complete to their longest common prefix.
pub fn complete(line: &str, names: &[String]) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (done, partial) = if line.ends_with(' ') || words.is_empty() {
        (&words[..], "")
    } else {
        (&words[..words.len() - 1], words[words.len() - 1])
    };
    let vocabulary: Vec<&str> = match done {
        [] => vec!["kubectl", "sim"],
        ["kubectl"] => KUBECTL.to_vec(),
        ["kubectl", "rollout"] => ROLLOUT.to_vec(),
        ["sim"] => SIM.to_vec(),
        ["sim", "node"] => SIM_NODE.to_vec(),
        ["kubectl", "get" | "describe" | "delete", ..] if done.len() == 2 => KINDS.to_vec(),
        _ => names.iter().map(String::as_str).collect(),
    };
    let matches: Vec<&str> = vocabulary
        .into_iter()
        .filter(|w| w.starts_with(partial))
        .collect();
    let completed = match matches.as_slice() {
        [] => return None,
        [one] => format!("{one} "),
        many => {
            let first = many[0];
            let len = many
                .iter()
                .map(|m| common_prefix(first, m))
                .min()
                .unwrap_or(0);
            first[..len].to_string()
        }
    };
    if completed == partial {
        return None;
    }
    Some(format!(
        "{}{completed}",
        &line[..line.len() - partial.len()]
    ))
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .take_while(|((_, x), y)| x == y)
        .map(|((i, x), _)| i + x.len_utf8())
        .last()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completes_commands_kinds_and_names() {
        let names = vec!["kind-worker".to_string(), "kind-worker2".to_string()];
        let cases = [
            ("kub", Some("kubectl ")),
            ("kubectl g", Some("kubectl get ")),
            ("kubectl get no", Some("kubectl get nodes ")),
            ("kubectl cordon kind-w", Some("kubectl cordon kind-worker")),
            ("sim node f", Some("sim node fail ")),
            ("kubectl zzz", None),
        ];
        for (line, want) in cases {
            assert_eq!(complete(line, &names).as_deref(), want, "{line}");
        }
    }
}
