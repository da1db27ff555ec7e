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
