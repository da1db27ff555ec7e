//! The view model: plain data the components render, read straight from the sim's store.
//!
//! **Architecture Invariant:** no Yew or DOM here, so it is unit-tested natively. Everything is
//! sorted (nodes by name, pods by name, events newest first) so rendering is deterministic.

use crate::timeline::Mark;
use dsplay_api::quantity;
use dsplay_api::types::{ControllerRevision, Event, Node, Pod};
use dsplay_sim::{Cluster, Store};
use std::collections::BTreeMap;
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
    /// What `kubectl get pods` prints in STATUS (`ContainerCreating`, `Terminating`, phase…).
    pub status: String,
    /// The Ready condition is True.
    pub ready: bool,
    /// `labels["controller-revision-hash"]` (empty if none).
    pub revision: String,
    /// The revision number of that hash in its DaemonSet's history (0 if unknown).
    pub revision_number: i64,
    /// The hash is its DaemonSet's newest revision (or the pod has no owner history).
    pub current_revision: bool,
    /// `metadata.deletionTimestamp` is set.
    pub terminating: bool,
    /// Lives in kube-system (drawn quieter).
    pub system: bool,
    /// Summed container requests: (cpu millicores, memory milli-bytes).
    pub requests: (i128, i128),
}

/// One node card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeView {
    /// `metadata.name`.
    pub name: String,
    /// `control-plane` or `worker`.
    pub role: &'static str,
    /// `Ready`, `NotReady` or `Unknown` (the Ready condition).
    pub ready: String,
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

impl NodeView {
    /// What the status badge says, as `kubectl get nodes` prints STATUS.
    pub fn status_text(&self) -> String {
        if self.unschedulable {
            format!("{},SchedulingDisabled", self.ready)
        } else {
            self.ready.clone()
        }
    }
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
    /// kubectl-style age (`5s`, `2m3s`).
    pub age: String,
}

/// Everything the cluster view, the events list and the status bar show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClusterModel {
    /// Node cards, by name.
    pub nodes: Vec<Rc<NodeView>>,
    /// Pods not bound to a node yet.
    pub unscheduled: Vec<PodView>,
    /// Events, newest first (at most [`MAX_EVENTS`]).
    pub events: Vec<EventRow>,
}

/// How many events the list keeps.
pub const MAX_EVENTS: usize = 60;

impl ClusterModel {
    /// Reads the view model from the store at virtual time `now`.
    pub fn from_store(store: &Store, now: chrono::DateTime<chrono::Utc>) -> ClusterModel {
        let revisions = revision_numbers(store.controller_revisions());
        let mut by_node: BTreeMap<String, Vec<PodView>> = BTreeMap::new();
        let mut unscheduled = Vec::new();
        for pod in store.pods() {
            let view = pod_view(pod, &revisions);
            if view.node.is_empty() {
                unscheduled.push(view);
            } else {
                by_node.entry(view.node.clone()).or_default().push(view);
            }
        }
        let mut nodes: Vec<Rc<NodeView>> = store
            .nodes()
            .map(|node| {
                let name = node.metadata.name.clone().unwrap_or_default();
                let pods = by_node.remove(&name).unwrap_or_default();
                Rc::new(node_view(node, pods))
            })
            .collect();
        nodes.sort_by(|a, b| a.name.cmp(&b.name));
        for node in nodes.iter_mut() {
            Rc::make_mut(node)
                .pods
                .sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
        }
        // Pods bound to a node that no longer exists are shown with the unscheduled ones.
        unscheduled.extend(by_node.into_values().flatten());
        unscheduled.sort_by(|a, b| a.name.cmp(&b.name));
        ClusterModel {
            nodes,
            unscheduled,
            events: event_rows(store.events(), now),
        }
    }
}

/// `(namespace, hash)` → (revision number, is the newest revision of its owner).
type Revisions = BTreeMap<(String, String), (i64, bool)>;

