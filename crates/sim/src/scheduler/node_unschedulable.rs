//! NodeUnschedulable filter: cordoned nodes (`spec.unschedulable`) reject pods that don't tolerate
//! `node.kubernetes.io/unschedulable:NoSchedule`.
//!
//! Upstream: `pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go`.

use super::{Code, Status};
use dsplay_api::taints::{keys, taint, tolerated_by_any, NO_SCHEDULE};
use dsplay_api::types::{Node, Pod};

/// Plugin name.
pub const NAME: &str = "NodeUnschedulable";
/// `ErrReasonUnschedulable`.
pub const ERR_REASON_UNSCHEDULABLE: &str = "node(s) were unschedulable";

/// Fails (UnschedulableAndUnresolvable) on an unschedulable node unless the pod tolerates the
/// unschedulable taint. Upstream: `NodeUnschedulable.Filter`.
pub fn filter(pod: &Pod, node: &Node) -> Result<(), Status> {
    let unschedulable = node
        .spec
        .as_ref()
        .and_then(|s| s.unschedulable)
        .unwrap_or(false);
    if !unschedulable {
        return Ok(());
    }
    let tolerations = pod
        .spec
        .as_ref()
        .and_then(|s| s.tolerations.as_deref())
        .unwrap_or(&[]);
    if tolerated_by_any(tolerations, &taint(keys::UNSCHEDULABLE, None, NO_SCHEDULE)) {
        return Ok(());
    }
    Err(Status::new(
        Code::UnschedulableAndUnresolvable,
        NAME,
        ERR_REASON_UNSCHEDULABLE,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scheduler::testutil::*;
    use dsplay_api::taints::exists_toleration;

    #[test]
    fn test_node_unschedulable() {
        // Mirrors upstream TestNodeUnschedulable (nodeunschedulable/node_unschedulable_test.go).
        let tolerating = with_tolerations(
            pod("p"),
            vec![exists_toleration(keys::UNSCHEDULABLE, NO_SCHEDULE)],
        );
        let cases = [
            (
                "does not schedule pod to unschedulable node",
                pod("p"),
                Some(true),
                false,
            ),
            (
                "schedules pod to schedulable node",
                pod("p"),
                Some(false),
                true,
            ),
            (
                "schedules pod when unschedulable is unset",
                pod("p"),
                None,
                true,
            ),
            (
                "schedules pod with the toleration to unschedulable node",
                tolerating,
                Some(true),
                true,
            ),
        ];
        for (name, p, unschedulable, fits) in cases {
            let mut n = node("n");
            n.spec.get_or_insert_with(Default::default).unschedulable = unschedulable;
            let got = filter(&p, &n);
            assert_eq!(got.is_ok(), fits, "{name}");
            if let Err(s) = got {
                assert_eq!(
                    s.reasons,
                    vec![ERR_REASON_UNSCHEDULABLE.to_string()],
                    "{name}"
                );
                assert_eq!(s.code, Code::UnschedulableAndUnresolvable, "{name}");
            }
        }
    }
}
