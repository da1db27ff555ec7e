//! The object store: typed tables per kind keyed by (namespace, name), API-server bookkeeping
//! (resourceVersion) and the watch log every change appends to.

use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use std::borrow::Borrow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::lookup_map::LookupMap;
use crate::scheduler::inter_pod_affinity::has_required_anti_affinity;
use dsplay_api::taints::NO_EXECUTE;

mod changes;
mod events_by_time;
mod in_place;
mod lookup_table;
mod typed;
pub(crate) use changes::ChangeCursor;
pub use events_by_time::last_seen as event_last_seen;
use events_by_time::EventsByTime;
use lookup_table::LookupTable;
pub(crate) use typed::references;

/// Key of a stored object: (namespace, name); namespace is "" for cluster-scoped kinds.
pub type Key = (String, String);

/// A (namespace, name) pair a [`Key`] map can be searched with: a stored key or two borrowed
/// strings, so a lookup allocates no key. Ordered like `Key` (namespace, then name).
pub(crate) trait KeyRef {
    /// The namespace and the name.
    fn pair(&self) -> (&str, &str);
}

impl KeyRef for Key {
    fn pair(&self) -> (&str, &str) {
        (&self.0, &self.1)
    }
}

impl KeyRef for (&str, &str) {
    fn pair(&self) -> (&str, &str) {
        (self.0, self.1)
    }
}

impl<'a> Borrow<dyn KeyRef + 'a> for Key {
    fn borrow(&self) -> &(dyn KeyRef + 'a) {
        self
    }
}

/// Orders a borrowed search key (a `dyn Trait`) by what its method returns, so that a map keyed
/// by the owned form can be searched with it.
macro_rules! ord_by {
    ($ty:ty, $method:ident) => {
        impl PartialEq for $ty {
            fn eq(&self, other: &Self) -> bool {
                self.$method() == other.$method()
            }
        }
        impl Eq for $ty {}
        impl PartialOrd for $ty {
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }
        impl Ord for $ty {
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                self.$method().cmp(&other.$method())
            }
        }
    };
}

ord_by!(dyn KeyRef + '_, pair);

/// Hashed as `Key` hashes (a tuple hashes its parts in turn; a `String` as its `str`), so a
/// [`LookupTable`] can be searched with two borrowed strings.
impl std::hash::Hash for dyn KeyRef + '_ {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.pair().hash(state);
    }
}

/// The borrowed search key of `(namespace, name)` in a [`Key`] map.
pub(crate) fn key_ref<'a>(pair: &'a (&'a str, &'a str)) -> &'a (dyn KeyRef + 'a) {
    pair
}

/// What happened to an object, as a watch stream reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchEventType {
    /// Created.
    Added,
    /// Updated (spec, status or metadata).
    Modified,
    /// Removed from the store.
    Deleted,
}

/// One entry of the watch log: enough for a UI to animate and for tests to compare runs.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchEvent {
    /// The store's resourceVersion after the change.
    pub resource_version: u64,
    /// Virtual time of the change, in milliseconds since the epoch.
    pub time_ms: i64,
    /// Added / Modified / Deleted.
    pub event_type: WatchEventType,
    /// The object's kind.
    pub kind: Kind,
    /// Namespace ("" for cluster-scoped).
    pub namespace: String,
    /// Name.
    pub name: String,
    /// The object as written (for a deletion: as it was last), kept only while a watch asks for
    /// it ([`Store::keep_watch_snapshots`]): a watch stream sends every write, not just the latest.
    pub object: Option<Arc<Object>>,
}

