//! What the StatefulSet controller writes for one pod: its claims, the pod itself, its deletion,
//! and the events that report them.
//! Upstream: pkg/controller/statefulset/stateful_pod_control.go

use super::utils::{
    get_ordinal, get_persistent_volume_claims, identity_matches, pod_in_ordinal_range,
    update_identity,
};
use super::COMPONENT;
use crate::api_server::object_reference;
use crate::cluster::{Cluster, Timer};
use crate::controller::requeue;
use crate::error::ApiError;
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};

/// `recordPodEvent`: `SuccessfulCreate` "create Pod web-0 in StatefulSet web successful", or
/// `FailedCreate` "create Pod web-0 in StatefulSet web failed error: …".
#[doc(alias = "recordPodEvent")]
fn record_pod_event(
    cluster: &mut Cluster,
    verb: &str,
    set: &StatefulSet,
    pod: &str,
    err: Option<&ApiError>,
) {
    let set_name = set.metadata.name.as_deref().unwrap_or("");
    let message = match err {
        None => format!("{verb} Pod {pod} in StatefulSet {set_name} successful"),
        Some(e) => format!(
            "{verb} Pod {pod} in StatefulSet {set_name} failed error: {}",
            e.server_message()
        ),
    };
    record(cluster, verb, set, err.is_none(), &message);
}

/// `recordClaimEvent`: "create Claim www-web-0 Pod web-0 in StatefulSet web success", or
/// "create Claim www-web-0 for Pod web-0 in StatefulSet web failed error: …".
#[doc(alias = "recordClaimEvent")]
fn record_claim_event(
    cluster: &mut Cluster,
    verb: &str,
    set: &StatefulSet,
    pod: &str,
    claim: &str,
    err: Option<&ApiError>,
) {
    let set_name = set.metadata.name.as_deref().unwrap_or("");
    let message = match err {
        None => format!("{verb} Claim {claim} Pod {pod} in StatefulSet {set_name} success"),
        Some(e) => format!(
            "{verb} Claim {claim} for Pod {pod} in StatefulSet {set_name} failed error: {}",
            e.server_message()
        ),
    };
    record(cluster, verb, set, err.is_none(), &message);
}

/// An event on the set: Normal `Successful<Verb>` or Warning `Failed<Verb>`.
fn record(cluster: &mut Cluster, verb: &str, set: &StatefulSet, ok: bool, message: &str) {
    let (kind, outcome) = if ok {
        ("Normal", "Successful")
    } else {
        ("Warning", "Failed")
    };
    let reason = format!("{outcome}{}", title(verb));
    let reference = object_reference(Kind::StatefulSet, &set.metadata);
    cluster.record_event(&reference, kind, &reason, message, COMPONENT, None);
}

