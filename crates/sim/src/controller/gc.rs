//! Garbage collectors: dependents of deleted owners (ownerReferences), foreground deletion, and pod
//! GC of pods bound to nodes that no longer exist.

use crate::cluster::Cluster;
use crate::store::{key_of, Store};
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};

/// The component named on the garbage collector's events.
const COMPONENT: &str = "garbage-collector-controller";

/// Collects the dependents (pods, ReplicaSets, ControllerRevisions, claims) whose owner references
/// dangle: deleted when no owner is left, else written without the dangling references; finishes
/// foreground deletions.
pub(crate) fn sync(cluster: &mut Cluster) {
    let changes = cluster.cursors.gc.read(&cluster.store);
    let store = &cluster.store;
    let owner_deleted =
        changes.daemon_set_deleted || changes.apps_owner_deleted || changes.stateful_set_deleted;
    let replica_sets: Vec<Dependent> = store
        .replica_sets()
        .filter(|r| owner_deleted || written(&changes.replica_sets, &r.metadata))
        .filter_map(|r| Dependent::of(store, Kind::ReplicaSet, &r.metadata))
        .collect();
    // An object becomes an orphan when it is written with a dead owner, or when its owner is
    // deleted: look at everything after an owner's deletion, else at what was written.
    let pods: Vec<Dependent> = if owner_deleted {
        store
            .pods()
            .filter_map(|p| Dependent::of(store, Kind::Pod, &p.metadata))
            .collect()
    } else {
        changes
            .pods
            .iter()
            .filter_map(|(ns, name)| store.pod(ns, name))
            .filter_map(|p| Dependent::of(store, Kind::Pod, &p.metadata))
            .collect()
    };
    let revisions: Vec<Dependent> = store
        .controller_revisions()
        .filter(|r| {
            changes.daemon_set_deleted
                || changes.stateful_set_deleted
                || written(&changes.controller_revisions, &r.metadata)
        })
        .filter_map(|r| Dependent::of(store, Kind::ControllerRevision, &r.metadata))
        .collect();
    for dependent in pods.into_iter().chain(revisions).chain(replica_sets) {
        dependent.collect(cluster);
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
            let (ns, name) = key_of(&ds.metadata);
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

/// A dependent with dangling owner references, and what the collector does with it.
struct Dependent {
    kind: Kind,
    key: (String, String),
    /// The uids of its dangling references.
    dangling: Vec<String>,
    /// Some reference is to a live owner (or to a kind the collector does not resolve): the
    /// dependent stays, without the dangling references.
    solid: bool,
    /// The `OwnerRefInvalidNamespace` messages: dangling references whose uid is an owner's in
    /// another namespace.
    invalid_namespace: Vec<String>,
}

impl Dependent {
    /// The dependent `meta` of `kind` if some owner reference of it dangles.
    ///
    /// Upstream: `pkg/controller/garbagecollector/garbagecollector.go` `classifyReferences`.
    fn of(store: &Store, kind: Kind, meta: &ObjectMeta) -> Option<Dependent> {
        let namespace = meta.namespace.as_deref().unwrap_or_default();
        let refs = meta.owner_references.as_deref().unwrap_or_default();
        // Most dependents have a live owner: nothing is collected for them.
        if !refs.iter().any(|r| is_dangling(store, namespace, r)) {
            return None;
        }
        let (dangling, solid): (Vec<&OwnerReference>, Vec<&OwnerReference>) =
            refs.iter().partition(|r| is_dangling(store, namespace, r));
        let invalid_namespace = dangling
            .iter()
            .filter(|r| owner_namespace(store, r).is_some_and(|ns| ns != namespace))
            .map(|r| {
                format!(
                    "ownerRef [{}/{}, namespace: {namespace}, name: {}, uid: {}] does not exist in namespace \"{namespace}\"",
                    r.api_version, r.kind, r.name, r.uid
                )
            })
            .collect();
        Some(Dependent {
            kind,
            key: key_of(meta),
            dangling: dangling.iter().map(|r| r.uid.clone()).collect(),
            solid: !solid.is_empty(),
            invalid_namespace,
        })
    }

    /// Reports the references to an owner in another namespace, then deletes the dependent (no
    /// owner left) or writes it without its dangling references. A pod already being deleted is
    /// left to its deletion.
    ///
    /// Upstream: `garbagecollector.go` `attemptToDeleteItem`, `graph_builder.go`
    /// `reportInvalidNamespaceOwnerRef`.
    fn collect(self, cluster: &mut Cluster) {
        let (namespace, name) = (&self.key.0, &self.key.1);
        let Some(object) = cluster.store.get(self.kind, namespace, name) else {
            return;
        };
        if self.kind == Kind::Pod && object.metadata().deletion_timestamp.is_some() {
            return;
        }
        let mut reference = crate::api_server::object_reference(self.kind, object.metadata());
        reference.resource_version = None;
        for message in &self.invalid_namespace {
            cluster.record_event(
                &reference,
                "Warning",
                "OwnerRefInvalidNamespace",
                message,
                COMPONENT,
                None,
            );
        }
        match (self.solid, object) {
            (true, mut object) => {
                if let Some(refs) = object.metadata_mut().owner_references.as_mut() {
                    refs.retain(|r| !self.dangling.contains(&r.uid));
                }
                cluster.write(object);
            }
            (false, Object::Pod(pod)) => cluster.delete_pod(&pod, None),
            (false, Object::PersistentVolumeClaim(claim)) => {
                if !crate::volume_binding::keep_claim_in_use(cluster, &claim) {
                    cluster.remove_object(self.kind, namespace, name);
                }
            }
            (false, _) => cluster.remove_object(self.kind, namespace, name),
        }
    }
}

/// The owner kinds the collector resolves: those the simulated controllers own by, and pods
/// (which own a StatefulSet's claims); a deletion of one is what makes it look again.
const OWNER_KINDS: [Kind; 5] = [
    Kind::DaemonSet,
    Kind::Deployment,
    Kind::ReplicaSet,
    Kind::StatefulSet,
    Kind::Pod,
];

/// The kind a reference names, if it is one of [`OWNER_KINDS`] at the apiVersion the API server
/// serves it. Upstream maps (apiVersion, kind) to a resource first, and a version not served
/// (`apps/v1beta2`) fails there: the dependent is retried and stays.
///
/// Upstream: `pkg/controller/garbagecollector/operations.go` `apiResource`.
fn owner_kind(r: &OwnerReference) -> Option<Kind> {
    OWNER_KINDS
        .into_iter()
        .find(|k| k.name() == r.kind && k.api_version() == r.api_version)
}

/// A reference dangles if no owner of its kind and name lives in the dependent's namespace with
/// its uid (the collector looks the owner up by name there and compares uids). A reference to a
/// kind the collector does not resolve ([`owner_kind`]) never dangles.
///
/// Upstream: `pkg/controller/garbagecollector/garbagecollector.go` `isDangling`.
fn is_dangling(store: &Store, namespace: &str, r: &OwnerReference) -> bool {
    owner_kind(r).is_some_and(|kind| {
        let owner = store.meta(kind, namespace, &r.name);
        owner.and_then(|o| o.uid.as_deref()) != Some(r.uid.as_str())
    })
}

/// The namespace of the owner of the reference's kind with its uid, wherever it lives.
fn owner_namespace<'a>(store: &'a Store, r: &OwnerReference) -> Option<&'a str> {
    store
        .find_meta(owner_kind(r)?, |m| m.uid.as_deref() == Some(r.uid.as_str()))
        .and_then(|m| m.namespace.as_deref())
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
            .map(|r| key_of(&r.metadata))
            .collect();
        let pods: Vec<Pod> = cluster.store.pods_owned_by(&meta).cloned().collect();
        if replica_sets.is_empty() && pods.is_empty() {
            let (ns, name) = key_of(&meta);
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

/// Claims whose owners (a StatefulSet or a pod, per the StatefulSet's retention policy) are gone
/// are deleted; a claim a pod still uses waits, Terminating (PVC protection).
fn claims_of_dead_owners(cluster: &mut Cluster) {
    let store = &cluster.store;
    let dead: Vec<Dependent> = store
        .persistent_volume_claims()
        .filter(|c| c.metadata.deletion_timestamp.is_none())
        .filter_map(|c| Dependent::of(store, Kind::PersistentVolumeClaim, &c.metadata))
        .collect();
    for claim in dead {
        claim.collect(cluster);
    }
}

/// Whether the object is among the written keys (no key is built when nothing was written).
fn written(keys: &std::collections::BTreeSet<crate::store::Key>, meta: &ObjectMeta) -> bool {
    !keys.is_empty() && keys.contains(&key_of(meta))
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
