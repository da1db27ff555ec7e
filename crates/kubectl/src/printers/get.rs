//! `kubectl get` table rows per kind, as the API server's table convertor builds them
//! (`pkg/printers/internalversion/printers.go`), plus `rollout history`'s table.

use super::age::{age_since, restarts_cell};
use super::table::{format_labels, Column, Row, Table};
use super::tabwriter::TabWriter;
use chrono::{DateTime, Utc};
use dsplay_api::selector::format_label_selector;
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use k8s_openapi::api::core::v1::Container as CoreContainer;
use std::collections::BTreeMap;

fn row(meta: &ObjectMeta, cells: Vec<String>) -> Row {
    Row {
        namespace: meta.namespace.clone().unwrap_or_default(),
        cells,
        labels: meta.labels.clone().unwrap_or_default(),
    }
}

fn created(meta: &ObjectMeta) -> Option<&DateTime<Utc>> {
    meta.creation_timestamp.as_ref().map(|t| &t.0)
}

fn name(meta: &ObjectMeta) -> String {
    meta.name.clone().unwrap_or_default()
}

/// `layoutContainerCells`: container names and images, each joined with `,`.
#[doc(alias = "layoutContainerCells")]
pub fn layout_container_cells(containers: &[CoreContainer]) -> (String, String) {
    let names: Vec<&str> = containers.iter().map(|c| c.name.as_str()).collect();
    let images: Vec<&str> = containers
        .iter()
        .map(|c| c.image.as_deref().unwrap_or(""))
        .collect();
    (names.join(","), images.join(","))
}

/// `kubectl get ds`: NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE
/// (+ wide CONTAINERS IMAGES SELECTOR).
pub fn daemon_set_table(items: &[&DaemonSet], now: DateTime<Utc>) -> Table {
    let columns = vec![
        Column::new("Name"),
        Column::new("Desired"),
        Column::new("Current"),
        Column::new("Ready"),
        Column::new("Up-to-date"),
        Column::new("Available"),
        Column::new("Node Selector"),
        Column::new("Age"),
        Column::wide("Containers"),
        Column::wide("Images"),
        Column::wide("Selector"),
    ];
    let rows = items
        .iter()
        .map(|ds| {
            let status = ds.status.clone().unwrap_or_default();
            let spec = ds.spec.as_ref();
            let pod_spec = spec.and_then(|s| s.template.spec.as_ref());
            let node_selector = pod_spec
                .and_then(|p| p.node_selector.clone())
                .unwrap_or_default();
            let (names, images) =
                layout_container_cells(pod_spec.map(|p| p.containers.as_slice()).unwrap_or(&[]));
            row(
                &ds.metadata,
                vec![
                    name(&ds.metadata),
                    status.desired_number_scheduled.to_string(),
                    status.current_number_scheduled.to_string(),
                    status.number_ready.to_string(),
                    status.updated_number_scheduled.unwrap_or(0).to_string(),
                    status.number_available.unwrap_or(0).to_string(),
                    format_labels(&node_selector),
                    age_since(created(&ds.metadata), now),
                    names,
                    images,
                    format_label_selector(spec.map(|s| &s.selector)),
                ],
            )
        })
        .collect();
    Table { columns, rows }
}

fn is_restartable_init_container(c: Option<&CoreContainer>) -> bool {
    c.is_some_and(|c| c.restart_policy.as_deref() == Some("Always"))
}

fn condition_true(pod: &Pod, kind: &str) -> bool {
    pod.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|cs| cs.iter().any(|c| c.type_ == kind && c.status == "True"))
}

