//! PriorityClass validation (`pkg/apis/scheduling/validation/validation.go` `ValidatePriorityClass`).

use super::go_value::go_quote;
use super::meta::{validate_object_meta, NameRule};
use super::FieldError;
use crate::types::*;

/// The priority classes the API server creates itself (`scheduling.SystemPriorityClasses`).
const SYSTEM_PRIORITY_CLASSES: [(&str, i32); 2] = [
    ("system-node-critical", 2_000_001_000),
    ("system-cluster-critical", 2_000_000_000),
];
/// `scheduling.HighestUserDefinablePriority`.
const HIGHEST_USER_DEFINABLE_PRIORITY: i32 = 1_000_000_000;

/// `ValidatePriorityClass`: `system-` names are reserved, user values ≤ 1e9, preemptionPolicy.
#[doc(alias = "ValidatePriorityClass")]
pub fn validate_priority_class(pc: &PriorityClass) -> Vec<FieldError> {
    let mut errors = validate_object_meta(&pc.metadata, false, NameRule::Subdomain, "metadata");
    let name = pc.metadata.name.as_deref().unwrap_or("");
    if name.starts_with("system-") {
        if let Err(reason) =
            known_system_priority_class(name, pc.value, pc.global_default.unwrap_or(false))
        {
            errors.push(FieldError::forbidden(
                "metadata.name",
                &format!("priority class names with 'system-' prefix are reserved for system use only. error: {reason}"),
            ));
        }
    } else if pc.value > HIGHEST_USER_DEFINABLE_PRIORITY {
        errors.push(FieldError::forbidden("value", &format!("maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}")));
    }
    if let Some(policy) = &pc.preemption_policy {
        if policy != "PreemptLowerPriority" && policy != "Never" {
            errors.push(FieldError::not_supported(
                "preemptionPolicy",
                go_quote(policy),
                &["PreemptLowerPriority", "Never"],
            ));
        }
    }
    errors
}

/// `IsKnownSystemPriorityClass`.
#[doc(alias = "IsKnownSystemPriorityClass")]
fn known_system_priority_class(name: &str, value: i32, global_default: bool) -> Result<(), String> {
    match SYSTEM_PRIORITY_CLASSES.iter().find(|(n, _)| *n == name) {
        None => Err(format!("{name} is not a known system priority class")),
        Some((n, v)) if *v != value => Err(format!("value of {n} PriorityClass must be {v}")),
        Some((n, _)) if global_default => {
            Err(format!("globalDefault of {n} PriorityClass must be false"))
        }
        Some(_) => Ok(()),
    }
}
