//! Which pods a ReplicaSet deletes first when it scales down.
//!
//! Upstream: pkg/controller/controller_utils.go `ActivePodsWithRanks`, and
//! pkg/controller/replicaset/replica_set.go `getPodsToDelete`, `getPodsRankedByRelatedPodsOnSameNode`.

use crate::controller::daemonset::util::ready_since_ms;
use dsplay_api::pod::is_pod_ready;
use dsplay_api::types::*;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::Arc;

/// `controller.IsPodActive`: not Succeeded, not Failed, not being deleted.
#[doc(alias = "IsPodActive")]
pub fn is_pod_active(pod: &Pod) -> bool {
    let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
    phase != Some("Succeeded")
        && phase != Some("Failed")
        && pod.metadata.deletion_timestamp.is_none()
}

fn node_name(pod: &Pod) -> &str {
    pod.spec
        .as_ref()
        .and_then(|s| s.node_name.as_deref())
        .unwrap_or("")
}

/// `podPhaseToOrdinal`: Pending 0 < Unknown 1 < Running 2 (anything else 0).
fn phase_ordinal(pod: &Pod) -> u8 {
    match pod.status.as_ref().and_then(|s| s.phase.as_deref()) {
        Some("Unknown") => 1,
        Some("Running") => 2,
        _ => 0,
    }
}

/// `⌊log2(now - t)⌋` in nanoseconds, -1 when `t` is not before `now` (`logarithmicRankDiff`'s rank).
fn log_rank(t_ms: i64, now_ms: i64) -> i64 {
    let d = (now_ms - t_ms).saturating_mul(1_000_000);
    if d <= 0 {
        -1
    } else {
        63 - i64::from(d.leading_zeros())
    }
}

fn max_restarts(pod: &Pod) -> i32 {
    pod.status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .into_iter()
        .flatten()
        .map(|c| c.restart_count)
        .max()
        .unwrap_or(0)
}

fn created_ms(pod: &Pod) -> Option<i64> {
    pod.metadata
        .creation_timestamp
        .as_ref()
        .map(|t| t.0.timestamp_millis())
}

/// Compares two timestamps the way `LogarithmicScaleDown` does: a missing one, or equal log2 ranks
/// of their age, fall back to `afterOrZero` / the uid.
fn logarithmic_less(a: Option<i64>, b: Option<i64>, pa: &Pod, pb: &Pod, now_ms: i64) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(a), Some(b)) => {
            let diff = log_rank(a, now_ms) - log_rank(b, now_ms);
            if diff == 0 {
                pa.metadata.uid.cmp(&pb.metadata.uid)
            } else {
                diff.cmp(&0)
            }
        }
    }
}

