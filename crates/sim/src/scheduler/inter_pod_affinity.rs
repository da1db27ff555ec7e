//! InterPodAffinity: the pod's required affinity / anti-affinity terms and existing pods' required
//! anti-affinity terms (PreFilter + Filter), and preferred terms of both sides (PreScore + Score +
//! NormalizeScore, weight 2).
//!
//! PreFilter counts, per topology pair (`key=value` of a node label), the existing pods that match the
//! incoming pod's terms and the existing pods whose anti-affinity terms match the incoming pod; Filter
//! then only reads the node's labels. PreFilter returns `None` (upstream `Skip`) when the pod has no
//! required terms and no existing pod's anti-affinity term matches it, so ordinary pods cost nothing.
//!
//! Upstream: `pkg/scheduler/framework/plugins/interpodaffinity/{filtering,scoring,plugin}.go` and
//! `framework.NewPodInfo` / `AffinityTerm.Matches` (`pkg/scheduler/framework/types.go`).

use super::node_resources_fit::MAX_NODE_SCORE;
use super::{Code, Snapshot, Status};
use dsplay_api::selector::{from_label_selector, Selector};
use dsplay_api::types::{Node, Pod};
use k8s_openapi::api::core::v1::{PodAffinityTerm, WeightedPodAffinityTerm};
use std::collections::{BTreeMap, BTreeSet};

/// Plugin name.
pub const NAME: &str = "InterPodAffinity";
/// Score weight in the default profile.
pub const WEIGHT: i64 = 2;
/// `hardPodAffinityWeight` default: the score an existing pod's required affinity term gives.
pub const HARD_POD_AFFINITY_WEIGHT: i64 = 1;
/// `ErrReasonAffinityRulesNotMatch`.
pub const ERR_REASON_AFFINITY_RULES_NOT_MATCH: &str = "node(s) didn't match pod affinity rules";
/// `ErrReasonAntiAffinityRulesNotMatch`.
pub const ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH: &str =
    "node(s) didn't match pod anti-affinity rules";
/// `ErrReasonExistingAntiAffinityRulesNotMatch`.
pub const ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH: &str =
    "node(s) didn't satisfy existing pods anti-affinity rules";

type Labels = BTreeMap<String, String>;
/// (topology key, value) → count.
type TopologyCounts = BTreeMap<(String, String), i64>;

/// A parsed `PodAffinityTerm` (upstream `framework.AffinityTerm`).
#[derive(Clone, Debug)]
pub struct AffinityTerm {
    /// Namespaces the term applies to (the owner's namespace when neither list nor selector is set).
    pub namespaces: BTreeSet<String>,
    /// Namespace label selector (nil = matches nothing).
    pub namespace_selector: Selector,
    /// Pod label selector.
    pub selector: Selector,
    /// Node label whose value forms the topology domain.
    pub topology_key: String,
}

impl AffinityTerm {
    /// Whether `pod` (whose namespace has labels `ns_labels`) matches the term. Upstream:
    /// `AffinityTerm.Matches`.
    pub fn matches(&self, pod: &Pod, ns_labels: &Labels) -> bool {
        self.matches_in(
            pod.metadata.namespace.as_deref().unwrap_or(""),
            pod.metadata.labels.as_ref().unwrap_or(&Labels::new()),
            ns_labels,
        )
    }

    /// [`AffinityTerm::matches`] for a pod given by its namespace and labels.
    fn matches_in(&self, ns: &str, labels: &Labels, ns_labels: &Labels) -> bool {
        (self.namespaces.contains(ns) || self.namespace_selector.matches(ns_labels))
            && self.selector.matches(labels)
    }
}

/// Parses one term of `owner`. An invalid selector selects nothing. Upstream: `newAffinityTerm`.
pub fn new_affinity_term(owner: &Pod, term: &PodAffinityTerm) -> AffinityTerm {
    let nothing = || Selector {
        requirements: Vec::new(),
        nothing: true,
    };
    let mut namespaces: BTreeSet<String> = term.namespaces.iter().flatten().cloned().collect();
    if namespaces.is_empty() && term.namespace_selector.is_none() {
        namespaces.insert(owner.metadata.namespace.clone().unwrap_or_default());
    }
    AffinityTerm {
        namespaces,
        namespace_selector: from_label_selector(term.namespace_selector.as_ref())
            .unwrap_or_else(|_| nothing()),
        selector: from_label_selector(term.label_selector.as_ref()).unwrap_or_else(|_| nothing()),
        topology_key: term.topology_key.clone(),
    }
}

