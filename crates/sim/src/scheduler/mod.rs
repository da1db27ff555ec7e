//! The default scheduler's decision for one pod: PreFilter → Filter → (PostFilter = preemption) → Score.
//!
//! **Architecture Invariant:** every function here is pure. The caller passes a snapshot of the nodes and
//! of the pods bound to each node; nothing reads the store, the clock or an RNG except through the
//! `rng_pick` callback used to break score ties. Applying a decision (binding, events, nominating,
//! deleting victims) is the caller's job.
//!
//! Plugins run in the upstream default order (`pkg/scheduler/apis/config/v1/default_plugins.go`):
//! Filter: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit;
//! Score: TaintToleration ×3, NodeAffinity ×2, NodeResourcesFit ×1, NodeResourcesBalancedAllocation ×1.
//! Volume, topology-spread, inter-pod-affinity and image-locality plugins are not modelled (they give
//! every node the same result for the pods the playground creates, except PodTopologySpread's
//! system-default spreading of ReplicaSet pods by hostname: those pods are spread by the resource
//! scores alone, which favour the node with fewer pods as the default constraints would).
//!
//! Upstream: `pkg/scheduler/schedule_one.go` (`schedulePod`, `findNodesThatFitPod`, `prioritizeNodes`,
//! `selectHost`).

pub mod fit_error;
pub mod node_affinity;
pub mod node_name;
pub mod node_ports;
pub mod node_resources_fit;
pub mod node_unschedulable;
pub mod preemption;
pub mod score;
pub mod taint_toleration;

use dsplay_api::types::{Node, Pod};
use std::collections::{BTreeMap, BTreeSet};

pub use fit_error::{Diagnosis, FitError};
pub use node_resources_fit::{pod_requests, Resources, Usage};

/// Message when the cluster has no nodes at all (`ErrNoNodesAvailable`); not a FitError.
pub const NO_NODES_AVAILABLE: &str = "no nodes available to schedule pods";

/// One node and the pods the scheduler counts on it (upstream `framework.NodeInfo`).
#[derive(Clone, Debug)]
pub struct NodeInfo<'a> {
    /// The node.
    pub node: &'a Node,
    /// Pods bound to this node (`spec.nodeName`), including terminating ones. The caller excludes
    /// Succeeded/Failed pods.
    pub pods: Vec<&'a Pod>,
}

impl<'a> NodeInfo<'a> {
    /// Builds a NodeInfo.
    pub fn new(node: &'a Node, pods: Vec<&'a Pod>) -> Self {
        NodeInfo { node, pods }
    }

    /// The node's name ("" if unset).
    pub fn name(&self) -> &'a str {
        self.node.metadata.name.as_deref().unwrap_or("")
    }
}

/// The scheduler's decision for one pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScheduleResult {
    /// Bind the pod to this node (the caller sets `spec.nodeName` and emits `Scheduled`).
    Bound {
        /// Node name.
        node: String,
    },
    /// No node fits. The caller sets `PodScheduled=False reason=Unschedulable message=<message>` and emits
    /// a `FailedScheduling` Warning event with the same text.
    Unschedulable {
        /// Full FitError text, including the ` preemption: …` suffix when preemption ran and failed.
        message: String,
        /// Set when preemption found a node: the caller writes `status.nominatedNodeName`.
        nominated_node: Option<String>,
        /// (namespace, name) of the pods to delete gracefully, each with a `Preempted` event and the
        /// `DisruptionTarget` condition (see [`preemption::disruption_target_condition`]).
        victims: Vec<(String, String)>,
    },
}

/// Result code of a failed Filter (upstream `framework.Code`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Code {
    /// Might fit if other pods are removed: preemption may help.
    Unschedulable,
    /// Removing pods cannot help; preemption skips such nodes.
    UnschedulableAndUnresolvable,
}

/// A failed Filter/PreFilter result: code, the plugin that failed, and its reasons (each one counts in
/// the FitError histogram).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// Resolvable or not.
    pub code: Code,
    /// Plugin name, e.g. `NodeResourcesFit` ("" for messages produced by the framework).
    pub plugin: &'static str,
    /// Reasons, e.g. `["Insufficient cpu", "Insufficient memory"]`.
    pub reasons: Vec<String>,
}