/// Go's `strings.Title` of a one-word verb.
fn title(verb: &str) -> String {
    let mut chars = verb.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// `createPersistentVolumeClaims`: creates the pod's missing claims; a claim being deleted is an
/// error. Returns whether every claim is there.
#[doc(alias = "createPersistentVolumeClaims")]
fn create_persistent_volume_claims(cluster: &mut Cluster, set: &StatefulSet, pod: &Pod) -> bool {
    let pod_name = pod.metadata.name.clone().unwrap_or_default();
    let ns = set.metadata.namespace.clone().unwrap_or_default();
    let mut ok = true;
    for claim in get_persistent_volume_claims(set, pod).into_values() {
        let claim_name = claim.metadata.name.clone().unwrap_or_default();
        match cluster.store.persistent_volume_claim(&ns, &claim_name) {
            None => {
                let result = cluster.create_internal(Object::PersistentVolumeClaim(claim));
                let err = result.err();
                if !matches!(err, Some(ApiError::AlreadyExists { .. })) {
                    record_claim_event(
                        cluster,
                        "create",
                        set,
                        &pod_name,
                        &claim_name,
                        err.as_ref(),
                    );
                }
                ok &= err.is_none();
            }
            Some(existing) if existing.metadata.deletion_timestamp.is_some() => ok = false,
            Some(_) => {}
        }
    }
    ok
}

/// `createMissingPersistentVolumeClaims`: a Pending pod's claims, recreated if they went missing.
#[doc(alias = "createMissingPersistentVolumeClaims")]
pub(super) fn create_missing_persistent_volume_claims(
    cluster: &mut Cluster,
    set: &StatefulSet,
    pod: &Pod,
) {
    create_persistent_volume_claims(cluster, set, pod);
}

/// `CreateStatefulPod`: the claims first, then the pod, each with its event. Returns whether the
/// pod was created.
#[doc(alias = "CreateStatefulPod")]
pub(super) fn create_stateful_pod(cluster: &mut Cluster, set: &StatefulSet, pod: Pod) -> bool {
    let name = pod.metadata.name.clone().unwrap_or_default();
    if !create_persistent_volume_claims(cluster, set, &pod) {
        return false;
    }
    let uid = set.metadata.uid.as_deref().unwrap_or_default();
    let backoff: requeue::Backoff = |c| &mut c.stateful_sets.requeue;
    match cluster.create_internal(Object::Pod(pod)) {
        Err(ApiError::AlreadyExists { .. }) => false,
        Err(err) => {
            record_pod_event(cluster, "create", set, &name, Some(&err));
            // The sync returns the error and the set is queued again after a back-off (here
            // reset by the next create that goes through, not by any sync without errors).
            if requeue::retries(&err) {
                requeue::after_sync(cluster, backoff, uid, true, Timer::ResyncStatefulSets);
            }
            false
        }
        Ok(_) => {
            requeue::after_sync(cluster, backoff, uid, false, Timer::ResyncStatefulSets);
            let ns = set.metadata.namespace.clone().unwrap_or_default();
            if let Some(created) = cluster.store.pod(&ns, &name).cloned() {
                update_pod_claim_for_retention_policy(cluster, set, &created);
            }
            record_pod_event(cluster, "create", set, &name, None);
            true
        }
    }
}

/// `UpdateStatefulPod`: gives a pod whose identity drifted (a relabelled pod) its identity back,
/// and recreates missing claims.
#[doc(alias = "UpdateStatefulPod")]
pub(super) fn update_stateful_pod(cluster: &mut Cluster, set: &StatefulSet, pod: &Pod) {
    let mut updated = pod.clone();
    if !identity_matches(set, pod) {
        update_identity(set, &mut updated, get_ordinal(pod));
    }
    create_persistent_volume_claims(cluster, set, pod);
    if updated != *pod {
        let name = updated.metadata.name.clone().unwrap_or_default();
        cluster.write(Object::Pod(updated));
        record_pod_event(cluster, "update", set, &name, None);
    }
}

/// `DeleteStatefulPod`: a graceful delete, with `SuccessfulDelete`.
#[doc(alias = "DeleteStatefulPod")]
pub(super) fn delete_stateful_pod(cluster: &mut Cluster, set: &StatefulSet, pod: &Pod) {
    let name = pod.metadata.name.clone().unwrap_or_default();
    cluster.delete_pod(pod, None);
    record_pod_event(cluster, "delete", set, &name, None);
}

/// `UpdatePodClaimForRetentionPolicy` (`updateClaimOwnerRefForSetAndPod`): the owners the
/// retention policy gives the pod's claims — the set with `whenDeleted: Delete` (while the pod is
/// in range), the pod with `whenScaled: Delete` (once scaled down), none with Retain — so the
/// garbage collector deletes them with their owner.
#[doc(alias = "UpdatePodClaimForRetentionPolicy")]
#[doc(alias = "updateClaimOwnerRefForSetAndPod")]
pub(super) fn update_pod_claim_for_retention_policy(
    cluster: &mut Cluster,
    set: &StatefulSet,
    pod: &Pod,
) {
    let policy = set
        .spec
        .as_ref()
        .and_then(|s| s.persistent_volume_claim_retention_policy.clone())
        .unwrap_or_default();
    let delete = |p: &Option<String>| p.as_deref() == Some("Delete");
    let scaled_down = !pod_in_ordinal_range(pod, set);
    let mut owners: Vec<OwnerReference> = Vec::new();
    if delete(&policy.when_scaled) && scaled_down {
        owners.push(OwnerReference {
            api_version: "v1".into(),
            kind: "Pod".into(),
            name: pod.metadata.name.clone().unwrap_or_default(),
            uid: pod.metadata.uid.clone().unwrap_or_default(),
            controller: Some(true),
            block_owner_deletion: Some(true),
        });
    }
    if delete(&policy.when_deleted) && !scaled_down {
        owners.push(crate::controller::replicaset::controller_ref(
            Kind::StatefulSet,
            &set.metadata,
        ));
    }
    let ns = set.metadata.namespace.clone().unwrap_or_default();
    let ours = |r: &OwnerReference| {
        Some(&r.uid) == set.metadata.uid.as_ref() || Some(&r.uid) == pod.metadata.uid.as_ref()
    };
    for claim in get_persistent_volume_claims(set, pod).into_values() {
        let name = claim.metadata.name.unwrap_or_default();
        let Some(mut stored) = cluster.store.persistent_volume_claim(&ns, &name).cloned() else {
            continue;
        };
        let mut refs: Vec<OwnerReference> = stored
            .metadata
            .owner_references
            .clone()
            .unwrap_or_default()
            .into_iter()
            .filter(|r| !ours(r))
            .collect();
        // A claim another controller manages keeps its owners (`hasUnexpectedController`).
        if refs.iter().any(|r| r.controller == Some(true)) {
            continue;
        }
        refs.extend(owners.iter().cloned());
        let refs = (!refs.is_empty()).then_some(refs);
        if stored.metadata.owner_references != refs {
            stored.metadata.owner_references = refs;
            cluster.write(Object::PersistentVolumeClaim(stored));
        }
    }
}
