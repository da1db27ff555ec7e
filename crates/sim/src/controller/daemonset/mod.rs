//! The DaemonSet controller: one sync per DaemonSet, in the order of upstream `syncDaemonSet`.
//! Upstream: pkg/controller/daemon/daemon_controller.go

pub mod history;
pub(crate) mod node_cache;
mod pod_summary;
pub mod update;
pub mod util;

use crate::api_server::{object_reference, DeleteOptions};
use crate::cluster::{Cluster, Timer};
use crate::controller::requeue;
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use node_cache::{Context, DaemonSetCache};
use pod_summary::PodSummary;
use std::collections::BTreeSet;
use std::sync::Arc;
use util::*;

/// At most this many creates, and separately deletes, per sync (`BurstReplicas`).
pub const BURST_REPLICAS: usize = 250;
/// Event source component.
pub const COMPONENT: &str = "daemonset-controller";
const FAILED_POD_BACKOFF_INITIAL_MS: i64 = 1000;
const FAILED_POD_BACKOFF_MAX_MS: i64 = 15 * 60 * 1000;

/// The DaemonSet controller's private state, owned by the cluster (upstream keeps the like in the
/// `DaemonSetsController` struct: its queue, expectations and `failedPodsBackoff`).
#[derive(Clone, Debug, Default)]
pub(crate) struct DaemonSetController {
    /// Per DaemonSet uid: the incremental view of nodes and pods (`node_cache`).
    pub(crate) caches: std::collections::BTreeMap<String, DaemonSetCache>,
    /// Per DaemonSet uid: the watch-log length when its last sync started, or when a pass last
    /// found nothing written that it depends on (see [`SyncPass`]).
    pub(crate) synced_at: std::collections::BTreeMap<String, usize>,
    /// Failed-pod back-off per `<ds uid>/<observedGeneration>/<node>`: (delay ms, not before ms).
    pub(crate) failed_pod_backoff: std::collections::BTreeMap<String, (i64, i64)>,
    /// Set by a `ResyncDaemonSets` timer: the next pass syncs every DaemonSet.
    pub(crate) resync: bool,
    /// Per DaemonSet uid: its syncs that failed to create a pod, in a row.
    pub(crate) requeue: requeue::RequeueBackoff,
}

/// One pass of the DaemonSet controller over every DaemonSet, in namespace/name order, a
/// DaemonSet at a time (a reconcile in parts syncs one per part: after thousands of pods change
/// at one instant, each of kind's DaemonSets reads them all).
///
/// A DaemonSet is skipped when nothing it depends on was written since its last sync started, or
/// since the last pass that found nothing for it (like
/// upstream's work queue, where only DS/pod/node/revision events enqueue it): any node, a pod or
/// ControllerRevision in its namespace, or the DaemonSet itself. Time-dependent decisions
/// (minReadySeconds, failed-pod back-off) arm a `ResyncDaemonSets` timer, which forces a full pass.
/// A sync is a pure function of that state and the clock, so skipping it changes nothing.
#[derive(Clone, Debug)]
pub(crate) struct SyncPass {
    /// The DaemonSets when the pass began.
    keys: std::vec::IntoIter<(String, String)>,
    /// A `ResyncDaemonSets` timer fired: every DaemonSet is synced.
    force: bool,
}

impl SyncPass {
    /// Begins a pass (and forgets the caches and back-offs of DaemonSets that are gone).
    pub(crate) fn start(cluster: &mut Cluster) -> SyncPass {
        let force = std::mem::take(&mut cluster.daemon_sets.resync);
        let keys: Vec<(String, String)> = cluster.store.daemon_sets.keys().cloned().collect();
        // Uids borrowed from the store, and owned copies made only for a sync: this runs every
        // round.
        let store = &cluster.store;
        let live: BTreeSet<&str> = (store.daemon_sets())
            .filter_map(|d| d.metadata.uid.as_deref())
            .collect();
        (cluster.daemon_sets.caches).retain(|uid, _| live.contains(uid.as_str()));
        (cluster.daemon_sets.requeue).retain_live(|uid| live.contains(uid));
        SyncPass {
            keys: keys.into_iter(),
            force,
        }
    }

