//! `--help`, `kubectl help`, `help`, `sim help` and `kubectl config`: help prints usage (never runs
//! the command), and the current context's namespace is the default of every command.

use dsplay_kubectl::{Session, SessionOptions};

/// Runs one line; returns (stdout, stderr, success).
fn run(session: &mut Session, line: &str) -> (String, String, bool) {
    let output = session.execute(line).remove(0);
    let text = |stream| {
        output
            .chunks
            .iter()
            .filter(|c| c.stream == stream)
            .map(|c| c.text.as_str())
            .collect::<String>()
    };
    let (out, err) = (
        text(dsplay_kubectl::Stream::Stdout),
        text(dsplay_kubectl::Stream::Stderr),
    );
    (out, err, output.success)
}

#[test]
fn get_ds_help_prints_usage_not_the_table() {
    let mut s = Session::new(SessionOptions::default());
    for line in [
        "kubectl get ds --help",
        "kubectl get ds -A -h",
        "kubectl help get",
    ] {
        let (out, err, ok) = run(&mut s, line);
        assert!(ok && err.is_empty(), "{line}: {err}");
        assert!(
            out.starts_with("Display one or many resources.\n"),
            "{line}: {out}"
        );
        assert!(out.contains("Usage:\n  kubectl get "), "{line}");
        assert!(!out.contains("kube-proxy"), "{line}: no table");
    }
    let (out, _, _) = run(&mut s, "kubectl rollout status --help");
    assert!(out.starts_with("Show the status of the rollout."));
    let (out, _, _) = run(&mut s, "kubectl help");
    assert!(out.contains("  cordon          Mark node as unschedulable"));
    let (out, _, _) = run(&mut s, "help");
    assert!(out.contains("kubectl controls") && out.contains("sim explain ds/NAME"));
    let (out, _, ok) = run(&mut s, "sim help");
    assert!(ok && out.contains("sim rollout ds/NAME"));
    let (_, err, ok) = run(&mut s, "sim frob");
    assert!(
        !ok && err.contains("explain") && err.contains("rollout"),
        "{err}"
    );
}

#[test]
fn the_context_namespace_is_every_commands_default() {
    let mut s = Session::new(SessionOptions::default());
    assert_eq!(
        run(&mut s, "kubectl config current-context").0,
        "kind-kind\n"
    );
    let (out, _, _) = run(&mut s, "kubectl config get-contexts");
    assert_eq!(
        out,
        "CURRENT   NAME        CLUSTER     AUTHINFO    NAMESPACE\n*         kind-kind   kind-kind   kind-kind   \n"
    );
    let (out, _, ok) = run(
        &mut s,
        "kubectl config set-context --current --namespace kube-system",
    );
    assert!(ok);
    assert_eq!(out, "Context \"kind-kind\" modified.\n");
    assert_eq!(s.namespace(), "kube-system");
    let (out, _, _) = run(&mut s, "kubectl get ds");
    assert!(out.contains("kube-proxy"), "{out}");
    assert!(run(&mut s, "kubectl config view --minify")
        .0
        .contains("    namespace: kube-system\n"));
    assert!(run(&mut s, "kubectl get ds -n default")
        .1
        .contains("No resources found in default namespace."));
    run(&mut s, "kubectl config set-context --current --namespace=");
    assert_eq!(s.namespace(), "default");
    assert!(run(&mut s, "kubectl get ds")
        .1
        .contains("No resources found in default namespace."));
}

/// A bare command group prints its help and succeeds, as cobra does (`kubectl rollout`).
#[test]
fn bare_rollout_prints_its_help() {
    let mut s = Session::new(SessionOptions::default());
    let (out, err, ok) = run(&mut s, "kubectl rollout");
    assert!(ok, "{err}");
    assert!(
        out.starts_with("Manage the rollout of one or many resources."),
        "{out}"
    );
    assert!(out.contains("Available Commands:"));
}
