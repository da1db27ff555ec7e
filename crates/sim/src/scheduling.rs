//! The scheduler loop: takes pending pods in queue order, asks the pure `scheduler` module where they
//! go, and writes the outcome (binding, PodScheduled condition, events, preemption victims).

use crate::api_server::object_reference;
use crate::cluster::{k8s_time, Cluster};
use crate::scheduler::{
    has_cluster_wide_filters, pre_filter, preemption, ClusterObjects, NodeInfo, ScheduleResult,
    Snapshot,
};
use crate::store::{key_of, Key, Store};
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

const COMPONENT: &str = "default-scheduler";

/// The scheduler loop's private state, owned by the cluster: which pods did not fit and when.
#[derive(Clone, Debug, Default)]
pub(crate) struct SchedulingQueue {
    /// Pods found unschedulable, with the [`Self::cluster_change`] they were tried at, so a pod
    /// is retried only after a change that could make it fit (upstream's unschedulable pods,
    /// which wait for an event their rejecting plugins registered for).
    unschedulable: BTreeMap<Key, u64>,
    /// No pod in `unschedulable` was tried before this change: while it is the current one,
    /// none of them is retried and the pass does not walk them (thousands may wait).
    oldest_tried: u64,
    /// A counter of changes that can make an unschedulable pod fit (node or bound-pod changes).
    pub(crate) cluster_change: u64,
}

impl SchedulingQueue {
    /// The unschedulable pods some change since their attempt may make fit (`None`: none can).
    fn retry_candidates(&self) -> Option<impl Iterator<Item = &Key>> {
        (!self.unschedulable.is_empty() && self.oldest_tried != self.cluster_change).then(|| {
            self.unschedulable
                .iter()
                .filter(|(_, tried)| **tried != self.cluster_change)
                .map(|(key, _)| key)
        })
    }

    /// `key` did not fit and nothing that could make it fit has changed since (a write of the
    /// pod itself, such as its Unschedulable condition, is not such a change).
    fn is_waiting(&self, key: &Key) -> bool {
        self.unschedulable.get(key) == Some(&self.cluster_change)
    }

    /// Records that `key` did not fit when tried at change `tried`.
    fn mark_unschedulable(&mut self, key: Key, tried: u64) {
        if self.unschedulable.is_empty() || tried < self.oldest_tried {
            self.oldest_tried = tried;
        }
        self.unschedulable.insert(key, tried);
    }

    /// After a pass that walked the unschedulable pods (and tried those it retried): when the
    /// oldest of them was tried.
    fn note_walked(&mut self) {
        self.oldest_tried = self
            .unschedulable
            .values()
            .copied()
            .min()
            .unwrap_or(self.cluster_change);
    }

    /// Forgets a pod that was bound or deleted.
    pub(crate) fn forget(&mut self, key: &Key) {
        self.unschedulable.remove(key);
    }
}

fn is_pending(pod: &Pod) -> bool {
    let spec = pod.spec.as_ref();
    pod.metadata.deletion_timestamp.is_none()
        && spec
            .and_then(|s| s.node_name.as_ref())
            .is_none_or(|n| n.is_empty())
        && spec
            .and_then(|s| s.scheduler_name.as_deref())
            .unwrap_or("default-scheduler")
            == "default-scheduler"
}

/// Schedules every pending pod whose situation may have changed since its last attempt.
pub(crate) fn sync(cluster: &mut Cluster) {
    let change = cluster.scheduling_queue.cluster_change;
    let written = cluster.cursors.scheduling.read_pods(&cluster.store);
    // Every pending pod was either written since the last pass or found unschedulable before (and
    // is retried after a change that can make it fit), so those are the only candidates; a pending
    // pod is bound to no node, which the store knows without looking the pod up.
    let retried = cluster.scheduling_queue.retry_candidates();
    let walked = retried.is_some();
    let candidates: BTreeSet<&Key> = written
        .iter()
        .filter(|key| cluster.store.is_unbound_pod(key))
        .chain(retried.into_iter().flatten())
        .collect();
    let pending: Vec<Arc<Pod>> = candidates
        .into_iter()
        .filter_map(|(ns, name)| cluster.store.pod_handle(ns, name))
        .filter(|p| is_pending(p))
        .filter(|p| !cluster.scheduling_queue.is_waiting(&key_of(&p.metadata)))
        .cloned()
        .collect();
    schedule_pending(cluster, pending, change);
    if walked {
        cluster.scheduling_queue.note_walked();
    }
}