fn revision_numbers<'a>(revisions: impl Iterator<Item = &'a ControllerRevision>) -> Revisions {
    let mut newest: BTreeMap<(String, String), i64> = BTreeMap::new();
    let mut all = Vec::new();
    for cr in revisions {
        let namespace = cr.metadata.namespace.clone().unwrap_or_default();
        let owner = cr
            .metadata
            .owner_references
            .as_ref()
            .and_then(|refs| refs.first())
            .map(|r| r.name.clone())
            .unwrap_or_default();
        let hash = cr
            .metadata
            .labels
            .as_ref()
            .and_then(|l| l.get("controller-revision-hash").cloned())
            .or_else(|| {
                let name = cr.metadata.name.as_deref()?;
                name.strip_prefix(&format!("{owner}-")).map(str::to_string)
            })
            .unwrap_or_default();
        let entry = newest
            .entry((namespace.clone(), owner.clone()))
            .or_insert(cr.revision);
        *entry = (*entry).max(cr.revision);
        all.push((namespace, owner, hash, cr.revision));
    }
    all.into_iter()
        .map(|(namespace, owner, hash, revision)| {
            let is_newest = newest.get(&(namespace.clone(), owner)) == Some(&revision);
            ((namespace, hash), (revision, is_newest))
        })
        .collect()
}

fn pod_view(pod: &Pod, revisions: &Revisions) -> PodView {
    let meta = &pod.metadata;
    let name = meta.name.clone().unwrap_or_default();
    let namespace = meta.namespace.clone().unwrap_or_else(|| "default".into());
    let status = pod.status.as_ref();
    let phase = status
        .and_then(|s| s.phase.clone())
        .unwrap_or_else(|| "Pending".into());
    let ready = status
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|c| c.iter().any(|c| c.type_ == "Ready" && c.status == "True"));
    let terminating = meta.deletion_timestamp.is_some();
    let waiting = status
        .and_then(|s| s.container_statuses.as_ref())
        .and_then(|cs| {
            cs.iter()
                .find_map(|c| c.state.as_ref()?.waiting.as_ref()?.reason.clone())
        });
    let status_text = if terminating {
        "Terminating".to_string()
    } else if let Some(reason) = waiting {
        reason
    } else {
        phase.clone()
    };
    let revision = meta
        .labels
        .as_ref()
        .and_then(|l| l.get("controller-revision-hash").cloned())
        .unwrap_or_default();
    let (revision_number, current_revision) = revisions
        .get(&(namespace.clone(), revision.clone()))
        .copied()
        .unwrap_or((0, true));
    let requests = pod
        .spec
        .as_ref()
        .map(|spec| {
            spec.containers.iter().fold((0, 0), |(cpu, memory), c| {
                let get = |key: &str| {
                    c.resources
                        .as_ref()
                        .and_then(|r| r.requests.as_ref())
                        .and_then(|r| r.get(key))
                        .and_then(quantity::milli)
                        .unwrap_or(0)
                };
                (cpu + get("cpu"), memory + get("memory"))
            })
        })
        .unwrap_or((0, 0));
    PodView {
        requests,
        uid: meta
            .uid
            .clone()
            .unwrap_or_else(|| format!("{namespace}/{name}")),
        system: namespace == "kube-system",
        node: pod
            .spec
            .as_ref()
            .and_then(|s| s.node_name.clone())
            .unwrap_or_default(),
        name,
        namespace,
        phase,
        status: status_text,
        ready,
        revision,
        revision_number,
        current_revision,
        terminating,
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
    let status = node.status.as_ref();
    let ready = status
        .and_then(|s| s.conditions.as_ref())
        .and_then(|c| c.iter().find(|c| c.type_ == "Ready"))
        .map(|c| match c.status.as_str() {
            "True" => "Ready",
            "False" => "NotReady",
            _ => "Unknown",
        })
        .unwrap_or("Unknown")
        .to_string();
    let taints = spec
        .and_then(|s| s.taints.as_ref())
        .map(|taints| {
            taints
                .iter()
                .map(|t| match t.value.as_deref() {
                    Some(v) if !v.is_empty() => format!("{}={}:{}", t.key, v, t.effect),
                    _ => format!("{}:{}", t.key, t.effect),
                })
                .collect()
        })
        .unwrap_or_default();
    let allocatable = |key: &str| {
        status
            .and_then(|s| s.allocatable.as_ref())
            .and_then(|a| a.get(key))
            .and_then(quantity::milli)
            .unwrap_or(0)
    };
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
        ready,
        unschedulable: spec.and_then(|s| s.unschedulable).unwrap_or(false),
        labels: labels
            .into_iter()
            .filter(|(k, _)| k != "kubernetes.io/hostname")
            .collect(),
        taints,
        cpu: (cpu, allocatable("cpu")),
        memory: (memory, allocatable("memory")),
        pods_count: (active.len() as i128, allocatable("pods") / 1000),
        pods,
    }
}

