//! Deployment and ReplicaSet validation (`pkg/apis/apps/validation/validation.go`
//! `ValidateDeployment`, `ValidateDeploymentSpec`, `ValidateDeploymentStrategy`,
//! `ValidateRollingUpdateDeployment`, `ValidateReplicaSet`, `ValidateReplicaSetSpec`,
//! `ValidatePodTemplateSpecForReplicaSet`).

use super::daemon_set::{
    int_or_percent_value, validate_not_more_than_100_percent, validate_positive_int_or_percent,
};
use super::go_value::{go_label_selector, go_quote, go_string_map};
use super::meta::{validate_label_selector, validate_nonnegative, validate_object_meta, NameRule};
use super::pod::validate_pod_template_spec;
use super::{Errors, FieldError};
use crate::selector;
use crate::types::*;
use std::collections::BTreeMap;

/// `ValidateDeployment`: metadata (a DNS-1123 subdomain name), then the spec.
#[doc(alias = "ValidateDeployment")]
pub fn validate_deployment(d: &Deployment) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&d.metadata, true, NameRule::Subdomain, "metadata");
    let default_spec = DeploymentSpec::default();
    errors.extend(validate_deployment_spec(
        d.spec.as_ref().unwrap_or(&default_spec),
    ));
    errors
}

/// `ValidateDeploymentSpec`, in upstream order.
#[doc(alias = "ValidateDeploymentSpec")]
fn validate_deployment_spec(spec: &DeploymentSpec) -> Errors {
    let mut errors = validate_nonnegative(i64::from(spec.replicas.unwrap_or(1)), "spec.replicas");
    errors.extend(validate_selector(&spec.selector));
    errors.extend(validate_pod_template_spec_for_replica_set(
        &spec.selector,
        &spec.template,
    ));
    errors.extend(validate_deployment_strategy(
        spec.strategy.as_ref(),
        "spec.strategy",
    ));
    let min_ready = spec.min_ready_seconds.unwrap_or(0);
    errors.extend(validate_nonnegative(
        i64::from(min_ready),
        "spec.minReadySeconds",
    ));
    if let Some(limit) = spec.revision_history_limit {
        errors.extend(validate_nonnegative(
            i64::from(limit),
            "spec.revisionHistoryLimit",
        ));
    }
    if let Some(deadline) = spec.progress_deadline_seconds {
        errors.extend(validate_nonnegative(
            i64::from(deadline),
            "spec.progressDeadlineSeconds",
        ));
        if deadline <= min_ready {
            errors.push(FieldError::invalid(
                "spec.progressDeadlineSeconds",
                deadline.to_string(),
                "must be greater than minReadySeconds",
            ));
        }
    }
    errors
}

/// `ValidateReplicaSet`: metadata, then the spec.
#[doc(alias = "ValidateReplicaSet")]
pub fn validate_replica_set(rs: &ReplicaSet) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&rs.metadata, true, NameRule::Subdomain, "metadata");
    let default_spec = ReplicaSetSpec::default();
    errors.extend(validate_replica_set_spec(
        rs.spec.as_ref().unwrap_or(&default_spec),
    ));
    errors
}

/// `ValidateReplicaSetSpec`, in upstream order.
#[doc(alias = "ValidateReplicaSetSpec")]
fn validate_replica_set_spec(spec: &ReplicaSetSpec) -> Errors {
    let mut errors = validate_nonnegative(i64::from(spec.replicas.unwrap_or(1)), "spec.replicas");
    errors.extend(validate_nonnegative(
        i64::from(spec.min_ready_seconds.unwrap_or(0)),
        "spec.minReadySeconds",
    ));
    errors.extend(validate_selector(&spec.selector));
    let template = spec.template.clone().unwrap_or_default();
    errors.extend(validate_pod_template_spec_for_replica_set(
        &spec.selector,
        &template,
    ));
    errors
}

/// A nil selector (absent in the manifest); an explicit `{}` is marked by the manifest decoder with
/// an empty, non-nil `matchExpressions`.
fn selector_is_nil(s: &LabelSelector) -> bool {
    s.match_labels.is_none() && s.match_expressions.is_none()
}

/// `spec.selector: Required value`, the selector's own syntax, and `empty selector is invalid for
/// deployment` (upstream says "deployment" for ReplicaSets too).
fn validate_selector(s: &LabelSelector) -> Errors {
    if selector_is_nil(s) {
        return vec![FieldError::required("spec.selector", "")];
    }
    let mut errors = validate_label_selector(s, "spec.selector");
    let count = s.match_labels.as_ref().map_or(0, BTreeMap::len)
        + s.match_expressions.as_ref().map_or(0, Vec::len);
    if count == 0 {
        errors.push(FieldError::invalid(
            "spec.selector",
            go_label_selector(Some(s)),
            "empty selector is invalid for deployment",
        ));
    }
    errors
}

