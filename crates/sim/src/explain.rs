//! Why a DaemonSet has (or lacks) a pod on a node: the controller's verdict with every reason, from the
//! same code the controller runs, plus what the scheduler and kubelet say about the node's pods;
//! for a StatefulSet, why each ordinal is (not yet) created or updated (`stateful_set`).

mod deployment;
mod stateful_set;

pub use deployment::{diagnose_deployment_rollout, DeploymentRollout};
pub use stateful_set::{explain_stateful_set, OrdinalExplanation, StatefulSetExplanation};

use crate::cluster::Cluster;
use crate::controller::daemonset::util::{explain_placement, revision_hash_label, Placement};
use crate::error::{ApiError, ApiResult};
use crate::scheduler::{fits_reasons, Snapshot};
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
    let ds = daemon_set(store, namespace, name)?;
    let nodes: Vec<&Node> = match node {
        Some(n) => vec![store.node(n).ok_or_else(|| ApiError::NotFound {
            kind: Kind::Node,
            name: n.to_string(),
        })?],
        None => store.nodes().collect(),
    };
    let owned: Vec<&Pod> = store.pods_owned_by(&ds.metadata).collect();
    let mut out = Vec::new();
    let snapshot = LazySnapshot::new();
    for node in nodes {
        let node_name = node.metadata.name.clone().unwrap_or_default();
        let (placement, reasons) = explain_placement(node, ds);
        let mut pods = Vec::new();
        for pod in owned.iter().filter(|p| {
            crate::controller::daemonset::util::target_node_name(p) == Some(node_name.as_str())
        }) {
            pods.push(describe_pod_state(cluster, &snapshot, pod, node));
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

/// The scheduler's view of the whole cluster, built on first use by [`describe_pod_state`] (only
/// pending pods need it) and shared by the pods of one explanation.
type LazySnapshot<'a> = std::cell::OnceCell<Snapshot<'a>>;

fn describe_pod_state<'a>(
    cluster: &'a Cluster,
    snapshot: &LazySnapshot<'a>,
    pod: &Pod,
    node: &Node,
) -> String {
    let name = pod.metadata.name.clone().unwrap_or_default();
    if pod.metadata.deletion_timestamp.is_some() {
        return format!("pod {name} Terminating (waiting for its containers to exit)");
    }
    // Borrowed: the web app diagnoses every daemon pod of a rollout once a second.
    let no_status = PodStatus::default();
    let status = pod.status.as_ref().unwrap_or(&no_status);
    let phase = status.phase.as_deref().unwrap_or("Pending");
    let bound = pod
        .spec
        .as_ref()
        .and_then(|s| s.node_name.as_ref())
        .is_some();
    if !bound {
        let node_name = node.metadata.name.as_deref().unwrap_or("");
        let snapshot = snapshot.get_or_init(|| crate::scheduling::snapshot(cluster.store(), None));
        let reasons = snapshot
            .node(node_name)
            .map(|info| fits_reasons(pod, snapshot, info))
            .unwrap_or_default();
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
    let ready = dsplay_api::pod::is_pod_ready_condition_true(status);
    let restarts: i32 = status
        .container_statuses
        .iter()
        .flatten()
        .map(|c| c.restart_count)
        .sum();
    let mut text = format!("pod {name} {}", waiting.as_deref().unwrap_or(phase));
    text.push_str(if ready { ", Ready" } else { ", not Ready" });
    if restarts > 0 {
        text.push_str(&format!(", {restarts} restarts"));
    }
    let hash = revision_hash_label(&pod.metadata);
    if !hash.is_empty() {
        text.push_str(&format!(", revision {hash}"));
    }
    text
}

/// One node's part in a rollout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RolloutNode {
    /// Node name.
    pub node: String,
    /// `name (new|old, state)` for each daemon pod on the node.
    pub pods: Vec<String>,
    /// The node counts against maxUnavailable right now.
    pub unavailable: bool,
}

/// What a rollout is doing and, when it is stuck, why — with the fix a user would try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RolloutDiagnosis {
    /// `RollingUpdate` or `OnDelete`.
    pub strategy: String,
    /// Resolved maxUnavailable (after rounding up against desired).
    pub max_unavailable: i32,
    /// Resolved maxSurge.
    pub max_surge: i32,
    /// status.desiredNumberScheduled.
    pub desired: i32,
    /// status.updatedNumberScheduled.
    pub updated: i32,
    /// status.numberAvailable.
    pub available: i32,
    /// Desired nodes without an available pod (the budget in use).
    pub unavailable_in_use: i32,
    /// Per node, desired nodes and nodes with pods (those listed: see
    /// [`diagnose_rollout_listing`]).
    pub nodes: Vec<RolloutNode>,
    /// Nodes not listed: how many have their update in progress, wait on an old revision, are
    /// updated.
    pub nodes_folded: [usize; 3],
    /// Daemon pods Ready but not yet available (counting minReadySeconds down).
    pub counting_down: usize,
    /// (problem, fix) pairs; empty when the rollout is complete or progressing.
    pub problems: Vec<(String, String)>,
}

