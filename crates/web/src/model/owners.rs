//! Which workload a pod belongs to (its DaemonSet, Deployment, StatefulSet or ReplicaSet) and which
//! of that workload's revisions it runs, for the pod chips' owner badge and revision encoding.
//!
//! DaemonSet and StatefulSet pods carry `controller-revision-hash` (a ControllerRevision's hash, or
//! for a StatefulSet the revision's whole name); Deployment pods carry `pod-template-hash`, the
//! label of their ReplicaSet, whose `deployment.kubernetes.io/revision` annotation numbers it.

use dsplay_api::types::ObjectMeta;
use dsplay_sim::controller::daemonset::util::{revision_hash_label, REVISION_HASH_LABEL};
use dsplay_sim::Store;
use std::collections::BTreeMap;

/// The ReplicaSet label naming a pod template (upstream `DefaultDeploymentUniqueLabelKey`).
const POD_TEMPLATE_HASH: &str = "pod-template-hash";
/// The ReplicaSet annotation holding its Deployment revision.
const DEPLOYMENT_REVISION: &str = "deployment.kubernetes.io/revision";

/// A pod's revision: its hash label, the revision's number in its owner's history (0 if unknown)
/// and whether it is the owner's newest revision (true for pods without a known history).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodRevision {
    pub hash: String,
    pub number: i64,
    pub current: bool,
}

/// What the store says about workloads, read once per refresh.
#[derive(PartialEq)]
pub struct Owners {
    /// `(namespace, hash or revision name)` → (revision number, is its owner's newest).
    revisions: BTreeMap<(String, String), (i64, bool)>,
    /// `(namespace, ReplicaSet)` → its Deployment.
    deployment_of: BTreeMap<(String, String), String>,
}

impl Owners {
    /// Reads ControllerRevisions and ReplicaSets.
    pub fn new(store: &Store) -> Owners {
        // (namespace, owner kind, owner) → newest revision number.
        let mut newest: BTreeMap<(String, &str, String), i64> = BTreeMap::new();
        // (namespace, owner kind, owner, keys, number)
        let mut all: Vec<(String, &str, String, Vec<String>, i64)> = Vec::new();
        for cr in store.controller_revisions() {
            let meta = &cr.metadata;
            let owner = first_owner(meta).map(|(_, n)| n).unwrap_or_default();
            let name = meta.name.clone().unwrap_or_default();
            let hash = meta
                .labels
                .as_ref()
                .and_then(|l| l.get(REVISION_HASH_LABEL).cloned())
                .or_else(|| name.strip_prefix(&format!("{owner}-")).map(str::to_string))
                .unwrap_or_default();
            all.push((namespace(meta), "cr", owner, vec![hash, name], cr.revision));
        }
        let mut deployment_of = BTreeMap::new();
        for rs in store.replica_sets() {
            let meta = &rs.metadata;
            let Some(("Deployment", deployment)) = first_owner(meta) else {
                continue;
            };
            deployment_of.insert(
                (namespace(meta), meta.name.clone().unwrap_or_default()),
                deployment.clone(),
            );
            let label = |key: &str| meta.labels.as_ref().and_then(|l| l.get(key).cloned());
            let number = meta
                .annotations
                .as_ref()
                .and_then(|a| a.get(DEPLOYMENT_REVISION))
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            if let Some(hash) = label(POD_TEMPLATE_HASH) {
                all.push((namespace(meta), "rs", deployment, vec![hash], number));
            }
        }
        for (namespace, kind, owner, _, number) in &all {
            let entry = newest
                .entry((namespace.clone(), kind, owner.clone()))
                .or_insert(*number);
            *entry = (*entry).max(*number);
        }
        let mut revisions = BTreeMap::new();
        for (namespace, kind, owner, keys, number) in all {
            let is_newest = newest.get(&(namespace.clone(), kind, owner)) == Some(&number);
            for key in keys {
                revisions.insert((namespace.clone(), key), (number, is_newest));
            }
        }
        Owners {
            revisions,
            deployment_of,
        }
    }

    /// The revision a pod runs.
    pub fn revision(&self, pod: &ObjectMeta) -> PodRevision {
        let hash = Some(revision_hash_label(pod))
            .filter(|h| !h.is_empty())
            .or_else(|| {
                pod.labels
                    .as_ref()
                    .and_then(|l| l.get(POD_TEMPLATE_HASH).cloned())
            })
            .unwrap_or_default();
        let (number, current) = self
            .revisions
            .get(&(namespace(pod), hash.clone()))
            .copied()
            .unwrap_or((0, true));
        PodRevision {
            hash,
            number,
            current,
        }
    }

    /// The workload a pod belongs to: (`DaemonSet`, `Deployment`, `StatefulSet`, `ReplicaSet`, or
    /// another controller's kind; its name) — a ReplicaSet's pods belong to its Deployment.
    pub fn owner(&self, pod: &ObjectMeta) -> Option<(String, String)> {
        let (kind, name) = first_owner(pod)?;
        if kind == "ReplicaSet" {
            if let Some(deployment) = self.deployment_of.get(&(namespace(pod), name.clone())) {
                return Some(("Deployment".into(), deployment.clone()));
            }
        }
        Some((kind.to_string(), name))
    }
}

fn namespace(meta: &ObjectMeta) -> String {
    meta.namespace.clone().unwrap_or_else(|| "default".into())
}

/// The controller owner reference (else the first one): its kind and name.
fn first_owner(meta: &ObjectMeta) -> Option<(&str, String)> {
    let refs = meta.owner_references.as_ref()?;
    let owner = refs
        .iter()
        .find(|r| r.controller == Some(true))
        .or_else(|| refs.first())?;
    Some((owner.kind.as_str(), owner.name.clone()))
}
