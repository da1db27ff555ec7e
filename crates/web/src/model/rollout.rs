//! The Rollout panel's view: DaemonSets being updated or stuck, with `sim rollout`'s diagnosis and
//! their daemon pods by node.

use super::daemon_set_names;
use dsplay_sim::explain::{RolloutDiagnosis, RolloutNode};
use dsplay_sim::Cluster;
use std::collections::BTreeMap;

/// Everything the Rollout panel shows: DaemonSets with their diagnosis, StatefulSets with their
/// partition.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Rollouts {
    pub daemon_sets: Vec<RolloutView>,
    pub stateful_sets: Vec<super::stateful_rollout::StatefulRolloutView>,
}

impl Rollouts {
    /// Nothing rolls out: the panel is not shown.
    pub fn is_empty(&self) -> bool {
        self.daemon_sets.is_empty() && self.stateful_sets.is_empty()
    }
}

/// A DaemonSet being rolled out (or stuck), as the Rollout panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct RolloutView {
    /// `namespace/name`.
    pub daemon_set: String,
    /// `sim rollout`'s diagnosis: budget, nodes, problems and fixes.
    pub diagnosis: RolloutDiagnosis,
    /// Its daemon pods by node, with old/new revision and the minReadySeconds countdown.
    pub pods: Vec<RolloutPod>,
    /// Nodes left out of `diagnosis.nodes` (and their pods out of `pods`): how many are in
    /// progress, waiting on an old revision, updated. The panel lists at most [`NODES_LISTED`].
    pub nodes_folded: [usize; 3],
}

/// The most nodes the panel lists for one DaemonSet.
pub const NODES_LISTED: usize = 40;

/// Every DaemonSet being updated or stuck, by namespace and name, with its diagnosis and pods.
pub fn rollout_views(cluster: &Cluster) -> Vec<RolloutView> {
    daemon_set_names(cluster.store())
        .iter()
        .filter(|(ns, name)| !rollout_settled(cluster, ns, name))
        .filter_map(|(ns, name)| {
            let d = dsplay_sim::explain::diagnose_rollout(cluster, ns, name).ok()?;
            let pods = rollout_pods(cluster, ns, name);
            // An update in progress (pods of an older revision left), pods still counting
            // minReadySeconds down, or anything stuck; not the first creation of pods without
            // minReadySeconds.
            let busy = d.updated < d.desired
                || !d.problems.is_empty()
                || pods.iter().any(|p| p.available_in.is_some());
            busy.then(|| fold_nodes(format!("{ns}/{name}"), d, pods))
        })
        .collect()
}

/// The view of a DaemonSet with at most [`NODES_LISTED`] nodes listed: first the nodes whose
/// update is in progress (counted unavailable, or a pod not ready, terminating or counting
/// minReadySeconds down), then those still on an old revision, then updated ones, each in node
/// order, while there is room. Thousands of rows say nothing counts do not, and cost a frame to
/// draw at every refresh.
fn fold_nodes(
    daemon_set: String,
    mut diagnosis: RolloutDiagnosis,
    mut pods: Vec<RolloutPod>,
) -> RolloutView {
    let mut folded = [0; 3];
    if diagnosis.nodes.len() > NODES_LISTED {
        // 0: in progress, 1: waiting on an old revision, 2: updated (the default).
        let mut stage: BTreeMap<&str, usize> = BTreeMap::new();
        for p in &pods {
            let s = if p.terminating || !p.ready || p.available_in.is_some() {
                0
            } else if !p.new {
                1
            } else {
                2
            };
            let entry = stage.entry(p.node.as_str()).or_insert(2);
            *entry = (*entry).min(s);
        }
        let stage_of = |n: &RolloutNode| {
            if n.unavailable {
                0
            } else {
                stage.get(n.node.as_str()).copied().unwrap_or(2)
            }
        };
        let mut nodes: Vec<(usize, RolloutNode)> = std::mem::take(&mut diagnosis.nodes)
            .into_iter()
            .map(|n| (stage_of(&n), n))
            .collect();
        nodes.sort_by_key(|(stage, _)| *stage);
        for (stage, _) in &nodes[NODES_LISTED..] {
            folded[*stage] += 1;
        }
        let mut listed: Vec<RolloutNode> = nodes
            .into_iter()
            .take(NODES_LISTED)
            .map(|(_, n)| n)
            .collect();
        listed.sort_by(|a, b| a.node.cmp(&b.node));
        pods.retain(|p| listed.binary_search_by(|n| n.node.cmp(&p.node)).is_ok());
        diagnosis.nodes = listed;
    }
    RolloutView {
        daemon_set,
        diagnosis,
        pods,
        nodes_folded: folded,
    }
}

/// A DaemonSet whose status says its rollout is complete and healthy (every desired node has an
/// updated, available pod, nothing misscheduled, the spec observed) and without minReadySeconds
/// countdowns: the Rollout panel has nothing to show, so the per-node diagnosis is skipped (it is
/// the costliest part of a refresh with many nodes).
fn rollout_settled(cluster: &Cluster, namespace: &str, name: &str) -> bool {
    let Some(ds) = cluster.store().daemon_set(namespace, name) else {
        return true;
    };
    let min_ready = ds
        .spec
        .as_ref()
        .and_then(|s| s.min_ready_seconds)
        .unwrap_or(0);
    let Some(status) = ds.status.as_ref() else {
        return false;
    };
    let desired = status.desired_number_scheduled;
    min_ready == 0
        && status.observed_generation == ds.metadata.generation
        && status.current_number_scheduled == desired
        && status.number_ready == desired
        && status.number_available.unwrap_or(0) == desired
        && status.updated_number_scheduled.unwrap_or(0) == desired
        && status.number_misscheduled == 0
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
            let revision = util::revision_hash_label(&pod.metadata);
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_large_rollout_lists_the_nodes_in_progress_first_and_counts_the_rest() {
        let mut session = dsplay_kubectl::Session::new(dsplay_kubectl::SessionOptions::default());
        session.execute("sim node add --count 60 --prefix n-");
        session.execute(&crate::demo::apply_command(crate::demo::DEMO_DAEMON_SET));
        session.execute("sim settle\nkubectl set image ds/demo demo=busybox:new\nsim advance 20s");
        let views = rollout_views(session.cluster());
        let view = views
            .iter()
            .find(|v| v.daemon_set == "default/demo")
            .expect("rolling");
        let d = &view.diagnosis;
        assert_eq!(d.nodes.len(), NODES_LISTED);
        assert_eq!(
            d.nodes.len() + view.nodes_folded.iter().sum::<usize>(),
            d.desired as usize
        );
        assert!(d.nodes.windows(2).all(|w| w[0].node < w[1].node));
        // The node being replaced is listed, old ones wait, updated ones are counted.
        assert!(d.nodes.iter().any(|n| n.unavailable), "{:?}", d.nodes);
        assert!(view.nodes_folded[1] > 0, "{:?}", view.nodes_folded);
        assert!(view
            .pods
            .iter()
            .all(|p| d.nodes.iter().any(|n| n.node == p.node)));
    }
}
