//! `rollingUpdate`: replacing old pods within maxUnavailable (delete first) or maxSurge (create first).
//! Upstream: pkg/controller/daemon/update.go rollingUpdate
//!
//! Assumptions: manage already ran in this sync and its creates/deletes are observed.
//! Invariants: with maxSurge = 0, at most maxUnavailable desired nodes lack an available pod, except
//! nodes whose old pod was already unavailable (those are replaced regardless of the budget).

use super::util::*;
use super::{sync_nodes, template_generation, NodeToPods};
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
pub fn max_surge(ds: &DaemonSet, desired: i32) -> i32 {
    rolling(ds)
        .and_then(|r| r.max_surge)
        .and_then(|v| scaled_value(&v, desired, true).ok())
        .unwrap_or(0)
}

/// `UnavailableCount`: maxUnavailable scaled against `desired`, rounded up.
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

/// `rollingUpdate`.
pub(crate) fn rolling_update<'a>(
    cluster: &mut Cluster,
    ds: &DaemonSet,
    nodes: &[Node],
    node_to_pods: &'a NodeToPods,
    hash: &str,
) {
    let now = cluster.now_ms;
    let min_ready = ds
        .spec
        .as_ref()
        .and_then(|s| s.min_ready_seconds)
        .unwrap_or(0);
    let template_generation = template_generation(ds);
    // updatedDesiredNodeCounts: desired nodes, each with an entry.
    let mut map: Vec<(String, &[Pod], bool)> = Vec::new();
    let mut desired = 0;
    for node in nodes {
        let placement = node_should_run_daemon_pod(node, ds);
        let name = node.metadata.name.clone().unwrap_or_default();
        if placement.should_run {
            desired += 1;
        }
        match node_to_pods.get(&name) {
            Some(pods) => map.push((name, pods.as_slice(), placement.should_run)),
            None if placement.should_run => map.push((name, &[], true)),
            None => {}
        }
    }
    let (max_unavailable, max_surge) = budgets(ds, desired);
    let classify = |pods: &'a [Pod]| -> Option<(Option<&'a Pod>, Option<&'a Pod>)> {
        let live: Vec<&Pod> = pods
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .collect();
        let (new, old): (Vec<&Pod>, Vec<&Pod>) = live
            .into_iter()
            .partition(|p| is_pod_updated(p, hash, template_generation.as_deref()));
        if new.len() > 1 || old.len() > 1 {
            return None;
        }
        Some((new.first().copied(), old.first().copied()))
    };
    if max_surge == 0 {
        let mut num_unavailable = 0;
        let mut allowed_replacement = Vec::new();
        let mut candidates = Vec::new();
        for (_, pods, _) in &map {
            let Some((new, old)) = classify(pods) else {
                num_unavailable += 1;
                continue;
            };
            match (new, old) {
                (None, None) | (Some(_), Some(_)) => num_unavailable += 1,
                (Some(new), None) => {
                    if !is_pod_available(new, min_ready, now) {
                        num_unavailable += 1;
                    }
                }
                (None, Some(old)) => {
                    if !is_pod_available(old, min_ready, now) {
                        allowed_replacement.push(old);
                        num_unavailable += 1;
                    } else if num_unavailable >= max_unavailable {
                        continue;
                    } else {
                        candidates.push(old);
                    }
                }
            }
        }
        let remaining =
            (max_unavailable - num_unavailable).clamp(0, candidates.len() as i32) as usize;
        let mut to_delete = allowed_replacement;
        to_delete.extend(candidates.into_iter().take(remaining));
        let to_delete: Vec<Pod> = to_delete.into_iter().cloned().collect();
        sync_nodes(cluster, ds, &to_delete, &[], hash);
        return;
    }
    // Surge path.
    let mut num_surge = 0;
    let mut num_available = 0;
    let mut allowed_new_nodes = Vec::new();
    let mut candidate_new_nodes = Vec::new();
    let mut should_not_run = Vec::new();
    let mut to_delete = Vec::new();
    for (node, pods, should_run) in &map {
        let Some((new, old)) = classify(pods) else {
            num_surge += 1;
            continue;
        };
        // Availability of the node: its old pod's if it has one, else its new pod's.
        if let Some(pod) = old.as_ref().or(new.as_ref()) {
            if is_pod_available(pod, min_ready, now) {
                num_available += 1;
            }
        }
        match (new, old) {
            (_, None) => {}
            (None, Some(old)) => {
                if !is_pod_available(old, min_ready, now) {
                    if !should_run {
                        to_delete.push(old);
                    } else {
                        allowed_new_nodes.push(node.clone());
                    }
                } else if !should_run {
                    should_not_run.push(old);
                } else if num_surge >= max_surge {
                    continue;
                } else {
                    candidate_new_nodes.push(node.clone());
                }
            }
            (Some(new), Some(old)) => {
                if !is_pod_available(new, min_ready, now) {
                    num_surge += 1;
                } else {
                    to_delete.push(old);
                }
            }
        }
    }
    let remaining = (max_surge - num_surge).clamp(0, candidate_new_nodes.len() as i32) as usize;
    let mut create = allowed_new_nodes;
    create.extend(candidate_new_nodes.into_iter().take(remaining));
    let excess = num_available - desired;
    if excess > 0 {
        to_delete.extend(should_not_run.into_iter().take(excess as usize));
    }
    let to_delete: Vec<Pod> = to_delete.into_iter().cloned().collect();
    sync_nodes(cluster, ds, &to_delete, &create, hash);
}
