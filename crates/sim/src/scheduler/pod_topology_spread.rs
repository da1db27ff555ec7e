//! PodTopologySpread: `DoNotSchedule` constraints filter nodes (PreFilter + Filter); `ScheduleAnyway`
//! constraints — or, for a pod without constraints that a Service, ReplicaSet or StatefulSet selects,
//! the system defaults (hostname maxSkew 3, zone maxSkew 5) — score them (PreScore + Score +
//! NormalizeScore, weight 2).
//!
//! Node inclusion policies follow v1.32's defaults (`nodeAffinityPolicy: Honor`,
//! `nodeTaintsPolicy: Ignore`), `minDomains` and `matchLabelKeys` are honoured. With the system
//! defaults, nodes without a zone label still get hostname spreading.
//!
//! Upstream: `pkg/scheduler/framework/plugins/podtopologyspread/{common,filtering,scoring,plugin}.go`,
//! `pkg/scheduler/framework/plugins/helper/spread.go` (`DefaultSelector`).

use super::node_resources_fit::MAX_NODE_SCORE;
use super::{Code, NodeInfo, Snapshot, Status};
use dsplay_api::node_affinity::required_node_affinity_matches;
use dsplay_api::selector::{from_label_selector, Requirement, Selector};
use dsplay_api::taints::find_untolerated;
use dsplay_api::types::{Node, ObjectMeta, Pod, PodSpec};
use k8s_openapi::api::core::v1::TopologySpreadConstraint;
use std::collections::BTreeMap;

/// Plugin name.
pub const NAME: &str = "PodTopologySpread";
/// Score weight in the default profile.
pub const WEIGHT: i64 = 2;
/// `ErrReasonConstraintsNotMatch`.
pub const ERR_REASON_CONSTRAINTS_NOT_MATCH: &str =
    "node(s) didn't match pod topology spread constraints";
/// `ErrReasonNodeLabelNotMatch`.
pub const ERR_REASON_NODE_LABEL_NOT_MATCH: &str =
    "node(s) didn't match pod topology spread constraints (missing required label)";
/// `v1.LabelHostname`.
pub const LABEL_HOSTNAME: &str = "kubernetes.io/hostname";
/// `v1.LabelTopologyZone`.
pub const LABEL_TOPOLOGY_ZONE: &str = "topology.kubernetes.io/zone";

type Labels = BTreeMap<String, String>;

/// A constraint ready for evaluation (upstream `topologySpreadConstraint`).
#[derive(Clone, Debug)]
pub struct Constraint {
    /// `maxSkew`.
    pub max_skew: i64,
    /// `topologyKey`.
    pub topology_key: String,
    /// `labelSelector` with `matchLabelKeys` merged in.
    pub selector: Selector,
    /// `minDomains` (1 when unset).
    pub min_domains: i64,
    /// `nodeAffinityPolicy == Honor` (the default).
    pub honor_node_affinity: bool,
    /// `nodeTaintsPolicy == Honor` (default Ignore).
    pub honor_node_taints: bool,
}

/// The system default constraints (`systemDefaultConstraints`), all `ScheduleAnyway`.
fn system_default_constraints() -> Vec<TopologySpreadConstraint> {
    [(LABEL_HOSTNAME, 3), (LABEL_TOPOLOGY_ZONE, 5)]
        .into_iter()
        .map(|(key, skew)| TopologySpreadConstraint {
            topology_key: key.into(),
            when_unsatisfiable: "ScheduleAnyway".into(),
            max_skew: skew,
            ..Default::default()
        })
        .collect()
}

fn pod_labels(pod: &Pod) -> &Labels {
    static EMPTY: Labels = Labels::new();
    pod.metadata.labels.as_ref().unwrap_or(&EMPTY)
}

fn node_labels(node: &Node) -> &Labels {
    static EMPTY: Labels = Labels::new();
    node.metadata.labels.as_ref().unwrap_or(&EMPTY)
}

