//! `kubectl drain`'s refusal when a node holds pods of several kinds it will not delete: the real
//! kubectl lists each kind's error (in Go map order, so a transcript compared with the real client
//! cannot hold this case).
//!
//! Upstream: staging/src/k8s.io/kubectl/pkg/drain/filters.go PodDeleteList.errors;
//! pkg/cmd/drain/drain.go RunDrain, deleteOrEvictPodsSimple; pkg/cmd/util/helpers.go checkErr.

use dsplay_kubectl::{Session, SessionOptions};

#[test]
fn several_refusals_are_one_bracketed_aggregate_then_a_line_each() {
    let mut s = Session::new(SessionOptions::default());
    let setup = s.execute(
        "kubectl create -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata:\n  name: loner\nspec:\n  nodeName: kind-worker2\n  containers:\n  - name: c\n    image: busybox\nEOF\nsim settle",
    );
    assert!(setup.iter().all(|o| o.success), "{setup:#?}");
    let out = s.execute("kubectl drain kind-worker2");
    let text = out[0].text();
    assert!(!out[0].success);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "node/kind-worker2 cordoned");
    assert!(
        lines[1].starts_with("error: unable to drain node \"kind-worker2\" due to error: [cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): ")
            && lines[1].ends_with(", cannot delete Pods that declare no controller (use --force to override): default/loner], continuing command..."),
        "{text}"
    );
    assert_eq!(
        &lines[2..4],
        ["There are pending nodes to be drained:", " kind-worker2"]
    );
    assert!(
        lines[4].starts_with("cannot delete DaemonSet-managed Pods"),
        "{text}"
    );
    assert_eq!(
        lines[5],
        "cannot delete Pods that declare no controller (use --force to override): default/loner"
    );
    assert_eq!(lines.len(), 6, "{text}");
}