/// Diagnoses the rollout of DaemonSet `namespace/name`, listing every node.
pub fn diagnose_rollout(
    cluster: &Cluster,
    namespace: &str,
    name: &str,
) -> ApiResult<RolloutDiagnosis> {
    diagnose_rollout_listing(cluster, namespace, name, usize::MAX)
}

/// One desired node, or node with daemon pods, before the nodes to list are chosen.
struct NodeRollout<'a> {
    node: &'a Node,
    pods: Vec<&'a Pod>,
    unavailable: bool,
    /// 0: update in progress (unavailable, or a pod terminating or not yet available), 1: a pod
    /// of an old revision waits, 2: updated.
    stage: usize,
}

/// [`diagnose_rollout`] listing at most `listed` nodes: those whose update is in progress first,
/// then those still on an old revision, then updated ones, each in node order while there is
/// room; the others are counted in `nodes_folded`. Only the listed nodes' pods are described:
/// the web app's Rollout panel diagnoses a rollout of thousands of nodes once a second.
pub fn diagnose_rollout_listing(
    cluster: &Cluster,
    namespace: &str,
    name: &str,
    listed: usize,
) -> ApiResult<RolloutDiagnosis> {
    use crate::controller::daemonset::update::budgets;
    use crate::controller::daemonset::util::{
        is_pod_available, is_pod_updated, node_should_run_daemon_pod, target_node_name,
    };
    let store = cluster.store();
    let ds = daemon_set(store, namespace, name)?;
    let status = ds.status.clone().unwrap_or_default();
    let strategy = ds
        .spec
        .as_ref()
        .and_then(|s| s.update_strategy.as_ref())
        .and_then(|s| s.type_.clone())
        .unwrap_or_else(|| "RollingUpdate".into());
    let min_ready = ds
        .spec
        .as_ref()
        .and_then(|s| s.min_ready_seconds)
        .unwrap_or(0);
    let desired = status.desired_number_scheduled;
    let (max_unavailable, max_surge) = if strategy == "OnDelete" {
        (0, 0)
    } else {
        budgets(ds, desired)
    };
    let hash = crate::controller::daemonset::history::current_hash(cluster, ds).unwrap_or_default();
    let generation = crate::controller::daemonset::template_generation(ds);
    let now = cluster.now_ms();
    let is_new = |pod: &Pod| is_pod_updated(pod, &hash, generation.as_deref());
    let mut nodes = Vec::new();
    let mut problems: Vec<(String, String)> = Vec::new();
    let mut unavailable_in_use = 0;
    let mut counting_down = 0;
    let mut add_problem = |p: String, f: String| {
        if !problems.iter().any(|(q, _)| *q == p) {
            problems.push((p, f));
        }
    };
    // The DaemonSet's pods by target node, grouped once (the UI diagnoses on every refresh),
    // hashed: node names share long prefixes, and a B-tree compared ~12 of them per pod.
    let mut pods_by_node: crate::lookup_map::LookupMap<&str, Vec<&Pod>> = Default::default();
    for pod in store.pods_owned_by(&ds.metadata) {
        if let Some(node) = target_node_name(pod) {
            pods_by_node.get_or_default(node).push(pod);
        }
    }
    for node in store.nodes() {
        let node_name = node.metadata.name.as_deref().unwrap_or_default();
        let placement = node_should_run_daemon_pod(node, ds);
        let pods: Vec<&Pod> = pods_by_node.remove(node_name).unwrap_or_default();
        if !placement.should_run && pods.is_empty() {
            continue;
        }
        let mut any_available = false;
        let mut stage = 2;
        for pod in &pods {
            let available = is_pod_available(pod, min_ready, now);
            let terminating = pod.metadata.deletion_timestamp.is_some();
            any_available |= available && !terminating;
            let new = is_new(pod);
            stage = stage.min(if terminating || !available {
                0
            } else if !new {
                1
            } else {
                2
            });
            if !available && crate::controller::daemonset::util::ready_since_ms(pod).is_some() {
                counting_down += 1;
            }
            rollout_pod_problems(cluster, pod, new, name, node_name, now, &mut add_problem);
        }
        let node_ready = node
            .status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .and_then(|c| c.iter().find(|c| c.type_ == "Ready"))
            .is_some_and(|c| c.status == "True");
        let unavailable = placement.should_run && !any_available;
        if unavailable {
            unavailable_in_use += 1;
            stage = 0;
            if !node_ready {
                add_problem(format!("node {node_name} is NotReady and holds the unavailable budget"), format!("sim node recover {node_name}, or remove the node: kubectl delete node {node_name}"));
            }
        }
        nodes.push(NodeRollout {
            node,
            pods,
            unavailable,
            stage,
        });
    }
    let mut nodes_folded = [0; 3];
    if nodes.len() > listed {
        // Stable: node order within a stage.
        let mut order: Vec<usize> = (0..nodes.len()).collect();
        order.sort_by_key(|&i| nodes[i].stage);
        let mut keep = vec![false; nodes.len()];
        for &i in &order[..listed] {
            keep[i] = true;
        }
        for &i in &order[listed..] {
            nodes_folded[nodes[i].stage] += 1;
        }
        let mut kept = keep.into_iter();
        nodes.retain(|_| kept.next() == Some(true));
    }
    let snapshot = LazySnapshot::new();
    let nodes = nodes
        .into_iter()
        .map(|n| RolloutNode {
            node: n.node.metadata.name.clone().unwrap_or_default(),
            pods: n
                .pods
                .iter()
                .map(|pod| {
                    let mut state = describe_pod_state(cluster, &snapshot, pod, n.node);
                    if let Some(since) = crate::controller::daemonset::util::ready_since_ms(pod) {
                        if !is_pod_available(pod, min_ready, now) && min_ready > 0 {
                            let left = available_in_secs(since, min_ready, now);
                            state.push_str(&format!(
                                ", available in {left}s (minReadySeconds {min_ready})"
                            ));
                        }
                    }
                    format!("{} ({})", state, if is_new(pod) { "new" } else { "old" })
                })
                .collect(),
            unavailable: n.unavailable,
        })
        .collect();
    let updated = status.updated_number_scheduled.unwrap_or(0);
    if strategy == "OnDelete" && updated < desired {
        add_problem(
            format!("OnDelete: {} pods run an old template", desired - updated),
            "delete them to replace them: kubectl delete pod NAME (or switch to RollingUpdate)"
                .to_string(),
        );
    }
    if updated >= desired && status.number_available.unwrap_or(0) >= desired {
        problems.clear();
    }
    Ok(RolloutDiagnosis {
        strategy,
        max_unavailable,
        max_surge,
        desired,
        updated,
        available: status.number_available.unwrap_or(0),
        unavailable_in_use,
        nodes,
        nodes_folded,
        counting_down,
        problems,
    })
}

