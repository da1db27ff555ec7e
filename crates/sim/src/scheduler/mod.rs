//! The default scheduler's decision for one pod: PreFilter → Filter → (PostFilter = preemption) → Score.
//!
//! **Architecture Invariant:** every function here is pure. The caller passes a snapshot of the nodes and
//! of the pods bound to each node; nothing reads the store, the clock or an RNG except through the
//! `rng_pick` callback used to break score ties. Applying a decision (binding, events, nominating,
//! deleting victims) is the caller's job.
//!
//! Plugins run in the upstream default order (`pkg/scheduler/apis/config/v1/default_plugins.go`):
//! Filter: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit,
//! PodTopologySpread, InterPodAffinity; Score: TaintToleration ×3, NodeAffinity ×2,
//! NodeResourcesFit ×1, PodTopologySpread ×2, InterPodAffinity ×2, NodeResourcesBalancedAllocation ×1.
//! PodTopologySpread and InterPodAffinity read pods on every node: their PreFilter state is computed
//! over the whole [`Snapshot`] ([`Snapshot::pre_filter`]) and adjusted for nominated pods and
//! preemption's simulated removals (upstream AddPod / RemovePod); both Skip — cost nothing — for a pod
//! without terms when no bound pod has required anti-affinity. PodTopologySpread's system default
//! constraints need the Services, ReplicaSets and StatefulSets ([`ClusterObjects`]). Volume and
//! image-locality plugins are not modelled (VolumeBinding lives in `volume_binding.rs`).
//!
//! Upstream: `pkg/scheduler/schedule_one.go` (`schedulePod`, `findNodesThatFitPod`, `prioritizeNodes`,
//! `selectHost`).

pub mod fit_error;
pub mod inter_pod_affinity;
pub mod node_affinity;
pub mod node_name;
pub mod node_ports;
pub mod node_resources_fit;
pub mod node_unschedulable;
pub mod pod_topology_spread;
pub mod preemption;
pub mod score;
pub mod taint_toleration;

use dsplay_api::types::{Namespace, Node, Pod, ReplicaSet, Service, StatefulSet};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

pub use fit_error::{Diagnosis, FitError};
pub use node_resources_fit::{pod_requests, Resources};

/// Message when the cluster has no nodes at all (`ErrNoNodesAvailable`); not a FitError.
pub const NO_NODES_AVAILABLE: &str = "no nodes available to schedule pods";

/// One node, the pods the scheduler counts on it and what they request (upstream
/// `framework.NodeInfo`: `Pods`, `Requested`, `NonZeroRequested`, `Allocatable`), and the lowest
/// priority among those pods (ours, for preemption). The totals are kept as pods are added, as
/// upstream's `AddPod` does (the scoring one from its first read on), so NodeResourcesFit reads
/// them instead of summing every pod's requests for every pod it places.
#[derive(Clone, Debug)]
pub struct NodeInfo<'a> {
    /// The node.
    pub node: &'a Node,
    pods: Vec<&'a Pod>,
    allocatable: Resources,
    requested: Resources,
    /// Summed when Score first asks: a node filtered out, or the only feasible one, is not scored.
    non_zero_requested: std::cell::OnceCell<Resources>,
    lowest_priority: i32,
}

impl<'a> NodeInfo<'a> {
    /// Builds a NodeInfo. `pods` are the pods bound to this node (`spec.nodeName`), including
    /// terminating ones; the caller excludes Succeeded/Failed pods.
    pub fn new(node: &'a Node, pods: Vec<&'a Pod>) -> Self {
        let mut info = NodeInfo {
            node,
            pods: Vec::new(),
            allocatable: node_resources_fit::allocatable(node),
            requested: Resources::default(),
            non_zero_requested: std::cell::OnceCell::new(),
            lowest_priority: i32::MAX,
        };
        for pod in &pods {
            info.count(pod);
        }
        info.pods = pods;
        info
    }

