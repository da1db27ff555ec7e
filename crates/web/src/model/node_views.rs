//! Node views kept from one refresh to the next: only the nodes the store's watch log shows
//! written since the last read (the node itself, or a pod on it) get a new view, the others keep
//! theirs (the same `Rc`, so their map cells and cards are not rendered again). A new revision
//! of a workload (it recolours pods) or a log that is not the one read last time builds all
//! views again. With thousands of nodes a refresh then costs what changed, not a view of every
//! pod; and a refresh may build at most so many views (the others wait for the next one, keeping
//! their view until then), so an instant that changes every node of a large cluster (15 000 pods
//! Ready at once) is drawn over a few frames instead of blocking one.

use super::node_map::group_keys;
use super::owners::Owners;
use super::watch_position::WatchPosition;
use super::{node_view, pod_view, NodeView, PodView};
use dsplay_api::types::Pod;
use dsplay_api::Kind;
use dsplay_sim::{Store, WatchEventType};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// The views of the previous read, with what they were built from.
#[derive(Default)]
pub struct NodeViews {
    /// The workloads' revisions the views were built with.
    owners: Option<Owners>,
    /// Node name → its view.
    views: BTreeMap<String, Rc<NodeView>>,
    /// The same views in name order, as the last read returned them.
    nodes: Vec<Rc<NodeView>>,
    /// The label keys the map can group these nodes by (read again when a node is written).
    label_keys: Rc<Vec<String>>,
    /// (namespace, name) of each pod in a view → its node.
    pod_nodes: BTreeMap<(String, String), String>,
    /// How much of the watch log the views have seen.
    read_to: WatchPosition,
    /// Nodes whose view is behind the store (built by the next reads, in name order).
    pending: BTreeSet<String>,
    /// A pending node was added or removed: `nodes` is collected again from `views`.
    pending_list: bool,
    /// A pending node was written: the label keys are read again.
    pending_labels: bool,
    /// The pods on no node (unscheduled, on a deleted node) as the last read not behind saw them.
    off_nodes: (Vec<PodView>, Vec<PodView>),
}

/// The pods and nodes the cluster view draws.
pub struct NodesRead {
    /// The node views, by name.
    pub nodes: Vec<Rc<NodeView>>,
    /// The label keys the map can group them by.
    pub label_keys: Rc<Vec<String>>,
    /// Pods not bound to a node yet, by name.
    pub unscheduled: Vec<PodView>,
    /// Pods bound to a node that no longer exists, by name.
    pub on_deleted_nodes: Vec<PodView>,
}

impl NodeViews {
    /// The view of every node and pod of `store` at `now`, building at most `budget` node views
    /// (`None`: as many as changed); see [`NodeViews::is_behind`].
    pub fn read(
        &mut self,
        store: &Store,
        now: chrono::DateTime<chrono::Utc>,
        budget: Option<usize>,
    ) -> NodesRead {
        let owners = Owners::new(store);
        let unread = self.read_to.unread(store);
        match unread {
            Some(changes) if self.owners.as_ref() == Some(&owners) => {
                self.read_changes(store, changes)
            }
            // A new revision recolours pods: every view again, the kept ones shown meanwhile.
            Some(_) => self.pending.extend(self.views.keys().cloned()),
            // Another store (or the first read): nothing kept belongs to it.
            None => {
                *self = NodeViews {
                    read_to: self.read_to,
                    ..NodeViews::default()
                }
            }
        }
        if self.owners.as_ref() != Some(&owners) {
            self.owners = Some(owners);
            self.pending
                .extend(store.nodes().filter_map(|n| n.metadata.name.clone()));
            self.pending_list = true;
            self.pending_labels = true;
        }
        self.build_pending(store, now, budget.unwrap_or(usize::MAX));
        // While views are behind, most pods are on no view yet: the pods on no node are kept
        // from the last read that was not behind (walking 15 000 pods at every read of a large
        // cluster's catch-up cost more than its views).
        if !self.is_behind() {
            self.off_nodes = self.pods_off_nodes(store, now);
        }
        NodesRead {
            nodes: self.nodes.clone(),
            label_keys: self.label_keys.clone(),
            unscheduled: self.off_nodes.0.clone(),
            on_deleted_nodes: self.off_nodes.1.clone(),
        }
    }

