//! The DaemonSet controller's memory between syncs: per node, the placement verdict and the daemon
//! pods (`getNodesToDaemonPods`), and the per-node verdicts that `updateDaemonSetStatus` and
//! `rollingUpdate` add up — all maintained from the watch log, so a sync touches only the nodes
//! whose node object or pods changed.
//!
//! Upstream recomputes everything from the informer caches on every sync (O(nodes)); at 5 000 nodes a
//! rolling update makes tens of thousands of syncs, so that would be quadratic. The results here are
//! the same as recomputing: every verdict is a pure function of (node, its pods, the DaemonSet, the
//! current hash, the clock), it is recomputed whenever one of those changes, and time-dependent
//! verdicts (minReadySeconds) are recomputed at the instant they flip. With the `cache-oracle` feature
//! (every test build) each sync checks this against a cache rebuilt from scratch
//! (`assert_matches_rebuild`).

use super::pod_summary::{oldest_first, PodSummary};
use super::template_generation;
use super::update::{classify, NodeRollout};
use super::util::*;
use crate::cluster::Cluster;
use crate::lookup_map::LookupMap;
use dsplay_api::types::*;
use dsplay_api::{selector, Kind, Object};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// What a cache was computed for; when any of it changes the cache is rebuilt.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Basis {
    /// The DaemonSet's spec generation (spec changes: template, strategy, minReadySeconds, ...).
    /// Not its `status.observedGeneration`: no verdict reads it (the failed-pod back-off does, in
    /// `manage`, which looks again at every node it left waiting), and the status write after a
    /// spec change rebuilt every node's entry a second time.
    generation: Option<i64>,
    /// The current revision hash.
    hash: String,
    /// The `deprecated.daemonset.template.generation` annotation.
    template_generation: Option<String>,
}

/// One node's contribution to `DaemonSetStatus` (`updateDaemonSetStatus` per node).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct StatusCounts {
    /// desiredNumberScheduled.
    pub desired: i32,
    /// currentNumberScheduled.
    pub current: i32,
    /// numberMisscheduled.
    pub misscheduled: i32,
    /// numberReady.
    pub ready: i32,
    /// numberAvailable.
    pub available: i32,
    /// updatedNumberScheduled.
    pub updated: i32,
}

impl StatusCounts {
    fn add(&mut self, other: &StatusCounts, sign: i32) {
        self.desired += sign * other.desired;
        self.current += sign * other.current;
        self.misscheduled += sign * other.misscheduled;
        self.ready += sign * other.ready;
        self.available += sign * other.available;
        self.updated += sign * other.updated;
    }
}

/// Everything a sync needs to know about one node, at the instant it was computed.
#[derive(Clone, Debug, Default, PartialEq)]
struct Verdict {
    status: StatusCounts,
    /// When a pod that turned Ready passes minReadySeconds: upstream enqueues the DaemonSet then
    /// (minReadySeconds + 1s after the pod turned Ready), so status and a surge rollout move on.
    requeue_at: Option<i64>,
    /// The node's part in `rollingUpdate`.
    rollout: NodeRollout,
    /// The next instant any pod here changes availability (minReadySeconds passing).
    flips_at: Option<i64>,
}

/// A node of the cache: the node (None once deleted), its placement, its daemon pods by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct NodeEntry {
    /// The node object, while it exists.
    pub node: Option<Arc<Node>>,
    /// `NodeShouldRunDaemonPod` for it (both false while the node does not exist).
    pub placement: Option<Placement>,
    /// The DaemonSet's pods targeting this node, in name order.
    pub pods: Vec<PodSummary>,
    verdict: Verdict,
}

