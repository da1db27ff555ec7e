//! Scoring: run every Score plugin (TaintToleration ×3, NodeAffinity ×2, NodeResourcesFit ×1,
//! PodTopologySpread ×2, InterPodAffinity ×2, NodeResourcesBalancedAllocation ×1) on the feasible nodes, normalise to 0–100, weight, sum, pick the best.
//!
//! Upstream: `schedule_one.go` (`prioritizeNodes`, `selectHost`), `plugins/helper/normalize_score.go`.

use super::node_resources_fit::{
    balanced_allocation_score, least_allocated_score, pod_non_zero_requests, BALANCED_WEIGHT,
    MAX_NODE_SCORE,
};
use super::{
    inter_pod_affinity, node_affinity, node_resources_fit, pod_topology_spread, taint_toleration,
    CycleState, Snapshot,
};
use dsplay_api::types::Pod;

/// Scales raw scores to 0–100 by the maximum (`reverse` flips them). With max 0: all 100 when reversed,
/// unchanged (0) otherwise. Upstream: `helper.DefaultNormalizeScore`.
pub fn default_normalize_score(scores: &mut [i64], reverse: bool) {
    let max = scores.iter().copied().max().unwrap_or(0);
    if max == 0 {
        if reverse {
            scores.iter_mut().for_each(|s| *s = MAX_NODE_SCORE);
        }
        return;
    }
    for s in scores.iter_mut() {
        *s = MAX_NODE_SCORE * *s / max;
        if reverse {
            *s = MAX_NODE_SCORE - *s;
        }
    }
}

/// One feasible node's total, with the per-plugin weighted parts (for `sim explain` / the UI).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeScore {
    /// Index in the snapshot.
    pub index: usize,
    /// Σ weighted plugin scores.
    pub total: i64,
    /// (plugin name, weighted score), in plugin order.
    pub parts: Vec<(&'static str, i64)>,
}

/// Scores `feasible` nodes (snapshot indices) with the default plugins and weights. Upstream:
/// `prioritizeNodes` (runs Score + NormalizeScore and multiplies by the weight).
pub fn prioritize_nodes(
    pod: &Pod,
    state: &CycleState,
    snapshot: &Snapshot,
    feasible: &[usize],
) -> Vec<NodeScore> {
    let nodes = snapshot.nodes();
    let node_of = |i: usize| snapshot.node_for_filter(i, pod, state.priority, &[]);

    let mut taint: Vec<i64> = feasible
        .iter()
        .map(|&i| taint_toleration::raw_score(pod, nodes[i].node))
        .collect();
    default_normalize_score(&mut taint, true);

    let mut affinity: Vec<i64> = feasible
        .iter()
        .map(|&i| node_affinity::raw_score(pod, nodes[i].node))
        .collect();
    default_normalize_score(&mut affinity, false);

    // PodTopologySpread and InterPodAffinity score 0 everywhere when their PreScore skips.
    let mut spread = vec![0; feasible.len()];
    if let Some(s) = pod_topology_spread::pre_score(pod, snapshot, feasible) {
        for (k, &i) in feasible.iter().enumerate() {
            spread[k] = pod_topology_spread::score(pod, &s, i, &nodes[i]);
        }
        pod_topology_spread::normalize_score(&s, feasible, &mut spread);
    }
    let mut inter_pod = vec![0; feasible.len()];
    if let Some(map) = inter_pod_affinity::pre_score(pod, snapshot) {
        for (k, &i) in feasible.iter().enumerate() {
            inter_pod[k] = inter_pod_affinity::score(&map, nodes[i].node);
        }
        inter_pod_affinity::normalize_score(&mut inter_pod);
    }

    let non_zero = pod_non_zero_requests(pod);
    let mut out = Vec::with_capacity(feasible.len());
    for (k, &i) in feasible.iter().enumerate() {
        let info = node_of(i);
        let fit = least_allocated_score(&non_zero, &info);
        let balanced = balanced_allocation_score(&state.request, &info).unwrap_or(0);
        let parts = vec![
            (taint_toleration::NAME, taint[k] * taint_toleration::WEIGHT),
            (node_affinity::NAME, affinity[k] * node_affinity::WEIGHT),
            (node_resources_fit::NAME, fit * node_resources_fit::WEIGHT),
            (
                pod_topology_spread::NAME,
                spread[k] * pod_topology_spread::WEIGHT,
            ),
            (
                inter_pod_affinity::NAME,
                inter_pod[k] * inter_pod_affinity::WEIGHT,
            ),
            (
                "NodeResourcesBalancedAllocation",
                balanced * BALANCED_WEIGHT,
            ),
        ];
        out.push(NodeScore {
            index: i,
            total: parts.iter().map(|(_, s)| s).sum(),
            parts,
        });
    }
    out
}

/// The node with the highest total; ties go to `rng_pick(number of tied nodes)` (called only when ≥ 2
/// nodes tie), indexing the tied nodes in snapshot order. Upstream: `selectHost` (reservoir sampling
/// over the top score). Panics if `scores` is empty.
pub fn select_host(scores: &[NodeScore], rng_pick: &mut dyn FnMut(usize) -> usize) -> usize {
    let best = scores
        .iter()
        .map(|s| s.total)
        .max()
        .expect("select_host needs at least one node");
    let tied: Vec<usize> = scores
        .iter()
        .filter(|s| s.total == best)
        .map(|s| s.index)
        .collect();
    if tied.len() == 1 {
        return tied[0];
    }
    let pick = rng_pick(tied.len());
    tied[pick.min(tied.len() - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_default_normalize_score() {
        // Mirrors upstream TestDefaultNormalizeScore (plugins/helper/normalize_score_test.go).
        let cases: [(bool, Vec<i64>, Vec<i64>); 6] = [
            (false, vec![1, 2, 3, 4], vec![25, 50, 75, 100]),
            (true, vec![1, 2, 3, 4], vec![75, 50, 25, 0]),
            (false, vec![1000, 10, 20, 30], vec![100, 1, 2, 3]),
            (true, vec![1000, 10, 20, 30], vec![0, 99, 98, 97]),
            (false, vec![0, 0, 0], vec![0, 0, 0]),
            (true, vec![0, 0, 0], vec![100, 100, 100]),
        ];
        for (reverse, mut scores, want) in cases {
            default_normalize_score(&mut scores, reverse);
            assert_eq!(scores, want, "reverse={reverse}");
        }
    }

    #[test]
    fn select_host_breaks_ties_with_rng() {
        let s = |index, total| NodeScore {
            index,
            total,
            parts: vec![],
        };
        let scores = [s(0, 10), s(1, 30), s(2, 30), s(3, 5)];
        let mut calls = vec![];
        assert_eq!(
            select_host(&scores, &mut |n| {
                calls.push(n);
                1
            }),
            2
        );
        assert_eq!(calls, vec![2]);
        assert_eq!(select_host(&scores[..2], &mut |_| panic!("no tie")), 1);
    }
}
