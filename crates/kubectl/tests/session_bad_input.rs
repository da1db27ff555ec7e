//! Bad input never panics and never changes the cluster: every failing command leaves the store's
//! resourceVersion and the clock exactly where they were.

use dsplay_kubectl::{Session, SessionOptions};
use proptest::prelude::*;

fn session() -> Session {
    Session::new(SessionOptions::default())
}

const BAD_COMMANDS: &[&str] = &[
    "kubectl get ds --foo",
    "kubectl get",
    "kubectl frobnicate",
    "kubectl get widgets",
    "kubectl get ds nope",
    "kubectl delete ds nope",
    "kubectl get ds -o foo",
    "kubectl taint nodes kind-worker a=b:Foo",
    "kubectl taint nodes kind-worker :NoSchedule",
    "kubectl taint nodes nowhere a=b:NoSchedule",
    "kubectl taint nodes kind-worker missing:NoSchedule-",
    "kubectl label nodes kind-worker kubernetes.io/os=windows",
    "kubectl cordon",
    "kubectl cordon nowhere",
    "kubectl rollout undo ds/nope",
    "kubectl rollout status ds/kube-proxy --timeout=bogus -n nowhere",
    "kubectl set image ds/kube-proxy -n kube-system nope=busybox",
    "kubectl patch ds kube-proxy -n kube-system --type=json -p '[{\"op\":\"remove\",\"path\":\"/nope\"}]'",
    "kubectl patch ds kube-proxy -n kube-system -p '{bad json'",
    "kubectl apply -f -",
    "kubectl apply -f /no/such/file.yaml",
    "kubectl get ds \"unterminated",
    "kubectl get nodes -o custom-columns=N:.metadata.name,X:.status.conditions[99].type",
    "kubectl get nodes -o go-template='{{range .items}}{{index .status.conditions 99}}{{end}}'",
    "kubectl get nodes -o go-template='{{if 1}}{{if 1}}{{foo}}{{end}}{{end}}'",
    "kubectl get nodes -o jsonpath-as-json='{.items[0'",
    "kubectl scale ds/kube-proxy -n kube-system --replicas=5",
    "kubectl logs nope",
    "kubectl logs ds/kube-proxy -n kube-system --previous",
    "kubectl exec nope -- ls",
    "kubectl edit ds/kube-proxy -n kube-system",
    "kubectl top nodes",
    "kubectl explain ds.spec.nope",
    "kubectl get pods | grep x",
    "sim advance forever",
    "sim advance 1e300",
    "sim advance 25h",
    "sim settle --max 1000h",
    "kubectl wait --for=delete pod/x --timeout=1000h",
    "kubectl delete ns kube-system",
    "kubectl delete ns default --timeout=25h",
    "sim node add x --cpu -4",
    "kubectl delete pods --all --grace-period=9223372036854775808",
    "sim node fail nowhere",
    "sim node add",
    "sim node add x --cpu lots",
    "sim node condition kind-worker Ready=Maybe",
    "sim image",
    "sim frob",
    "sim seed abc",
    "nonsense",
];

#[test]
fn failing_commands_change_nothing() {
    for command in BAD_COMMANDS {
        let mut s = session();
        let rv = s.cluster().store().resource_version();
        let now = s.cluster().now();
        let outputs = s.execute(command);
        assert!(!outputs.is_empty(), "{command}: no output");
        assert!(
            outputs.iter().all(|o| !o.success),
            "{command}: should fail, got {:?}",
            outputs[0].text()
        );
        assert!(
            outputs.iter().all(|o| !o.text().is_empty()),
            "{command}: failed silently"
        );
        assert_eq!(
            s.cluster().store().resource_version(),
            rv,
            "{command}: store changed"
        );
        assert_eq!(s.cluster().now(), now, "{command}: clock moved");
    }
}

#[test]
fn invalid_manifest_changes_nothing() {
    let mut s = session();
    let rv = s.cluster().store().resource_version();
    let script = "kubectl apply -f - <<EOF\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: bad\nspec:\n  selector:\n    matchLabels: {app: a}\n  template:\n    metadata:\n      labels: {app: b}\n    spec:\n      containers: [{name: c, image: busybox}]\nEOF\n";
    let out = s.execute(script);
    assert!(!out[0].success);
    assert!(
        out[0]
            .text()
            .starts_with("The DaemonSet \"bad\" is invalid: spec.template.metadata.labels"),
        "{}",
        out[0].text()
    );
    assert_eq!(s.cluster().store().resource_version(), rv);
}

#[test]
fn huge_line_and_binary_junk_fail_cleanly() {
    let mut s = session();
    let huge = format!("kubectl get ds {}", "x".repeat(1 << 20));
    assert!(!s.execute(&huge)[0].success);
    let junk: String = (0u8..=255).map(char::from).collect();
    for output in s.execute(&junk) {
        assert!(!output.success);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Arbitrary text after `kubectl`/`sim` never panics and a failure never moves the store.
    #[test]
    fn arbitrary_commands_never_panic(prefix in prop::sample::select(vec!["kubectl ", "sim ", "kubectl get ", "kubectl apply -f - <<EOF\n", "sim node ", "kubectl taint nodes kind-worker ", ""]), body in "\\PC{0,80}") {
        let mut s = session();
        let rv = s.cluster().store().resource_version();
        let outputs = s.execute(&format!("{prefix}{body}"));
        if outputs.iter().all(|o| !o.success) {
            prop_assert_eq!(s.cluster().store().resource_version(), rv);
        }
    }
}
