//! Why a DaemonSet has (or lacks) a pod on a node: the controller's verdict with every reason, from the
//! same code the controller runs, plus what the scheduler and kubelet say about the node's pods.

use crate::cluster::Cluster;
use crate::controller::daemonset::util::{explain_placement, Placement};
use crate::error::{ApiError, ApiResult};
use crate::scheduler::{fits_reasons, NodeInfo};
use dsplay_api::types::*;
use dsplay_api::Kind;

/// The explanation for one (DaemonSet, node) pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeExplanation {
    /// Node name.
    pub node: String,
    /// The controller's verdict.
    pub placement: Placement,
    /// One line per placement rule that applied (selector, affinity, each taint).
    pub reasons: Vec<String>,
    /// One line per daemon pod on the node: its state and, when stuck, why.
    pub pods: Vec<String>,
}

/// Explains `ds` on every node (or only `node`).
pub fn explain(
    cluster: &Cluster,
    namespace: &str,
    name: &str,
    node: Option<&str>,
) -> ApiResult<Vec<NodeExplanation>> {
    let store = cluster.store();
    let ds = store
        .daemon_set(namespace, name)
        .ok_or_else(|| ApiError::NotFound {
            kind: Kind::DaemonSet,
            name: name.to_string(),
        })?;
    let nodes: Vec<&Node> = match node {
        Some(n) => vec![store.node(n).ok_or_else(|| ApiError::NotFound {
            kind: Kind::Node,
            name: n.to_string(),
        })?],
        None => store.nodes().collect(),
    };
    let uid = ds.metadata.uid.clone().unwrap_or_default();
    let owned: Vec<&Pod> = store
        .pods()
        .filter(|p| {
            p.metadata
                .owner_references
                .iter()
                .flatten()
                .any(|r| r.uid == uid)
        })
        .collect();
    let mut out = Vec::new();
    for node in nodes {
        let node_name = node.metadata.name.clone().unwrap_or_default();
        let (placement, reasons) = explain_placement(node, ds);
        let mut pods = Vec::new();
        for pod in owned.iter().filter(|p| {
            crate::controller::daemonset::util::target_node_name(p).as_deref()
                == Some(node_name.as_str())
        }) {
            pods.push(describe_pod_state(cluster, pod, node));
        }
        out.push(NodeExplanation {
            node: node_name,
            placement,
            reasons,
            pods,
        });
    }
    Ok(out)
}

fn describe_pod_state(cluster: &Cluster, pod: &Pod, node: &Node) -> String {
    let name = pod.metadata.name.clone().unwrap_or_default();
    if pod.metadata.deletion_timestamp.is_some() {
        return format!("pod {name} Terminating (waiting for its containers to exit)");
    }
    let status = pod.status.clone().unwrap_or_default();
    let phase = status.phase.clone().unwrap_or_else(|| "Pending".into());
    let bound = pod
        .spec
        .as_ref()
        .and_then(|s| s.node_name.as_ref())
        .is_some();
    if !bound {
        let node_name = node.metadata.name.clone().unwrap_or_default();
        let on_node: Vec<&Pod> = cluster
            .store()
            .pods()
            .filter(|p| {
                p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(node_name.as_str())
            })
            .filter(|p| {
                !matches!(
                    p.status.as_ref().and_then(|s| s.phase.as_deref()),
                    Some("Succeeded" | "Failed")
                )
            })
            .collect();
        let reasons = fits_reasons(pod, &NodeInfo::new(node, on_node));
        let why = if reasons.is_empty() {
            "waiting for the scheduler".to_string()
        } else {
            reasons.join(", ")
        };
        return format!("pod {name} Pending: {why}");
    }
    let waiting = status.container_statuses.iter().flatten().find_map(|c| {
        c.state
            .as_ref()
            .and_then(|s| s.waiting.as_ref())
            .and_then(|w| w.reason.clone())
    });
    let ready = status
        .conditions
        .iter()
        .flatten()
        .any(|c| c.type_ == "Ready" && c.status == "True");
    let restarts: i32 = status
        .container_statuses
        .iter()
        .flatten()
        .map(|c| c.restart_count)
        .sum();
    let mut text = format!("pod {name} {}", waiting.unwrap_or(phase));
    text.push_str(if ready { ", Ready" } else { ", not Ready" });
    if restarts > 0 {
        text.push_str(&format!(", {restarts} restarts"));
    }
    let hash = pod
        .metadata
        .labels
        .as_ref()
        .and_then(|l| l.get("controller-revision-hash"))
        .cloned()
        .unwrap_or_default();
    if !hash.is_empty() {
        text.push_str(&format!(", revision {hash}"));
    }
    text
}
