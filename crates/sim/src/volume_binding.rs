//! Persistent volumes as kind provides them: the DefaultStorageClass admission, the scheduler's
//! VolumeBinding plugin (a missing claim, a volume pinned to a node, the selected node of a
//! WaitForFirstConsumer claim), the PV controller's binding and the local-path provisioner,
//! which creates a host-path volume on the selected node in the instant the pod is scheduled
//! (`docs/timing-model.md`, Volumes).
//! Upstream: plugin/pkg/admission/storage/storageclass/setdefault/admission.go;
//! pkg/scheduler/framework/plugins/volumebinding; pkg/controller/volume/persistentvolume/pv_controller.go;
//! rancher/local-path-provisioner provisioner.go.

use crate::api_server::object_reference;
use crate::cluster::{k8s_time, Cluster};
use crate::store::{key_of, Key};
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use k8s_openapi::api::core::v1::{
    HostPathVolumeSource, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm,
    VolumeNodeAffinity,
};
use std::collections::{BTreeMap, BTreeSet};

/// The annotation that makes a StorageClass the default.
pub const DEFAULT_CLASS_ANNOTATION: &str = "storageclass.kubernetes.io/is-default-class";
/// The node the scheduler chose for a WaitForFirstConsumer claim.
pub const SELECTED_NODE_ANNOTATION: &str = "volume.kubernetes.io/selected-node";
/// The PV controller's event source.
const PV_CONTROLLER: &str = "persistentvolume-controller";
/// kind's provisioner name.
const LOCAL_PATH: &str = "rancher.io/local-path";
/// Where the local-path provisioner puts volumes on the node.
const LOCAL_PATH_DIR: &str = "/var/local-path-provisioner";

/// The claim names a pod's volumes use, in volume order.
pub fn pod_claim_names(pod: &Pod) -> Vec<String> {
    pod.spec
        .as_ref()
        .and_then(|s| s.volumes.as_ref())
        .into_iter()
        .flatten()
        .filter_map(|v| v.persistent_volume_claim.as_ref())
        .map(|c| c.claim_name.clone())
        .collect()
}

/// `getDefaultClass`: the newest StorageClass annotated as the default (ties by name).
#[doc(alias = "getDefaultClass")]
pub fn default_storage_class(cluster: &Cluster) -> Option<String> {
    cluster
        .store
        .storage_classes()
        .filter(|sc| {
            sc.metadata
                .annotations
                .as_ref()
                .and_then(|a| a.get(DEFAULT_CLASS_ANNOTATION))
                .is_some_and(|v| v == "true")
        })
        .max_by(|a, b| {
            a.metadata
                .creation_timestamp
                .as_ref()
                .map(|t| t.0)
                .cmp(&b.metadata.creation_timestamp.as_ref().map(|t| t.0))
                .then_with(|| b.metadata.name.cmp(&a.metadata.name))
        })
        .and_then(|sc| sc.metadata.name.clone())
}

/// Claim admission: the default StorageClass for a claim that names none (DefaultStorageClass)
/// and the `kubernetes.io/pvc-protection` finalizer (StorageObjectInUseProtection).
pub(crate) fn admit_claim(cluster: &Cluster, claim: &mut PersistentVolumeClaim) {
    let spec = claim.spec.get_or_insert_with(Default::default);
    if spec.storage_class_name.is_none() {
        spec.storage_class_name = default_storage_class(cluster);
    }
    let finalizers = claim.metadata.finalizers.get_or_insert_with(Vec::new);
    if !finalizers.iter().any(|f| f == PVC_PROTECTION) {
        finalizers.push(PVC_PROTECTION.into());
    }
}

/// The `kubernetes.io/hostname` values a bound volume's node affinity allows.
fn volume_nodes(pv: &PersistentVolume) -> Option<BTreeSet<String>> {
    let terms = &pv
        .spec
        .as_ref()?
        .node_affinity
        .as_ref()?
        .required
        .as_ref()?
        .node_selector_terms;
    Some(
        terms
            .iter()
            .flat_map(|t| t.match_expressions.iter().flatten())
            .filter(|e| e.key == "kubernetes.io/hostname" && e.operator == "In")
            .flat_map(|e| e.values.iter().flatten().cloned())
            .collect(),
    )
}

