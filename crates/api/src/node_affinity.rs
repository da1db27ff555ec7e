//! Required node affinity: `spec.nodeSelector` AND `requiredDuringSchedulingIgnoredDuringExecution`.
//!
//! Upstream: `staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go`.

use crate::types::{Node, NodeSelectorRequirement, NodeSelectorTerm, PodSpec};
use k8s_openapi::api::core::v1::PreferredSchedulingTerm as PreferredTerm;
use std::collections::BTreeMap;

/// Whether the pod spec's nodeSelector and required node affinity both match the node
/// (`GetRequiredNodeAffinity(pod).Match(node)`).
pub fn required_node_affinity_matches(spec: &PodSpec, node: &Node) -> bool {
    node_selector_matches(spec, node) && required_terms_match(spec, node)
}

/// Whether every `spec.nodeSelector` pair is on the node.
pub fn node_selector_matches(spec: &PodSpec, node: &Node) -> bool {
    let empty = BTreeMap::new();
    let labels = node.metadata.labels.as_ref().unwrap_or(&empty);
    spec.node_selector
        .iter()
        .flatten()
        .all(|(k, v)| labels.get(k) == Some(v))
}

/// Whether the required node-affinity terms (ORed) match; true when there are none.
pub fn required_terms_match(spec: &PodSpec, node: &Node) -> bool {
    match required_terms(spec) {
        None => true,
        Some(terms) => terms.iter().any(|term| term_matches(term, node)),
    }
}

/// The pod's required node-selector terms, if it has any.
pub fn required_terms(spec: &PodSpec) -> Option<&Vec<NodeSelectorTerm>> {
    spec.affinity
        .as_ref()?
        .node_affinity
        .as_ref()?
        .required_during_scheduling_ignored_during_execution
        .as_ref()
        .map(|s| &s.node_selector_terms)
}

/// One term: all matchExpressions (on labels) and all matchFields (on `metadata.name`) hold.
/// An empty term matches nothing; a term that fails to parse matches nothing.
pub fn term_matches(term: &NodeSelectorTerm, node: &Node) -> bool {
    let exprs = term.match_expressions.as_deref().unwrap_or(&[]);
    let fields = term.match_fields.as_deref().unwrap_or(&[]);
    if exprs.is_empty() && fields.is_empty() {
        return false;
    }
    let empty = BTreeMap::new();
    let labels = node.metadata.labels.as_ref().unwrap_or(&empty);
    let name = node.metadata.name.clone().unwrap_or_default();
    let mut field_values = BTreeMap::new();
    field_values.insert("metadata.name".to_string(), name);
    exprs.iter().all(|r| requirement_matches(r, labels))
        && fields
            .iter()
            .all(|r| field_requirement_matches(r, &field_values))
}

fn field_requirement_matches(
    req: &NodeSelectorRequirement,
    fields: &BTreeMap<String, String>,
) -> bool {
    let values = req.values.as_deref().unwrap_or(&[]);
    if req.key != "metadata.name" || values.len() != 1 {
        return false;
    }
    match req.operator.as_str() {
        "In" => fields.get(&req.key) == Some(&values[0]),
        "NotIn" => fields.get(&req.key) != Some(&values[0]),
        _ => false,
    }
}

/// One matchExpressions requirement against node labels (In, NotIn, Exists, DoesNotExist, Gt, Lt).
pub fn requirement_matches(
    req: &NodeSelectorRequirement,
    labels: &BTreeMap<String, String>,
) -> bool {
    let values = req.values.as_deref().unwrap_or(&[]);
    let label = labels.get(&req.key);
    match req.operator.as_str() {
        "In" => !values.is_empty() && label.is_some_and(|l| values.contains(l)),
        "NotIn" => !values.is_empty() && label.is_none_or(|l| !values.contains(l)),
        "Exists" => values.is_empty() && label.is_some(),
        "DoesNotExist" => values.is_empty() && label.is_none(),
        "Gt" | "Lt" => {
            let (Some(label), [bound]) = (label, values) else {
                return false;
            };
            let (Ok(label), Ok(bound)) = (label.parse::<i64>(), bound.parse::<i64>()) else {
                return false;
            };
            if req.operator == "Gt" {
                label > bound
            } else {
                label < bound
            }
        }
        _ => false,
    }
}