/// The node names of each `rollingUpdate` class, in node order, plus the counters.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct RolloutTally {
    /// maxSurge = 0: nodes counted as unavailable.
    pub num_unavailable: i32,
    /// maxSurge = 0: old pods already unavailable, replaced regardless of the budget.
    pub allowed_replacement: BTreeSet<String>,
    /// maxSurge = 0: available old pods, replaced within the budget.
    pub candidates: BTreeSet<String>,
    /// maxSurge > 0: nodes using surge.
    pub num_surge: i32,
    /// maxSurge > 0: nodes whose pod is available.
    pub num_available: i32,
    /// maxSurge > 0: old pods to delete now.
    pub to_delete: BTreeSet<String>,
    /// maxSurge > 0: nodes that get a new pod regardless of the budget.
    pub allowed_new_nodes: BTreeSet<String>,
    /// maxSurge > 0: nodes that get a new pod within the budget.
    pub candidate_new_nodes: BTreeSet<String>,
    /// maxSurge > 0: available pods on nodes that should not run one.
    pub should_not_run: BTreeSet<String>,
}

/// The cache of one DaemonSet.
#[derive(Clone, Debug, Default)]
pub(crate) struct DaemonSetCache {
    /// How far into the watch log this cache has read.
    cursor: usize,
    basis: Basis,
    /// Every existing node, plus deleted nodes that still have pods.
    pub entries: LookupMap<String, NodeEntry>,
    /// Pod name → the node it is filed under.
    pod_nodes: LookupMap<String, String>,
    /// Nodes changed since `manage` last looked at them (`take_manage_work` drains it).
    changed_for_manage: BTreeSet<String>,
    /// Nodes where `manage` decided to act last time (re-examined until it decides nothing).
    pub manage_pending: BTreeSet<String>,
    /// (instant, node): when a node's verdict changes with the clock alone.
    flips: BTreeSet<(i64, String)>,
    /// (instant, node): the minReadySeconds requeues.
    requeues: BTreeSet<(i64, String)>,
    /// The sum of every node's status counts.
    pub status: StatusCounts,
    /// The `rollingUpdate` classes.
    pub rollout: RolloutTally,
    /// When history needed no work last time: the key it was checked at and the current hash.
    pub history: Option<(super::history::HistoryKey, String)>,
    /// `spec.selector` as last parsed, and what it was parsed from (parsed once, not every sync).
    selector: Option<(LabelSelector, Arc<selector::Selector>)>,
}

/// The inputs every verdict depends on besides the node and its pods.
pub(crate) struct Context<'a> {
    /// The DaemonSet.
    pub ds: &'a DaemonSet,
    /// The current revision hash.
    pub hash: &'a str,
    /// The template generation annotation.
    pub template_generation: Option<String>,
    /// `spec.minReadySeconds`.
    pub min_ready: i32,
    /// The clock.
    pub now: i64,
    /// What the cache is computed for (see [`Basis`]).
    basis: Basis,
    /// The DaemonSet's namespace and uid, and its selector (`ClaimPods`).
    namespace: String,
    uid: String,
    selector: Arc<selector::Selector>,
}

impl<'a> Context<'a> {
    /// The context of a sync of `ds` at `now`; `selector` is the parsed `spec.selector`
    /// ([`DaemonSetCache::parsed_selector`]).
    pub fn new(
        ds: &'a DaemonSet,
        hash: &'a str,
        now: i64,
        selector: Arc<selector::Selector>,
    ) -> Context<'a> {
        let template_generation = template_generation(ds);
        Context {
            ds,
            hash,
            basis: Basis {
                generation: ds.metadata.generation,
                hash: hash.to_string(),
                template_generation: template_generation.clone(),
            },
            template_generation,
            min_ready: ds
                .spec
                .as_ref()
                .and_then(|s| s.min_ready_seconds)
                .unwrap_or(0),
            now,
            namespace: ds.metadata.namespace.clone().unwrap_or_default(),
            uid: ds.metadata.uid.clone().unwrap_or_default(),
            selector,
        }
    }

    /// Whether the pod runs the current template (`IsPodUpdated`).
    pub fn is_updated(&self, pod: &PodSummary) -> bool {
        pod.is_updated(self.hash, self.template_generation.as_deref())
    }

    /// `IsPodAvailable` now.
    #[doc(alias = "IsPodAvailable")]
    pub fn is_available(&self, pod: &PodSummary) -> bool {
        pod.is_available(self.min_ready, self.now)
    }
}

