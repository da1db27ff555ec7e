//! One sync of one StatefulSet: its revisions, its pods in ordinal order, its status and history.
//! Upstream: pkg/controller/statefulset/stateful_set_control.go

use super::pod_control::{
    create_missing_persistent_volume_claims, create_stateful_pod, delete_stateful_pod,
    update_pod_claim_for_retention_policy, update_stateful_pod,
};
use super::utils::*;
use crate::cluster::{k8s_time, Cluster, Timer};
use crate::controller::daemonset::history::revision_labels;
use crate::controller::daemonset::util::ready_since_ms;
use crate::controller::replicaset::controller_ref;
use crate::names;
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use std::collections::BTreeSet;

/// `UpdateStatefulSet`: the revisions, the update itself, then the revision history limit.
#[doc(alias = "UpdateStatefulSet")]
pub(super) fn update_stateful_set(cluster: &mut Cluster, set: &StatefulSet, pods: &[Pod]) {
    let revisions = super::list_revisions(cluster, set);
    let Some((current, update)) = perform_update(cluster, set, pods, &revisions) else {
        return;
    };
    truncate_history(cluster, set, pods, &revisions, &current, &update);
}

/// `performUpdate`: the current and update revisions, the pods, and the status they give.
#[doc(alias = "performUpdate")]
fn perform_update(
    cluster: &mut Cluster,
    set: &StatefulSet,
    pods: &[Pod],
    revisions: &[ControllerRevision],
) -> Option<(ControllerRevision, ControllerRevision)> {
    let (current, update, collision_count) = get_stateful_set_revisions(cluster, set, revisions)?;
    let status = update_stateful_set_pods(cluster, set, &current, &update, collision_count, pods);
    update_stateful_set_status(cluster, set, status);
    Some((current, update))
}

/// `nextRevision`: one more than the newest revision, 1 for the first.
#[doc(alias = "nextRevision")]
fn next_revision(revisions: &[ControllerRevision]) -> i64 {
    revisions.last().map_or(1, |r| r.revision + 1)
}

/// `newRevision` (`history.NewControllerRevision`): the template's data, named `<set>-<hash>`,
/// labelled with the template's labels and the hash, annotated like the set.
#[doc(alias = "newRevision")]
fn new_revision(set: &StatefulSet, revision: i64, collision_count: i32) -> ControllerRevision {
    let data = get_patch(set);
    let hash = names::compute_hash(&data.to_string(), Some(collision_count));
    let labels = revision_labels(
        set.spec.as_ref().map(|s| &s.template),
        CONTROLLER_REVISION_HASH_LABEL,
        &hash,
    );
    ControllerRevision {
        metadata: ObjectMeta {
            name: Some(format!(
                "{}-{hash}",
                set.metadata.name.as_deref().unwrap_or("")
            )),
            namespace: set.metadata.namespace.clone(),
            labels: Some(labels),
            annotations: set.metadata.annotations.clone().filter(|a| !a.is_empty()),
            owner_references: Some(vec![controller_ref(Kind::StatefulSet, &set.metadata)]),
            ..Default::default()
        },
        data: Some(RawExtension(data)),
        revision,
    }
}

/// `getStatefulSetRevisions`: the update revision (the set's template: an equal revision reused,
/// renumbered when it is not the newest — a rollback — or a new one) and the current revision
/// (`status.currentRevision`, else the update revision), and the collision count.
#[doc(alias = "getStatefulSetRevisions")]
fn get_stateful_set_revisions(
    cluster: &mut Cluster,
    set: &StatefulSet,
    revisions: &[ControllerRevision],
) -> Option<(ControllerRevision, ControllerRevision, i32)> {
    let mut collision_count = set
        .status
        .as_ref()
        .and_then(|s| s.collision_count)
        .unwrap_or(0);
    let candidate = new_revision(set, next_revision(revisions), collision_count);
    let equal: Vec<&ControllerRevision> = revisions
        .iter()
        .filter(|r| r.data == candidate.data)
        .collect();
    let update = match (equal.last(), revisions.last()) {
        (Some(eq), Some(last)) if eq.metadata.name == last.metadata.name => (*eq).clone(),
        (Some(eq), _) => {
            let mut renumbered = (*eq).clone();
            renumbered.revision = candidate.revision;
            cluster.write(Object::ControllerRevision(renumbered.clone()));
            renumbered
        }
        (None, _) => create_controller_revision(cluster, set, candidate, &mut collision_count)?,
    };
    let current_name = set
        .status
        .as_ref()
        .and_then(|s| s.current_revision.clone())
        .unwrap_or_default();
    let current = revisions
        .iter()
        .find(|r| r.metadata.name.as_deref() == Some(current_name.as_str()))
        .cloned()
        .unwrap_or_else(|| update.clone());
    Some((current, update, collision_count))
}