/// The four term lists of a pod (upstream `framework.PodInfo`'s parsed terms).
#[derive(Clone, Debug, Default)]
pub struct PodTerms {
    /// `podAffinity.requiredDuringScheduling…`.
    pub required_affinity: Vec<AffinityTerm>,
    /// `podAntiAffinity.requiredDuringScheduling…`.
    pub required_anti_affinity: Vec<AffinityTerm>,
    /// `podAffinity.preferredDuringScheduling…` with weights.
    pub preferred_affinity: Vec<(AffinityTerm, i64)>,
    /// `podAntiAffinity.preferredDuringScheduling…` with weights.
    pub preferred_anti_affinity: Vec<(AffinityTerm, i64)>,
}

/// Parses a pod's inter-pod affinity terms. Upstream: `framework.NewPodInfo` (`getAffinityTerms`,
/// `getWeightedAffinityTerms`).
pub fn pod_terms(pod: &Pod) -> PodTerms {
    let Some(affinity) = pod.spec.as_ref().and_then(|s| s.affinity.as_ref()) else {
        return PodTerms::default();
    };
    let required = |terms: Option<&Vec<PodAffinityTerm>>| -> Vec<AffinityTerm> {
        terms
            .into_iter()
            .flatten()
            .map(|t| new_affinity_term(pod, t))
            .collect()
    };
    let preferred = |terms: Option<&Vec<WeightedPodAffinityTerm>>| -> Vec<(AffinityTerm, i64)> {
        terms
            .into_iter()
            .flatten()
            .map(|t| {
                (
                    new_affinity_term(pod, &t.pod_affinity_term),
                    i64::from(t.weight),
                )
            })
            .collect()
    };
    let (aff_required, aff_preferred) = affinity.pod_affinity.as_ref().map_or((None, None), |a| {
        (
            a.required_during_scheduling_ignored_during_execution
                .as_ref(),
            a.preferred_during_scheduling_ignored_during_execution
                .as_ref(),
        )
    });
    let (anti_required, anti_preferred) =
        affinity
            .pod_anti_affinity
            .as_ref()
            .map_or((None, None), |a| {
                (
                    a.required_during_scheduling_ignored_during_execution
                        .as_ref(),
                    a.preferred_during_scheduling_ignored_during_execution
                        .as_ref(),
                )
            });
    PodTerms {
        required_affinity: required(aff_required),
        required_anti_affinity: required(anti_required),
        preferred_affinity: preferred(aff_preferred),
        preferred_anti_affinity: preferred(anti_preferred),
    }
}

/// Whether the pod has `podAffinity` or `podAntiAffinity` set (upstream `PodsWithAffinity` membership).
pub fn has_pod_affinity(pod: &Pod) -> bool {
    pod.spec
        .as_ref()
        .and_then(|s| s.affinity.as_ref())
        .is_some_and(|a| a.pod_affinity.is_some() || a.pod_anti_affinity.is_some())
}

/// Whether the pod has required affinity (`anti` false) or anti-affinity (`anti` true) terms.
fn has_required(pod: &Pod, anti: bool) -> bool {
    let Some(affinity) = pod.spec.as_ref().and_then(|s| s.affinity.as_ref()) else {
        return false;
    };
    let terms = if anti {
        affinity.pod_anti_affinity.as_ref().and_then(|a| {
            a.required_during_scheduling_ignored_during_execution
                .as_ref()
        })
    } else {
        affinity.pod_affinity.as_ref().and_then(|a| {
            a.required_during_scheduling_ignored_during_execution
                .as_ref()
        })
    };
    terms.is_some_and(|t| !t.is_empty())
}

/// Whether the pod has required anti-affinity terms (upstream `PodsWithRequiredAntiAffinity`).
pub fn has_required_anti_affinity(pod: &Pod) -> bool {
    has_required(pod, true)
}

/// Whether the pod has required affinity or anti-affinity terms of its own.
pub fn has_required_terms(pod: &Pod) -> bool {
    has_required(pod, true) || has_required(pod, false)
}

/// Folds a term's namespace selector into its namespace list, using the cluster's namespaces, and
/// empties the selector. Upstream: `mergeAffinityTermNamespacesIfNotEmpty`.
fn merge_affinity_term_namespaces_if_not_empty(term: &mut AffinityTerm, snapshot: &Snapshot) {
    if term.namespace_selector.nothing {
        return;
    }
    for (name, labels) in snapshot.namespace_labels() {
        if term.namespace_selector.matches(labels) {
            term.namespaces.insert(name.to_string());
        }
    }
    term.namespace_selector = Selector {
        requirements: Vec::new(),
        nothing: true,
    };
}

