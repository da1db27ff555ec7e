//! "Export to a real cluster": a `kind` cluster config reproducing the node set (roles, labels,
//! taints through kubeadm config patches) and the session's commands as a kubectl script (the
//! manifests travel in its here-documents; `sim` lines become comments).

use crate::model::ClusterModel;
use crate::shell::{here_document_delimiter, shell_quote};
use dsplay_kubectl::tokenizer::{split_script, ScriptCommand};

/// Labels kind or the kubelet set by themselves.
fn is_builtin_label(key: &str) -> bool {
    key.starts_with("node-role.kubernetes.io/")
        || key.starts_with("kubernetes.io/")
        || key.starts_with("beta.kubernetes.io/")
        || key == "node.kubernetes.io/exclude-from-external-load-balancers"
}

/// Taints the node lifecycle controller sets by itself.
fn is_builtin_taint(taint: &str) -> bool {
    taint.starts_with("node.kubernetes.io/")
}

fn yaml_quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The kind cluster config for the model's nodes.
pub fn kind_config(model: &ClusterModel) -> String {
    let mut out = String::from(
        "# kind create cluster --config kind.yaml   (kind names the nodes itself)\n\
         kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n",
    );
    // kind wants the control plane first.
    let mut nodes: Vec<_> = model.nodes.iter().collect();
    nodes.sort_by_key(|n| n.role != "control-plane");
    for node in nodes {
        let control_plane = node.role == "control-plane";
        out.push_str(&format!(
            "- role: {}   # {}\n",
            if control_plane {
                "control-plane"
            } else {
                "worker"
            },
            node.name
        ));
        let labels: Vec<_> = node
            .labels
            .iter()
            .filter(|(k, _)| !is_builtin_label(k))
            .collect();
        if !labels.is_empty() {
            out.push_str("  labels:\n");
            for (k, v) in labels {
                out.push_str(&format!("    {k}: {}\n", yaml_quote(v)));
            }
        }
        let taints: Vec<_> = node
            .taints
            .iter()
            .filter(|t| !is_builtin_taint(t))
            .collect();
        // kind's control plane is tainted by kubeadm already; anything else needs a patch.
        let default_cp = ["node-role.kubernetes.io/control-plane:NoSchedule".to_string()];
        let only_default = control_plane && taints.iter().copied().eq(default_cp.iter());
        if !taints.is_empty() && !only_default {
            out.push_str(&format!(
                "  kubeadmConfigPatches:\n  - |\n    kind: {}\n    nodeRegistration:\n      taints:\n",
                if control_plane {
                    "InitConfiguration"
                } else {
                    "JoinConfiguration"
                }
            ));
            for t in taints {
                let (kv, effect) = t.rsplit_once(':').unwrap_or((t, "NoSchedule"));
                let (key, value) = kv.split_once('=').unwrap_or((kv, ""));
                out.push_str(&format!("      - key: {key}\n"));
                if !value.is_empty() {
                    out.push_str(&format!("        value: {}\n", yaml_quote(value)));
                }
                out.push_str(&format!("        effect: {effect}\n"));
            }
        }
        if node.unschedulable {
            out.push_str(&format!(
                "  # cordoned: run `kubectl cordon <node>` for {}\n",
                node.name
            ));
        }
    }
    out
}

/// One step of the session as `replay.sh` repeats it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayStep {
    /// A command that succeeded in the simulator, as the terminal echoed it (here-document
    /// included).
    Ran(String),
    /// Virtual milliseconds passed.
    Waited(u64),
}

/// Appends a step, merging consecutive waits.
pub fn push_step(steps: &mut Vec<ReplayStep>, step: ReplayStep) {
    match (steps.last_mut(), &step) {
        (Some(ReplayStep::Waited(total)), ReplayStep::Waited(ms)) => *total += ms,
        _ => steps.push(step),
    }
}

/// The session as a POSIX shell script: each succeeded `kubectl` command re-rendered from its
/// parsed words (every word shell-quoted, a here-document body behind a quoted delimiter that
/// occurs nowhere in it, so nothing is expanded); `sim` commands and waits as comments. The
/// typed text is never copied, so whatever a command line held, the script runs only `kubectl`.
pub fn kubectl_script(steps: &[ReplayStep]) -> String {
    let mut out =
        String::from("#!/bin/sh\n# Replay on a kind cluster created with kind.yaml.\nset -x\n");
    for step in steps {
        match step {
            ReplayStep::Waited(ms) => {
                out.push_str(&format!("# (time passed: {} s)\n", *ms as f64 / 1000.0));
            }
            ReplayStep::Ran(echo) => {
                for command in split_script(echo).into_iter().flatten() {
                    let line = render_command(&command);
                    let words: Vec<&str> = command.args.iter().map(String::as_str).collect();
                    // `kubectl edit` waits for an editor: a script could not go on past it. The
                    // Apply that saved the edit follows it in the session.
                    let interactive = words.get(1) == Some(&"edit");
                    if words.first() == Some(&"kubectl") && !interactive {
                        out.push_str(&line);
                    } else {
                        for text in line.lines() {
                            out.push_str(&format!("# {text}\n"));
                        }
                    }
                }
            }
        }
    }
    out
}

