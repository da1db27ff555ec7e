//! The DaemonSet controller: one sync per DaemonSet, in the order of upstream `syncDaemonSet`.
//! Upstream: pkg/controller/daemon/daemon_controller.go

pub mod history;
pub mod update;
pub mod util;

use crate::api_server::{object_reference, DeleteOptions};
use crate::cluster::{Cluster, Timer};
use crate::store::key_of;
use dsplay_api::types::*;
use dsplay_api::{selector, Kind, Object};
use std::collections::BTreeMap;
use util::*;

/// At most this many creates, and separately deletes, per sync (`BurstReplicas`).
pub const BURST_REPLICAS: usize = 250;
/// Event source component.
pub const COMPONENT: &str = "daemonset-controller";
const FAILED_POD_BACKOFF_INITIAL_MS: i64 = 1000;
const FAILED_POD_BACKOFF_MAX_MS: i64 = 15 * 60 * 1000;

/// Daemon pods grouped by target node (`getNodesToDaemonPods`).
pub type NodeToPods = BTreeMap<String, Vec<Pod>>;

/// Syncs every DaemonSet, in namespace/name order.
///
/// A DaemonSet is skipped when nothing it depends on was written since its last sync started (like
/// upstream's work queue, where only DS/pod/node/revision events enqueue it): any node, a pod or
/// ControllerRevision in its namespace, or the DaemonSet itself. Time-dependent decisions
/// (minReadySeconds, failed-pod back-off) arm a `ResyncDaemonSets` timer, which forces a full pass.
/// A sync is a pure function of that state and the clock, so skipping it changes nothing.
pub(crate) fn sync_all(cluster: &mut Cluster) {
    let force = std::mem::take(&mut cluster.resync_daemon_sets);
    let keys: Vec<(String, String)> = cluster.store.daemon_sets.keys().cloned().collect();
    for (ns, name) in keys {
        let uid = cluster
            .store
            .daemon_set(&ns, &name)
            .and_then(|d| d.metadata.uid.clone())
            .unwrap_or_default();
        let log_len = cluster.store.watch_log().len();
        if !force {
            if let Some(&since) = cluster.ds_synced_at.get(&uid) {
                let changed =
                    cluster.store.watch_log()[since.min(log_len)..]
                        .iter()
                        .any(|e| match e.kind {
                            Kind::Node => true,
                            Kind::Pod | Kind::ControllerRevision => e.namespace == ns,
                            Kind::DaemonSet => e.namespace == ns && e.name == name,
                            _ => false,
                        });
                if !changed {
                    continue;
                }
            }
        }
        cluster.ds_synced_at.insert(uid, log_len);
        sync_daemon_set(cluster, &ns, &name);
    }
}

/// `syncDaemonSet`. Creates/deletes are observed at once (SPEC-upstream §1.7 simplification), so the
/// update strategy runs in the same sync as manage.
pub(crate) fn sync_daemon_set(cluster: &mut Cluster, ns: &str, name: &str) {
    let Some(ds) = cluster.store.daemon_set(ns, name).cloned() else {
        return;
    };
    let Some(spec) = ds.spec.clone() else { return };
    if spec.selector == LabelSelector::default() {
        let reference = object_reference(Kind::DaemonSet, &ds.metadata);
        cluster.record_event(
            &reference,
            "Warning",
            "SelectingAll",
            "This daemon set is selecting all pods. A non-empty selector is required.",
            COMPONENT,
            None,
        );
        return;
    }
    if ds.metadata.deletion_timestamp.is_some() {
        return;
    }
    let Some((ds, hash)) = history::construct_history(cluster, &ds) else {
        return;
    };
    // Placement only reads a node's name, labels and taints (SPEC-upstream §1.4), so the controller
    // works on slim copies instead of cloning every node's status on every pass.
    let nodes: Vec<Node> = cluster
        .store
        .nodes()
        .map(|n| Node {
            metadata: ObjectMeta {
                name: n.metadata.name.clone(),
                labels: n.metadata.labels.clone(),
                ..Default::default()
            },
            spec: Some(NodeSpec {
                taints: n.spec.as_ref().and_then(|s| s.taints.clone()),
                ..Default::default()
            }),
            status: None,
        })
        .collect();
    let mut node_to_pods = get_nodes_to_daemon_pods(cluster, &ds);
    // Re-read the pods only when a step wrote something (the store's resourceVersion moved).
    let mut seen = cluster.store.resource_version();
    manage(cluster, &ds, &nodes, &node_to_pods, &hash);
    if cluster.store.resource_version() != seen {
        node_to_pods = get_nodes_to_daemon_pods(cluster, &ds);
        seen = cluster.store.resource_version();
    }
    if spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.type_.as_deref())
        != Some("OnDelete")
    {
        update::rolling_update(cluster, &ds, &nodes, &node_to_pods, &hash);
    }
    history::cleanup_history(cluster, &ds);
    if cluster.store.resource_version() != seen {
        node_to_pods = get_nodes_to_daemon_pods(cluster, &ds);
    }
    update_status(cluster, &ds, &nodes, &node_to_pods, &hash);
}

