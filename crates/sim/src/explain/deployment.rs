//! A Deployment's rollout: its ReplicaSets (new and old) with their counts, and what holds the
//! next step back — a pause, pods that cannot be created (ReplicaFailure), a passed progress
//! deadline, or the maxSurge / maxUnavailable budgets `rolloutRolling` works within.

use crate::cluster::Cluster;
use crate::controller::deployment::util::{
    actual_replica_count, available_replica_count, deployment_complete, deployment_replicas,
    find_new_replica_set, get_condition, is_rolling_update, max_surge, max_unavailable, revision,
    rs_replicas,
};
use crate::error::{ApiError, ApiResult};
use dsplay_api::types::*;
use dsplay_api::Kind;

/// A Deployment's rollout as `sim rollout deploy/NAME` prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeploymentRollout {
    /// `RollingUpdate maxSurge=N maxUnavailable=M` or `Recreate`.
    pub strategy: String,
    /// spec.replicas, then status updated / ready / available replicas.
    pub counts: (i32, i32, i32, i32),
    /// One line per ReplicaSet with pods or replicas wanted, the new one first.
    pub replica_sets: Vec<String>,
    /// What holds the rollout back, one line each.
    pub blocked: Vec<String>,
    /// Every replica updated and available.
    pub complete: bool,
}

/// Diagnoses the rollout of the Deployment `namespace/name`.
///
/// Upstream: pkg/controller/deployment/rolling.go reconcileNewReplicaSet,
/// reconcileOldReplicaSets (the budgets); progress.go (ProgressDeadlineExceeded,
/// ReplicaFailure); sync.go (paused).
pub fn diagnose_deployment_rollout(
    cluster: &Cluster,
    namespace: &str,
    name: &str,
) -> ApiResult<DeploymentRollout> {
    let store = cluster.store();
    let d = store
        .deployment(namespace, name)
        .ok_or_else(|| ApiError::NotFound {
            kind: Kind::Deployment,
            name: name.to_string(),
        })?;
    let uid = d.metadata.uid.clone().unwrap_or_default();
    let owned: Vec<&ReplicaSet> = store
        .replica_sets()
        .filter(|rs| crate::controller::replicaset::controller_uid(&rs.metadata) == Some(&uid))
        .collect();
    let new = find_new_replica_set(d, &owned);
    let status = d.status.clone().unwrap_or_default();
    let replicas = deployment_replicas(d);
    let (surge, unavailable) = (max_surge(d), max_unavailable(d));
    let recreate = !is_rolling_update(d);
    let strategy = if recreate {
        "Recreate".to_string()
    } else {
        format!("RollingUpdate maxSurge={surge} maxUnavailable={unavailable}")
    };
    let is_new = |rs: &ReplicaSet| new.is_some_and(|n| n.metadata.uid == rs.metadata.uid);
    let mut ordered: Vec<&ReplicaSet> = new.into_iter().collect();
    let mut old: Vec<&ReplicaSet> = owned.iter().copied().filter(|rs| !is_new(rs)).collect();
    old.sort_by_key(|rs| std::cmp::Reverse(revision(&rs.metadata)));
    ordered.extend(old.iter().copied());
    let replica_sets = ordered
        .iter()
        .filter(|rs| {
            is_new(rs) || rs_replicas(rs) > 0 || rs.status.as_ref().is_some_and(|s| s.replicas > 0)
        })
        .map(|rs| {
            let age = if is_new(rs) { "new" } else { "old" };
            let s = rs.status.clone().unwrap_or_default();
            format!(
                "{} ({age}, revision {}): {} desired, {} current, {} ready",
                rs.metadata.name.as_deref().unwrap_or(""),
                revision(&rs.metadata),
                rs_replicas(rs),
                s.replicas,
                s.ready_replicas.unwrap_or(0)
            )
        })
        .collect();
    let mut blocked = Vec::new();
    if d.spec.as_ref().and_then(|s| s.paused).unwrap_or(false) {
        blocked.push(format!(
            "paused: the controller does not roll out (kubectl rollout resume deploy/{name})"
        ));
    }
    if let Some(c) = get_condition(&status, "ReplicaFailure") {
        blocked.push(format!(
            "pods cannot be created ({}): {}",
            c.reason.as_deref().unwrap_or(""),
            c.message.as_deref().unwrap_or("")
        ));
    }
    if get_condition(&status, "Progressing")
        .is_some_and(|c| c.reason.as_deref() == Some("ProgressDeadlineExceeded"))
    {
        blocked.push("progress deadline exceeded (Progressing=False)".to_string());
    }
    let complete = deployment_complete(d, &status);
    let old_with_pods = old.iter().any(|rs| rs_replicas(rs) > 0);
    if !recreate && !complete {
        let total = actual_replica_count(&owned);
        let new_short = new.is_none_or(|n| rs_replicas(n) < replicas);
        if new_short && total >= replicas + surge {
            blocked.push(format!(
                "maxSurge reached: {total} pods, at most {}; the new ReplicaSet grows as old pods go",
                replicas + surge
            ));
        }
        let available = available_replica_count(&owned);
        let min_available = replicas - unavailable;
        if old_with_pods && available <= min_available {
            blocked.push(format!(
                "maxUnavailable reached: {available} available, at least {min_available} must stay; old pods go as new ones become available"
            ));
        }
    }
    Ok(DeploymentRollout {
        strategy,
        counts: (
            replicas,
            status.updated_replicas.unwrap_or(0),
            status.ready_replicas.unwrap_or(0),
            status.available_replicas.unwrap_or(0),
        ),
        replica_sets,
        blocked,
        complete,
    })
}