impl Status {
    /// A status with one reason.
    pub fn new(code: Code, plugin: &'static str, reason: impl Into<String>) -> Self {
        Status {
            code,
            plugin,
            reasons: vec![reason.into()],
        }
    }
}

/// What PreFilter computed for the pod once per scheduling cycle (upstream `CycleState`).
#[derive(Clone, Debug)]
pub struct CycleState {
    /// NodeResourcesFit: the pod's effective requests.
    pub request: Resources,
    /// NodePorts: the host ports the pod wants.
    pub host_ports: Vec<node_ports::HostPort>,
    /// NodeAffinity PreFilter: `Some(names)` when every required term pins `metadata.name In [...]`.
    pub node_names: Option<BTreeSet<String>>,
    /// The pod's priority (`spec.priority`, default 0).
    pub priority: i32,
}

/// PreFilter: computes the cycle state, or a PreFilter rejection (`pod affinity terms conflict`).
pub fn pre_filter(pod: &Pod) -> Result<CycleState, Status> {
    let node_names = node_affinity::pre_filter(pod)?;
    Ok(CycleState {
        request: pod_requests(pod),
        host_ports: node_ports::pod_host_ports(pod),
        node_names,
        priority: pod_priority(pod),
    })
}

/// `spec.priority`, 0 when unset (upstream `corev1helpers.PodPriority`).
pub fn pod_priority(pod: &Pod) -> i32 {
    pod.spec.as_ref().and_then(|s| s.priority).unwrap_or(0)
}

/// (namespace, name) of a pod.
pub fn pod_key(pod: &Pod) -> (String, String) {
    (
        pod.metadata.namespace.clone().unwrap_or_default(),
        pod.metadata.name.clone().unwrap_or_default(),
    )
}

fn same_pod(a: &Pod, b: &Pod) -> bool {
    match (&a.metadata.uid, &b.metadata.uid) {
        (Some(x), Some(y)) => x == y,
        _ => a.metadata.namespace == b.metadata.namespace && a.metadata.name == b.metadata.name,
    }
}

/// Runs the Filter plugins in upstream order and stops at the first failure (upstream
/// `RunFilterPlugins`). `pods` are the pods counted on the node (bound + nominated, as the caller decides).
pub fn run_filters(
    pod: &Pod,
    state: &CycleState,
    node: &Node,
    pods: &[&Pod],
) -> Result<(), Status> {
    node_unschedulable::filter(pod, node)?;
    node_name::filter(pod, node)?;
    taint_toleration::filter(pod, node)?;
    node_affinity::filter(pod, node)?;
    node_ports::filter(&state.host_ports, pods)?;
    node_resources_fit::filter(&state.request, node, pods)?;
    Ok(())
}

/// Every failing Filter for one node, not only the first (what `runAllFilters` would report). Includes the
/// NodeAffinity PreFilter verdict (`node(s) didn't satisfy plugin(s) [NodeAffinity]`) when the pod is
/// pinned elsewhere. Meant for `sim explain`.
pub fn explain_node(pod: &Pod, node_info: &NodeInfo) -> Vec<Status> {
    let state = match pre_filter(pod) {
        Ok(s) => s,
        Err(status) => return vec![status],
    };
    let node = node_info.node;
    let pods = &node_info.pods;
    let mut out = Vec::new();
    if let Some(names) = &state.node_names {
        if !names.contains(node_info.name()) {
            out.push(node_affinity::not_in_prefilter_result());
        }
    }
    let checks: [Result<(), Status>; 6] = [
        node_unschedulable::filter(pod, node),
        node_name::filter(pod, node),
        taint_toleration::filter(pod, node),
        node_affinity::filter(pod, node),
        node_ports::filter(&state.host_ports, pods),
        node_resources_fit::filter(&state.request, node, pods),
    ];
    out.extend(checks.into_iter().filter_map(Result::err));
    out
}

/// The failure reasons the scheduler would record for this pod on this node (empty = the pod fits).
/// Same semantics as one entry of the FitError histogram: PreFilter verdict first, then the first
/// failing Filter plugin's reasons.
pub fn fits_reasons(pod: &Pod, node_info: &NodeInfo) -> Vec<String> {
    let state = match pre_filter(pod) {
        Ok(s) => s,
        Err(status) => return status.reasons,
    };
    if let Some(names) = &state.node_names {
        if !names.contains(node_info.name()) {
            return node_affinity::not_in_prefilter_result().reasons;
        }
    }
    match run_filters(pod, &state, node_info.node, &node_info.pods) {
        Ok(()) => Vec::new(),
        Err(status) => status.reasons,
    }
}

