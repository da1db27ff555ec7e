//! `kubectl rollout status` for DaemonSets, Deployments and StatefulSets: the message for one observed state, shared by the
//! in-process command and `dsplay serve` (which uses it to know when a waiting client is satisfied).

use dsplay_api::types::DaemonSet;

/// The `DaemonSetStatusViewer` message and whether the rollout is done (Err: no status view, e.g.
/// OnDelete). Upstream: `staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollout_status.go`
/// `DaemonSetStatusViewer.Status`.
pub fn status_message(ds: &DaemonSet) -> Result<(String, bool), String> {
    let spec = ds.spec.clone().unwrap_or_default();
    if spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.type_.as_deref())
        == Some("OnDelete")
    {
        return Err("rollout status is only available for RollingUpdate strategy type".into());
    }
    let name = ds.metadata.name.clone().unwrap_or_default();
    let status = ds.status.clone().unwrap_or_default();
    if ds.metadata.generation.unwrap_or(0) <= status.observed_generation.unwrap_or(0) {
        let desired = status.desired_number_scheduled;
        let updated = status.updated_number_scheduled.unwrap_or(0);
        let available = status.number_available.unwrap_or(0);
        if updated < desired {
            return Ok((format!("Waiting for daemon set \"{name}\" rollout to finish: {updated} out of {desired} new pods have been updated...\n"), false));
        }
        if available < desired {
            return Ok((format!("Waiting for daemon set \"{name}\" rollout to finish: {available} of {desired} updated pods are available...\n"), false));
        }
        return Ok((
            format!("daemon set \"{name}\" successfully rolled out\n"),
            true,
        ));
    }
    Ok((
        "Waiting for daemon set spec update to be observed...\n".into(),
        false,
    ))
}

/// The `DeploymentStatusViewer` message and whether the rollout is done (Err: the rollout exceeded
/// its progress deadline). Upstream: `staging/src/k8s.io/kubectl/pkg/polymorphichelpers/
/// rollout_status.go` `DeploymentStatusViewer.Status`.
pub fn deployment_status_message(
    d: &dsplay_api::types::Deployment,
) -> Result<(String, bool), String> {
    let name = d.metadata.name.clone().unwrap_or_default();
    let status = d.status.clone().unwrap_or_default();
    if d.metadata.generation.unwrap_or(0) > status.observed_generation.unwrap_or(0) {
        return Ok((
            "Waiting for deployment spec update to be observed...\n".into(),
            false,
        ));
    }
    let timed_out = status.conditions.iter().flatten().any(|c| {
        c.type_ == "Progressing" && c.reason.as_deref() == Some("ProgressDeadlineExceeded")
    });
    if timed_out {
        return Err(format!(
            "deployment \"{name}\" exceeded its progress deadline"
        ));
    }
    let replicas = status.replicas.unwrap_or(0);
    let updated = status.updated_replicas.unwrap_or(0);
    let available = status.available_replicas.unwrap_or(0);
    if let Some(wanted) = d.spec.as_ref().and_then(|s| s.replicas) {
        if updated < wanted {
            return Ok((format!("Waiting for deployment \"{name}\" rollout to finish: {updated} out of {wanted} new replicas have been updated...\n"), false));
        }
    }
    if replicas > updated {
        return Ok((format!("Waiting for deployment \"{name}\" rollout to finish: {} old replicas are pending termination...\n", replicas - updated), false));
    }
    if available < updated {
        return Ok((format!("Waiting for deployment \"{name}\" rollout to finish: {available} of {updated} updated replicas are available...\n"), false));
    }
    Ok((
        format!("deployment \"{name}\" successfully rolled out\n"),
        true,
    ))
}

/// The `StatefulSetStatusViewer` message and whether the rollout is done (Err: OnDelete). With a
/// `rollingUpdate` (the API server always defaults one) the rollout is "partitioned": done once
/// the pods from the partition up are updated.
/// Upstream: `staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollout_status.go`
/// `StatefulSetStatusViewer.Status`.
pub fn stateful_set_status_message(
    sts: &dsplay_api::types::StatefulSet,
) -> Result<(String, bool), String> {
    let spec = sts.spec.clone().unwrap_or_default();
    let strategy = spec.update_strategy.clone().unwrap_or_default();
    if strategy.type_.as_deref() != Some("RollingUpdate") {
        return Err("rollout status is only available for RollingUpdate strategy type".into());
    }
    let status = sts.status.clone().unwrap_or_default();
    let observed = status.observed_generation.unwrap_or(0);
    if observed == 0 || sts.metadata.generation.unwrap_or(0) > observed {
        return Ok((
            "Waiting for statefulset spec update to be observed...\n".into(),
            false,
        ));
    }
    let ready = status.ready_replicas.unwrap_or(0);
    if let Some(replicas) = spec.replicas {
        if ready < replicas {
            return Ok((
                format!("Waiting for {} pods to be ready...\n", replicas - ready),
                false,
            ));
        }
    }
    let updated = status.updated_replicas.unwrap_or(0);
    if let Some(rolling) = &strategy.rolling_update {
        if let (Some(replicas), Some(partition)) = (spec.replicas, rolling.partition) {
            if updated < replicas - partition {
                return Ok((format!("Waiting for partitioned roll out to finish: {updated} out of {} new pods have been updated...\n", replicas - partition), false));
            }
        }
        return Ok((
            format!("partitioned roll out complete: {updated} new pods have been updated...\n"),
            true,
        ));
    }
    let current = status.current_revision.unwrap_or_default();
    let update = status.update_revision.unwrap_or_default();
    if update != current {
        return Ok((format!("waiting for statefulset rolling update to complete {updated} pods at revision {update}...\n"), false));
    }
    Ok((
        format!(
            "statefulset rolling update complete {} pods at revision {current}...\n",
            status.current_replicas.unwrap_or(0)
        ),
        true,
    ))
}
