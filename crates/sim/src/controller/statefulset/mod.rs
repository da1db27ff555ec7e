//! The StatefulSet controller: pods with stable names (`<set>-<ordinal>`) and their own claims,
//! created and deleted in order (OrderedReady) or all at once (Parallel), updated in reverse
//! ordinal order down to the partition (RollingUpdate) or when deleted (OnDelete), with
//! ControllerRevisions recording each template.
//! Upstream: pkg/controller/statefulset/stateful_set.go

pub mod control;
mod pod_control;
pub mod utils;

use crate::cluster::Cluster;
use crate::controller::daemonset::history::revisions_controlled_by;
use crate::controller::replicaset::{controller_ref, controller_uid};
use crate::store::{key_of, ChangeCursor};
use dsplay_api::types::*;
use dsplay_api::{selector, Kind, Object};
use std::collections::{BTreeMap, BTreeSet};
use utils::is_member_of;

/// Event source component.
pub const COMPONENT: &str = "statefulset-controller";

/// The controller's memory between passes: its read position in the watch log, and whether a
/// timer asked for a pass over every StatefulSet (minReadySeconds).
#[derive(Clone, Debug, Default)]
pub(crate) struct StatefulSetController {
    cursor: ChangeCursor,
    /// Set by a `ResyncStatefulSets` timer.
    pub(crate) resync: bool,
    /// Per StatefulSet uid: its pod creates refused for want of room, in a row.
    pub(crate) requeue: crate::controller::requeue::RequeueBackoff,
}

/// Syncs the StatefulSets of every namespace where a StatefulSet, a pod, a claim or a
/// ControllerRevision was written since the last pass (upstream's informers enqueue a set on
/// those events), or all of them after a resync timer.
pub(crate) fn sync_all(cluster: &mut Cluster) {
    let force = std::mem::take(&mut cluster.stateful_sets.resync);
    if !cluster.stateful_sets.requeue.is_empty() {
        let store = &cluster.store;
        let live: BTreeSet<&str> = (store.stateful_sets())
            .filter_map(|s| s.metadata.uid.as_deref())
            .collect();
        (cluster.stateful_sets.requeue).retain_live(|uid| live.contains(uid));
    }
    if cluster.store.stateful_sets.is_empty() {
        cluster.stateful_sets.cursor.skip(&cluster.store);
        return;
    }
    let changes = cluster.stateful_sets.cursor.read(&cluster.store);
    let namespaces: BTreeSet<String> = changes
        .stateful_sets
        .iter()
        .chain(&changes.pods)
        .chain(&changes.claims)
        .chain(&changes.controller_revisions)
        .map(|(ns, _)| ns.clone())
        .collect();
    let keys: Vec<(String, String)> = cluster
        .store
        .stateful_sets
        .keys()
        .filter(|(ns, _)| force || namespaces.contains(ns))
        .cloned()
        .collect();
    for (ns, name) in keys {
        sync(cluster, &ns, &name);
    }
}

/// `sync` / `syncStatefulSet`: claim the pods and revisions, then run the update.
#[doc(alias = "syncStatefulSet")]
fn sync(cluster: &mut Cluster, ns: &str, name: &str) {
    let Some(set) = cluster.store.stateful_set(ns, name).cloned() else {
        return;
    };
    let Some(spec) = set.spec.as_ref() else {
        return;
    };
    let Ok(sel) = selector::from_label_selector(Some(&spec.selector)) else {
        return;
    };
    adopt_orphan_revisions(cluster, &set, &sel);
    let pods = get_pods_for_stateful_set(cluster, &set, &sel);
    control::update_stateful_set(cluster, &set, &pods);
}

/// `adoptOrphanRevisions`: ControllerRevisions the selector matches and nobody controls.
#[doc(alias = "adoptOrphanRevisions")]
fn adopt_orphan_revisions(cluster: &mut Cluster, set: &StatefulSet, sel: &selector::Selector) {
    if set.metadata.deletion_timestamp.is_some() {
        return;
    }
    let empty = BTreeMap::new();
    let orphans: Vec<ControllerRevision> = cluster
        .store
        .controller_revisions()
        .filter(|r| r.metadata.namespace == set.metadata.namespace)
        .filter(|r| controller_uid(&r.metadata).is_none())
        .filter(|r| sel.matches(r.metadata.labels.as_ref().unwrap_or(&empty)))
        .cloned()
        .collect();
    for mut revision in orphans {
        revision
            .metadata
            .owner_references
            .get_or_insert_with(Vec::new)
            .push(controller_ref(Kind::StatefulSet, &set.metadata));
        cluster.write(Object::ControllerRevision(revision));
    }
}

/// The set's revisions, oldest first (`ListRevisions` + `SortControllerRevisions`).
pub(crate) fn list_revisions(cluster: &Cluster, set: &StatefulSet) -> Vec<ControllerRevision> {
    revisions_controlled_by(&cluster.store, &set.metadata)
        .into_iter()
        .cloned()
        .collect()
}

/// `getPodsForStatefulSet`: the pods the set controls, adopting orphans whose name and labels
/// make them its members and releasing its pods that no longer match.
#[doc(alias = "getPodsForStatefulSet")]
fn get_pods_for_stateful_set(
    cluster: &mut Cluster,
    set: &StatefulSet,
    sel: &selector::Selector,
) -> Vec<Pod> {
    let ns = set.metadata.namespace.clone().unwrap_or_default();
    let uid = set.metadata.uid.clone().unwrap_or_default();
    let candidates: Vec<Pod> = cluster
        .store
        .pod_handles_in(&ns)
        .map(|p| Pod::clone(p))
        .collect();
    let empty = BTreeMap::new();
    let mut owned = Vec::new();
    for pod in candidates {
        let matches =
            is_member_of(set, &pod) && sel.matches(pod.metadata.labels.as_ref().unwrap_or(&empty));
        match controller_uid(&pod.metadata) {
            Some(owner) if owner == uid => {
                if matches || set.metadata.deletion_timestamp.is_some() {
                    owned.push(pod);
                } else {
                    let mut released = pod;
                    if let Some(refs) = released.metadata.owner_references.as_mut() {
                        refs.retain(|r| r.uid != uid);
                    }
                    cluster.write(Object::Pod(released));
                }
            }
            None if matches
                && set.metadata.deletion_timestamp.is_none()
                && pod.metadata.deletion_timestamp.is_none() =>
            {
                let mut adopted = pod;
                adopted
                    .metadata
                    .owner_references
                    .get_or_insert_with(Vec::new)
                    .push(controller_ref(Kind::StatefulSet, &set.metadata));
                cluster.write(Object::Pod(adopted.clone()));
                owned.push(adopted);
            }
            _ => {}
        }
    }
    owned.sort_by_key(|p| key_of(&p.metadata));
    owned
}
