//! The Deployment controller: one sync per Deployment, in the order of upstream `syncDeployment`.
//! Upstream: pkg/controller/deployment/deployment_controller.go, sync.go, rolling.go, recreate.go,
//! progress.go

pub mod rolling;
pub mod sync;
pub mod util;

use crate::api_server::object_reference;
use crate::cluster::Cluster;
use crate::controller::replicaset::{controller_ref, controller_uid};
use dsplay_api::types::*;
use dsplay_api::{selector, Kind, Object};
use std::collections::BTreeMap;

/// Event source component.
pub const COMPONENT: &str = "deployment-controller";

/// Syncs every Deployment, in namespace/name order. A sync writes nothing when the Deployment is
/// where it should be, so running it each round only costs time.
pub(crate) fn sync_all(cluster: &mut Cluster) {
    let keys: Vec<(String, String)> = cluster.store.deployments.keys().cloned().collect();
    let gone: Vec<(String, String)> = cluster
        .deadline_timers
        .keys()
        .filter(|k| !cluster.store.deployments.contains_key(*k))
        .cloned()
        .collect();
    for key in gone {
        if let Some(timer) = cluster.deadline_timers.remove(&key) {
            cluster.timers.remove(&timer);
        }
    }
    let force = cluster.apps.resync;
    let live: std::collections::BTreeSet<String> = cluster
        .store
        .deployments()
        .filter_map(|d| d.metadata.uid.clone())
        .collect();
    cluster.apps.deployments.retain(|uid, _| live.contains(uid));
    for (ns, name) in keys {
        let Some(d) = cluster.store.deployment(&ns, &name) else {
            continue;
        };
        let uid = d.metadata.uid.clone().unwrap_or_default();
        let log_len = cluster.store.watch_log().len();
        if !force && !needs_sync(cluster, d, &uid) {
            cluster.apps.deployments.insert(uid, log_len);
            continue;
        }
        cluster.apps.deployments.insert(uid, log_len);
        sync_deployment(cluster, &ns, &name);
    }
}

/// Whether anything a Deployment's sync reads was written since its last one: the Deployment, a
/// ReplicaSet of its namespace, or (Recreate waits for old pods to go) a pod there.
fn needs_sync(cluster: &Cluster, d: &Deployment, uid: &str) -> bool {
    let Some(&since) = cluster.apps.deployments.get(uid) else {
        return true;
    };
    let ns = d.metadata.namespace.as_deref().unwrap_or("");
    let name = d.metadata.name.as_deref().unwrap_or("");
    let recreate = !util::is_rolling_update(d);
    let log = cluster.store.watch_log();
    log[since.min(log.len())..].iter().any(|e| match e.kind {
        Kind::Deployment => e.namespace == ns && e.name == name,
        Kind::ReplicaSet => e.namespace == ns,
        Kind::Pod => recreate && e.namespace == ns,
        _ => false,
    })
}

/// `syncDeployment`: claim the ReplicaSets, then status only (deleting), paused conditions, a
/// scale (paused or a scaling event), or a rollout by strategy.
#[doc(alias = "syncDeployment")]
pub(crate) fn sync_deployment(cluster: &mut Cluster, ns: &str, name: &str) {
    let Some(mut d) = cluster.store.deployment(ns, name).cloned() else {
        return;
    };
    let Some(spec) = d.spec.clone() else { return };
    if spec
        .selector
        .match_labels
        .as_ref()
        .is_none_or(BTreeMap::is_empty)
        && spec
            .selector
            .match_expressions
            .as_ref()
            .is_none_or(Vec::is_empty)
    {
        cluster.record_event(
            &object_reference(Kind::Deployment, &d.metadata),
            "Warning",
            "SelectingAll",
            "This deployment is selecting all pods. A non-empty selector is required.",
            COMPONENT,
            None,
        );
        return;
    }
    let rs_list = get_replica_sets_for_deployment(cluster, &d);
    if d.metadata.deletion_timestamp.is_some() {
        sync::sync_status_only(cluster, &mut d, &rs_list);
        return;
    }
    sync::check_paused_conditions(cluster, &mut d);
    if spec.paused == Some(true) {
        sync::sync(cluster, &mut d, &rs_list);
        return;
    }
    if sync::is_scaling_event(cluster, &mut d, &rs_list) {
        sync::sync(cluster, &mut d, &rs_list);
        return;
    }
    let recreate = spec.strategy.as_ref().and_then(|s| s.type_.as_deref()) == Some("Recreate");
    if recreate {
        rolling::rollout_recreate(cluster, &mut d, &rs_list);
    } else {
        rolling::rollout_rolling(cluster, &mut d, &rs_list);
    }
}

/// `getReplicaSetsForDeployment` (`ReplicaSetControllerRefManager.ClaimReplicaSets`): the
/// ReplicaSets of the namespace the Deployment controls, adopting orphans its selector matches and
/// releasing its own the selector no longer matches.
#[doc(alias = "getReplicaSetsForDeployment")]
pub(crate) fn get_replica_sets_for_deployment(
    cluster: &mut Cluster,
    d: &Deployment,
) -> Vec<ReplicaSet> {
    let ns = d.metadata.namespace.clone().unwrap_or_default();
    let uid = d.metadata.uid.clone().unwrap_or_default();
    let Ok(sel) = selector::from_label_selector(d.spec.as_ref().map(|s| &s.selector)) else {
        return Vec::new();
    };
    let candidates: Vec<ReplicaSet> = cluster
        .store
        .replica_sets()
        .filter(|rs| rs.metadata.namespace.as_deref() == Some(ns.as_str()))
        .cloned()
        .collect();
    let empty = BTreeMap::new();
    let mut claimed = Vec::new();
    for mut rs in candidates {
        let matches = sel.matches(rs.metadata.labels.as_ref().unwrap_or(&empty));
        match controller_uid(&rs.metadata) {
            Some(owner) if owner == uid => {
                if matches || d.metadata.deletion_timestamp.is_some() {
                    claimed.push(rs);
                } else if rs.metadata.deletion_timestamp.is_none() {
                    if let Some(refs) = rs.metadata.owner_references.as_mut() {
                        refs.retain(|r| r.uid != uid);
                    }
                    cluster.write(Object::ReplicaSet(rs));
                }
            }
            None if matches
                && d.metadata.deletion_timestamp.is_none()
                && rs.metadata.deletion_timestamp.is_none() =>
            {
                rs.metadata
                    .owner_references
                    .get_or_insert_with(Vec::new)
                    .push(controller_ref(Kind::Deployment, &d.metadata));
                cluster.write(Object::ReplicaSet(rs.clone()));
                if let Some(stored) = cluster
                    .store
                    .replica_set(&ns, rs.metadata.name.as_deref().unwrap_or(""))
                {
                    claimed.push(stored.clone());
                }
            }
            _ => {}
        }
    }
    claimed
}

/// The ReplicaSet as stored now (after a write), or the given copy when it is gone.
pub(crate) fn refreshed(cluster: &Cluster, rs: &ReplicaSet) -> ReplicaSet {
    cluster
        .store
        .replica_set(
            rs.metadata.namespace.as_deref().unwrap_or(""),
            rs.metadata.name.as_deref().unwrap_or(""),
        )
        .cloned()
        .unwrap_or_else(|| rs.clone())
}
