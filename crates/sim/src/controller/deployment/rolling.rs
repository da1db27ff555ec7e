//! The two rollout strategies and the rollout status with its progress deadline.
//! Upstream: pkg/controller/deployment/rolling.go, recreate.go, progress.go

use super::refreshed;
use super::sync::*;
use super::util::*;
use crate::cluster::{k8s_time, Cluster, Timer};
use crate::controller::replicaset::{controller_uid, REPLICA_FAILURE};
use dsplay_api::types::*;

fn refs(rss: &[ReplicaSet]) -> Vec<&ReplicaSet> {
    rss.iter().collect()
}

/// `rolloutRolling`: scale the new ReplicaSet up if it can, else the old ones down; clean up the
/// history once complete; then the rollout status.
#[doc(alias = "rolloutRolling")]
pub(crate) fn rollout_rolling(cluster: &mut Cluster, d: &mut Deployment, rs_list: &[ReplicaSet]) {
    let (new, old) = get_all_replica_sets_and_sync_revision(cluster, d, rs_list, true);
    let Some(new) = new else {
        return;
    };
    let all = all_of(&old, Some(&new));
    if reconcile_new_replica_set(cluster, &all, &new, d) {
        let new = refreshed(cluster, &new);
        let all = all_of(&old, Some(&new));
        sync_rollout_status(cluster, &all, Some(&new), d);
        return;
    }
    let active_old: Vec<ReplicaSet> = filter_active(&refs(&old)).into_iter().cloned().collect();
    if reconcile_old_replica_sets(cluster, &all, &active_old, &new, d) {
        let old: Vec<ReplicaSet> = old.iter().map(|rs| refreshed(cluster, rs)).collect();
        let all = all_of(&old, Some(&new));
        sync_rollout_status(cluster, &all, Some(&new), d);
        return;
    }
    let complete = d
        .status
        .as_ref()
        .is_some_and(|status| deployment_complete(d, status));
    if complete {
        cleanup_deployment(cluster, &old, d);
    }
    sync_rollout_status(cluster, &all, Some(&new), d);
}

/// `reconcileNewReplicaSet`: down to `spec.replicas` if above, else up as far as maxSurge allows.
#[doc(alias = "reconcileNewReplicaSet")]
pub(crate) fn reconcile_new_replica_set(
    cluster: &mut Cluster,
    all: &[ReplicaSet],
    new: &ReplicaSet,
    d: &Deployment,
) -> bool {
    let replicas = deployment_replicas(d);
    if rs_replicas(new) == replicas {
        return false;
    }
    if rs_replicas(new) > replicas {
        return scale_replica_set_and_record_event(cluster, new, replicas, d).0;
    }
    let count = new_rs_new_replicas(d, &refs(all), new);
    scale_replica_set_and_record_event(cluster, new, count, d).0
}

/// `reconcileOldReplicaSets`: scale old ReplicaSets down as far as maxUnavailable allows, their
/// unhealthy replicas first.
#[doc(alias = "reconcileOldReplicaSets")]
pub(crate) fn reconcile_old_replica_sets(
    cluster: &mut Cluster,
    all: &[ReplicaSet],
    old: &[ReplicaSet],
    new: &ReplicaSet,
    d: &Deployment,
) -> bool {
    let old_pods = replica_count(&refs(old));
    if old_pods == 0 {
        return false;
    }
    let all_pods = replica_count(&refs(all));
    let min_available = deployment_replicas(d) - max_unavailable(d);
    let new_unavailable = rs_replicas(new)
        - new
            .status
            .as_ref()
            .and_then(|s| s.available_replicas)
            .unwrap_or(0);
    let max_scaled_down = all_pods - min_available - new_unavailable;
    if max_scaled_down <= 0 {
        return false;
    }
    let (old, cleaned) = cleanup_unhealthy_replicas(cluster, old, d, max_scaled_down);
    let all = all_of(&old, Some(new));
    let scaled = scale_down_old_replica_sets_for_rolling_update(cluster, &all, &old, d);
    cleaned + scaled > 0
}

/// `cleanupUnhealthyReplicas`: scale old ReplicaSets down by their unavailable replicas, oldest
/// first, at most `max_cleanup` in total.
#[doc(alias = "cleanupUnhealthyReplicas")]
pub(crate) fn cleanup_unhealthy_replicas(
    cluster: &mut Cluster,
    old: &[ReplicaSet],
    d: &Deployment,
    max_cleanup: i32,
) -> (Vec<ReplicaSet>, i32) {
    let mut old = old.to_vec();
    old.sort_by(by_creation_timestamp);
    let mut total = 0;
    for rs in old.iter_mut() {
        if total >= max_cleanup {
            break;
        }
        let available = rs
            .status
            .as_ref()
            .and_then(|s| s.available_replicas)
            .unwrap_or(0);
        if rs_replicas(rs) == 0 || rs_replicas(rs) == available {
            continue;
        }
        let count = (max_cleanup - total).min(rs_replicas(rs) - available);
        let target = rs_replicas(rs) - count;
        let (_, updated) = scale_replica_set_and_record_event(cluster, rs, target, d);
        total += count;
        *rs = updated;
    }
    (old, total)
}