    /// Syncs the next DaemonSet of the pass if anything it depends on changed; returns whether
    /// the pass is over.
    pub(crate) fn sync_next(&mut self, cluster: &mut Cluster) -> bool {
        let Some((ns, name)) = self.keys.next() else {
            return true;
        };
        let store = &cluster.store;
        let uid = (store.daemon_set(&ns, &name))
            .and_then(|d| d.metadata.uid.as_deref())
            .unwrap_or_default();
        let log_len = store.watch_log().len();
        if !self.force {
            if let Some(since) = cluster.daemon_sets.synced_at.get_mut(uid) {
                let changed =
                    store.watch_log()[(*since).min(log_len)..]
                        .iter()
                        .any(|e| match e.kind {
                            Kind::Node => true,
                            Kind::Pod | Kind::ControllerRevision => e.namespace == ns,
                            Kind::DaemonSet => e.namespace == ns && e.name == name,
                            _ => false,
                        });
                if !changed {
                    // Nothing relevant up to here: the next pass scans only what comes after, so
                    // a DaemonSet that stays untouched costs nothing per write (was a rescan of
                    // every write since its last sync: quadratic in a long advance).
                    *since = log_len;
                    return self.keys.len() == 0;
                }
            }
        }
        let uid = uid.to_string();
        cluster.daemon_sets.synced_at.insert(uid, log_len);
        sync_daemon_set(cluster, &ns, &name);
        self.keys.len() == 0
    }
}

/// `syncDaemonSet`. Creates/deletes are observed at once (no `ControllerExpectations` to wait for,
/// pkg/controller/controller_utils.go), so the
/// update strategy runs in the same sync as manage.
#[doc(alias = "syncDaemonSet")]
pub(crate) fn sync_daemon_set(cluster: &mut Cluster, ns: &str, name: &str) {
    let Some(ds) = cluster.store.daemon_set_handle(ns, name).cloned() else {
        return;
    };
    let Some(spec) = ds.spec.as_ref() else { return };
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
    let on_delete = spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.type_.as_deref())
        == Some("OnDelete");
    let uid = ds.metadata.uid.clone().unwrap_or_default();
    let mut cache = cluster.daemon_sets.caches.remove(&uid).unwrap_or_default();
    // constructHistory and cleanupHistory change nothing while the template and the revisions
    // stay as they were when both last finished with nothing left to do.
    // While that holds, the sync skips both (cleanupHistory found nothing to do then, and what it
    // reads has not moved since).
    let history_key = history::HistoryKey::of(cluster, &ds);
    let (ds, hash, history_done) = match cache.history.take().filter(|(key, _)| *key == history_key)
    {
        Some((_, hash)) => (ds, hash, true),
        None => match history::construct_history(cluster, &ds) {
            Some((ds, hash)) => (Arc::new(ds), hash, false),
            None => return,
        },
    };
    let selector = cache.parsed_selector(&ds);
    let cx = Context::new(&ds, &hash, cluster.now_ms, selector);
    // Each refresh observes the writes of the step before it (creates/deletes are seen at once).
    cache.refresh(cluster, &cx);
    let mut refused = manage(cluster, &mut cache, &cx);
    cache.refresh(cluster, &cx);
    if !on_delete {
        refused |= update::rolling_update(cluster, &cache, &cx);
    }
    // `syncDaemonSet` returns syncNodes' create errors and the sync is queued again after a
    // back-off; a sync without them resets it.
    let backoff: requeue::Backoff = |c| &mut c.daemon_sets.requeue;
    requeue::after_sync(cluster, backoff, &uid, refused, Timer::ResyncDaemonSets);
    if history_done || history::cleanup_history(cluster, &ds) {
        cache.history = Some((history::HistoryKey::of(cluster, &ds), hash.clone()));
    }
    cache.refresh(cluster, &cx);
    let status = update_status(cluster, &cache, &cx);
    #[cfg(feature = "cache-oracle")]
    cache.assert_matches_rebuild(cluster, &cx);
    cluster.daemon_sets.caches.insert(uid, cache);
    // The sync's handle goes first, so the status write changes the stored DaemonSet in place.
    drop(ds);
    if let Some(status) = status {
        let now = cluster.now_ms;
        cluster.store.modify_daemon_set(ns, name, now, |ds| {
            ds.status = Some(status);
        });
    }
}