/// How a pod relates to the DaemonSet (`ClaimPods`: adopt matching orphans, release mismatches).
enum Claim {
    Owned,
    Adopt,
    Release,
    NotOurs,
}

fn claim(pod: &Pod, uid: &str, sel: &selector::Selector) -> Claim {
    let empty = BTreeMap::new();
    let labels = pod.metadata.labels.as_ref().unwrap_or(&empty);
    let controller = pod
        .metadata
        .owner_references
        .iter()
        .flatten()
        .find(|r| r.controller == Some(true));
    match controller {
        Some(r) if r.uid == uid => {
            if sel.matches(labels) {
                Claim::Owned
            } else {
                Claim::Release
            }
        }
        Some(_) => Claim::NotOurs,
        None if sel.matches(labels) && pod.metadata.deletion_timestamp.is_none() => Claim::Adopt,
        None => Claim::NotOurs,
    }
}

/// Writes the adoption or release of a pod; returns whether the pod is now the DaemonSet's.
fn apply_claim(cluster: &mut Cluster, ds: &DaemonSet, pod: &Pod, uid: &str, claim: Claim) -> bool {
    match claim {
        Claim::Owned => true,
        Claim::NotOurs => false,
        Claim::Release => {
            let mut pod = pod.clone();
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
            false
        }
        Claim::Adopt => {
            let mut pod = pod.clone();
            pod.metadata
                .owner_references
                .get_or_insert_with(Vec::new)
                .push(OwnerReference {
                    api_version: "apps/v1".into(),
                    kind: "DaemonSet".into(),
                    name: ds.metadata.name.clone().unwrap_or_default(),
                    uid: uid.to_string(),
                    controller: Some(true),
                    block_owner_deletion: Some(true),
                });
            cluster.write(Object::Pod(pod));
            true
        }
    }
}

fn ds_selector(ds: &DaemonSet) -> selector::Selector {
    selector::from_label_selector(ds.spec.as_ref().map(|s| &s.selector)).unwrap_or(
        selector::Selector {
            requirements: vec![],
            nothing: true,
        },
    )
}

/// The node a pod is filed under, if the sync should see it at all: terminal pods that are being
/// deleted are left out (v1.30+).
fn filed_node(pod: &Pod) -> Option<String> {
    let terminal = matches!(phase(pod), "Succeeded" | "Failed");
    if terminal && pod.metadata.deletion_timestamp.is_some() {
        return None;
    }
    target_node_name(pod).map(str::to_string)
}

impl DaemonSetCache {
    /// The DaemonSet's selector, parsed again only when `spec.selector` differs from the one
    /// parsed last time.
    pub fn parsed_selector(&mut self, ds: &DaemonSet) -> Arc<selector::Selector> {
        let wanted = ds.spec.as_ref().map(|s| &s.selector);
        match &self.selector {
            Some((parsed_from, parsed)) if Some(parsed_from) == wanted => parsed.clone(),
            _ => {
                let parsed = Arc::new(ds_selector(ds));
                self.selector = wanted.map(|w| (w.clone(), parsed.clone()));
                parsed
            }
        }
    }

