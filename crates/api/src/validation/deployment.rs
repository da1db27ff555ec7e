//! Deployment and ReplicaSet validation (`pkg/apis/apps/validation/validation.go`
//! `ValidateDeployment`, `ValidateDeploymentSpec`, `ValidateDeploymentStrategy`,
//! `ValidateRollingUpdateDeployment`, `ValidateReplicaSet`, `ValidateReplicaSetSpec`,
//! `ValidatePodTemplateSpecForReplicaSet`).

use super::daemon_set::{
    int_or_percent_value, selector_is_nil, selector_mismatch, validate_daemon_set_restart_policy,
    validate_not_more_than_100_percent, validate_positive_int_or_percent,
};
use super::go_value::{go_label_selector, go_quote};
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
        errors.push(selector_mismatch(labels.as_ref()));
    }
    errors.extend(validate_pod_template_spec(template, "spec.template"));
    let pod_spec = template.spec.clone().unwrap_or_default();
    errors.extend(validate_daemon_set_restart_policy(&pod_spec));
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

#[cfg(test)]
mod tests {
    use crate::manifest::parse_manifests;
    use crate::object::Object;
    use crate::validation::{validate_create, validate_update};

    fn object(text: &str) -> Object {
        parse_manifests(text).remove(0).expect("manifest").object
    }

    fn deployment(spec_extra: &str, selector: &str, labels: &str) -> Object {
        object(&format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web}}\nspec:\n{spec_extra}{selector}  template:\n    metadata: {{labels: {labels}}}\n    spec: {{containers: [{{name: c, image: nginx}}]}}\n"
        ))
    }

    fn errors(o: &Object) -> Vec<String> {
        validate_create(o).iter().map(ToString::to_string).collect()
    }

    const SELECTOR: &str = "  selector: {matchLabels: {app: web}}\n";

    /// Port of TestValidateDeployment's success case: a defaulted Deployment is valid.
    #[test]
    fn validate_deployment_accepts_a_plain_deployment() {
        assert!(errors(&deployment("", SELECTOR, "{app: web}")).is_empty());
    }

    /// Port of TestValidateDeployment's error cases, with the API server's messages.
    #[test]
    fn validate_deployment_rejects_what_the_api_server_rejects() {
        let cases = [
            (
                deployment("", SELECTOR, "{app: other}"),
                "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"other\"}: `selector` does not match template `labels`",
            ),
            (
                deployment("  replicas: -1\n", SELECTOR, "{app: web}"),
                "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
            ),
            (
                deployment("", "", "{app: web}"),
                "spec.selector: Required value",
            ),
            (
                deployment("", "  selector: {}\n", "{app: web}"),
                "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment",
            ),
            (
                deployment(
                    "  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}\n",
                    SELECTOR,
                    "{app: web}",
                ),
                "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0",
            ),
            (
                deployment(
                    "  strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}\n",
                    SELECTOR,
                    "{app: web}",
                ),
                "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
            ),
            (
                deployment(
                    "  minReadySeconds: 30\n  progressDeadlineSeconds: 30\n",
                    SELECTOR,
                    "{app: web}",
                ),
                "spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds",
            ),
            (
                deployment(
                    "  strategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 150%}}\n",
                    SELECTOR,
                    "{app: web}",
                ),
                "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 150%: must not be greater than 100%",
            ),
        ];
        for (o, want) in cases {
            let got = errors(&o);
            assert!(got.iter().any(|e| e == want), "{want}\n got {got:#?}");
        }
    }

    /// Port of TestValidateDeploymentUpdate: the selector is immutable.
    #[test]
    fn validate_deployment_update_keeps_the_selector() {
        let old = deployment("", SELECTOR, "{app: web, tier: a}");
        let new = deployment(
            "",
            "  selector: {matchLabels: {app: web, tier: a}}\n",
            "{app: web, tier: a}",
        );
        let got: Vec<String> = validate_update(&old, &new)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(
            got.iter()
                .any(|e| e.starts_with("spec.selector: Invalid value:")
                    && e.ends_with("field is immutable")),
            "{got:#?}"
        );
    }

    /// Port of TestValidateReplicaSet: the same template rules, ReplicaSet paths.
    #[test]
    fn validate_replica_set_checks_replicas_and_labels() {
        let rs = object("apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs}\nspec:\n  replicas: -2\n  selector: {matchLabels: {app: rs}}\n  template:\n    metadata: {labels: {app: other}}\n    spec: {containers: [{name: c, image: nginx}], restartPolicy: OnFailure}\n");
        let got = errors(&rs);
        for want in [
            "spec.replicas: Invalid value: -2: must be greater than or equal to 0",
            "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"other\"}: `selector` does not match template `labels`",
            "spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\"",
        ] {
            assert!(got.iter().any(|e| e == want), "{want}\n got {got:#?}");
        }
    }

    /// Port of TestSetDefaultDeployment.
    #[test]
    fn set_defaults_deployment() {
        let mut o = deployment("", SELECTOR, "{app: web}");
        crate::defaults::apply_defaults(&mut o);
        let Object::Deployment(d) = o else {
            panic!("not a Deployment")
        };
        let spec = d.spec.unwrap();
        assert_eq!(spec.replicas, Some(1));
        assert_eq!(spec.revision_history_limit, Some(10));
        assert_eq!(spec.progress_deadline_seconds, Some(600));
        let strategy = spec.strategy.unwrap();
        assert_eq!(strategy.type_.as_deref(), Some("RollingUpdate"));
        let rolling = strategy.rolling_update.unwrap();
        let quarter = Some(crate::types::IntOrString::String("25%".into()));
        assert_eq!(rolling.max_surge, quarter);
        assert_eq!(rolling.max_unavailable, quarter);
        let pod = spec.template.spec.unwrap();
        assert_eq!(pod.restart_policy.as_deref(), Some("Always"));
        assert_eq!(pod.dns_policy.as_deref(), Some("ClusterFirst"));
    }
}