/// `CreateControllerRevision` (`realHistory`): creates the revision, or finds an identical one
/// under its name; a different one there is a hash collision, which bumps the count and retries.
#[doc(alias = "CreateControllerRevision")]
fn create_controller_revision(
    cluster: &mut Cluster,
    set: &StatefulSet,
    mut revision: ControllerRevision,
    collision_count: &mut i32,
) -> Option<ControllerRevision> {
    let ns = set.metadata.namespace.clone().unwrap_or_default();
    for _ in 0..100 {
        let candidate = new_revision(set, revision.revision, *collision_count);
        let name = candidate.metadata.name.clone().unwrap_or_default();
        match cluster.store.get(Kind::ControllerRevision, &ns, &name) {
            Some(Object::ControllerRevision(existing)) if existing.data == candidate.data => {
                return Some(existing)
            }
            Some(_) => *collision_count += 1,
            None => {
                revision = candidate;
                revision.metadata.uid = Some(names::uid(&mut cluster.rng));
                revision.metadata.creation_timestamp = Some(k8s_time(cluster.now_ms));
                cluster.write(Object::ControllerRevision(revision.clone()));
                return Some(revision);
            }
        }
    }
    None
}

/// The counts of one list of pods (`replicaStatus`).
#[derive(Default)]
struct ReplicaStatus {
    replicas: i32,
    ready: i32,
    available: i32,
    current: i32,
    updated: i32,
}

/// `computeReplicaStatus`: created, ready, available, and at the current / update revision.
#[doc(alias = "computeReplicaStatus")]
fn compute_replica_status<'a>(
    pods: impl Iterator<Item = &'a Pod>,
    min_ready_seconds: i32,
    now_ms: i64,
    current: &str,
    update: &str,
) -> ReplicaStatus {
    let mut status = ReplicaStatus::default();
    for pod in pods {
        if is_created(pod) {
            status.replicas += 1;
        }
        if is_running_and_ready(pod) {
            status.ready += 1;
            if is_running_and_available(pod, min_ready_seconds, now_ms) {
                status.available += 1;
            }
        }
        if is_created(pod) && !is_terminating(pod) {
            let revision = get_pod_revision(pod);
            status.current += i32::from(revision == current);
            status.updated += i32::from(revision == update);
        }
    }
    status
}

/// `updateStatus`: the counts over the replicas and the condemned pods.
#[doc(alias = "updateStatus")]
fn update_status(status: &mut StatefulSetStatus, set: &StatefulSet, now_ms: i64, pods: &[&Pod]) {
    let min_ready = min_ready_seconds(set);
    let counts = compute_replica_status(
        pods.iter().copied(),
        min_ready,
        now_ms,
        status.current_revision.as_deref().unwrap_or(""),
        status.update_revision.as_deref().unwrap_or(""),
    );
    let nonzero = |n: i32| (n > 0).then_some(n);
    status.replicas = counts.replicas;
    status.ready_replicas = nonzero(counts.ready);
    status.available_replicas = Some(counts.available);
    status.current_replicas = nonzero(counts.current);
    status.updated_replicas = nonzero(counts.updated);
}

fn min_ready_seconds(set: &StatefulSet) -> i32 {
    set.spec
        .as_ref()
        .and_then(|s| s.min_ready_seconds)
        .unwrap_or(0)
}

/// How a step of the pod loop ended: go on with the next pod, or stop this sync.
type ShouldExit = bool;