fn event_rows<'a>(
    events: impl Iterator<Item = &'a Event>,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<EventRow> {
    // Pick the newest first, then build rows for those only: a long session has thousands of
    // events and the list is rebuilt on every refresh.
    let events: Vec<&Event> = events.collect();
    let mut newest: Vec<(chrono::DateTime<chrono::Utc>, usize)> = events
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let at = e
                .last_timestamp
                .as_ref()
                .map(|t| t.0)
                .or_else(|| e.event_time.as_ref().map(|t| t.0))
                .or_else(|| e.metadata.creation_timestamp.as_ref().map(|t| t.0))
                .unwrap_or(now);
            (at, i)
        })
        .collect();
    newest.sort_by_key(|key| std::cmp::Reverse(*key));
    newest.truncate(MAX_EVENTS);
    newest
        .into_iter()
        .map(|(at, i)| {
            let e = events[i];
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
                age: format_age(now - at),
            }
        })
        .collect()
}

/// Every Warning event as a timeline mark, oldest first: where it first happened (virtual ms
/// since `started`) and `Reason kind/name: message`, so the Timeline shows when things went wrong.
pub fn warning_marks(store: &Store, started: chrono::DateTime<chrono::Utc>) -> Vec<Mark> {
    let mut marks: Vec<Mark> = store
        .events()
        .filter(|e| e.type_.as_deref() == Some("Warning"))
        .filter_map(|e| {
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
        })
        .collect();
    marks.sort_by_key(|m| m.at_ms);
    marks
}

/// One daemon pod of a DaemonSet being rolled out, as the Rollout panel lists it on its node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RolloutPod {
    /// `metadata.name`.
    pub name: String,
    /// The node it is meant for.
    pub node: String,
    /// `labels["controller-revision-hash"]` (empty if none).
    pub revision: String,
    /// Its hash is the DaemonSet's current revision (the template it should run).
    pub new: bool,
    /// The Ready condition is True.
    pub ready: bool,
    /// `metadata.deletionTimestamp` is set.
    pub terminating: bool,
    /// Ready but not yet available: whole seconds left of minReadySeconds (as `sim rollout`
    /// counts them).
    pub available_in: Option<i64>,
}

/// The daemon pods of DaemonSet `namespace/name`, by node then name, with what the Rollout panel
/// shows per node: old or new revision and the minReadySeconds countdown. Empty if there is no
/// such DaemonSet.
pub fn rollout_pods(cluster: &Cluster, namespace: &str, name: &str) -> Vec<RolloutPod> {
    use dsplay_sim::controller::daemonset::{history::current_hash, util};
    let Some(ds) = cluster.store().daemon_set(namespace, name) else {
        return Vec::new();
    };
    let hash = current_hash(cluster, ds).unwrap_or_default();
    let min_ready = ds
        .spec
        .as_ref()
        .and_then(|s| s.min_ready_seconds)
        .unwrap_or(0);
    let now = cluster.now_ms();
    let uid = ds.metadata.uid.clone().unwrap_or_default();
    let mut pods: Vec<RolloutPod> = cluster
        .store()
        .pods_owned_by(&uid)
        .map(|pod| {
            let revision = pod
                .metadata
                .labels
                .as_ref()
                .and_then(|l| l.get("controller-revision-hash").cloned())
                .unwrap_or_default();
            let ready_since = util::ready_since_ms(pod);
            RolloutPod {
                name: pod.metadata.name.clone().unwrap_or_default(),
                node: util::target_node_name(pod).unwrap_or_default(),
                new: !hash.is_empty() && revision == hash,
                revision,
                ready: ready_since.is_some(),
                terminating: pod.metadata.deletion_timestamp.is_some(),
                available_in: ready_since
                    .filter(|_| !util::is_pod_available(pod, min_ready, now))
                    .map(|since| available_in_secs(since, min_ready, now)),
            }
        })
        .collect();
    pods.sort_by(|a, b| (&a.node, &a.name).cmp(&(&b.node, &b.name)));
    pods
}

/// Whole seconds until a pod Ready since `ready_since_ms` becomes available (Ready for more than
/// `min_ready_seconds`), counted like `sim rollout`'s "available in Ns".
pub fn available_in_secs(ready_since_ms: i64, min_ready_seconds: i32, now_ms: i64) -> i64 {
    ((ready_since_ms + i64::from(min_ready_seconds) * 1000 - now_ms) / 1000 + 1).max(1)
}

