//! The `0/N nodes are available: …` text (upstream `FitError.Error()`, `pkg/scheduler/framework/types.go`).

use super::{Code, Status};
use std::collections::BTreeMap;

/// `NoNodeAvailableMsg`.
#[doc(alias = "NoNodeAvailableMsg")]
pub fn no_node_available(n: usize) -> String {
    format!("0/{n} nodes are available")
}

/// Why the pod failed on each node (upstream `framework.Diagnosis` + `NodeToStatus`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnosis {
    /// Total node count N.
    pub num_all_nodes: usize,
    /// Explicit per-node failures, keyed by index in the snapshot.
    pub statuses: Vec<(usize, Status)>,
    /// The status of every node not listed in `statuses` (e.g. outside a PreFilter result).
    pub absent: Option<Status>,
    /// A PreFilter rejection; when set it replaces the histogram.
    pub pre_filter_msg: Option<String>,
}

impl Diagnosis {
    /// An empty diagnosis for N nodes.
    pub fn new(num_all_nodes: usize) -> Self {
        Diagnosis {
            num_all_nodes,
            ..Default::default()
        }
    }

    /// A PreFilter rejected the pod: every node gets its status (upstream sets it as the absent status).
    pub fn pre_filter_failed(num_all_nodes: usize, status: Status) -> Self {
        Diagnosis {
            num_all_nodes,
            statuses: Vec::new(),
            pre_filter_msg: Some(status.reasons.join(", ")),
            absent: Some(status),
        }
    }

    /// The status of node `i` (explicit, else the absent status).
    pub fn status_of(&self, i: usize) -> Option<&Status> {
        self.statuses
            .iter()
            .find(|(j, _)| *j == i)
            .map(|(_, s)| s)
            .or(self.absent.as_ref())
    }

    /// Indices of nodes whose status is `Unschedulable` (resolvable): where preemption might help
    /// (upstream `nodesWherePreemptionMightHelp`). Absent nodes are never included.
    pub fn resolvable_nodes(&self) -> Vec<usize> {
        self.statuses
            .iter()
            .filter(|(_, s)| s.code == Code::Unschedulable)
            .map(|(i, _)| *i)
            .collect()
    }

    /// The sorted `"<count> <reason>"` histogram (strings sorted lexicographically, as Go's sort.Strings).
    pub fn histogram(&self) -> Vec<String> {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, status) in &self.statuses {
            for reason in &status.reasons {
                *counts.entry(reason.as_str()).or_default() += 1;
            }
        }
        if self.statuses.len() < self.num_all_nodes {
            if let Some(absent) = &self.absent {
                let missing = self.num_all_nodes - self.statuses.len();
                for reason in &absent.reasons {
                    *counts.entry(reason.as_str()).or_default() += missing;
                }
            }
        }
        let mut out: Vec<String> = counts
            .into_iter()
            .map(|(reason, n)| format!("{n} {reason}"))
            .collect();
        out.sort();
        out
    }
}

/// A FitError: the diagnosis plus the PostFilter (preemption) message.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FitError {
    /// Per-node reasons.
    pub diagnosis: Diagnosis,
    /// `preemption: …` text, empty when preemption succeeded (or did not run).
    pub post_filter_msg: String,
}

impl std::fmt::Display for FitError {
    /// `0/N nodes are available: <PreFilterMsg or histogram>.` + ` <PostFilterMsg>`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = &self.diagnosis;
        write!(f, "{}:", no_node_available(d.num_all_nodes))?;
        if let Some(msg) = d.pre_filter_msg.as_deref().filter(|m| !m.is_empty()) {
            write!(f, " {msg}.")?;
        } else {
            let histogram = d.histogram();
            if !histogram.is_empty() {
                write!(f, " {}.", histogram.join(", "))?;
            }
        }
        if !self.post_filter_msg.is_empty() {
            write!(f, " {}", self.post_filter_msg)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(code: Code, reasons: &[&str]) -> Status {
        Status {
            code,
            plugin: "",
            reasons: reasons.iter().map(|r| r.to_string()).collect(),
        }
    }

    #[test]
    fn histogram_is_sorted_as_strings() {
        // Mirrors upstream TestFitError (pkg/scheduler/framework/types_test.go): counts prefix the reason
        // and the entries sort as plain strings ("1 c" < "10 b" < "2 a").
        let mut d = Diagnosis::new(12);
        for i in 0..10 {
            d.statuses.push((i, st(Code::Unschedulable, &["b"])));
        }
        d.statuses.push((10, st(Code::Unschedulable, &["a", "c"])));
        d.statuses.push((11, st(Code::Unschedulable, &["a"])));
        let e = FitError {
            diagnosis: d,
            post_filter_msg: String::new(),
        };
        assert_eq!(e.to_string(), "0/12 nodes are available: 1 c, 10 b, 2 a.");
    }

    #[test]
    fn absent_nodes_and_prefilter_message() {
        let mut d = Diagnosis::new(4);
        d.statuses
            .push((0, st(Code::Unschedulable, &["Insufficient cpu"])));
        d.absent = Some(st(
            Code::UnschedulableAndUnresolvable,
            &["node(s) didn't satisfy plugin(s) [NodeAffinity]"],
        ));
        assert_eq!(
            FitError { diagnosis: d, post_filter_msg: String::new() }.to_string(),
            "0/4 nodes are available: 1 Insufficient cpu, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]."
        );
        let d = Diagnosis::pre_filter_failed(
            2,
            st(
                Code::UnschedulableAndUnresolvable,
                &["pod affinity terms conflict"],
            ),
        );
        assert_eq!(
            FitError {
                diagnosis: d,
                post_filter_msg: "preemption: x.".into()
            }
            .to_string(),
            "0/2 nodes are available: pod affinity terms conflict. preemption: x."
        );
    }
}
