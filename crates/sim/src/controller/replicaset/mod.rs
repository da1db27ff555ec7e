//! The ReplicaSet controller: claim the pods a ReplicaSet selects, create or delete pods until
//! their number matches `spec.replicas`, and report the counts in the status.
//! Upstream: pkg/controller/replicaset/replica_set.go, replica_set_utils.go

pub mod ranks;

use crate::api_server::{object_reference, DeleteOptions};
use crate::cluster::{k8s_time, Cluster, Timer};
use crate::controller::daemonset::util::is_pod_available;
use crate::controller::requeue;
use crate::error::ApiError;
use crate::service_account_admission::pod_spec_for_new_pod;
use crate::store::key_of;
use dsplay_api::pod::is_pod_ready;
use dsplay_api::types::*;
use dsplay_api::{selector, Kind, Object};
use ranks::{get_pods_to_delete, is_pod_active};
use std::collections::BTreeMap;
use std::sync::Arc;

/// At most this many creates, and separately deletes, per sync (`BurstReplicas`).
pub const BURST_REPLICAS: usize = 500;
/// Event source component.
pub const COMPONENT: &str = "replicaset-controller";

/// What the ReplicaSet and Deployment controllers remember between passes (upstream's work
/// queues): where each object's last sync read the watch log up to, and, per ReplicaSet, the pods
/// it controlled then.
#[derive(Clone, Debug, Default)]
pub(crate) struct AppsState {
    /// ReplicaSet uid → (watch-log length at its last sync, names of the pods it claimed).
    pub(crate) replica_sets: BTreeMap<String, (usize, std::collections::BTreeSet<String>)>,
    /// Deployment uid → watch-log length at its last sync.
    pub(crate) deployments: BTreeMap<String, usize>,
    /// Set by a `ResyncApps` or `ProgressDeadline` timer: the next pass syncs everything.
    pub(crate) resync: bool,
    /// Per ReplicaSet uid: its syncs that failed to create a pod, in a row.
    pub(crate) requeue: requeue::RequeueBackoff,
}

/// Syncs every ReplicaSet, in namespace/name order. One is skipped when nothing it depends on was
/// written since its last sync (like upstream's work queue, where only its own events and those of
/// the pods it selects or owns enqueue it): the ReplicaSet itself, a pod of its namespace its
/// selector matches or it controls, or a deleted pod it had claimed. Time-dependent answers
/// (minReadySeconds) arm a `ResyncApps` timer, which forces a full pass.
pub(crate) fn sync_all(cluster: &mut Cluster) {
    let force = std::mem::take(&mut cluster.apps.resync);
    let keys: Vec<(String, String)> = cluster.store.replica_sets.keys().cloned().collect();
    let live: std::collections::BTreeSet<String> = cluster
        .store
        .replica_sets()
        .filter_map(|rs| rs.metadata.uid.clone())
        .collect();
    cluster
        .apps
        .replica_sets
        .retain(|uid, _| live.contains(uid));
    cluster.apps.requeue.retain_live(|uid| live.contains(uid));
    for (ns, name) in keys {
        let Some(rs) = cluster.store.replica_set(&ns, &name) else {
            continue;
        };
        let uid = rs.metadata.uid.clone().unwrap_or_default();
        let log_len = cluster.store.watch_log().len();
        if !force && !needs_sync(cluster, rs, &uid) {
            if let Some(entry) = cluster.apps.replica_sets.get_mut(&uid) {
                entry.0 = log_len;
            }
            continue;
        }
        let claimed = sync_replica_set(cluster, &ns, &name);
        cluster.apps.replica_sets.insert(uid, (log_len, claimed));
    }
}

/// Whether anything a ReplicaSet's sync reads was written since its last one.
fn needs_sync(cluster: &Cluster, rs: &ReplicaSet, uid: &str) -> bool {
    let Some((since, claimed)) = cluster.apps.replica_sets.get(uid) else {
        return true;
    };
    let ns = rs.metadata.namespace.as_deref().unwrap_or("");
    let name = rs.metadata.name.as_deref().unwrap_or("");
    let Ok(sel) = selector::from_label_selector(rs.spec.as_ref().map(|s| &s.selector)) else {
        return false;
    };
    let empty = BTreeMap::new();
    let log = cluster.store.watch_log();
    log[(*since).min(log.len())..].iter().any(|e| match e.kind {
        Kind::ReplicaSet => e.namespace == ns && e.name == name,
        Kind::Pod if e.namespace == ns => match cluster.store.pod(ns, &e.name) {
            Some(pod) => {
                controller_uid(&pod.metadata) == Some(uid)
                    || sel.matches(pod.metadata.labels.as_ref().unwrap_or(&empty))
            }
            None => claimed.contains(&e.name),
        },
        _ => false,
    })
}
/// The uid of an object's controller owner, if any.
pub(crate) fn controller_uid(meta: &ObjectMeta) -> Option<&str> {
    meta.owner_references
        .iter()
        .flatten()
        .find(|r| r.controller == Some(true))
        .map(|r| r.uid.as_str())
}

