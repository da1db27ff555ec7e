//! `kubectl get` rows of StatefulSets, PersistentVolumeClaims, PersistentVolumes and
//! StorageClasses, as the API server's table convertor builds them
//! (`pkg/printers/internalversion/printers.go` `printStatefulSet`, `printPersistentVolumeClaim`,
//! `printPersistentVolume`, `printStorageClass`).

use super::age::age_since;
use super::get::layout_container_cells;
use super::table::{Column, Row, Table};
use chrono::{DateTime, Utc};
use dsplay_api::types::*;

fn row(meta: &ObjectMeta, cells: Vec<String>) -> Row {
    Row {
        namespace: meta.namespace.clone().unwrap_or_default(),
        cells,
        labels: meta.labels.clone().unwrap_or_default(),
    }
}

fn age(meta: &ObjectMeta, now: DateTime<Utc>) -> String {
    age_since(meta.creation_timestamp.as_ref().map(|t| &t.0), now)
}

/// `printStatefulSet`: NAME READY AGE (+ wide CONTAINERS IMAGES).
#[doc(alias = "printStatefulSet")]
pub fn stateful_set_table(items: &[&StatefulSet], now: DateTime<Utc>) -> Table {
    let columns = vec![
        Column::new("Name"),
        Column::new("Ready"),
        Column::new("Age"),
        Column::wide("Containers"),
        Column::wide("Images"),
    ];
    let rows = items
        .iter()
        .map(|s| {
            let spec = s.spec.as_ref();
            let containers = spec
                .and_then(|s| s.template.spec.as_ref())
                .map(|p| p.containers.as_slice())
                .unwrap_or(&[]);
            let (names, images) = layout_container_cells(containers);
            let ready = s
                .status
                .as_ref()
                .and_then(|st| st.ready_replicas)
                .unwrap_or(0);
            row(
                &s.metadata,
                vec![
                    s.metadata.name.clone().unwrap_or_default(),
                    format!("{ready}/{}", spec.and_then(|s| s.replicas).unwrap_or(0)),
                    age(&s.metadata, now),
                    names,
                    images,
                ],
            )
        })
        .collect();
    Table { columns, rows }
}

/// `GetAccessModesAsString`: RWO, ROX, RWX, RWOP in that order.
#[doc(alias = "GetAccessModesAsString")]
pub fn access_modes_as_string(modes: &[String]) -> String {
    [
        ("ReadWriteOnce", "RWO"),
        ("ReadOnlyMany", "ROX"),
        ("ReadWriteMany", "RWX"),
        ("ReadWriteOncePod", "RWOP"),
    ]
    .into_iter()
    .filter(|(mode, _)| modes.iter().any(|m| m == mode))
    .map(|(_, short)| short)
    .collect::<Vec<_>>()
    .join(",")
}

/// The `storage` entry of a resource list, as the quantity was written.
pub fn storage_of(list: Option<&std::collections::BTreeMap<String, Quantity>>) -> String {
    list.and_then(|l| l.get("storage"))
        .map(|q| q.0.clone())
        .unwrap_or_default()
}

/// `printPersistentVolumeClaim`: NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS
/// VOLUMEATTRIBUTESCLASS AGE (+ wide VOLUMEMODE); capacity and modes only once bound.
#[doc(alias = "printPersistentVolumeClaim")]
pub fn persistent_volume_claim_table(
    items: &[&PersistentVolumeClaim],
    now: DateTime<Utc>,
) -> Table {
    let columns = vec![
        Column::new("Name"),
        Column::new("Status"),
        Column::new("Volume"),
        Column::new("Capacity"),
        Column::new("Access Modes"),
        Column::new("StorageClass"),
        Column::new("VolumeAttributesClass"),
        Column::new("Age"),
        Column::wide("VolumeMode"),
    ];
    let rows = items
        .iter()
        .map(|c| {
            let spec = c.spec.clone().unwrap_or_default();
            let status = c.status.clone().unwrap_or_default();
            let phase = if c.metadata.deletion_timestamp.is_some() {
                "Terminating".to_string()
            } else {
                status.phase.clone().unwrap_or_default()
            };
            let volume = spec.volume_name.clone().unwrap_or_default();
            let (capacity, modes) = if volume.is_empty() {
                (String::new(), String::new())
            } else {
                (
                    storage_of(status.capacity.as_ref()),
                    access_modes_as_string(status.access_modes.as_deref().unwrap_or(&[])),
                )
            };
            row(
                &c.metadata,
                vec![
                    c.metadata.name.clone().unwrap_or_default(),
                    phase,
                    volume,
                    capacity,
                    modes,
                    spec.storage_class_name.clone().unwrap_or_default(),
                    attributes_class(spec.volume_attributes_class_name.as_deref()),
                    age(&c.metadata, now),
                    spec.volume_mode.unwrap_or_else(|| "<unset>".into()),
                ],
            )
        })
        .collect();
    Table { columns, rows }
}

