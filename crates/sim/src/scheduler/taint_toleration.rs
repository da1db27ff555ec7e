//! TaintToleration: Filter on NoSchedule/NoExecute taints, Score on PreferNoSchedule taints.
//!
//! Upstream: `pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go`.

use super::{Code, Status};
use dsplay_api::taints::{
    find_untolerated, tolerates, NO_EXECUTE, NO_SCHEDULE, PREFER_NO_SCHEDULE,
};
use dsplay_api::types::{Node, Pod, Taint, Toleration};

/// Plugin name.
pub const NAME: &str = "TaintToleration";
/// Score weight in the default profile.
pub const WEIGHT: i64 = 3;

fn taints(node: &Node) -> &[Taint] {
    node.spec
        .as_ref()
        .and_then(|s| s.taints.as_deref())
        .unwrap_or(&[])
}

fn tolerations(pod: &Pod) -> &[Toleration] {
    pod.spec
        .as_ref()
        .and_then(|s| s.tolerations.as_deref())
        .unwrap_or(&[])
}

/// The v1.25–v1.33 reason text: `node(s) had untolerated taint {<key>: <value>}` (value empty if unset).
pub fn untolerated_reason(taint: &Taint) -> String {
    format!(
        "node(s) had untolerated taint {{{}: {}}}",
        taint.key,
        taint.value.as_deref().unwrap_or("")
    )
}

/// Fails (UnschedulableAndUnresolvable) on the first NoSchedule/NoExecute taint the pod does not
/// tolerate. Upstream: `TaintToleration.Filter`.
pub fn filter(pod: &Pod, node: &Node) -> Result<(), Status> {
    let hit = find_untolerated(taints(node), tolerations(pod), |t| {
        t.effect == NO_SCHEDULE || t.effect == NO_EXECUTE
    });
    match hit {
        None => Ok(()),
        Some(t) => Err(Status::new(
            Code::UnschedulableAndUnresolvable,
            NAME,
            untolerated_reason(t),
        )),
    }
}

/// Raw score: the number of the node's PreferNoSchedule taints not tolerated by the pod's tolerations
/// whose effect is PreferNoSchedule or empty. Upstream: `countIntolerableTaintsPreferNoSchedule`.
pub fn raw_score(pod: &Pod, node: &Node) -> i64 {
    let relevant: Vec<&Toleration> = tolerations(pod)
        .iter()
        .filter(|t| {
            matches!(
                t.effect.as_deref(),
                None | Some("") | Some(PREFER_NO_SCHEDULE)
            )
        })
        .collect();
    taints(node)
        .iter()
        .filter(|t| t.effect == PREFER_NO_SCHEDULE)
        .filter(|t| !relevant.iter().any(|tol| tolerates(tol, t)))
        .count() as i64
}

#[cfg(test)]
#[allow(clippy::type_complexity)] // test tables of tuples
mod tests {
    use super::*;
    use crate::scheduler::score::default_normalize_score;
    use crate::scheduler::testutil::*;
    use dsplay_api::taints::taint;

    fn tol(key: &str, op: &str, value: &str, effect: &str) -> Toleration {
        Toleration {
            key: Some(key.into()),
            operator: Some(op.into()),
            value: (!value.is_empty()).then(|| value.into()),
            effect: (!effect.is_empty()).then(|| effect.into()),
            toleration_seconds: None,
        }
    }

