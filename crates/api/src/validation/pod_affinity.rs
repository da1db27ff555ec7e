//! Inter-pod affinity and topology spread constraint validation (`pkg/apis/core/validation/validation.go`
//! `validatePodAffinity`, `validatePodAntiAffinity`, `validatePodAffinityTerm`,
//! `validateTopologySpreadConstraints`). A pod's affinity terms are validated after the API server
//! merged their `matchLabelKeys` / `mismatchLabelKeys` into the selector (`pod_affinity_keys`), a
//! template's as written.

use super::go_value::go_quote;
use super::meta::{validate_label_name, validate_label_selector};
use super::syntax::is_dns1123_label;
use super::{Errors, FieldError};
use crate::k8s_openapi::api::core::v1::{
    PodAffinityTerm, TopologySpreadConstraint, WeightedPodAffinityTerm,
};
use crate::types::*;

/// `isNotPositiveErrorMsg`.
const NOT_POSITIVE: &str = "must be greater than zero";

/// The `podAffinity` / `podAntiAffinity` of a pod spec (`path` is `….affinity`). Upstream:
/// `validateAffinity`'s inter-pod part.
pub(super) fn validate_inter_pod_affinity(affinity: &Affinity, path: &str) -> Errors {
    let mut errors = Vec::new();
    if let Some(a) = &affinity.pod_affinity {
        errors.extend(validate_pod_affinity(
            a.required_during_scheduling_ignored_during_execution
                .as_deref(),
            a.preferred_during_scheduling_ignored_during_execution
                .as_deref(),
            &format!("{path}.podAffinity"),
        ));
    }
    if let Some(a) = &affinity.pod_anti_affinity {
        errors.extend(validate_pod_affinity(
            a.required_during_scheduling_ignored_during_execution
                .as_deref(),
            a.preferred_during_scheduling_ignored_during_execution
                .as_deref(),
            &format!("{path}.podAntiAffinity"),
        ));
    }
    errors
}

/// Required terms, then weighted preferred terms. Upstream: `validatePodAffinity` /
/// `validatePodAntiAffinity` (the same checks).
#[doc(alias = "validatePodAntiAffinity")]
fn validate_pod_affinity(
    required: Option<&[PodAffinityTerm]>,
    preferred: Option<&[WeightedPodAffinityTerm]>,
    path: &str,
) -> Errors {
    let mut errors = Vec::new();
    let rpath = format!("{path}.requiredDuringSchedulingIgnoredDuringExecution");
    for (i, term) in required.into_iter().flatten().enumerate() {
        errors.extend(validate_pod_affinity_term(term, &format!("{rpath}[{i}]")));
    }
    let ppath = format!("{path}.preferredDuringSchedulingIgnoredDuringExecution");
    for (i, term) in preferred.into_iter().flatten().enumerate() {
        if !(1..=100).contains(&term.weight) {
            errors.push(FieldError::invalid(
                format!("{ppath}[{i}].weight"),
                term.weight.to_string(),
                "must be in the range 1-100",
            ));
        }
        errors.extend(validate_pod_affinity_term(
            &term.pod_affinity_term,
            &format!("{ppath}[{i}].podAffinityTerm"),
        ));
    }
    errors
}

/// Selectors, namespace names, and a non-empty, valid topology key. Upstream: `validatePodAffinityTerm`
/// (+ `ValidatePodAffinityTermSelector`).
fn validate_pod_affinity_term(term: &PodAffinityTerm, path: &str) -> Errors {
    let mut errors = Vec::new();
    if let Some(s) = &term.label_selector {
        errors.extend(validate_label_selector(s, &format!("{path}.labelSelector")));
    }
    if let Some(s) = &term.namespace_selector {
        errors.extend(validate_label_selector(
            s,
            &format!("{path}.namespaceSelector"),
        ));
    }
    for name in term.namespaces.iter().flatten() {
        for msg in is_dns1123_label(name) {
            errors.push(FieldError::invalid(
                format!("{path}.namespace"),
                go_quote(name),
                &msg,
            ));
        }
    }
    errors.extend(validate_match_label_keys_and_mismatch_label_keys(
        term, path,
    ));
    if term.topology_key.is_empty() {
        errors.push(FieldError::required(
            format!("{path}.topologyKey"),
            "can not be empty",
        ));
    } else {
        errors.extend(validate_label_name(
            &term.topology_key,
            &format!("{path}.topologyKey"),
        ));
    }
    errors
}