/// `updateStatefulSet`: sorts the pods into replicas (by ordinal) and condemned ones, creates the
/// missing replicas, deletes the condemned in decreasing ordinal order, then, for RollingUpdate,
/// deletes the newest pod not at the update revision down to the partition. OrderedReady
/// (monotonic) stops at the first pod that is not Running and Ready; Parallel does not.
#[doc(alias = "updateStatefulSet")]
fn update_stateful_set_pods(
    cluster: &mut Cluster,
    set: &StatefulSet,
    current: &ControllerRevision,
    update: &ControllerRevision,
    collision_count: i32,
    pods: &[Pod],
) -> StatefulSetStatus {
    let current_set = apply_revision(set, current);
    let update_set = apply_revision(set, update);
    let mut status = StatefulSetStatus {
        observed_generation: set.metadata.generation,
        current_revision: current.metadata.name.clone(),
        update_revision: update.metadata.name.clone(),
        collision_count: Some(collision_count),
        ..Default::default()
    };
    let now = cluster.now_ms;
    let all: Vec<&Pod> = pods.iter().collect();
    update_status(&mut status, set, now, &all);

    let start = get_start_ordinal(set);
    let count = replicas(set).max(0) as usize;
    let mut slots: Vec<Option<Pod>> = vec![None; count];
    let mut condemned: Vec<Pod> = Vec::new();
    for pod in pods {
        let ordinal = get_ordinal(pod);
        if pod_in_ordinal_range(pod, set) {
            slots[(ordinal - start) as usize] = Some(pod.clone());
        } else if ordinal >= 0 {
            condemned.push(pod.clone());
        }
    }
    let current_name = current.metadata.name.clone().unwrap_or_default();
    let update_name = update.metadata.name.clone().unwrap_or_default();
    let mut replicas: Vec<Pod> = slots
        .into_iter()
        .enumerate()
        .map(|(i, slot)| {
            slot.unwrap_or_else(|| {
                new_versioned_stateful_set_pod(
                    &current_set,
                    &update_set,
                    &current_name,
                    &update_name,
                    start + i as i32,
                )
            })
        })
        .collect();
    condemned.sort_by_key(|p| std::cmp::Reverse(get_ordinal(p)));
    let first_unhealthy = replicas
        .iter()
        .chain(condemned.iter().rev())
        .find(|p| !is_healthy(p))
        .and_then(|p| p.metadata.name.clone());
    arm_min_ready_resync(cluster, set, pods);

    let finish = |cluster: &mut Cluster, status: &mut StatefulSetStatus, r: &[Pod], c: &[Pod]| {
        let all: Vec<&Pod> = r.iter().chain(c).collect();
        update_status(status, set, cluster.now_ms, &all);
    };
    if set.metadata.deletion_timestamp.is_some() {
        return status;
    }
    let monotonic = !allows_burst(set);
    for i in 0..replicas.len() {
        let (exit, created) = process_replica(cluster, set, &update_set, monotonic, &replicas[i]);
        if let Some(created) = created {
            replicas[i] = created;
        }
        if exit && monotonic {
            finish(cluster, &mut status, &replicas, &condemned);
            return status;
        }
    }
    // `fixPodClaim`: the retention policy's owners on the claims of the pods about to go.
    for pod in &condemned {
        update_pod_claim_for_retention_policy(cluster, &update_set, pod);
    }
    for i in 0..condemned.len() {
        let exit = process_condemned(
            cluster,
            set,
            first_unhealthy.as_deref(),
            monotonic,
            &condemned[i],
        );
        if exit && monotonic {
            finish(cluster, &mut status, &replicas, &condemned);
            return status;
        }
    }
    finish(cluster, &mut status, &replicas, &condemned);
    let strategy = set
        .spec
        .as_ref()
        .and_then(|s| s.update_strategy.clone())
        .unwrap_or_default();
    if strategy.type_.as_deref() == Some("OnDelete") {
        return status;
    }
    let update_min = strategy
        .rolling_update
        .as_ref()
        .and_then(|r| r.partition)
        .unwrap_or(0)
        .max(0) as usize;
    for target in (update_min..replicas.len()).rev() {
        let pod = &replicas[target];
        if get_pod_revision(pod) != update_name && !is_terminating(pod) {
            if is_created(pod) {
                delete_stateful_pod(cluster, set, pod);
            }
            status.current_replicas = status.current_replicas.map(|n| n - 1).filter(|n| *n > 0);
            return status;
        }
        if !is_healthy(pod) {
            return status;
        }
    }
    status
}

/// `processReplica`: recreate a finished pod, create a missing one (claims first), wait for a
/// terminating or not yet available one (OrderedReady), restore a drifted identity. Returns
/// whether the loop stops here, and the pod as created.
#[doc(alias = "processReplica")]
fn process_replica(
    cluster: &mut Cluster,
    set: &StatefulSet,
    update_set: &StatefulSet,
    monotonic: bool,
    replica: &Pod,
) -> (ShouldExit, Option<Pod>) {
    if is_failed(replica) || is_succeeded(replica) {
        if !is_terminating(replica) {
            delete_stateful_pod(cluster, set, replica);
        }
        return (true, None);
    }
    if !is_created(replica) {
        let ns = set.metadata.namespace.clone().unwrap_or_default();
        let name = replica.metadata.name.clone().unwrap_or_default();
        if !create_stateful_pod(cluster, set, replica.clone()) {
            return (true, None);
        }
        let created = cluster.store.pod(&ns, &name).cloned();
        return (monotonic, created);
    }
    if is_pending(replica) {
        create_missing_persistent_volume_claims(cluster, set, replica);
    }
    if is_terminating(replica) && monotonic {
        return (true, None);
    }
    if !is_running_and_ready(replica) && monotonic {
        return (true, None);
    }
    if !is_running_and_available(replica, min_ready_seconds(set), cluster.now_ms) && monotonic {
        return (true, None);
    }
    if !identity_matches(set, replica) {
        update_stateful_pod(cluster, update_set, replica);
    }
    update_pod_claim_for_retention_policy(cluster, update_set, replica);
    (false, None)
}