    #[test]
    fn test_taint_toleration_filter() {
        // Mirrors upstream TestTaintTolerationFilter (tainttoleration/taint_toleration_test.go).
        let cases: Vec<(&str, Vec<Toleration>, Vec<Taint>, Option<&str>)> = vec![
            (
                "a pod having no tolerations can't be scheduled onto a node with nonempty taints",
                vec![],
                vec![taint("dedicated", Some("user1"), NO_SCHEDULE)],
                Some("node(s) had untolerated taint {dedicated: user1}"),
            ),
            (
                "a pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
                vec![tol("dedicated", "Equal", "user1", NO_SCHEDULE)],
                vec![taint("dedicated", Some("user1"), NO_SCHEDULE)],
                None,
            ),
            (
                "a pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
                vec![tol("dedicated", "Equal", "user2", NO_SCHEDULE)],
                vec![taint("dedicated", Some("user1"), NO_SCHEDULE)],
                Some("node(s) had untolerated taint {dedicated: user1}"),
            ),
            (
                "a pod can be scheduled onto the node, with a toleration uses operator Exists",
                vec![tol("foo", "Exists", "", NO_SCHEDULE)],
                vec![taint("foo", Some("bar"), NO_SCHEDULE)],
                None,
            ),
            (
                "a pod has multiple tolerations, node has multiple taints, all the taints are tolerated",
                vec![tol("dedicated", "Equal", "user2", NO_SCHEDULE), tol("foo", "Exists", "", NO_SCHEDULE)],
                vec![taint("dedicated", Some("user2"), NO_SCHEDULE), taint("foo", Some("bar"), NO_SCHEDULE)],
                None,
            ),
            (
                "a pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match",
                vec![tol("foo", "Equal", "bar", PREFER_NO_SCHEDULE)],
                vec![taint("foo", Some("bar"), NO_SCHEDULE)],
                Some("node(s) had untolerated taint {foo: bar}"),
            ),
            (
                "the pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty",
                vec![tol("foo", "Equal", "bar", "")],
                vec![taint("foo", Some("bar"), NO_SCHEDULE)],
                None,
            ),
            (
                "the pod has a toleration that key and value don't match the taint, but the effect of taint is PreferNoSchedule",
                vec![tol("dedicated", "Equal", "user2", NO_SCHEDULE)],
                vec![taint("dedicated", Some("user1"), PREFER_NO_SCHEDULE)],
                None,
            ),
            (
                "the pod has no toleration, but the effect of taint on the node is PreferNoSchedule",
                vec![],
                vec![taint("dedicated", Some("user1"), PREFER_NO_SCHEDULE)],
                None,
            ),
            (
                "control-plane taint without value prints an empty value",
                vec![],
                vec![taint("node-role.kubernetes.io/control-plane", None, NO_SCHEDULE)],
                Some("node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"),
            ),
            (
                "NoExecute taint is checked too",
                vec![],
                vec![taint("node.kubernetes.io/unreachable", None, NO_EXECUTE)],
                Some("node(s) had untolerated taint {node.kubernetes.io/unreachable: }"),
            ),
        ];
        for (name, tols, node_taints, want) in cases {
            let p = with_tolerations(pod("p"), tols);
            let n = with_taints(node("n"), node_taints);
            let got = filter(&p, &n);
            match want {
                None => assert!(got.is_ok(), "{name}: {got:?}"),
                Some(reason) => {
                    let s = got.expect_err(name);
                    assert_eq!(s.reasons, vec![reason.to_string()], "{name}");
                    assert_eq!(s.code, Code::UnschedulableAndUnresolvable, "{name}");
                }
            }
        }
    }

    #[test]
    fn test_taint_toleration_score() {
        // Mirrors upstream TestTaintTolerationScore: fewer intolerable PreferNoSchedule taints score higher.
        let p = with_tolerations(
            pod("p"),
            vec![tol("foo", "Equal", "bar", PREFER_NO_SCHEDULE)],
        );
        let nodes = [
            with_taints(
                node("a"),
                vec![taint("foo", Some("bar"), PREFER_NO_SCHEDULE)],
            ),
            with_taints(
                node("b"),
                vec![taint("foo", Some("blah"), PREFER_NO_SCHEDULE)],
            ),
            with_taints(
                node("c"),
                vec![
                    taint("foo", Some("blah"), PREFER_NO_SCHEDULE),
                    taint("x", None, PREFER_NO_SCHEDULE),
                ],
            ),
            with_taints(node("d"), vec![taint("x", None, NO_SCHEDULE)]),
        ];
        let mut raw: Vec<i64> = nodes.iter().map(|n| raw_score(&p, n)).collect();
        assert_eq!(raw, vec![0, 1, 2, 0]);
        default_normalize_score(&mut raw, true);
        assert_eq!(raw, vec![100, 50, 0, 100]);
        let mut zero = vec![0, 0];
        default_normalize_score(&mut zero, true);
        assert_eq!(zero, vec![100, 100], "max 0 → every node gets 100");
    }
}