/// All stored objects. Iteration is always in (namespace, name) order, so output is deterministic.
#[derive(Clone, Debug, Default)]
pub struct Store {
    pub(crate) namespaces: BTreeMap<Key, Namespace>,
    /// Nodes and pods are shared (`Arc`) so controllers can hold a consistent view of them, and
    /// clone the cluster (rewind snapshots), without deep-copying thousands of objects.
    /// Both are looked up far more often than created or listed: see [`LookupTable`].
    pub(crate) nodes: LookupTable<Arc<Node>>,
    pub(crate) pods: LookupTable<Arc<Pod>>,
    /// Shared too: the DaemonSet controller holds one through a sync without copying it.
    pub(crate) daemon_sets: BTreeMap<Key, Arc<DaemonSet>>,
    pub(crate) controller_revisions: BTreeMap<Key, ControllerRevision>,
    /// Shared as well: an event is large. Hashed, not a B-tree: every event is written, looked up
    /// by its identity and deleted an hour later (thousands come and go in a long rollout), and
    /// walked only when listed: [`Store::events`] sorts then.
    pub(crate) events: LookupMap<Key, Arc<Event>>,
    /// The same events by when they last happened: the newest without walking them all.
    events_by_time: EventsByTime,
    pub(crate) priority_classes: BTreeMap<Key, PriorityClass>,
    pub(crate) deployments: BTreeMap<Key, Deployment>,
    pub(crate) replica_sets: BTreeMap<Key, ReplicaSet>,
    pub(crate) services: BTreeMap<Key, Service>,
    pub(crate) endpoint_slices: BTreeMap<Key, EndpointSlice>,
    pub(crate) stateful_sets: BTreeMap<Key, StatefulSet>,
    pub(crate) persistent_volume_claims: BTreeMap<Key, PersistentVolumeClaim>,
    pub(crate) persistent_volumes: BTreeMap<Key, PersistentVolume>,
    pub(crate) storage_classes: BTreeMap<Key, StorageClass>,
    pub(crate) endpoints: BTreeMap<Key, Endpoints>,
    pub(crate) resource_version: u64,
    pub(crate) watch_log: Vec<WatchEvent>,
    /// Node name → keys of the pods bound to it (`spec.nodeName`): the kubelet's and the
    /// scheduler's per-node view without scanning every pod.
    pods_by_node: LookupMap<String, BTreeSet<Key>>,
    /// Keys of the pods bound to no node (the scheduler's candidates; few at any time).
    unbound_pods: BTreeSet<Key>,
    /// How many pods bound to a node have required pod anti-affinity terms.
    bound_anti_affinity_pods: usize,
    /// How many nodes have a NoExecute taint.
    no_execute_tainted_nodes: usize,
    /// The resourceVersion of the last ControllerRevision write (history work is skipped until it moves).
    revisions_version: u64,
    /// The resourceVersion of the last Event write or removal.
    events_version: u64,
    /// The resourceVersion of the last write or removal of a Warning event.
    warnings_version: u64,
    /// Writes and removals of storage objects and v1 Endpoints (they leave derived names alone).
    side_writes: u64,
    /// Whether the watch log keeps a copy of each written object (see [`WatchEvent::object`]).
    watch_snapshots: bool,
}

/// What the store's pod indexes read of a pod: `spec.nodeName` and whether it has required pod
/// anti-affinity terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PodIndexFacts<'a> {
    node_name: Option<&'a str>,
    anti_affinity: bool,
}

impl<'a> PodIndexFacts<'a> {
    fn of(pod: &'a Pod) -> PodIndexFacts<'a> {
        PodIndexFacts {
            node_name: pod.spec.as_ref().and_then(|s| s.node_name.as_deref()),
            anti_affinity: has_required_anti_affinity(pod),
        }
    }

    /// The node the pod is bound to, if any.
    fn bound_node(self) -> Option<&'a str> {
        self.node_name.filter(|n| !n.is_empty())
    }
}

/// An event of `type: Warning`.
pub fn is_warning(event: &Event) -> bool {
    event.type_.as_deref() == Some("Warning")
}

/// The store key of an object.
pub fn key_of(meta: &ObjectMeta) -> Key {
    (
        meta.namespace.clone().unwrap_or_default(),
        meta.name.clone().unwrap_or_default(),
    )
}