/// The constraints with `whenUnsatisfiable == action`, with `matchLabelKeys` merged into the selector
/// and the inclusion-policy defaults. Upstream: `filterTopologySpreadConstraints`.
pub fn filter_topology_spread_constraints(
    constraints: &[TopologySpreadConstraint],
    labels: &Labels,
    action: &str,
) -> Vec<Constraint> {
    let mut out = Vec::new();
    for c in constraints
        .iter()
        .filter(|c| c.when_unsatisfiable == action)
    {
        let Ok(mut selector) = from_label_selector(c.label_selector.as_ref()) else {
            continue;
        };
        let match_labels: Vec<Requirement> = c
            .match_label_keys
            .iter()
            .flatten()
            .filter_map(|k| {
                labels
                    .get(k)
                    .map(|v| Requirement::In(k.clone(), vec![v.clone()]))
            })
            .collect();
        if !match_labels.is_empty() {
            // mergeLabelSetWithSelector: a selector without requirements (nil) contributes nothing.
            if selector.nothing {
                selector = Selector::default();
            }
            let mut merged = match_labels;
            merged.append(&mut selector.requirements);
            selector.requirements = merged;
        }
        out.push(Constraint {
            max_skew: i64::from(c.max_skew),
            topology_key: c.topology_key.clone(),
            selector,
            min_domains: i64::from(c.min_domains.unwrap_or(1)),
            honor_node_affinity: c.node_affinity_policy.as_deref() != Some("Ignore"),
            honor_node_taints: c.node_taints_policy.as_deref() == Some("Honor"),
        });
    }
    out
}

/// The selector of the Services selecting the pod, plus its controlling ReplicaSet's or
/// StatefulSet's selector. Upstream: `helper.DefaultSelector` (ReplicationControllers are not modelled).
pub fn default_selector(pod: &Pod, snapshot: &Snapshot) -> Selector {
    let ns = pod.metadata.namespace.as_deref().unwrap_or("");
    let labels = pod_labels(pod);
    let objects = snapshot.objects();
    let mut set = Labels::new();
    for svc in objects
        .services
        .iter()
        .filter(|s| s.metadata.namespace.as_deref() == Some(ns))
    {
        let Some(sel) = svc.spec.as_ref().and_then(|s| s.selector.as_ref()) else {
            continue;
        };
        if sel.iter().all(|(k, v)| labels.get(k) == Some(v)) {
            set.extend(sel.clone());
        }
    }
    let mut selector = Selector {
        requirements: set
            .into_iter()
            .map(|(k, v)| Requirement::In(k, vec![v]))
            .collect(),
        nothing: false,
    };
    let owner = pod
        .metadata
        .owner_references
        .iter()
        .flatten()
        .find(|r| r.controller == Some(true));
    let Some(owner) = owner.filter(|o| o.api_version == "apps/v1") else {
        return selector;
    };
    let named = |meta: &ObjectMeta| {
        meta.namespace.as_deref() == Some(ns) && meta.name.as_deref() == Some(&owner.name)
    };
    let owner_selector = match owner.kind.as_str() {
        "ReplicaSet" => objects
            .replica_sets
            .iter()
            .find(|r| named(&r.metadata))
            .and_then(|r| r.spec.as_ref().map(|s| &s.selector)),
        "StatefulSet" => objects
            .stateful_sets
            .iter()
            .find(|s| named(&s.metadata))
            .and_then(|s| s.spec.as_ref().map(|s| &s.selector)),
        _ => None,
    };
    if let Some(Ok(other)) = owner_selector.map(|s| from_label_selector(Some(s))) {
        selector.requirements.extend(other.requirements);
    }
    selector
}

/// The system default constraints for a pod without its own, with the default selector; none when
/// that selector is empty. Upstream: `PodTopologySpread.buildDefaultConstraints`.
fn build_default_constraints(pod: &Pod, snapshot: &Snapshot, action: &str) -> Vec<Constraint> {
    let mut constraints =
        filter_topology_spread_constraints(&system_default_constraints(), pod_labels(pod), action);
    if constraints.is_empty() {
        return constraints;
    }
    let selector = default_selector(pod, snapshot);
    if selector.is_empty() {
        return Vec::new();
    }
    for c in &mut constraints {
        c.selector = selector.clone();
    }
    constraints
}