/// `scaleDownOldReplicaSetsForRollingUpdate`: scale old ReplicaSets down, oldest first, while more
/// than `replicas - maxUnavailable` pods are available.
#[doc(alias = "scaleDownOldReplicaSetsForRollingUpdate")]
pub(crate) fn scale_down_old_replica_sets_for_rolling_update(
    cluster: &mut Cluster,
    all: &[ReplicaSet],
    old: &[ReplicaSet],
    d: &Deployment,
) -> i32 {
    let min_available = deployment_replicas(d) - max_unavailable(d);
    let available = available_replica_count(&refs(all));
    if available <= min_available {
        return 0;
    }
    let mut old = old.to_vec();
    old.sort_by(by_creation_timestamp);
    let wanted = available - min_available;
    let mut total = 0;
    for rs in &old {
        if total >= wanted {
            break;
        }
        if rs_replicas(rs) == 0 {
            continue;
        }
        let count = rs_replicas(rs).min(wanted - total);
        scale_replica_set_and_record_event(cluster, rs, rs_replicas(rs) - count, d);
        total += count;
    }
    total
}

/// `rolloutRecreate`: every old ReplicaSet to zero, wait until their pods are gone, then the new
/// ReplicaSet (created only now) to `spec.replicas`.
#[doc(alias = "rolloutRecreate")]
pub(crate) fn rollout_recreate(cluster: &mut Cluster, d: &mut Deployment, rs_list: &[ReplicaSet]) {
    let (mut new, mut old) = get_all_replica_sets_and_sync_revision(cluster, d, rs_list, false);
    let active_old: Vec<ReplicaSet> = filter_active(&refs(&old)).into_iter().cloned().collect();
    let mut scaled_down = false;
    for rs in &active_old {
        scaled_down |= scale_replica_set_and_record_event(cluster, rs, 0, d).0;
    }
    if scaled_down {
        let old: Vec<ReplicaSet> = old.iter().map(|rs| refreshed(cluster, rs)).collect();
        sync_rollout_status(cluster, &all_of(&old, new.as_ref()), new.as_ref(), d);
        return;
    }
    if old_pods_running(cluster, new.as_ref(), &old, rs_list) {
        sync_rollout_status(cluster, &all_of(&old, new.as_ref()), new.as_ref(), d);
        return;
    }
    if new.is_none() {
        (new, old) = get_all_replica_sets_and_sync_revision(cluster, d, rs_list, true);
    }
    if let Some(rs) = new.as_ref() {
        let (_, updated) =
            scale_replica_set_and_record_event(cluster, rs, deployment_replicas(d), d);
        new = Some(updated);
    }
    let complete = d
        .status
        .as_ref()
        .is_some_and(|status| deployment_complete(d, status));
    if complete {
        cleanup_deployment(cluster, &old, d);
    }
    sync_rollout_status(cluster, &all_of(&old, new.as_ref()), new.as_ref(), d);
}

/// `oldPodsRunning`: old ReplicaSets still report pods, or a pod of one of them is not yet
/// Succeeded/Failed (being deleted counts as running).
#[doc(alias = "oldPodsRunning")]
fn old_pods_running(
    cluster: &Cluster,
    new: Option<&ReplicaSet>,
    old: &[ReplicaSet],
    rs_list: &[ReplicaSet],
) -> bool {
    if actual_replica_count(&refs(old)) > 0 {
        return true;
    }
    let new_uid = new.and_then(|rs| rs.metadata.uid.as_deref());
    let old_uids: Vec<&str> = rs_list
        .iter()
        .filter_map(|rs| rs.metadata.uid.as_deref())
        .filter(|uid| Some(*uid) != new_uid)
        .collect();
    let ns = rs_list
        .first()
        .and_then(|rs| rs.metadata.namespace.clone())
        .unwrap_or_default();
    let running = cluster.store.pod_handles_in(&ns).any(|pod| {
        controller_uid(&pod.metadata).is_some_and(|u| old_uids.contains(&u))
            && !matches!(
                pod.status.as_ref().and_then(|s| s.phase.as_deref()),
                Some("Succeeded") | Some("Failed")
            )
    });
    running
}

