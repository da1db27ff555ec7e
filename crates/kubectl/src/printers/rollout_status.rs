//! `kubectl rollout status` for DaemonSets: the message for one observed state, shared by the
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