/// `processCondemned`: wait for a terminating pod (OrderedReady); in OrderedReady delete only
/// when the pod is Running and available or is the first unhealthy pod; then delete it and stop.
#[doc(alias = "processCondemned")]
fn process_condemned(
    cluster: &mut Cluster,
    set: &StatefulSet,
    first_unhealthy: Option<&str>,
    monotonic: bool,
    pod: &Pod,
) -> ShouldExit {
    if is_terminating(pod) {
        return monotonic;
    }
    let is_first_unhealthy = pod.metadata.name.as_deref() == first_unhealthy;
    if !is_running_and_ready(pod) && monotonic && !is_first_unhealthy {
        return true;
    }
    if !is_running_and_available(pod, min_ready_seconds(set), cluster.now_ms)
        && monotonic
        && !is_first_unhealthy
    {
        return true;
    }
    delete_stateful_pod(cluster, set, pod);
    true
}

/// Looks again when the next ready pod becomes available (upstream requeues the set after
/// minReadySeconds).
fn arm_min_ready_resync(cluster: &mut Cluster, set: &StatefulSet, pods: &[Pod]) {
    let min_ready = min_ready_seconds(set);
    if min_ready <= 0 {
        return;
    }
    let now = cluster.now_ms;
    let next_due = pods
        .iter()
        .filter(|p| is_running_and_ready(p) && !is_running_and_available(p, min_ready, now))
        .filter_map(ready_since_ms)
        .map(|since| since + i64::from(min_ready) * 1000 + 1000)
        .min();
    if let Some(due) = next_due {
        cluster.schedule_at_unless_due(due, Timer::ResyncStatefulSets);
    }
}

/// `updateStatefulSetStatus` with `completeRollingUpdate`: once every replica is updated and
/// ready, the update revision becomes the current one; written only when it changed.
#[doc(alias = "updateStatefulSetStatus")]
#[doc(alias = "completeRollingUpdate")]
fn update_stateful_set_status(
    cluster: &mut Cluster,
    set: &StatefulSet,
    mut status: StatefulSetStatus,
) {
    let rolling = set
        .spec
        .as_ref()
        .and_then(|s| s.update_strategy.as_ref())
        .and_then(|u| u.type_.as_deref())
        == Some("RollingUpdate");
    if rolling
        && status.updated_replicas.unwrap_or(0) == status.replicas
        && status.ready_replicas.unwrap_or(0) == status.replicas
    {
        status.current_replicas = status.updated_replicas;
        status.current_revision = status.update_revision.clone();
    }
    let ns = set.metadata.namespace.as_deref().unwrap_or("");
    let name = set.metadata.name.as_deref().unwrap_or("");
    let Some(stored) = cluster.store.stateful_set(ns, name) else {
        return;
    };
    let old = stored.status.clone().unwrap_or_default();
    let status = StatefulSetStatus {
        conditions: old.conditions.clone(),
        ..status
    };
    if status != old {
        let mut next = stored.clone();
        next.status = Some(status);
        cluster.write(Object::StatefulSet(next));
    }
}

/// `truncateHistory`: deletes the oldest revisions no pod, nor the current or update revision,
/// uses, beyond `revisionHistoryLimit`.
#[doc(alias = "truncateHistory")]
fn truncate_history(
    cluster: &mut Cluster,
    set: &StatefulSet,
    pods: &[Pod],
    revisions: &[ControllerRevision],
    current: &ControllerRevision,
    update: &ControllerRevision,
) {
    let mut live: BTreeSet<&str> = pods.iter().map(get_pod_revision).collect();
    live.extend(current.metadata.name.as_deref());
    live.extend(update.metadata.name.as_deref());
    let history: Vec<&ControllerRevision> = revisions
        .iter()
        .filter(|r| !live.contains(r.metadata.name.as_deref().unwrap_or("")))
        .collect();
    let limit = set
        .spec
        .as_ref()
        .and_then(|s| s.revision_history_limit)
        .unwrap_or(10)
        .max(0) as usize;
    if history.len() <= limit {
        return;
    }
    let ns = set.metadata.namespace.clone().unwrap_or_default();
    let doomed: Vec<String> = history[..history.len() - limit]
        .iter()
        .filter_map(|r| r.metadata.name.clone())
        .collect();
    for name in doomed {
        cluster.remove_object(Kind::ControllerRevision, &ns, &name);
    }
}