/// The READY, STATUS and RESTARTS cells of a pod (`printPod`).
pub fn pod_ready_status_restarts(pod: &Pod, now: DateTime<Utc>) -> (String, String, String) {
    // Borrowed, not cloned: the web view model reads every pod's STATUS on each refresh.
    let (no_spec, no_status) = (PodSpec::default(), PodStatus::default());
    let spec = pod.spec.as_ref().unwrap_or(&no_spec);
    let status = pod.status.as_ref().unwrap_or(&no_status);
    let no_state = k8s_openapi::api::core::v1::ContainerState::default();
    let mut restarts: i64 = 0;
    let mut restartable_init_restarts: i64 = 0;
    let mut total = spec.containers.len();
    let mut ready = 0;
    let mut last_restart: Option<DateTime<Utc>> = None;
    let mut last_restartable_init_restart: Option<DateTime<Utc>> = None;
    let phase = status.phase.clone().unwrap_or_default();
    let mut reason = match status.reason.as_deref() {
        Some(r) if !r.is_empty() => r.to_string(),
        _ => phase.clone(),
    };
    for c in status.conditions.iter().flatten() {
        if c.type_ == "PodScheduled" && c.reason.as_deref() == Some("SchedulingGated") {
            reason = "SchedulingGated".to_string();
        }
    }
    let init_containers: BTreeMap<&str, &CoreContainer> = spec
        .init_containers
        .iter()
        .flatten()
        .map(|c| (c.name.as_str(), c))
        .collect();
    total += spec
        .init_containers
        .iter()
        .flatten()
        .filter(|c| is_restartable_init_container(Some(c)))
        .count();
    let later = |cur: Option<DateTime<Utc>>, t: Option<DateTime<Utc>>| match (cur, t) {
        (Some(a), Some(b)) if b > a => Some(b),
        (None, Some(b)) => Some(b),
        (a, _) => a,
    };
    let n_init = spec.init_containers.as_ref().map_or(0, |v| v.len());
    let mut initializing = false;
    for (i, c) in status.init_container_statuses.iter().flatten().enumerate() {
        restarts += i64::from(c.restart_count);
        let last_term = c
            .last_state
            .as_ref()
            .and_then(|s| s.terminated.as_ref())
            .and_then(|t| t.finished_at.as_ref())
            .map(|t| t.0);
        if c.last_state
            .as_ref()
            .and_then(|s| s.terminated.as_ref())
            .is_some()
        {
            last_restart = later(last_restart, last_term);
        }
        let restartable =
            is_restartable_init_container(init_containers.get(c.name.as_str()).copied());
        if restartable {
            restartable_init_restarts += i64::from(c.restart_count);
            if c.last_state
                .as_ref()
                .and_then(|s| s.terminated.as_ref())
                .is_some()
            {
                last_restartable_init_restart = later(last_restartable_init_restart, last_term);
            }
        }
        let state = c.state.as_ref().unwrap_or(&no_state);
        if state.terminated.as_ref().is_some_and(|t| t.exit_code == 0) {
            continue;
        }
        if restartable && c.started == Some(true) {
            if c.ready {
                ready += 1;
            }
            continue;
        }
        if let Some(t) = &state.terminated {
            reason = match t.reason.as_deref() {
                Some(r) if !r.is_empty() => format!("Init:{r}"),
                _ if t.signal.unwrap_or(0) != 0 => format!("Init:Signal:{}", t.signal.unwrap_or(0)),
                _ => format!("Init:ExitCode:{}", t.exit_code),
            };
        } else if let Some(r) = state
            .waiting
            .as_ref()
            .and_then(|w| w.reason.as_deref())
            .filter(|r| !r.is_empty() && *r != "PodInitializing")
        {
            reason = format!("Init:{r}");
        } else {
            reason = format!("Init:{i}/{n_init}");
        }
        initializing = true;
        break;
    }
    if !initializing || condition_true(pod, "Initialized") {
        restarts = restartable_init_restarts;
        last_restart = last_restartable_init_restart;
        let mut has_running = false;
        for c in status.container_statuses.iter().flatten().rev() {
            restarts += i64::from(c.restart_count);
            if let Some(t) = c.last_state.as_ref().and_then(|s| s.terminated.as_ref()) {
                last_restart = later(last_restart, t.finished_at.as_ref().map(|t| t.0));
            }
            let state = c.state.as_ref().unwrap_or(&no_state);
            let waiting_reason = state
                .waiting
                .as_ref()
                .and_then(|w| w.reason.clone())
                .filter(|r| !r.is_empty());
            if let Some(r) = waiting_reason {
                reason = r;
            } else if let Some(t) = &state.terminated {
                reason = match t.reason.as_deref() {
                    Some(r) if !r.is_empty() => r.to_string(),
                    _ if t.signal.unwrap_or(0) != 0 => format!("Signal:{}", t.signal.unwrap_or(0)),
                    _ => format!("ExitCode:{}", t.exit_code),
                };
            } else if c.ready && state.running.is_some() {
                has_running = true;
                ready += 1;
            }
        }
        if reason == "Completed" && has_running {
            reason = if dsplay_api::pod::is_pod_ready(pod) {
                "Running".to_string()
            } else {
                "NotReady".to_string()
            };
        }
    }
    if pod.metadata.deletion_timestamp.is_some() && status.reason.as_deref() == Some("NodeLost") {
        reason = "Unknown".to_string();
    } else if pod.metadata.deletion_timestamp.is_some() && phase != "Failed" && phase != "Succeeded"
    {
        reason = "Terminating".to_string();
    }
    (
        format!("{ready}/{total}"),
        reason,
        restarts_cell(restarts, last_restart.as_ref(), now),
    )
}

