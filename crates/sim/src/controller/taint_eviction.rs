//! Taint-based eviction of pods on nodes with NoExecute taints.
//! Upstream: pkg/controller/tainteviction/taint_eviction.go

use crate::api_server::object_reference;
use crate::cluster::{Cluster, Timer};
use dsplay_api::taints::{tolerates, NO_EXECUTE};
use dsplay_api::types::*;
use dsplay_api::Kind;

const COMPONENT: &str = "taint-eviction-controller";

/// The taint eviction controller's private state, owned by the cluster.
#[derive(Clone, Debug, Default)]
pub(crate) struct TaintEviction {
    /// Scheduled evictions: pod key → due time, ms.
    pub(crate) evictions: std::collections::BTreeMap<(String, String), i64>,
}

/// What should happen to one pod given its node's NoExecute taints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No NoExecute taint, or all tolerated forever.
    Keep,
    /// Evict now (an untolerated taint, or tolerationSeconds ≤ 0).
    EvictNow,
    /// Evict after this many seconds.
    EvictAfter(i64),
}

/// The eviction verdict for a pod on a node with these taints.
pub fn verdict(taints: &[Taint], tolerations: &[Toleration]) -> Verdict {
    let no_execute: Vec<&Taint> = taints.iter().filter(|t| t.effect == NO_EXECUTE).collect();
    if no_execute.is_empty() {
        return Verdict::Keep;
    }
    let mut min_seconds: Option<i64> = None;
    for taint in no_execute {
        let matching: Vec<&Toleration> =
            tolerations.iter().filter(|t| tolerates(t, taint)).collect();
        if matching.is_empty() {
            return Verdict::EvictNow;
        }
        for t in matching {
            if let Some(s) = t.toleration_seconds {
                min_seconds = Some(min_seconds.map_or(s, |m| m.min(s)));
            }
        }
    }
    match min_seconds {
        None => Verdict::Keep,
        Some(s) if s <= 0 => Verdict::EvictNow,
        Some(s) => Verdict::EvictAfter(s),
    }
}

/// Schedules, cancels and performs evictions for every bound pod.
pub(crate) fn sync(cluster: &mut Cluster) {
    // A pod's verdict depends on the pod and its node's taints alone: look at pods written since
    // the last pass and at the pods of nodes written since then. Of those, only pods on nodes with a
    // NoExecute taint, or with an eviction pending, can need action: with neither anywhere, none.
    if !cluster.store.has_no_execute_tainted_nodes() && cluster.taint_eviction.evictions.is_empty()
    {
        cluster.cursors.taint_eviction.skip(&cluster.store);
        return;
    }
    let store = &cluster.store;
    let keys = cluster
        .cursors
        .taint_eviction
        .read(store)
        .pods_and_pods_on_nodes(store);
    let tainted = |node: &str| {
        store
            .node(node)
            .and_then(|n| n.spec.as_ref())
            .and_then(|s| s.taints.as_ref())
            .is_some_and(|t| t.iter().any(|t| t.effect == NO_EXECUTE))
    };
    let pods: Vec<Pod> = keys
        .iter()
        .filter_map(|(ns, name)| store.pod(ns, name))
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .filter(|p| {
            let on_tainted = p
                .spec
                .as_ref()
                .and_then(|s| s.node_name.as_deref())
                .is_some_and(tainted);
            on_tainted
                || cluster
                    .taint_eviction
                    .evictions
                    .contains_key(&crate::store::key_of(&p.metadata))
        })
        .cloned()
        .collect();
    for pod in pods {
        let Some(node_name) = pod.spec.as_ref().and_then(|s| s.node_name.clone()) else {
            continue;
        };
        let taints = cluster
            .store
            .node(&node_name)
            .and_then(|n| n.spec.as_ref())
            .and_then(|s| s.taints.clone())
            .unwrap_or_default();
        let tolerations = pod
            .spec
            .as_ref()
            .and_then(|s| s.tolerations.clone())
            .unwrap_or_default();
        let key = (
            pod.metadata.namespace.clone().unwrap_or_default(),
            pod.metadata.name.clone().unwrap_or_default(),
        );
        let reference = object_reference(Kind::Pod, &pod.metadata);
        match verdict(&taints, &tolerations) {
            Verdict::Keep => {
                if cluster.taint_eviction.evictions.remove(&key).is_some() {
                    cluster.record_event(
                        &reference,
                        "Normal",
                        "TaintManagerEviction",
                        &format!("Cancelling deletion of Pod {}/{}", key.0, key.1),
                        COMPONENT,
                        None,
                    );
                }
            }
            Verdict::EvictNow => {
                cluster.taint_eviction.evictions.remove(&key);
                evict(cluster, &pod);
            }
            Verdict::EvictAfter(seconds) => {
                if !cluster.taint_eviction.evictions.contains_key(&key) {
                    let after_ms = seconds.saturating_mul(1000);
                    let due = cluster.now_ms.saturating_add(after_ms);
                    cluster.taint_eviction.evictions.insert(key.clone(), due);
                    cluster.schedule(
                        after_ms,
                        Timer::TaintEviction {
                            namespace: key.0,
                            pod: key.1,
                        },
                    );
                }
            }
        }
    }
}