    /// Brings the cache up to date with the store and the clock: rebuilds it when the DaemonSet (or
    /// the hash) changed, else reads the watch log since the last refresh; then recomputes the nodes
    /// that changed or whose verdict flips with time. Adopts and releases pods on the way, like
    /// `getNodesToDaemonPods`.
    pub fn refresh(&mut self, cluster: &mut Cluster, cx: &Context) {
        let ns = &cx.namespace;
        // Nodes whose node object was written (their handle is looked up again), and nodes whose
        // pods changed or whose verdict flips with the clock (the entry's handle is current: a
        // node write would have put it in the first set).
        let mut written_nodes = BTreeSet::new();
        let mut changed_nodes = BTreeSet::new();
        let mut changed_pods = BTreeSet::new();
        if self.basis != cx.basis || self.cursor == 0 {
            *self = DaemonSetCache {
                basis: cx.basis.clone(),
                history: self.history.take(),
                selector: self.selector.take(),
                ..Default::default()
            };
            // Collected from the store's name order, so the sets (and the entries of every node)
            // are built in one pass instead of one B-tree insert per name.
            written_nodes = (cluster.store.node_handles())
                .filter_map(|n| n.metadata.name.clone())
                .collect();
            changed_pods = (cluster.store.pod_handles_in(ns))
                .filter_map(|p| p.metadata.name.clone())
                .collect();
            self.entries = (written_nodes.iter())
                .map(|name| (name.clone(), NodeEntry::default()))
                .collect();
        } else {
            for event in
                &cluster.store.watch_log()[self.cursor.min(cluster.store.watch_log().len())..]
            {
                match event.kind {
                    Kind::Node => {
                        written_nodes.insert(event.name.clone());
                    }
                    Kind::Pod if event.namespace == *ns => {
                        changed_pods.insert(event.name.clone());
                    }
                    _ => {}
                }
            }
        }
        for name in changed_pods {
            let filed = filing(cluster, cx, &name);
            match (self.pod_nodes.get(&name), filed) {
                // Still filed under the same node (most writes): the summary is replaced in place.
                (Some(old), Some((node, pod))) if *old == node => {
                    if let Some(entry) = self.entries.get_mut(&node) {
                        file_pod(&mut entry.pods, pod);
                    }
                    changed_nodes.insert(node);
                }
                (_, filed) => {
                    if let Some(node) = self.pod_nodes.remove(&name) {
                        if let Some(entry) = self.entries.get_mut(&node) {
                            entry.pods.retain(|p| p.name != name);
                        }
                        changed_nodes.insert(node);
                    }
                    if let Some((node, pod)) = filed {
                        let pods = match self.entries.get_mut(&node) {
                            Some(entry) => &mut entry.pods,
                            None => &mut self.entries.get_or_default(node.clone()).pods,
                        };
                        file_pod(pods, pod);
                        self.pod_nodes.insert(name, node.clone());
                        changed_nodes.insert(node);
                    }
                }
            }
        }
        self.cursor = cluster.store.watch_log().len();
        while let Some((at, node)) = self.flips.first().cloned() {
            if at > cx.now {
                break;
            }
            self.flips.remove(&(at, node.clone()));
            changed_nodes.insert(node);
        }
        for name in written_nodes.union(&changed_nodes) {
            let node = match written_nodes.contains(name) {
                true => cluster.store.node_handle(name).cloned(),
                false => self.entries.get(name).and_then(|e| e.node.clone()),
            };
            self.update_node(name, node, cx);
        }
        let changed = written_nodes.union(&changed_nodes).cloned();
        match self.changed_for_manage.is_empty() {
            true => self.changed_for_manage = changed.collect(),
            false => self.changed_for_manage.extend(changed),
        }
    }

    /// Recomputes one node's placement and verdict, moving its contribution in the tallies (only
    /// when the verdict changed: most pod writes leave it as it was).
    fn update_node(&mut self, name: &str, node: Option<Arc<Node>>, cx: &Context) {
        let entry = match self.entries.get_mut(name) {
            Some(entry) => entry,
            None if node.is_none() => return,
            None => self.entries.get_or_default(name.to_string()),
        };
        if node.is_none() && entry.pods.is_empty() {
            let old = std::mem::take(&mut entry.verdict);
            self.entries.remove(name);
            self.retally(name, &old, &Verdict::default());
            return;
        }
        // The placement is a function of the node and the DaemonSet's spec (the cache is rebuilt
        // when that changes): the same node object keeps it.
        let same_node = match (&entry.node, &node) {
            (Some(old), Some(new)) => Arc::ptr_eq(old, new),
            _ => false,
        };
        if !same_node || entry.placement.is_none() {
            entry.placement = node.as_ref().map(|n| node_should_run_daemon_pod(n, cx.ds));
        }
        entry.node = node;
        let new = verdict(entry, cx);
        if new != entry.verdict {
            let old = std::mem::replace(&mut entry.verdict, new.clone());
            self.retally(name, &old, &new);
        }
    }

