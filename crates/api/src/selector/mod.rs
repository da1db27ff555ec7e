//! Label selectors: `metav1.LabelSelector` matching and the `-l` string syntax kubectl accepts.
//!
//! Upstream: apimachinery `pkg/labels/selector.go`, `pkg/apis/meta/v1/helpers.go`.

mod parser;

use crate::types::{LabelSelector, LabelSelectorRequirement};
pub use parser::parse;
use std::collections::BTreeMap;

/// One requirement of a parsed selector (`app=x`, `tier!=db`, `env in (a,b)`, `!gpu`, `gpu`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Requirement {
    /// `key=value` / `key==value` / `key in (v1,v2)`.
    In(String, Vec<String>),
    /// `key!=value` / `key notin (v1,v2)`.
    NotIn(String, Vec<String>),
    /// `key`.
    Exists(String),
    /// `!key`.
    DoesNotExist(String),
    /// `key>n`: the label is an integer greater than n.
    GreaterThan(String, i64),
    /// `key<n`: the label is an integer less than n.
    LessThan(String, i64),
}

impl Requirement {
    fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        match self {
            Requirement::In(key, values) => labels.get(key).is_some_and(|v| values.contains(v)),
            Requirement::NotIn(key, values) => labels.get(key).is_none_or(|v| !values.contains(v)),
            Requirement::Exists(key) => labels.contains_key(key),
            Requirement::DoesNotExist(key) => !labels.contains_key(key),
            Requirement::GreaterThan(key, n) => int_label(labels, key).is_some_and(|v| v > *n),
            Requirement::LessThan(key, n) => int_label(labels, key).is_some_and(|v| v < *n),
        }
    }
}

/// A label's value as an integer, for `>` / `<` (a missing or non-integer label matches neither).
fn int_label(labels: &BTreeMap<String, String>, key: &str) -> Option<i64> {
    labels.get(key).and_then(|v| v.parse().ok())
}

/// A parsed selector: all requirements must hold. An empty selector matches everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selector {
    /// The ANDed requirements.
    pub requirements: Vec<Requirement>,
    /// True for a nil `LabelSelector`, which matches nothing (`labels.Nothing()`).
    pub nothing: bool,
}

impl Selector {
    /// Whether the labels satisfy the selector.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        !self.nothing && self.requirements.iter().all(|r| r.matches(labels))
    }

    /// Whether the selector selects everything (no requirements).
    pub fn is_empty(&self) -> bool {
        !self.nothing && self.requirements.is_empty()
    }
}

/// Converts a `LabelSelector` as `metav1.LabelSelectorAsSelector` does: nil → nothing, `{}` → everything.
/// Returns an error text for an unknown operator.
pub fn from_label_selector(selector: Option<&LabelSelector>) -> Result<Selector, String> {
    let Some(selector) = selector else {
        return Ok(Selector {
            requirements: vec![],
            nothing: true,
        });
    };
    let mut requirements = Vec::new();
    for (k, v) in selector.match_labels.iter().flatten() {
        requirements.push(Requirement::In(k.clone(), vec![v.clone()]));
    }
    for expr in selector.match_expressions.iter().flatten() {
        requirements.push(requirement_from_expression(expr)?);
    }
    Ok(Selector {
        requirements,
        nothing: false,
    })
}

fn requirement_from_expression(expr: &LabelSelectorRequirement) -> Result<Requirement, String> {
    let values = expr.values.clone().unwrap_or_default();
    let key = expr.key.clone();
    match expr.operator.as_str() {
        "In" => Ok(Requirement::In(key, values)),
        "NotIn" => Ok(Requirement::NotIn(key, values)),
        "Exists" => Ok(Requirement::Exists(key)),
        "DoesNotExist" => Ok(Requirement::DoesNotExist(key)),
        other => Err(format!("{other:?} is not a valid label selector operator")),
    }
}

/// Whether a `LabelSelector` (as stored on a DaemonSet) selects the labels. Invalid selectors select nothing.
pub fn label_selector_matches(
    selector: Option<&LabelSelector>,
    labels: Option<&BTreeMap<String, String>>,
) -> bool {
    let empty = BTreeMap::new();
    from_label_selector(selector).is_ok_and(|s| s.matches(labels.unwrap_or(&empty)))
}

/// Formats a `LabelSelector` as `metav1.FormatLabelSelector` does (`app=x,tier in (a,b)`, `<none>`).
pub fn format_label_selector(selector: Option<&LabelSelector>) -> String {
    let Some(selector) = selector else {
        return "<none>".to_string();
    };
    let mut parts: Vec<String> = Vec::new();
    for (k, v) in selector.match_labels.iter().flatten() {
        parts.push(format!("{k}={v}"));
    }
    for expr in selector.match_expressions.iter().flatten() {
        let mut values = expr.values.clone().unwrap_or_default();
        values.sort();
        let part = match expr.operator.as_str() {
            "In" => format!("{} in ({})", expr.key, values.join(",")),
            "NotIn" => format!("{} notin ({})", expr.key, values.join(",")),
            "Exists" => expr.key.clone(),
            "DoesNotExist" => format!("!{}", expr.key),
            op => format!("{} {op} ({})", expr.key, values.join(",")),
        };
        parts.push(part);
    }
    if parts.is_empty() {
        "<none>".to_string()
    } else {
        parts.join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn parse_and_match_table() {
        let cases = [
            ("app=demo", &[("app", "demo")][..], true),
            ("app=demo", &[("app", "x")][..], false),
            ("app!=demo", &[][..], true),
            (
                "app==demo,ver=v2",
                &[("app", "demo"), ("ver", "v2")][..],
                true,
            ),
            ("env in (a,b)", &[("env", "b")][..], true),
            ("env notin (a,b)", &[("env", "b")][..], false),
            ("gpu", &[("gpu", "")][..], true),
            ("!gpu", &[("gpu", "")][..], false),
            ("", &[][..], true),
        ];
        for (text, pairs, want) in cases {
            let sel = parse(text).unwrap();
            assert_eq!(sel.matches(&labels(pairs)), want, "case {text:?}");
        }
    }

    #[test]
    fn nil_selects_nothing_and_empty_selects_all() {
        assert!(!label_selector_matches(None, Some(&labels(&[]))));
        assert!(label_selector_matches(
            Some(&LabelSelector::default()),
            Some(&labels(&[("a", "b")]))
        ));
    }

    #[test]
    fn format_matches_kubectl() {
        let sel = LabelSelector {
            match_labels: Some(labels(&[("name", "fluentd")])),
            match_expressions: Some(vec![LabelSelectorRequirement {
                key: "app".into(),
                operator: "In".into(),
                values: Some(vec!["b".into(), "a".into()]),
            }]),
        };
        assert_eq!(
            format_label_selector(Some(&sel)),
            "name=fluentd,app in (a,b)"
        );
        assert_eq!(format_label_selector(None), "<none>");
    }
}