fn evict(cluster: &mut Cluster, pod: &Pod) {
    let reference = object_reference(Kind::Pod, &pod.metadata);
    let msg = format!(
        "Marking for deletion Pod {}/{}",
        pod.metadata.namespace.clone().unwrap_or_default(),
        pod.metadata.name.clone().unwrap_or_default()
    );
    cluster.record_event(
        &reference,
        "Normal",
        "TaintManagerEviction",
        &msg,
        COMPONENT,
        None,
    );
    cluster.delete_pod(pod, None);
}

/// A scheduled eviction fell due: evict if it is still scheduled for now.
pub(crate) fn on_due(cluster: &mut Cluster, namespace: &str, name: &str) {
    let key = (namespace.to_string(), name.to_string());
    let Some(due) = cluster.taint_eviction.evictions.get(&key).copied() else {
        return;
    };
    if due > cluster.now_ms {
        return;
    }
    cluster.taint_eviction.evictions.remove(&key);
    if let Some(pod) = cluster.store.pod(namespace, name).cloned() {
        if pod.metadata.deletion_timestamp.is_none() {
            evict(cluster, &pod);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsplay_api::taints::{exists_toleration, keys, taint};

    #[test]
    fn verdict_table() {
        // Upstream TestCreatePod / TestUpdatePod style cases of taint_eviction_test.go.
        let unreachable = taint(keys::UNREACHABLE, None, NO_EXECUTE);
        let mut with_300 = exists_toleration(keys::UNREACHABLE, NO_EXECUTE);
        with_300.toleration_seconds = Some(300);
        let forever = exists_toleration(keys::UNREACHABLE, NO_EXECUTE);
        let mut zero = forever.clone();
        zero.toleration_seconds = Some(0);
        assert_eq!(verdict(&[], &[]), Verdict::Keep);
        assert_eq!(
            verdict(std::slice::from_ref(&unreachable), &[]),
            Verdict::EvictNow
        );
        assert_eq!(
            verdict(std::slice::from_ref(&unreachable), &[with_300]),
            Verdict::EvictAfter(300)
        );
        assert_eq!(
            verdict(std::slice::from_ref(&unreachable), &[forever]),
            Verdict::Keep
        );
        assert_eq!(verdict(&[unreachable], &[zero]), Verdict::EvictNow);
    }

    /// The store's count of NoExecute-tainted nodes (which lets a pass skip the pods) follows the
    /// unreachable taint on and off, and a tainted node's deletion.
    #[test]
    fn no_execute_tainted_nodes_are_counted() {
        use crate::controller::node_lifecycle::{fail_node, recover_node};
        use std::time::Duration;
        let mut c = Cluster::new(1);
        assert!(!c.store.has_no_execute_tainted_nodes());
        fail_node(&mut c, "kind-worker");
        c.advance(Duration::from_secs(60));
        assert!(c.store.has_no_execute_tainted_nodes());
        recover_node(&mut c, "kind-worker");
        assert!(!c.store.has_no_execute_tainted_nodes());
        fail_node(&mut c, "kind-worker2");
        c.advance(Duration::from_secs(60));
        assert!(c.store.has_no_execute_tainted_nodes());
        let options = crate::api_server::DeleteOptions::default();
        c.delete(Kind::Node, "", "kind-worker2", options)
            .expect("delete");
        assert!(!c.store.has_no_execute_tainted_nodes());
    }
}
