//! Editor drift: the DaemonSets the editor last applied, with their generation then, so the UI can
//! tell when a command (`kubectl set image`, `patch`, `rollout undo`) changed one since — the
//! editor's text is then stale and Apply would silently revert that change — and offer the live
//! object as a manifest instead.

use dsplay_api::manifest::parse_manifests;
use dsplay_api::{Kind, Object};
use dsplay_kubectl::printers::output::to_yaml;
use dsplay_sim::Store;
use serde_json::Value;

/// A DaemonSet the editor applied, and its `metadata.generation` right after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// Its namespace.
    pub namespace: String,
    /// Its name.
    pub name: String,
    /// Its generation right after the apply.
    pub generation: i64,
}

/// The DaemonSets `yaml` names, as the store holds them now (call right after applying it).
pub fn applied(yaml: &str, store: &Store) -> Vec<Applied> {
    parse_manifests(yaml)
        .into_iter()
        .filter_map(|m| match m.ok()?.object {
            Object::DaemonSet(ds) => {
                let namespace = ds.metadata.namespace.unwrap_or_else(|| "default".into());
                let name = ds.metadata.name?;
                let generation = store.daemon_set(&namespace, &name)?.metadata.generation?;
                Some(Applied {
                    namespace,
                    name,
                    generation,
                })
            }
            _ => None,
        })
        .collect()
}

/// The first applied DaemonSet that changed since (a new generation; not one deleted since).
pub fn changed<'a>(applied: &'a [Applied], store: &Store) -> Option<&'a Applied> {
    applied.iter().find(|a| {
        store
            .daemon_set(&a.namespace, &a.name)
            .and_then(|ds| ds.metadata.generation)
            .is_some_and(|g| g != a.generation)
    })
}

/// A live object as a manifest to edit and apply again (Load live manifest, `kubectl edit`):
/// `kubectl get -o yaml` without the status and the fields the server sets.
pub fn live_manifest(store: &Store, kind: Kind, namespace: &str, name: &str) -> Option<String> {
    let mut value = store.get(kind, namespace, name)?.to_json();
    let object = value.as_object_mut()?;
    object.remove("status");
    object.insert("apiVersion".into(), Value::from(kind.api_version()));
    object.insert("kind".into(), Value::from(kind.name()));
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        for field in [
            "uid",
            "resourceVersion",
            "generation",
            "creationTimestamp",
            "managedFields",
        ] {
            meta.remove(field);
        }
        if let Some(annotations) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
            annotations.remove("kubectl.kubernetes.io/last-applied-configuration");
            annotations.remove("deprecated.daemonset.template.generation");
            if annotations.is_empty() {
                meta.remove("annotations");
            }
        }
    }
    Some(to_yaml(&value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::{apply_command, DEMO_DAEMON_SET};
    use dsplay_kubectl::{Session, SessionOptions};

    #[test]
    fn set_image_is_drift_and_the_live_manifest_has_the_new_image() {
        let mut session = Session::new(SessionOptions::default());
        session.execute(&apply_command(DEMO_DAEMON_SET));
        let store = session.cluster().store();
        let applied = applied(DEMO_DAEMON_SET, store);
        assert_eq!(applied.len(), 1);
        assert_eq!(changed(&applied, store), None);

        session.execute("kubectl set image ds/demo demo=busybox:1.36");
        let store = session.cluster().store();
        assert_eq!(
            changed(&applied, store).map(|a| a.name.as_str()),
            Some("demo")
        );
        let live = live_manifest(store, Kind::DaemonSet, "default", "demo").unwrap();
        assert!(live.contains("image: busybox:1.36"), "{live}");
        assert!(
            !live.contains("status:") && !live.contains("uid:") && !live.contains("last-applied"),
            "{live}"
        );

        // Applying the live manifest is no change, and no drift after it.
        let out = session.execute(&apply_command(&live));
        assert!(out.iter().all(|o| o.success), "{out:?}");
        let store = session.cluster().store();
        assert_eq!(changed(&self::applied(&live, store), store), None);
    }
}