impl Store {
    /// Any object by kind and key, cloned into the `Object` enum.
    pub fn get(&self, kind: Kind, namespace: &str, name: &str) -> Option<Object> {
        let key = (
            if kind.namespaced() {
                namespace.to_string()
            } else {
                String::new()
            },
            name.to_string(),
        );
        match kind {
            Kind::Namespace => self.namespaces.get(&key).cloned().map(Object::Namespace),
            Kind::Node => self.nodes.get(&key).map(|n| Object::Node(Node::clone(n))),
            Kind::Pod => self.pods.get(&key).map(|p| Object::Pod(Pod::clone(p))),
            Kind::DaemonSet => self
                .daemon_sets
                .get(&key)
                .map(|d| Object::DaemonSet(DaemonSet::clone(d))),
            Kind::ControllerRevision => self
                .controller_revisions
                .get(&key)
                .cloned()
                .map(Object::ControllerRevision),
            Kind::Event => self
                .events
                .get(&key)
                .map(|e| Object::Event(Event::clone(e))),
            Kind::PriorityClass => self
                .priority_classes
                .get(&key)
                .cloned()
                .map(Object::PriorityClass),
            Kind::Deployment => self.deployments.get(&key).cloned().map(Object::Deployment),
            Kind::ReplicaSet => self.replica_sets.get(&key).cloned().map(Object::ReplicaSet),
            Kind::Service => self.services.get(&key).cloned().map(Object::Service),
            Kind::EndpointSlice => self
                .endpoint_slices
                .get(&key)
                .cloned()
                .map(Object::EndpointSlice),
            Kind::StatefulSet => self
                .stateful_sets
                .get(&key)
                .cloned()
                .map(Object::StatefulSet),
            Kind::PersistentVolumeClaim => self
                .persistent_volume_claims
                .get(&key)
                .cloned()
                .map(Object::PersistentVolumeClaim),
            Kind::PersistentVolume => self
                .persistent_volumes
                .get(&key)
                .cloned()
                .map(|pv| Object::PersistentVolume(Box::new(pv))),
            Kind::StorageClass => self
                .storage_classes
                .get(&key)
                .cloned()
                .map(Object::StorageClass),
            Kind::Endpoints => self.endpoints.get(&key).cloned().map(Object::Endpoints),
        }
    }

    /// Every object of a kind (all namespaces), in key order.
    pub fn list(&self, kind: Kind) -> Vec<Object> {
        match kind {
            Kind::Namespace => self
                .namespaces
                .values()
                .cloned()
                .map(Object::Namespace)
                .collect(),
            Kind::Node => self.nodes().cloned().map(Object::Node).collect(),
            Kind::Pod => self.pods().cloned().map(Object::Pod).collect(),
            Kind::DaemonSet => self.daemon_sets().cloned().map(Object::DaemonSet).collect(),
            Kind::ControllerRevision => self
                .controller_revisions
                .values()
                .cloned()
                .map(Object::ControllerRevision)
                .collect(),
            Kind::Event => self.events().cloned().map(Object::Event).collect(),
            Kind::PriorityClass => self
                .priority_classes
                .values()
                .cloned()
                .map(Object::PriorityClass)
                .collect(),
            Kind::Deployment => self
                .deployments
                .values()
                .cloned()
                .map(Object::Deployment)
                .collect(),
            Kind::ReplicaSet => self
                .replica_sets
                .values()
                .cloned()
                .map(Object::ReplicaSet)
                .collect(),
            Kind::Service => self.services().cloned().map(Object::Service).collect(),
            Kind::EndpointSlice => self
                .endpoint_slices()
                .cloned()
                .map(Object::EndpointSlice)
                .collect(),
            Kind::StatefulSet => self
                .stateful_sets()
                .cloned()
                .map(Object::StatefulSet)
                .collect(),
            Kind::PersistentVolumeClaim => self
                .persistent_volume_claims()
                .cloned()
                .map(Object::PersistentVolumeClaim)
                .collect(),
            Kind::PersistentVolume => self
                .persistent_volumes()
                .cloned()
                .map(|pv| Object::PersistentVolume(Box::new(pv)))
                .collect(),
            Kind::StorageClass => self
                .storage_classes()
                .cloned()
                .map(Object::StorageClass)
                .collect(),
            Kind::Endpoints => (self.endpoints.values().cloned())
                .map(Object::Endpoints)
                .collect(),
        }
    }

    /// The store's current resourceVersion (bumped by every write).
    pub fn resource_version(&self) -> u64 {
        self.resource_version
    }

    /// The resourceVersion of the last ControllerRevision write or removal.
    pub fn controller_revisions_version(&self) -> u64 {
        self.revisions_version
    }

    /// The resourceVersion of the last Event write or removal.
    pub fn events_version(&self) -> u64 {
        self.events_version
    }

