//! The Rollout panel's view: DaemonSets being updated or stuck, with `sim rollout`'s diagnosis and
//! their daemon pods by node.

use super::daemon_set_names;
use dsplay_sim::explain::{available_in_secs, diagnose_rollout_listing, RolloutDiagnosis};
use dsplay_sim::Cluster;

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
    /// The daemon pods of the listed nodes, by node, with old/new revision and the
    /// minReadySeconds countdown.
    pub pods: Vec<RolloutPod>,
}

/// The most nodes the panel lists for one DaemonSet.
pub const NODES_LISTED: usize = 40;

/// Every DaemonSet being updated or stuck, by namespace and name, with its diagnosis (at most
/// [`NODES_LISTED`] nodes: thousands of rows say nothing counts do not, and cost a frame to draw)
/// and the listed nodes' pods.
pub fn rollout_views(cluster: &Cluster) -> Vec<RolloutView> {
    daemon_set_names(cluster.store())
        .iter()
        .filter(|(ns, name)| !rollout_settled(cluster, ns, name))
        .filter_map(|(ns, name)| {
            let d = diagnose_rollout_listing(cluster, ns, name, NODES_LISTED).ok()?;
            // An update in progress (pods of an older revision left), pods still counting
            // minReadySeconds down, or anything stuck; not the first creation of pods without
            // minReadySeconds.
            let busy = d.updated < d.desired || !d.problems.is_empty() || d.counting_down > 0;
            busy.then(|| {
                let listed = |node: &str| {
                    d.nodes
                        .binary_search_by(|n| n.node.as_str().cmp(node))
                        .is_ok()
                };
                let pods = rollout_pods(cluster, ns, name, &listed);
                RolloutView {
                    daemon_set: format!("{ns}/{name}"),
                    diagnosis: d,
                    pods,
                }
            })
        })
        .collect()
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

/// The daemon pods of DaemonSet `namespace/name` meant for the nodes `listed` takes, by node then
/// name, with what the Rollout panel shows per node: old or new revision and the minReadySeconds
/// countdown. Empty if there is no such DaemonSet.
pub fn rollout_pods(
    cluster: &Cluster,
    namespace: &str,
    name: &str,
    listed: &dyn Fn(&str) -> bool,
) -> Vec<RolloutPod> {
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
    let mut pods: Vec<RolloutPod> = cluster
        .store()
        .pods_owned_by(&ds.metadata)
        .filter_map(|pod| {
            let node = util::target_node_name(pod).unwrap_or_default();
            if !listed(node) {
                return None;
            }
            let revision = util::revision_hash_label(&pod.metadata);
            let ready_since = util::ready_since_ms(pod);
            Some(RolloutPod {
                name: pod.metadata.name.clone().unwrap_or_default(),
                node: node.to_string(),
                new: !hash.is_empty() && revision == hash,
                revision,
                ready: ready_since.is_some(),
                terminating: pod.metadata.deletion_timestamp.is_some(),
                available_in: ready_since
                    .filter(|_| !util::is_pod_available(pod, min_ready, now))
                    .map(|since| available_in_secs(since, min_ready, now)),
            })
        })
        .collect();
    pods.sort_by(|a, b| (&a.node, &a.name).cmp(&(&b.node, &b.name)));
    pods
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let pods = rollout_pods(session.cluster(), "default", "demo", &|_| true);
            if let Some(p) = pods.iter().find(|p| p.new && p.available_in.is_some()) {
                seen.push(p.available_in.unwrap_or_default());
            }
            if pods.iter().any(|p| !p.new) && pods.iter().any(|p| p.new) {
                assert!(pods.windows(2).all(|w| w[0].node <= w[1].node));
            }
        }
        assert!(seen.contains(&10) || seen.contains(&9), "{seen:?}");
        assert!(seen.contains(&1), "{seen:?}");
        let done = rollout_pods(session.cluster(), "default", "demo", &|_| true);
        assert_eq!(done.len(), 2);
        assert!(
            done.iter().all(|p| p.new && p.available_in.is_none()),
            "{done:?}"
        );
        assert!(rollout_pods(session.cluster(), "default", "nope", &|_| true).is_empty());
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
            d.nodes.len() + d.nodes_folded.iter().sum::<usize>(),
            d.desired as usize
        );
        assert!(d.nodes.windows(2).all(|w| w[0].node < w[1].node));
        // The node being replaced is listed, old ones wait, updated ones are counted.
        assert!(d.nodes.iter().any(|n| n.unavailable), "{:?}", d.nodes);
        assert!(d.nodes_folded[1] > 0, "{:?}", d.nodes_folded);
        assert!(view
            .pods
            .iter()
            .all(|p| d.nodes.iter().any(|n| n.node == p.node)));
    }
}
