//! What `kubectl describe deployment` reads besides the Deployment: its ReplicaSets, split into
//! the new one and the old ones as `GetAllReplicaSets` does, and its events.

use dsplay_api::types::*;
use dsplay_sim::controller::deployment::util::find_new_replica_set;
use dsplay_sim::Cluster;

/// `DeploymentDescriber.Describe`.
pub(crate) fn describe_deployment(cluster: &Cluster, d: &Deployment) -> String {
    let uid = d.metadata.uid.clone().unwrap_or_default();
    let owned: Vec<&ReplicaSet> = cluster
        .store()
        .replica_sets()
        .filter(|rs| rs.metadata.namespace == d.metadata.namespace)
        .filter(|rs| {
            rs.metadata
                .owner_references
                .iter()
                .flatten()
                .any(|r| r.controller == Some(true) && r.uid == uid)
        })
        .collect();
    let new = find_new_replica_set(d, &owned);
    let old: Vec<&ReplicaSet> = owned
        .iter()
        .copied()
        .filter(|rs| new.is_none_or(|n| n.metadata.name != rs.metadata.name))
        .collect();
    let events = super::get::events_for(cluster, Some(&uid));
    crate::printers::describe::describe_deployment(d, &old, new, &events, cluster.now())
}
