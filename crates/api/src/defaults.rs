//! Defaulting as the API server does it on create/update (`SetDefaults_*` in `pkg/apis/*/v1/defaults.go`).

use crate::object::Object;
use crate::types::*;

/// Applies the API server's defaults to any object in place.
pub fn apply_defaults(object: &mut Object) {
    match object {
        Object::DaemonSet(ds) => default_daemon_set(ds),
        Object::Deployment(d) => default_deployment(d),
        Object::ReplicaSet(rs) => default_replica_set(rs),
        Object::Pod(pod) => default_pod(pod),
        Object::PriorityClass(pc) => {
            pc.preemption_policy
                .get_or_insert_with(|| "PreemptLowerPriority".to_string());
        }
        Object::Service(svc) => crate::service::default_service(svc),
        Object::StatefulSet(sts) => default_stateful_set(sts),
        Object::PersistentVolumeClaim(pvc) => default_persistent_volume_claim(pvc),
        Object::PersistentVolume(pv) => default_persistent_volume(pv),
        Object::StorageClass(sc) => {
            sc.reclaim_policy
                .get_or_insert_with(|| "Delete".to_string());
            sc.volume_binding_mode
                .get_or_insert_with(|| "Immediate".to_string());
        }
        _ => {}
    }
}

/// `SetDefaults_Pod`: what only a Pod gets, not a pod template — requests default to limits for
/// the resources a container limits but does not request, and with `hostNetwork` every container
/// port without a `hostPort` gets its `containerPort` — then the pod spec defaults.
///
/// Upstream: `pkg/apis/core/v1/defaults.go` `SetDefaults_Pod`, `defaultHostNetworkPorts`.
pub fn default_pod(pod: &mut Pod) {
    let Some(spec) = pod.spec.as_mut() else {
        return;
    };
    let host_network = spec.host_network == Some(true);
    for c in spec
        .containers
        .iter_mut()
        .chain(spec.init_containers.iter_mut().flatten())
    {
        if let Some(resources) = c.resources.as_mut() {
            if let Some(limits) = resources.limits.clone() {
                let requests = resources.requests.get_or_insert_with(Default::default);
                for (name, value) in limits {
                    requests.entry(name).or_insert(value);
                }
            }
        }
        if host_network {
            for port in c.ports.iter_mut().flatten() {
                if port.host_port.unwrap_or(0) == 0 {
                    port.host_port = Some(port.container_port);
                }
            }
        }
    }
    default_pod_spec(spec);
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

/// `SetDefaults_Deployment` (apps/v1): replicas 1, RollingUpdate with maxUnavailable and maxSurge
/// 25%, revisionHistoryLimit 10, progressDeadlineSeconds 600, and the pod template defaults.
#[doc(alias = "SetDefaults_Deployment")]
pub fn default_deployment(d: &mut Deployment) {
    let spec = d.spec.get_or_insert_with(Default::default);
    spec.replicas.get_or_insert(1);
    let strategy = spec.strategy.get_or_insert_with(Default::default);
    if strategy.type_.is_none() {
        strategy.type_ = Some("RollingUpdate".to_string());
    }
    if strategy.type_.as_deref() == Some("RollingUpdate") {
        let rolling = strategy.rolling_update.get_or_insert_with(Default::default);
        let quarter = || IntOrString::String("25%".to_string());
        rolling.max_unavailable.get_or_insert_with(quarter);
        rolling.max_surge.get_or_insert_with(quarter);
    }
    spec.revision_history_limit.get_or_insert(10);
    spec.progress_deadline_seconds.get_or_insert(600);
    if let Some(pod_spec) = spec.template.spec.as_mut() {
        default_pod_spec(pod_spec);
    }
}

/// `SetDefaults_ReplicaSet` (apps/v1): replicas 1, and the pod template defaults.
#[doc(alias = "SetDefaults_ReplicaSet")]
pub fn default_replica_set(rs: &mut ReplicaSet) {
    let spec = rs.spec.get_or_insert_with(Default::default);
    spec.replicas.get_or_insert(1);
    if let Some(pod_spec) = spec.template.as_mut().and_then(|t| t.spec.as_mut()) {
        default_pod_spec(pod_spec);
    }
}

/// `SetDefaults_StatefulSet` (apps/v1): OrderedReady, RollingUpdate with partition 0, the
/// PVC retention policy Retain/Retain, replicas 1, revisionHistoryLimit 10; then the generated
/// defaulters' pod template and claim template defaults.
#[doc(alias = "SetDefaults_StatefulSet")]
pub fn default_stateful_set(sts: &mut StatefulSet) {
    let spec = sts.spec.get_or_insert_with(Default::default);
    spec.pod_management_policy
        .get_or_insert_with(|| "OrderedReady".to_string());
    let strategy = spec.update_strategy.get_or_insert_with(Default::default);
    if strategy.type_.is_none() {
        strategy.type_ = Some("RollingUpdate".to_string());
        strategy.rolling_update.get_or_insert_with(Default::default);
    }
    if strategy.type_.as_deref() == Some("RollingUpdate") {
        if let Some(rolling) = strategy.rolling_update.as_mut() {
            rolling.partition.get_or_insert(0);
        }
    }
    let retention = spec
        .persistent_volume_claim_retention_policy
        .get_or_insert_with(Default::default);
    retention
        .when_deleted
        .get_or_insert_with(|| "Retain".to_string());
    retention
        .when_scaled
        .get_or_insert_with(|| "Retain".to_string());
    spec.replicas.get_or_insert(1);
    spec.revision_history_limit.get_or_insert(10);
    // v1.32's `serviceName` is a plain string field: an absent one reads back as "".
    spec.service_name.get_or_insert_with(String::new);
    if let Some(pod_spec) = spec.template.spec.as_mut() {
        default_pod_spec(pod_spec);
    }
    for claim in spec.volume_claim_templates.iter_mut().flatten() {
        default_persistent_volume_claim(claim);
    }
}

/// `SetDefaults_PersistentVolumeClaim` and `SetDefaults_PersistentVolumeClaimSpec`: phase
/// Pending, volumeMode Filesystem.
#[doc(alias = "SetDefaults_PersistentVolumeClaim")]
pub fn default_persistent_volume_claim(pvc: &mut PersistentVolumeClaim) {
    let spec = pvc.spec.get_or_insert_with(Default::default);
    spec.volume_mode
        .get_or_insert_with(|| "Filesystem".to_string());
    let status = pvc.status.get_or_insert_with(Default::default);
    status.phase.get_or_insert_with(|| "Pending".to_string());
}

/// `SetDefaults_PersistentVolume`: phase Pending, reclaimPolicy Retain, volumeMode Filesystem.
#[doc(alias = "SetDefaults_PersistentVolume")]
pub fn default_persistent_volume(pv: &mut PersistentVolume) {
    let spec = pv.spec.get_or_insert_with(Default::default);
    spec.persistent_volume_reclaim_policy
        .get_or_insert_with(|| "Retain".to_string());
    spec.volume_mode
        .get_or_insert_with(|| "Filesystem".to_string());
    let status = pv.status.get_or_insert_with(Default::default);
    status.phase.get_or_insert_with(|| "Pending".to_string());
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
    // `Convert_v1_PodSpec_To_core_PodSpec` / `Convert_core_PodSpec_To_v1_PodSpec`: the deprecated
    // `serviceAccount` and `serviceAccountName` are one field, read back as both.
    match (&spec.service_account_name, &spec.service_account) {
        (Some(name), None) => spec.service_account = Some(name.clone()),
        (None, Some(name)) => spec.service_account_name = Some(name.clone()),
        _ => {}
    }
    for volume in spec.volumes.iter_mut().flatten() {
        // `SetDefaults_HostPathVolumeSource`: an unset type is the empty string.
        if let Some(host_path) = volume.host_path.as_mut() {
            host_path.type_.get_or_insert_with(String::new);
        }
        // `SetDefaults_ConfigMapVolumeSource`, `SetDefaults_SecretVolumeSource`,
        // `SetDefaults_ProjectedVolumeSource`, `SetDefaults_DownwardAPIVolumeSource`: mode 0644.
        if let Some(config_map) = volume.config_map.as_mut() {
            config_map.default_mode.get_or_insert(0o644);
        }
        if let Some(secret) = volume.secret.as_mut() {
            secret.default_mode.get_or_insert(0o644);
        }
        if let Some(projected) = volume.projected.as_mut() {
            projected.default_mode.get_or_insert(0o644);
        }
        if let Some(downward) = volume.downward_api.as_mut() {
            downward.default_mode.get_or_insert(0o644);
            for item in downward.items.iter_mut().flatten() {
                if let Some(field) = item.field_ref.as_mut() {
                    default_field_selector(field);
                }
            }
        }
    }
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
    for env in c.env.iter_mut().flatten() {
        if let Some(field) = env.value_from.as_mut().and_then(|v| v.field_ref.as_mut()) {
            default_field_selector(field);
        }
    }
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
        if let Some(http) = probe.http_get.as_mut() {
            default_http_get(http);
        }
        probe.timeout_seconds.get_or_insert(1);
        probe.period_seconds.get_or_insert(10);
        probe.success_threshold.get_or_insert(1);
        probe.failure_threshold.get_or_insert(3);
    }
    if let Some(lifecycle) = c.lifecycle.as_mut() {
        for handler in [lifecycle.post_start.as_mut(), lifecycle.pre_stop.as_mut()]
            .into_iter()
            .flatten()
        {
            if let Some(http) = handler.http_get.as_mut() {
                default_http_get(http);
            }
        }
    }
}

