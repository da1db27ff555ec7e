//! Node lifecycle controller: condition → taint mapping (TaintNodesByCondition + NoExecute taints),
//! cordon taint, and unreachable marking after missed heartbeats.
//! Upstream: pkg/controller/nodelifecycle/node_lifecycle_controller.go

use crate::api_server::object_reference;
use crate::cluster::{k8s_time, Cluster, Timer};
use dsplay_api::taints::{keys, taint, NO_EXECUTE, NO_SCHEDULE};
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};

/// Grace period after the last heartbeat before a node is marked unreachable (`docs/timing-model.md`;
/// kube-controller-manager `--node-monitor-grace-period`, 40 s in v1.32).
pub const NODE_MONITOR_GRACE_MS: i64 = 40_000;

/// Keys this controller owns; other taints are left alone.
const MANAGED: [&str; 7] = [
    keys::NOT_READY,
    keys::UNREACHABLE,
    keys::MEMORY_PRESSURE,
    keys::DISK_PRESSURE,
    keys::PID_PRESSURE,
    keys::NETWORK_UNAVAILABLE,
    keys::UNSCHEDULABLE,
];

/// The taints a node's conditions and `spec.unschedulable` call for, in upstream order.
pub fn desired_taints(node: &Node) -> Vec<Taint> {
    let conditions = node
        .status
        .as_ref()
        .and_then(|s| s.conditions.clone())
        .unwrap_or_default();
    let status_of = |t: &str| {
        conditions
            .iter()
            .find(|c| c.type_ == t)
            .map(|c| c.status.clone())
    };
    let mut out = Vec::new();
    match status_of("Ready").as_deref() {
        Some("False") => {
            out.push(taint(keys::NOT_READY, None, NO_SCHEDULE));
            out.push(taint(keys::NOT_READY, None, NO_EXECUTE));
        }
        Some("Unknown") => {
            out.push(taint(keys::UNREACHABLE, None, NO_SCHEDULE));
            out.push(taint(keys::UNREACHABLE, None, NO_EXECUTE));
        }
        _ => {}
    }
    for (cond, key) in [
        ("MemoryPressure", keys::MEMORY_PRESSURE),
        ("DiskPressure", keys::DISK_PRESSURE),
        ("PIDPressure", keys::PID_PRESSURE),
        ("NetworkUnavailable", keys::NETWORK_UNAVAILABLE),
    ] {
        if status_of(cond).as_deref() == Some("True") {
            out.push(taint(key, None, NO_SCHEDULE));
        }
    }
    if node
        .spec
        .as_ref()
        .and_then(|s| s.unschedulable)
        .unwrap_or(false)
    {
        out.push(taint(keys::UNSCHEDULABLE, None, NO_SCHEDULE));
    }
    out
}

/// Reconciles managed taints on every node.
pub(crate) fn sync(cluster: &mut Cluster) {
    // Compute on borrowed nodes; clone only the (rare) nodes whose taints change.
    // Desired taints depend on the node alone, so only nodes written since the last pass can change.
    let written = cluster.cursors.node_lifecycle.read_nodes(&cluster.store);
    let mut changed: Vec<(String, Vec<Taint>)> = Vec::new();
    for node in written.iter().filter_map(|name| cluster.store.node(name)) {
        let current: &[Taint] = node
            .spec
            .as_ref()
            .and_then(|s| s.taints.as_deref())
            .unwrap_or(&[]);
        let wanted = desired_taints(node);
        let same = |a: &Taint, b: &Taint| a.key == b.key && a.effect == b.effect;
        let mut next: Vec<Taint> = current
            .iter()
            .filter(|t| !MANAGED.contains(&t.key.as_str()) || wanted.iter().any(|w| same(w, t)))
            .cloned()
            .collect();
        for mut w in wanted {
            if !next.iter().any(|t| same(t, &w)) {
                if w.effect == NO_EXECUTE {
                    w.time_added = Some(k8s_time(cluster.now_ms));
                }
                next.push(w);
            }
        }
        if next.as_slice() != current {
            changed.push((node.metadata.name.clone().unwrap_or_default(), next));
        }
    }
    for (name, next) in changed {
        let Some(mut updated) = cluster.store.node(&name).cloned() else {
            continue;
        };
        updated.spec.get_or_insert_with(Default::default).taints =
            (!next.is_empty()).then_some(next);
        cluster.write(Object::Node(updated));
    }
}

/// `sim node fail`: the kubelet stops posting status; in 40 s the node is marked unreachable.
pub fn fail_node(cluster: &mut Cluster, name: &str) {
    let runtime = cluster.nodes_runtime.get_or_default(name.to_string());
    runtime.failed = true;
    runtime.epoch += 1;
    let epoch = runtime.epoch;
    crate::kubelet::freeze_node(cluster, name);
    cluster.schedule(
        NODE_MONITOR_GRACE_MS,
        Timer::NodeMonitorGrace {
            node: name.to_string(),
            epoch,
        },
    );
    cluster.reconcile();
}