/// Tries `pending` (the pass's candidates, in no particular order) and writes each outcome;
/// `change` is the counter the pass began at.
fn schedule_pending(cluster: &mut Cluster, pending: Vec<Arc<Pod>>, change: u64) {
    if pending.is_empty() {
        return;
    }
    // VolumeBinding: a pod whose claim is missing waits (PreFilter), a pod whose volumes are
    // pinned to nodes is scheduled among those nodes only, on its own.
    let mut pinned: Vec<(Arc<Pod>, BTreeSet<String>)> = Vec::new();
    let mut plain = Vec::new();
    for pod in pending {
        match crate::volume_binding::volume_node_constraint(cluster, &pod) {
            Err(reason) => {
                let n = cluster.store.nodes.len();
                let message = format!(
                    "0/{n} nodes are available: {reason}. preemption: 0/{n} nodes are available: {n} {}.",
                    preemption::NOT_HELPFUL
                );
                let result = ScheduleResult::Unschedulable {
                    message,
                    nominated_node: None,
                    victims: Vec::new(),
                };
                apply_result(cluster, pod, result, change);
            }
            Ok(Some(nodes)) => pinned.push((pod, nodes)),
            Ok(None) => plain.push(pod),
        }
    }
    for (pod, nodes) in pinned {
        let mut rng = cluster.rng.clone();
        let result = schedule_cycle(
            &cluster.store,
            std::slice::from_ref(&pod),
            Some(&nodes),
            &mut rng,
        )
        .pop();
        cluster.rng = rng;
        if let Some(result) = result {
            apply_result(cluster, pod, result, change);
        }
    }
    let mut pending = plain;
    if pending.is_empty() {
        return;
    }
    pending.sort_by(|a, b| {
        let pa = a.spec.as_ref().and_then(|s| s.priority).unwrap_or(0);
        let pb = b.spec.as_ref().and_then(|s| s.priority).unwrap_or(0);
        pb.cmp(&pa)
            .then_with(|| dsplay_api::object::older_first(&a.metadata, &b.metadata))
    });
    // DaemonSet pods name their node (PreFilter's NodeNames): when every pending pod does, the
    // cycle only needs those nodes. The outcome is the same as on the whole cluster as long as every
    // pod fits; when one does not, the FitError message counts every node and preemption may look
    // at any, so the cycle runs again on the whole cluster (from the same random state).
    // Inter-pod affinity and spread constraints look at pods on other nodes: the shortcut only holds
    // when no pending pod has such terms and no bound pod has required anti-affinity (their PreFilters
    // would Skip).
    let local_only = !pending.iter().any(|p| has_cluster_wide_filters(p))
        && !cluster.store.has_bound_pods_with_required_anti_affinity();
    let targets: Option<BTreeSet<String>> = pending
        .iter()
        .map(|p| pre_filter(p).ok().and_then(|state| state.node_names))
        .collect::<Option<Vec<_>>>()
        .filter(|_| local_only)
        .map(|sets| sets.into_iter().flatten().collect());
    let mut rng = cluster.rng.clone();
    let mut results = targets
        .map(|targets| schedule_cycle(&cluster.store, &pending, Some(&targets), &mut rng))
        .filter(|results| {
            results
                .iter()
                .all(|r| matches!(r, ScheduleResult::Bound { .. }))
        });
    if results.is_none() {
        rng = cluster.rng.clone();
        results = Some(schedule_cycle(&cluster.store, &pending, None, &mut rng));
    }
    cluster.rng = rng;
    // A pod that did not fit was evaluated with the earlier pods of the batch already assumed on
    // their nodes: their bindings are not news to it, so it is marked as tried at the counter they
    // leave behind (upstream's queueing hints likewise drop events the failed cycle already saw).
    for (pod, result) in pending.into_iter().zip(results.unwrap_or_default()) {
        let seen = cluster.scheduling_queue.cluster_change;
        apply_result(cluster, pod, result, seen);
    }
}

/// One scheduling cycle over `pending` on the store's nodes (only the `only` ones, if given),
/// borrowing the store: no per-pass clone of nodes and pods.
fn schedule_cycle(
    store: &Store,
    pending: &[Arc<Pod>],
    only: Option<&BTreeSet<String>>,
    rng: &mut ChaCha8Rng,
) -> Vec<ScheduleResult> {
    let refs: Vec<&Pod> = pending.iter().map(|p| &**p).collect();
    snapshot(store, only).schedule_batch(&refs, &mut |n| (rng.next_u32() as usize) % n.max(1))
}

