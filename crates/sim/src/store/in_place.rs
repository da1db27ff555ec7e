//! Writes of a stored pod or DaemonSet in place: the store changes its own copy (`Arc::make_mut`),
//! which copies nothing while no loop holds another handle to the object, instead of a
//! read-modify-write that copies the whole object for every status update.

use super::{key_ref, Key, PodIndexFacts, Store, WatchEventType};
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use std::sync::Arc;

impl Store {
    /// Applies `f` to the stored pod and logs the write as [`Store::put`] does (a new
    /// resourceVersion, a `Modified` entry, the indexes moved). Returns `None` when there is no such
    /// pod, else whether the write changed the node the pod names (`spec.nodeName`).
    pub(crate) fn modify_pod(
        &mut self,
        namespace: &str,
        name: &str,
        time_ms: i64,
        f: impl FnOnce(&mut Pod),
    ) -> Option<bool> {
        let snapshots = self.watch_snapshots;
        let version = self.resource_version + 1;
        let slot = self.pods.get_mut(key_ref(&(namespace, name)))?;
        let before = PodIndexFacts::of(slot);
        let (node_before, anti_before) =
            (before.node_name.map(str::to_string), before.anti_affinity);
        let pod = Arc::make_mut(slot);
        f(pod);
        pod.metadata.resource_version = Some(version.to_string());
        let after = PodIndexFacts::of(pod);
        let rebound = after.node_name != node_before.as_deref();
        let reindex = (rebound || after.anti_affinity != anti_before)
            .then(|| (after.node_name.map(str::to_string), after.anti_affinity));
        let snapshot = snapshots.then(|| Arc::new(Object::Pod(pod.clone())));
        self.resource_version = version;
        let key: Key = (namespace.to_string(), name.to_string());
        if let Some((node_after, anti_after)) = reindex {
            let previous = PodIndexFacts {
                node_name: node_before.as_deref(),
                anti_affinity: anti_before,
            };
            let new = PodIndexFacts {
                node_name: node_after.as_deref(),
                anti_affinity: anti_after,
            };
            self.index_pod(&key, Some(previous), Some(new));
        }
        self.log(WatchEventType::Modified, Kind::Pod, key, time_ms, snapshot);
        Some(rebound)
    }

    /// Applies `f` to the stored DaemonSet and logs the write as [`Store::put`] does; false when
    /// there is no such DaemonSet.
    pub(crate) fn modify_daemon_set(
        &mut self,
        namespace: &str,
        name: &str,
        time_ms: i64,
        f: impl FnOnce(&mut DaemonSet),
    ) -> bool {
        let snapshots = self.watch_snapshots;
        let version = self.resource_version + 1;
        let Some(slot) = self.daemon_sets.get_mut(key_ref(&(namespace, name))) else {
            return false;
        };
        let ds = Arc::make_mut(slot);
        f(ds);
        ds.metadata.resource_version = Some(version.to_string());
        let snapshot = snapshots.then(|| Arc::new(Object::DaemonSet(ds.clone())));
        self.resource_version = version;
        let key: Key = (namespace.to_string(), name.to_string());
        self.log(
            WatchEventType::Modified,
            Kind::DaemonSet,
            key,
            time_ms,
            snapshot,
        );
        true
    }
}
