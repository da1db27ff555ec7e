//! What changed since a loop last looked: a read position in the store's watch log and the keys
//! written since then, so each pass of a controller loop handles only those objects.

use super::{key_of, Key, Store, WatchEvent, WatchEventType};
use dsplay_api::Kind;
use std::collections::BTreeSet;

/// A loop's read position in the watch log (an informer's resume point), so each pass of a loop
/// looks only at the objects written since its previous pass.
#[derive(Clone, Debug, Default)]
pub(crate) struct ChangeCursor(usize);

/// The objects written (added, modified or deleted) since a cursor's previous read, in key order.
#[derive(Debug, Default)]
pub(crate) struct Changes {
    /// Node names.
    pub nodes: BTreeSet<String>,
    /// Pod keys.
    pub pods: BTreeSet<Key>,
    /// ControllerRevision keys.
    pub controller_revisions: BTreeSet<Key>,
    /// A DaemonSet was deleted (its dependents may now be orphans).
    pub daemon_set_deleted: bool,
    /// ReplicaSet keys.
    pub replica_sets: BTreeSet<Key>,
    /// A Deployment or ReplicaSet was deleted (its dependents may now be orphans).
    pub apps_owner_deleted: bool,
    /// A StatefulSet was deleted (its pods and revisions may now be orphans).
    pub stateful_set_deleted: bool,
    /// StatefulSet keys.
    pub stateful_sets: BTreeSet<Key>,
    /// PersistentVolumeClaim keys.
    pub claims: BTreeSet<Key>,
}

impl ChangeCursor {
    /// What changed since the previous call (everything ever written, on the first call).
    pub fn read(&mut self, store: &Store) -> Changes {
        let mut changes = Changes::default();
        self.read_with(store, |event| {
            let key = || (event.namespace.clone(), event.name.clone());
            match event.kind {
                Kind::Node => {
                    changes.nodes.insert(event.name.clone());
                }
                Kind::Pod => {
                    changes.pods.insert(key());
                }
                Kind::ControllerRevision => {
                    changes.controller_revisions.insert(key());
                }
                Kind::DaemonSet if event.event_type == WatchEventType::Deleted => {
                    changes.daemon_set_deleted = true;
                }
                Kind::ReplicaSet => {
                    changes.replica_sets.insert(key());
                    if event.event_type == WatchEventType::Deleted {
                        changes.apps_owner_deleted = true;
                    }
                }
                Kind::Deployment if event.event_type == WatchEventType::Deleted => {
                    changes.apps_owner_deleted = true;
                }
                Kind::StatefulSet => {
                    changes.stateful_sets.insert(key());
                    if event.event_type == WatchEventType::Deleted {
                        changes.stateful_set_deleted = true;
                    }
                }
                Kind::PersistentVolumeClaim => {
                    changes.claims.insert(key());
                }
                _ => {}
            }
        });
        changes
    }

    /// The names of the nodes written since the previous call: [`ChangeCursor::read`] for a loop
    /// that looks at nodes alone (collecting the rest each round was most of its work).
    pub fn read_nodes(&mut self, store: &Store) -> BTreeSet<String> {
        let mut nodes = BTreeSet::new();
        self.read_with(store, |event| {
            if event.kind == Kind::Node {
                nodes.insert(event.name.clone());
            }
        });
        nodes
    }

    /// The keys of the pods written since the previous call, for a loop that looks at pods alone.
    pub fn read_pods(&mut self, store: &Store) -> BTreeSet<Key> {
        let mut pods = BTreeSet::new();
        self.read_with(store, |event| {
            if event.kind == Kind::Pod {
                pods.insert((event.namespace.clone(), event.name.clone()));
            }
        });
        pods
    }

    /// Hands each entry written since the previous call to `take`, and moves past them.
    fn read_with(&mut self, store: &Store, mut take: impl FnMut(&WatchEvent)) {
        for event in &store.watch_log[self.0.min(store.watch_log.len())..] {
            take(event);
        }
        self.0 = store.watch_log.len();
    }

    /// Moves past everything written so far without collecting it (a pass that can tell from the
    /// store alone that none of it needs work).
    pub fn skip(&mut self, store: &Store) {
        self.0 = store.watch_log.len();
    }
}

impl Changes {
    /// The pods written, plus every pod bound to a node written: what a loop whose per-pod
    /// decision reads the pod and its node (kubelet, taint eviction) must look at again.
    pub fn pods_and_pods_on_nodes(self, store: &Store) -> BTreeSet<Key> {
        let mut keys = self.pods;
        for node in &self.nodes {
            keys.extend(store.pods_on_node(node).map(|p| key_of(&p.metadata)));
        }
        keys
    }
}