/// The scheduler's view of the store: the nodes (only the `only` ones, if given) with their pods, and
/// the namespaces, Services, ReplicaSets and StatefulSets its plugins list.
pub(crate) fn snapshot<'a>(store: &'a Store, only: Option<&BTreeSet<String>>) -> Snapshot<'a> {
    let infos: Vec<NodeInfo> = match only {
        Some(names) => names
            .iter()
            .filter_map(|name| store.node(name))
            .map(|node| node_info(store, node))
            .collect(),
        None => store.nodes().map(|node| node_info(store, node)).collect(),
    };
    Snapshot::new(infos).with_objects(ClusterObjects {
        namespaces: store.namespaces().collect(),
        services: store.services().collect(),
        replica_sets: store.replica_sets().collect(),
        stateful_sets: store.stateful_sets().collect(),
    })
}

/// A node with the pods the scheduler counts on it (bound, not finished).
fn node_info<'a>(store: &'a Store, node: &'a Node) -> NodeInfo<'a> {
    let pods = store
        .pods_on_node(node.metadata.name.as_deref().unwrap_or(""))
        .filter(|p| {
            let phase = p.status.as_ref().and_then(|s| s.phase.as_deref());
            !matches!(phase, Some("Succeeded" | "Failed"))
        })
        .collect();
    NodeInfo::new(node, pods)
}

/// Whether recording an unschedulable attempt changes the stored pod: its PodScheduled condition
/// is not yet False with this message, or the nominated node is new (a pod without status or
/// conditions gets them).
fn status_needs_write(stored: &Pod, message: &str, nominated_node: Option<&str>) -> bool {
    let Some(status) = &stored.status else {
        return true;
    };
    let recorded = status
        .conditions
        .as_ref()
        .and_then(|c| c.iter().find(|c| c.type_ == "PodScheduled"))
        .is_some_and(|c| c.status == "False" && c.message.as_deref() == Some(message));
    !recorded || nominated_node.is_some_and(|n| status.nominated_node_name.as_deref() != Some(n))
}