    /// The node's name ("" if unset).
    pub fn name(&self) -> &'a str {
        self.node.metadata.name.as_deref().unwrap_or("")
    }

    /// The pods counted on the node.
    pub fn pods(&self) -> &[&'a Pod] {
        &self.pods
    }

    /// Counts one more pod on the node. Upstream: `NodeInfo.AddPod`.
    pub fn add_pod(&mut self, pod: &'a Pod) {
        self.count(pod);
        self.pods.push(pod);
    }

    /// Adds what `pod` requests to the totals.
    fn count(&mut self, pod: &Pod) {
        self.requested.add(&node_resources_fit::pod_requests(pod));
        if let Some(non_zero) = self.non_zero_requested.get_mut() {
            non_zero.add(&node_resources_fit::pod_non_zero_requests(pod));
        }
        self.lowest_priority = self.lowest_priority.min(pod_priority(pod));
    }

    /// Whether a pod counted on the node has a priority below `priority`. A node without one
    /// offers preemption no victims, which the pending pods of a full cluster ask of every node
    /// at every attempt.
    pub fn has_pod_below(&self, priority: i32) -> bool {
        self.lowest_priority < priority
    }

    /// The node's `status.allocatable`.
    pub fn allocatable(&self) -> &Resources {
        &self.allocatable
    }

    /// Σ requests of the pods counted on the node.
    pub fn requested(&self) -> &Resources {
        &self.requested
    }

    /// Σ requests of the pods counted on the node, with the scoring defaults for containers that
    /// request no cpu or memory ([`node_resources_fit::pod_non_zero_requests`]).
    pub fn non_zero_requested(&self) -> &Resources {
        self.non_zero_requested.get_or_init(|| {
            let mut total = Resources::default();
            for pod in &self.pods {
                total.add(&node_resources_fit::pod_non_zero_requests(pod));
            }
            total
        })
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
    /// PodTopologySpread PreFilter state; `None` = Skip (no `DoNotSchedule` constraints). Set by
    /// [`Snapshot::pre_filter`].
    pub pod_topology_spread: Option<pod_topology_spread::PreFilterState>,
    /// InterPodAffinity PreFilter state; `None` = Skip. Set by [`Snapshot::pre_filter`].
    pub inter_pod_affinity: Option<inter_pod_affinity::PreFilterState>,
}

impl CycleState {
    /// Counts (`delta` 1) or uncounts (-1) `other`, placed on `node`, in the cluster-wide PreFilter
    /// states. Upstream: `RunPreFilterExtensionAddPod` / `RemovePod`.
    pub fn update_with_pod(&mut self, pod: &Pod, other: &Pod, node: &Node, delta: i64) {
        if let Some(s) = &mut self.pod_topology_spread {
            s.update_with_pod(pod, other, node, delta);
        }
        if let Some(s) = &mut self.inter_pod_affinity {
            s.update_with_pod(other, node, delta);
        }
    }
}