/// The DaemonSet's pods by target node, after adopting matching orphans and releasing pods whose
/// labels no longer match. Terminal pods that are being deleted are left out (v1.30+).
pub(crate) fn get_nodes_to_daemon_pods(cluster: &mut Cluster, ds: &DaemonSet) -> NodeToPods {
    let ns = ds.metadata.namespace.clone().unwrap_or_default();
    let uid = ds.metadata.uid.clone().unwrap_or_default();
    let sel = selector::from_label_selector(ds.spec.as_ref().map(|s| &s.selector)).unwrap_or(
        selector::Selector {
            requirements: vec![],
            nothing: true,
        },
    );
    let pods: Vec<Pod> = cluster
        .store
        .pods()
        .filter(|p| p.metadata.namespace.as_deref() == Some(ns.as_str()))
        .cloned()
        .collect();
    let mut out = NodeToPods::new();
    for mut pod in pods {
        let labels = pod.metadata.labels.clone().unwrap_or_default();
        let controller = pod
            .metadata
            .owner_references
            .iter()
            .flatten()
            .find(|r| r.controller == Some(true))
            .cloned();
        match controller {
            Some(r) if r.uid == uid => {
                if !sel.matches(&labels) {
                    // Release.
                    let refs: Vec<OwnerReference> = pod
                        .metadata
                        .owner_references
                        .take()
                        .unwrap_or_default()
                        .into_iter()
                        .filter(|r| r.uid != uid)
                        .collect();
                    pod.metadata.owner_references = (!refs.is_empty()).then_some(refs);
                    cluster.write(Object::Pod(pod));
                    continue;
                }
            }
            Some(_) => continue,
            None => {
                if !sel.matches(&labels) || pod.metadata.deletion_timestamp.is_some() {
                    continue;
                }
                // Adopt.
                pod.metadata
                    .owner_references
                    .get_or_insert_with(Vec::new)
                    .push(OwnerReference {
                        api_version: "apps/v1".into(),
                        kind: "DaemonSet".into(),
                        name: ds.metadata.name.clone().unwrap_or_default(),
                        uid: uid.clone(),
                        controller: Some(true),
                        block_owner_deletion: Some(true),
                    });
                cluster.write(Object::Pod(pod.clone()));
            }
        }
        let terminal = matches!(phase(&pod), "Succeeded" | "Failed");
        if terminal && pod.metadata.deletion_timestamp.is_some() {
            continue;
        }
        if let Some(node) = target_node_name(&pod) {
            out.entry(node).or_default().push(pod);
        }
    }
    out
}

fn surge_enabled(ds: &DaemonSet) -> bool {
    update::max_surge(ds, 1) > 0
}

/// `manage`: decide per node (`podsShouldBeOnNode`), then act (`syncNodes`).
fn manage(
    cluster: &mut Cluster,
    ds: &DaemonSet,
    nodes: &[Node],
    node_to_pods: &NodeToPods,
    hash: &str,
) {
    let mut nodes_needing_pods = Vec::new();
    let mut pods_to_delete: Vec<Pod> = Vec::new();
    for node in nodes {
        let (create, delete) = pods_should_be_on_node(cluster, node, node_to_pods, ds, hash);
        if create {
            nodes_needing_pods.push(node.metadata.name.clone().unwrap_or_default());
        }
        pods_to_delete.extend(delete);
    }
    // Unscheduled pods whose target node no longer exists.
    for (node_name, pods) in node_to_pods {
        if nodes
            .iter()
            .any(|n| n.metadata.name.as_deref() == Some(node_name.as_str()))
        {
            continue;
        }
        for pod in pods {
            if pod
                .spec
                .as_ref()
                .and_then(|s| s.node_name.as_ref())
                .is_none()
                && pod.metadata.deletion_timestamp.is_none()
            {
                pods_to_delete.push(pod.clone());
            }
        }
    }
    sync_nodes(cluster, ds, &pods_to_delete, &nodes_needing_pods, hash);
}