/// True iff `pod` matches every term (false for no terms). Upstream: `podMatchesAllAffinityTerms`.
fn pod_matches_all_affinity_terms(terms: &[AffinityTerm], pod: &Pod) -> bool {
    !terms.is_empty() && terms.iter().all(|t| t.matches(pod, &Labels::new()))
}

fn add_count(counts: &mut TopologyCounts, key: &str, value: &str, delta: i64) {
    let entry = counts
        .entry((key.to_string(), value.to_string()))
        .or_default();
    *entry += delta;
    if *entry == 0 {
        counts.remove(&(key.to_string(), value.to_string()));
    }
}

fn node_labels(node: &Node) -> &Labels {
    static EMPTY: Labels = Labels::new();
    node.metadata.labels.as_ref().unwrap_or(&EMPTY)
}

/// What PreFilter computed (upstream `preFilterState`).
#[derive(Clone, Debug)]
pub struct PreFilterState {
    /// The incoming pod's required terms (namespace selectors merged).
    terms: PodTerms,
    /// Whether the incoming pod matches all its own required affinity terms.
    matches_own_affinity: bool,
    /// The incoming pod's namespace, its labels, and the labels of its namespace.
    pod_namespace: String,
    pod_labels: Labels,
    namespace_labels: Labels,
    /// Pairs where existing pods' anti-affinity terms match the incoming pod.
    existing_anti_affinity_counts: TopologyCounts,
    /// Pairs where existing pods match all the incoming pod's affinity terms.
    affinity_counts: TopologyCounts,
    /// Pairs where existing pods match an incoming anti-affinity term.
    anti_affinity_counts: TopologyCounts,
}

impl PreFilterState {
    /// Adds (`delta` 1) or removes (-1) `other` on `node` in the counts, for preemption's dry runs and
    /// nominated pods. Upstream: `preFilterState.updateWithPod` (AddPod / RemovePod).
    pub fn update_with_pod(&mut self, other: &Pod, node: &Node, delta: i64) {
        let labels = node_labels(node);
        for term in pod_terms(other).required_anti_affinity {
            if term.matches_in(
                &self.pod_namespace,
                &self.pod_labels,
                &self.namespace_labels,
            ) {
                if let Some(v) = labels.get(&term.topology_key) {
                    add_count(
                        &mut self.existing_anti_affinity_counts,
                        &term.topology_key,
                        v,
                        delta,
                    );
                }
            }
        }
        update_with_affinity_terms(
            &mut self.affinity_counts,
            &self.terms.required_affinity,
            other,
            labels,
            delta,
        );
        update_with_anti_affinity_terms(
            &mut self.anti_affinity_counts,
            &self.terms.required_anti_affinity,
            other,
            labels,
            delta,
        );
    }
}

/// Counts `target` once per affinity term's topology pair when it matches all the terms. Upstream:
/// `topologyToMatchedTermCount.updateWithAffinityTerms`.
fn update_with_affinity_terms(
    counts: &mut TopologyCounts,
    terms: &[AffinityTerm],
    target: &Pod,
    node_labels: &Labels,
    delta: i64,
) {
    if pod_matches_all_affinity_terms(terms, target) {
        for t in terms {
            if let Some(v) = node_labels.get(&t.topology_key) {
                add_count(counts, &t.topology_key, v, delta);
            }
        }
    }
}

/// Counts `target` for every anti-affinity term it matches. Upstream:
/// `topologyToMatchedTermCount.updateWithAntiAffinityTerms`.
fn update_with_anti_affinity_terms(
    counts: &mut TopologyCounts,
    terms: &[AffinityTerm],
    target: &Pod,
    node_labels: &Labels,
    delta: i64,
) {
    for t in terms {
        if t.matches(target, &Labels::new()) {
            if let Some(v) = node_labels.get(&t.topology_key) {
                add_count(counts, &t.topology_key, v, delta);
            }
        }
    }
}