    /// The resourceVersion of the last write or removal of a Warning event (`type: Warning`
    /// before or after the write): a view of the warnings reads nothing while it stands still,
    /// through the tens of thousands of Normal events a large cluster's pods bring.
    pub fn warnings_version(&self) -> u64 {
        self.warnings_version
    }

    /// The resourceVersion less the writes of storage objects and Endpoints (kind's StorageClass,
    /// StatefulSet volumes, the Endpoints controller), for the names derived from it.
    pub fn resource_version_without_side_writes(&self) -> u64 {
        self.resource_version - self.side_writes
    }

    /// Whether any pod bound to a node has required pod anti-affinity terms (which every other
    /// pod's scheduling must respect), without scanning the pods.
    pub fn has_bound_pods_with_required_anti_affinity(&self) -> bool {
        self.bound_anti_affinity_pods > 0
    }

    /// Whether any node has a NoExecute taint (the only taints that evict running pods), without
    /// scanning the nodes.
    pub fn has_no_execute_tainted_nodes(&self) -> bool {
        self.no_execute_tainted_nodes > 0
    }

    /// Whether the pod with this key exists and is bound to no node, without searching every pod.
    pub(crate) fn is_unbound_pod(&self, key: &Key) -> bool {
        self.unbound_pods.contains(key)
    }

    /// Every change so far, oldest first.
    pub fn watch_log(&self) -> &[WatchEvent] {
        &self.watch_log
    }

    /// Whether later log entries carry the object written (a copy per write: on only while a
    /// watch needs every intermediate state, e.g. `kubectl get -w` or `dsplay serve`).
    pub fn keep_watch_snapshots(&mut self, on: bool) {
        self.watch_snapshots = on;
    }

    /// Whether log entries carry the object written.
    pub fn keeps_watch_snapshots(&self) -> bool {
        self.watch_snapshots
    }

    /// Writes an object (insert or replace), bumping resourceVersion and logging the change.
    /// Callers (the API layer) have already done defaulting, validation and metadata bookkeeping.
    /// Returns whether the write created a pod bound to a node or changed the node a pod names
    /// (`spec.nodeName`); false for every other write (a new pending pod included).
    pub(crate) fn put(&mut self, mut object: Object, time_ms: i64) -> bool {
        self.resource_version += 1;
        object.metadata_mut().resource_version = Some(self.resource_version.to_string());
        let kind = object.kind();
        let key = key_of(object.metadata());
        let snapshot = self.watch_snapshots.then(|| Arc::new(object.clone()));
        let mut rebound = false;
        let existed = match object {
            Object::Namespace(o) => self.namespaces.insert(key.clone(), o).is_some(),
            Object::Node(o) => {
                let new = Arc::new(o);
                let previous = self.nodes.insert(key.clone(), new.clone());
                self.count_no_execute(previous.as_deref(), Some(&new));
                previous.is_some()
            }
            Object::Pod(o) => {
                let new = Arc::new(o);
                let previous = self.pods.insert(key.clone(), new.clone());
                let previous_facts = previous.as_deref().map(PodIndexFacts::of);
                let new_facts = PodIndexFacts::of(&new);
                rebound = match previous_facts {
                    Some(previous) => previous.node_name != new_facts.node_name,
                    None => new_facts.node_name.is_some(),
                };
                self.index_pod(&key, previous_facts, Some(new_facts));
                previous.is_some()
            }
            Object::DaemonSet(o) => self.daemon_sets.insert(key.clone(), Arc::new(o)).is_some(),
            Object::ControllerRevision(o) => {
                self.controller_revisions.insert(key.clone(), o).is_some()
            }
            Object::Event(o) => {
                // The one replaced leaves the index first: a rewrite within the same second
                // has its place, which an insert would not take over.
                let new = Arc::new(o);
                let previous = self.events.insert(key.clone(), Arc::clone(&new));
                if is_warning(&new) || previous.as_deref().is_some_and(is_warning) {
                    self.warnings_version = self.resource_version;
                }
                if let Some(previous) = &previous {
                    self.events_by_time.remove(previous);
                }
                self.events_by_time.insert(new);
                previous.is_some()
            }
            Object::PriorityClass(o) => self.priority_classes.insert(key.clone(), o).is_some(),
            Object::Deployment(o) => self.deployments.insert(key.clone(), o).is_some(),
            Object::ReplicaSet(o) => self.replica_sets.insert(key.clone(), o).is_some(),
            Object::Service(o) => self.services.insert(key.clone(), o).is_some(),
            Object::EndpointSlice(o) => self.endpoint_slices.insert(key.clone(), o).is_some(),
            Object::StatefulSet(o) => self.stateful_sets.insert(key.clone(), o).is_some(),
            Object::PersistentVolumeClaim(o) => self
                .persistent_volume_claims
                .insert(key.clone(), o)
                .is_some(),
            Object::PersistentVolume(o) => {
                self.persistent_volumes.insert(key.clone(), *o).is_some()
            }
            Object::StorageClass(o) => self.storage_classes.insert(key.clone(), o).is_some(),
            Object::Endpoints(o) => self.endpoints.insert(key.clone(), o).is_some(),
        };
        let event_type = if existed {
            WatchEventType::Modified
        } else {
            WatchEventType::Added
        };
        self.log(event_type, kind, key, time_ms, snapshot);
        rebound
    }