/// The term's label keys: label names, only with a selector, none both to match and to
/// mismatch; and a `matchLabelKeys` key the selector already names besides the requirement merged
/// from it (the merge happens first, so one requirement with the key is expected). As upstream,
/// that error's path is the term's, indexed by the key's position.
///
/// Upstream: pkg/apis/core/validation/validation.go validateMatchLabelKeysAndMismatchLabelKeys,
/// validateLabelKeys.
fn validate_match_label_keys_and_mismatch_label_keys(term: &PodAffinityTerm, path: &str) -> Errors {
    let selector = term.label_selector.as_ref();
    let match_keys = term.match_label_keys.as_deref().unwrap_or_default();
    let mismatch_keys = term.mismatch_label_keys.as_deref().unwrap_or_default();
    let mut errors = Vec::new();
    for (keys, field) in [
        (match_keys, "matchLabelKeys"),
        (mismatch_keys, "mismatchLabelKeys"),
    ] {
        if keys.is_empty() {
            continue;
        }
        if selector.is_none() {
            errors.push(FieldError::forbidden(
                format!("{path}.{field}"),
                "must not be specified when labelSelector is not set",
            ));
            continue;
        }
        for (i, key) in keys.iter().enumerate() {
            errors.extend(validate_label_name(key, &format!("{path}.{field}[{i}]")));
        }
    }
    if let Some(selector) = selector {
        let mut seen: Vec<&str> = selector
            .match_labels
            .iter()
            .flatten()
            .map(|(k, _)| k.as_str())
            .collect();
        for requirement in selector.match_expressions.iter().flatten() {
            let key = requirement.key.as_str();
            // The last position of the key wins, as in upstream's map from key to index.
            if let Some(i) = match_keys.iter().rposition(|k| k == key) {
                if seen.contains(&key) {
                    errors.push(FieldError::invalid(
                        format!("{path}[{i}]"),
                        go_quote(key),
                        "exists in both matchLabelKeys and labelSelector",
                    ));
                }
            }
            seen.push(key);
        }
    }
    for (i, key) in match_keys.iter().enumerate() {
        if mismatch_keys.contains(key) {
            errors.push(FieldError::invalid(
                format!("{path}.matchLabelKeys[{i}]"),
                go_quote(key),
                "exists in both matchLabelKeys and mismatchLabelKeys",
            ));
        }
    }
    errors
}

/// Upstream: `validateTopologySpreadConstraints` (`ValidateMaxSkew`, `ValidateTopologyKey`,
/// `ValidateWhenUnsatisfiable`, `ValidateSpreadConstraintNotRepeat`, `validateMinDomains`,
/// `validateNodeInclusionPolicy`, `validateMatchLabelKeysInTopologySpread`, `ValidateLabelSelector`).
pub(super) fn validate_topology_spread_constraints(
    constraints: &[TopologySpreadConstraint],
    path: &str,
) -> Errors {
    let mut errors = Vec::new();
    for (i, c) in constraints.iter().enumerate() {
        let sub = format!("{path}[{i}]");
        if c.max_skew <= 0 {
            errors.push(FieldError::invalid(
                format!("{sub}.maxSkew"),
                c.max_skew.to_string(),
                NOT_POSITIVE,
            ));
        }
        if c.topology_key.is_empty() {
            errors.push(FieldError::required(
                format!("{sub}.topologyKey"),
                "can not be empty",
            ));
        }
        if !matches!(
            c.when_unsatisfiable.as_str(),
            "DoNotSchedule" | "ScheduleAnyway"
        ) {
            errors.push(FieldError::not_supported(
                format!("{sub}.whenUnsatisfiable"),
                go_quote(&c.when_unsatisfiable),
                &["DoNotSchedule", "ScheduleAnyway"],
            ));
        }
        if constraints[i + 1..].iter().any(|r| {
            r.topology_key == c.topology_key && r.when_unsatisfiable == c.when_unsatisfiable
        }) {
            errors.push(FieldError::duplicate(
                format!("{sub}.{{topologyKey, whenUnsatisfiable}}"),
                go_quote(&format!("{{{}, {}}}", c.topology_key, c.when_unsatisfiable)),
            ));
        }
        if let Some(min) = c.min_domains {
            if min <= 0 {
                errors.push(FieldError::invalid(
                    format!("{sub}.minDomains"),
                    min.to_string(),
                    NOT_POSITIVE,
                ));
            }
            if c.when_unsatisfiable != "DoNotSchedule" {
                errors.push(FieldError::invalid(
                    format!("{sub}.minDomains"),
                    min.to_string(),
                    &format!(
                        "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {}",
                        c.when_unsatisfiable
                    ),
                ));
            }
        }
        for (field, policy) in [
            ("nodeAffinityPolicy", &c.node_affinity_policy),
            ("nodeTaintsPolicy", &c.node_taints_policy),
        ] {
            if let Some(p) = policy
                .as_deref()
                .filter(|p| !matches!(*p, "Honor" | "Ignore"))
            {
                errors.push(FieldError::not_supported(
                    format!("{sub}.{field}"),
                    go_quote(p),
                    &["Honor", "Ignore"],
                ));
            }
        }
        errors.extend(validate_match_label_keys_in_topology_spread(
            c.match_label_keys.as_deref().unwrap_or(&[]),
            c.label_selector.as_ref(),
            &format!("{sub}.matchLabelKeys"),
        ));
        if let Some(s) = &c.label_selector {
            errors.extend(validate_label_selector(s, &format!("{sub}.labelSelector")));
        }
    }
    errors
}

/// Keys must be label names not already in the selector, and need a selector. Upstream:
/// `validateMatchLabelKeysInTopologySpread`.
fn validate_match_label_keys_in_topology_spread(
    keys: &[String],
    selector: Option<&LabelSelector>,
    path: &str,
) -> Errors {
    let mut errors = Vec::new();
    if keys.is_empty() {
        return errors;
    }
    if selector.is_none() {
        errors.push(FieldError::forbidden(
            path,
            "must not be specified when labelSelector is not set",
        ));
    }
    let in_selector = |key: &str| {
        selector.is_some_and(|s| {
            s.match_labels.as_ref().is_some_and(|m| m.contains_key(key))
                || s.match_expressions.iter().flatten().any(|e| e.key == key)
        })
    };
    for (i, key) in keys.iter().enumerate() {
        errors.extend(validate_label_name(key, &format!("{path}[{i}]")));
        if in_selector(key) {
            errors.push(FieldError::invalid(
                format!("{path}[{i}]"),
                go_quote(key),
                "exists in both matchLabelKeys and labelSelector",
            ));
        }
    }
    errors
}