    /// The pods bound to no node and those bound to a node that no longer exists, by name; the
    /// pods are walked only when some pod is on no node's view.
    fn pods_off_nodes(
        &self,
        store: &Store,
        now: chrono::DateTime<chrono::Utc>,
    ) -> (Vec<PodView>, Vec<PodView>) {
        let owners = self.owners.as_ref().expect("set before any read returns");
        let (mut unscheduled, mut on_deleted_nodes) = (Vec::new(), Vec::new());
        if self.pod_nodes.len() != store.pod_count() {
            for pod in store.pods() {
                match node_name(pod) {
                    None => unscheduled.push(pod_view(pod, owners, now)),
                    Some(node) if store.node(node).is_none() => {
                        on_deleted_nodes.push(pod_view(pod, owners, now))
                    }
                    Some(_) => {}
                }
            }
        }
        unscheduled.sort_by(|a, b| a.name.cmp(&b.name));
        on_deleted_nodes.sort_by(|a, b| a.name.cmp(&b.name));
        (unscheduled, on_deleted_nodes)
    }

    /// Some node's view is behind the store: the last read had more to build than its budget
    /// (a later read catches up, also without a new write).
    pub fn is_behind(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Marks the nodes `changes` wrote, or wrote a pod of, as pending. A pod's node never changes
    /// while it exists, so a write of a pod that is bound marks the node it is on; a pod deleted
    /// (its name may be bound elsewhere by now: a StatefulSet's pod made again) or not bound
    /// marks the node whose view shows it. (After a node add of thousands, the changes number
    /// tens of thousands: no key is copied unless it is new.)
    fn read_changes(&mut self, store: &Store, changes: &[dsplay_sim::WatchEvent]) {
        // A node's writes come in runs (the node, its pods, their binding): one lookup a run.
        let mut last: Option<&str> = None;
        for change in changes {
            let node = match change.kind {
                Kind::Node => {
                    self.pending_list |= change.event_type != WatchEventType::Modified;
                    self.pending_labels = true;
                    Some(change.name.as_str())
                }
                Kind::Pod => {
                    let bound = (change.event_type != WatchEventType::Deleted)
                        .then(|| store.pod(&change.namespace, &change.name))
                        .flatten()
                        .and_then(node_name);
                    if bound.is_none() {
                        let key = (change.namespace.clone(), change.name.clone());
                        if let Some(node) = self.pod_nodes.get(&key) {
                            mark_pending(&mut self.pending, node);
                        }
                    }
                    bound
                }
                _ => None,
            };
            if let Some(node) = node.filter(|node| last != Some(*node)) {
                mark_pending(&mut self.pending, node);
                last = Some(node);
            }
        }
    }

    /// Builds the views of up to `budget` pending nodes, in name order.
    fn build_pending(&mut self, store: &Store, now: chrono::DateTime<chrono::Utc>, budget: usize) {
        let names: Vec<String> = if budget >= self.pending.len() {
            std::mem::take(&mut self.pending).into_iter().collect()
        } else {
            (0..budget)
                .filter_map(|_| self.pending.pop_first())
                .collect()
        };
        for name in &names {
            self.build(store, name, now);
            if self.pending_list {
                continue;
            }
            if let (Ok(i), Some(view)) = (
                self.nodes.binary_search_by(|n| n.name.as_str().cmp(name)),
                self.views.get(name),
            ) {
                self.nodes[i] = view.clone();
            }
        }
        if self.pending_list {
            self.nodes = self.views.values().cloned().collect();
        }
        if self.pending_labels {
            self.label_keys = Rc::new(group_keys(&self.nodes));
        }
        if self.pending.is_empty() {
            self.pending_list = false;
            self.pending_labels = false;
        }
    }

    /// Builds the view of node `name` from the store (drops it if there is no such node).
    fn build(&mut self, store: &Store, name: &str, now: chrono::DateTime<chrono::Utc>) {
        if let Some(old) = self.views.remove(name) {
            for pod in &old.pods {
                self.pod_nodes
                    .remove(&(pod.namespace.clone(), pod.name.clone()));
            }
        }
        let Some(node) = store.node(name) else {
            return;
        };
        let owners = self.owners.as_ref().expect("set before any view is built");
        let pods: Vec<PodView> = store
            .pods_on_node(name)
            .map(|pod| pod_view(pod, owners, now))
            .collect();
        for pod in &pods {
            self.pod_nodes
                .insert((pod.namespace.clone(), pod.name.clone()), name.to_string());
        }
        self.views
            .insert(name.to_string(), Rc::new(node_view(node, pods)));
    }
}

/// Adds `node` to `pending` (copying the name only if it is not there yet).
fn mark_pending(pending: &mut BTreeSet<String>, node: &str) {
    if !pending.contains(node) {
        pending.insert(node.to_string());
    }
}

/// `spec.nodeName`, if set.
fn node_name(pod: &Pod) -> Option<&str> {
    pod.spec
        .as_ref()
        .and_then(|s| s.node_name.as_deref())
        .filter(|n| !n.is_empty())
}

#[cfg(test)]
mod tests {
    use crate::model::node_views::NodeViews;
    use crate::model::ClusterModel;
    use dsplay_kubectl::{Session, SessionOptions};
    use std::rc::Rc;