    /// Removes an object; returns it if it existed.
    pub(crate) fn remove(&mut self, kind: Kind, key: &Key, time_ms: i64) -> Option<Object> {
        let removed = match kind {
            Kind::Namespace => self.namespaces.remove(key).map(Object::Namespace),
            Kind::Node => self.nodes.remove(key).map(|n| {
                self.count_no_execute(Some(&n), None);
                Object::Node(Arc::unwrap_or_clone(n))
            }),
            Kind::Pod => {
                return self
                    .remove_pod(key, time_ms)
                    .map(|p| Object::Pod(Pod::clone(&p)))
            }
            Kind::DaemonSet => self
                .daemon_sets
                .remove(key)
                .map(|d| Object::DaemonSet(Arc::unwrap_or_clone(d))),
            Kind::ControllerRevision => self
                .controller_revisions
                .remove(key)
                .map(Object::ControllerRevision),
            Kind::Event => {
                return self
                    .remove_event(key, time_ms)
                    .map(|e| Object::Event(Arc::unwrap_or_clone(e)))
            }
            Kind::PriorityClass => self.priority_classes.remove(key).map(Object::PriorityClass),
            Kind::Deployment => self.deployments.remove(key).map(Object::Deployment),
            Kind::ReplicaSet => self.replica_sets.remove(key).map(Object::ReplicaSet),
            Kind::Service => self.services.remove(key).map(Object::Service),
            Kind::EndpointSlice => self.endpoint_slices.remove(key).map(Object::EndpointSlice),
            Kind::StatefulSet => self.stateful_sets.remove(key).map(Object::StatefulSet),
            Kind::PersistentVolumeClaim => self
                .persistent_volume_claims
                .remove(key)
                .map(Object::PersistentVolumeClaim),
            Kind::PersistentVolume => self
                .persistent_volumes
                .remove(key)
                .map(|pv| Object::PersistentVolume(Box::new(pv))),
            Kind::StorageClass => self.storage_classes.remove(key).map(Object::StorageClass),
            Kind::Endpoints => self.endpoints.remove(key).map(Object::Endpoints),
        };
        if let Some(object) = &removed {
            self.log_removal(kind, key, time_ms, || object.clone());
        }
        removed
    }

    /// Logs the removal of an object: a new resourceVersion and a `Deleted` entry, with the
    /// object as it was last (built only while a watch keeps snapshots).
    fn log_removal(&mut self, kind: Kind, key: &Key, time_ms: i64, last: impl FnOnce() -> Object) {
        self.resource_version += 1;
        let snapshot = self.watch_snapshots.then(|| Arc::new(last()));
        self.log(
            WatchEventType::Deleted,
            kind,
            key.clone(),
            time_ms,
            snapshot,
        );
    }

    /// Removes an event; returns the shared handle, so that expiring one moves no event around.
    pub(crate) fn remove_event(&mut self, key: &Key, time_ms: i64) -> Option<Arc<Event>> {
        let removed = self.remove_event_if(key.clone(), time_ms, |_| true);
        removed.map(|(_, event)| event)
    }

