//! DaemonSet validation (`pkg/apis/apps/validation/validation.go` `ValidateDaemonSet`,
//! `ValidateDaemonSetSpec`, `ValidateDaemonSetUpdateStrategy`).

use super::go_value::{go_label_selector, go_quote, go_string_map};
use super::meta::{validate_label_selector, validate_nonnegative, validate_object_meta, NameRule};
use super::pod::validate_pod_template_spec;
use super::syntax::is_valid_percent;
use super::{Errors, FieldError};
use crate::selector;
use crate::types::*;
use std::collections::BTreeMap;

/// `ValidateDaemonSet`: metadata (name is a DNS-1123 subdomain), then the spec.
#[doc(alias = "ValidateDaemonSet")]
pub fn validate_daemon_set(ds: &DaemonSet) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&ds.metadata, true, NameRule::Subdomain, "metadata");
    let default_spec = DaemonSetSpec::default();
    errors.extend(validate_daemon_set_spec(
        ds.spec.as_ref().unwrap_or(&default_spec),
    ));
    errors
}

/// `ValidateDaemonSetSpec`, in upstream order.
#[doc(alias = "ValidateDaemonSetSpec")]
fn validate_daemon_set_spec(spec: &DaemonSetSpec) -> Errors {
    let mut errors = validate_label_selector(&spec.selector, "spec.selector");
    // `LabelSelectorAsSelector` fails on the same defects, and then no match is attempted.
    if errors.is_empty() {
        errors.extend(validate_selector_matches_template(spec));
    }
    errors.extend(validate_selector_not_empty(&spec.selector));
    errors.extend(validate_pod_template_spec(&spec.template, "spec.template"));
    let pod_spec = spec.template.spec.clone().unwrap_or_default();
    errors.extend(validate_daemon_set_restart_policy(&pod_spec));
    errors.extend(validate_daemon_set_active_deadline(&pod_spec));
    errors.extend(validate_nonnegative(
        i64::from(spec.min_ready_seconds.unwrap_or(0)),
        "spec.minReadySeconds",
    ));
    errors.extend(validate_daemon_set_update_strategy(
        spec.update_strategy.as_ref(),
        "spec.updateStrategy",
    ));
    if let Some(limit) = spec.revision_history_limit {
        // Zero is a valid revisionHistoryLimit.
        errors.extend(validate_nonnegative(
            i64::from(limit),
            "spec.revisionHistoryLimit",
        ));
    }
    errors
}

/// A nil selector (absent in the manifest) selects nothing. k8s-openapi cannot tell nil from `{}`, so the
/// manifest decoder marks an explicit `{}` with an empty (non-nil) `matchExpressions` list.
pub(super) fn selector_is_nil(s: &LabelSelector) -> bool {
    s.match_labels.is_none() && s.match_expressions.is_none()
}

/// ``spec.template.metadata.labels: Invalid value: map[string]string{…}: `selector` does not
/// match template `labels` ``, the apps/v1 workloads' shared error.
pub(super) fn selector_mismatch(labels: Option<&BTreeMap<String, String>>) -> FieldError {
    let shown = match labels {
        Some(l) => go_string_map(l),
        None => "map[string]string(nil)".to_string(),
    };
    FieldError::invalid(
        "spec.template.metadata.labels",
        shown,
        "`selector` does not match template `labels`",
    )
}

fn selector_is_empty(s: &LabelSelector) -> bool {
    s.match_labels.as_ref().map_or(0, BTreeMap::len)
        + s.match_expressions.as_ref().map_or(0, Vec::len)
        == 0
}

/// ``spec.template.metadata.labels: Invalid value: map[string]string{…}: `selector` does not match template `labels` ``.
fn validate_selector_matches_template(spec: &DaemonSetSpec) -> Errors {
    let labels = spec
        .template
        .metadata
        .as_ref()
        .and_then(|m| m.labels.clone());
    let selector = if selector_is_nil(&spec.selector) {
        None
    } else {
        Some(&spec.selector)
    };
    let Ok(parsed) = selector::from_label_selector(selector) else {
        return Vec::new(); // an invalid selector was reported by validate_label_selector
    };
    if parsed.matches(labels.as_ref().unwrap_or(&BTreeMap::new())) {
        return Vec::new();
    }
    vec![selector_mismatch(labels.as_ref())]
}

/// `spec.selector: Invalid value: v1.LabelSelector{…}: empty selector is invalid for daemonset`.
fn validate_selector_not_empty(s: &LabelSelector) -> Errors {
    if selector_is_nil(s) || !selector_is_empty(s) {
        return Vec::new();
    }
    vec![FieldError::invalid(
        "spec.selector",
        go_label_selector(Some(s)),
        "empty selector is invalid for daemonset",
    )]
}

/// `spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`.
pub(super) fn validate_daemon_set_restart_policy(spec: &PodSpec) -> Errors {
    let policy = spec.restart_policy.as_deref().unwrap_or("");
    if policy == "Always" {
        return Vec::new();
    }
    vec![FieldError::not_supported(
        "spec.template.spec.restartPolicy",
        go_quote(policy),
        &["Always"],
    )]
}