fn surge_enabled(ds: &DaemonSet) -> bool {
    update::max_surge(ds, 1) > 0
}

/// `manage`: decide per node (`podsShouldBeOnNode`), then act (`syncNodes`). Only nodes that changed
/// since the last look, or where it decided to act (or to wait for a back-off) last time, can have
/// a decision, so only those are examined.
fn manage(cluster: &mut Cluster, cache: &mut DaemonSetCache, cx: &Context) -> Refused {
    let work = cache.take_manage_work();
    let mut nodes_needing_pods = Vec::new();
    let mut pods_to_delete: Vec<String> = Vec::new();
    let mut pending = BTreeSet::new();
    // Unscheduled pods whose target node no longer exists (deleted after the others).
    let mut orphans = Vec::new();
    for name in &work {
        let Some(entry) = cache.entries.get(name) else {
            continue;
        };
        // The placement is known exactly while the node exists.
        let Some(placement) = entry.placement else {
            for pod in entry.pods.iter().filter(|p| p.is_unscheduled_and_live()) {
                orphans.push(pod.name.clone());
                pending.insert(name.clone());
            }
            continue;
        };
        let decision = pods_should_be_on_node(cluster, name, placement, &entry.pods, cx);
        if decision.create {
            nodes_needing_pods.push(name.clone());
        }
        if decision.create || decision.waiting || !decision.delete.is_empty() {
            pending.insert(name.clone());
        }
        pods_to_delete.extend(decision.delete);
    }
    pods_to_delete.extend(orphans);
    cache.manage_pending = pending;
    sync_nodes(
        cluster,
        cx.ds,
        &pods_to_delete,
        &nodes_needing_pods,
        cx.hash,
    )
}

/// What `podsShouldBeOnNode` decided for one node.
struct NodeDecision {
    /// Create a daemon pod here.
    create: bool,
    /// Delete these pods (by name, in the DaemonSet's namespace).
    delete: Vec<String>,
    /// A failed pod waits for its back-off to pass (look again on the next sync).
    waiting: bool,
}

/// `podsShouldBeOnNode`.
#[doc(alias = "podsShouldBeOnNode")]
fn pods_should_be_on_node(
    cluster: &mut Cluster,
    node_name: &str,
    placement: Placement,
    pods: &[PodSummary],
    cx: &Context,
) -> NodeDecision {
    let ds = cx.ds;
    let mut decision = NodeDecision {
        create: false,
        delete: Vec::new(),
        waiting: false,
    };
    if pods.is_empty() {
        decision.create = placement.should_run;
        return decision;
    }
    if !placement.should_continue_running {
        decision.delete.extend(
            pods.iter()
                .filter(|p| !p.terminating)
                .map(|p| p.name.clone()),
        );
        return decision;
    }
    let namespace = ds.metadata.namespace.as_deref().unwrap_or_default();
    let mut running: Vec<&PodSummary> = Vec::new();
    for pod in pods {
        if pod.terminating {
            continue;
        }
        match pod.phase.as_str() {
            "Failed" => {
                if failed_pod_backoff_passed(cluster, node_name, cx.ds) {
                    let msg = format!(
                        "Found failed daemon pod {}/{} on node {}, will try to kill it",
                        namespace, pod.name, node_name
                    );
                    cluster.record_event(
                        &object_reference(Kind::DaemonSet, &ds.metadata),
                        "Warning",
                        "FailedDaemonPod",
                        &msg,
                        COMPONENT,
                        None,
                    );
                    decision.delete.push(pod.name.clone());
                } else {
                    decision.waiting = true;
                }
            }
            "Succeeded" => {
                let msg = format!(
                    "Found succeeded daemon pod {}/{} on node {}, will try to delete it",
                    namespace, pod.name, node_name
                );
                cluster.record_event(
                    &object_reference(Kind::DaemonSet, &ds.metadata),
                    "Normal",
                    "SucceededDaemonPod",
                    &msg,
                    COMPONENT,
                    None,
                );
                decision.delete.push(pod.name.clone());
            }
            _ => running.push(pod),
        }
    }
    running.sort_by(|a, b| pod_summary::oldest_first(a, b));
    let name = |p: &&PodSummary| p.name.clone();
    if !surge_enabled(ds) {
        // Duplicates: keep the oldest.
        decision.delete.extend(running.iter().skip(1).map(name));
        return decision;
    }
    if running.is_empty() {
        decision.create = placement.should_run;
    } else if running.len() > 1 {
        let (new_pods, old_pods): (Vec<&PodSummary>, Vec<&PodSummary>) =
            running.into_iter().partition(|p| cx.is_updated(p));
        // Keep the oldest new and the oldest old pod; the old one goes once the new one is
        // available (or at once when the old one is not ready).
        decision.delete.extend(new_pods.iter().skip(1).map(name));
        decision.delete.extend(old_pods.iter().skip(1).map(name));
        if let (Some(new), Some(old)) = (new_pods.first(), old_pods.first()) {
            if !old.is_ready() || cx.is_available(new) {
                decision.delete.push(old.name.clone());
            }
        }
    }
    decision
}

