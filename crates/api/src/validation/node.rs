//! Node validation (`pkg/apis/core/validation/validation.go` `ValidateNode`,
//! `validateNodeTaints`) and the taint effect check shared with tolerations.

use super::container::validate_resource_quantity_value;
use super::go_value::go_quote;
use super::meta::{validate_label_name, validate_object_meta, NameRule};
use super::syntax::is_valid_label_value;
use super::{Errors, FieldError};
use crate::types::*;
use std::collections::BTreeSet;

/// `ValidateNode`: metadata (DNS subdomain), `spec.taints`, then `ValidateNodeResources` (capacity
/// and allocatable quantities).
#[doc(alias = "ValidateNode")]
pub fn validate_node(node: &Node) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&node.metadata, false, NameRule::Subdomain, "metadata");
    if let Some(taints) = node.spec.as_ref().and_then(|s| s.taints.as_ref()) {
        errors.extend(validate_node_taints(taints, "spec.taints"));
    }
    if let Some(status) = node.status.as_ref() {
        for (field, list) in [
            ("capacity", &status.capacity),
            ("allocatable", &status.allocatable),
        ] {
            for (name, q) in list.iter().flatten() {
                // The path is spelled out only for a quantity in error (a node lists a dozen).
                if !validate_resource_quantity_value(q, "").is_empty() {
                    let path = format!("status.{field}.{name}");
                    errors.extend(validate_resource_quantity_value(q, &path));
                }
            }
        }
    }
    errors
}

const TAINT_EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/// `validateTaintEffect`: `Unsupported value: "Foo": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`.
#[doc(alias = "validateTaintEffect")]
pub(super) fn validate_taint_effect(effect: &str, allow_empty: bool, path: &str) -> Errors {
    if effect.is_empty() {
        return if allow_empty {
            Vec::new()
        } else {
            vec![FieldError::required(path, "")]
        };
    }
    if TAINT_EFFECTS.contains(&effect) {
        return Vec::new();
    }
    vec![FieldError::not_supported(
        path,
        go_quote(effect),
        &TAINT_EFFECTS,
    )]
}

/// `validateNodeTaints`: key, value, effect, unique by (key, effect).
#[doc(alias = "validateNodeTaints")]
pub fn validate_node_taints(taints: &[Taint], path: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, t) in taints.iter().enumerate() {
        let idx = format!("{path}[{i}]");
        errors.extend(validate_label_name(&t.key, &format!("{idx}.key")));
        let value = t.value.as_deref().unwrap_or("");
        let msgs = is_valid_label_value(value);
        if !msgs.is_empty() {
            errors.push(FieldError::invalid(
                format!("{idx}.value"),
                go_quote(value),
                &msgs.join(";"),
            ));
        }
        errors.extend(validate_taint_effect(
            &t.effect,
            false,
            &format!("{idx}.effect"),
        ));
        if !seen.insert((t.key.clone(), t.effect.clone())) {
            let shown = format!(
                "core.Taint{{Key:{}, Value:{}, Effect:{}, TimeAdded:<nil>}}",
                go_quote(&t.key),
                go_quote(value),
                go_quote(&t.effect)
            );
            let mut e = FieldError::duplicate(&idx, shown);
            e.message
                .push_str(": taints must be unique by key and effect pair");
            errors.push(e);
        }
    }
    errors
}