/// The grace period of a failed node ended: pods not Ready, Ready=Unknown, then the taints.
pub(crate) fn on_grace_expired(cluster: &mut Cluster, name: &str, epoch: u64) {
    if cluster.nodes_runtime.get(name).map(|r| (r.failed, r.epoch)) != Some((true, epoch)) {
        return;
    }
    let pods: Vec<(String, String)> = cluster
        .store
        .pods()
        .filter(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(name))
        .map(|p| {
            (
                p.metadata.namespace.clone().unwrap_or_default(),
                p.metadata.name.clone().unwrap_or_default(),
            )
        })
        .collect();
    for (ns, pod) in pods {
        if !crate::pod_status::mark_not_ready(cluster, &ns, &pod) {
            continue;
        }
        // Upstream `MarkPodsNotReady`: the event follows the status update.
        if let Some(p) = cluster.store.pod(&ns, &pod) {
            let reference = object_reference(Kind::Pod, &p.metadata);
            cluster.record_event(
                &reference,
                "Warning",
                "NodeNotReady",
                "Node is not ready",
                "node-controller",
                None,
            );
        }
    }
    let Some(mut node) = cluster.store.node(name).cloned() else {
        return;
    };
    let now = k8s_time(cluster.now_ms);
    for c in node
        .status
        .get_or_insert_with(Default::default)
        .conditions
        .get_or_insert_with(Vec::new)
    {
        c.status = "Unknown".into();
        c.reason = Some("NodeStatusUnknown".into());
        c.message = Some("Kubelet stopped posting node status.".into());
        c.last_transition_time = Some(now.clone());
    }
    write_with_status_event(cluster, &node, "NodeNotReady", "node-controller", None);
}

/// `sim node recover`: Ready=True again, taints removed at once, the kubelet resumes.
pub fn recover_node(cluster: &mut Cluster, name: &str) {
    let runtime = cluster.nodes_runtime.get_or_default(name.to_string());
    runtime.failed = false;
    runtime.epoch += 1;
    if let Some(mut node) = cluster.store.node(name).cloned() {
        let now = k8s_time(cluster.now_ms);
        let conditions = conditions_mut(&mut node);
        for healthy in crate::default_cluster::healthy_conditions() {
            match conditions.iter_mut().find(|c| c.type_ == healthy.type_) {
                Some(c) if c.status == "Unknown" || (c.type_ == "Ready" && c.status != "True") => {
                    *c = NodeCondition {
                        last_transition_time: Some(now.clone()),
                        last_heartbeat_time: Some(now.clone()),
                        ..healthy
                    };
                }
                Some(_) => {}
                None => conditions.push(healthy),
            }
        }
        write_with_status_event(cluster, &node, "NodeReady", "kubelet", Some(name));
    }
    crate::kubelet::resume_node(cluster, name);
    cluster.reconcile();
}

/// `sim node condition NODE TYPE=STATUS`.
pub fn set_condition(cluster: &mut Cluster, name: &str, type_: &str, status: &str) -> bool {
    let Some(mut node) = cluster.store.node(name).cloned() else {
        return false;
    };
    let now = k8s_time(cluster.now_ms);
    let conditions = conditions_mut(&mut node);
    let (reason, message) = condition_text(type_, status);
    match conditions.iter_mut().find(|c| c.type_ == type_) {
        Some(c) => {
            if c.status != status {
                c.last_transition_time = Some(now);
            }
            c.status = status.to_string();
            c.reason = Some(reason);
            c.message = Some(message);
        }
        None => conditions.push(NodeCondition {
            type_: type_.into(),
            status: status.into(),
            reason: Some(reason),
            message: Some(message),
            last_transition_time: Some(now),
            last_heartbeat_time: None,
        }),
    }
    cluster.write(Object::Node(node));
    cluster.reconcile();
    true
}

fn condition_text(type_: &str, status: &str) -> (String, String) {
    match (type_, status) {
        ("Ready", "True") => ("KubeletReady".into(), "kubelet is posting ready status".into()),
        ("Ready", _) => ("KubeletNotReady".into(), "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized".into()),
        ("MemoryPressure", "True") => ("KubeletHasInsufficientMemory".into(), "kubelet has insufficient memory available".into()),
        ("MemoryPressure", _) => ("KubeletHasSufficientMemory".into(), "kubelet has sufficient memory available".into()),
        ("DiskPressure", "True") => ("KubeletHasDiskPressure".into(), "kubelet has disk pressure".into()),
        ("DiskPressure", _) => ("KubeletHasNoDiskPressure".into(), "kubelet has no disk pressure".into()),
        ("PIDPressure", "True") => ("KubeletHasInsufficientPID".into(), "kubelet has insufficient PID available".into()),
        ("PIDPressure", _) => ("KubeletHasSufficientPID".into(), "kubelet has sufficient PID available".into()),
        ("NetworkUnavailable", "True") => ("NoRouteCreated".into(), "Node created without a route".into()),
        ("NetworkUnavailable", _) => ("RouteCreated".into(), "RouteController created a route".into()),
        _ => ("Simulated".into(), format!("{type_} set to {status} by sim")),
    }
}

/// Writes the node and records `Node NAME status is now: REASON` (reason `REASON`) from `component`.
fn write_with_status_event(
    cluster: &mut Cluster,
    node: &Node,
    reason: &str,
    component: &str,
    host: Option<&str>,
) {
    cluster.write(Object::Node(node.clone()));
    let name = node.metadata.name.as_deref().unwrap_or_default();
    let reference = object_reference(Kind::Node, &node.metadata);
    cluster.record_event(
        &reference,
        "Normal",
        reason,
        &format!("Node {name} status is now: {reason}"),
        component,
        host,
    );
}

/// The node's `status.conditions`, created empty when missing.
fn conditions_mut(node: &mut Node) -> &mut Vec<NodeCondition> {
    node.status
        .get_or_insert_with(Default::default)
        .conditions
        .get_or_insert_with(Vec::new)
}
