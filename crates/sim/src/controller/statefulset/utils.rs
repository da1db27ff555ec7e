//! The StatefulSet controller's helpers: ordinals and names, a pod's identity and storage, the
//! pod predicates, revisions applied to a set.
//! Upstream: pkg/controller/statefulset/stateful_set_utils.go

use crate::controller::daemonset::history::{template_from_patch, template_patch};
use crate::controller::daemonset::util::{is_pod_available, phase};
use crate::controller::replicaset::controller_ref;
use crate::service_account_admission::pod_spec_for_new_pod;
use dsplay_api::pod::is_pod_ready;
use dsplay_api::types::*;
use dsplay_api::Kind;
use std::collections::BTreeMap;

/// Pod label naming the pod's ControllerRevision (`apps.StatefulSetRevisionLabel`).
pub const STATEFUL_SET_REVISION_LABEL: &str = "controller-revision-hash";
/// Pod label with the pod's own name (`apps.StatefulSetPodNameLabel`).
pub const STATEFUL_SET_POD_NAME_LABEL: &str = "statefulset.kubernetes.io/pod-name";
/// Pod label with the pod's ordinal (`apps.PodIndexLabel`, PodIndexLabel feature, on in v1.32).
pub const POD_INDEX_LABEL: &str = "apps.kubernetes.io/pod-index";
/// ControllerRevision label with the revision's hash (`history.ControllerRevisionHashLabel`).
pub const CONTROLLER_REVISION_HASH_LABEL: &str = "controller.kubernetes.io/hash";

/// `getParentNameAndOrdinal`: `web-2` → ("web", 2); None when the name has no `-<digits>` tail.
#[doc(alias = "getParentNameAndOrdinal")]
pub fn get_parent_name_and_ordinal(pod_name: &str) -> Option<(&str, i32)> {
    let (parent, ordinal) = pod_name.rsplit_once('-')?;
    if ordinal.is_empty() || !ordinal.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((parent, ordinal.parse().ok()?))
}

/// `getOrdinal`: the pod's ordinal, -1 when its name has none.
#[doc(alias = "getOrdinal")]
pub fn get_ordinal(pod: &Pod) -> i32 {
    pod.metadata
        .name
        .as_deref()
        .and_then(get_parent_name_and_ordinal)
        .map_or(-1, |(_, o)| o)
}

/// `getStartOrdinal`: `spec.ordinals.start`, 0 by default.
#[doc(alias = "getStartOrdinal")]
pub fn get_start_ordinal(set: &StatefulSet) -> i32 {
    set.spec
        .as_ref()
        .and_then(|s| s.ordinals.as_ref())
        .and_then(|o| o.start)
        .unwrap_or(0)
}

/// `getEndOrdinal`: the last ordinal the set's replicas cover.
#[doc(alias = "getEndOrdinal")]
pub fn get_end_ordinal(set: &StatefulSet) -> i32 {
    get_start_ordinal(set) + replicas(set) - 1
}

/// `spec.replicas` (defaulted to 1).
pub fn replicas(set: &StatefulSet) -> i32 {
    set.spec.as_ref().and_then(|s| s.replicas).unwrap_or(1)
}

/// `podInOrdinalRange`.
#[doc(alias = "podInOrdinalRange")]
pub fn pod_in_ordinal_range(pod: &Pod, set: &StatefulSet) -> bool {
    let ordinal = get_ordinal(pod);
    ordinal >= get_start_ordinal(set) && ordinal <= get_end_ordinal(set)
}

/// `getPodName`: `<set>-<ordinal>`.
#[doc(alias = "getPodName")]
pub fn get_pod_name(set: &StatefulSet, ordinal: i32) -> String {
    format!("{}-{ordinal}", set.metadata.name.as_deref().unwrap_or(""))
}

/// `isMemberOf`: the pod's name is `<set>-<ordinal>`.
#[doc(alias = "isMemberOf")]
pub fn is_member_of(set: &StatefulSet, pod: &Pod) -> bool {
    pod.metadata
        .name
        .as_deref()
        .and_then(get_parent_name_and_ordinal)
        .is_some_and(|(parent, _)| Some(parent) == set.metadata.name.as_deref())
}

/// `getPersistentVolumeClaimName`: `<template>-<set>-<ordinal>`.
#[doc(alias = "getPersistentVolumeClaimName")]
pub fn get_persistent_volume_claim_name(
    set: &StatefulSet,
    claim: &PersistentVolumeClaim,
    ordinal: i32,
) -> String {
    format!(
        "{}-{}-{ordinal}",
        claim.metadata.name.as_deref().unwrap_or(""),
        set.metadata.name.as_deref().unwrap_or("")
    )
}