/// `kubectl get pods`: NAME READY STATUS RESTARTS AGE (+ wide IP NODE NOMINATED NODE READINESS GATES).
pub fn pod_table(items: &[&Pod], now: DateTime<Utc>) -> Table {
    let columns = vec![
        Column::new("Name"),
        Column::new("Ready"),
        Column::new("Status"),
        Column::new("Restarts"),
        Column::new("Age"),
        Column::wide("IP"),
        Column::wide("Node"),
        Column::wide("Nominated Node"),
        Column::wide("Readiness Gates"),
    ];
    let rows = items
        .iter()
        .map(|pod| {
            let (ready, status, restarts) = pod_ready_status_restarts(pod, now);
            let st = pod.status.clone().unwrap_or_default();
            let spec = pod.spec.clone().unwrap_or_default();
            let ip = st
                .pod_ips
                .as_ref()
                .and_then(|ips| ips.first())
                .map(|ip| ip.ip.clone())
                .filter(|s| !s.is_empty());
            let node = spec.node_name.clone().filter(|s| !s.is_empty());
            let nominated = st.nominated_node_name.clone().filter(|s| !s.is_empty());
            let gates = match spec.readiness_gates.as_deref() {
                Some(gates) if !gates.is_empty() => {
                    let conds = st.conditions.clone().unwrap_or_default();
                    let ok = gates
                        .iter()
                        .filter(|g| {
                            conds
                                .iter()
                                .find(|c| c.type_ == g.condition_type)
                                .is_some_and(|c| c.status == "True")
                        })
                        .count();
                    format!("{ok}/{}", gates.len())
                }
                _ => "<none>".to_string(),
            };
            row(
                &pod.metadata,
                vec![
                    name(&pod.metadata),
                    ready,
                    status,
                    restarts,
                    age_since(created(&pod.metadata), now),
                    ip.unwrap_or_else(|| "<none>".into()),
                    node.unwrap_or_else(|| "<none>".into()),
                    nominated.unwrap_or_else(|| "<none>".into()),
                    gates,
                ],
            )
        })
        .collect();
    Table { columns, rows }
}

