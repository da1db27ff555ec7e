//! Garbage collectors: dependents of deleted owners (ownerReferences), foreground deletion, and pod
//! GC of pods bound to nodes that no longer exist.

use crate::cluster::Cluster;
use dsplay_api::types::*;
use dsplay_api::Kind;

/// Deletes dependents whose controller owner is gone; finishes foreground deletions.
pub(crate) fn sync(cluster: &mut Cluster) {
    let changes = cluster.cursors.gc.read(&cluster.store);
    let store = &cluster.store;
    // A scan of the (few) owners instead of a set of their uids built every round.
    let live = |uid: &str| {
        (store.daemon_sets().map(|d| &d.metadata))
            .chain(store.deployments().map(|d| &d.metadata))
            .chain(store.replica_sets().map(|r| &r.metadata))
            .chain(store.stateful_sets().map(|s| &s.metadata))
            .any(|m| m.uid.as_deref() == Some(uid))
    };
    let dead_owner = |refs: &Option<Vec<OwnerReference>>| {
        refs.iter().flatten().any(|r| {
            matches!(
                r.kind.as_str(),
                "DaemonSet" | "Deployment" | "ReplicaSet" | "StatefulSet"
            ) && !live(&r.uid)
        })
    };
    let owner_deleted =
        changes.daemon_set_deleted || changes.apps_owner_deleted || changes.stateful_set_deleted;
    let dead_replica_sets: Vec<(String, String)> = store
        .replica_sets()
        .filter(|r| owner_deleted || written(&changes.replica_sets, &r.metadata))
        .filter(|r| dead_owner(&r.metadata.owner_references))
        .map(|r| crate::store::key_of(&r.metadata))
        .collect();
    // An object becomes an orphan when it is written with a dead owner, or when its owner is
    // deleted: look at everything after an owner's deletion, else at what was written.
    let orphans: Vec<Pod> = if owner_deleted {
        store
            .pods()
            .filter(|p| dead_owner(&p.metadata.owner_references))
            .cloned()
            .collect()
    } else {
        changes
            .pods
            .iter()
            .filter_map(|(ns, name)| store.pod(ns, name))
            .filter(|p| dead_owner(&p.metadata.owner_references))
            .cloned()
            .collect()
    };
    let dead_revisions: Vec<(String, String)> = store
        .controller_revisions()
        .filter(|r| {
            changes.daemon_set_deleted
                || changes.stateful_set_deleted
                || written(&changes.controller_revisions, &r.metadata)
        })
        .filter(|r| dead_owner(&r.metadata.owner_references))
        .map(|r| crate::store::key_of(&r.metadata))
        .collect();
    for pod in orphans
        .iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
    {
        cluster.delete_pod(pod, None);
    }
    for (ns, name) in dead_revisions {
        cluster.remove_object(Kind::ControllerRevision, &ns, &name);
    }
    for (ns, name) in dead_replica_sets {
        cluster.remove_object(Kind::ReplicaSet, &ns, &name);
    }
    if owner_deleted || !changes.pods.is_empty() || !changes.claims.is_empty() {
        claims_of_dead_owners(cluster);
    }
    foreground_apps(cluster);
    // Foreground deletion: owners marked deleting go once they have no dependents left.
    let deleting: Vec<DaemonSet> = cluster
        .store
        .daemon_sets()
        .filter(|d| d.metadata.deletion_timestamp.is_some())
        .cloned()
        .collect();
    for ds in deleting {
        let dependents: Vec<Pod> = cluster.store.pods_owned_by(&ds.metadata).cloned().collect();
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

/// Foreground deletion of Deployments, ReplicaSets and StatefulSets: dependents (ReplicaSets,
/// pods) go first, the owner once none is left.
fn foreground_apps(cluster: &mut Cluster) {
    let deleting: Vec<(Kind, ObjectMeta)> = cluster
        .store
        .deployments()
        .map(|d| (Kind::Deployment, &d.metadata))
        .chain(
            cluster
                .store
                .replica_sets()
                .map(|r| (Kind::ReplicaSet, &r.metadata)),
        )
        .chain(
            cluster
                .store
                .stateful_sets()
                .map(|s| (Kind::StatefulSet, &s.metadata)),
        )
        .filter(|(_, m)| m.deletion_timestamp.is_some())
        .map(|(k, m)| (k, m.clone()))
        .collect();
    for (kind, meta) in deleting {
        let uid = meta.uid.as_deref().unwrap_or_default();
        let replica_sets: Vec<(String, String)> = cluster
            .store
            .replica_sets()
            .filter(|r| crate::store::references(&r.metadata, uid))
            .map(|r| crate::store::key_of(&r.metadata))
            .collect();
        let pods: Vec<Pod> = cluster.store.pods_owned_by(&meta).cloned().collect();
        if replica_sets.is_empty() && pods.is_empty() {
            let (ns, name) = crate::store::key_of(&meta);
            cluster.remove_object(kind, &ns, &name);
            continue;
        }
        for (ns, name) in replica_sets {
            let Some(mut rs) = cluster.store.replica_set(&ns, &name).cloned() else {
                continue;
            };
            if rs.metadata.deletion_timestamp.is_some() {
                continue;
            }
            rs.metadata.deletion_timestamp = meta.deletion_timestamp.clone();
            rs.metadata.deletion_grace_period_seconds = Some(0);
            rs.metadata
                .finalizers
                .get_or_insert_with(Vec::new)
                .push("foregroundDeletion".to_string());
            cluster.write(dsplay_api::Object::ReplicaSet(rs));
        }
        for pod in pods
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
        {
            cluster.delete_pod(pod, None);
        }
    }
}

/// Claims whose controller owner (a StatefulSet or a pod, per the StatefulSet's retention policy)
/// is gone are deleted; a claim a pod still uses waits, Terminating (PVC protection).
fn claims_of_dead_owners(cluster: &mut Cluster) {
    let store = &cluster.store;
    let dead: Vec<PersistentVolumeClaim> = store
        .persistent_volume_claims()
        .filter(|c| c.metadata.deletion_timestamp.is_none())
        .filter(|c| {
            c.metadata
                .owner_references
                .iter()
                .flatten()
                .filter(|r| r.controller == Some(true))
                .any(|r| match r.kind.as_str() {
                    "StatefulSet" => store
                        .stateful_sets()
                        .all(|s| s.metadata.uid.as_deref() != Some(r.uid.as_str())),
                    "Pod" => store
                        .pods()
                        .all(|p| p.metadata.uid.as_deref() != Some(r.uid.as_str())),
                    _ => false,
                })
        })
        .cloned()
        .collect();
    for claim in dead {
        if !crate::volume_binding::keep_claim_in_use(cluster, &claim) {
            let (ns, name) = crate::store::key_of(&claim.metadata);
            cluster.remove_object(Kind::PersistentVolumeClaim, &ns, &name);
        }
    }
}

/// Whether the object is among the written keys (no key is built when nothing was written).
fn written(keys: &std::collections::BTreeSet<crate::store::Key>, meta: &ObjectMeta) -> bool {
    !keys.is_empty() && keys.contains(&crate::store::key_of(meta))
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
