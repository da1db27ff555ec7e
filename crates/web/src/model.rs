//! The view model: plain data the components render, read straight from the sim's store.
//!
//! **Architecture Invariant:** no Yew or DOM here, so it is unit-tested natively. Everything is
//! sorted (nodes by name, pods by name, events newest first) so rendering is deterministic.

pub mod node_map;
pub mod node_views;
pub mod owners;
pub mod pod_details;
pub mod rollout;
pub mod stateful_rollout;
pub mod traffic;
pub mod warnings;
pub mod watch_position;
pub mod workload_tables;

use crate::timeline::Mark;
use dsplay_api::pod::is_pod_ready;
use dsplay_api::quantity;
use dsplay_api::taints::format_taint;
use dsplay_api::types::{Event, Node, Pod};
use dsplay_kubectl::printers::age::human_duration;
use dsplay_kubectl::printers::get::{node_status, pod_ready_status_restarts};
use dsplay_sim::explain::NodeExplanation;
use dsplay_sim::scheduler::node_resources_fit::{allocatable, pod_requests};
use dsplay_sim::store::{event_last_seen, is_warning};
use dsplay_sim::{Cluster, Store};
use node_views::NodeViews;
use std::rc::Rc;

/// One pod chip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodView {
    /// `metadata.uid` (the animation key); the name if the uid is unset.
    pub uid: String,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`.
    pub namespace: String,
    /// `spec.nodeName` (empty while unscheduled).
    pub node: String,
    /// `status.phase` (`Pending` if unset).
    pub phase: String,
    /// What `kubectl get pods` prints in STATUS (`ContainerCreating`, `Terminating`, phase…), from
    /// kubectl's own printer.
    pub status: String,
    /// The Ready condition is True.
    pub ready: bool,
    /// `labels["controller-revision-hash"]`, else `labels["pod-template-hash"]` (empty if none).
    pub revision: String,
    /// The revision number of that hash in its owner's history (0 if unknown).
    pub revision_number: i64,
    /// The hash is its owner's newest revision (or the pod has no owner history).
    pub current_revision: bool,
    /// The workload the pod belongs to (`DaemonSet`, `Deployment`, `StatefulSet`, …; empty for
    /// a bare pod) and its name.
    pub owner_kind: String,
    pub owner_name: String,
    /// `metadata.deletionTimestamp` is set.
    pub terminating: bool,
    /// One of kind's own pods: in kube-system or kind's `local-path-storage` (drawn quieter,
    /// hidden with the kube-system pods).
    pub system: bool,
    /// The first container's image tag (`1.36`; `latest` when the image names none).
    pub image_tag: String,
    /// The pod's effective requests as the scheduler counts them (init containers and overhead
    /// included): (cpu millicores, memory milli-bytes).
    pub requests: (i128, i128),
}

/// One node card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeView {
    /// `metadata.name`.
    pub name: String,
    /// `control-plane` or `worker`.
    pub role: &'static str,
    /// What `kubectl get nodes` prints in STATUS (`Ready`, `NotReady,SchedulingDisabled`…), from
    /// kubectl's own printer.
    pub status: String,
    /// The Ready condition is True.
    pub ready: bool,
    /// `spec.unschedulable`.
    pub unschedulable: bool,
    /// Labels as `(key, value)`, without the ones every node has (`kubernetes.io/hostname`).
    pub labels: Vec<(String, String)>,
    /// Taints as kubectl writes them: `key=value:Effect` / `key:Effect`.
    pub taints: Vec<String>,
    /// Requested / allocatable cpu in millicores.
    pub cpu: (i128, i128),
    /// Requested / allocatable memory in milli-bytes.
    pub memory: (i128, i128),
    /// Pods on the node / allocatable pods.
    pub pods_count: (i128, i128),
    /// The node's pods, sorted by namespace then name.
    pub pods: Vec<PodView>,
}

/// One row of the events list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    /// `Normal` or `Warning`.
    pub type_: String,
    /// `SuccessfulCreate`, `Scheduled`…
    pub reason: String,
    /// `pod/demo-abcde`.
    pub object: String,
    /// The message.
    pub message: String,
    /// The age as kubectl prints it (`5s`, `2m3s`, `62m`).
    pub age: String,
}

/// Everything the cluster view, the events list and the status bar show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClusterModel {
    /// Node cards, by name.
    pub nodes: Vec<Rc<NodeView>>,
    /// The node label keys the map can group nodes by (`model::node_map::group_keys`).
    pub label_keys: Rc<Vec<String>>,
    /// Pods not bound to a node yet.
    pub unscheduled: Vec<PodView>,
    /// Pods bound to a node that was deleted: the API still lists them (with their last status)
    /// until the pod garbage collector removes them.
    pub on_deleted_nodes: Vec<PodView>,
    /// Events, newest first (at most [`MAX_EVENTS`]).
    pub events: Vec<EventRow>,
    /// A Service of the learner's that node cards can send a request to: (name, URL).
    pub service_target: Option<(String, String)>,
}

/// How many events the list keeps.
pub const MAX_EVENTS: usize = 60;

impl ClusterModel {
    /// Reads the view model from the store at virtual time `now`.
    pub fn from_store(store: &Store, now: chrono::DateTime<chrono::Utc>) -> ClusterModel {
        ClusterModel::read(store, now, &mut NodeViews::default(), None, None)
    }

    /// [`ClusterModel::from_store`], keeping the views of nodes unchanged since `views` last read
    /// (and building at most `budget` node views, see [`NodeViews::read`]), and the given event
    /// rows if any (else read from the store).
    pub fn read(
        store: &Store,
        now: chrono::DateTime<chrono::Utc>,
        views: &mut NodeViews,
        budget: Option<usize>,
        events: Option<Vec<EventRow>>,
    ) -> ClusterModel {
        let node_views::NodesRead {
            nodes,
            label_keys,
            unscheduled,
            on_deleted_nodes,
        } = views.read(store, now, budget);
        ClusterModel {
            nodes,
            label_keys,
            unscheduled,
            on_deleted_nodes,
            events: events.unwrap_or_else(|| event_rows(store, now)),
            service_target: traffic::service_target(store),
        }
    }
}

/// The tag of an image reference: after the last `:` of its last path part (so a registry port is
/// no tag), else `latest`; a digest (`@sha256:…`) shows as its first 12 characters.
fn image_tag(image: &str) -> &str {
    if let Some((_, digest)) = image.split_once('@') {
        return digest.get(..12).unwrap_or(digest);
    }
    let last = image.rsplit('/').next().unwrap_or(image);
    last.rsplit_once(':').map_or("latest", |(_, tag)| tag)
}

fn pod_view(pod: &Pod, owners: &owners::Owners, now: chrono::DateTime<chrono::Utc>) -> PodView {
    let meta = &pod.metadata;
    let name = meta.name.clone().unwrap_or_default();
    let namespace = meta.namespace.clone().unwrap_or_else(|| "default".into());
    let phase = pod
        .status
        .as_ref()
        .and_then(|s| s.phase.clone())
        .unwrap_or_else(|| "Pending".into());
    let (_, status, _) = pod_ready_status_restarts(pod, now);
    let owners::PodRevision {
        hash: revision,
        number: revision_number,
        current: current_revision,
    } = owners.revision(meta);
    let owner = owners.owner(meta);
    let requests = pod_requests(pod);
    let image = pod
        .spec
        .as_ref()
        .and_then(|s| s.containers.first())
        .and_then(|c| c.image.as_deref())
        .unwrap_or_default();
    PodView {
        image_tag: image_tag(image).to_string(),
        requests: (
            i128::from(requests.milli_cpu),
            i128::from(requests.memory) * 1000,
        ),
        uid: meta
            .uid
            .clone()
            .unwrap_or_else(|| format!("{namespace}/{name}")),
        system: matches!(namespace.as_str(), "kube-system" | "local-path-storage"),
        node: pod
            .spec
            .as_ref()
            .and_then(|s| s.node_name.clone())
            .unwrap_or_default(),
        name,
        namespace,
        phase,
        status,
        ready: is_pod_ready(pod),
        revision,
        revision_number,
        current_revision,
        owner_kind: owner.as_ref().map(|(k, _)| k.clone()).unwrap_or_default(),
        owner_name: owner.map(|(_, n)| n).unwrap_or_default(),
        terminating: meta.deletion_timestamp.is_some(),
    }
}

fn node_view(node: &Node, pods: Vec<PodView>) -> NodeView {
    let labels = node.metadata.labels.clone().unwrap_or_default();
    let role = if labels.contains_key("node-role.kubernetes.io/control-plane") {
        "control-plane"
    } else {
        "worker"
    };
    let spec = node.spec.as_ref();
    let status = node_status(node);
    let taints = spec
        .and_then(|s| s.taints.as_ref())
        .map(|taints| taints.iter().map(format_taint).collect())
        .unwrap_or_default();
    let allocatable = allocatable(node);
    // Pods that have finished no longer hold their requests (the scheduler's view).
    let active: Vec<&PodView> = pods
        .iter()
        .filter(|p| p.phase != "Succeeded" && p.phase != "Failed")
        .collect();
    let cpu: i128 = active.iter().map(|p| p.requests.0).sum();
    let memory: i128 = active.iter().map(|p| p.requests.1).sum();
    NodeView {
        name: node.metadata.name.clone().unwrap_or_default(),
        role,
        ready: status.split(',').next() == Some("Ready"),
        status,
        unschedulable: spec.and_then(|s| s.unschedulable).unwrap_or(false),
        labels: labels
            .into_iter()
            .filter(|(k, _)| k != "kubernetes.io/hostname")
            .collect(),
        taints,
        cpu: (cpu, i128::from(allocatable.milli_cpu)),
        memory: (memory, i128::from(allocatable.memory) * 1000),
        pods_count: (
            active.len() as i128,
            i128::from(allocatable.allowed_pod_number),
        ),
        pods,
    }
}

fn event_rows(store: &Store, now: chrono::DateTime<chrono::Utc>) -> Vec<EventRow> {
    // The newest only, from the store's index by time (a large cluster keeps tens of thousands
    // and the list is read again every second while the clock plays).
    let at = |e: &Event| event_last_seen(e).unwrap_or(now);
    store
        .events_newest_first()
        .take(MAX_EVENTS)
        .map(|e| {
            let at = at(e);
            let kind = e
                .involved_object
                .kind
                .clone()
                .unwrap_or_default()
                .to_lowercase();
            let name = e.involved_object.name.clone().unwrap_or_default();
            EventRow {
                type_: e.type_.clone().unwrap_or_else(|| "Normal".into()),
                reason: e.reason.clone().unwrap_or_default(),
                object: if kind.is_empty() {
                    name
                } else {
                    format!("{kind}/{name}")
                },
                message: e.message.clone().unwrap_or_default(),
                age: human_duration(now - at),
            }
        })
        .collect()
}

/// A Warning event as a timeline mark (`None` for any other event): where it first happened
/// (virtual ms since `started`) and `Reason kind/name: message`, so the Timeline shows when
/// things went wrong (`model::warnings` keeps them between refreshes).
pub fn warning_mark(e: &Event, started: chrono::DateTime<chrono::Utc>) -> Option<Mark> {
    if !is_warning(e) {
        return None;
    }
    let at = e
        .first_timestamp
        .as_ref()
        .or(e.last_timestamp.as_ref())
        .map(|t| t.0)
        .or_else(|| e.event_time.as_ref().map(|t| t.0))?;
    let kind = e.involved_object.kind.as_deref().unwrap_or_default();
    let label = format!(
        "{} {}/{}: {}",
        e.reason.as_deref().unwrap_or_default(),
        kind.to_lowercase(),
        e.involved_object.name.as_deref().unwrap_or_default(),
        e.message.as_deref().unwrap_or_default()
    );
    Some(Mark::new((at - started).num_milliseconds(), &label))
}

/// One DaemonSet's verdict for the selected node.
#[derive(Clone, Debug, PartialEq)]
pub struct DsExplanation {
    /// `namespace/name`.
    pub daemon_set: String,
    /// The explanation, or the error text.
    pub result: Result<NodeExplanation, String>,
}

/// Every DaemonSet's `(namespace, name)`, sorted.
pub fn daemon_set_names(store: &Store) -> Vec<(String, String)> {
    let mut names: Vec<(String, String)> = store
        .daemon_sets()
        .map(|d| {
            (
                d.metadata.namespace.clone().unwrap_or_default(),
                d.metadata.name.clone().unwrap_or_default(),
            )
        })
        .collect();
    names.sort();
    names
}

/// Per DaemonSet (by namespace and name), why it does or does not run a pod on `node`.
pub fn node_explanations(cluster: &Cluster, node: &str) -> Vec<DsExplanation> {
    daemon_set_names(cluster.store())
        .iter()
        .map(|(ns, name)| DsExplanation {
            daemon_set: format!("{ns}/{name}"),
            result: dsplay_sim::explain::explain(cluster, ns, name, Some(node))
                .map_err(|e| e.to_string())
                .and_then(|mut v| v.pop().ok_or_else(|| "no such node".to_string())),
        })
        .collect()
}

/// The text `kubectl get ds -A` prints, from kubectl's own printer. Called directly rather than
/// through `Session::execute` so the read-only refresh stays out of the session's history and
/// needs no copy of the session.
pub fn get_ds_all_namespaces(store: &Store, now: chrono::DateTime<chrono::Utc>) -> String {
    use dsplay_kubectl::printers::{get::daemon_set_table, table::TableOptions};
    let mut items: Vec<_> = store.daemon_sets().collect();
    if items.is_empty() {
        return "No resources found\n".to_string();
    }
    items.sort_by(|a, b| {
        (&a.metadata.namespace, &a.metadata.name).cmp(&(&b.metadata.namespace, &b.metadata.name))
    });
    daemon_set_table(&items, now).render(&TableOptions {
        with_namespace: true,
        ..TableOptions::default()
    })
}

/// Formats millicores as kubectl does (`100m`, `2`).
pub fn format_cpu(milli: i128) -> String {
    quantity::format_cpu_milli(milli)
}

/// Formats milli-bytes as kubectl does (`128Mi`, `8Gi`).
pub fn format_memory(milli: i128) -> String {
    quantity::format_bytes_milli(milli)
}

#[cfg(test)]
mod tests {
    #[test]
    fn image_tags() {
        assert_eq!(super::image_tag("busybox:1.36"), "1.36");
        assert_eq!(super::image_tag("busybox"), "latest");
        assert_eq!(super::image_tag("localhost:5000/app"), "latest");
        assert_eq!(super::image_tag("localhost:5000/app:v2"), "v2");
        assert_eq!(
            super::image_tag("app@sha256:0123456789abcdef"),
            "sha256:01234"
        );
    }

    use super::*;

    fn session() -> dsplay_kubectl::Session {
        dsplay_kubectl::Session::new(dsplay_kubectl::SessionOptions {
            seed: 1,
            empty: false,
        })
    }

    #[test]
    fn event_ages_are_kubectls_human_duration() {
        let mut session = session();
        session.execute(&crate::demo::apply_command(crate::demo::DEMO_DAEMON_SET));
        session.execute("sim advance 1s");
        let store = session.cluster().store();
        let newest = store
            .events()
            .filter_map(|e| e.last_timestamp.as_ref().map(|t| t.0))
            .max()
            .expect("the demo makes events");
        for (secs, want) in [(45, "45s"), (123, "2m3s"), (3720, "62m"), (90_000, "25h")] {
            let now = newest + chrono::Duration::seconds(secs);
            let model = ClusterModel::from_store(store, now);
            assert_eq!(model.events[0].age, want, "{secs}s");
        }
    }

    /// A DaemonSet whose init container asks for more cpu than its main container.
    const INIT_DAEMON_SET: &str = "\
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: init
spec:
  selector:
    matchLabels:
      app: init
  template:
    metadata:
      labels:
        app: init
    spec:
      initContainers:
      - name: setup
        image: busybox
        resources:
          requests:
            cpu: 700m
            memory: 64Mi
      containers:
      - name: main
        image: busybox
        resources:
          requests:
            cpu: 100m
            memory: 32Mi
";

    #[test]
    fn pod_status_taints_and_requests_are_what_kubectl_and_the_scheduler_say() {
        let mut session = session();
        session.execute(
            "kubectl taint nodes kind-worker team=a:NoSchedule dedicated:PreferNoSchedule",
        );
        session.execute(&crate::demo::apply_command(INIT_DAEMON_SET));
        let mut statuses = Vec::new();
        for _ in 0..12 {
            session.execute("sim advance 500ms");
            let cluster = session.cluster();
            let model = ClusterModel::from_store(cluster.store(), cluster.now());
            let printed: String = session
                .clone()
                .execute("kubectl get pods -A --no-headers")
                .iter()
                .map(dsplay_kubectl::CommandOutput::text)
                .collect();
            for pod in model.nodes.iter().flat_map(|n| &n.pods) {
                let row = printed
                    .lines()
                    .map(|l| l.split_whitespace().collect::<Vec<_>>())
                    .find(|cells| cells[0] == pod.namespace && cells[1] == pod.name)
                    .unwrap_or_else(|| panic!("{} is listed: {printed}", pod.name));
                assert_eq!(pod.status, row[3], "{}", pod.name);
                if pod.name.starts_with("init-") {
                    statuses.push(pod.status.clone());
                }
            }
        }
        assert!(
            statuses.iter().any(|s| s == "Running"),
            "the pods started: {statuses:?}"
        );
        let cluster = session.cluster();
        let model = ClusterModel::from_store(cluster.store(), cluster.now());
        let worker = model
            .nodes
            .iter()
            .find(|n| n.name == "kind-worker")
            .expect("kind-worker");
        assert_eq!(
            worker.taints,
            ["team=a:NoSchedule", "dedicated:PreferNoSchedule"]
        );
        let init = model
            .nodes
            .iter()
            .flat_map(|n| &n.pods)
            .find(|p| p.name.starts_with("init-"))
            .expect("an init pod (on kind-worker2)");
        // The init container's 700m outweighs the main container's 100m (upstream PodRequests).
        assert_eq!(init.requests, (700, 64 * 1024 * 1024 * 1000));
    }

    #[test]
    fn pods_of_a_deleted_node_are_apart_from_unscheduled_ones_until_pod_gc() {
        let mut session = session();
        session.execute("kubectl delete node kind-worker2");
        let cluster = session.cluster();
        let model = ClusterModel::from_store(cluster.store(), cluster.now());
        assert!(model.unscheduled.is_empty(), "{:?}", model.unscheduled);
        let names: Vec<&str> = model
            .on_deleted_nodes
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        assert!(
            names.iter().any(|n| n.starts_with("kube-proxy-")),
            "{names:?}"
        );
        assert!(model
            .on_deleted_nodes
            .iter()
            .all(|p| p.node == "kind-worker2" && p.status == "Running"));
        session.execute("sim advance 60s");
        let cluster = session.cluster();
        let model = ClusterModel::from_store(cluster.store(), cluster.now());
        assert!(model.on_deleted_nodes.is_empty(), "PodGC removed them");
    }

    #[test]
    fn kinds_own_pods_are_system_pods() {
        let session = session();
        let cluster = session.cluster();
        let model = ClusterModel::from_store(cluster.store(), cluster.now());
        let pods: Vec<&PodView> = model.nodes.iter().flat_map(|n| &n.pods).collect();
        let provisioner = pods
            .iter()
            .find(|p| p.namespace == "local-path-storage")
            .expect("kind's local-path provisioner");
        assert!(provisioner.system);
        assert!(pods
            .iter()
            .filter(|p| p.namespace == "kube-system")
            .all(|p| p.system));
        assert!(pods
            .iter()
            .filter(|p| p.namespace == "default")
            .all(|p| !p.system));
    }

    #[test]
    fn empty_store_gives_an_empty_model() {
        let session = dsplay_kubectl::Session::new(dsplay_kubectl::SessionOptions {
            seed: 1,
            empty: true,
        });
        let model = ClusterModel::from_store(session.cluster().store(), session.cluster().now());
        assert!(model.nodes.is_empty());
        assert!(model.unscheduled.is_empty() && model.on_deleted_nodes.is_empty());
    }
}