/// `findNodeRoles`: `node-role.kubernetes.io/<role>` keys and `kubernetes.io/role=<role>`, sorted.
#[doc(alias = "findNodeRoles")]
pub fn node_roles(node: &Node) -> Vec<String> {
    let mut roles: Vec<String> = Vec::new();
    for (k, v) in node.metadata.labels.iter().flatten() {
        if let Some(role) = k.strip_prefix("node-role.kubernetes.io/") {
            if !role.is_empty() {
                roles.push(role.to_string());
            }
        } else if k == "kubernetes.io/role" && !v.is_empty() {
            roles.push(v.clone());
        }
    }
    roles.sort();
    roles.dedup();
    roles
}

/// The STATUS cell of a node: `Ready` / `NotReady` / `Unknown`, plus `,SchedulingDisabled`.
pub fn node_status(node: &Node) -> String {
    let mut status: Vec<&str> = Vec::new();
    let ready = node
        .status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .and_then(|cs| cs.iter().rev().find(|c| c.type_ == "Ready"));
    match ready {
        Some(c) if c.status == "True" => status.push("Ready"),
        Some(_) => status.push("NotReady"),
        None => status.push("Unknown"),
    }
    if node
        .spec
        .as_ref()
        .and_then(|s| s.unschedulable)
        .unwrap_or(false)
    {
        status.push("SchedulingDisabled");
    }
    status.join(",")
}

fn node_address(node: &Node, kind: &str) -> String {
    node.status
        .as_ref()
        .and_then(|s| s.addresses.as_ref())
        .and_then(|a| a.iter().find(|a| a.type_ == kind))
        .map(|a| a.address.clone())
        .unwrap_or_else(|| "<none>".to_string())
}

/// `kubectl get nodes`: NAME STATUS ROLES AGE VERSION (+ wide INTERNAL-IP EXTERNAL-IP OS-IMAGE
/// KERNEL-VERSION CONTAINER-RUNTIME).
pub fn node_table(items: &[&Node], now: DateTime<Utc>) -> Table {
    let columns = vec![
        Column::new("Name"),
        Column::new("Status"),
        Column::new("Roles"),
        Column::new("Age"),
        Column::new("Version"),
        Column::wide("Internal-IP"),
        Column::wide("External-IP"),
        Column::wide("OS-Image"),
        Column::wide("Kernel-Version"),
        Column::wide("Container-Runtime"),
    ];
    let rows = items
        .iter()
        .map(|node| {
            let info = node
                .status
                .as_ref()
                .and_then(|s| s.node_info.clone())
                .unwrap_or_default();
            let unknown = |s: String| {
                if s.is_empty() {
                    "<unknown>".to_string()
                } else {
                    s
                }
            };
            let roles = node_roles(node).join(",");
            row(
                &node.metadata,
                vec![
                    name(&node.metadata),
                    node_status(node),
                    if roles.is_empty() {
                        "<none>".to_string()
                    } else {
                        roles
                    },
                    age_since(created(&node.metadata), now),
                    info.kubelet_version.clone(),
                    node_address(node, "InternalIP"),
                    node_address(node, "ExternalIP"),
                    unknown(info.os_image.clone()),
                    unknown(info.kernel_version.clone()),
                    unknown(info.container_runtime_version.clone()),
                ],
            )
        })
        .collect();
    Table { columns, rows }
}