    /// Removes an event if `remove` says so; returns its key and shared handle.
    pub(crate) fn remove_event_if(
        &mut self,
        key: Key,
        time_ms: i64,
        remove: impl FnOnce(&Event) -> bool,
    ) -> Option<(Key, Arc<Event>)> {
        if !remove(self.events.get(&key)?) {
            return None;
        }
        let removed = self.events.remove(&key)?;
        self.events_by_time.remove(&removed);
        self.log_removal(Kind::Event, &key, time_ms, || {
            Object::Event(Event::clone(&removed))
        });
        if is_warning(&removed) {
            self.warnings_version = self.resource_version;
        }
        Some((key, removed))
    }

    /// Removes a pod (and its place in the node index); returns the shared handle, so removing a
    /// pod that a loop still holds copies nothing.
    pub(crate) fn remove_pod(&mut self, key: &Key, time_ms: i64) -> Option<Arc<Pod>> {
        let removed = self.pods.remove(key)?;
        self.index_pod(key, Some(PodIndexFacts::of(&removed)), None);
        self.log_removal(Kind::Pod, key, time_ms, || {
            Object::Pod(Pod::clone(&removed))
        });
        Some(removed)
    }

    /// Files a pod under the node it is (now) bound to, moving it from the node it was bound to.
    /// Also counts the bound pods with required anti-affinity (see
    /// [`Store::has_bound_pods_with_required_anti_affinity`]).
    fn index_pod(
        &mut self,
        key: &Key,
        previous: Option<PodIndexFacts>,
        new: Option<PodIndexFacts>,
    ) {
        let counted = |facts: &PodIndexFacts| facts.bound_node().is_some() && facts.anti_affinity;
        match (
            previous.is_some_and(|f| counted(&f)),
            new.is_some_and(|f| counted(&f)),
        ) {
            (false, true) => self.bound_anti_affinity_pods += 1,
            (true, false) => self.bound_anti_affinity_pods -= 1,
            _ => {}
        }
        let node = new.and_then(|f| f.bound_node());
        let old = previous.and_then(|f| f.bound_node());
        match (
            previous.is_some() && old.is_none(),
            new.is_some() && node.is_none(),
        ) {
            (false, true) => {
                self.unbound_pods.insert(key.clone());
            }
            (true, false) => {
                self.unbound_pods.remove(key);
            }
            _ => {}
        }
        if old == node {
            return;
        }
        if let Some(old) = old {
            if let Some(keys) = self.pods_by_node.get_mut(old) {
                keys.remove(key);
                if keys.is_empty() {
                    self.pods_by_node.remove(old);
                }
            }
        }
        if let Some(node) = node {
            let keys = match self.pods_by_node.get_mut(node) {
                Some(keys) => keys,
                None => self.pods_by_node.get_or_default(node.to_string()),
            };
            keys.insert(key.clone());
        }
    }

    /// Moves a node's part in [`Store::has_no_execute_tainted_nodes`] from its previous version
    /// to its new one.
    fn count_no_execute(&mut self, previous: Option<&Node>, new: Option<&Node>) {
        let tainted = |node: &Node| {
            let taints = node.spec.as_ref().and_then(|s| s.taints.as_deref());
            taints
                .unwrap_or_default()
                .iter()
                .any(|t| t.effect == NO_EXECUTE)
        };
        match (previous.is_some_and(tainted), new.is_some_and(tainted)) {
            (false, true) => self.no_execute_tainted_nodes += 1,
            (true, false) => self.no_execute_tainted_nodes -= 1,
            _ => {}
        }
    }

    fn log(
        &mut self,
        event_type: WatchEventType,
        kind: Kind,
        key: Key,
        time_ms: i64,
        object: Option<Arc<Object>>,
    ) {
        match kind {
            Kind::ControllerRevision => self.revisions_version = self.resource_version,
            Kind::Event => self.events_version = self.resource_version,
            Kind::StorageClass
            | Kind::PersistentVolume
            | Kind::PersistentVolumeClaim
            | Kind::Endpoints => self.side_writes += 1,
            _ => {}
        }
        self.watch_log.push(WatchEvent {
            resource_version: self.resource_version,
            time_ms,
            event_type,
            kind,
            namespace: key.0,
            name: key.1,
            object,
        });
    }
}