/// `controllerRef` for an apps/v1 owner.
pub(crate) fn controller_ref(kind: Kind, meta: &ObjectMeta) -> OwnerReference {
    OwnerReference {
        api_version: "apps/v1".into(),
        kind: kind.name().into(),
        name: meta.name.clone().unwrap_or_default(),
        uid: meta.uid.clone().unwrap_or_default(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// `syncReplicaSet`: claim the active pods, manage them (unless the ReplicaSet is being deleted),
/// then update the status; returns the names of the pods it controls. Creates and deletes are
/// observed at once (no expectations to wait for).
#[doc(alias = "syncReplicaSet")]
pub(crate) fn sync_replica_set(
    cluster: &mut Cluster,
    ns: &str,
    name: &str,
) -> std::collections::BTreeSet<String> {
    let Some(rs) = cluster.store.replica_set(ns, name).cloned() else {
        return Default::default();
    };
    let Some(spec) = rs.spec.clone() else {
        return Default::default();
    };
    let Ok(selector) = selector::from_label_selector(Some(&spec.selector)) else {
        return Default::default();
    };
    let mut pods = claim_pods(cluster, &rs, &selector);
    let filtered = pods.len();
    let mut manage_replicas_err = None;
    if rs.metadata.deletion_timestamp.is_none() {
        let mut created = Vec::new();
        manage_replicas_err = manage_replicas(cluster, &rs, &pods, &mut created);
        pods = claimed_after_manage(cluster, ns, pods, created);
    }
    // `syncReplicaSet` returns manageReplicas' error and the sync is queued again after a
    // back-off.
    let uid = rs.metadata.uid.as_deref().unwrap_or_default();
    let refused = manage_replicas_err.as_ref().is_some_and(requeue::retries);
    let backoff: requeue::Backoff = |c| &mut c.apps.requeue;
    requeue::after_sync(cluster, backoff, uid, refused, Timer::ResyncApps);
    let manage_replicas_err = manage_replicas_err.map(|err| err.server_message());
    update_replica_set_status(cluster, &rs, &pods, filtered, manage_replicas_err);
    pods.iter()
        .filter_map(|p| p.metadata.name.clone())
        .collect()
}

/// `claimPods` (`PodControllerRefManager.ClaimPods`): the active pods of the namespace the
/// ReplicaSet controls, adopting orphans its selector matches and releasing its pods the selector
/// no longer matches.
#[doc(alias = "claimPods")]
fn claim_pods(
    cluster: &mut Cluster,
    rs: &ReplicaSet,
    selector: &selector::Selector,
) -> Vec<Arc<Pod>> {
    let ns = rs.metadata.namespace.clone().unwrap_or_default();
    let uid = rs.metadata.uid.clone().unwrap_or_default();
    let candidates: Vec<Arc<Pod>> = cluster
        .store
        .pod_handles_in(&ns)
        .filter(|p| is_pod_active(p))
        .cloned()
        .collect();
    let empty = BTreeMap::new();
    let mut claimed = Vec::new();
    for pod in candidates {
        let matches = selector.matches(pod.metadata.labels.as_ref().unwrap_or(&empty));
        match controller_uid(&pod.metadata) {
            Some(owner) if owner == uid => {
                if matches || rs.metadata.deletion_timestamp.is_some() {
                    claimed.push(pod);
                } else {
                    let mut released = Pod::clone(&pod);
                    if let Some(refs) = released.metadata.owner_references.as_mut() {
                        refs.retain(|r| r.uid != uid);
                    }
                    cluster.write(Object::Pod(released));
                }
            }
            None if matches && rs.metadata.deletion_timestamp.is_none() => {
                let mut adopted = Pod::clone(&pod);
                adopted
                    .metadata
                    .owner_references
                    .get_or_insert_with(Vec::new)
                    .push(controller_ref(Kind::ReplicaSet, &rs.metadata));
                cluster.write(Object::Pod(adopted.clone()));
                claimed.push(Arc::new(adopted));
            }
            _ => {}
        }
    }
    claimed
}

/// What [`claim_pods`] returns right after [`manage_replicas`] (nothing else writes in between,
/// and the pods it creates are the ReplicaSet's by construction): the `claimed` pods still active,
/// as stored now, and the `created` ones. Claiming the namespace's pods again instead took a
/// third of a 5 000-replica Deployment's creation.
fn claimed_after_manage(
    cluster: &Cluster,
    ns: &str,
    claimed: Vec<Arc<Pod>>,
    created: Vec<String>,
) -> Vec<Arc<Pod>> {
    let names = claimed.iter().filter_map(|p| p.metadata.name.clone());
    names
        .chain(created)
        .filter_map(|name| cluster.store.pod_handle(ns, &name).cloned())
        .filter(|p| is_pod_active(p))
        .collect()
}

/// `GetPodFromTemplate`: the template's labels, annotations and spec, named `<rs>-<5 random>`,
/// controlled by the ReplicaSet.
#[doc(alias = "GetPodFromTemplate")]
pub fn pod_from_template(rs: &ReplicaSet) -> Pod {
    let template = rs.spec.as_ref().and_then(|s| s.template.as_ref());
    let source = template
        .and_then(|t| t.metadata.clone())
        .unwrap_or_default();
    let rs_name = rs.metadata.name.clone().unwrap_or_default();
    let metadata = ObjectMeta {
        labels: source.labels,
        annotations: source.annotations,
        finalizers: source.finalizers,
        generate_name: Some(format!("{rs_name}-")),
        namespace: rs.metadata.namespace.clone(),
        owner_references: Some(vec![controller_ref(Kind::ReplicaSet, &rs.metadata)]),
        ..Default::default()
    };
    Pod {
        metadata,
        spec: template
            .and_then(|t| t.spec.as_ref())
            .map(pod_spec_for_new_pod),
        status: None,
    }
}

/// `manageReplicas`: create the missing pods or delete the surplus (ranked by `getPodsToDelete`),
/// at most [`BURST_REPLICAS`] per sync, with an event for each; returns the API server's error
/// when a create failed. The names of the pods it created go to `created`.
#[doc(alias = "manageReplicas")]
fn manage_replicas(
    cluster: &mut Cluster,
    rs: &ReplicaSet,
    pods: &[Arc<Pod>],
    created: &mut Vec<String>,
) -> Option<ApiError> {
    let wanted = rs
        .spec
        .as_ref()
        .and_then(|s| s.replicas)
        .unwrap_or(1)
        .max(0) as usize;
    let reference = object_reference(Kind::ReplicaSet, &rs.metadata);
    if pods.len() < wanted {
        let diff = (wanted - pods.len()).min(BURST_REPLICAS);
        for _ in 0..diff {
            match cluster.create_internal(Object::Pod(pod_from_template(rs))) {
                Ok(name) => {
                    cluster.record_event(
                        &reference,
                        "Normal",
                        "SuccessfulCreate",
                        &format!("Created pod: {name}"),
                        COMPONENT,
                        None,
                    );
                    created.push(name);
                }
                Err(err) => {
                    let message = err.server_message();
                    cluster.record_event(
                        &reference,
                        "Warning",
                        "FailedCreate",
                        &format!("Error creating: {message}"),
                        COMPONENT,
                        None,
                    );
                    // Slow start: the first failure stops the batch.
                    return Some(err);
                }
            }
        }
    } else if pods.len() > wanted {
        let diff = (pods.len() - wanted).min(BURST_REPLICAS);
        let related = related_pods(cluster, rs);
        for pod in get_pods_to_delete(pods, &related, diff, cluster.now_ms) {
            let (ns, name) = key_of(&pod.metadata);
            let Some(current) = cluster.store.pod(&ns, &name).cloned() else {
                continue;
            };
            cluster.delete_pod(&current, DeleteOptions::default().grace_period_seconds);
            cluster.record_event(
                &reference,
                "Normal",
                "SuccessfulDelete",
                &format!("Deleted pod: {name}"),
                COMPONENT,
                None,
            );
        }
    }
    None
}

/// `getIndirectlyRelatedPods`: the pods of every ReplicaSet with the same controller owner (the
/// same Deployment), or this ReplicaSet's own pods when it has no owner.
#[doc(alias = "getIndirectlyRelatedPods")]
fn related_pods(cluster: &Cluster, rs: &ReplicaSet) -> Vec<Arc<Pod>> {
    let ns = rs.metadata.namespace.clone().unwrap_or_default();
    let owner = controller_uid(&rs.metadata);
    let uids: Vec<String> = cluster
        .store
        .replica_sets()
        .filter(|r| r.metadata.namespace == rs.metadata.namespace)
        .filter(|r| match owner {
            Some(owner) => controller_uid(&r.metadata) == Some(owner),
            None => r.metadata.uid == rs.metadata.uid,
        })
        .filter_map(|r| r.metadata.uid.clone())
        .collect();
    cluster
        .store
        .pod_handles_in(&ns)
        .filter(|p| controller_uid(&p.metadata).is_some_and(|u| uids.iter().any(|x| x == u)))
        .cloned()
        .collect()
}

/// `calculateStatus` + `updateReplicaSetStatus`: replicas, fullyLabeledReplicas, readyReplicas,
/// availableReplicas (ready for minReadySeconds) and observedGeneration, written only when they
/// change; a resync is armed for when the next ready pod becomes available.
#[doc(alias = "calculateStatus")]
#[doc(alias = "updateReplicaSetStatus")]
fn update_replica_set_status(
    cluster: &mut Cluster,
    rs: &ReplicaSet,
    pods: &[Arc<Pod>],
    filtered: usize,
    manage_replicas_err: Option<String>,
) {
    let spec = rs.spec.clone().unwrap_or_default();
    let min_ready = spec.min_ready_seconds.unwrap_or(0);
    let template_labels = spec
        .template
        .as_ref()
        .and_then(|t| t.metadata.as_ref())
        .and_then(|m| m.labels.clone())
        .unwrap_or_default();
    let now = cluster.now_ms;
    let mut fully_labeled = 0;
    let mut ready = 0;
    let mut available = 0;
    let mut next_due: Option<i64> = None;
    for pod in pods {
        let labels = pod.metadata.labels.as_ref();
        if template_labels
            .iter()
            .all(|(k, v)| labels.and_then(|l| l.get(k)) == Some(v))
        {
            fully_labeled += 1;
        }
        if is_pod_ready(pod) {
            ready += 1;
            if is_pod_available(pod, min_ready, now) {
                available += 1;
            } else if let Some(since) = crate::controller::daemonset::util::ready_since_ms(pod) {
                let due = since + i64::from(min_ready) * 1000 + 1000;
                next_due = Some(next_due.map_or(due, |d: i64| d.min(due)));
            }
        }
    }
    if let Some(due) = next_due {
        cluster.schedule_at_unless_due(due, Timer::ResyncApps);
    }
    let Some(stored) = cluster.store.replica_set(
        rs.metadata.namespace.as_deref().unwrap_or(""),
        rs.metadata.name.as_deref().unwrap_or(""),
    ) else {
        return;
    };
    let old = stored.status.clone().unwrap_or_default();
    let nonzero = |n: i32| (n > 0).then_some(n);
    let wanted = spec.replicas.unwrap_or(1);
    let conditions = replica_failure_conditions(
        old.conditions.clone(),
        manage_replicas_err,
        filtered as i64 - i64::from(wanted),
        &k8s_time(now),
    );
    let status = ReplicaSetStatus {
        replicas: pods.len() as i32,
        fully_labeled_replicas: nonzero(fully_labeled),
        ready_replicas: nonzero(ready),
        available_replicas: nonzero(available),
        observed_generation: stored.metadata.generation,
        conditions,
        ..old.clone()
    };
    if status != old {
        let mut next = stored.clone();
        next.status = Some(status);
        cluster.write(Object::ReplicaSet(next));
    }
}

/// The ReplicaFailure part of `calculateStatus`: a failed create (or delete) sets
/// `ReplicaFailure=True` with reason FailedCreate (FailedDelete) and the error as message, unless
/// the condition is there already; a sync without error removes it. `diff` is the number of pods
/// the sync started with less the replicas wanted.
///
/// Upstream: pkg/controller/replicaset/replica_set_utils.go calculateStatus,
/// NewReplicaSetCondition, SetCondition, RemoveCondition.
fn replica_failure_conditions(
    conditions: Option<Vec<ReplicaSetCondition>>,
    manage_replicas_err: Option<String>,
    diff: i64,
    now: &Time,
) -> Option<Vec<ReplicaSetCondition>> {
    let mut conditions = conditions.unwrap_or_default();
    let existing = conditions.iter().any(|c| c.type_ == REPLICA_FAILURE);
    match manage_replicas_err {
        Some(message) if !existing => {
            let reason = match diff {
                d if d < 0 => "FailedCreate",
                d if d > 0 => "FailedDelete",
                _ => "",
            };
            conditions.push(ReplicaSetCondition {
                type_: REPLICA_FAILURE.into(),
                status: "True".into(),
                last_transition_time: Some(now.clone()),
                reason: Some(reason.into()),
                message: Some(message),
            });
        }
        None if existing => conditions.retain(|c| c.type_ != REPLICA_FAILURE),
        _ => {}
    }
    (!conditions.is_empty()).then_some(conditions)
}

/// The condition a ReplicaSet (and its Deployment) carries while its pods cannot be created.
pub(crate) const REPLICA_FAILURE: &str = "ReplicaFailure";