/// PreFilter: `None` (Skip) when neither the pod nor any existing pod has a required term that
/// concerns it. Upstream: `InterPodAffinity.PreFilter` (`getExistingAntiAffinityCounts`,
/// `getIncomingAffinityAntiAffinityCounts`).
pub fn pre_filter(pod: &Pod, snapshot: &Snapshot) -> Option<PreFilterState> {
    if !snapshot.has_pods_with_required_anti_affinity() && !has_required_terms(pod) {
        return None;
    }
    let mut terms = pod_terms(pod);
    terms.preferred_affinity.clear();
    terms.preferred_anti_affinity.clear();
    for t in terms
        .required_affinity
        .iter_mut()
        .chain(terms.required_anti_affinity.iter_mut())
    {
        merge_affinity_term_namespaces_if_not_empty(t, snapshot);
    }
    let ns = pod.metadata.namespace.as_deref().unwrap_or("");
    let mut state = PreFilterState {
        matches_own_affinity: pod_matches_all_affinity_terms(&terms.required_affinity, pod),
        terms,
        pod_namespace: ns.to_string(),
        pod_labels: pod.metadata.labels.clone().unwrap_or_default(),
        namespace_labels: snapshot.labels_of_namespace(ns),
        existing_anti_affinity_counts: TopologyCounts::new(),
        affinity_counts: TopologyCounts::new(),
        anti_affinity_counts: TopologyCounts::new(),
    };
    let has_own =
        !state.terms.required_affinity.is_empty() || !state.terms.required_anti_affinity.is_empty();
    for info in snapshot.nodes() {
        let labels = node_labels(info.node);
        for &existing in info.pods() {
            if has_required_anti_affinity(existing) {
                for term in pod_terms(existing).required_anti_affinity {
                    if term.matches(pod, &state.namespace_labels) {
                        if let Some(v) = labels.get(&term.topology_key) {
                            add_count(
                                &mut state.existing_anti_affinity_counts,
                                &term.topology_key,
                                v,
                                1,
                            );
                        }
                    }
                }
            }
            if has_own {
                update_with_affinity_terms(
                    &mut state.affinity_counts,
                    &state.terms.required_affinity,
                    existing,
                    labels,
                    1,
                );
                update_with_anti_affinity_terms(
                    &mut state.anti_affinity_counts,
                    &state.terms.required_anti_affinity,
                    existing,
                    labels,
                    1,
                );
            }
        }
    }
    if state.existing_anti_affinity_counts.is_empty() && !has_own {
        return None;
    }
    Some(state)
}

/// Whether no existing pod's anti-affinity term rejects the incoming pod in this node's domains.
/// Upstream: `satisfyExistingPodsAntiAffinity`.
fn satisfy_existing_pods_anti_affinity(state: &PreFilterState, node: &Node) -> bool {
    state.existing_anti_affinity_counts.is_empty()
        || !node_labels(node).iter().any(|(k, v)| {
            state
                .existing_anti_affinity_counts
                .get(&(k.clone(), v.clone()))
                .is_some_and(|&c| c > 0)
        })
}

/// Whether no pod matching an incoming anti-affinity term is in this node's domain. Upstream:
/// `satisfyPodAntiAffinity`.
fn satisfy_pod_anti_affinity(state: &PreFilterState, node: &Node) -> bool {
    let labels = node_labels(node);
    state.anti_affinity_counts.is_empty()
        || !state.terms.required_anti_affinity.iter().any(|t| {
            labels.get(&t.topology_key).is_some_and(|v| {
                state
                    .anti_affinity_counts
                    .get(&(t.topology_key.clone(), v.clone()))
                    .is_some_and(|&c| c > 0)
            })
        })
}

/// Whether every incoming affinity term has a matching pod in this node's domain (the node must
/// carry every topology key), or — the first pod of a group that selects itself — no pod matches
/// anywhere and the pod matches its own terms. Upstream: `satisfyPodAffinity`.
fn satisfy_pod_affinity(state: &PreFilterState, node: &Node) -> bool {
    let labels = node_labels(node);
    let mut pods_exist = true;
    for t in &state.terms.required_affinity {
        match labels.get(&t.topology_key) {
            Some(v) => {
                let count = state
                    .affinity_counts
                    .get(&(t.topology_key.clone(), v.clone()))
                    .copied()
                    .unwrap_or(0);
                if count <= 0 {
                    pods_exist = false;
                }
            }
            None => return false,
        }
    }
    pods_exist || (state.affinity_counts.is_empty() && state.matches_own_affinity)
}

/// Filter. Affinity failures are UnschedulableAndUnresolvable (removing pods cannot create a match);
/// anti-affinity failures are Unschedulable (preemption may remove the offending pods). Upstream:
/// `InterPodAffinity.Filter`.
pub fn filter(state: &PreFilterState, node: &Node) -> Result<(), Status> {
    if !satisfy_pod_affinity(state, node) {
        return Err(Status::new(
            Code::UnschedulableAndUnresolvable,
            NAME,
            ERR_REASON_AFFINITY_RULES_NOT_MATCH,
        ));
    }
    if !satisfy_pod_anti_affinity(state, node) {
        return Err(Status::new(
            Code::Unschedulable,
            NAME,
            ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
        ));
    }
    if !satisfy_existing_pods_anti_affinity(state, node) {
        return Err(Status::new(
            Code::Unschedulable,
            NAME,
            ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
        ));
    }
    Ok(())
}

