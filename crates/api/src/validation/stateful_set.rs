//! StatefulSet validation (`pkg/apis/apps/validation/validation.go` `ValidateStatefulSet`,
//! `ValidateStatefulSetSpec`, `ValidatePodTemplateSpecForStatefulSet`,
//! `validateRollingUpdateStatefulSet`, `ValidatePersistentVolumeClaimRetentionPolicy`,
//! `ValidateStatefulSetUpdate`).

use super::daemon_set::{
    int_or_percent_value, selector_is_nil, selector_mismatch, validate_daemon_set_restart_policy,
    validate_not_more_than_100_percent, validate_positive_int_or_percent,
};
use super::go_value::{go_label_selector, go_quote};
use super::meta::{
    validate_label_selector, validate_labels_and_annotations, validate_nonnegative,
    validate_object_meta, NameRule,
};
use super::{Errors, FieldError};
use crate::selector;
use crate::types::*;
use std::collections::BTreeMap;

/// The one message of a StatefulSet update that changes a field other than these.
pub const FORBIDDEN_UPDATE: &str = "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

/// `ValidateStatefulSet`: metadata (the name is a DNS-1123 label: it becomes the pods' host name
/// prefix, `ValidateStatefulSetName`), then the spec.
#[doc(alias = "ValidateStatefulSet")]
pub fn validate_stateful_set(sts: &StatefulSet) -> Vec<FieldError> {
    let spec = sts.spec.clone().unwrap_or_default();
    let mut errors = validate_object_meta(&sts.metadata, true, NameRule::Label, "metadata");
    errors.extend(validate_stateful_set_spec(&spec));
    errors
}

/// `ValidateStatefulSetSpec`, in upstream order.
#[doc(alias = "ValidateStatefulSetSpec")]
fn validate_stateful_set_spec(spec: &StatefulSetSpec) -> Errors {
    let mut errors = Vec::new();
    match spec.pod_management_policy.as_deref().unwrap_or("") {
        "" => errors.push(FieldError::required("spec.podManagementPolicy", "")),
        "OrderedReady" | "Parallel" => {}
        other => errors.push(FieldError::invalid(
            "spec.podManagementPolicy",
            go_quote(other),
            "must be 'OrderedReady' or 'Parallel'",
        )),
    }
    errors.extend(validate_update_strategy(spec.update_strategy.as_ref()));
    errors.extend(validate_persistent_volume_claim_retention_policy(
        spec.persistent_volume_claim_retention_policy.as_ref(),
    ));
    errors.extend(validate_nonnegative(
        i64::from(spec.replicas.unwrap_or(1)),
        "spec.replicas",
    ));
    errors.extend(validate_nonnegative(
        i64::from(spec.min_ready_seconds.unwrap_or(0)),
        "spec.minReadySeconds",
    ));
    if let Some(ordinals) = &spec.ordinals {
        errors.extend(validate_nonnegative(
            i64::from(ordinals.start.unwrap_or(0)),
            "spec.ordinals.start",
        ));
    }
    let selector_ok = if selector_is_nil(&spec.selector) {
        errors.push(FieldError::required("spec.selector", ""));
        true
    } else {
        let syntax = validate_label_selector(&spec.selector, "spec.selector");
        let ok = syntax.is_empty();
        errors.extend(syntax);
        let count = spec.selector.match_labels.as_ref().map_or(0, BTreeMap::len)
            + spec.selector.match_expressions.as_ref().map_or(0, Vec::len);
        if count == 0 {
            errors.push(FieldError::invalid(
                "spec.selector",
                go_label_selector(Some(&spec.selector)),
                "empty selector is invalid for statefulset",
            ));
        }
        ok
    };
    if selector_ok {
        errors.extend(validate_pod_template_spec_for_stateful_set(spec));
    } else {
        errors.push(FieldError::invalid(
            "spec.selector",
            go_label_selector(Some(&spec.selector)),
            "",
        ));
    }
    let pod_spec = spec.template.spec.clone().unwrap_or_default();
    errors.extend(validate_daemon_set_restart_policy(&pod_spec));
    if pod_spec.active_deadline_seconds.is_some() {
        errors.push(FieldError::forbidden(
            "spec.template.spec.activeDeadlineSeconds",
            "activeDeadlineSeconds in StatefulSet is not Supported",
        ));
    }
    errors
}

/// The update strategy: RollingUpdate (partition, maxUnavailable) or OnDelete (no rollingUpdate).
fn validate_update_strategy(strategy: Option<&StatefulSetUpdateStrategy>) -> Errors {
    let default = StatefulSetUpdateStrategy::default();
    let strategy = strategy.unwrap_or(&default);
    match strategy.type_.as_deref().unwrap_or("") {
        "" => vec![FieldError::required("spec.updateStrategy", "")],
        "OnDelete" => match &strategy.rolling_update {
            Some(rolling) => vec![FieldError::invalid(
                "spec.updateStrategy.rollingUpdate",
                go_rolling_update(rolling),
                "only allowed for updateStrategy 'RollingUpdate'",
            )],
            None => Vec::new(),
        },
        "RollingUpdate" => strategy
            .rolling_update
            .as_ref()
            .map(validate_rolling_update_stateful_set)
            .unwrap_or_default(),
        other => {
            let rolling = if strategy.rolling_update.is_some() {
                "(*apps.RollingUpdateStatefulSetStrategy)(0xc000a1c0c0)"
            } else {
                "(*apps.RollingUpdateStatefulSetStrategy)(nil)"
            };
            vec![FieldError::invalid(
                "spec.updateStrategy",
                format!(
                    "apps.StatefulSetUpdateStrategy{{Type:{}, RollingUpdate:{rolling}}}",
                    go_quote(other)
                ),
                "must be 'RollingUpdate' or 'OnDelete'",
            )]
        }
    }
}

