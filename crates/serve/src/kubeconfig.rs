//! `--kubeconfig FILE`: a kubeconfig whose context `kind-kind` points at the server, written once
//! the listener accepts connections (tests wait for the file).

use std::path::Path;

/// The kubeconfig text for `url` (no credentials: the server has no authentication).
pub fn kubeconfig(url: &str) -> String {
    format!(
        "apiVersion: v1
kind: Config
clusters:
- cluster:
    server: {url}
  name: kind-kind
contexts:
- context:
    cluster: kind-kind
    user: kind-kind
  name: kind-kind
current-context: kind-kind
preferences: {{}}
users:
- name: kind-kind
  user: {{}}
"
    )
}

/// Writes the kubeconfig atomically (a temporary file renamed), so a reader never sees half of it.
pub fn write(path: &Path, url: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp-dsplay");
    std::fs::write(&tmp, kubeconfig(url))?;
    std::fs::rename(&tmp, path)
}