/// topology key → value → score (upstream `scoreMap`).
pub type ScoreMap = BTreeMap<String, BTreeMap<String, i64>>;

/// Adds `weight × multiplier` to the term's domain of `node` when `pod` matches the term. Upstream:
/// `scoreMap.processTerm`.
fn process_term(
    map: &mut ScoreMap,
    term: &AffinityTerm,
    weight: i64,
    pod: &Pod,
    ns_labels: &Labels,
    node: &Labels,
    multiplier: i64,
) {
    if term.matches(pod, ns_labels) {
        if let Some(v) = node.get(&term.topology_key) {
            *map.entry(term.topology_key.clone())
                .or_default()
                .entry(v.clone())
                .or_default() += weight * multiplier;
        }
    }
}

/// Upstream: `scoreMap.processTerms`.
fn process_terms(
    map: &mut ScoreMap,
    terms: &[(AffinityTerm, i64)],
    pod: &Pod,
    ns_labels: &Labels,
    node: &Labels,
    multiplier: i64,
) {
    for (term, weight) in terms {
        process_term(map, term, *weight, pod, ns_labels, node, multiplier);
    }
}

/// PreScore: the per-domain scores from the incoming pod's preferred terms and existing pods'
/// required-affinity (weight 1) and preferred terms. `None` (Skip) when nothing scored. Upstream:
/// `InterPodAffinity.PreScore` + `processExistingPod`.
pub fn pre_score(pod: &Pod, snapshot: &Snapshot) -> Option<ScoreMap> {
    let mut terms = pod_terms(pod);
    let has_constraints =
        !terms.preferred_affinity.is_empty() || !terms.preferred_anti_affinity.is_empty();
    if !has_constraints && !snapshot.has_pods_with_affinity() {
        return None;
    }
    for (t, _) in terms
        .preferred_affinity
        .iter_mut()
        .chain(terms.preferred_anti_affinity.iter_mut())
    {
        merge_affinity_term_namespaces_if_not_empty(t, snapshot);
    }
    let ns_labels = snapshot.labels_of_namespace(pod.metadata.namespace.as_deref().unwrap_or(""));
    let none = Labels::new();
    let mut map = ScoreMap::new();
    for info in snapshot.nodes() {
        let labels = node_labels(info.node);
        if labels.is_empty() {
            continue;
        }
        for &existing in info.pods() {
            if !has_constraints && !has_pod_affinity(existing) {
                continue;
            }
            process_terms(
                &mut map,
                &terms.preferred_affinity,
                existing,
                &none,
                labels,
                1,
            );
            process_terms(
                &mut map,
                &terms.preferred_anti_affinity,
                existing,
                &none,
                labels,
                -1,
            );
            if !has_pod_affinity(existing) {
                continue;
            }
            let theirs = pod_terms(existing);
            for t in &theirs.required_affinity {
                process_term(
                    &mut map,
                    t,
                    HARD_POD_AFFINITY_WEIGHT,
                    pod,
                    &ns_labels,
                    labels,
                    1,
                );
            }
            process_terms(
                &mut map,
                &theirs.preferred_affinity,
                pod,
                &ns_labels,
                labels,
                1,
            );
            process_terms(
                &mut map,
                &theirs.preferred_anti_affinity,
                pod,
                &ns_labels,
                labels,
                -1,
            );
        }
    }
    (!map.is_empty()).then_some(map)
}

/// Score: the sum of the node's domains' scores. Upstream: `InterPodAffinity.Score`.
pub fn score(map: &ScoreMap, node: &Node) -> i64 {
    let labels = node_labels(node);
    map.iter()
        .filter_map(|(key, values)| labels.get(key).map(|v| values.get(v).copied().unwrap_or(0)))
        .sum()
}

/// Min-max scaling to 0–100 (all 0 when every node scored the same). Upstream:
/// `InterPodAffinity.NormalizeScore`.
pub fn normalize_score(scores: &mut [i64]) {
    let (Some(&min), Some(&max)) = (scores.iter().min(), scores.iter().max()) else {
        return;
    };
    let diff = max - min;
    for s in scores.iter_mut() {
        *s = if diff > 0 {
            (MAX_NODE_SCORE as f64 * ((*s - min) as f64 / diff as f64)) as i64
        } else {
            0
        };
    }
}