/// `kubectl get events`: LAST SEEN TYPE REASON OBJECT MESSAGE (+ wide SUBOBJECT SOURCE, FIRST SEEN
/// COUNT NAME), rows in the order given: like the API server, which lists events by name
/// (`<object>.<hex time>`), not by time (kubernetes/kubernetes#29838); `--sort-by` reorders.
pub fn event_table(items: &[&Event], now: DateTime<Utc>) -> Table {
    let columns = vec![
        Column::new("Last Seen"),
        Column::new("Type"),
        Column::new("Reason"),
        Column::new("Object"),
        Column::wide("Subobject"),
        Column::wide("Source"),
        Column::new("Message"),
        Column::wide("First Seen"),
        Column::wide("Count"),
        Column::wide("Name"),
    ];
    let rows = items
        .iter()
        .map(|e| {
            let first = match &e.first_timestamp {
                Some(t) => age_since(Some(&t.0), now),
                None => age_since(e.event_time.as_ref().map(|t| &t.0), now),
            };
            let mut last = match &e.last_timestamp {
                Some(t) => age_since(Some(&t.0), now),
                None => first.clone(),
            };
            let mut count = e.count.unwrap_or(0);
            if let Some(series) = &e.series {
                last = age_since(series.last_observed_time.as_ref().map(|t| &t.0), now);
                count = series.count.unwrap_or(0);
            } else if count == 0 {
                count = 1;
            }
            let obj = &e.involved_object;
            let kind = obj.kind.clone().unwrap_or_default().to_lowercase();
            let target = match obj.name.as_deref() {
                Some(n) if !n.is_empty() => format!("{kind}/{n}"),
                _ => kind,
            };
            let component = super::events::source_component(e);
            let instance = e
                .source
                .as_ref()
                .and_then(|s| s.host.clone())
                .filter(|s| !s.is_empty())
                .or_else(|| e.reporting_instance.clone())
                .unwrap_or_default();
            let source = if instance.is_empty() {
                component
            } else {
                format!("{component}, {instance}")
            };
            row(
                &e.metadata,
                vec![
                    last,
                    e.type_.clone().unwrap_or_default(),
                    e.reason.clone().unwrap_or_default(),
                    target,
                    obj.field_path.clone().unwrap_or_default(),
                    source,
                    e.message.clone().unwrap_or_default().trim().to_string(),
                    first,
                    count.to_string(),
                    name(&e.metadata),
                ],
            )
        })
        .collect();
    Table { columns, rows }
}

/// `kubectl get controllerrevisions`: NAME CONTROLLER REVISION AGE; CONTROLLER is
/// `<kind>.<group>/<name>` lower-cased (`daemonset.apps/demo`) or `<none>`.
pub fn controller_revision_table(items: &[&ControllerRevision], now: DateTime<Utc>) -> Table {
    let columns = vec![
        Column::new("Name"),
        Column::new("Controller"),
        Column::new("Revision"),
        Column::new("Age"),
    ];
    let rows = items
        .iter()
        .map(|cr| {
            let controller = cr
                .metadata
                .owner_references
                .iter()
                .flatten()
                .find(|o| o.controller == Some(true))
                .map(|o| {
                    let group = o.api_version.split_once('/').map(|(g, _)| g).unwrap_or("");
                    let kind = if group.is_empty() {
                        o.kind.clone()
                    } else {
                        format!("{}.{group}", o.kind)
                    };
                    format!("{}/{}", kind.to_lowercase(), o.name)
                })
                .unwrap_or_else(|| "<none>".to_string());
            row(
                &cr.metadata,
                vec![
                    name(&cr.metadata),
                    controller,
                    cr.revision.to_string(),
                    age_since(created(&cr.metadata), now),
                ],
            )
        })
        .collect();
    Table { columns, rows }
}

/// `kubectl get namespaces`: NAME STATUS AGE.
pub fn namespace_table(items: &[&Namespace], now: DateTime<Utc>) -> Table {
    let columns = vec![
        Column::new("Name"),
        Column::new("Status"),
        Column::new("Age"),
    ];
    let rows = items
        .iter()
        .map(|ns| {
            let phase = ns
                .status
                .as_ref()
                .and_then(|s| s.phase.clone())
                .unwrap_or_default();
            row(
                &ns.metadata,
                vec![
                    name(&ns.metadata),
                    phase,
                    age_since(created(&ns.metadata), now),
                ],
            )
        })
        .collect();
    Table { columns, rows }
}

