//! Validation with the API server's own message text (`pkg/apis/apps/validation/validation.go`,
//! `pkg/apis/core/validation/validation.go`) and kubectl's `The DaemonSet "x" is invalid: …` formatting.

use crate::object::Object;
use crate::selector;
use crate::types::*;

/// One field error, as `field.Error` renders: `<path>: <type>: <detail>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The field path (`spec.template.metadata.labels`).
    pub path: String,
    /// The rendered `Type: detail` part (`Invalid value: "x": must be …`).
    pub message: String,
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Validates an object for create.
pub fn validate_create(object: &Object) -> Vec<FieldError> {
    match object {
        Object::DaemonSet(ds) => validate_daemon_set(ds),
        _ => Vec::new(),
    }
}

/// Validates an update of `old` into `new` (create rules plus immutability).
pub fn validate_update(old: &Object, new: &Object) -> Vec<FieldError> {
    let mut errors = validate_create(new);
    if let (Object::DaemonSet(old), Object::DaemonSet(new)) = (old, new) {
        let old_sel = old.spec.as_ref().map(|s| &s.selector);
        let new_sel = new.spec.as_ref().map(|s| &s.selector);
        if old_sel != new_sel {
            errors.push(FieldError {
                path: "spec.selector".into(),
                message: format!("Invalid value: {}: field is immutable", go_label_selector(new_sel)),
            });
        }
    }
    errors
}

/// Formats kubectl's message for a rejected object: one cause on the same line, several as a `* ` list.
pub fn format_invalid(kind: &str, name: &str, errors: &[FieldError]) -> String {
    if errors.len() == 1 {
        format!("The {kind} \"{name}\" is invalid: {}", errors[0])
    } else {
        let mut out = format!("The {kind} \"{name}\" is invalid: ");
        for e in errors {
            out.push_str(&format!("\n* {e}"));
        }
        out
    }
}

fn validate_daemon_set(ds: &DaemonSet) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let Some(spec) = ds.spec.as_ref() else {
        return errors;
    };
    let labels = spec.template.metadata.as_ref().and_then(|m| m.labels.clone()).unwrap_or_default();
    if spec.selector == LabelSelector::default() {
        errors.push(FieldError {
            path: "spec.selector".into(),
            message: format!("Invalid value: {}: empty selector is invalid for daemonset", go_label_selector(Some(&spec.selector))),
        });
    } else if !selector::label_selector_matches(Some(&spec.selector), Some(&labels)) {
        errors.push(FieldError {
            path: "spec.template.metadata.labels".into(),
            message: format!("Invalid value: {}: `selector` does not match template `labels`", go_string_map(&labels)),
        });
    }
    errors
}

/// Renders a map as Go's `%#v` of `map[string]string` (keys sorted).
pub fn go_string_map(map: &std::collections::BTreeMap<String, String>) -> String {
    let body: Vec<String> = map.iter().map(|(k, v)| format!("{k:?}:{v:?}")).collect();
    format!("map[string]string{{{}}}", body.join(", "))
}

/// Renders a LabelSelector as Go's `%#v` of `v1.LabelSelector`.
pub fn go_label_selector(selector: Option<&LabelSelector>) -> String {
    let Some(s) = selector else { return "(*v1.LabelSelector)(nil)".to_string() };
    let labels = match &s.match_labels {
        Some(m) => go_string_map(m),
        None => "map[string]string(nil)".to_string(),
    };
    let exprs = match &s.match_expressions {
        Some(e) if !e.is_empty() => {
            let items: Vec<String> = e
                .iter()
                .map(|r| {
                    let values = match &r.values {
                        Some(v) => format!("[]string{{{}}}", v.iter().map(|x| format!("{x:?}")).collect::<Vec<_>>().join(", ")),
                        None => "[]string(nil)".to_string(),
                    };
                    format!("v1.LabelSelectorRequirement{{Key:{:?}, Operator:{:?}, Values:{values}}}", r.key, r.operator)
                })
                .collect();
            format!("[]v1.LabelSelectorRequirement{{{}}}", items.join(", "))
        }
        _ => "[]v1.LabelSelectorRequirement(nil)".to_string(),
    };
    format!("v1.LabelSelector{{MatchLabels:{labels}, MatchExpressions:{exprs}}}")
}