fn attributes_class(name: Option<&str>) -> String {
    name.filter(|n| !n.is_empty())
        .unwrap_or("<unset>")
        .to_string()
}

/// `printPersistentVolume`: NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM STORAGECLASS
/// VOLUMEATTRIBUTESCLASS REASON AGE (+ wide VOLUMEMODE).
#[doc(alias = "printPersistentVolume")]
pub fn persistent_volume_table(items: &[&PersistentVolume], now: DateTime<Utc>) -> Table {
    let columns = vec![
        Column::new("Name"),
        Column::new("Capacity"),
        Column::new("Access Modes"),
        Column::new("Reclaim Policy"),
        Column::new("Status"),
        Column::new("Claim"),
        Column::new("StorageClass"),
        Column::new("VolumeAttributesClass"),
        Column::new("Reason"),
        Column::new("Age"),
        Column::wide("VolumeMode"),
    ];
    let rows = items
        .iter()
        .map(|pv| {
            let spec = pv.spec.clone().unwrap_or_default();
            let status = pv.status.clone().unwrap_or_default();
            let claim = claim_of(&spec);
            let phase = if pv.metadata.deletion_timestamp.is_some() {
                "Terminating".to_string()
            } else {
                status.phase.clone().unwrap_or_default()
            };
            row(
                &pv.metadata,
                vec![
                    pv.metadata.name.clone().unwrap_or_default(),
                    storage_of(spec.capacity.as_ref()),
                    access_modes_as_string(spec.access_modes.as_deref().unwrap_or(&[])),
                    spec.persistent_volume_reclaim_policy
                        .clone()
                        .unwrap_or_default(),
                    phase,
                    claim,
                    spec.storage_class_name.clone().unwrap_or_default(),
                    attributes_class(spec.volume_attributes_class_name.as_deref()),
                    status.reason.clone().unwrap_or_default(),
                    age(&pv.metadata, now),
                    spec.volume_mode.unwrap_or_else(|| "<unset>".into()),
                ],
            )
        })
        .collect();
    Table { columns, rows }
}

/// The `namespace/name` of the claim a volume is bound to ("" when none).
pub fn claim_of(spec: &PersistentVolumeSpec) -> String {
    spec.claim_ref
        .as_ref()
        .map(|r| {
            format!(
                "{}/{}",
                r.namespace.as_deref().unwrap_or(""),
                r.name.as_deref().unwrap_or("")
            )
        })
        .unwrap_or_default()
}

/// Whether a StorageClass is annotated as the default (`storageutil.IsDefaultAnnotation`).
#[doc(alias = "IsDefaultAnnotation")]
pub fn is_default_class(meta: &ObjectMeta) -> bool {
    meta.annotations
        .as_ref()
        .and_then(|a| a.get("storageclass.kubernetes.io/is-default-class"))
        .is_some_and(|v| v == "true")
}

/// `printStorageClass`: NAME (`(default)` marked) PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE
/// ALLOWVOLUMEEXPANSION AGE.
#[doc(alias = "printStorageClass")]
pub fn storage_class_table(items: &[&StorageClass], now: DateTime<Utc>) -> Table {
    let columns = vec![
        Column::new("Name"),
        Column::new("Provisioner"),
        Column::new("ReclaimPolicy"),
        Column::new("VolumeBindingMode"),
        Column::new("AllowVolumeExpansion"),
        Column::new("Age"),
    ];
    let rows = items
        .iter()
        .map(|sc| {
            let mut name = sc.metadata.name.clone().unwrap_or_default();
            if is_default_class(&sc.metadata) {
                name.push_str(" (default)");
            }
            row(
                &sc.metadata,
                vec![
                    name,
                    sc.provisioner.clone(),
                    sc.reclaim_policy.clone().unwrap_or_else(|| "Delete".into()),
                    sc.volume_binding_mode
                        .clone()
                        .unwrap_or_else(|| "Immediate".into()),
                    sc.allow_volume_expansion.unwrap_or(false).to_string(),
                    age(&sc.metadata, now),
                ],
            )
        })
        .collect();
    Table { columns, rows }
}