/// `podsShouldBeOnNode`: (create a pod here?, pods to delete here).
fn pods_should_be_on_node(
    cluster: &mut Cluster,
    node: &Node,
    node_to_pods: &NodeToPods,
    ds: &DaemonSet,
    hash: &str,
) -> (bool, Vec<Pod>) {
    let placement = node_should_run_daemon_pod(node, ds);
    let node_name = node.metadata.name.clone().unwrap_or_default();
    let pods = node_to_pods.get(&node_name);
    let mut delete = Vec::new();
    match pods {
        None => (placement.should_run, delete),
        Some(pods) if placement.should_continue_running => {
            let mut running: Vec<Pod> = Vec::new();
            for pod in pods {
                if pod.metadata.deletion_timestamp.is_some() {
                    continue;
                }
                match phase(pod) {
                    "Failed" => {
                        let key = format!(
                            "{}/{}/{}",
                            ds.metadata.uid.clone().unwrap_or_default(),
                            ds.status
                                .as_ref()
                                .and_then(|s| s.observed_generation)
                                .unwrap_or(0),
                            node_name
                        );
                        let now = cluster.now_ms;
                        let entry = cluster.failed_pod_backoff.get(&key).copied();
                        if let Some((delay, not_before)) = entry {
                            if now < not_before {
                                cluster.schedule_at_once(not_before, Timer::ResyncDaemonSets);
                                continue;
                            }
                            let next = (delay * 2).min(FAILED_POD_BACKOFF_MAX_MS);
                            cluster.failed_pod_backoff.insert(key, (next, now + next));
                        } else {
                            cluster.failed_pod_backoff.insert(
                                key,
                                (
                                    FAILED_POD_BACKOFF_INITIAL_MS,
                                    now + FAILED_POD_BACKOFF_INITIAL_MS,
                                ),
                            );
                        }
                        let msg = format!(
                            "Found failed daemon pod {}/{} on node {}, will try to kill it",
                            pod.metadata.namespace.clone().unwrap_or_default(),
                            pod.metadata.name.clone().unwrap_or_default(),
                            node_name
                        );
                        cluster.record_event(
                            &object_reference(Kind::DaemonSet, &ds.metadata),
                            "Warning",
                            "FailedDaemonPod",
                            &msg,
                            COMPONENT,
                            None,
                        );
                        delete.push(pod.clone());
                    }
                    "Succeeded" => {
                        let msg = format!(
                            "Found succeeded daemon pod {}/{} on node {}, will try to delete it",
                            pod.metadata.namespace.clone().unwrap_or_default(),
                            pod.metadata.name.clone().unwrap_or_default(),
                            node_name
                        );
                        cluster.record_event(
                            &object_reference(Kind::DaemonSet, &ds.metadata),
                            "Normal",
                            "SucceededDaemonPod",
                            &msg,
                            COMPONENT,
                            None,
                        );
                        delete.push(pod.clone());
                    }
                    _ => running.push(pod.clone()),
                }
            }
            let mut create = false;
            if !surge_enabled(ds) {
                if running.len() > 1 {
                    running.sort_by(oldest_first);
                    delete.extend(running.into_iter().skip(1));
                }
                (false, delete)
            } else {
                if running.is_empty() && placement.should_run {
                    create = true;
                } else if running.len() > 1 {
                    running.sort_by(oldest_first);
                    let template_generation = template_generation(ds);
                    let (mut new_pods, mut old_pods): (Vec<Pod>, Vec<Pod>) = running
                        .into_iter()
                        .partition(|p| is_pod_updated(p, hash, template_generation.as_deref()));
                    let oldest_new = (!new_pods.is_empty()).then(|| new_pods.remove(0));
                    let oldest_old = (!old_pods.is_empty()).then(|| old_pods.remove(0));
                    delete.extend(new_pods);
                    delete.extend(old_pods);
                    if let (Some(new), Some(old)) = (&oldest_new, &oldest_old) {
                        let min_ready = ds
                            .spec
                            .as_ref()
                            .and_then(|s| s.min_ready_seconds)
                            .unwrap_or(0);
                        if !is_pod_ready(old) || is_pod_available(new, min_ready, cluster.now_ms) {
                            delete.push(old.clone());
                        }
                    }
                }
                (create, delete)
            }
        }
        Some(pods) => {
            delete.extend(
                pods.iter()
                    .filter(|p| p.metadata.deletion_timestamp.is_none())
                    .cloned(),
            );
            (false, delete)
        }
    }
}

