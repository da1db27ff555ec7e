//! Why each ordinal of a StatefulSet is (or is not yet) created and updated: the StatefulSet
//! controller's `updateStatefulSet` walked without acting — OrderedReady stops at the first pod
//! that is missing, terminating or not Running and Ready; RollingUpdate replaces the highest
//! ordinal at or above the partition on the old revision first, once every pod above it is
//! healthy; OnDelete replaces nothing; ordinals past `replicas` go, highest first.

use crate::cluster::Cluster;
use crate::controller::statefulset::utils::{
    allows_burst, get_end_ordinal, get_ordinal, get_pod_name, get_pod_revision, get_start_ordinal,
    is_healthy, is_running_and_available, is_terminating,
};
use crate::error::{ApiError, ApiResult};
use dsplay_api::types::*;
use dsplay_api::Kind;
use std::collections::BTreeMap;

/// One ordinal: its pod's name, a one-line verdict and the reasons behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrdinalExplanation {
    /// The pod's name (`web-2`).
    pub pod: String,
    /// What is true of the ordinal now (`Running and Ready, revision web-5d4c (new)`).
    pub verdict: String,
    /// Why the controller does (or does not) act on it next.
    pub reasons: Vec<String>,
}

/// A StatefulSet's rollout: its strategy, counts, revisions, each ordinal, and what happens next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatefulSetExplanation {
    /// `RollingUpdate` or `OnDelete`.
    pub strategy: String,
    /// The RollingUpdate partition (0 without one).
    pub partition: i32,
    /// `OrderedReady` or `Parallel`.
    pub pod_management_policy: String,
    /// `spec.replicas`.
    pub replicas: i32,
    /// `status.readyReplicas`.
    pub ready: i32,
    /// `status.updatedReplicas`.
    pub updated: i32,
    /// `status.currentRevision`.
    pub current_revision: String,
    /// `status.updateRevision`.
    pub update_revision: String,
    /// Every ordinal in range, then the condemned ones, in ordinal order.
    pub ordinals: Vec<OrdinalExplanation>,
    /// The controller's next action, if any is due.
    pub next: Option<String>,
    /// What the controller waits for before its next action, if anything.
    pub waiting_for: Option<String>,
}

/// What a pod is: Running and Ready, not ready, Pending, Terminating.
fn pod_state(pod: &Pod) -> String {
    if is_terminating(pod) {
        return "Terminating".into();
    }
    let phase = crate::controller::daemonset::util::phase(pod);
    if phase == "Running" && !dsplay_api::pod::is_pod_ready(pod) {
        return "Running, not Ready".into();
    }
    if phase == "Running" {
        return "Running and Ready".into();
    }
    phase.to_string()
}