/// `getPersistentVolumeClaims`: the claims the pod's ordinal needs, keyed by template name, each
/// labelled with the set's `matchLabels`.
#[doc(alias = "getPersistentVolumeClaims")]
pub fn get_persistent_volume_claims(
    set: &StatefulSet,
    pod: &Pod,
) -> BTreeMap<String, PersistentVolumeClaim> {
    let ordinal = get_ordinal(pod);
    let spec = set.spec.clone().unwrap_or_default();
    let match_labels = spec.selector.match_labels.clone().unwrap_or_default();
    let mut claims = BTreeMap::new();
    for template in spec.volume_claim_templates.iter().flatten() {
        let mut claim = template.clone();
        claim.metadata.name = Some(get_persistent_volume_claim_name(set, template, ordinal));
        claim.metadata.namespace = set.metadata.namespace.clone();
        let labels = claim.metadata.labels.get_or_insert_with(BTreeMap::new);
        labels.extend(match_labels.clone());
        claim.status = None;
        claims.insert(template.metadata.name.clone().unwrap_or_default(), claim);
    }
    claims
}

/// `updateStorage`: one `persistentVolumeClaim` volume per claim template (named after the
/// template), then the template's other volumes.
#[doc(alias = "updateStorage")]
pub fn update_storage(set: &StatefulSet, pod: &mut Pod) {
    let claims = get_persistent_volume_claims(set, pod);
    let spec = pod.spec.get_or_insert_with(Default::default);
    let current = spec.volumes.take().unwrap_or_default();
    let mut volumes: Vec<Volume> = claims
        .iter()
        .map(|(name, claim)| Volume {
            name: name.clone(),
            persistent_volume_claim: Some(PersistentVolumeClaimVolumeSource {
                claim_name: claim.metadata.name.clone().unwrap_or_default(),
                read_only: None,
            }),
            ..Default::default()
        })
        .collect();
    volumes.extend(
        current
            .into_iter()
            .filter(|v| !claims.contains_key(&v.name)),
    );
    spec.volumes = (!volumes.is_empty()).then_some(volumes);
}

/// `updateIdentity`: name, namespace, and the pod-name and pod-index labels.
#[doc(alias = "updateIdentity")]
pub fn update_identity(set: &StatefulSet, pod: &mut Pod, ordinal: i32) {
    let name = get_pod_name(set, ordinal);
    pod.metadata.name = Some(name.clone());
    pod.metadata.namespace = set.metadata.namespace.clone();
    let labels = pod.metadata.labels.get_or_insert_with(BTreeMap::new);
    labels.insert(STATEFUL_SET_POD_NAME_LABEL.to_string(), name);
    labels.insert(POD_INDEX_LABEL.to_string(), ordinal.to_string());
}

/// `initIdentity`: the identity, and the hostname/subdomain the headless Service resolves.
#[doc(alias = "initIdentity")]
pub fn init_identity(set: &StatefulSet, pod: &mut Pod, ordinal: i32) {
    update_identity(set, pod, ordinal);
    let spec = pod.spec.get_or_insert_with(Default::default);
    spec.hostname = pod.metadata.name.clone();
    spec.subdomain = set
        .spec
        .as_ref()
        .and_then(|s| s.service_name.clone())
        .filter(|s| !s.is_empty());
}

/// `identityMatches`: the pod carries the name and labels its ordinal gives it.
#[doc(alias = "identityMatches")]
pub fn identity_matches(set: &StatefulSet, pod: &Pod) -> bool {
    let ordinal = get_ordinal(pod);
    let name = pod.metadata.name.as_deref().unwrap_or("");
    let name_label = pod
        .metadata
        .labels
        .as_ref()
        .and_then(|l| l.get(STATEFUL_SET_POD_NAME_LABEL));
    ordinal >= 0
        && get_pod_name(set, ordinal) == name
        && pod.metadata.namespace == set.metadata.namespace
        && name_label.map(String::as_str) == Some(name)
}

/// `newStatefulSetPod`: the template's pod with its identity and storage, controlled by the set.
#[doc(alias = "newStatefulSetPod")]
pub fn new_stateful_set_pod(set: &StatefulSet, ordinal: i32) -> Pod {
    let template = set.spec.as_ref().map(|s| &s.template);
    let source = template
        .and_then(|t| t.metadata.clone())
        .unwrap_or_default();
    let mut pod = Pod {
        metadata: ObjectMeta {
            labels: source.labels,
            annotations: source.annotations,
            finalizers: source.finalizers,
            owner_references: Some(vec![controller_ref(Kind::StatefulSet, &set.metadata)]),
            ..Default::default()
        },
        spec: template
            .and_then(|t| t.spec.as_ref())
            .map(pod_spec_for_new_pod),
        status: None,
    };
    init_identity(set, &mut pod, ordinal);
    update_storage(set, &mut pod);
    pod
}

