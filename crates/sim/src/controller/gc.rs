//! Garbage collectors: dependents of deleted owners (ownerReferences), foreground deletion, and pod
//! GC of pods bound to nodes that no longer exist.

use crate::cluster::Cluster;
use dsplay_api::types::*;
use dsplay_api::Kind;

/// Deletes dependents whose controller owner is gone; finishes foreground deletions.
pub(crate) fn sync(cluster: &mut Cluster) {
    let live_uids: std::collections::BTreeSet<String> = cluster
        .store
        .daemon_sets()
        .filter_map(|d| d.metadata.uid.clone())
        .collect();
    let orphans: Vec<Pod> = cluster
        .store
        .pods()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .filter(|p| {
            p.metadata
                .owner_references
                .iter()
                .flatten()
                .any(|r| r.kind == "DaemonSet" && !live_uids.contains(&r.uid))
        })
        .cloned()
        .collect();
    for pod in orphans {
        cluster.delete_pod(&pod, None);
    }
    let dead_revisions: Vec<(String, String)> = cluster
        .store
        .controller_revisions()
        .filter(|r| {
            r.metadata
                .owner_references
                .iter()
                .flatten()
                .any(|o| o.kind == "DaemonSet" && !live_uids.contains(&o.uid))
        })
        .map(|r| {
            (
                r.metadata.namespace.clone().unwrap_or_default(),
                r.metadata.name.clone().unwrap_or_default(),
            )
        })
        .collect();
    for (ns, name) in dead_revisions {
        cluster.remove_object(Kind::ControllerRevision, &ns, &name);
    }
    // Foreground deletion: owners marked deleting go once they have no dependents left.
    let deleting: Vec<DaemonSet> = cluster
        .store
        .daemon_sets()
        .filter(|d| d.metadata.deletion_timestamp.is_some())
        .cloned()
        .collect();
    for ds in deleting {
        let uid = ds.metadata.uid.clone().unwrap_or_default();
        let dependents: Vec<Pod> = cluster.store.pods_owned_by(&uid).cloned().collect();
        if dependents.is_empty() {
            let (ns, name) = crate::store::key_of(&ds.metadata);
            cluster.remove_object(Kind::DaemonSet, &ns, &name);
        } else {
            for pod in dependents
                .iter()
                .filter(|p| p.metadata.deletion_timestamp.is_none())
            {
                cluster.delete_pod(pod, None);
            }
        }
    }
}

/// Pod GC: force-deletes pods bound to nodes that no longer exist.
pub(crate) fn pod_gc(cluster: &mut Cluster) {
    let orphaned: Vec<(String, String)> = cluster
        .store
        .pods()
        .filter(|p| {
            p.spec
                .as_ref()
                .and_then(|s| s.node_name.as_ref())
                .is_some_and(|n| cluster.store.node(n).is_none())
        })
        .map(|p| {
            (
                p.metadata.namespace.clone().unwrap_or_default(),
                p.metadata.name.clone().unwrap_or_default(),
            )
        })
        .collect();
    for (ns, name) in orphaned {
        cluster.remove_object(Kind::Pod, &ns, &name);
    }
}