/// The pod's constraints for `action`: its own, else the system defaults. Upstream: `getConstraints` /
/// `initPreScoreState`'s choice.
fn constraints_for(pod: &Pod, snapshot: &Snapshot, action: &str) -> Vec<Constraint> {
    match pod
        .spec
        .as_ref()
        .and_then(|s| s.topology_spread_constraints.as_ref())
    {
        Some(own) if !own.is_empty() => {
            filter_topology_spread_constraints(own, pod_labels(pod), action)
        }
        _ => build_default_constraints(pod, snapshot, action),
    }
}

/// Whether the pod has `DoNotSchedule` constraints of its own (the only ones Filter checks).
pub fn has_filter_constraints(pod: &Pod) -> bool {
    pod.spec
        .as_ref()
        .and_then(|s| s.topology_spread_constraints.as_ref())
        .is_some_and(|cs| cs.iter().any(|c| c.when_unsatisfiable == "DoNotSchedule"))
}

/// Whether `node` counts as a domain for the constraint (node affinity honoured, taints ignored by
/// default). Upstream: `topologySpreadConstraint.matchNodeInclusionPolicies`.
fn match_node_inclusion_policies(c: &Constraint, pod: &Pod, node: &Node) -> bool {
    static NO_SPEC: std::sync::LazyLock<PodSpec> = std::sync::LazyLock::new(PodSpec::default);
    let spec = pod.spec.as_ref().unwrap_or(&NO_SPEC);
    if c.honor_node_affinity && !required_node_affinity_matches(spec, node) {
        return false;
    }
    if c.honor_node_taints {
        let taints = node
            .spec
            .as_ref()
            .and_then(|s| s.taints.as_deref())
            .unwrap_or(&[]);
        let tolerations = spec.tolerations.as_deref().unwrap_or(&[]);
        if find_untolerated(taints, tolerations, |t| {
            t.effect == "NoSchedule" || t.effect == "NoExecute"
        })
        .is_some()
        {
            return false;
        }
    }
    true
}

/// Whether the node carries every constraint's topology key. Upstream:
/// `nodeLabelsMatchSpreadConstraints`.
fn node_labels_match_spread_constraints(labels: &Labels, constraints: &[Constraint]) -> bool {
    constraints
        .iter()
        .all(|c| labels.contains_key(&c.topology_key))
}

/// Non-terminating pods of namespace `ns` the selector matches (0 for an empty selector). Upstream:
/// `countPodsMatchSelector`.
fn count_pods_match_selector(pods: &[&Pod], selector: &Selector, ns: &str) -> i64 {
    if selector.is_empty() {
        return 0;
    }
    pods.iter()
        .filter(|p| {
            p.metadata.deletion_timestamp.is_none()
                && p.metadata.namespace.as_deref().unwrap_or("") == ns
                && selector.matches(pod_labels(p))
        })
        .count() as i64
}

/// What PreFilter computed (upstream `preFilterState`): matching pods per topology pair over the
/// eligible nodes.
#[derive(Clone, Debug)]
pub struct PreFilterState {
    constraints: Vec<Constraint>,
    tp_pair_to_match_num: BTreeMap<(String, String), i64>,
}

impl PreFilterState {
    /// The smallest match count among the key's domains, or 0 when there are fewer than
    /// `min_domains` of them. Upstream: `preFilterState.minMatchNum` (critical paths).
    fn min_match_num(&self, key: &str, min_domains: i64) -> i64 {
        let counts = self
            .tp_pair_to_match_num
            .iter()
            .filter(|((k, _), _)| k == key)
            .map(|(_, n)| *n);
        let domains = counts.clone().count() as i64;
        if domains < min_domains {
            return 0;
        }
        counts.min().unwrap_or(0)
    }

    /// Adds (1) or removes (-1) `other` on `node` in the counts. Upstream:
    /// `preFilterState.updateWithPod` (AddPod / RemovePod).
    pub fn update_with_pod(&mut self, pod: &Pod, other: &Pod, node: &Node, delta: i64) {
        if other.metadata.namespace != pod.metadata.namespace {
            return;
        }
        let labels = node_labels(node);
        if !node_labels_match_spread_constraints(labels, &self.constraints) {
            return;
        }
        for c in &self.constraints {
            if !c.selector.matches(pod_labels(other))
                || !match_node_inclusion_policies(c, pod, node)
            {
                continue;
            }
            let pair = (c.topology_key.clone(), labels[&c.topology_key].clone());
            *self.tp_pair_to_match_num.entry(pair).or_default() += delta;
        }
    }
}

