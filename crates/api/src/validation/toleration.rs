//! Toleration validation (`pkg/apis/core/validation/validation.go` `ValidateTolerations`).

use super::go_value::{go_quote, go_toleration};
use super::meta::validate_label_name;
use super::node::validate_taint_effect;
use super::syntax::is_valid_label_value;
use super::FieldError;
use crate::types::*;

/// `ValidateTolerations`: key, operator/key agreement, tolerationSeconds only with NoExecute,
/// operator Equal/Exists with matching value, effect.
#[doc(alias = "ValidateTolerations")]
pub fn validate_tolerations(tolerations: &[Toleration], path: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    for (i, t) in tolerations.iter().enumerate() {
        let idx = format!("{path}[{i}]");
        let key = t.key.as_deref().unwrap_or("");
        let operator = t.operator.as_deref().unwrap_or("");
        let value = t.value.as_deref().unwrap_or("");
        let effect = t.effect.as_deref().unwrap_or("");
        if !key.is_empty() {
            errors.extend(validate_label_name(key, &format!("{idx}.key")));
        }
        if key.is_empty() && operator != "Exists" {
            errors.push(FieldError::invalid(
                format!("{idx}.operator"),
                go_quote(operator),
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        if t.toleration_seconds.is_some() && effect != "NoExecute" {
            errors.push(FieldError::invalid(
                format!("{idx}.effect"),
                go_quote(effect),
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        match operator {
            "Equal" | "" => {
                let msgs = is_valid_label_value(value);
                if !msgs.is_empty() {
                    errors.push(FieldError::invalid(
                        format!("{idx}.operator"),
                        go_quote(value),
                        &msgs.join(";"),
                    ));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    errors.push(FieldError::invalid(
                        format!("{idx}.operator"),
                        go_toleration(t),
                        "value must be empty when `operator` is 'Exists'",
                    ));
                }
            }
            other => errors.push(FieldError::not_supported(
                format!("{idx}.operator"),
                go_quote(other),
                &["Equal", "Exists"],
            )),
        }
        errors.extend(validate_taint_effect(
            effect,
            true,
            &format!("{idx}.effect"),
        ));
    }
    errors
}