    /// After every step the kept views equal views built from scratch, and a step that touches
    /// one node leaves the other nodes' views as they were (the same `Rc`).
    #[test]
    fn kept_views_equal_fresh_ones_and_unchanged_nodes_keep_theirs() {
        let mut session = Session::new(SessionOptions::default());
        let mut views = NodeViews::default();
        let steps = [
            "sim node add --count 6 --prefix n- --labels zone=a",
            &crate::demo::apply_command(crate::demo::DEMO_DAEMON_SET),
            "sim settle",
            "kubectl label node n-1 disk=ssd",
            "kubectl set image ds/demo demo=busybox:1.37",
            "sim advance 3s",
            "kubectl cordon n-2",
            "kubectl run lone --image=nginx",
            "kubectl delete node n-3",
            "sim advance 2s",
            "sim node add n-7",
            "kubectl create deployment web --image=nginx --replicas=3",
            "sim settle",
            "kubectl delete pod -l app=demo --wait=false",
            "sim advance 1s",
        ];
        for step in steps {
            let before = ClusterModel::read(
                session.cluster().store(),
                session.cluster().now(),
                &mut views,
                None,
                None,
            );
            session.execute(step);
            let (store, now) = (session.cluster().store(), session.cluster().now());
            let kept = ClusterModel::read(store, now, &mut views, None, None);
            assert_eq!(kept, ClusterModel::from_store(store, now), "after `{step}`");
            if step == "kubectl label node n-1 disk=ssd" {
                let same: Vec<bool> = kept
                    .nodes
                    .iter()
                    .zip(&before.nodes)
                    .map(|(a, b)| Rc::ptr_eq(a, b))
                    .collect();
                let changed: Vec<&str> = kept
                    .nodes
                    .iter()
                    .zip(same)
                    .filter(|(_, same)| !same)
                    .map(|(n, _)| n.name.as_str())
                    .collect();
                assert_eq!(changed, ["n-1"]);
            }
        }
    }