/// `syncRolloutStatus`: the calculated status plus the Progressing condition
/// (NewReplicaSetAvailable, ReplicaSetUpdated, or ProgressDeadlineExceeded), written when it
/// changed; a stuck rollout is re-synced when its deadline passes (`requeueStuckDeployment`).
#[doc(alias = "syncRolloutStatus")]
pub(crate) fn sync_rollout_status(
    cluster: &mut Cluster,
    all: &[ReplicaSet],
    new: Option<&ReplicaSet>,
    d: &mut Deployment,
) {
    let now = k8s_time(cluster.now_ms);
    let mut status = calculate_status(&now, all, new, d);
    if !has_progress_deadline(d) {
        remove_condition(&mut status, "Progressing");
    }
    let old_status = d.status.clone().unwrap_or_default();
    let current = get_condition(&old_status, "Progressing").cloned();
    let complete_already = status.replicas == status.updated_replicas
        && current
            .as_ref()
            .is_some_and(|c| c.reason.as_deref() == Some("NewReplicaSetAvailable"));
    let d_name = d.metadata.name.clone().unwrap_or_default();
    let subject = match new {
        Some(rs) => format!(
            "ReplicaSet {:?}",
            rs.metadata.name.clone().unwrap_or_default()
        ),
        None => format!("Deployment {d_name:?}"),
    };
    if has_progress_deadline(d) && !complete_already {
        if deployment_complete(d, &status) {
            let message = format!("{subject} has successfully progressed.");
            set_condition(
                &mut status,
                new_condition(
                    "Progressing",
                    "True",
                    "NewReplicaSetAvailable",
                    &message,
                    &now,
                ),
            );
        } else if deployment_progressing(d, &status) {
            let message = format!("{subject} is progressing.");
            let mut condition =
                new_condition("Progressing", "True", "ReplicaSetUpdated", &message, &now);
            if let Some(current) = &current {
                if current.status == "True" {
                    condition.last_transition_time = current.last_transition_time.clone();
                }
                remove_condition(&mut status, "Progressing");
            }
            set_condition(&mut status, condition);
        } else if deployment_timed_out(d, &status, cluster.now_ms) {
            let message = format!("{subject} has timed out progressing.");
            set_condition(
                &mut status,
                new_condition(
                    "Progressing",
                    "False",
                    "ProgressDeadlineExceeded",
                    &message,
                    &now,
                ),
            );
        }
    }
    // The ReplicaSets' failure to create pods is the Deployment's too.
    match get_replica_failures(all, new).into_iter().next() {
        Some(failure) => set_condition(&mut status, failure),
        None => remove_condition(&mut status, REPLICA_FAILURE),
    }
    if status.conditions.as_ref().is_some_and(Vec::is_empty) {
        status.conditions = None;
    }
    if d.status.as_ref() == Some(&status) {
        requeue_stuck_deployment(cluster, d, &status);
        return;
    }
    requeue_stuck_deployment(cluster, d, &status);
    d.status = Some(status);
    write_deployment(cluster, d);
}

/// `requeueStuckDeployment`: a rollout in progress is looked at again just after its deadline; the
/// timer goes away once the rollout completes or times out, so a settled cluster has none left.
#[doc(alias = "requeueStuckDeployment")]
fn requeue_stuck_deployment(cluster: &mut Cluster, d: &Deployment, status: &DeploymentStatus) {
    let key = crate::store::key_of(&d.metadata);
    let due = get_condition(status, "Progressing")
        .filter(|c| {
            has_progress_deadline(d)
                && !deployment_complete(d, status)
                && !matches!(
                    c.reason.as_deref(),
                    Some("NewReplicaSetAvailable") | Some("ProgressDeadlineExceeded")
                )
        })
        .map(|c| {
            let deadline = d
                .spec
                .as_ref()
                .and_then(|s| s.progress_deadline_seconds)
                .unwrap_or(0);
            let from = c
                .last_update_time
                .as_ref()
                .map(|t| t.0.timestamp_millis())
                .unwrap_or(0);
            from + i64::from(deadline) * 1000 + 1000
        });
    let pending = cluster.deadline_timers.get(&key).copied();
    if pending.map(|(at, _)| at) == due {
        return;
    }
    if let Some(old) = pending {
        cluster.timers.remove(&old);
        cluster.deadline_timers.remove(&key);
    }
    if let Some(at) = due {
        let at = at.max(cluster.now_ms);
        cluster.timer_seq += 1;
        let timer = Timer::ProgressDeadline {
            namespace: key.0.clone(),
            name: key.1.clone(),
        };
        cluster.timers.insert((at, cluster.timer_seq), timer);
        cluster.deadline_timers.insert(key, (at, cluster.timer_seq));
    }
}

/// The ReplicaFailure conditions of the new ReplicaSet, else of all of them, as Deployment
/// conditions (`ReplicaSetToDeploymentCondition`: the transition time is also the update time).
///
/// Upstream: pkg/controller/deployment/progress.go getReplicaFailures;
/// pkg/controller/deployment/util/deployment_util.go ReplicaSetToDeploymentCondition.
fn get_replica_failures(all: &[ReplicaSet], new: Option<&ReplicaSet>) -> Vec<DeploymentCondition> {
    let failures = |rs: &ReplicaSet| -> Vec<DeploymentCondition> {
        rs.status
            .iter()
            .flat_map(|s| s.conditions.iter().flatten())
            .filter(|c| c.type_ == REPLICA_FAILURE)
            .map(|c| DeploymentCondition {
                type_: c.type_.clone(),
                status: c.status.clone(),
                last_update_time: c.last_transition_time.clone(),
                last_transition_time: c.last_transition_time.clone(),
                reason: c.reason.clone(),
                message: c.message.clone(),
            })
            .collect()
    };
    let from_new = new.map(failures).unwrap_or_default();
    if !from_new.is_empty() {
        return from_new;
    }
    all.iter().flat_map(failures).collect()
}
