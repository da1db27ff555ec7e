//! Defaulting as the API server does it on create/update (`SetDefaults_*` in `pkg/apis/*/v1/defaults.go`).

use crate::object::Object;
use crate::types::*;

/// Applies the API server's defaults to any object in place.
pub fn apply_defaults(object: &mut Object) {
    match object {
        Object::DaemonSet(ds) => default_daemon_set(ds),
        Object::Pod(pod) => {
            if let Some(spec) = pod.spec.as_mut() {
                default_pod_spec(spec);
            }
        }
        Object::PriorityClass(pc) => {
            pc.preemption_policy
                .get_or_insert_with(|| "PreemptLowerPriority".to_string());
        }
        _ => {}
    }
}

/// `SetDefaults_DaemonSet`: RollingUpdate with maxUnavailable 1 / maxSurge 0, revisionHistoryLimit 10,
/// and the pod template defaults.
pub fn default_daemon_set(ds: &mut DaemonSet) {
    let spec = ds.spec.get_or_insert_with(Default::default);
    let strategy = spec.update_strategy.get_or_insert_with(Default::default);
    if strategy.type_.is_none() {
        strategy.type_ = Some("RollingUpdate".to_string());
    }
    if strategy.type_.as_deref() == Some("RollingUpdate") {
        let rolling = strategy.rolling_update.get_or_insert_with(Default::default);
        if rolling.max_unavailable.is_none() {
            rolling.max_unavailable = Some(IntOrString::Int(1));
        }
        if rolling.max_surge.is_none() {
            rolling.max_surge = Some(IntOrString::Int(0));
        }
    }
    if spec.revision_history_limit.is_none() {
        spec.revision_history_limit = Some(10);
    }
    if let Some(pod_spec) = spec.template.spec.as_mut() {
        default_pod_spec(pod_spec);
    }
}

/// `SetDefaults_PodSpec` + container defaults.
pub fn default_pod_spec(spec: &mut PodSpec) {
    spec.dns_policy
        .get_or_insert_with(|| "ClusterFirst".to_string());
    spec.restart_policy
        .get_or_insert_with(|| "Always".to_string());
    spec.termination_grace_period_seconds.get_or_insert(30);
    spec.scheduler_name
        .get_or_insert_with(|| "default-scheduler".to_string());
    spec.security_context.get_or_insert_with(Default::default);
    for container in spec
        .containers
        .iter_mut()
        .chain(spec.init_containers.iter_mut().flatten())
    {
        default_container(container);
    }
}

fn default_container(c: &mut Container) {
    if c.image_pull_policy.is_none() {
        c.image_pull_policy =
            Some(default_pull_policy(c.image.as_deref().unwrap_or("")).to_string());
    }
    c.termination_message_path
        .get_or_insert_with(|| "/dev/termination-log".to_string());
    c.termination_message_policy
        .get_or_insert_with(|| "File".to_string());
    c.resources.get_or_insert_with(Default::default);
    for port in c.ports.iter_mut().flatten() {
        port.protocol.get_or_insert_with(|| "TCP".to_string());
    }
    for probe in [
        c.readiness_probe.as_mut(),
        c.liveness_probe.as_mut(),
        c.startup_probe.as_mut(),
    ]
    .into_iter()
    .flatten()
    {
        probe.timeout_seconds.get_or_insert(1);
        probe.period_seconds.get_or_insert(10);
        probe.success_threshold.get_or_insert(1);
        probe.failure_threshold.get_or_insert(3);
    }
}

/// `Always` for `:latest` or an untagged image, else `IfNotPresent` (digests count as tags).
pub fn default_pull_policy(image: &str) -> &'static str {
    let last = image.rsplit('/').next().unwrap_or(image);
    if image.contains('@') {
        return "IfNotPresent";
    }
    match last.split_once(':') {
        Some((_, "latest")) | None => "Always",
        Some(_) => "IfNotPresent",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pull_policy_by_tag() {
        let cases = [
            ("busybox", "Always"),
            ("nginx:latest", "Always"),
            ("nginx:1.14.0", "IfNotPresent"),
            ("localhost:5000/x", "Always"),
            ("a@sha256:00", "IfNotPresent"),
        ];
        for (image, want) in cases {
            assert_eq!(default_pull_policy(image), want, "{image}");
        }
    }

    #[test]
    fn daemonset_defaults() {
        let mut ds = DaemonSet::default();
        default_daemon_set(&mut ds);
        let spec = ds.spec.unwrap();
        let rolling = spec.update_strategy.unwrap().rolling_update.unwrap();
        assert_eq!(rolling.max_unavailable, Some(IntOrString::Int(1)));
        assert_eq!(rolling.max_surge, Some(IntOrString::Int(0)));
        assert_eq!(spec.revision_history_limit, Some(10));
    }
}