/// kubectl's short human duration: `0s`, `45s`, `2m3s`, `5m`, `1h2m`, `3d4h`.
pub fn format_age(d: chrono::Duration) -> String {
    let s = d.num_seconds().max(0);
    match s {
        0..=119 => format!("{s}s"),
        120..=599 if s % 60 != 0 => format!("{}m{}s", s / 60, s % 60),
        120..=3599 => format!("{}m", s / 60),
        3600..=28_799 if s % 3600 / 60 != 0 => format!("{}h{}m", s / 3600, s % 3600 / 60),
        3600..=86_399 => format!("{}h", s / 3600),
        _ => format!("{}d{}h", s / 86_400, s % 86_400 / 3600),
    }
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
    use super::*;

    #[test]
    fn ages_read_like_kubectl() {
        let cases = [
            (0, "0s"),
            (45, "45s"),
            (119, "119s"),
            (123, "2m3s"),
            (600, "10m"),
            (3720, "1h2m"),
            (90_000, "1d1h"),
        ];
        for (secs, want) in cases {
            assert_eq!(format_age(chrono::Duration::seconds(secs)), want, "{secs}s");
        }
    }

    #[test]
    fn warning_events_become_timeline_marks() {
        let mut session = dsplay_kubectl::Session::new(dsplay_kubectl::SessionOptions {
            seed: 1,
            empty: false,
        });
        let started = session.cluster().now();
        session.execute("sim image busybox:bad --pull fail");
        session.execute(&crate::demo::apply_command(
            &crate::demo::DEMO_DAEMON_SET.replace("image: busybox", "image: busybox:bad"),
        ));
        session.execute("sim advance 30s");
        let marks = warning_marks(session.cluster().store(), started);
        assert!(
            marks
                .iter()
                .any(|m| m.label.starts_with("Failed pod/demo-")),
            "{marks:?}"
        );
        assert!(marks.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
        assert!(marks.iter().all(|m| (0..=30_000).contains(&m.at_ms)));
    }

    #[test]
    fn the_countdown_reaches_one_second_not_zero() {
        assert_eq!(available_in_secs(0, 10, 3_000), 8);
        assert_eq!(available_in_secs(0, 10, 9_999), 1);
        assert_eq!(available_in_secs(0, 10, 10_000), 1);
    }

    #[test]
    fn rollout_pods_show_old_and_new_revisions_and_the_min_ready_countdown() {
        let mut session = dsplay_kubectl::Session::new(dsplay_kubectl::SessionOptions {
            seed: 1,
            empty: false,
        });
        let manifest =
            crate::demo::DEMO_DAEMON_SET.replacen("spec:\n", "spec:\n  minReadySeconds: 10\n", 1);
        assert_ne!(manifest, crate::demo::DEMO_DAEMON_SET);
        session.execute(&crate::demo::apply_command(&manifest));
        session.execute("sim settle");
        session.execute("kubectl set image ds/demo demo=busybox:new");
        let mut seen = Vec::new();
        for _ in 0..40 {
            session.execute("sim advance 1s");
            let pods = rollout_pods(session.cluster(), "default", "demo");
            if let Some(p) = pods.iter().find(|p| p.new && p.available_in.is_some()) {
                seen.push(p.available_in.unwrap_or_default());
            }
            if pods.iter().any(|p| !p.new) && pods.iter().any(|p| p.new) {
                assert!(pods.windows(2).all(|w| w[0].node <= w[1].node));
            }
        }
        assert!(seen.contains(&10) || seen.contains(&9), "{seen:?}");
        assert!(seen.contains(&1), "{seen:?}");
        let done = rollout_pods(session.cluster(), "default", "demo");
        assert_eq!(done.len(), 2);
        assert!(
            done.iter().all(|p| p.new && p.available_in.is_none()),
            "{done:?}"
        );
        assert!(rollout_pods(session.cluster(), "default", "nope").is_empty());
    }

    #[test]
    fn empty_store_gives_an_empty_model() {
        let session = dsplay_kubectl::Session::new(dsplay_kubectl::SessionOptions {
            seed: 1,
            empty: true,
        });
        let model = ClusterModel::from_store(session.cluster().store(), session.cluster().now());
        assert!(model.nodes.is_empty());
        assert!(model.unscheduled.is_empty());
    }
}