/// One command as shell text ending in a newline: its words quoted, then its here-document.
fn render_command(command: &ScriptCommand) -> String {
    let mut line = command
        .args
        .iter()
        .map(|w| shell_quote(w))
        .collect::<Vec<_>>()
        .join(" ");
    match &command.stdin {
        Some(body) => {
            let delimiter = here_document_delimiter(body);
            line.push_str(&format!(" <<'{delimiter}'\n{body}{delimiter}\n"));
        }
        None => line.push('\n'),
    }
    line
}

/// Both files in one text, as the Export dialog shows and downloads it.
pub fn export_text(model: &ClusterModel, steps: &[ReplayStep]) -> String {
    format!(
        "# ---- kind.yaml ----\n{}\n# ---- replay.sh ----\n{}",
        kind_config(model),
        kubectl_script(steps)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Action, State};
    use std::rc::Rc;
    use yew::Reducible;

    #[test]
    fn export_reproduces_nodes_and_comments_out_sim_lines() {
        let state = Rc::new(State::new())
            .reduce(Action::Run(
                "sim node add gpu1 --labels gpu=true --taints gpu=true:NoSchedule".into(),
            ))
            .reduce(Action::Tick(100.0));
        let text = export_text(&state.model, &state.replay);
        assert!(
            text.contains("nodes:\n- role: control-plane   # kind-control-plane\n"),
            "the control plane comes first: {text}"
        );
        assert_eq!(text.matches("- role: worker").count(), 3, "{text}");
        assert!(text.contains("    gpu: \"true\"\n"), "{text}");
        assert!(text.contains("kind: JoinConfiguration"), "{text}");
        assert!(
            text.contains(
                "      - key: gpu\n        value: \"true\"\n        effect: NoSchedule\n"
            ),
            "{text}"
        );
        assert!(
            !text.contains("kind: InitConfiguration"),
            "the default control-plane taint needs no patch"
        );
        assert!(
            text.contains("\nkubectl apply -f - <<'EOF'\napiVersion: apps/v1\n"),
            "{text}"
        );
        assert!(text.contains("\n# sim node add gpu1"), "{text}");
        assert!(text.contains("# (time passed: 0.1 s)"), "{text}");
    }

    /// Command lines that would run something besides `kubectl` if copied into a script.
    const PAYLOADS: [&str; 9] = [
        "kubectl get nodes; touch semicolon",
        "kubectl get nodes \"$(touch substitution)\"",
        "kubectl get nodes `touch backtick`",
        "kubectl get nodes && touch and",
        "kubectl get nodes | touch pipe",
        "kubectl get nodes\ntouch newline",
        "kubectl apply -f - <<EOF\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: heredoc\nEOF\ntouch after-heredoc",
        "kubectl label nodes kind-worker 'note=$(touch label)' --overwrite",
        "kubectl annotate nodes kind-worker 'note=$(touch quoted)'",
    ];

    /// A manifest whose body holds the default delimiter on a line and a substitution.
    const TRICKY_APPLY: &str = "kubectl apply -f - <<END\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: tricky\n  annotations:\n    run: \"$(touch in-body) `touch tick`\"\n    eof: |\n      EOF\nEND";

    #[test]
    fn the_script_keeps_only_succeeded_commands_re_quoted() {
        let mut state = Rc::new(State::new());
        for line in PAYLOADS.iter().chain([&TRICKY_APPLY]) {
            state = state.reduce(Action::Run(line.to_string()));
        }
        let script = kubectl_script(&state.replay);
        assert!(!script.contains("touch semicolon"), "{script}");
        assert!(!script.contains("&&"), "{script}");
        assert!(
            script.contains("\nkubectl get nodes\n"),
            "the first line of the multi-line entry succeeded: {script}"
        );
        assert!(
            script.contains("\n# touch newline\n") || !script.contains("newline"),
            "{script}"
        );
        assert!(script.contains("<<'EOF1'\n"), "{script}");
    }

    /// Runs each payload's export with a stub `kubectl` on PATH; nothing but the stub runs.
    #[cfg(unix)]
    #[test]
    fn exported_scripts_run_nothing_but_kubectl() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("dsplay-export-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (bin, work) = (dir.join("bin"), dir.join("work"));
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(&work).unwrap();
        let calls = dir.join("calls");
        let stub = bin.join("kubectl");
        std::fs::write(
            &stub,
            format!(
                "#!/bin/sh\nprintf '%s|' \"$@\" >> '{}'\ncat > /dev/null\necho >> '{}'\n",
                calls.display(),
                calls.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
        for payload in PAYLOADS.iter().chain([&TRICKY_APPLY]) {
            let state = Rc::new(State::new()).reduce(Action::Run(payload.to_string()));
            let script = kubectl_script(&state.replay);
            let status = std::process::Command::new("sh")
                .arg("-c")
                .arg(&script)
                .current_dir(&work)
                .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .expect("sh runs");
            assert!(status.success(), "{payload}\n{script}");
            let made: Vec<_> = std::fs::read_dir(&work).unwrap().flatten().collect();
            assert!(made.is_empty(), "{payload} made {made:?}:\n{script}");
        }
        let calls = std::fs::read_to_string(&calls).unwrap();
        assert!(
            calls.contains("apply|-f|-|\n"),
            "the apply reached kubectl: {calls}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
