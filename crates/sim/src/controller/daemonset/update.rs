//! `rollingUpdate`: replacing old pods within maxUnavailable (delete first) or maxSurge (create first).
//! Upstream: pkg/controller/daemon/update.go rollingUpdate
//!
//! Assumptions: manage already ran in this sync and its creates/deletes are observed.
//! Invariants: with maxSurge = 0, at most maxUnavailable desired nodes lack an available pod, except
//! nodes whose old pod was already unavailable (those are replaced regardless of the budget).

use super::node_cache::{Context, DaemonSetCache};
use super::pod_summary::PodSummary;
use super::{sync_nodes, Refused};
use crate::cluster::Cluster;
use dsplay_api::int_or_percent::scaled_value;
use dsplay_api::types::*;

fn rolling(ds: &DaemonSet) -> Option<RollingUpdateDaemonSet> {
    let strategy = ds.spec.as_ref()?.update_strategy.as_ref()?;
    if strategy.type_.as_deref() == Some("OnDelete") {
        return None;
    }
    strategy.rolling_update.clone()
}

/// `SurgeCount`: maxSurge scaled against `desired`, rounded up (0 for OnDelete).
#[doc(alias = "SurgeCount")]
pub fn max_surge(ds: &DaemonSet, desired: i32) -> i32 {
    rolling(ds)
        .and_then(|r| r.max_surge)
        .and_then(|v| scaled_value(&v, desired, true).ok())
        .unwrap_or(0)
}

/// `UnavailableCount`: maxUnavailable scaled against `desired`, rounded up.
#[doc(alias = "UnavailableCount")]
pub fn max_unavailable(ds: &DaemonSet, desired: i32) -> i32 {
    rolling(ds)
        .and_then(|r| r.max_unavailable)
        .and_then(|v| scaled_value(&v, desired, true).ok())
        .unwrap_or(0)
}

/// Both budgets with the zero/zero safety net (maxUnavailable = 1).
pub fn budgets(ds: &DaemonSet, desired: i32) -> (i32, i32) {
    let surge = max_surge(ds, desired);
    let unavailable = max_unavailable(ds, desired);
    if desired > 0 && surge == 0 && unavailable == 0 {
        (1, 0)
    } else {
        (unavailable, surge)
    }
}

/// One node's part in `rollingUpdate`, for both paths (the DaemonSet's maxSurge picks which one is
/// used). The rollout sums these per node instead of re-walking every node on every sync.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct NodeRollout {
    /// maxSurge = 0: the node counts against maxUnavailable.
    pub zero_surge_unavailable: bool,
    /// maxSurge = 0: its old pod is unavailable and is replaced regardless of the budget.
    pub allowed_replacement: bool,
    /// maxSurge = 0: its old pod is available and is replaced within the budget.
    pub candidate: bool,
    /// maxSurge > 0: the node counts against maxSurge.
    pub uses_surge: bool,
    /// maxSurge > 0: the node's pod (old if any, else new) is available.
    pub surge_available: bool,
    /// maxSurge > 0: its old pod is deleted now.
    pub to_delete: bool,
    /// maxSurge > 0: it gets a new pod regardless of the budget.
    pub allowed_new_node: bool,
    /// maxSurge > 0: it gets a new pod within the budget.
    pub candidate_new_node: bool,
    /// maxSurge > 0: its available old pod runs on a node that should not run one.
    pub should_not_run: bool,
}

/// Classifies one node with pods or `shouldRun` (upstream's loop body over `nodeToDaemonPods`).
pub(crate) fn classify(pods: &[PodSummary], should_run: bool, cx: &Context) -> NodeRollout {
    let mut r = NodeRollout::default();
    let (mut new, mut old) = (Vec::new(), Vec::new());
    for pod in pods.iter().filter(|p| !p.terminating) {
        if cx.is_updated(pod) {
            new.push(pod);
        } else {
            old.push(pod);
        }
    }
    if new.len() > 1 || old.len() > 1 {
        // Several pods of one kind: upstream's findUpdatedPodsOnNode fails, the node counts as
        // unavailable (and as using surge).
        r.zero_surge_unavailable = true;
        r.uses_surge = true;
        return r;
    }
    let (new, old) = (new.first(), old.first());
    match (new, old) {
        (None, None) | (Some(_), Some(_)) => r.zero_surge_unavailable = true,
        (Some(new), None) => r.zero_surge_unavailable = !cx.is_available(new),
        (None, Some(old)) if !cx.is_available(old) => {
            r.allowed_replacement = true;
            r.zero_surge_unavailable = true;
        }
        (None, Some(_)) => r.candidate = true,
    }
    if let Some(pod) = old.or(new) {
        r.surge_available = cx.is_available(pod);
    }
    match (new, old) {
        (_, None) => {}
        (None, Some(old)) => match (cx.is_available(old), should_run) {
            (false, false) => r.to_delete = true,
            (false, true) => r.allowed_new_node = true,
            (true, false) => r.should_not_run = true,
            (true, true) => r.candidate_new_node = true,
        },
        (Some(new), Some(_)) => {
            if cx.is_available(new) {
                r.to_delete = true;
            } else {
                r.uses_surge = true;
            }
        }
    }
    r
}

/// `rollingUpdate`, from the per-node classes the cache keeps. Candidates are taken in node-name
/// order (upstream walks a Go map, so any order is faithful; this one is deterministic).
#[doc(alias = "rollingUpdate")]
pub(crate) fn rolling_update(
    cluster: &mut Cluster,
    cache: &DaemonSetCache,
    cx: &Context,
) -> Refused {
    let desired = cache.status.desired;
    let (max_unavailable, max_surge) = budgets(cx.ds, desired);
    let t = &cache.rollout;
    let old_pod = |node: &String| cache.old_pod(node, cx);
    if max_surge == 0 {
        let remaining =
            (max_unavailable - t.num_unavailable).clamp(0, t.candidates.len() as i32) as usize;
        let to_delete: Vec<String> = t
            .allowed_replacement
            .iter()
            .chain(t.candidates.iter().take(remaining))
            .filter_map(old_pod)
            .collect();
        return sync_nodes(cluster, cx.ds, &to_delete, &[], cx.hash);
    }
    let remaining = (max_surge - t.num_surge).clamp(0, t.candidate_new_nodes.len() as i32) as usize;
    let create: Vec<String> = t
        .allowed_new_nodes
        .iter()
        .chain(t.candidate_new_nodes.iter().take(remaining))
        .cloned()
        .collect();
    let excess = (t.num_available - desired).max(0) as usize;
    let to_delete: Vec<String> = t
        .to_delete
        .iter()
        .chain(t.should_not_run.iter().take(excess))
        .filter_map(old_pod)
        .collect();
    sync_nodes(cluster, cx.ds, &to_delete, &create, cx.hash)
}