/// VolumeBinding for one pod: `Err(reason)` when a claim it uses does not exist or is unbound
/// without delayed binding (PreFilter, unresolvable), else the nodes its bound volumes are pinned
/// to (`None`: any node).
pub(crate) fn volume_node_constraint(
    cluster: &Cluster,
    pod: &Pod,
) -> Result<Option<BTreeSet<String>>, String> {
    let ns = pod.metadata.namespace.as_deref().unwrap_or("");
    let mut allowed: Option<BTreeSet<String>> = None;
    for name in pod_claim_names(pod) {
        let Some(claim) = cluster.store.persistent_volume_claim(ns, &name) else {
            return Err(format!("persistentvolumeclaim \"{name}\" not found"));
        };
        if claim.metadata.deletion_timestamp.is_some() {
            return Err(format!("persistentvolumeclaim \"{name}\" is being deleted"));
        }
        let volume = claim
            .spec
            .as_ref()
            .and_then(|s| s.volume_name.as_deref())
            .and_then(|v| cluster.store.persistent_volume(v));
        if volume.is_none() && binding_mode(cluster, claim) != "WaitForFirstConsumer" {
            return Err("pod has unbound immediate PersistentVolumeClaims".into());
        }
        if let Some(nodes) = volume.and_then(volume_nodes) {
            allowed = Some(match allowed {
                Some(prev) => prev.intersection(&nodes).cloned().collect(),
                None => nodes,
            });
        }
    }
    Ok(allowed)
}

/// VolumeBinding PreBind: the pod's unbound WaitForFirstConsumer claims get the chosen node.
pub(crate) fn bind_pod_volumes(cluster: &mut Cluster, pod: &Pod, node: &str) {
    let ns = pod.metadata.namespace.clone().unwrap_or_default();
    for name in pod_claim_names(pod) {
        let Some(mut claim) = cluster.store.persistent_volume_claim(&ns, &name).cloned() else {
            continue;
        };
        let unbound = claim
            .spec
            .as_ref()
            .and_then(|s| s.volume_name.as_ref())
            .is_none();
        if !unbound || binding_mode(cluster, &claim) != "WaitForFirstConsumer" {
            continue;
        }
        let annotations = claim.metadata.annotations.get_or_insert_with(BTreeMap::new);
        if annotations
            .get(SELECTED_NODE_ANNOTATION)
            .map(String::as_str)
            == Some(node)
        {
            continue;
        }
        annotations.insert(SELECTED_NODE_ANNOTATION.into(), node.into());
        cluster.write(Object::PersistentVolumeClaim(claim));
    }
}

/// The claim's StorageClass, if it exists.
fn storage_class<'a>(
    cluster: &'a Cluster,
    claim: &PersistentVolumeClaim,
) -> Option<&'a StorageClass> {
    let class = claim.spec.as_ref()?.storage_class_name.as_deref()?;
    cluster.store.storage_class(class)
}

/// The claim's class's `volumeBindingMode` ("" without a class).
fn binding_mode(cluster: &Cluster, claim: &PersistentVolumeClaim) -> String {
    storage_class(cluster, claim)
        .and_then(|sc| sc.volume_binding_mode.clone())
        .unwrap_or_default()
}

/// The PV controller and the provisioner, for every claim and volume written since the last pass:
/// `syncUnboundClaim` (wait for the first consumer, or provision and bind) and the reclaim of
/// provisioned volumes whose claim is gone.
#[doc(alias = "syncUnboundClaim")]
pub(crate) fn sync(cluster: &mut Cluster) {
    // Without claims or volumes there is nothing to bind, release or reclaim, whatever was written.
    let store = &cluster.store;
    if store.persistent_volume_claims.is_empty() && store.persistent_volumes.is_empty() {
        cluster.cursors.volume_binding.skip(&cluster.store);
        return;
    }
    let changes = cluster.cursors.volume_binding.read(&cluster.store);
    for (ns, name) in &changes.claims {
        sync_unbound_claim(cluster, ns, name);
    }
    if !changes.pods.is_empty() || !changes.claims.is_empty() {
        release_unused_claims(cluster);
    }
    if changes.claims.is_empty() {
        return;
    }
    reclaim_released_volumes(cluster);
}

/// The finalizer StorageObjectInUseProtection puts on every claim.
const PVC_PROTECTION: &str = "kubernetes.io/pvc-protection";

/// Whether a pod that has not finished uses the claim (`podUsesPVC`).
fn claim_in_use(cluster: &Cluster, claim: &PersistentVolumeClaim) -> bool {
    let name = claim.metadata.name.clone().unwrap_or_default();
    cluster
        .store
        .pods()
        .filter(|p| p.metadata.namespace == claim.metadata.namespace)
        .filter(|p| {
            let phase = p.status.as_ref().and_then(|s| s.phase.as_deref());
            !matches!(phase, Some("Succeeded" | "Failed"))
        })
        .any(|p| pod_claim_names(p).contains(&name))
}

/// Deleting a claim a pod still uses: the protection finalizer keeps it, Terminating, until no
/// pod uses it. Returns whether the claim was kept.
pub(crate) fn keep_claim_in_use(cluster: &mut Cluster, claim: &PersistentVolumeClaim) -> bool {
    let protected = claim
        .metadata
        .finalizers
        .iter()
        .flatten()
        .any(|f| f == PVC_PROTECTION);
    if !protected || !claim_in_use(cluster, claim) {
        return false;
    }
    if claim.metadata.deletion_timestamp.is_none() {
        let mut deleting = claim.clone();
        deleting.metadata.deletion_timestamp = Some(k8s_time(cluster.now_ms));
        deleting.metadata.deletion_grace_period_seconds = Some(0);
        cluster.write(Object::PersistentVolumeClaim(deleting));
    }
    true
}