/// `kubectl get priorityclasses`: NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY.
pub fn priority_class_table(items: &[&PriorityClass], now: DateTime<Utc>) -> Table {
    let columns = vec![
        Column::new("Name"),
        Column::new("Value"),
        Column::new("Global-Default"),
        Column::new("Age"),
        Column::new("PreemptionPolicy"),
    ];
    let rows = items
        .iter()
        .map(|pc| {
            row(
                &pc.metadata,
                vec![
                    name(&pc.metadata),
                    pc.value.to_string(),
                    pc.global_default.unwrap_or(false).to_string(),
                    age_since(created(&pc.metadata), now),
                    pc.preemption_policy
                        .clone()
                        .unwrap_or_else(|| "<unset>".to_string()),
                ],
            )
        })
        .collect();
    Table { columns, rows }
}

/// `kubectl rollout history ds/NAME` (all revisions): the `daemonset.apps/NAME ` line (trailing
/// space), then a `REVISION  CHANGE-CAUSE` table (padding 2) sorted by revision, then a blank line.
/// `revisions` are (revision, change-cause annotation); with none the table is replaced by
/// `No rollout history found.`
pub fn rollout_history(ds_name: &str, revisions: &[(i64, Option<String>)]) -> String {
    if revisions.is_empty() {
        return format!("daemonset.apps/{ds_name} \nNo rollout history found.\n");
    }
    let mut sorted = revisions.to_vec();
    sorted.sort_by_key(|(r, _)| *r);
    let mut w = TabWriter::new(0, 2);
    w.write("REVISION\tCHANGE-CAUSE\n");
    for (rev, cause) in &sorted {
        let cause = cause
            .as_deref()
            .filter(|c| !c.is_empty())
            .unwrap_or("<none>");
        w.write(&format!("{rev}\t{cause}\n"));
    }
    format!("daemonset.apps/{ds_name} \n{}\n", w.finish())
}

/// The `get` table of one kind's objects (objects of other kinds are skipped): the column definitions
/// and cells the API server's table convertor returns, so `kubectl get` and `dsplay serve` share one
/// owner per column rule. Upstream: `pkg/printers/internalversion/printers.go` `AddHandlers`.
pub fn table_for(kind: Kind, objects: &[Object], now: DateTime<Utc>) -> Table {
    macro_rules! typed {
        ($variant:ident, $f:path) => {{
            let items: Vec<&_> = objects
                .iter()
                .filter_map(|o| {
                    if let Object::$variant(x) = o {
                        Some(x)
                    } else {
                        None
                    }
                })
                .collect();
            $f(&items, now)
        }};
    }
    match kind {
        Kind::DaemonSet => typed!(DaemonSet, daemon_set_table),
        Kind::Pod => typed!(Pod, pod_table),
        Kind::Node => typed!(Node, node_table),
        Kind::Event => typed!(Event, event_table),
        Kind::ControllerRevision => typed!(ControllerRevision, controller_revision_table),
        Kind::Namespace => typed!(Namespace, namespace_table),
        Kind::PriorityClass => typed!(PriorityClass, priority_class_table),
        Kind::Deployment => typed!(Deployment, super::apps_tables::deployment_table),
        Kind::ReplicaSet => typed!(ReplicaSet, super::apps_tables::replica_set_table),
        Kind::Service => typed!(Service, super::service::service_table),
        Kind::EndpointSlice => typed!(EndpointSlice, super::service::endpoint_slice_table),
        Kind::StatefulSet => typed!(StatefulSet, super::storage_tables::stateful_set_table),
        Kind::PersistentVolumeClaim => typed!(
            PersistentVolumeClaim,
            super::storage_tables::persistent_volume_claim_table
        ),
        Kind::PersistentVolume => {
            let items: Vec<&PersistentVolume> = objects
                .iter()
                .filter_map(|o| match o {
                    Object::PersistentVolume(pv) => Some(&**pv),
                    _ => None,
                })
                .collect();
            super::storage_tables::persistent_volume_table(&items, now)
        }
        Kind::StorageClass => typed!(StorageClass, super::storage_tables::storage_class_table),
        Kind::Endpoints => typed!(Endpoints, super::service::endpoints_table),
    }
}
