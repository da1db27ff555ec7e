//! NodeAffinity: PreFilter shortcut for `metadata.name In [...]` matchFields, Filter on nodeSelector +
//! required terms, Score on preferred terms.
//!
//! Upstream: `pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go`.

use super::{Code, Status};
use dsplay_api::node_affinity::{preferred_score, required_node_affinity_matches, required_terms};
use dsplay_api::types::{Node, Pod};
use std::collections::BTreeSet;

/// Plugin name.
pub const NAME: &str = "NodeAffinity";
/// Score weight in the default profile.
pub const WEIGHT: i64 = 2;
/// `ErrReasonPod`.
pub const ERR_REASON_POD: &str = "node(s) didn't match Pod's node affinity/selector";
/// `errReasonConflict`: every term pins disjoint node names.
pub const ERR_REASON_CONFLICT: &str = "pod affinity terms conflict";

/// The status the framework gives nodes left out by a PreFilter result (v1.29+ text).
pub fn not_in_prefilter_result() -> Status {
    Status::new(
        Code::UnschedulableAndUnresolvable,
        "",
        format!("node(s) didn't satisfy plugin(s) [{NAME}]"),
    )
}

/// PreFilter: `Ok(Some(names))` when every required term has a `metadata.name In` matchField (names =
/// the union over terms of the intersection within a term), `Ok(None)` when all nodes must be evaluated,
/// `Err` (UnschedulableAndUnresolvable, `pod affinity terms conflict`) when that union is empty.
/// Upstream: `NodeAffinity.PreFilter`.
pub fn pre_filter(pod: &Pod) -> Result<Option<BTreeSet<String>>, Status> {
    let Some(spec) = pod.spec.as_ref() else {
        return Ok(None);
    };
    let Some(terms) = required_terms(spec) else {
        return Ok(None);
    };
    if terms.is_empty() {
        return Ok(None);
    }
    let mut union: BTreeSet<String> = BTreeSet::new();
    for term in terms {
        let mut term_names: Option<BTreeSet<String>> = None;
        for field in term.match_fields.iter().flatten() {
            if field.key == "metadata.name" && field.operator == "In" {
                let values: BTreeSet<String> = field.values.iter().flatten().cloned().collect();
                term_names = Some(match term_names {
                    None => values,
                    Some(prev) => prev.intersection(&values).cloned().collect(),
                });
            }
        }
        match term_names {
            // A term without a name pin: terms are ORed, so every node is a candidate.
            None => return Ok(None),
            Some(names) => union.extend(names),
        }
    }
    if union.is_empty() {
        return Err(Status::new(
            Code::UnschedulableAndUnresolvable,
            NAME,
            ERR_REASON_CONFLICT,
        ));
    }
    Ok(Some(union))
}

/// Filter: `spec.nodeSelector` AND required node affinity; UnschedulableAndUnresolvable on mismatch.
/// Upstream: `NodeAffinity.Filter`.
pub fn filter(pod: &Pod, node: &Node) -> Result<(), Status> {
    let Some(spec) = pod.spec.as_ref() else {
        return Ok(());
    };
    if required_node_affinity_matches(spec, node) {
        Ok(())
    } else {
        Err(Status::new(
            Code::UnschedulableAndUnresolvable,
            NAME,
            ERR_REASON_POD,
        ))
    }
}

/// Raw score: sum of weights of matching preferred terms. Upstream: `NodeAffinity.Score`.
pub fn raw_score(pod: &Pod, node: &Node) -> i64 {
    pod.spec
        .as_ref()
        .map(|s| preferred_score(s, node))
        .unwrap_or(0)
}

#[cfg(test)]
#[allow(clippy::type_complexity)] // test tables of tuples
mod tests {
    use super::*;
    use crate::scheduler::score::default_normalize_score;
    use crate::scheduler::testutil::*;
    use dsplay_api::types::{NodeSelectorRequirement, NodeSelectorTerm};
    use k8s_openapi::api::core::v1::PreferredSchedulingTerm;

    fn req(key: &str, op: &str, values: &[&str]) -> NodeSelectorRequirement {
        NodeSelectorRequirement {
            key: key.into(),
            operator: op.into(),
            values: (!values.is_empty()).then(|| values.iter().map(|v| v.to_string()).collect()),
        }
    }

    fn fields(reqs: Vec<NodeSelectorRequirement>) -> NodeSelectorTerm {
        NodeSelectorTerm {
            match_fields: Some(reqs),
            match_expressions: None,
        }
    }

    fn exprs(reqs: Vec<NodeSelectorRequirement>) -> NodeSelectorTerm {
        NodeSelectorTerm {
            match_expressions: Some(reqs),
            match_fields: None,
        }
    }