/// The PVC protection controller: a deleted claim no pod uses any more loses its finalizer and
/// goes.
#[doc(alias = "processPVC")]
fn release_unused_claims(cluster: &mut Cluster) {
    let released: Vec<Key> = cluster
        .store
        .persistent_volume_claims()
        .filter(|c| c.metadata.deletion_timestamp.is_some() && !claim_in_use(cluster, c))
        .map(|c| key_of(&c.metadata))
        .collect();
    for (ns, name) in released {
        cluster.remove_object(Kind::PersistentVolumeClaim, &ns, &name);
    }
}

fn sync_unbound_claim(cluster: &mut Cluster, ns: &str, name: &str) {
    let Some(claim) = cluster.store.persistent_volume_claim(ns, name).cloned() else {
        return;
    };
    if claim
        .spec
        .as_ref()
        .and_then(|s| s.volume_name.as_ref())
        .is_some()
    {
        return;
    }
    let reference = object_reference(Kind::PersistentVolumeClaim, &claim.metadata);
    let Some(class) = storage_class(cluster, &claim).cloned() else {
        // No volume is ever created by hand here, so a claim without a usable class waits.
        let (kind, reason, message) = match claim
            .spec
            .as_ref()
            .and_then(|s| s.storage_class_name.as_deref())
            .filter(|c| !c.is_empty())
        {
            None => (
                "Normal",
                "FailedBinding",
                "no persistent volumes available for this claim and no storage class is set"
                    .to_string(),
            ),
            Some(class) => (
                "Warning",
                "ProvisioningFailed",
                format!("storageclass.storage.k8s.io \"{class}\" not found"),
            ),
        };
        cluster.record_event(&reference, kind, reason, &message, PV_CONTROLLER, None);
        return;
    };
    let selected = claim
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(SELECTED_NODE_ANNOTATION))
        .cloned();
    let mode = class.volume_binding_mode.clone().unwrap_or_default();
    let node = match selected {
        Some(node) => node,
        None if mode == "WaitForFirstConsumer" => {
            cluster.record_event(
                &reference,
                "Normal",
                "WaitForFirstConsumer",
                "waiting for first consumer to be created before binding",
                PV_CONTROLLER,
                None,
            );
            return;
        }
        // Immediate binding needs a node for a local volume: the provisioner picks none here.
        None => return,
    };
    if class.provisioner != LOCAL_PATH {
        return;
    }
    provision(cluster, claim, &class, &node);
}