/// `SetDefaults_ObjectFieldSelector`: apiVersion `v1`.
fn default_field_selector(field: &mut k8s_openapi::api::core::v1::ObjectFieldSelector) {
    if field.api_version.as_deref().unwrap_or("").is_empty() {
        field.api_version = Some("v1".to_string());
    }
}

/// `SetDefaults_HTTPGetAction`: path `/`, scheme `HTTP`.
fn default_http_get(http: &mut k8s_openapi::api::core::v1::HTTPGetAction) {
    if http.path.as_deref().unwrap_or("").is_empty() {
        http.path = Some("/".to_string());
    }
    if http.scheme.as_deref().unwrap_or("").is_empty() {
        http.scheme = Some("HTTP".to_string());
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

    /// The spec both tests default: a container with limits only and a port without hostPort,
    /// on the host network.
    fn host_network_spec() -> PodSpec {
        serde_json::from_value(serde_json::json!({
            "hostNetwork": true,
            "containers": [{
                "name": "c", "image": "nginx:1.27",
                "ports": [{"containerPort": 8080}],
                "resources": {"limits": {"cpu": "500m"}, "requests": {"memory": "64Mi"}},
                "readinessProbe": {"httpGet": {"port": 8080}}
            }],
            "volumes": [{"name": "log", "hostPath": {"path": "/var/log"}}]
        }))
        .unwrap()
    }

    /// Upstream `SetDefaults_Pod`: only a Pod gets requests from limits and hostPorts from
    /// containerPorts; a DaemonSet's template keeps them unset (`SetDefaults_PodSpec`).
    #[test]
    fn pod_only_defaults() {
        let mut pod = Pod {
            spec: Some(host_network_spec()),
            ..Default::default()
        };
        default_pod(&mut pod);
        let c = &pod.spec.as_ref().unwrap().containers[0];
        let requests = c.resources.as_ref().unwrap().requests.as_ref().unwrap();
        assert_eq!(requests.get("cpu").map(|q| q.0.as_str()), Some("500m"));
        assert_eq!(requests.get("memory").map(|q| q.0.as_str()), Some("64Mi"));
        assert_eq!(c.ports.as_ref().unwrap()[0].host_port, Some(8080));

        let mut ds = DaemonSet::default();
        ds.spec.get_or_insert_with(Default::default).template.spec = Some(host_network_spec());
        default_daemon_set(&mut ds);
        let spec = ds.spec.unwrap().template.spec.unwrap();
        let c = &spec.containers[0];
        assert_eq!(c.ports.as_ref().unwrap()[0].host_port, None);
        assert!(c
            .resources
            .as_ref()
            .unwrap()
            .requests
            .as_ref()
            .unwrap()
            .get("cpu")
            .is_none());
        // Upstream `SetDefaults_HTTPGetAction`, `SetDefaults_HostPathVolumeSource` apply to both.
        let http = c
            .readiness_probe
            .as_ref()
            .unwrap()
            .http_get
            .as_ref()
            .unwrap();
        assert_eq!(
            (http.path.as_deref(), http.scheme.as_deref()),
            (Some("/"), Some("HTTP"))
        );
        let host_path = spec.volumes.unwrap()[0].host_path.clone().unwrap();
        assert_eq!(host_path.type_.as_deref(), Some(""));
    }

    /// Upstream `SetDefaults_ConfigMapVolumeSource`, `SetDefaults_ObjectFieldSelector` and the
    /// `serviceAccount` ↔ `serviceAccountName` conversion, as `kubectl get -o yaml` shows them.
    #[test]
    fn volume_modes_field_selectors_and_service_account() {
        let mut spec: PodSpec = serde_json::from_value(serde_json::json!({
            "serviceAccountName": "agent",
            "containers": [{"name": "c", "image": "x", "env": [
                {"name": "NODE", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}}]}],
            "volumes": [{"name": "cfg", "configMap": {"name": "cfg"}},
                        {"name": "s", "secret": {"secretName": "s"}}]
        }))
        .unwrap();
        default_pod_spec(&mut spec);
        assert_eq!(spec.service_account.as_deref(), Some("agent"));
        let volumes = spec.volumes.as_ref().unwrap();
        assert_eq!(
            volumes[0].config_map.as_ref().unwrap().default_mode,
            Some(420)
        );
        assert_eq!(volumes[1].secret.as_ref().unwrap().default_mode, Some(420));
        let env = &spec.containers[0].env.as_ref().unwrap()[0];
        let field = env.value_from.as_ref().unwrap().field_ref.as_ref().unwrap();
        assert_eq!(field.api_version.as_deref(), Some("v1"));
    }
}