    /// Moves one node's contribution to the tallies and sets from verdict `old` to `new` (a node
    /// that comes or goes has the default verdict, which counts nothing), touching only the sets
    /// whose membership changes: a pod write that moves a node from one class to another leaves
    /// the other classes' B-trees alone.
    fn retally(&mut self, name: &str, old: &Verdict, new: &Verdict) {
        self.status.add(&old.status, -1);
        self.status.add(&new.status, 1);
        for (set, was, now) in [
            (&mut self.requeues, old.requeue_at, new.requeue_at),
            (&mut self.flips, old.flips_at, new.flips_at),
        ] {
            if was != now {
                if let Some(at) = was {
                    set.remove(&(at, name.to_string()));
                }
                if let Some(at) = now {
                    set.insert((at, name.to_string()));
                }
            }
        }
        let (o, n) = (&old.rollout, &new.rollout);
        let t = &mut self.rollout;
        let change = |was: bool, now: bool| i32::from(now) - i32::from(was);
        t.num_unavailable += change(o.zero_surge_unavailable, n.zero_surge_unavailable);
        t.num_surge += change(o.uses_surge, n.uses_surge);
        t.num_available += change(o.surge_available, n.surge_available);
        for (set, was, now) in [
            (
                &mut t.allowed_replacement,
                o.allowed_replacement,
                n.allowed_replacement,
            ),
            (&mut t.candidates, o.candidate, n.candidate),
            (&mut t.to_delete, o.to_delete, n.to_delete),
            (
                &mut t.allowed_new_nodes,
                o.allowed_new_node,
                n.allowed_new_node,
            ),
            (
                &mut t.candidate_new_nodes,
                o.candidate_new_node,
                n.candidate_new_node,
            ),
            (&mut t.should_not_run, o.should_not_run, n.should_not_run),
        ] {
            match (was, now) {
                (false, true) => {
                    set.insert(name.to_string());
                }
                (true, false) => {
                    set.remove(name);
                }
                _ => {}
            }
        }
    }

    /// The nodes `manage` must look at: changed ones and those it acted on last time, in order.
    pub fn take_manage_work(&mut self) -> BTreeSet<String> {
        let mut work = std::mem::take(&mut self.changed_for_manage);
        work.extend(std::mem::take(&mut self.manage_pending));
        work
    }

    /// The earliest minReadySeconds requeue, if any pod is Ready but not yet available.
    pub fn next_requeue(&self) -> Option<i64> {
        self.requeues.first().map(|(at, _)| *at)
    }

    /// The name of the live (not terminating) pod of a node that `rollingUpdate` classified as old.
    pub fn old_pod(&self, node: &str, cx: &Context) -> Option<String> {
        let pods = &self.entries.get(node)?.pods;
        pods.iter()
            .find(|p| !p.terminating && !cx.is_updated(p))
            .map(|p| p.name.clone())
    }