/// The DaemonSet's template generation (from the annotation the API server keeps).
pub(crate) fn template_generation(ds: &DaemonSet) -> Option<String> {
    ds.metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(crate::api_server::TEMPLATE_GENERATION_ANNOTATION))
        .cloned()
}

/// `syncNodes`: delete and create (capped at `BURST_REPLICAS` each), with events.
pub(crate) fn sync_nodes(
    cluster: &mut Cluster,
    ds: &DaemonSet,
    pods_to_delete: &[Pod],
    nodes_needing_pods: &[String],
    hash: &str,
) {
    let reference = object_reference(Kind::DaemonSet, &ds.metadata);
    let template_generation = template_generation(ds);
    for node in nodes_needing_pods.iter().take(BURST_REPLICAS) {
        let pod = new_daemon_pod(ds, node, hash, template_generation.as_deref());
        match cluster.create_internal(Object::Pod(pod)) {
            Ok(name) => cluster.record_event(
                &reference,
                "Normal",
                "SuccessfulCreate",
                &format!("Created pod: {name}"),
                COMPONENT,
                None,
            ),
            Err(err) => cluster.record_event(
                &reference,
                "Warning",
                "FailedCreate",
                &format!("Error creating: {err}"),
                COMPONENT,
                None,
            ),
        }
    }
    for pod in pods_to_delete.iter().take(BURST_REPLICAS) {
        let (ns, name) = key_of(&pod.metadata);
        let Some(current) = cluster.store.pod(&ns, &name).cloned() else {
            continue;
        };
        if current.metadata.deletion_timestamp.is_some() {
            continue;
        }
        cluster.delete_pod(&current, DeleteOptions::default().grace_period_seconds);
        cluster.record_event(
            &reference,
            "Normal",
            "SuccessfulDelete",
            &format!("Deleted pod: {name}"),
            COMPONENT,
            None,
        );
    }
}

/// `updateDaemonSetStatus`: the counters of SPEC-upstream §3, written only when they change.
fn update_status(
    cluster: &mut Cluster,
    ds: &DaemonSet,
    nodes: &[Node],
    node_to_pods: &NodeToPods,
    hash: &str,
) {
    let min_ready = ds
        .spec
        .as_ref()
        .and_then(|s| s.min_ready_seconds)
        .unwrap_or(0);
    let template_generation = template_generation(ds);
    let now = cluster.now_ms;
    let (mut desired, mut current, mut misscheduled, mut ready, mut available, mut updated) =
        (0, 0, 0, 0, 0, 0);
    let mut next_available_check: Option<i64> = None;
    for node in nodes {
        let placement = node_should_run_daemon_pod(node, ds);
        let node_name = node.metadata.name.clone().unwrap_or_default();
        let pods = node_to_pods.get(&node_name).filter(|p| !p.is_empty());
        if placement.should_run {
            desired += 1;
            if let Some(pods) = pods {
                current += 1;
                let oldest = pods
                    .iter()
                    .min_by(|a, b| oldest_first(a, b))
                    .expect("non-empty");
                if is_pod_ready(oldest) {
                    ready += 1;
                    if is_pod_available(oldest, min_ready, now) {
                        available += 1;
                    } else if let Some(since) = ready_since_ms(oldest) {
                        let due = since + i64::from(min_ready) * 1000 + 1000;
                        next_available_check =
                            Some(next_available_check.map_or(due, |d: i64| d.min(due)));
                    }
                }
                if is_pod_updated(oldest, hash, template_generation.as_deref()) {
                    updated += 1;
                }
            }
        } else if pods.is_some() {
            misscheduled += 1;
        }
    }
    if let Some(due) = next_available_check {
        cluster.schedule_at_once(due, Timer::ResyncDaemonSets);
    }
    let Some(stored) = cluster
        .store
        .daemon_set(
            ds.metadata.namespace.as_deref().unwrap_or(""),
            ds.metadata.name.as_deref().unwrap_or(""),
        )
        .cloned()
    else {
        return;
    };
    let old = stored.status.clone().unwrap_or_default();
    let status = DaemonSetStatus {
        desired_number_scheduled: desired,
        current_number_scheduled: current,
        number_misscheduled: misscheduled,
        number_ready: ready,
        number_available: (available > 0).then_some(available),
        updated_number_scheduled: (updated > 0).then_some(updated),
        number_unavailable: (desired - available > 0).then_some(desired - available),
        observed_generation: stored.metadata.generation,
        collision_count: old.collision_count,
        conditions: old.conditions.clone(),
    };
    if status != old {
        let mut next = stored;
        next.status = Some(status);
        cluster.write(Object::DaemonSet(next));
    }
}