/// The internal `RollingUpdateStatefulSetStrategy` as Go's `%#v` prints it.
fn go_rolling_update(rolling: &RollingUpdateStatefulSetStrategy) -> String {
    let max_unavailable = if rolling.max_unavailable.is_some() {
        "(*intstr.IntOrString)(0xc000a1c0c8)"
    } else {
        "(*intstr.IntOrString)(nil)"
    };
    format!(
        "apps.RollingUpdateStatefulSetStrategy{{Partition:{}, MaxUnavailable:{max_unavailable}}}",
        rolling.partition.unwrap_or(0)
    )
}

/// `validateRollingUpdateStatefulSet`: partition ≥ 0; maxUnavailable positive, not 0, ≤ 100 %.
#[doc(alias = "validateRollingUpdateStatefulSet")]
fn validate_rolling_update_stateful_set(rolling: &RollingUpdateStatefulSetStrategy) -> Errors {
    let path = "spec.updateStrategy.rollingUpdate";
    let mut errors = validate_nonnegative(
        i64::from(rolling.partition.unwrap_or(0)),
        &format!("{path}.partition"),
    );
    if let Some(max) = &rolling.max_unavailable {
        let max_path = format!("{path}.maxUnavailable");
        errors.extend(validate_positive_int_or_percent(max, &max_path));
        if int_or_percent_value(max) == 0 {
            let shown = match max {
                IntOrString::Int(n) => n.to_string(),
                IntOrString::String(s) => go_quote(s),
            };
            errors.push(FieldError::invalid(&max_path, shown, "cannot be 0"));
        }
        errors.extend(validate_not_more_than_100_percent(max, &max_path));
    }
    errors
}

/// `ValidatePersistentVolumeClaimRetentionPolicy`: each of whenDeleted / whenScaled is Retain or Delete.
#[doc(alias = "ValidatePersistentVolumeClaimRetentionPolicy")]
fn validate_persistent_volume_claim_retention_policy(
    policy: Option<&StatefulSetPersistentVolumeClaimRetentionPolicy>,
) -> Errors {
    let Some(policy) = policy else {
        return Vec::new();
    };
    let path = "spec.persistentVolumeClaimRetentionPolicy";
    [
        ("whenDeleted", &policy.when_deleted),
        ("whenScaled", &policy.when_scaled),
    ]
    .into_iter()
    .filter_map(|(field, value)| {
        let value = value.as_deref().unwrap_or("");
        (!matches!(value, "Retain" | "Delete")).then(|| {
            FieldError::not_supported(
                format!("{path}.{field}"),
                go_quote(value),
                &["Retain", "Delete"],
            )
        })
    })
    .collect()
}

/// `ValidatePodTemplateSpecForStatefulSet`: the selector (unless it selects everything) matches the
/// template labels, and the template's labels are valid. Upstream checks no more of the pod
/// template here: a template the pod validation rejects fails when the pods are created.
#[doc(alias = "ValidatePodTemplateSpecForStatefulSet")]
fn validate_pod_template_spec_for_stateful_set(spec: &StatefulSetSpec) -> Errors {
    let mut errors = Vec::new();
    let labels = spec
        .template
        .metadata
        .as_ref()
        .and_then(|m| m.labels.clone());
    // A nil selector selects nothing (`labels.Nothing()`), an explicit `{}` everything.
    let nil = selector_is_nil(&spec.selector);
    if let Ok(parsed) = selector::from_label_selector(Some(&spec.selector)) {
        let matches = !nil && parsed.matches(labels.as_ref().unwrap_or(&BTreeMap::new()));
        if (nil || !parsed.is_empty()) && !matches {
            errors.push(selector_mismatch(labels.as_ref()));
        }
    }
    if let Some(meta) = &spec.template.metadata {
        errors.extend(validate_labels_and_annotations(meta, "spec.template"));
    }
    errors
}

/// `ValidateStatefulSetUpdate`: the spec is valid, and nothing but replicas, ordinals, template,
/// updateStrategy, persistentVolumeClaimRetentionPolicy and minReadySeconds changed.
#[doc(alias = "ValidateStatefulSetUpdate")]
pub fn validate_stateful_set_update(old: &StatefulSet, new: &StatefulSet) -> Vec<FieldError> {
    let (Some(old_spec), Some(new_spec)) = (&old.spec, &new.spec) else {
        return Vec::new();
    };
    let mut clone = new_spec.clone();
    clone.replicas = old_spec.replicas;
    clone.template = old_spec.template.clone();
    clone.update_strategy = old_spec.update_strategy.clone();
    clone.min_ready_seconds = old_spec.min_ready_seconds;
    clone.ordinals = old_spec.ordinals.clone();
    clone.persistent_volume_claim_retention_policy =
        old_spec.persistent_volume_claim_retention_policy.clone();
    if clone == *old_spec {
        Vec::new()
    } else {
        vec![FieldError::forbidden("spec", FORBIDDEN_UPDATE)]
    }
}