/// `ValidatePodTemplateSpecForReplicaSet`: the selector (unless it selects everything) matches the
/// template labels, the template itself, restartPolicy Always, no activeDeadlineSeconds.
#[doc(alias = "ValidatePodTemplateSpecForReplicaSet")]
fn validate_pod_template_spec_for_replica_set(
    selector: &LabelSelector,
    template: &PodTemplateSpec,
) -> Errors {
    let wanted = if selector_is_nil(selector) {
        None
    } else {
        Some(selector)
    };
    let parsed = match selector::from_label_selector(wanted) {
        Ok(parsed) => parsed,
        Err(_) => {
            return vec![FieldError::invalid(
                "spec.selector",
                go_label_selector(Some(selector)),
                "invalid label selector",
            )]
        }
    };
    let mut errors = Vec::new();
    let labels = template.metadata.as_ref().and_then(|m| m.labels.clone());
    let explicit_empty = !selector_is_nil(selector) && parsed.is_empty();
    if !explicit_empty && !parsed.matches(labels.as_ref().unwrap_or(&BTreeMap::new())) {
        let shown = match &labels {
            Some(l) => go_string_map(l),
            None => "map[string]string(nil)".to_string(),
        };
        errors.push(FieldError::invalid(
            "spec.template.metadata.labels",
            shown,
            "`selector` does not match template `labels`",
        ));
    }
    errors.extend(validate_pod_template_spec(template, "spec.template"));
    let pod_spec = template.spec.clone().unwrap_or_default();
    let policy = pod_spec.restart_policy.as_deref().unwrap_or("");
    if policy != "Always" {
        errors.push(FieldError::not_supported(
            "spec.template.spec.restartPolicy",
            go_quote(policy),
            &["Always"],
        ));
    }
    if let Some(deadline) = pod_spec.active_deadline_seconds {
        errors.push(FieldError::invalid(
            "spec.template.spec.activeDeadlineSeconds",
            deadline.to_string(),
            "activeDeadlineSeconds in ReplicaSet is not Supported",
        ));
    }
    errors
}

/// `ValidateDeploymentStrategy`: Recreate (no rollingUpdate) or RollingUpdate (validated).
#[doc(alias = "ValidateDeploymentStrategy")]
fn validate_deployment_strategy(strategy: Option<&DeploymentStrategy>, path: &str) -> Errors {
    let default = DeploymentStrategy::default();
    let strategy = strategy.unwrap_or(&default);
    match strategy.type_.as_deref().unwrap_or("") {
        "Recreate" if strategy.rolling_update.is_some() => vec![FieldError::forbidden(
            format!("{path}.rollingUpdate"),
            "may not be specified when strategy `type` is 'Recreate'",
        )],
        "Recreate" => Vec::new(),
        "RollingUpdate" => match &strategy.rolling_update {
            None => vec![FieldError::required(
                format!("{path}.rollingUpdate"),
                "this should be defaulted and never be nil",
            )],
            Some(ru) => validate_rolling_update_deployment(ru, &format!("{path}.rollingUpdate")),
        },
        other => {
            let rolling = if strategy.rolling_update.is_some() {
                "(*apps.RollingUpdateDeployment)(0xc000a1c0c0)"
            } else {
                "(*apps.RollingUpdateDeployment)(nil)"
            };
            let shown = format!(
                "apps.DeploymentStrategy{{Type:{}, RollingUpdate:{rolling}}}",
                go_quote(other)
            );
            vec![FieldError::not_supported(
                path,
                shown,
                &["Recreate", "RollingUpdate"],
            )]
        }
    }
}

/// `ValidateRollingUpdateDeployment`: each value a non-negative int or percent, not both zero,
/// maxUnavailable at most 100%.
#[doc(alias = "ValidateRollingUpdateDeployment")]
fn validate_rolling_update_deployment(ru: &RollingUpdateDeployment, path: &str) -> Errors {
    let zero = IntOrString::Int(0);
    let max_unavailable = ru.max_unavailable.as_ref().unwrap_or(&zero);
    let max_surge = ru.max_surge.as_ref().unwrap_or(&zero);
    let unavailable_path = format!("{path}.maxUnavailable");
    let mut errors = validate_positive_int_or_percent(max_unavailable, &unavailable_path);
    errors.extend(validate_positive_int_or_percent(
        max_surge,
        &format!("{path}.maxSurge"),
    ));
    if int_or_percent_value(max_unavailable) == 0 && int_or_percent_value(max_surge) == 0 {
        errors.push(FieldError::invalid(
            &unavailable_path,
            crate::int_or_percent::format(max_unavailable),
            "may not be 0 when `maxSurge` is 0",
        ));
    }
    errors.extend(validate_not_more_than_100_percent(
        max_unavailable,
        &unavailable_path,
    ));
    errors
}
