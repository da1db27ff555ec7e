//! The example the page opens with (the `demo` DaemonSet of the book's chapter 17.1.2)
//! and the command that applies a manifest from the editor.

use crate::shell::here_document_delimiter;

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

/// `kubectl apply -f - <<EOF … EOF` for `yaml`, with a delimiter that occurs nowhere in `yaml`.
pub fn apply_command(yaml: &str) -> String {
    let body = yaml.trim_end_matches('\n');
    let delimiter = here_document_delimiter(body);
    format!("kubectl apply -f - <<{delimiter}\n{body}\n{delimiter}")
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
}
