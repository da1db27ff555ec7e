//! Shared builders and probes for the dsplay-sim integration tests.
#![allow(dead_code)]

use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use dsplay_sim::{Cluster, DeleteOptions, NodeOptions};
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

pub const IMAGE: &str = "registry.k8s.io/pause:3.9";
pub const IMAGE_V2: &str = "registry.k8s.io/pause:3.10";

/// A DaemonSet in `default` selecting `app=<name>`, one container, defaults left to the API server.
pub fn new_daemon_set(name: &str) -> DaemonSet {
    serde_json::from_value(json!({
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "c", "image": IMAGE}], "terminationGracePeriodSeconds": 30}
            }
        }
    }))
    .expect("valid DaemonSet")
}

pub fn pod_spec(ds: &mut DaemonSet) -> &mut PodSpec {
    ds.spec.as_mut().unwrap().template.spec.as_mut().unwrap()
}

pub fn set_image(ds: &mut DaemonSet, image: &str) {
    pod_spec(ds).containers[0].image = Some(image.to_string());
}

pub fn set_rolling(ds: &mut DaemonSet, max_unavailable: IntOrString, max_surge: IntOrString) {
    ds.spec.as_mut().unwrap().update_strategy = Some(DaemonSetUpdateStrategy {
        type_: Some("RollingUpdate".into()),
        rolling_update: Some(RollingUpdateDaemonSet {
            max_unavailable: Some(max_unavailable),
            max_surge: Some(max_surge),
        }),
    });
}

pub fn set_on_delete(ds: &mut DaemonSet) {
    ds.spec.as_mut().unwrap().update_strategy = Some(DaemonSetUpdateStrategy {
        type_: Some("OnDelete".into()),
        rolling_update: None,
    });
}

pub fn node_name(i: usize) -> String {
    format!("node-{i}")
}

/// An empty cluster with `n` plain worker nodes named node-0 … node-(n-1).
pub fn cluster_with_nodes(seed: u64, n: usize) -> Cluster {
    let mut c = Cluster::new_empty(seed);
    add_nodes(&mut c, 0, n);
    c
}

/// Adds nodes node-start … node-(start+n-1).
pub fn add_nodes(c: &mut Cluster, start: usize, n: usize) {
    for i in start..start + n {
        c.add_node(&NodeOptions::new(&node_name(i)))
            .expect("node created");
    }
}

pub fn add_node_with(c: &mut Cluster, name: &str, f: impl FnOnce(&mut NodeOptions)) {
    let mut o = NodeOptions::new(name);
    f(&mut o);
    c.add_node(&o).expect("node created");
}

pub fn create_ds(c: &mut Cluster, ds: DaemonSet) -> DaemonSet {
    match c.create(Object::DaemonSet(ds)).expect("DaemonSet created") {
        Object::DaemonSet(d) => d,
        _ => unreachable!(),
    }
}

pub fn get_ds(c: &Cluster, name: &str) -> DaemonSet {
    c.store()
        .daemon_set("default", name)
        .cloned()
        .expect("DaemonSet exists")
}

/// Re-reads the DaemonSet, applies `f`, writes it back.
pub fn update_ds(c: &mut Cluster, name: &str, f: impl FnOnce(&mut DaemonSet)) {
    let mut ds = get_ds(c, name);
    f(&mut ds);
    c.update(Object::DaemonSet(ds)).expect("DaemonSet updated");
}

pub fn settle(c: &mut Cluster) {
    c.settle(Duration::from_secs(600));
}

pub fn owned_by(pod: &Pod, uid: &str) -> bool {
    pod.metadata
        .owner_references
        .iter()
        .flatten()
        .any(|r| r.uid == uid && r.controller == Some(true))
}

/// Every pod controlled by the DaemonSet (terminating ones included).
pub fn ds_pods(c: &Cluster, name: &str) -> Vec<Pod> {
    let ds = get_ds(c, name);
    let uid = ds.metadata.uid.clone().unwrap();
    c.store()
        .pods()
        .filter(|p| owned_by(p, &uid))
        .cloned()
        .collect()
}

pub fn live_ds_pods(c: &Cluster, name: &str) -> Vec<Pod> {
    ds_pods(c, name)
        .into_iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .collect()
}

pub fn pod_node(p: &Pod) -> Option<String> {
    p.spec.as_ref().and_then(|s| s.node_name.clone())
}

/// Live pods per bound node.
pub fn pods_by_node(c: &Cluster, name: &str) -> BTreeMap<String, Vec<Pod>> {
    let mut out: BTreeMap<String, Vec<Pod>> = BTreeMap::new();
    for p in live_ds_pods(c, name) {
        if let Some(n) = pod_node(&p) {
            out.entry(n).or_default().push(p);
        }
    }
    out
}

pub fn nodes_with_pods(c: &Cluster, name: &str) -> BTreeSet<String> {
    pods_by_node(c, name).keys().cloned().collect()
}

pub fn phase(p: &Pod) -> String {
    p.status
        .as_ref()
        .and_then(|s| s.phase.clone())
        .unwrap_or_else(|| "Pending".into())
}