/// Sum of the weights of matching preferred terms (the NodeAffinity score plugin's raw score).
pub fn preferred_score(spec: &PodSpec, node: &Node) -> i64 {
    let preferred: &[PreferredTerm] = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|n| {
            n.preferred_during_scheduling_ignored_during_execution
                .as_deref()
        })
        .unwrap_or(&[]);
    preferred
        .iter()
        .filter(|p| p.weight != 0 && term_matches(&p.preference, node))
        .map(|p| i64::from(p.weight))
        .sum()
}

/// The single `metadata.name In [x]` value of a pod's required affinity (`util.GetTargetNodeName`'s fallback).
pub fn target_node_from_affinity(spec: &PodSpec) -> Option<&str> {
    let terms = required_terms(spec)?;
    for term in terms {
        for field in term.match_fields.iter().flatten() {
            if field.key == "metadata.name" && field.operator == "In" {
                if let Some([value]) = field.values.as_deref() {
                    return Some(value);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Affinity, NodeAffinity, NodeSelector, ObjectMeta};

    fn node(name: &str, labels: &[(&str, &str)]) -> Node {
        Node {
            metadata: ObjectMeta {
                name: Some(name.into()),
                labels: Some(
                    labels
                        .iter()
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect(),
                ),
                ..Default::default()
            },
            ..Default::default()
        }
    }

    fn req(key: &str, op: &str, values: &[&str]) -> NodeSelectorRequirement {
        NodeSelectorRequirement {
            key: key.into(),
            operator: op.into(),
            values: (!values.is_empty()).then(|| values.iter().map(|v| v.to_string()).collect()),
        }
    }

    fn spec_with_terms(terms: Vec<NodeSelectorTerm>) -> PodSpec {
        PodSpec {
            affinity: Some(Affinity {
                node_affinity: Some(NodeAffinity {
                    required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                        node_selector_terms: terms,
                    }),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn operator_table() {
        // The operator table of staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/
        // nodeaffinity.go nodeSelectorRequirementsAsSelector (In, NotIn, Exists, DoesNotExist, Gt, Lt).
        let labels: BTreeMap<String, String> = [("role", "worker"), ("cpus", "8"), ("bad", "x")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let cases = [
            (req("role", "In", &["worker"]), true),
            (req("role", "In", &["db"]), false),
            (req("role", "NotIn", &["db"]), true),
            (req("missing", "NotIn", &["db"]), true),
            (req("role", "Exists", &[]), true),
            (req("role", "DoesNotExist", &[]), false),
            (req("missing", "DoesNotExist", &[]), true),
            (req("cpus", "Gt", &["4"]), true),
            (req("cpus", "Lt", &["4"]), false),
            (req("bad", "Gt", &["4"]), false),
            (req("missing", "Lt", &["4"]), false),
        ];
        for (r, want) in cases {
            assert_eq!(requirement_matches(&r, &labels), want, "{r:?}");
        }
    }

    #[test]
    fn terms_are_ored_and_empty_terms_match_nothing() {
        let n = node("k8s-node1", &[("role", "worker")]);
        let anti = spec_with_terms(vec![NodeSelectorTerm {
            match_expressions: Some(vec![
                req("ROLE", "DoesNotExist", &[]),
                req("ROLE", "NotIn", &["worker2"]),
            ]),
            match_fields: None,
        }]);
        assert!(required_node_affinity_matches(&anti, &n));
        assert!(!required_node_affinity_matches(
            &spec_with_terms(vec![NodeSelectorTerm::default()]),
            &n
        ));
        let fields = spec_with_terms(vec![
            NodeSelectorTerm {
                match_fields: Some(vec![req("metadata.name", "In", &["other"])]),
                match_expressions: None,
            },
            NodeSelectorTerm {
                match_fields: Some(vec![req("metadata.name", "In", &["k8s-node1"])]),
                match_expressions: None,
            },
        ]);
        assert!(required_node_affinity_matches(&fields, &n));
        assert_eq!(
            target_node_from_affinity(&spec_with_terms(vec![NodeSelectorTerm {
                match_fields: Some(vec![req("metadata.name", "In", &["x"])]),
                match_expressions: None
            }])),
            Some("x")
        );
    }
}
