//! What a resource word (`ds`, `Pods`, `ds.apps`, `daemonset.v1.apps`, `nodes.v1.`) names.
//!
//! Upstream: staging/src/k8s.io/cli-runtime/pkg/resource/builder.go `mappingFor` (a fully
//! specified `resource.version.group`, then `resource.group`); client-go restmapper/shortcut.go
//! `expandResourceShortcut` (short names are case-sensitive and keep only the group);
//! apimachinery's `DefaultRESTMapper` (plural and singular names match in any case).

use dsplay_api::Kind;

/// The kind a resource word names, or kubectl's message (without `error: `).
pub(crate) fn resolve(word: &str) -> Result<Kind, String> {
    let (resource, qualifier) = match word.split_once('.') {
        Some((r, q)) => (r, Some(q)),
        None => (word, None),
    };
    let unknown = || format!("the server doesn't have a resource type \"{resource}\"");
    let lower = resource.to_ascii_lowercase();
    let short = Kind::ALL
        .into_iter()
        .find(|k| k.short_names().contains(&resource));
    let kind = short
        .or_else(|| {
            Kind::ALL
                .into_iter()
                .find(|k| lower == k.plural() || lower == k.name().to_ascii_lowercase())
        })
        .ok_or_else(unknown)?;
    let Some(qualifier) = qualifier else {
        return Ok(kind);
    };
    let version = kind
        .api_version()
        .rsplit_once('/')
        .map_or(kind.api_version(), |(_, v)| v);
    let as_group = qualifier == kind.group();
    let as_version_group = qualifier
        .split_once('.')
        .is_some_and(|(v, g)| g == kind.group() && (short.is_some() || v == version));
    if as_group || as_version_group {
        Ok(kind)
    } else {
        Err(unknown())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the real kubectl v1.32 resolves against `dsplay serve` (`kubectl get WORD -A`).
    #[test]
    fn resolves_as_kubectl() {
        for word in [
            "ds",
            "ds.apps",
            "daemonset.v1.apps",
            "daemonsets.apps",
            "daemonsets.v1.apps",
            "DaemonSet.apps",
            "ds.v2.apps",
        ] {
            assert_eq!(resolve(word), Ok(Kind::DaemonSet), "{word}");
        }
        for word in ["nodes.v1.", "node.v1.", "no.v1.", "Node"] {
            assert_eq!(resolve(word), Ok(Kind::Node), "{word}");
        }
        assert_eq!(resolve("pods."), Ok(Kind::Pod));
        assert_eq!(resolve("Pods"), Ok(Kind::Pod));
        assert_eq!(resolve("pc.scheduling.k8s.io"), Ok(Kind::PriorityClass));
        for (word, named) in [
            ("DS", "DS"),
            ("nodes.v2.", "nodes"),
            ("ds.extensions", "ds"),
            ("daemonsets.apps.v1", "daemonsets"),
            ("daemonsets.v2.apps", "daemonsets"),
            ("Daemonsets.Apps", "Daemonsets"),
            ("ds.v1", "ds"),
            ("events.events.k8s.io", "events"),
            ("nope", "nope"),
        ] {
            assert_eq!(
                resolve(word),
                Err(format!(
                    "the server doesn't have a resource type \"{named}\""
                )),
                "{word}"
            );
        }
    }
}