/// PreFilter: `None` (Skip) without `DoNotSchedule` constraints. Upstream: `calPreFilterState`.
pub fn pre_filter(pod: &Pod, snapshot: &Snapshot) -> Option<PreFilterState> {
    if !has_filter_constraints(pod) {
        return None;
    }
    let constraints = constraints_for(pod, snapshot, "DoNotSchedule");
    if constraints.is_empty() {
        return None;
    }
    let ns = pod.metadata.namespace.as_deref().unwrap_or("");
    let mut counts = BTreeMap::new();
    for info in snapshot.nodes() {
        let labels = node_labels(info.node);
        if !node_labels_match_spread_constraints(labels, &constraints) {
            continue;
        }
        for c in &constraints {
            if !match_node_inclusion_policies(c, pod, info.node) {
                continue;
            }
            let pair = (c.topology_key.clone(), labels[&c.topology_key].clone());
            *counts.entry(pair).or_default() +=
                count_pods_match_selector(info.pods(), &c.selector, ns);
        }
    }
    Some(PreFilterState {
        constraints,
        tp_pair_to_match_num: counts,
    })
}

/// Filter: the node must carry every topology key (UnschedulableAndUnresolvable otherwise), and
/// placing the pod there must keep `matching + self − global minimum ≤ maxSkew` (Unschedulable).
/// Upstream: `PodTopologySpread.Filter`.
pub fn filter(pod: &Pod, state: &PreFilterState, node: &Node) -> Result<(), Status> {
    let labels = node_labels(node);
    for c in &state.constraints {
        let Some(value) = labels.get(&c.topology_key) else {
            return Err(Status::new(
                Code::UnschedulableAndUnresolvable,
                NAME,
                ERR_REASON_NODE_LABEL_NOT_MATCH,
            ));
        };
        let min_match = state.min_match_num(&c.topology_key, c.min_domains);
        let self_match = i64::from(c.selector.matches(pod_labels(pod)));
        let match_num = state
            .tp_pair_to_match_num
            .get(&(c.topology_key.clone(), value.clone()))
            .copied()
            .unwrap_or(0);
        if match_num + self_match - min_match > c.max_skew {
            return Err(Status::new(
                Code::Unschedulable,
                NAME,
                ERR_REASON_CONSTRAINTS_NOT_MATCH,
            ));
        }
    }
    Ok(())
}

/// What PreScore computed (upstream `preScoreState`).
#[derive(Clone, Debug)]
pub struct PreScoreState {
    constraints: Vec<Constraint>,
    /// Snapshot indices of feasible nodes missing a topology key (own constraints only).
    ignored_nodes: Vec<usize>,
    /// Per constraint: domain value → matching pods (hostname counted in Score instead).
    topology_value_to_pod_counts: Vec<BTreeMap<String, i64>>,
    /// Per constraint: ln(number of domains + 2).
    topology_normalizing_weight: Vec<f64>,
}

impl PreScoreState {
    /// Whether the node (snapshot index) is left out of scoring.
    pub fn is_ignored(&self, index: usize) -> bool {
        self.ignored_nodes.contains(&index)
    }
}

/// Upstream: `topologyNormalizingWeight`.
fn topology_normalizing_weight(size: usize) -> f64 {
    ((size + 2) as f64).ln()
}

/// Upstream: `scoreForCount`.
fn score_for_count(count: i64, max_skew: i64, weight: f64) -> f64 {
    count as f64 * weight + (max_skew - 1) as f64
}