    /// A StatefulSet's pod deleted and made again on another node between two reads (its node
    /// cordoned before): the view of the node it was on no longer shows it.
    #[test]
    fn a_pod_made_again_elsewhere_leaves_its_old_node() {
        let mut session = Session::new(SessionOptions::default());
        let outputs = session.execute(
            "sim node add --count 2 --prefix n- --labels disk=fast\n\
             kubectl apply -f - <<EOF\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  \
             name: db\nspec:\n  serviceName: db\n  replicas: 1\n  selector:\n    matchLabels: \
             {app: db}\n  template:\n    metadata:\n      labels: {app: db}\n    spec:\n      \
             nodeSelector: {disk: fast}\n      containers:\n      - name: db\n        \
             image: nginx\nEOF\nsim settle",
        );
        assert!(outputs.iter().all(|o| o.success), "{outputs:?}");
        let db_node = |session: &Session| {
            let pod = session.cluster().store().pod("default", "db-0");
            pod.and_then(super::node_name).map(str::to_string)
        };
        let first = db_node(&session).expect("db-0 is bound");
        session.execute(&format!("kubectl cordon {first}"));
        let mut views = NodeViews::default();
        let read = |session: &Session, views: &mut NodeViews| {
            let (store, now) = (session.cluster().store(), session.cluster().now());
            let kept = ClusterModel::read(store, now, views, None, None);
            assert_eq!(kept, ClusterModel::from_store(store, now));
        };
        read(&session, &mut views);
        session.execute("kubectl delete pod db-0\nsim settle");
        let second = db_node(&session).expect("db-0 is bound again");
        assert_ne!(first, second, "db-0 moved");
        read(&session, &mut views);
    }

    /// A read with a budget builds at most that many views and says it is behind; the next reads
    /// catch up without a new write and end equal to views built from scratch.
    #[test]
    fn reads_with_a_budget_catch_up() {
        let mut session = Session::new(SessionOptions::default());
        session.execute("sim node add --count 6 --prefix n-");
        let mut views = NodeViews::default();
        let (store, now) = (session.cluster().store(), session.cluster().now());
        ClusterModel::read(store, now, &mut views, None, None);
        assert!(!views.is_behind());
        session.execute(&crate::demo::apply_command(crate::demo::DEMO_DAEMON_SET));
        session.execute("sim settle\nsim node add n-7");
        let (store, now) = (session.cluster().store(), session.cluster().now());
        let mut before = ClusterModel::read(store, now, &mut views, Some(2), None).nodes;
        let mut reads = 1;
        while views.is_behind() {
            let kept = ClusterModel::read(store, now, &mut views, Some(2), None);
            let built = kept
                .nodes
                .iter()
                .filter(|n| !before.iter().any(|b| Rc::ptr_eq(b, n)))
                .count();
            assert!(built <= 2, "{built} views built on a budget of 2");
            before = kept.nodes;
            reads += 1;
        }
        assert!(reads >= 4, "{reads} reads for 10 nodes");
        let caught_up = ClusterModel::read(store, now, &mut views, Some(2), None);
        assert_eq!(caught_up, ClusterModel::from_store(store, now));
    }

    /// While reads on a budget catch up, the pods on no node are those of the last read that was
    /// not behind (the pods are not walked meanwhile); once caught up, the store's.
    #[test]
    fn pods_on_no_node_are_kept_while_views_catch_up() {
        let mut session = Session::new(SessionOptions::default());
        session.execute("sim node add --count 6 --prefix n-");
        let mut views = NodeViews::default();
        let read = |session: &Session, views: &mut NodeViews| {
            let (store, now) = (session.cluster().store(), session.cluster().now());
            ClusterModel::read(store, now, views, Some(2), None)
        };
        while views.is_behind() || views.owners.is_none() {
            read(&session, &mut views);
        }
        let outputs = session.execute(
            "kubectl apply -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata:\n  name: lone\n\
             spec:\n  nodeSelector: {disk: none}\n  containers:\n  - name: c\n    image: nginx\n\
             EOF\nkubectl label node --all zone=b\nsim settle",
        );
        assert!(outputs.iter().all(|o| o.success), "{outputs:?}");
        let behind = read(&session, &mut views);
        assert!(views.is_behind());
        assert!(behind.unscheduled.is_empty(), "kept from before");
        let mut caught_up = behind;
        while views.is_behind() {
            caught_up = read(&session, &mut views);
        }
        let names: Vec<&str> = caught_up
            .unscheduled
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        assert_eq!(names, ["lone"]);
        let (store, now) = (session.cluster().store(), session.cluster().now());
        assert_eq!(caught_up, ClusterModel::from_store(store, now));
    }
}