/// The failed-pod back-off per DaemonSet generation and node (upstream's `failedPodsBackoff`):
/// returns true when the failed pod may be killed now (and doubles the next delay); false while the
/// back-off runs (a resync is armed for when it ends).
fn failed_pod_backoff_passed(cluster: &mut Cluster, node_name: &str, ds: &DaemonSet) -> bool {
    let key = format!(
        "{}/{}/{}",
        ds.metadata.uid.as_deref().unwrap_or_default(),
        ds.status
            .as_ref()
            .and_then(|s| s.observed_generation)
            .unwrap_or(0),
        node_name
    );
    let now = cluster.now_ms;
    let next = match cluster.daemon_sets.failed_pod_backoff.get(&key).copied() {
        Some((_, not_before)) if now < not_before => {
            cluster.schedule_at_unless_due(not_before, Timer::ResyncDaemonSets);
            return false;
        }
        Some((delay, _)) => (delay * 2).min(FAILED_POD_BACKOFF_MAX_MS),
        None => FAILED_POD_BACKOFF_INITIAL_MS,
    };
    cluster
        .daemon_sets
        .failed_pod_backoff
        .insert(key, (next, now + next));
    true
}

/// The DaemonSet's template generation (from the annotation the API server keeps).
pub(crate) fn template_generation(ds: &DaemonSet) -> Option<String> {
    ds.metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(crate::api_server::TEMPLATE_GENERATION_ANNOTATION))
        .cloned()
}

/// Whether the API server refused a create that a later sync may get through
/// ([`requeue::retries`]).
pub(crate) type Refused = bool;

