//! Storage validation: claims (`pkg/apis/core/validation/validation.go`
//! `ValidatePersistentVolumeClaim`, `ValidatePersistentVolumeClaimSpec`) and StorageClasses
//! (`pkg/apis/storage/validation/validation.go` `ValidateStorageClass`,
//! `ValidateStorageClassUpdate`).

use super::go_value::go_quote;
use super::meta::{validate_object_meta, NameRule};
use super::syntax::is_qualified_name;
use super::FieldError;
use crate::types::*;

/// `ValidatePersistentVolumeClaim` (the spec checks the playground models): metadata, at least
/// one supported access mode, and a storage request.
#[doc(alias = "ValidatePersistentVolumeClaim")]
pub fn validate_persistent_volume_claim(pvc: &PersistentVolumeClaim) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&pvc.metadata, true, NameRule::Subdomain, "metadata");
    errors.extend(validate_persistent_volume_claim_spec(
        &pvc.spec.clone().unwrap_or_default(),
        "spec",
    ));
    errors
}

/// `ValidatePersistentVolumeClaimSpec` (access modes and the storage request).
#[doc(alias = "ValidatePersistentVolumeClaimSpec")]
pub fn validate_persistent_volume_claim_spec(
    spec: &PersistentVolumeClaimSpec,
    path: &str,
) -> Vec<FieldError> {
    const MODES: [&str; 4] = [
        "ReadOnlyMany",
        "ReadWriteMany",
        "ReadWriteOnce",
        "ReadWriteOncePod",
    ];
    let mut errors = Vec::new();
    let modes = spec.access_modes.clone().unwrap_or_default();
    if modes.is_empty() {
        errors.push(FieldError::required(
            format!("{path}.accessModes"),
            "at least 1 access mode is required",
        ));
    }
    for mode in &modes {
        if !MODES.contains(&mode.as_str()) {
            errors.push(FieldError::not_supported(
                format!("{path}.accessModes"),
                go_quote(mode),
                &MODES,
            ));
        }
    }
    let storage = spec
        .resources
        .as_ref()
        .and_then(|r| r.requests.as_ref())
        .and_then(|r| r.get("storage"));
    let storage_path = format!("{path}.resources[storage]");
    match storage {
        None => errors.push(FieldError::required(storage_path, "")),
        Some(q) => match crate::quantity::milli(q) {
            Some(m) if m > 0 => {}
            _ => errors.push(FieldError::invalid(
                storage_path,
                go_quote(&q.0),
                "must be greater than zero",
            )),
        },
    }
    errors
}

/// `ValidateStorageClass`: metadata (cluster scoped), a provisioner that is a qualified name, a
/// supported reclaim policy and binding mode (both defaulted).
#[doc(alias = "ValidateStorageClass")]
pub fn validate_storage_class(sc: &StorageClass) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&sc.metadata, false, NameRule::Subdomain, "metadata");
    if sc.provisioner.is_empty() {
        errors.push(FieldError::required("provisioner", ""));
    } else {
        for message in is_qualified_name(&sc.provisioner.to_lowercase()) {
            errors.push(FieldError::invalid(
                "provisioner",
                go_quote(&sc.provisioner),
                &message,
            ));
        }
    }
    let policy = sc.reclaim_policy.as_deref().unwrap_or("");
    if !policy.is_empty() && !matches!(policy, "Delete" | "Retain") {
        errors.push(FieldError::not_supported(
            "reclaimPolicy",
            go_quote(policy),
            &["Delete", "Retain"],
        ));
    }
    match sc.volume_binding_mode.as_deref() {
        None => errors.push(FieldError::required("volumeBindingMode", "")),
        Some("Immediate" | "WaitForFirstConsumer") => {}
        Some(mode) => errors.push(FieldError::not_supported(
            "volumeBindingMode",
            go_quote(mode),
            &["Immediate", "WaitForFirstConsumer"],
        )),
    }
    errors
}

/// `ValidateStorageClassUpdate`: parameters, provisioner, reclaimPolicy and volumeBindingMode
/// cannot change.
#[doc(alias = "ValidateStorageClassUpdate")]
pub fn validate_storage_class_update(old: &StorageClass, new: &StorageClass) -> Vec<FieldError> {
    let changed = [
        (
            "parameters",
            old.parameters.clone().unwrap_or_default()
                != new.parameters.clone().unwrap_or_default(),
        ),
        ("provisioner", old.provisioner != new.provisioner),
        ("reclaimPolicy", old.reclaim_policy != new.reclaim_policy),
    ];
    let mut errors: Vec<FieldError> = changed
        .into_iter()
        .filter(|(_, changed)| *changed)
        .map(|(field, _)| {
            FieldError::forbidden(field, &format!("updates to {field} are forbidden."))
        })
        .collect();
    if old.volume_binding_mode != new.volume_binding_mode {
        errors.push(FieldError::invalid(
            "volumeBindingMode",
            go_quote(new.volume_binding_mode.as_deref().unwrap_or("")),
            "field is immutable",
        ));
    }
    errors
}