/// Nodes plus a name index, built once per batch so a pinned daemon pod costs O(log n), and the pods
/// nominated to each node by earlier preemptions.
#[derive(Clone, Debug)]
pub struct Snapshot<'a> {
    nodes: Vec<NodeInfo<'a>>,
    by_name: BTreeMap<&'a str, usize>,
    nominated: Vec<Vec<&'a Pod>>,
}

impl<'a> Snapshot<'a> {
    /// Indexes the nodes by name (order kept: it is the order nodes are evaluated and ties are listed).
    pub fn new(nodes: Vec<NodeInfo<'a>>) -> Self {
        let by_name = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name(), i))
            .collect();
        let nominated = vec![Vec::new(); nodes.len()];
        Snapshot {
            nodes,
            by_name,
            nominated,
        }
    }

    /// The nodes in evaluation order.
    pub fn nodes(&self) -> &[NodeInfo<'a>] {
        &self.nodes
    }

    /// Looks a node up by name.
    pub fn node(&self, name: &str) -> Option<&NodeInfo<'a>> {
        self.by_name.get(name).map(|&i| &self.nodes[i])
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// Records that `pod` is bound (or assumed) on `node`, so later decisions in the batch count it.
    /// Returns false if the node is unknown.
    pub fn assume(&mut self, pod: &'a Pod, node: &str) -> bool {
        match self.index(node) {
            Some(i) => {
                self.nominated[i].retain(|p| !same_pod(p, pod));
                self.nodes[i].pods.push(pod);
                true
            }
            None => false,
        }
    }

    /// Records a pending pod nominated to `node` (its `status.nominatedNodeName`). Filters on that node
    /// count it for pods of lower or equal priority, as upstream `RunFilterPluginsWithNominatedPods` does,
    /// so the space preemption freed is not taken by someone else. Returns false if the node is unknown.
    pub fn add_nominated(&mut self, pod: &'a Pod, node: &str) -> bool {
        match self.index(node) {
            Some(i) => {
                if !self.nominated[i].iter().any(|p| same_pod(p, pod)) {
                    self.nominated[i].push(pod);
                }
                true
            }
            None => false,
        }
    }

    /// Pods counted on node `i` when filtering `pod`: bound pods plus nominated pods with priority ≥ the
    /// pod's (excluding the pod itself). `exclude` drops bound pods (preemption's simulated removals).
    pub(crate) fn pods_for_filter(
        &self,
        i: usize,
        pod: &Pod,
        priority: i32,
        exclude: &[&Pod],
    ) -> Vec<&'a Pod> {
        let mut pods: Vec<&'a Pod> = self.nodes[i]
            .pods
            .iter()
            .copied()
            .filter(|p| !exclude.iter().any(|e| std::ptr::eq(*e, *p)))
            .collect();
        pods.extend(
            self.nominated[i]
                .iter()
                .copied()
                .filter(|p| !same_pod(p, pod) && pod_priority(p) >= priority),
        );
        pods
    }

    fn filter_node(&self, i: usize, pod: &Pod, state: &CycleState) -> Result<(), Status> {
        let node = self.nodes[i].node;
        if self.nominated[i].is_empty() {
            run_filters(pod, state, node, &self.nodes[i].pods)
        } else {
            let pods = self.pods_for_filter(i, pod, state.priority, &[]);
            run_filters(pod, state, node, &pods)
        }
    }

    /// Schedules one pod against this snapshot (does not modify it; see [`Snapshot::schedule_batch`]).
    ///
    /// * `rng_pick(n)` returns an index in `0..n`; it is called only when n ≥ 2 nodes share the top score.
    /// * A pod whose `status.nominatedNodeName` names a node it fits is bound there without scoring.
    pub fn schedule(&self, pod: &Pod, rng_pick: &mut dyn FnMut(usize) -> usize) -> ScheduleResult {
        let n = self.nodes.len();
        if n == 0 {
            return ScheduleResult::Unschedulable {
                message: NO_NODES_AVAILABLE.to_string(),
                nominated_node: None,
                victims: Vec::new(),
            };
        }
        let state = match pre_filter(pod) {
            Ok(state) => state,
            Err(status) => {
                let diagnosis = Diagnosis::pre_filter_failed(n, status);
                return preemption::post_filter(pod, self, None, diagnosis);
            }
        };

        // Nominated node first (upstream evaluateNominatedNode).
        let nominated_name = pod
            .status
            .as_ref()
            .and_then(|s| s.nominated_node_name.as_deref())
            .unwrap_or("");
        if let Some(i) = self.index(nominated_name) {
            let allowed = state
                .node_names
                .as_ref()
                .is_none_or(|names| names.contains(nominated_name));
            if allowed && self.filter_node(i, pod, &state).is_ok() {
                return ScheduleResult::Bound {
                    node: nominated_name.to_string(),
                };
            }
        }

        // Candidate nodes: the PreFilter result, or every node.
        let candidates: Vec<usize> = match &state.node_names {
            Some(names) => names.iter().filter_map(|name| self.index(name)).collect(),
            None => (0..n).collect(),
        };
        let mut diagnosis = Diagnosis::new(n);
        if state.node_names.is_some() {
            diagnosis.absent = Some(node_affinity::not_in_prefilter_result());
        }
        let mut feasible = Vec::new();
        for &i in &candidates {
            match self.filter_node(i, pod, &state) {
                Ok(()) => feasible.push(i),
                Err(status) => diagnosis.statuses.push((i, status)),
            }
        }
        match feasible.len() {
            0 => preemption::post_filter(pod, self, Some(&state), diagnosis),
            1 => ScheduleResult::Bound {
                node: self.nodes[feasible[0]].name().to_string(),
            },
            _ => {
                let scored = score::prioritize_nodes(pod, &state, self, &feasible);
                let best = score::select_host(&scored, rng_pick);
                ScheduleResult::Bound {
                    node: self.nodes[best].name().to_string(),
                }
            }
        }
    }

    /// Schedules `pods` one after another in the given order (the caller sorts by the PrioritySort
    /// queue order: priority desc, then queue time). Each bound pod is assumed on its node and each
    /// nominated preemptor is recorded, so later pods see them. Returns one result per pod.
    ///
    /// Pods of the batch that already carry `status.nominatedNodeName` are first recorded as nominated
    /// there (upstream's nominator), so lower-priority pods in the batch can't take the space reserved
    /// for them.
    pub fn schedule_batch(
        &mut self,
        pods: &[&'a Pod],
        rng_pick: &mut dyn FnMut(usize) -> usize,
    ) -> Vec<ScheduleResult> {
        for &pod in pods {
            if let Some(node) = pod
                .status
                .as_ref()
                .and_then(|s| s.nominated_node_name.as_deref())
            {
                self.add_nominated(pod, node);
            }
        }
        let mut out = Vec::with_capacity(pods.len());
        for &pod in pods {
            let result = self.schedule(pod, rng_pick);
            match &result {
                ScheduleResult::Bound { node } => {
                    self.assume(pod, node);
                }
                ScheduleResult::Unschedulable {
                    nominated_node: Some(node),
                    ..
                } => {
                    self.add_nominated(pod, node);
                }
                ScheduleResult::Unschedulable { .. } => {}
            }
            out.push(result);
        }
        out
    }
}

/// Schedules one pod against `nodes` (builds a [`Snapshot`], O(n)). Prefer [`Snapshot`] /
/// [`schedule_batch`] when scheduling many pods.
pub fn schedule_pod(
    pod: &Pod,
    nodes: &[NodeInfo],
    rng_pick: &mut dyn FnMut(usize) -> usize,
) -> ScheduleResult {
    Snapshot::new(nodes.to_vec()).schedule(pod, rng_pick)
}

/// Schedules many pods in order on one snapshot (see [`Snapshot::schedule_batch`]).
pub fn schedule_batch<'a>(
    pods: &[&'a Pod],
    nodes: Vec<NodeInfo<'a>>,
    rng_pick: &mut dyn FnMut(usize) -> usize,
) -> Vec<ScheduleResult> {
    Snapshot::new(nodes).schedule_batch(pods, rng_pick)
}

#[cfg(test)]
pub(crate) mod testutil;

#[cfg(test)]
#[allow(clippy::type_complexity)] // test tables of tuples
mod tests;