/// `spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported`.
fn validate_daemon_set_active_deadline(spec: &PodSpec) -> Errors {
    if spec.active_deadline_seconds.is_none() {
        return Vec::new();
    }
    vec![FieldError::forbidden(
        "spec.template.spec.activeDeadlineSeconds",
        "activeDeadlineSeconds in DaemonSet is not Supported",
    )]
}

/// `ValidateDaemonSetUpdateStrategy`: type RollingUpdate (rollingUpdate required) or OnDelete.
#[doc(alias = "ValidateDaemonSetUpdateStrategy")]
pub(super) fn validate_daemon_set_update_strategy(
    strategy: Option<&DaemonSetUpdateStrategy>,
    path: &str,
) -> Errors {
    let default = DaemonSetUpdateStrategy::default();
    let strategy = strategy.unwrap_or(&default);
    match strategy.type_.as_deref().unwrap_or("") {
        "OnDelete" => Vec::new(),
        "RollingUpdate" => match &strategy.rolling_update {
            None => vec![FieldError::required(format!("{path}.rollingUpdate"), "")],
            Some(ru) => validate_rolling_update_daemon_set(ru, &format!("{path}.rollingUpdate")),
        },
        other => {
            let rolling = if strategy.rolling_update.is_some() {
                "(*apps.RollingUpdateDaemonSet)(0xc000a1c0c0)"
            } else {
                "(*apps.RollingUpdateDaemonSet)(nil)"
            };
            let shown = format!(
                "apps.DaemonSetUpdateStrategy{{Type:{}, RollingUpdate:{rolling}}}",
                go_quote(other)
            );
            vec![FieldError::not_supported(
                path,
                shown,
                &["RollingUpdate", "OnDelete"],
            )]
        }
    }
}

/// `ValidateRollingUpdateDaemonSet`: each value a non-negative int or a percent ≤ 100%, and exactly one
/// of maxUnavailable / maxSurge non-zero.
#[doc(alias = "ValidateRollingUpdateDaemonSet")]
fn validate_rolling_update_daemon_set(ru: &RollingUpdateDaemonSet, path: &str) -> Errors {
    let zero = IntOrString::Int(0);
    let max_unavailable = ru.max_unavailable.as_ref().unwrap_or(&zero);
    let max_surge = ru.max_surge.as_ref().unwrap_or(&zero);
    let unavailable_path = format!("{path}.maxUnavailable");
    let surge_path = format!("{path}.maxSurge");
    let mut errors = validate_positive_int_or_percent(max_unavailable, &unavailable_path);
    errors.extend(validate_positive_int_or_percent(max_surge, &surge_path));
    errors.extend(validate_not_more_than_100_percent(
        max_unavailable,
        &unavailable_path,
    ));
    errors.extend(validate_not_more_than_100_percent(max_surge, &surge_path));
    let has_unavailable = int_or_percent_value(max_unavailable) != 0;
    let has_surge = int_or_percent_value(max_surge) != 0;
    if has_unavailable && has_surge {
        errors.push(FieldError::invalid(
            surge_path,
            crate::int_or_percent::format(max_surge),
            "may not be set when maxUnavailable is non-zero",
        ));
    } else if !has_unavailable && !has_surge {
        errors.push(FieldError::required(
            unavailable_path,
            "cannot be 0 when maxSurge is 0",
        ));
    }
    errors
}

/// `ValidatePositiveIntOrPercent`: a percent string `^[0-9]+%$` or an int ≥ 0.
#[doc(alias = "ValidatePositiveIntOrPercent")]
pub(super) fn validate_positive_int_or_percent(value: &IntOrString, path: &str) -> Errors {
    match value {
        IntOrString::String(s) => is_valid_percent(s)
            .into_iter()
            .map(|msg| FieldError::invalid(path, go_quote(s), &msg))
            .collect(),
        IntOrString::Int(i) => validate_nonnegative(i64::from(*i), path),
    }
}

/// `IsNotMoreThan100Percent`: `Invalid value: 150%: must not be greater than 100%`.
#[doc(alias = "IsNotMoreThan100Percent")]
pub(super) fn validate_not_more_than_100_percent(value: &IntOrString, path: &str) -> Errors {
    match percent_value(value) {
        Some(p) if p > 100 => vec![FieldError::invalid(
            path,
            crate::int_or_percent::format(value),
            "must not be greater than 100%",
        )],
        _ => Vec::new(),
    }
}

/// `getPercentValue`: the number of a valid percent string (saturating like `strconv.Atoi`).
#[doc(alias = "getPercentValue")]
fn percent_value(value: &IntOrString) -> Option<i64> {
    let IntOrString::String(s) = value else {
        return None;
    };
    if !is_valid_percent(s).is_empty() {
        return None;
    }
    Some(s[..s.len() - 1].parse::<i64>().unwrap_or(i64::MAX))
}

/// `getIntOrPercentValue`: the percent, else `IntValue()` (a non-numeric string counts as 0).
#[doc(alias = "getIntOrPercentValue")]
pub(super) fn int_or_percent_value(value: &IntOrString) -> i64 {
    if let Some(p) = percent_value(value) {
        return p;
    }
    match value {
        IntOrString::Int(i) => i64::from(*i),
        IntOrString::String(s) => s.parse::<i64>().unwrap_or(0),
    }
}