    /// Test builds (`cache-oracle`): the incremental cache equals one rebuilt from the store.
    #[cfg(feature = "cache-oracle")]
    pub fn assert_matches_rebuild(&self, cluster: &Cluster, cx: &Context) {
        let mut fresh = DaemonSetCache::default();
        for pod in cluster.store.pod_handles_in(&cx.namespace) {
            if matches!(claim(pod, &cx.uid, &cx.selector), Claim::Owned) {
                if let Some(node) = filed_node(pod) {
                    let pods = &mut fresh.entries.get_or_default(node).pods;
                    pods.push(PodSummary::of(pod));
                }
            }
        }
        let names: BTreeSet<String> = cluster
            .store
            .node_handles()
            .filter_map(|n| n.metadata.name.clone())
            .chain(
                fresh
                    .entries
                    .sorted()
                    .into_iter()
                    .map(|(name, _)| name.clone()),
            )
            .collect();
        for name in names {
            fresh.update_node(&name, cluster.store.node_handle(&name).cloned(), cx);
        }
        assert_eq!(
            self.entries, fresh.entries,
            "DaemonSet cache entries diverged"
        );
        assert_eq!(self.status, fresh.status, "DaemonSet cache status diverged");
        assert_eq!(
            self.rollout, fresh.rollout,
            "DaemonSet cache rollout diverged"
        );
        assert_eq!(self.requeues, fresh.requeues);
    }
}

/// How a written pod is filed now, if the DaemonSet owns it: its node and its summary. Adopts or
/// releases it first, like `ClaimPods` (then the stored version is filed).
fn filing(cluster: &mut Cluster, cx: &Context, name: &str) -> Option<(String, PodSummary)> {
    let (ns, uid) = (cx.namespace.as_str(), cx.uid.as_str());
    let pod = cluster.store.pod(ns, name)?;
    let filed = |pod: &Pod| filed_node(pod).map(|node| (node, PodSummary::of(pod)));
    match claim(pod, uid, &cx.selector) {
        Claim::Owned => filed(pod),
        // Another DaemonSet's pod in the same namespace (kind's kube-proxy and kindnet): nothing
        // to write, so no copy to write from.
        Claim::NotOurs => None,
        other => {
            let pod = pod.clone();
            if !apply_claim(cluster, cx.ds, &pod, uid, other) {
                return None;
            }
            cluster.store.pod(ns, name).and_then(filed)
        }
    }
}

/// Puts a pod's summary in a node's list, in name order, in place of the one of the same name.
fn file_pod(pods: &mut Vec<PodSummary>, pod: PodSummary) {
    match pods.binary_search_by(|p| p.name.cmp(&pod.name)) {
        Ok(at) => pods[at] = pod,
        Err(at) => pods.insert(at, pod),
    }
}

/// One node's verdict now: its status counts (`updateDaemonSetStatus`), its `rollingUpdate` class
/// and when the clock alone would change either.
fn verdict(entry: &NodeEntry, cx: &Context) -> Verdict {
    let mut v = Verdict::default();
    let Some(placement) = entry.placement else {
        // A deleted node: its pods only matter to `manage`.
        return v;
    };
    let pods = &entry.pods;
    if placement.should_run {
        v.status.desired = 1;
        if let Some(oldest) = pods.iter().min_by(|a, b| oldest_first(a, b)) {
            v.status.current = 1;
            if oldest.is_ready() {
                v.status.ready = 1;
                v.status.available = i32::from(cx.is_available(oldest));
            }
            v.status.updated = i32::from(cx.is_updated(oldest));
        }
    } else if !pods.is_empty() {
        v.status.misscheduled = 1;
    }
    if !pods.is_empty() || placement.should_run {
        v.rollout = classify(pods, placement.should_run, cx);
    }
    v.requeue_at = pods
        .iter()
        .filter(|p| !cx.is_available(p))
        .filter_map(|p| p.ready_since_ms)
        .map(|since| since + i64::from(cx.min_ready) * 1000 + 1000)
        .min();
    if cx.min_ready > 0 {
        v.flips_at = pods
            .iter()
            .filter_map(|p| p.ready_since_ms)
            .map(|since| since + i64::from(cx.min_ready) * 1000 + 1)
            .filter(|at| *at > cx.now)
            .min();
    }
    v
}