/// The PV controller hands the claim to the external provisioner (`ExternalProvisioning`), which
/// creates `pvc-<claim uid>` on the node; the controller then binds volume and claim.
#[doc(alias = "provisionClaim")]
fn provision(
    cluster: &mut Cluster,
    mut claim: PersistentVolumeClaim,
    class: &StorageClass,
    node: &str,
) {
    let (ns, name) = key_of(&claim.metadata);
    let reference = object_reference(Kind::PersistentVolumeClaim, &claim.metadata);
    cluster.record_event(
        &reference,
        "Normal",
        "ExternalProvisioning",
        &format!("Waiting for a volume to be created either by the external provisioner '{LOCAL_PATH}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered."),
        PV_CONTROLLER,
        None,
    );
    let provisioner = provisioner_identity(cluster);
    cluster.record_event(
        &reference,
        "Normal",
        "Provisioning",
        &format!("External provisioner is provisioning volume for claim \"{ns}/{name}\""),
        &provisioner,
        None,
    );
    let spec = claim.spec.clone().unwrap_or_default();
    let claim_uid = claim.metadata.uid.clone().unwrap_or_default();
    let pv_name = format!("pvc-{claim_uid}");
    let capacity = spec.resources.as_ref().and_then(|r| r.requests.clone());
    let now = k8s_time(cluster.now_ms);
    let volume = PersistentVolume {
        metadata: ObjectMeta {
            name: Some(pv_name.clone()),
            annotations: Some(BTreeMap::from([
                ("local.path.provisioner/selected-node".into(), node.into()),
                ("pv.kubernetes.io/provisioned-by".into(), LOCAL_PATH.into()),
            ])),
            finalizers: Some(vec!["kubernetes.io/pv-protection".into()]),
            ..Default::default()
        },
        spec: Some(PersistentVolumeSpec {
            access_modes: spec.access_modes.clone(),
            capacity: capacity.clone(),
            claim_ref: Some(ObjectReference {
                api_version: Some("v1".into()),
                kind: Some("PersistentVolumeClaim".into()),
                name: Some(name.clone()),
                namespace: Some(ns.clone()),
                resource_version: claim.metadata.resource_version.clone(),
                uid: Some(claim_uid.clone()),
                field_path: None,
            }),
            host_path: Some(HostPathVolumeSource {
                path: format!("{LOCAL_PATH_DIR}/{pv_name}_{ns}_{name}"),
                type_: Some("DirectoryOrCreate".into()),
            }),
            node_affinity: Some(VolumeNodeAffinity {
                required: Some(NodeSelector {
                    node_selector_terms: vec![NodeSelectorTerm {
                        match_expressions: Some(vec![NodeSelectorRequirement {
                            key: "kubernetes.io/hostname".into(),
                            operator: "In".into(),
                            values: Some(vec![node.into()]),
                        }]),
                        match_fields: None,
                    }],
                }),
            }),
            persistent_volume_reclaim_policy: class.reclaim_policy.clone(),
            storage_class_name: class.metadata.name.clone(),
            volume_mode: spec.volume_mode.clone(),
            ..Default::default()
        }),
        status: None,
    };
    if cluster
        .create_internal(Object::PersistentVolume(Box::new(volume)))
        .is_err()
    {
        return;
    }
    cluster.record_event(
        &reference,
        "Normal",
        "ProvisioningSucceeded",
        &format!("Successfully provisioned volume {pv_name}"),
        &provisioner,
        None,
    );
    if let Some(mut pv) = cluster.store.persistent_volume(&pv_name).cloned() {
        pv.status = Some(PersistentVolumeStatus {
            phase: Some("Bound".into()),
            last_phase_transition_time: Some(now),
            ..Default::default()
        });
        cluster.write(Object::PersistentVolume(Box::new(pv)));
    }
    let annotations = claim.metadata.annotations.get_or_insert_with(BTreeMap::new);
    for (key, value) in [
        ("pv.kubernetes.io/bind-completed", "yes"),
        ("pv.kubernetes.io/bound-by-controller", "yes"),
        ("volume.beta.kubernetes.io/storage-provisioner", LOCAL_PATH),
        ("volume.kubernetes.io/storage-provisioner", LOCAL_PATH),
    ] {
        annotations.insert(key.into(), value.into());
    }
    claim.spec.get_or_insert_with(Default::default).volume_name = Some(pv_name);
    claim.status = Some(PersistentVolumeClaimStatus {
        access_modes: spec.access_modes,
        capacity,
        phase: Some("Bound".into()),
        ..Default::default()
    });
    cluster.write(Object::PersistentVolumeClaim(claim));
}

/// The provisioner's event source: `rancher.io/local-path_<its pod>_<its uid>`.
fn provisioner_identity(cluster: &Cluster) -> String {
    let pod = cluster
        .store
        .pods()
        .find(|p| {
            p.metadata.namespace.as_deref() == Some("local-path-storage")
                && p.metadata
                    .name
                    .as_deref()
                    .is_some_and(|n| n.starts_with("local-path-provisioner-"))
        })
        .map(|p| {
            (
                p.metadata.name.clone().unwrap_or_default(),
                p.metadata.uid.clone().unwrap_or_default(),
            )
        })
        .unwrap_or_default();
    format!("{LOCAL_PATH}_{}_{}", pod.0, pod.1)
}

/// Provisioned volumes whose claim is gone: `Delete` removes them (the provisioner cleans the
/// directory up), `Retain` leaves them `Released`.
fn reclaim_released_volumes(cluster: &mut Cluster) {
    let released: Vec<(Key, String)> = cluster
        .store
        .persistent_volumes()
        .filter_map(|pv| {
            let spec = pv.spec.as_ref()?;
            let claim = spec.claim_ref.as_ref()?;
            let live = cluster
                .store
                .persistent_volume_claim(
                    claim.namespace.as_deref().unwrap_or(""),
                    claim.name.as_deref().unwrap_or(""),
                )
                .is_some_and(|c| c.metadata.uid == claim.uid);
            (!live).then(|| {
                (
                    key_of(&pv.metadata),
                    spec.persistent_volume_reclaim_policy
                        .clone()
                        .unwrap_or_default(),
                )
            })
        })
        .collect();
    for ((_, name), policy) in released {
        if policy == "Delete" {
            cluster.remove_object(Kind::PersistentVolume, "", &name);
        } else if let Some(mut pv) = cluster.store.persistent_volume(&name).cloned() {
            let status = pv.status.get_or_insert_with(Default::default);
            if status.phase.as_deref() != Some("Released") {
                status.phase = Some("Released".into());
                status.last_phase_transition_time = Some(k8s_time(cluster.now_ms));
                cluster.write(Object::PersistentVolume(Box::new(pv)));
            }
        }
    }
}
