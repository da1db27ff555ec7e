//! ObjectMeta, label, annotation and label selector validation
//! (`apimachinery/pkg/api/validation/objectmeta.go` `ValidateObjectMeta`,
//! `apimachinery/pkg/apis/meta/v1/validation/validation.go` `ValidateLabels`, `ValidateLabelSelector`).

use super::go_value::go_quote;
use super::syntax::{
    is_dns1123_label, is_dns1123_subdomain, is_qualified_name, is_valid_label_value,
};
use super::{Errors, FieldError};
use crate::types::*;
use std::collections::BTreeMap;

/// Which name function a kind uses (`NameIsDNSSubdomain` / `NameIsDNSLabel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameRule {
    /// `NameIsDNSSubdomain` (most kinds).
    Subdomain,
    /// `NameIsDNSLabel` (Namespace).
    Label,
    /// `NameIsDNS1035Label` (Service).
    Dns1035Label,
}

impl NameRule {
    fn check(self, name: &str, prefix: bool) -> Vec<String> {
        // A generateName prefix may end with a dash (`maskTrailingDash`).
        let masked;
        let name = if prefix && name.len() > 1 && name.ends_with('-') {
            masked = format!("{}a", &name[..name.len() - 1]);
            masked.as_str()
        } else {
            name
        };
        match self {
            NameRule::Subdomain => is_dns1123_subdomain(name),
            NameRule::Label => is_dns1123_label(name),
            NameRule::Dns1035Label => super::service::is_dns1035_label(name),
        }
    }
}

/// `ValidateObjectMeta`: generateName, name, namespace, generation, labels, annotations.
#[doc(alias = "ValidateObjectMeta")]
pub fn validate_object_meta(
    meta: &ObjectMeta,
    namespaced: bool,
    rule: NameRule,
    path: &str,
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if let Some(generate_name) = meta.generate_name.as_deref().filter(|g| !g.is_empty()) {
        for msg in rule.check(generate_name, true) {
            errors.push(FieldError::invalid(
                format!("{path}.generateName"),
                go_quote(generate_name),
                &msg,
            ));
        }
    }
    match meta.name.as_deref().unwrap_or("") {
        "" if meta.generate_name.as_deref().unwrap_or("").is_empty() => {
            errors.push(FieldError::required(
                format!("{path}.name"),
                "name or generateName is required",
            ));
        }
        "" => {}
        name => {
            for msg in rule.check(name, false) {
                errors.push(FieldError::invalid(
                    format!("{path}.name"),
                    go_quote(name),
                    &msg,
                ));
            }
        }
    }
    // The namespace comes from the request (kubectl fills `default`); only its syntax is checked here.
    if namespaced {
        if let Some(ns) = meta.namespace.as_deref().filter(|n| !n.is_empty()) {
            for msg in is_dns1123_label(ns) {
                errors.push(FieldError::invalid(
                    format!("{path}.namespace"),
                    go_quote(ns),
                    &msg,
                ));
            }
        }
    }
    errors.extend(validate_nonnegative(
        meta.generation.unwrap_or(0),
        &format!("{path}.generation"),
    ));
    errors.extend(validate_labels_and_annotations(meta, path));
    errors
}

/// `<path>.labels` and `<path>.annotations` of `meta` (shared by ObjectMeta and pod templates).
pub(super) fn validate_labels_and_annotations(meta: &ObjectMeta, path: &str) -> Errors {
    let mut errors = Vec::new();
    if let Some(labels) = &meta.labels {
        errors.extend(validate_labels(labels, &format!("{path}.labels")));
    }
    if let Some(annotations) = &meta.annotations {
        errors.extend(validate_annotations(
            annotations,
            &format!("{path}.annotations"),
        ));
    }
    errors
}

/// `ValidateLabels`: every key a qualified name, every value a label value (path is the map's path).
#[doc(alias = "ValidateLabels")]
pub fn validate_labels(labels: &BTreeMap<String, String>, path: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    for (k, v) in labels {
        errors.extend(validate_label_name(k, path));
        for msg in is_valid_label_value(v) {
            errors.push(FieldError::invalid(path, go_quote(v), &msg));
        }
    }
    errors
}

/// `ValidateLabelName`: a qualified name.
#[doc(alias = "ValidateLabelName")]
pub(super) fn validate_label_name(key: &str, path: &str) -> Errors {
    is_qualified_name(key)
        .into_iter()
        .map(|msg| FieldError::invalid(path, go_quote(key), &msg))
        .collect()
}

/// `TotalAnnotationSizeLimitB`.
const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * 1024;

/// `ValidateAnnotations`: keys are qualified names (case-insensitive), total size ≤ 256 KiB.
#[doc(alias = "ValidateAnnotations")]
fn validate_annotations(annotations: &BTreeMap<String, String>, path: &str) -> Errors {
    let mut errors = Vec::new();
    let mut total = 0usize;
    for (k, v) in annotations {
        for msg in is_qualified_name(&k.to_lowercase()) {
            errors.push(FieldError::invalid(path, go_quote(k), &msg));
        }
        total += k.len() + v.len();
    }
    if total > TOTAL_ANNOTATION_SIZE_LIMIT {
        errors.push(FieldError::too_long(
            path,
            &format!("may not be more than {TOTAL_ANNOTATION_SIZE_LIMIT} bytes"),
        ));
    }
    errors
}

/// `ValidateLabelSelector`: matchLabels as labels, then each matchExpressions requirement.
#[doc(alias = "ValidateLabelSelector")]
pub(super) fn validate_label_selector(s: &LabelSelector, path: &str) -> Errors {
    let mut errors = Vec::new();
    if let Some(labels) = &s.match_labels {
        errors.extend(validate_labels(labels, &format!("{path}.matchLabels")));
    }
    for (i, req) in s.match_expressions.iter().flatten().enumerate() {
        errors.extend(validate_label_selector_requirement(
            req,
            &format!("{path}.matchExpressions[{i}]"),
        ));
    }
    errors
}

/// `ValidateLabelSelectorRequirement`: operator/values agreement, key, values.
#[doc(alias = "ValidateLabelSelectorRequirement")]
fn validate_label_selector_requirement(req: &LabelSelectorRequirement, path: &str) -> Errors {
    let mut errors = Vec::new();
    let values = req.values.as_deref().unwrap_or(&[]);
    match req.operator.as_str() {
        "In" | "NotIn" if values.is_empty() => {
            errors.push(FieldError::required(
                format!("{path}.values"),
                "must be specified when `operator` is 'In' or 'NotIn'",
            ));
        }
        "Exists" | "DoesNotExist" if !values.is_empty() => {
            errors.push(FieldError::forbidden(
                format!("{path}.values"),
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ));
        }
        "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
        other => errors.push(FieldError::invalid(
            format!("{path}.operator"),
            go_quote(other),
            "not a valid selector operator",
        )),
    }
    errors.extend(validate_label_name(&req.key, &format!("{path}.key")));
    for (i, v) in values.iter().enumerate() {
        for msg in is_valid_label_value(v) {
            errors.push(FieldError::invalid(
                format!("{path}.values[{i}]"),
                go_quote(v),
                &msg,
            ));
        }
    }
    errors
}

/// `ValidateNonnegativeField`: `Invalid value: -1: must be greater than or equal to 0`.
#[doc(alias = "ValidateNonnegativeField")]
pub(super) fn validate_nonnegative(value: i64, path: &str) -> Errors {
    if value >= 0 {
        return Vec::new();
    }
    vec![FieldError::invalid(
        path,
        value.to_string(),
        "must be greater than or equal to 0",
    )]
}