/// `syncNodes`: delete and create (capped at `BURST_REPLICAS` each), with events. The pods to
/// delete are named in the DaemonSet's namespace.
#[doc(alias = "syncNodes")]
pub(crate) fn sync_nodes(
    cluster: &mut Cluster,
    ds: &DaemonSet,
    pods_to_delete: &[String],
    nodes_needing_pods: &[String],
    hash: &str,
) -> Refused {
    if pods_to_delete.is_empty() && nodes_needing_pods.is_empty() {
        return false;
    }
    let reference = object_reference(Kind::DaemonSet, &ds.metadata);
    let template_generation = template_generation(ds);
    let mut refused = false;
    for node in nodes_needing_pods.iter().take(BURST_REPLICAS) {
        let pod = new_daemon_pod(ds, node, hash, template_generation.as_deref());
        match cluster.create_internal(Object::Pod(pod)) {
            Ok(name) => cluster.record_event(
                &reference,
                "Normal",
                "SuccessfulCreate",
                &["Created pod: ", &name].concat(),
                COMPONENT,
                None,
            ),
            Err(err) => {
                refused |= requeue::retries(&err);
                cluster.record_event(
                    &reference,
                    "Warning",
                    "FailedCreate",
                    &format!("Error creating: {}", err.server_message()),
                    COMPONENT,
                    None,
                )
            }
        }
    }
    let ns = ds.metadata.namespace.as_deref().unwrap_or_default();
    for name in pods_to_delete.iter().take(BURST_REPLICAS) {
        let Some(current) = cluster.store.pod(ns, name) else {
            continue;
        };
        if current.metadata.deletion_timestamp.is_some() {
            continue;
        }
        cluster.delete_stored_pod(ns, name, DeleteOptions::default().grace_period_seconds);
        cluster.record_event(
            &reference,
            "Normal",
            "SuccessfulDelete",
            &["Deleted pod: ", name].concat(),
            COMPONENT,
            None,
        );
    }
    refused
}

/// `updateDaemonSetStatus`: the status counters (summed per node by the cache), returned to be
/// written only when they changed; requeues for the next pod to pass minReadySeconds
/// (`enqueueDaemonSetAfter`).
///
/// Upstream: pkg/controller/daemon/daemon_controller.go updateDaemonSetStatus, storeDaemonSetStatus.
#[doc(alias = "updateDaemonSetStatus")]
fn update_status(
    cluster: &mut Cluster,
    cache: &DaemonSetCache,
    cx: &Context,
) -> Option<DaemonSetStatus> {
    if let Some(due) = cache.next_requeue() {
        cluster.schedule_at_unless_due(due, Timer::ResyncDaemonSets);
    }
    let c = cache.status;
    let ds = cx.ds;
    let stored = cluster.store.daemon_set(
        ds.metadata.namespace.as_deref().unwrap_or(""),
        ds.metadata.name.as_deref().unwrap_or(""),
    )?;
    let old = stored.status.clone().unwrap_or_default();
    let status = DaemonSetStatus {
        desired_number_scheduled: c.desired,
        current_number_scheduled: c.current,
        number_misscheduled: c.misscheduled,
        number_ready: c.ready,
        number_available: (c.available > 0).then_some(c.available),
        updated_number_scheduled: (c.updated > 0).then_some(c.updated),
        number_unavailable: (c.desired - c.available > 0).then_some(c.desired - c.available),
        observed_generation: stored.metadata.generation,
        collision_count: old.collision_count,
        conditions: old.conditions.clone(),
    };
    (status != old).then_some(status)
}

#[cfg(test)]
mod tests {
    use crate::cluster::Cluster;
    use crate::images::ImageBehavior;
    use dsplay_api::manifest::parse_manifests;
    use std::time::Duration;

    /// A crash-looping DaemonSet writes pods for ever; the untouched kube-system DaemonSets must not
    /// rescan those writes on every pass (that made a long advance quadratic in its events).
    #[test]
    fn untouched_daemon_sets_do_not_rescan_the_watch_log() {
        let mut cluster = Cluster::new(1);
        let crash = ImageBehavior {
            crash: true,
            ..ImageBehavior::default()
        };
        cluster.set_image_behavior("busybox:crash", crash);
        let manifest = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: crash}\nspec:\n  selector: {matchLabels: {app: crash}}\n  template:\n    metadata: {labels: {app: crash}}\n    spec: {containers: [{name: c, image: 'busybox:crash'}]}\n";
        let ds = parse_manifests(manifest)
            .remove(0)
            .expect("manifest")
            .object;
        cluster.create(ds).expect("create");
        cluster.advance(Duration::from_secs(3600));
        let log_len = cluster.store.watch_log().len();
        assert_eq!(cluster.daemon_sets.synced_at.len(), 3);
        for (uid, since) in &cluster.daemon_sets.synced_at {
            assert_eq!(*since, log_len, "DaemonSet {uid} will rescan the watch log");
        }
    }
}
