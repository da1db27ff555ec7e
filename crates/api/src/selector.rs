//! Label selectors: `metav1.LabelSelector` matching and the `-l` string syntax kubectl accepts.
//!
//! Upstream: apimachinery `pkg/labels/selector.go`, `pkg/apis/meta/v1/helpers.go`.

use crate::types::{LabelSelector, LabelSelectorRequirement};
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
}

impl Requirement {
    fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        match self {
            Requirement::In(key, values) => labels.get(key).is_some_and(|v| values.contains(v)),
            Requirement::NotIn(key, values) => labels.get(key).is_none_or(|v| !values.contains(v)),
            Requirement::Exists(key) => labels.contains_key(key),
            Requirement::DoesNotExist(key) => !labels.contains_key(key),
        }
    }
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

/// Parses kubectl's `-l` syntax (`app=x,tier!=db,env in (a,b),!gpu`).
///
/// Hand-rolled because no maintained crate implements the apimachinery selector grammar.
pub fn parse(text: &str) -> Result<Selector, String> {
    let mut requirements = Vec::new();
    for raw in split_top_level(text) {
        let part = raw.trim();
        if part.is_empty() {
            continue;
        }
        requirements.push(parse_requirement(part)?);
    }
    Ok(Selector {
        requirements,
        nothing: false,
    })
}

fn split_top_level(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut current = String::new();
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current);
    parts
}

fn parse_requirement(part: &str) -> Result<Requirement, String> {
    let invalid = || format!("unable to parse requirement: found '{part}', expected: identifier");
    if let Some(key) = part.strip_prefix('!') {
        return Ok(Requirement::DoesNotExist(check_key(key.trim(), part)?));
    }
    for (op, negate) in [("!=", true), ("==", false), ("=", false)] {
        if let Some((k, v)) = part.split_once(op) {
            let key = check_key(k.trim(), part)?;
            let value = v.trim().to_string();
            return Ok(if negate {
                Requirement::NotIn(key, vec![value])
            } else {
                Requirement::In(key, vec![value])
            });
        }
    }
    let words: Vec<&str> = part.splitn(2, char::is_whitespace).collect();
    if words.len() == 2 {
        let rest = words[1].trim();
        let (negate, list) = if let Some(list) = rest.strip_prefix("notin") {
            (true, list)
        } else if let Some(list) = rest.strip_prefix("in") {
            (false, list)
        } else {
            return Err(invalid());
        };
        let list = list.trim();
        let inner = list
            .strip_prefix('(')
            .and_then(|l| l.strip_suffix(')'))
            .ok_or_else(|| format!("unable to parse requirement: found '{list}', expected: '('"))?;
        let values: Vec<String> = inner.split(',').map(|v| v.trim().to_string()).collect();
        let key = check_key(words[0], part)?;
        return Ok(if negate {
            Requirement::NotIn(key, values)
        } else {
            Requirement::In(key, values)
        });
    }
    Ok(Requirement::Exists(check_key(part, part)?))
}

fn check_key(key: &str, part: &str) -> Result<String, String> {
    if key.is_empty() || key.contains(char::is_whitespace) {
        return Err(format!(
            "unable to parse requirement: found '{part}', expected: identifier"
        ));
    }
    Ok(key.to_string())
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