/// `ActivePodsWithRanks.Less`: the pod that sorts first is deleted first. Unassigned < assigned;
/// Pending < Unknown < Running; not ready < ready; higher rank (more related pods on its node)
/// first; ready for less time first (log2 buckets); more container restarts first; newer first.
#[doc(alias = "ActivePodsWithRanks")]
pub fn compare_pods_with_ranks(
    a: &Pod,
    rank_a: usize,
    b: &Pod,
    rank_b: usize,
    now_ms: i64,
) -> Ordering {
    let (na, nb) = (node_name(a), node_name(b));
    if na != nb && (na.is_empty() || nb.is_empty()) {
        return if na.is_empty() {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    let by_phase = phase_ordinal(a).cmp(&phase_ordinal(b));
    if by_phase != Ordering::Equal {
        return by_phase;
    }
    let (ready_a, ready_b) = (is_pod_ready(a), is_pod_ready(b));
    if ready_a != ready_b {
        return if ready_a {
            Ordering::Greater
        } else {
            Ordering::Less
        };
    }
    if rank_a != rank_b {
        return rank_b.cmp(&rank_a);
    }
    if ready_a && ready_b {
        let (ta, tb) = (
            ready_since_ms(a).filter(|t| *t > 0),
            ready_since_ms(b).filter(|t| *t > 0),
        );
        if ta != tb {
            let order = logarithmic_less(ta, tb, a, b, now_ms);
            if order != Ordering::Equal {
                return order;
            }
        }
    }
    let restarts = max_restarts(b).cmp(&max_restarts(a));
    if restarts != Ordering::Equal {
        return restarts;
    }
    let (ca, cb) = (created_ms(a), created_ms(b));
    if ca != cb {
        return logarithmic_less(ca, cb, a, b, now_ms);
    }
    Ordering::Equal
}

/// `getPodsToDelete`: the first `diff` pods of `filtered` ranked by how many active `related` pods
/// (the pods of every ReplicaSet of the same Deployment) share their node.
#[doc(alias = "getPodsToDelete")]
pub fn get_pods_to_delete(
    filtered: &[Arc<Pod>],
    related: &[Arc<Pod>],
    diff: usize,
    now_ms: i64,
) -> Vec<Arc<Pod>> {
    let mut pods = filtered.to_vec();
    if diff < pods.len() {
        let mut on_node: BTreeMap<&str, usize> = BTreeMap::new();
        for pod in related.iter().filter(|p| is_pod_active(p)) {
            *on_node.entry(node_name(pod)).or_default() += 1;
        }
        let rank = |p: &Pod| on_node.get(node_name(p)).copied().unwrap_or(0);
        pods.sort_by(|a, b| compare_pods_with_ranks(a, rank(a), b, rank(b), now_ms));
    }
    pods.truncate(diff);
    pods
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    const NOW: i64 = 1_767_225_600_000;

    fn pod(name: &str, node: &str, phase: &str, ready_at: Option<i64>, created: i64) -> Arc<Pod> {
        let time = |ms: i64| Time(chrono::Utc.timestamp_millis_opt(ms).unwrap());
        Arc::new(Pod {
            metadata: ObjectMeta {
                name: Some(name.into()),
                uid: Some(format!("uid-{name}")),
                creation_timestamp: Some(time(created)),
                ..Default::default()
            },
            spec: Some(PodSpec {
                node_name: (!node.is_empty()).then(|| node.to_string()),
                ..Default::default()
            }),
            status: Some(PodStatus {
                phase: Some(phase.into()),
                conditions: ready_at.map(|t| {
                    vec![PodCondition {
                        type_: "Ready".into(),
                        status: "True".into(),
                        last_transition_time: Some(time(t)),
                        ..Default::default()
                    }]
                }),
                ..Default::default()
            }),
        })
    }

    fn names(pods: &[Arc<Pod>]) -> Vec<&str> {
        pods.iter()
            .map(|p| p.metadata.name.as_deref().unwrap_or(""))
            .collect()
    }

    /// Port of TestSortingActivePodsWithRanks's ordering: each pod sorts before the next one.
    #[test]
    fn sorting_active_pods_with_ranks() {
        let ordered = [
            pod("unscheduled", "", "Pending", None, NOW - 1000),
            pod("scheduled-pending", "n1", "Pending", None, NOW - 1000),
            pod("unknown", "n1", "Unknown", None, NOW - 1000),
            pod("running-not-ready", "n1", "Running", None, NOW - 1000),
            pod(
                "ready-recently",
                "n1",
                "Running",
                Some(NOW - 1_000),
                NOW - 100_000,
            ),
            pod(
                "ready-long-ago",
                "n1",
                "Running",
                Some(NOW - 1_000_000),
                NOW - 2_000_000,
            ),
        ];
        for pair in ordered.windows(2) {
            assert_eq!(
                compare_pods_with_ranks(&pair[0], 0, &pair[1], 0, NOW),
                Ordering::Less,
                "{} before {}",
                pair[0].metadata.name.as_deref().unwrap_or(""),
                pair[1].metadata.name.as_deref().unwrap_or("")
            );
        }
    }

    /// Port of TestGetPodsToDelete: doubled-up pods (a higher rank) go first among equals.
    #[test]
    fn get_pods_to_delete_prefers_doubled_up_nodes() {
        let a = pod("a", "n1", "Running", Some(NOW - 60_000), NOW - 60_000);
        let b = pod("b", "n2", "Running", Some(NOW - 60_000), NOW - 60_000);
        let related = vec![
            a.clone(),
            b.clone(),
            pod("other", "n2", "Running", None, NOW),
        ];
        let chosen = get_pods_to_delete(&[a.clone(), b.clone()], &related, 1, NOW);
        assert_eq!(names(&chosen), ["b"]);
        // diff equal to the count: everything, no ranking needed.
        let all = get_pods_to_delete(&[a, b], &related, 2, NOW);
        assert_eq!(all.len(), 2);
    }

    #[test]
    fn newer_pods_are_deleted_before_older_ones() {
        let old = pod("old", "n1", "Pending", None, NOW - 3_600_000);
        let new = pod("new", "n1", "Pending", None, NOW - 1_000);
        let chosen = get_pods_to_delete(&[old, new], &[], 1, NOW);
        assert_eq!(names(&chosen), ["new"]);
    }
}
