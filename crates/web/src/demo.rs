//! The example the page opens with (book chapter 17.1.2, `shared/scenarios/01-demo-daemonset.sh`)
//! and the command strings the UI builds.

/// The seed chapter's `demo` DaemonSet.
pub const DEMO_DAEMON_SET: &str = "\
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: demo
spec:
  selector:
    matchLabels:
      app: demo
  template:
    metadata:
      labels:
        app: demo
    spec:
      containers:
      - name: demo
        image: busybox
        command:
        - sleep
        - infinity
";

/// `kubectl apply -f - <<EOF … EOF` for `yaml`, with a terminator that no line of `yaml` equals.
pub fn apply_command(yaml: &str) -> String {
    let mut terminator = "EOF".to_string();
    let mut n = 0;
    while yaml.lines().any(|l| l.trim_end() == terminator) {
        n += 1;
        terminator = format!("EOF{n}");
    }
    format!(
        "kubectl apply -f - <<{terminator}\n{}\n{terminator}",
        yaml.trim_end_matches('\n')
    )
}

/// Quotes a user-typed word for the command line if it needs it (single quotes, like a shell).
pub fn shell_word(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apply_command_wraps_yaml_in_a_here_document() {
        assert_eq!(
            apply_command("a: 1\n"),
            "kubectl apply -f - <<EOF\na: 1\nEOF"
        );
        assert_eq!(
            apply_command("EOF\n"),
            "kubectl apply -f - <<EOF1\nEOF\nEOF1"
        );
    }

    #[test]
    fn shell_words_are_quoted_only_when_needed() {
        assert_eq!(shell_word("gpu=true:NoSchedule"), "gpu=true:NoSchedule");
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
    }
}