pub fn hash_label(p: &Pod) -> String {
    dsplay_sim::controller::daemonset::util::revision_hash_label(&p.metadata)
}

pub fn pod_image(p: &Pod) -> String {
    p.spec
        .as_ref()
        .and_then(|s| s.containers.first())
        .and_then(|c| c.image.clone())
        .unwrap_or_default()
}

/// The status counters in `kubectl get ds` order plus misscheduled/unavailable; a test names the
/// ones it expects non-zero (`Status { desired: 2, current: 2, ..Status::default() }`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Status {
    pub desired: i32,
    pub current: i32,
    pub ready: i32,
    pub updated: i32,
    pub available: i32,
    pub misscheduled: i32,
    pub unavailable: i32,
}

pub fn ds_status(c: &Cluster, name: &str) -> Status {
    let s = get_ds(c, name).status.unwrap_or_default();
    Status {
        desired: s.desired_number_scheduled,
        current: s.current_number_scheduled,
        ready: s.number_ready,
        updated: s.updated_number_scheduled.unwrap_or(0),
        available: s.number_available.unwrap_or(0),
        misscheduled: s.number_misscheduled,
        unavailable: s.number_unavailable.unwrap_or(0),
    }
}

/// Asserts the DaemonSet's status counters: `expected` names the non-zero ones as `field=value`
/// (`"desired=5 current=5 updated=5 unavailable=5"`; `""` for all zero).
#[track_caller]
pub fn assert_status(c: &Cluster, name: &str, expected: &str) {
    let mut want = Status::default();
    for pair in expected.split_whitespace() {
        let (field, value) = pair.split_once('=').expect("field=value");
        let value: i32 = value.parse().expect("a number");
        let slot = match field {
            "desired" => &mut want.desired,
            "current" => &mut want.current,
            "ready" => &mut want.ready,
            "updated" => &mut want.updated,
            "available" => &mut want.available,
            "misscheduled" => &mut want.misscheduled,
            "unavailable" => &mut want.unavailable,
            other => panic!("unknown status field {other}"),
        };
        *slot = value;
    }
    assert_eq!(ds_status(c, name), want, "status of ds/{name}");
}

pub fn events_with_reason(c: &Cluster, reason: &str) -> Vec<Event> {
    c.store()
        .events()
        .filter(|e| e.reason.as_deref() == Some(reason))
        .cloned()
        .collect()
}

pub fn event_messages(c: &Cluster, reason: &str) -> Vec<String> {
    events_with_reason(c, reason)
        .into_iter()
        .filter_map(|e| e.message)
        .collect()
}

pub fn delete_pod(c: &mut Cluster, p: &Pod) {
    c.delete(
        Kind::Pod,
        p.metadata.namespace.as_deref().unwrap(),
        p.metadata.name.as_deref().unwrap(),
        DeleteOptions::default(),
    )
    .expect("pod deleted");
}

pub fn set_node_taints(c: &mut Cluster, node: &str, taints: Vec<Taint>) {
    let mut n = c.store().node(node).cloned().unwrap();
    n.spec.get_or_insert_with(Default::default).taints = (!taints.is_empty()).then_some(taints);
    c.update(Object::Node(n)).expect("node updated");
}

pub fn set_node_labels(c: &mut Cluster, node: &str, labels: &[(&str, &str)]) {
    let mut n = c.store().node(node).cloned().unwrap();
    let l = n.metadata.labels.get_or_insert_with(Default::default);
    for (k, v) in labels {
        l.insert(k.to_string(), v.to_string());
    }
    c.update(Object::Node(n)).expect("node updated");
}

/// Watches pod creations and deletions (deletionTimestamp set, or removed without one) instant by instant.
pub struct Tracker {
    pub seen: BTreeSet<String>,
    pub deleting: BTreeSet<String>,
}

impl Tracker {
    pub fn new(c: &Cluster, ds: &str) -> Tracker {
        let pods = ds_pods(c, ds);
        Tracker {
            seen: pods
                .iter()
                .map(|p| p.metadata.name.clone().unwrap())
                .collect(),
            deleting: pods
                .iter()
                .filter(|p| p.metadata.deletion_timestamp.is_some())
                .map(|p| p.metadata.name.clone().unwrap())
                .collect(),
        }
    }

    /// (creates, deletes) since the last call.
    pub fn diff(&mut self, c: &Cluster, ds: &str) -> (usize, usize) {
        let pods = ds_pods(c, ds);
        let names: BTreeSet<String> = pods
            .iter()
            .map(|p| p.metadata.name.clone().unwrap())
            .collect();
        let mut creates = 0;
        let mut deletes = 0;
        for p in &pods {
            let n = p.metadata.name.clone().unwrap();
            if self.seen.insert(n.clone()) {
                creates += 1;
            }
            if p.metadata.deletion_timestamp.is_some() && self.deleting.insert(n) {
                deletes += 1;
            }
        }
        for gone in self.seen.iter().filter(|n| !names.contains(*n)) {
            if self.deleting.insert(gone.clone()) {
                deletes += 1;
            }
        }
        (creates, deletes)
    }
}