    #[test]
    fn test_node_affinity_filter() {
        // Mirrors upstream TestNodeAffinity (nodeaffinity/node_affinity_test.go), filter rows.
        let n = with_labels(node("node1"), &[("foo", "bar"), ("zone", "a")]);
        let cases: Vec<(&str, Pod, bool)> = vec![
            ("no selector", pod("p"), true),
            (
                "missing labels",
                with_node_selector(pod("p"), &[("foo", "baz")]),
                false,
            ),
            (
                "same labels",
                with_node_selector(pod("p"), &[("foo", "bar")]),
                true,
            ),
            (
                "node labels are superset",
                with_node_selector(pod("p"), &[("zone", "a")]),
                true,
            ),
            (
                "In matches",
                with_required(
                    pod("p"),
                    vec![exprs(vec![req("foo", "In", &["bar", "value2"])])],
                ),
                true,
            ),
            (
                "Gt on a non-integer label",
                with_required(pod("p"), vec![exprs(vec![req("foo", "Gt", &["0"])])]),
                false,
            ),
            (
                "NotIn",
                with_required(pod("p"), vec![exprs(vec![req("foo", "NotIn", &["bar"])])]),
                false,
            ),
            (
                "DoesNotExist",
                with_required(
                    pod("p"),
                    vec![exprs(vec![req("nope", "DoesNotExist", &[])])],
                ),
                true,
            ),
            (
                "empty term list matches nothing",
                with_required(pod("p"), vec![NodeSelectorTerm::default()]),
                false,
            ),
            (
                "terms are ORed",
                with_required(
                    pod("p"),
                    vec![
                        exprs(vec![req("foo", "In", &["x"])]),
                        exprs(vec![req("zone", "Exists", &[])]),
                    ],
                ),
                true,
            ),
            (
                "nodeSelector and affinity are ANDed",
                with_node_selector(
                    with_required(pod("p"), vec![exprs(vec![req("zone", "Exists", &[])])]),
                    &[("foo", "baz")],
                ),
                false,
            ),
            (
                "matchFields metadata.name In",
                with_required(
                    pod("p"),
                    vec![fields(vec![req("metadata.name", "In", &["node1"])])],
                ),
                true,
            ),
            (
                "matchFields other name",
                with_required(
                    pod("p"),
                    vec![fields(vec![req("metadata.name", "In", &["node2"])])],
                ),
                false,
            ),
        ];
        for (name, p, fits) in cases {
            let got = filter(&p, &n);
            assert_eq!(got.is_ok(), fits, "{name}");
            if let Err(s) = got {
                assert_eq!(s.reasons, vec![ERR_REASON_POD.to_string()], "{name}");
                assert_eq!(s.code, Code::UnschedulableAndUnresolvable, "{name}");
            }
        }
    }

    #[test]
    fn test_node_affinity_pre_filter() {
        // Mirrors the PreFilter rows of upstream TestNodeAffinity ("Pod with matchFields using In
        // operator", "…with multiple terms…", "…conflicting…").
        let set =
            |names: &[&str]| Some(names.iter().map(|n| n.to_string()).collect::<BTreeSet<_>>());
        let cases: Vec<(&str, Pod, Result<Option<BTreeSet<String>>, &str>)> = vec![
            ("no affinity", pod("p"), Ok(None)),
            (
                "one pinned term",
                daemon_pod("p", "node1"),
                Ok(set(&["node1"])),
            ),
            (
                "two pinned terms are unioned",
                with_required(
                    pod("p"),
                    vec![
                        fields(vec![req("metadata.name", "In", &["node1"])]),
                        fields(vec![req("metadata.name", "In", &["node2"])]),
                    ],
                ),
                Ok(set(&["node1", "node2"])),
            ),
            (
                "a term without a name pin evaluates all nodes",
                with_required(
                    pod("p"),
                    vec![
                        fields(vec![req("metadata.name", "In", &["node1"])]),
                        exprs(vec![req("foo", "Exists", &[])]),
                    ],
                ),
                Ok(None),
            ),
            (
                "requirements in one term are intersected",
                with_required(
                    pod("p"),
                    vec![fields(vec![
                        req("metadata.name", "In", &["node1", "node2"]),
                        req("metadata.name", "In", &["node2"]),
                    ])],
                ),
                Ok(set(&["node2"])),
            ),
            (
                "conflicting requirements",
                with_required(
                    pod("p"),
                    vec![fields(vec![
                        req("metadata.name", "In", &["node1"]),
                        req("metadata.name", "In", &["node2"]),
                    ])],
                ),
                Err(ERR_REASON_CONFLICT),
            ),
            (
                "NotIn is not a pin",
                with_required(
                    pod("p"),
                    vec![fields(vec![req("metadata.name", "NotIn", &["node1"])])],
                ),
                Ok(None),
            ),
        ];
        for (name, p, want) in cases {
            let got = pre_filter(&p).map_err(|s| s.reasons.join(""));
            assert_eq!(got, want.map_err(str::to_string), "{name}");
        }
    }

    #[test]
    fn test_node_affinity_score() {
        // Mirrors upstream TestNodeAffinityPriority: sum of matching preferred weights, normalised to 0–100.
        let mut p = pod("p");
        let na = p
            .spec
            .as_mut()
            .unwrap()
            .affinity
            .get_or_insert_with(Default::default)
            .node_affinity
            .get_or_insert_with(Default::default);
        na.preferred_during_scheduling_ignored_during_execution = Some(vec![
            PreferredSchedulingTerm {
                weight: 2,
                preference: exprs(vec![req("foo", "In", &["bar"])]),
            },
            PreferredSchedulingTerm {
                weight: 4,
                preference: exprs(vec![req("key", "In", &["value"])]),
            },
            PreferredSchedulingTerm {
                weight: 0,
                preference: exprs(vec![req("foo", "Exists", &[])]),
            },
            PreferredSchedulingTerm {
                weight: 5,
                preference: NodeSelectorTerm::default(),
            },
        ]);
        let nodes = [
            with_labels(node("m1"), &[("foo", "bar")]),
            with_labels(node("m2"), &[("key", "value")]),
            with_labels(node("m3"), &[("foo", "bar"), ("key", "value")]),
            node("m4"),
        ];
        let mut raw: Vec<i64> = nodes.iter().map(|n| raw_score(&p, n)).collect();
        assert_eq!(raw, vec![2, 4, 6, 0]);
        default_normalize_score(&mut raw, false);
        assert_eq!(raw, vec![33, 66, 100, 0]);
    }
}