/// The pod-local PreFilters: computes the cycle state, or a PreFilter rejection (`pod affinity terms
/// conflict`). The cluster-wide ones (PodTopologySpread, InterPodAffinity) are left unset: see
/// [`Snapshot::pre_filter`].
pub fn pre_filter(pod: &Pod) -> Result<CycleState, Status> {
    let node_names = node_affinity::pre_filter(pod)?;
    Ok(CycleState {
        request: pod_requests(pod),
        host_ports: node_ports::pod_host_ports(pod),
        node_names,
        priority: pod_priority(pod),
        pod_topology_spread: None,
        inter_pod_affinity: None,
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
/// `RunFilterPlugins`). `info` counts the pods the caller decides (bound, nominated, preemption's
/// removals: [`Snapshot::node_for_filter`]).
pub fn run_filters(pod: &Pod, state: &CycleState, info: &NodeInfo) -> Result<(), Status> {
    let node = info.node;
    node_unschedulable::filter(pod, node)?;
    node_name::filter(pod, node)?;
    taint_toleration::filter(pod, node)?;
    node_affinity::filter(pod, node)?;
    node_ports::filter(&state.host_ports, info.pods())?;
    node_resources_fit::filter(&state.request, info)?;
    if let Some(s) = &state.pod_topology_spread {
        pod_topology_spread::filter(pod, s, node)?;
    }
    if let Some(s) = &state.inter_pod_affinity {
        inter_pod_affinity::filter(s, node)?;
    }
    Ok(())
}

/// Whether the pod's placement depends on pods on other nodes through its own terms (required
/// inter-pod affinity / anti-affinity, `DoNotSchedule` spread constraints); with no existing pod
/// carrying required anti-affinity either, filtering one node needs no other node.
pub fn has_cluster_wide_filters(pod: &Pod) -> bool {
    inter_pod_affinity::has_required_terms(pod) || pod_topology_spread::has_filter_constraints(pod)
}

/// Every failing Filter for one node of the snapshot, not only the first (what `runAllFilters` would
/// report). Includes the NodeAffinity PreFilter verdict (`node(s) didn't satisfy plugin(s)
/// [NodeAffinity]`) when the pod is pinned elsewhere. Meant for `sim explain`.
pub fn explain_node(pod: &Pod, snapshot: &Snapshot, node_info: &NodeInfo) -> Vec<Status> {
    let state = match snapshot.pre_filter(pod) {
        Ok(s) => s,
        Err(status) => return vec![status],
    };
    let node = node_info.node;
    let mut out = Vec::new();
    if let Some(names) = &state.node_names {
        if !names.contains(node_info.name()) {
            out.push(node_affinity::not_in_prefilter_result());
        }
    }
    let spread = state.pod_topology_spread.as_ref();
    let affinity = state.inter_pod_affinity.as_ref();
    let checks: [Result<(), Status>; 8] = [
        node_unschedulable::filter(pod, node),
        node_name::filter(pod, node),
        taint_toleration::filter(pod, node),
        node_affinity::filter(pod, node),
        node_ports::filter(&state.host_ports, node_info.pods()),
        node_resources_fit::filter(&state.request, node_info),
        spread.map_or(Ok(()), |s| pod_topology_spread::filter(pod, s, node)),
        affinity.map_or(Ok(()), |s| inter_pod_affinity::filter(s, node)),
    ];
    out.extend(checks.into_iter().filter_map(Result::err));
    out
}

/// The failure reasons the scheduler would record for this pod on this node of the snapshot (empty =
/// the pod fits). Same semantics as one entry of the FitError histogram: PreFilter verdict first, then
/// the first failing Filter plugin's reasons.
pub fn fits_reasons(pod: &Pod, snapshot: &Snapshot, node_info: &NodeInfo) -> Vec<String> {
    let state = match snapshot.pre_filter(pod) {
        Ok(s) => s,
        Err(status) => return status.reasons,
    };
    if let Some(names) = &state.node_names {
        if !names.contains(node_info.name()) {
            return node_affinity::not_in_prefilter_result().reasons;
        }
    }
    match run_filters(pod, &state, node_info) {
        Ok(()) => Vec::new(),
        Err(status) => status.reasons,
    }
}

/// The other objects the plugins read through listers: namespaces (their labels, for
/// `namespaceSelector`), and the Services, ReplicaSets and StatefulSets that give a pod its default
/// spreading selector.
#[derive(Clone, Debug, Default)]
pub struct ClusterObjects<'a> {
    /// Namespaces.
    pub namespaces: Vec<&'a Namespace>,
    /// Services.
    pub services: Vec<&'a Service>,
    /// ReplicaSets.
    pub replica_sets: Vec<&'a ReplicaSet>,
    /// StatefulSets.
    pub stateful_sets: Vec<&'a StatefulSet>,
}

/// Nodes plus a name index, built once per batch so a pinned daemon pod costs O(log n), and the pods
/// nominated to each node by earlier preemptions.
#[derive(Clone, Debug)]
pub struct Snapshot<'a> {
    nodes: Vec<NodeInfo<'a>>,
    by_name: BTreeMap<&'a str, usize>,
    nominated: Vec<Vec<&'a Pod>>,
    objects: ClusterObjects<'a>,
    /// Bound pods with `podAffinity`/`podAntiAffinity` set (upstream `HavePodsWithAffinityList`).
    pods_with_affinity: usize,
    /// Bound pods with required anti-affinity terms (`HavePodsWithRequiredAntiAffinityList`).
    pods_with_required_anti_affinity: usize,
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
        let mut snapshot = Snapshot {
            nodes,
            by_name,
            nominated,
            objects: ClusterObjects::default(),
            pods_with_affinity: 0,
            pods_with_required_anti_affinity: 0,
        };
        for i in 0..snapshot.nodes.len() {
            for j in 0..snapshot.nodes[i].pods.len() {
                snapshot.count_affinity(snapshot.nodes[i].pods[j]);
            }
        }
        snapshot
    }

    /// Sets the objects the plugins list (namespaces, Services, ReplicaSets, StatefulSets).
    pub fn with_objects(mut self, objects: ClusterObjects<'a>) -> Self {
        self.objects = objects;
        self
    }

    /// The listed objects.
    pub fn objects(&self) -> &ClusterObjects<'a> {
        &self.objects
    }

    fn count_affinity(&mut self, pod: &Pod) {
        if inter_pod_affinity::has_pod_affinity(pod) {
            self.pods_with_affinity += 1;
        }
        if inter_pod_affinity::has_required_anti_affinity(pod) {
            self.pods_with_required_anti_affinity += 1;
        }
    }

    /// Whether a bound pod has inter-pod affinity or anti-affinity.
    pub fn has_pods_with_affinity(&self) -> bool {
        self.pods_with_affinity > 0
    }

    /// Whether a bound pod has required anti-affinity terms.
    pub fn has_pods_with_required_anti_affinity(&self) -> bool {
        self.pods_with_required_anti_affinity > 0
    }

    /// (name, labels) of every listed namespace.
    pub fn namespace_labels(
        &self,
    ) -> impl Iterator<Item = (&'a str, &'a BTreeMap<String, String>)> + '_ {
        static EMPTY: BTreeMap<String, String> = BTreeMap::new();
        self.objects.namespaces.iter().map(|n| {
            (
                n.metadata.name.as_deref().unwrap_or(""),
                n.metadata.labels.as_ref().unwrap_or(&EMPTY),
            )
        })
    }

    /// The labels of namespace `name` (empty when not listed). Upstream: `GetNamespaceLabelsSnapshot`.
    pub fn labels_of_namespace(&self, name: &str) -> BTreeMap<String, String> {
        self.namespace_labels()
            .find(|(n, _)| *n == name)
            .map(|(_, l)| l.clone())
            .unwrap_or_default()
    }

    /// Every PreFilter: the pod-local ones ([`pre_filter`]) and the cluster-wide PodTopologySpread and
    /// InterPodAffinity states computed over this snapshot's bound pods.
    pub fn pre_filter(&self, pod: &Pod) -> Result<CycleState, Status> {
        let mut state = pre_filter(pod)?;
        state.pod_topology_spread = pod_topology_spread::pre_filter(pod, self);
        state.inter_pod_affinity = inter_pod_affinity::pre_filter(pod, self);
        Ok(state)
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
                self.nodes[i].add_pod(pod);
                self.count_affinity(pod);
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

    /// Node `i` as Filter sees it for `pod`: its bound pods plus the nominated pods with priority ≥
    /// the pod's (excluding the pod itself), without the `exclude`d bound pods (preemption's
    /// simulated removals); the node itself when nothing is added or removed. Upstream:
    /// `RunFilterPluginsWithNominatedPods` and `SelectVictimsOnNode` (a `NodeInfo.Snapshot()` with
    /// `AddPod` / `RemovePod`).
    pub(crate) fn node_for_filter(
        &self,
        i: usize,
        pod: &Pod,
        priority: i32,
        exclude: &[&Pod],
    ) -> Cow<'_, NodeInfo<'a>> {
        let counted = |p: &Pod| !same_pod(p, pod) && pod_priority(p) >= priority;
        let info = &self.nodes[i];
        if exclude.is_empty() && !self.nominated[i].iter().any(|p| counted(p)) {
            return Cow::Borrowed(info);
        }
        let pods = info
            .pods
            .iter()
            .copied()
            .filter(|p| !exclude.iter().any(|e| std::ptr::eq(*e, *p)))
            .chain(self.nominated[i].iter().copied().filter(|p| counted(p)))
            .collect();
        Cow::Owned(NodeInfo::new(info.node, pods))
    }

    /// The cycle state as Filter sees it on node `i`: the cluster-wide PreFilter states with the
    /// `exclude`d pods removed and the nominated pods counted by [`Snapshot::node_for_filter`] added.
    /// Upstream: `RunFilterPluginsWithNominatedPods` (AddPod) and `SelectVictimsOnNode` (RemovePod).
    pub(crate) fn state_on_node<'s>(
        &self,
        i: usize,
        pod: &Pod,
        state: &'s CycleState,
        exclude: &[&Pod],
    ) -> Cow<'s, CycleState> {
        if state.pod_topology_spread.is_none() && state.inter_pod_affinity.is_none() {
            return Cow::Borrowed(state);
        }
        let added: Vec<&Pod> = self.nominated[i]
            .iter()
            .copied()
            .filter(|p| !same_pod(p, pod) && pod_priority(p) >= state.priority)
            .collect();
        if exclude.is_empty() && added.is_empty() {
            return Cow::Borrowed(state);
        }
        let node = self.nodes[i].node;
        let mut adjusted = state.clone();
        for p in exclude {
            adjusted.update_with_pod(pod, p, node, -1);
        }
        for p in added {
            adjusted.update_with_pod(pod, p, node, 1);
        }
        Cow::Owned(adjusted)
    }

    fn filter_node(&self, i: usize, pod: &Pod, state: &CycleState) -> Result<(), Status> {
        if self.nominated[i].is_empty() {
            run_filters(pod, state, &self.nodes[i])
        } else {
            let info = self.node_for_filter(i, pod, state.priority, &[]);
            run_filters(pod, &self.state_on_node(i, pod, state, &[]), &info)
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
        let state = match self.pre_filter(pod) {
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

#[cfg(test)]
mod affinity_tests;