/// Whole seconds until a pod Ready since `ready_since_ms` becomes available (Ready for more than
/// `min_ready_seconds`): `sim rollout`'s "available in Ns" and the Rollout panel's countdown.
pub fn available_in_secs(ready_since_ms: i64, min_ready_seconds: i32, now_ms: i64) -> i64 {
    ((ready_since_ms + i64::from(min_ready_seconds) * 1000 - now_ms) / 1000 + 1).max(1)
}

/// What one daemon pod says is wrong with a rollout (pulls failing, crash loops, new pods not
/// Ready, a pod that cannot be scheduled or is stuck Terminating), each with its fix.
fn rollout_pod_problems(
    cluster: &Cluster,
    pod: &Pod,
    new: bool,
    name: &str,
    node_name: &str,
    now: i64,
    add_problem: &mut dyn FnMut(String, String),
) {
    let waiting = pod
        .status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .and_then(|cs| {
            cs.iter().find_map(|c| {
                c.state
                    .as_ref()
                    .and_then(|s| s.waiting.as_ref())
                    .and_then(|w| w.reason.as_deref())
            })
        });
    let image = || {
        pod.spec
            .as_ref()
            .and_then(|s| s.containers.first())
            .and_then(|c| c.image.clone())
            .unwrap_or_default()
    };
    let pod_name = pod.metadata.name.as_deref().unwrap_or_default();
    match waiting {
        Some("ErrImagePull" | "ImagePullBackOff") => add_problem(format!("image pull failing for {}", image()), format!("fix the image name/tag (kubectl set image ds/{name} …) or roll back: kubectl rollout undo ds/{name}")),
        Some("CrashLoopBackOff") => add_problem(format!("new pods crash looping ({})", image()), format!("check the container command and logs, then kubectl rollout undo ds/{name}")),
        _ => {}
    }
    if new
        && pod.metadata.deletion_timestamp.is_none()
        && !dsplay_api::pod::is_pod_ready(pod)
        && pod
            .spec
            .as_ref()
            .and_then(|s| s.node_name.as_ref())
            .is_some()
        && waiting.is_none()
        && crate::controller::daemonset::util::phase(pod) == "Running"
        && !crate::kubelet::running_not_settled(
            cluster,
            pod.metadata.uid.as_deref().unwrap_or_default(),
        )
    {
        add_problem("new pods not ready".to_string(), format!("check the readiness probe and image of the new template, or kubectl rollout undo ds/{name}"));
    }
    if crate::controller::daemonset::util::is_unscheduled_and_live(pod) {
        add_problem(format!("pod {pod_name} cannot be scheduled"), format!("sim explain ds/{name} {node_name} shows why (resources, ports); free the node or lower the requests"));
    }
    if let Some(deadline) = pod.metadata.deletion_timestamp.as_ref() {
        if deadline.0.timestamp_millis() < now {
            add_problem(format!("pod {pod_name} stuck Terminating"), format!("its node may be down (sim node recover {node_name}) or force it: kubectl delete pod {pod_name} --grace-period=0 --force"));
        }
    }
}

/// The DaemonSet `namespace/name`, or NotFound as the API server words it.
fn daemon_set<'a>(
    store: &'a crate::store::Store,
    namespace: &str,
    name: &str,
) -> ApiResult<&'a DaemonSet> {
    store
        .daemon_set(namespace, name)
        .ok_or_else(|| ApiError::NotFound {
            kind: Kind::DaemonSet,
            name: name.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::available_in_secs;

    #[test]
    fn the_countdown_reaches_one_second_not_zero() {
        assert_eq!(available_in_secs(0, 10, 3_000), 8);
        assert_eq!(available_in_secs(0, 10, 9_999), 1);
        assert_eq!(available_in_secs(0, 10, 10_000), 1);
    }
}
