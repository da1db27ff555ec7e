//! Node affinity validation (`pkg/apis/core/validation/validation.go` `validateNodeAffinity`,
//! `ValidateNodeSelectorTerm`, `ValidateNodeSelectorRequirement`).

use super::go_value::go_quote;
use super::meta::validate_label_name;
use super::{Errors, FieldError};
use crate::types::*;

/// `validateNodeAffinity`: required terms non-empty and well-formed; preferred weights 1–100.
#[doc(alias = "validateNodeAffinity")]
pub(super) fn validate_node_affinity(na: &NodeAffinity, path: &str) -> Errors {
    let mut errors = Vec::new();
    if let Some(required) = &na.required_during_scheduling_ignored_during_execution {
        let rpath = format!("{path}.requiredDuringSchedulingIgnoredDuringExecution");
        if required.node_selector_terms.is_empty() {
            errors.push(FieldError::required(
                format!("{rpath}.nodeSelectorTerms"),
                "must have at least one node selector term",
            ));
        }
        for (i, term) in required.node_selector_terms.iter().enumerate() {
            errors.extend(validate_node_selector_term(
                term,
                &format!("{rpath}.nodeSelectorTerms[{i}]"),
            ));
        }
    }
    for (i, pref) in na
        .preferred_during_scheduling_ignored_during_execution
        .iter()
        .flatten()
        .enumerate()
    {
        let ppath = format!("{path}.preferredDuringSchedulingIgnoredDuringExecution[{i}]");
        if !(1..=100).contains(&pref.weight) {
            errors.push(FieldError::invalid(
                format!("{ppath}.weight"),
                pref.weight.to_string(),
                "must be in the range 1-100",
            ));
        }
        errors.extend(validate_node_selector_term(
            &pref.preference,
            &format!("{ppath}.preference"),
        ));
    }
    errors
}

fn validate_node_selector_term(term: &NodeSelectorTerm, path: &str) -> Errors {
    let mut errors = Vec::new();
    for (i, req) in term.match_expressions.iter().flatten().enumerate() {
        errors.extend(validate_node_selector_requirement(
            req,
            &format!("{path}.matchExpressions[{i}]"),
        ));
    }
    for (i, req) in term.match_fields.iter().flatten().enumerate() {
        let fpath = format!("{path}.matchFields[{i}]");
        if req.key != "metadata.name" {
            errors.push(FieldError::invalid(
                format!("{fpath}.key"),
                go_quote(&req.key),
                "not a valid field selector key",
            ));
        }
        match req.operator.as_str() {
            "In" | "NotIn" => {
                if req.values.as_ref().map_or(0, Vec::len) != 1 {
                    errors.push(FieldError::required(format!("{fpath}.values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
                }
            }
            other => errors.push(FieldError::invalid(
                format!("{fpath}.operator"),
                go_quote(other),
                "not a valid selector operator",
            )),
        }
    }
    errors
}

/// `ValidateNodeSelectorRequirement`.
#[doc(alias = "ValidateNodeSelectorRequirement")]
fn validate_node_selector_requirement(req: &NodeSelectorRequirement, path: &str) -> Errors {
    let mut errors = Vec::new();
    let n = req.values.as_ref().map_or(0, Vec::len);
    match req.operator.as_str() {
        "In" | "NotIn" if n == 0 => errors.push(FieldError::required(
            format!("{path}.values"),
            "must be specified when `operator` is 'In' or 'NotIn'",
        )),
        "Exists" | "DoesNotExist" if n > 0 => {
            errors.push(FieldError::forbidden(
                format!("{path}.values"),
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ));
        }
        "Gt" | "Lt" if n != 1 => errors.push(FieldError::required(
            format!("{path}.values"),
            "must be specified single value when `operator` is 'Lt' or 'Gt'",
        )),
        "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt" => {}
        other => errors.push(FieldError::invalid(
            format!("{path}.operator"),
            go_quote(other),
            "not a valid selector operator",
        )),
    }
    errors.extend(validate_label_name(&req.key, &format!("{path}.key")));
    errors
}