/// PreScore: `None` (Skip) without `ScheduleAnyway` constraints (own or system default). Upstream:
/// `PodTopologySpread.PreScore` + `initPreScoreState`.
pub fn pre_score(pod: &Pod, snapshot: &Snapshot, feasible: &[usize]) -> Option<PreScoreState> {
    let constraints = constraints_for(pod, snapshot, "ScheduleAnyway");
    if constraints.is_empty() {
        return None;
    }
    let require_all_topologies = pod
        .spec
        .as_ref()
        .and_then(|s| s.topology_spread_constraints.as_ref())
        .is_some_and(|c| !c.is_empty());
    let nodes = snapshot.nodes();
    let mut state = PreScoreState {
        ignored_nodes: Vec::new(),
        topology_value_to_pod_counts: vec![BTreeMap::new(); constraints.len()],
        topology_normalizing_weight: Vec::new(),
        constraints,
    };
    // Score reads a domain's count only on nodes that carry the key. Nodes without it fall into
    // the "" domain (as upstream's map lookup gives), whose count is needed only when a feasible
    // node carries the key with an empty value: counting it otherwise walks every pod for nothing.
    let mut empty_value_scored = vec![false; state.constraints.len()];
    for &i in feasible {
        let labels = node_labels(nodes[i].node);
        if require_all_topologies
            && !node_labels_match_spread_constraints(labels, &state.constraints)
        {
            state.ignored_nodes.push(i);
            continue;
        }
        for (k, c) in state.constraints.iter().enumerate() {
            if c.topology_key != LABEL_HOSTNAME {
                let value = labels.get(&c.topology_key);
                empty_value_scored[k] |= value.is_some_and(String::is_empty);
                state.topology_value_to_pod_counts[k]
                    .entry(value.cloned().unwrap_or_default())
                    .or_default();
            }
        }
    }
    state.topology_normalizing_weight = state
        .constraints
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let size = if c.topology_key == LABEL_HOSTNAME {
                feasible.len() - state.ignored_nodes.len()
            } else {
                state.topology_value_to_pod_counts[k].len()
            };
            topology_normalizing_weight(size)
        })
        .collect();
    let ns = pod.metadata.namespace.as_deref().unwrap_or("");
    for info in nodes {
        let labels = node_labels(info.node);
        if require_all_topologies
            && !node_labels_match_spread_constraints(labels, &state.constraints)
        {
            continue;
        }
        for (k, c) in state.constraints.iter().enumerate() {
            // Only the domains of feasible nodes are counted here (never the hostname key's: Score
            // counts a node's own pods); the policy check comes after, with the same outcome.
            let value = labels.get(&c.topology_key).map_or("", String::as_str);
            if value.is_empty() && !empty_value_scored[k] {
                continue;
            }
            let Some(count) = state.topology_value_to_pod_counts[k].get_mut(value) else {
                continue;
            };
            if match_node_inclusion_policies(c, pod, info.node) {
                *count += count_pods_match_selector(info.pods(), &c.selector, ns);
            }
        }
    }
    Some(state)
}

/// Score: Σ over constraints whose key the node has of `count × weight + maxSkew − 1`, rounded
/// (lower is better; NormalizeScore flips it). Upstream: `PodTopologySpread.Score`.
pub fn score(pod: &Pod, state: &PreScoreState, index: usize, info: &NodeInfo) -> i64 {
    if state.is_ignored(index) {
        return 0;
    }
    let labels = node_labels(info.node);
    let ns = pod.metadata.namespace.as_deref().unwrap_or("");
    let mut score = 0.0;
    for (k, c) in state.constraints.iter().enumerate() {
        let Some(value) = labels.get(&c.topology_key) else {
            continue;
        };
        let count = if c.topology_key == LABEL_HOSTNAME {
            count_pods_match_selector(info.pods(), &c.selector, ns)
        } else {
            state.topology_value_to_pod_counts[k]
                .get(value)
                .copied()
                .unwrap_or(0)
        };
        score += score_for_count(count, c.max_skew, state.topology_normalizing_weight[k]);
    }
    score.round() as i64
}

/// Flips and scales: `100 × (max + min − score) / max` (all 100 when max is 0; ignored nodes 0).
/// `indices` are the snapshot indices of `scores`. Upstream: `PodTopologySpread.NormalizeScore`.
pub fn normalize_score(state: &PreScoreState, indices: &[usize], scores: &mut [i64]) {
    let counted = || {
        indices
            .iter()
            .zip(scores.iter())
            .filter(|(i, _)| !state.is_ignored(**i))
            .map(|(_, s)| *s)
    };
    let min = counted().min().unwrap_or(i64::MAX);
    let max = counted().max().unwrap_or(0).max(0);
    for (i, s) in indices.iter().zip(scores.iter_mut()) {
        *s = if state.is_ignored(*i) {
            0
        } else if max == 0 {
            MAX_NODE_SCORE
        } else {
            MAX_NODE_SCORE * (max + min - *s) / max
        };
    }
}
