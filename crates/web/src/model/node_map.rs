//! The compact map of a large cluster: one cell per node, its state summed up from the node and the
//! learner's pods on it (kind's system pods aside), grouped by a node label.

use super::NodeView;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// From this many nodes the cluster view starts as a map (cards can still be chosen).
pub const MAP_FROM_NODES: usize = 50;

/// A map cell's state, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CellState {
    /// The node is NotReady.
    Down,
    /// A pod is starting, not ready, or terminating.
    Busy,
    /// Its pods are ready, one of them runs an older revision of its workload.
    Old,
    /// Its pods are ready and up to date.
    Ok,
    /// None of the learner's pods runs there.
    Empty,
}

impl CellState {
    /// The class and the word the legend and the cell's title use.
    pub fn name(self) -> &'static str {
        match self {
            CellState::Down => "down",
            CellState::Busy => "busy",
            CellState::Old => "old",
            CellState::Ok => "ok",
            CellState::Empty => "empty",
        }
    }

    /// Every state, in the legend's order.
    pub const ALL: [CellState; 5] = [
        CellState::Ok,
        CellState::Old,
        CellState::Busy,
        CellState::Down,
        CellState::Empty,
    ];
}

/// A node's cell state.
pub fn cell_state(node: &NodeView) -> CellState {
    if !node.ready {
        return CellState::Down;
    }
    let mut pods = node.pods.iter().filter(|p| !p.system).peekable();
    if pods.peek().is_none() {
        return CellState::Empty;
    }
    let mut state = CellState::Ok;
    for pod in pods {
        if pod.terminating || !pod.ready {
            return CellState::Busy;
        }
        if !pod.current_revision {
            state = CellState::Old;
        }
    }
    state
}

/// The label keys worth grouping by: on some node, not the per-node hostname.
pub fn group_keys(nodes: &[Rc<NodeView>]) -> Vec<String> {
    let keys: BTreeSet<&str> = nodes
        .iter()
        .flat_map(|n| n.labels.iter().map(|(k, _)| k.as_str()))
        .filter(|k| *k != "kubernetes.io/hostname")
        .collect();
    keys.into_iter().map(str::to_string).collect()
}

/// Nodes by the value of label `key` (`role` groups by control-plane / worker); a node without
/// the label goes under "(none)". Groups in value order, nodes in name order.
pub fn groups<'a>(nodes: &'a [Rc<NodeView>], key: &str) -> BTreeMap<String, Vec<&'a Rc<NodeView>>> {
    let mut groups: BTreeMap<String, Vec<&Rc<NodeView>>> = BTreeMap::new();
    for node in nodes {
        let value = if key == "role" {
            node.role
        } else {
            match node.labels.iter().find(|(k, _)| k == key) {
                Some((_, v)) if v.is_empty() => "(empty)",
                Some((_, v)) => v.as_str(),
                None => "(none)",
            }
        };
        match groups.get_mut(value) {
            Some(members) => members.push(node),
            None => {
                groups.insert(value.to_string(), vec![node]);
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ClusterModel;
    use dsplay_kubectl::{Session, SessionOptions};

    #[test]
    fn cells_follow_a_rolling_update_and_group_by_label() {
        let mut session = Session::new(SessionOptions::default());
        session.execute(
            "sim node add --count 60 --prefix n- --labels zone=a\n\
             kubectl apply -f - <<EOF\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\n\
             spec:\n  selector:\n    matchLabels: {app: agent}\n  template:\n    metadata:\n      \
             labels: {app: agent}\n    spec:\n      containers:\n      - name: agent\n        image: busybox:1.36\nEOF\n\
             sim settle",
        );
        let store = session.cluster().store();
        let model = ClusterModel::from_store(store, session.cluster().now());
        assert!(model.nodes.len() >= MAP_FROM_NODES);
        let states: Vec<CellState> = model.nodes.iter().map(|n| cell_state(n)).collect();
        // The control plane has no agent (its taint); every worker runs a ready, current one.
        assert_eq!(states.iter().filter(|s| **s == CellState::Empty).count(), 1);
        assert_eq!(states.iter().filter(|s| **s == CellState::Ok).count(), 62);
        let by_zone = groups(&model.nodes, "zone");
        assert_eq!(by_zone["a"].len(), 60);
        assert_eq!(by_zone["(none)"].len(), 3);
        assert!(group_keys(&model.nodes).contains(&"zone".to_string()));

        session.execute("kubectl set image ds/agent agent=busybox:1.37\nsim advance 1s");
        let model = ClusterModel::from_store(session.cluster().store(), session.cluster().now());
        let states: Vec<CellState> = model.nodes.iter().map(|n| cell_state(n)).collect();
        assert!(
            states.contains(&CellState::Busy),
            "one node at a time is replaced"
        );
        assert!(states.contains(&CellState::Ok) || states.contains(&CellState::Old));
        session.execute("sim node fail n-01\nsim advance 60s");
        let model = ClusterModel::from_store(session.cluster().store(), session.cluster().now());
        let n01 = model.nodes.iter().find(|n| n.name == "n-01").unwrap();
        assert_eq!(cell_state(n01), CellState::Down);
    }
}