/// Writes the outcome of scheduling `pod` (the version the cycle saw; a binding changes the stored
/// pod in place, so it is dropped first).
fn apply_result(cluster: &mut Cluster, pod: Arc<Pod>, result: ScheduleResult, change: u64) {
    let ns = pod.metadata.namespace.clone().unwrap_or_default();
    let name = pod.metadata.name.clone().unwrap_or_default();
    let Some(stored) = cluster.store.pod_handle(&ns, &name).cloned() else {
        return;
    };
    let reference = object_reference(Kind::Pod, &stored.metadata);
    let now = k8s_time(cluster.now_ms);
    match result {
        ScheduleResult::Bound { node } => {
            drop(pod);
            cluster.scheduling_queue.forget(&(ns.clone(), name.clone()));
            crate::volume_binding::bind_pod_volumes(cluster, &stored, &node);
            drop(stored);
            cluster.modify_pod(&ns, &name, |current| {
                current.spec.get_or_insert_with(Default::default).node_name = Some(node.clone());
                let status = current.status.get_or_insert_with(Default::default);
                status.nominated_node_name = None;
                let conditions = status.conditions.get_or_insert_with(Vec::new);
                conditions.retain(|c| c.type_ != "PodScheduled");
                conditions.push(PodCondition {
                    type_: "PodScheduled".into(),
                    status: "True".into(),
                    last_transition_time: Some(now),
                    ..Default::default()
                });
            });
            cluster.record_event_about(
                reference,
                "Normal",
                "Scheduled",
                &["Successfully assigned ", &ns, "/", &name, " to ", &node].concat(),
                COMPONENT,
                None,
            );
        }
        ScheduleResult::Unschedulable {
            message,
            nominated_node,
            victims,
        } => {
            cluster
                .scheduling_queue
                .mark_unschedulable((ns.clone(), name.clone()), change);
            if status_needs_write(&stored, &message, nominated_node.as_deref()) {
                let mut current = Pod::clone(&stored);
                let status = current.status.get_or_insert_with(Default::default);
                if nominated_node.is_some() {
                    status.nominated_node_name = nominated_node.clone();
                }
                let conditions = status.conditions.get_or_insert_with(Vec::new);
                let condition = PodCondition {
                    type_: "PodScheduled".into(),
                    status: "False".into(),
                    reason: Some("Unschedulable".into()),
                    message: Some(message.clone()),
                    last_transition_time: Some(now),
                    ..Default::default()
                };
                match conditions.iter_mut().find(|c| c.type_ == "PodScheduled") {
                    Some(c) if c.status == "False" && c.message == condition.message => {}
                    Some(c) => *c = condition,
                    None => conditions.push(condition),
                }
                cluster.write(Object::Pod(current));
            } else if !Arc::ptr_eq(&pod, &stored) && *pod != *stored {
                // The cycle saw an older version: its status patch (computed from that version)
                // still goes out, and changes nothing.
                cluster.write(Object::Pod(Pod::clone(&stored)));
            }
            cluster.record_event_about(
                reference,
                "Warning",
                "FailedScheduling",
                &message,
                COMPONENT,
                None,
            );
            for (vns, vname) in victims {
                let Some(mut victim) = cluster.store.pod(&vns, &vname).cloned() else {
                    continue;
                };
                let node = nominated_node.clone().unwrap_or_default();
                // DisruptionTarget lets the retried preemptor recognise victims that are still terminating.
                let mut condition = preemption::disruption_target_condition(&stored);
                condition.last_transition_time = Some(k8s_time(cluster.now_ms));
                let conditions = victim
                    .status
                    .get_or_insert_with(Default::default)
                    .conditions
                    .get_or_insert_with(Vec::new);
                conditions.retain(|c| c.type_ != "DisruptionTarget");
                conditions.push(condition);
                cluster.write(Object::Pod(victim.clone()));
                let vref = object_reference(Kind::Pod, &victim.metadata);
                cluster.record_event(
                    &vref,
                    "Normal",
                    preemption::PREEMPTED_REASON,
                    &preemption::victim_event_message(&stored, &node),
                    COMPONENT,
                    None,
                );
                cluster.delete_pod(&victim, None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::api_server::DeleteOptions;
    use crate::cluster::Cluster;
    use dsplay_api::manifest::parse_manifests;
    use dsplay_api::Kind;

    fn pod(name: &str, node_selector: &str) -> dsplay_api::Object {
        let manifest = format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  nodeSelector: {{{node_selector}}}\n  containers: [{{name: c, image: busybox}}]\n"
        );
        parse_manifests(&manifest)
            .remove(0)
            .expect("manifest")
            .object
    }

    /// How many times the scheduler reported `pod` unschedulable (the recorder counts repeats of
    /// one event).
    fn failed_scheduling(c: &Cluster, pod: &str) -> i32 {
        c.store
            .events()
            .filter(|e| e.reason.as_deref() == Some("FailedScheduling"))
            .filter(|e| e.involved_object.name.as_deref() == Some(pod))
            .map(|e| e.count.unwrap_or(1))
            .sum()
    }

    /// A new pending pod is no news to the pods already waiting (upstream's
    /// `addPodToSchedulingQueue` queues the new pod alone): they are not tried again, so they
    /// get no second FailedScheduling; a pod bound to a node is such news.
    #[test]
    fn a_new_pending_pod_does_not_retry_the_waiting_ones() {
        let mut c = Cluster::new(1);
        c.create(pod("first", "nowhere: 'true'")).expect("create");
        assert_eq!(failed_scheduling(&c, "first"), 1);
        c.create(pod("second", "nowhere: 'true'")).expect("create");
        assert_eq!(failed_scheduling(&c, "first"), 1);
        assert_eq!(failed_scheduling(&c, "second"), 1);
        c.create(pod("placed", "kubernetes.io/os: linux"))
            .expect("create");
        assert_eq!(failed_scheduling(&c, "first"), 2);
        assert_eq!(failed_scheduling(&c, "second"), 2);
    }

    /// The store's set of unbound pods (which the scheduler takes its candidates from) follows
    /// pods through creation, binding and deletion.
    #[test]
    fn unbound_pods_are_indexed() {
        let mut c = Cluster::new(1);
        c.create(pod("stuck", "nowhere: 'true'")).expect("create");
        c.create(pod("placed", "kubernetes.io/os: linux"))
            .expect("create");
        let key = |name: &str| ("default".to_string(), name.to_string());
        assert!(c.store.is_unbound_pod(&key("stuck")));
        assert!(!c.store.is_unbound_pod(&key("placed")));
        let bound = c
            .store
            .pod("default", "placed")
            .and_then(|p| p.spec.as_ref());
        assert!(bound.and_then(|s| s.node_name.as_ref()).is_some());
        let options = DeleteOptions::default();
        c.delete(Kind::Pod, "default", "stuck", options)
            .expect("delete");
        assert!(!c.store.is_unbound_pod(&key("stuck")));
    }
}