/// `newVersionedStatefulSetPod`: ordinals below the partition get the current revision, the
/// others the update revision (Go's `a && b || c` precedence kept).
#[doc(alias = "newVersionedStatefulSetPod")]
pub fn new_versioned_stateful_set_pod(
    current_set: &StatefulSet,
    update_set: &StatefulSet,
    current_revision: &str,
    update_revision: &str,
    ordinal: i32,
) -> Pod {
    let strategy = current_set
        .spec
        .as_ref()
        .and_then(|s| s.update_strategy.clone())
        .unwrap_or_default();
    let rolling = strategy.type_.as_deref() == Some("RollingUpdate");
    let start = get_start_ordinal(current_set);
    let below_partition = match &strategy.rolling_update {
        None => rolling && ordinal < start,
        Some(r) => ordinal < start + r.partition.unwrap_or(0),
    };
    let (set, revision) = if below_partition {
        (current_set, current_revision)
    } else {
        (update_set, update_revision)
    };
    let mut pod = new_stateful_set_pod(set, ordinal);
    set_pod_revision(&mut pod, revision);
    pod
}

/// `setPodRevision`.
#[doc(alias = "setPodRevision")]
pub fn set_pod_revision(pod: &mut Pod, revision: &str) {
    pod.metadata
        .labels
        .get_or_insert_with(BTreeMap::new)
        .insert(
            STATEFUL_SET_REVISION_LABEL.to_string(),
            revision.to_string(),
        );
}

/// `getPodRevision`: the revision label, "" when absent.
#[doc(alias = "getPodRevision")]
pub fn get_pod_revision(pod: &Pod) -> &str {
    pod.metadata
        .labels
        .as_ref()
        .and_then(|l| l.get(STATEFUL_SET_REVISION_LABEL))
        .map_or("", String::as_str)
}

/// `isCreated`: the API server has it (a phase is set).
#[doc(alias = "isCreated")]
pub fn is_created(pod: &Pod) -> bool {
    pod.status
        .as_ref()
        .and_then(|s| s.phase.as_deref())
        .is_some()
}

/// `isPending`.
#[doc(alias = "isPending")]
pub fn is_pending(pod: &Pod) -> bool {
    phase(pod) == "Pending"
}

/// `isFailed`.
#[doc(alias = "isFailed")]
pub fn is_failed(pod: &Pod) -> bool {
    phase(pod) == "Failed"
}

/// `isSucceeded`.
#[doc(alias = "isSucceeded")]
pub fn is_succeeded(pod: &Pod) -> bool {
    phase(pod) == "Succeeded"
}

/// `isTerminating`.
#[doc(alias = "isTerminating")]
pub fn is_terminating(pod: &Pod) -> bool {
    pod.metadata.deletion_timestamp.is_some()
}

/// `isRunningAndReady`.
#[doc(alias = "isRunningAndReady")]
pub fn is_running_and_ready(pod: &Pod) -> bool {
    phase(pod) == "Running" && is_pod_ready(pod)
}

/// `isRunningAndAvailable`.
#[doc(alias = "isRunningAndAvailable")]
pub fn is_running_and_available(pod: &Pod, min_ready_seconds: i32, now_ms: i64) -> bool {
    phase(pod) == "Running" && is_pod_available(pod, min_ready_seconds, now_ms)
}

/// `isHealthy`: running, ready and not terminating.
#[doc(alias = "isHealthy")]
pub fn is_healthy(pod: &Pod) -> bool {
    is_running_and_ready(pod) && !is_terminating(pod)
}

/// `allowsBurst`: Parallel pod management.
#[doc(alias = "allowsBurst")]
pub fn allows_burst(set: &StatefulSet) -> bool {
    set.spec
        .as_ref()
        .and_then(|s| s.pod_management_policy.as_deref())
        == Some("Parallel")
}

/// `getPatch`: the revision data of the set's template.
pub fn get_patch(set: &StatefulSet) -> serde_json::Value {
    template_patch(
        &set.spec
            .as_ref()
            .map(|s| s.template.clone())
            .unwrap_or_default(),
    )
}

/// `ApplyRevision`: the set with the revision's template.
#[doc(alias = "ApplyRevision")]
pub fn apply_revision(set: &StatefulSet, revision: &ControllerRevision) -> StatefulSet {
    let mut out = set.clone();
    if let Some(template) = revision
        .data
        .as_ref()
        .and_then(|d| template_from_patch(&d.0))
    {
        out.spec.get_or_insert_with(Default::default).template = template;
    }
    out
}
