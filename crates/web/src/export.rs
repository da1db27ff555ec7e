//! "Export to a real cluster": a `kind` cluster config reproducing the node set (roles, labels,
//! taints through kubeadm config patches) and the session's commands as a kubectl script (the
//! manifests travel in its here-documents; `sim` lines become comments).

use crate::model::ClusterModel;
use crate::persist::parse_advance_entry;

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

/// The log as a kubectl script: kubectl commands as they are, `sim` commands and clock advances
/// as comments.
pub fn kubectl_script(log: &[String]) -> String {
    let mut out =
        String::from("#!/bin/sh\n# Replay on a kind cluster created with kind.yaml.\nset -x\n");
    for entry in log {
        if let Some(ms) = parse_advance_entry(entry) {
            out.push_str(&format!("# (time passed: {} s)\n", ms as f64 / 1000.0));
        } else if entry.trim_start().starts_with("kubectl") {
            out.push_str(entry.trim_end());
            out.push('\n');
        } else {
            for line in entry.lines() {
                out.push_str(&format!("# {line}\n"));
            }
        }
    }
    out
}

/// Both files in one text, as the Export dialog shows and downloads it.
pub fn export_text(model: &ClusterModel, log: &[String]) -> String {
    format!(
        "# ---- kind.yaml ----\n{}\n# ---- replay.sh ----\n{}",
        kind_config(model),
        kubectl_script(log)
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
        let text = export_text(&state.model, &state.log);
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
            text.contains("\nkubectl apply -f - <<EOF\napiVersion: apps/v1\n"),
            "{text}"
        );
        assert!(text.contains("\n# sim node add gpu1"), "{text}");
        assert!(text.contains("# (time passed: 0.1 s)"), "{text}");
    }
}