/// Explains the StatefulSet `namespace/name`, ordinal by ordinal.
///
/// Upstream: pkg/controller/statefulset/stateful_set_control.go updateStatefulSet (processReplica,
/// processCondemned, the RollingUpdate loop), read without writing.
pub fn explain_stateful_set(
    cluster: &Cluster,
    namespace: &str,
    name: &str,
) -> ApiResult<StatefulSetExplanation> {
    let store = cluster.store();
    let set = store
        .stateful_set(namespace, name)
        .ok_or_else(|| ApiError::NotFound {
            kind: Kind::StatefulSet,
            name: name.to_string(),
        })?;
    let spec = set.spec.clone().unwrap_or_default();
    let status = set.status.clone().unwrap_or_default();
    let strategy = spec.update_strategy.clone().unwrap_or_default();
    let on_delete = strategy.type_.as_deref() == Some("OnDelete");
    let partition = strategy
        .rolling_update
        .as_ref()
        .and_then(|r| r.partition)
        .unwrap_or(0)
        .max(0);
    let monotonic = !allows_burst(set);
    let min_ready = spec.min_ready_seconds.unwrap_or(0);
    let current = status.current_revision.clone().unwrap_or_default();
    let update = status.update_revision.clone().unwrap_or_default();
    let pods: BTreeMap<i32, &Pod> = store
        .pods_owned_by(&set.metadata)
        .map(|p| (get_ordinal(p), p))
        .collect();
    let (start, end) = (get_start_ordinal(set), get_end_ordinal(set));
    let mut ordinals = Vec::new();
    // What stops OrderedReady's pass over the replicas (processReplica returning early).
    let mut blocker: Option<String> = None;
    let mut next: Option<String> = None;
    for ordinal in start..=end {
        let pod_name = get_pod_name(set, ordinal);
        let mut reasons = Vec::new();
        let verdict = match pods.get(&ordinal) {
            None => {
                let revision = if on_delete || ordinal - start >= partition {
                    &update
                } else {
                    &current
                };
                match &blocker {
                    Some(waiting) => reasons.push(format!("OrderedReady: waits for {waiting}")),
                    None => {
                        reasons.push(format!(
                            "the controller creates it next, at revision {revision}"
                        ));
                        next.get_or_insert(format!("create {pod_name} at revision {revision}"));
                    }
                }
                if monotonic && blocker.is_none() {
                    blocker = Some(format!("{pod_name} to be created, Running and Ready"));
                }
                "not created".to_string()
            }
            Some(pod) => {
                if monotonic && blocker.is_none() {
                    if is_terminating(pod) {
                        blocker = Some(format!("{pod_name} to finish terminating"));
                    } else if !is_running_and_available(pod, min_ready, cluster.now_ms()) {
                        blocker = Some(format!("{pod_name} to be Running and Ready"));
                    }
                }
                if is_terminating(pod) {
                    let again = if on_delete || ordinal - start >= partition {
                        &update
                    } else {
                        &current
                    };
                    reasons.push(format!("recreated at revision {again} once it is gone"));
                }
                let revision = get_pod_revision(pod);
                let age = if revision == update { "new" } else { "old" };
                format!("{}, revision {revision} ({age})", pod_state(pod))
            }
        };
        ordinals.push(OrdinalExplanation {
            pod: pod_name,
            verdict,
            reasons,
        });
    }
    // Ordinals past `replicas`: deleted highest first, each once the others are healthy.
    let mut condemned: Vec<&Pod> = pods
        .iter()
        .filter(|(o, _)| **o > end || **o < start)
        .map(|(_, p)| *p)
        .collect();
    condemned.sort_by_key(|p| std::cmp::Reverse(get_ordinal(p)));
    for pod in &condemned {
        let pod_name = pod.metadata.name.clone().unwrap_or_default();
        let mut reasons = vec![format!(
            "beyond replicas={}: deleted, highest ordinal first",
            spec.replicas.unwrap_or(1)
        )];
        if !is_terminating(pod) {
            match &blocker {
                Some(waiting) => reasons.push(format!("OrderedReady: waits for {waiting}")),
                None => {
                    next.get_or_insert(format!("delete {pod_name} (scale down)"));
                }
            }
            if monotonic && blocker.is_none() {
                blocker = Some(format!("{pod_name} to be deleted"));
            }
        } else if monotonic && blocker.is_none() {
            blocker = Some(format!("{pod_name} to finish terminating"));
        }
        ordinals.push(OrdinalExplanation {
            pod: pod_name,
            verdict: format!("{}, to be deleted", pod_state(pod)),
            reasons,
        });
    }
    let waiting_for = explain_updates(
        &mut ordinals,
        &pods,
        (start, partition, on_delete),
        (&current, &update),
        blocker.filter(|_| monotonic),
        &mut next,
    );
    ordinals.sort_by_key(|o| {
        crate::controller::statefulset::utils::get_parent_name_and_ordinal(&o.pod)
            .map(|(_, n)| n)
            .unwrap_or(i32::MAX)
    });
    Ok(StatefulSetExplanation {
        strategy: strategy.type_.unwrap_or_else(|| "RollingUpdate".into()),
        partition,
        pod_management_policy: spec
            .pod_management_policy
            .unwrap_or_else(|| "OrderedReady".into()),
        replicas: spec.replicas.unwrap_or(1),
        ready: status.ready_replicas.unwrap_or(0),
        updated: status.updated_replicas.unwrap_or(0),
        current_revision: current,
        update_revision: update,
        ordinals,
        next,
        waiting_for,
    })
}

/// The update reasons of the existing pods: below the partition they stay; with OnDelete they
/// wait for a delete; else the highest old ordinal is next once everything above it is healthy
/// (and OrderedReady's pass got through), and the lower ones wait for it. Returns what the
/// controller waits for, if anything.
///
/// Upstream: stateful_set_control.go updateStatefulSet (the loop from the last replica down to
/// `updateMin`).
fn explain_updates(
    ordinals: &mut [OrdinalExplanation],
    pods: &BTreeMap<i32, &Pod>,
    (start, partition, on_delete): (i32, i32, bool),
    (current, update): (&str, &str),
    blocker: Option<String>,
    next: &mut Option<String>,
) -> Option<String> {
    let mut waiting_for = blocker;
    for entry in ordinals.iter_mut().rev() {
        let Some((_, ordinal)) =
            crate::controller::statefulset::utils::get_parent_name_and_ordinal(&entry.pod)
        else {
            continue;
        };
        let Some(pod) = pods.get(&ordinal) else {
            continue;
        };
        if entry.verdict.ends_with("to be deleted") {
            continue;
        }
        let old = get_pod_revision(pod) != update;
        if old && on_delete {
            entry.reasons.push(format!(
                "OnDelete: stays at revision {current} until you delete it"
            ));
            continue;
        }
        if old && ordinal - start < partition {
            entry.reasons.push(format!(
                "stays at its revision: ordinal {ordinal} < partition {partition}"
            ));
            continue;
        }
        if on_delete || ordinal - start < partition {
            continue;
        }
        if old && !is_terminating(pod) {
            match &waiting_for {
                Some(waiting) => entry.reasons.push(format!("update waits for {waiting}")),
                None => {
                    entry.reasons.push(format!(
                        "next to update: deleted, then recreated at revision {update}"
                    ));
                    next.get_or_insert(format!(
                        "delete {} to recreate it at revision {update}",
                        entry.pod
                    ));
                }
            }
            waiting_for.get_or_insert(format!(
                "{} (a higher ordinal) to be updated first",
                entry.pod
            ));
        } else if !is_healthy(pod) {
            waiting_for.get_or_insert(format!("{} to be Running and Ready", entry.pod));
        }
    }
    waiting_for
}
