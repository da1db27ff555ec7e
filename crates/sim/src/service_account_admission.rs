//! The ServiceAccount admission plugin's token mount: every container of a pod gets the projected
//! `kube-api-access-<suffix>` volume (a bound token, the cluster CA, the namespace) at
//! `/var/run/secrets/kubernetes.io/serviceaccount`, unless the pod opts out
//! (`plugin/pkg/admission/serviceaccount/admission.go`).

use crate::cluster::Cluster;
use crate::names;
use dsplay_api::types::*;
use k8s_openapi::api::core::v1::{
    ConfigMapProjection, DownwardAPIProjection, DownwardAPIVolumeFile, KeyToPath,
    ObjectFieldSelector, ProjectedVolumeSource, ServiceAccountTokenProjection, Volume, VolumeMount,
    VolumeProjection,
};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

/// Where the token volume is mounted (`DefaultAPITokenMountPath`).
pub const TOKEN_MOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

/// The token volume's name prefix (`ServiceAccountVolumeName`).
pub(crate) const VOLUME_PREFIX: &str = "kube-api-access-";

impl Cluster {
    /// Mounts the service account token into every container (init containers first) that has
    /// nothing at [`TOKEN_MOUNT_PATH`] yet, and adds the volume when one was mounted.
    ///
    /// The volume's random suffix comes from its own generator seeded by the cluster's seed and
    /// resourceVersion, so it leaves the names the cluster's RNG gives (pods, uids) as they were.
    ///
    /// Upstream: `plugin/pkg/admission/serviceaccount/admission.go` `mountServiceAccountToken`,
    /// `TokenVolumeSource`.
    pub(crate) fn mount_service_account_token(&self, spec: &mut PodSpec) {
        if spec.automount_service_account_token == Some(false) {
            return;
        }
        let existing = spec
            .volumes
            .iter()
            .flatten()
            .find(|v| v.name.starts_with(VOLUME_PREFIX))
            .map(|v| v.name.clone());
        let name = existing.clone().unwrap_or_else(|| {
            let salt = self
                .store
                .resource_version_without_side_writes()
                .wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let mut rng = ChaCha8Rng::seed_from_u64(self.seed ^ salt);
            names::generate_name(&mut rng, VOLUME_PREFIX)
        });
        let mount = VolumeMount {
            name: name.clone(),
            mount_path: TOKEN_MOUNT_PATH.to_string(),
            read_only: Some(true),
            ..Default::default()
        };
        let mut mounted = false;
        for container in spec
            .init_containers
            .iter_mut()
            .flatten()
            .chain(spec.containers.iter_mut())
        {
            let mounts = container.volume_mounts.get_or_insert_with(Vec::new);
            if !mounts.iter().any(|m| m.mount_path == TOKEN_MOUNT_PATH) {
                mounts.push(mount.clone());
                mounted = true;
            }
        }
        if mounted && existing.is_none() {
            // A `Volume` is several kilobytes (one inline field per volume source), and the pod
            // keeps this vector for its life: grow it by exactly one, not by doubling.
            let volumes = spec.volumes.get_or_insert_with(Vec::new);
            volumes.reserve_exact(1);
            volumes.push(token_volume(name));
        }
    }
}

/// A pod template's spec, copied for a pod a controller creates, with room in its volumes for the
/// token volume [`Cluster::mount_service_account_token`] will append. A `Volume` is about 3 KB (one
/// inline field per volume source): an exactly sized copy grown by one in admission copies every
/// volume a second time (a tenth of a second of a 5 000-node add in the browser). Copied field by
/// field so that the volumes are copied once, into the larger vector; a field the API type gains
/// fails to compile here instead of being left out.
pub(crate) fn pod_spec_for_new_pod(template: &PodSpec) -> PodSpec {
    let PodSpec {
        active_deadline_seconds,
        affinity,
        automount_service_account_token,
        containers,
        dns_config,
        dns_policy,
        enable_service_links,
        ephemeral_containers,
        host_aliases,
        host_ipc,
        host_network,
        host_pid,
        host_users,
        hostname,
        image_pull_secrets,
        init_containers,
        node_name,
        node_selector,
        os,
        overhead,
        preemption_policy,
        priority,
        priority_class_name,
        readiness_gates,
        resource_claims,
        resources,
        restart_policy,
        runtime_class_name,
        scheduler_name,
        scheduling_gates,
        security_context,
        service_account,
        service_account_name,
        set_hostname_as_fqdn,
        share_process_namespace,
        subdomain,
        termination_grace_period_seconds,
        tolerations,
        topology_spread_constraints,
        volumes,
    } = template;
    let token_room = usize::from(
        *automount_service_account_token != Some(false)
            && !volumes
                .iter()
                .flatten()
                .any(|v| v.name.starts_with(VOLUME_PREFIX)),
    );
    let volumes = volumes.as_ref().map(|volumes| {
        let mut copy = Vec::with_capacity(volumes.len() + token_room);
        copy.extend_from_slice(volumes);
        copy
    });
    PodSpec {
        active_deadline_seconds: *active_deadline_seconds,
        affinity: affinity.clone(),
        automount_service_account_token: *automount_service_account_token,
        containers: containers.clone(),
        dns_config: dns_config.clone(),
        dns_policy: dns_policy.clone(),
        enable_service_links: *enable_service_links,
        ephemeral_containers: ephemeral_containers.clone(),
        host_aliases: host_aliases.clone(),
        host_ipc: *host_ipc,
        host_network: *host_network,
        host_pid: *host_pid,
        host_users: *host_users,
        hostname: hostname.clone(),
        image_pull_secrets: image_pull_secrets.clone(),
        init_containers: init_containers.clone(),
        node_name: node_name.clone(),
        node_selector: node_selector.clone(),
        os: os.clone(),
        overhead: overhead.clone(),
        preemption_policy: preemption_policy.clone(),
        priority: *priority,
        priority_class_name: priority_class_name.clone(),
        readiness_gates: readiness_gates.clone(),
        resource_claims: resource_claims.clone(),
        resources: resources.clone(),
        restart_policy: restart_policy.clone(),
        runtime_class_name: runtime_class_name.clone(),
        scheduler_name: scheduler_name.clone(),
        scheduling_gates: scheduling_gates.clone(),
        security_context: security_context.clone(),
        service_account: service_account.clone(),
        service_account_name: service_account_name.clone(),
        set_hostname_as_fqdn: *set_hostname_as_fqdn,
        share_process_namespace: *share_process_namespace,
        subdomain: subdomain.clone(),
        termination_grace_period_seconds: *termination_grace_period_seconds,
        tolerations: tolerations.clone(),
        topology_spread_constraints: topology_spread_constraints.clone(),
        volumes,
    }
}

/// The projected volume: a token for the API server audience (3607 s), `kube-root-ca.crt`'s
/// `ca.crt`, and the pod's namespace, mode 0644.
fn token_volume(name: String) -> Volume {
    Volume {
        name,
        projected: Some(ProjectedVolumeSource {
            default_mode: Some(0o644),
            sources: Some(vec![
                VolumeProjection {
                    service_account_token: Some(ServiceAccountTokenProjection {
                        expiration_seconds: Some(3607),
                        path: "token".to_string(),
                        ..Default::default()
                    }),
                    ..Default::default()
                },
                VolumeProjection {
                    config_map: Some(ConfigMapProjection {
                        name: "kube-root-ca.crt".to_string(),
                        items: Some(vec![KeyToPath {
                            key: "ca.crt".to_string(),
                            path: "ca.crt".to_string(),
                            ..Default::default()
                        }]),
                        ..Default::default()
                    }),
                    ..Default::default()
                },
                VolumeProjection {
                    downward_api: Some(DownwardAPIProjection {
                        items: Some(vec![DownwardAPIVolumeFile {
                            path: "namespace".to_string(),
                            field_ref: Some(ObjectFieldSelector {
                                api_version: Some("v1".to_string()),
                                field_path: "metadata.namespace".to_string(),
                            }),
                            ..Default::default()
                        }]),
                    }),
                    ..Default::default()
                },
            ]),
        }),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsplay_api::Object;

    fn pod(spec: serde_json::Value) -> Pod {
        let pod: Pod = serde_json::from_value(serde_json::json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "default"}, "spec": spec
        }))
        .unwrap();
        match Cluster::new_empty(1).create(Object::Pod(pod)).unwrap() {
            Object::Pod(pod) => pod,
            other => panic!("created {other:?}"),
        }
    }

    /// Upstream `TestAutomountsAPIToken`, `TestRespectsExistingMount`,
    /// `TestAutomountServiceAccountTokenFalse` (admission_test.go), in short.
    #[test]
    fn token_volume_mounted_into_every_container_unless_opted_out() {
        let spec = pod(
            serde_json::json!({"initContainers": [{"name": "i", "image": "x"}],
            "containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "x",
            "volumeMounts": [{"name": "mine", "mountPath": TOKEN_MOUNT_PATH}]}],
            "volumes": [{"name": "mine", "emptyDir": {}}]}),
        )
        .spec
        .unwrap();
        let volumes = spec.volumes.unwrap();
        let token = &volumes[1];
        assert!(token.name.starts_with("kube-api-access-") && token.name.len() == 21);
        let sources = token.projected.as_ref().unwrap().sources.as_ref().unwrap();
        assert_eq!(sources.len(), 3);
        let mounted = |c: &Container| {
            c.volume_mounts
                .iter()
                .flatten()
                .filter(|m| m.name == token.name && m.read_only == Some(true))
                .count()
        };
        assert_eq!(mounted(&spec.init_containers.unwrap()[0]), 1);
        assert_eq!(mounted(&spec.containers[0]), 1);
        assert_eq!(
            mounted(&spec.containers[1]),
            0,
            "an existing mount at the path wins"
        );
        let opted_out = pod(serde_json::json!({"automountServiceAccountToken": false,
            "containers": [{"name": "a", "image": "x"}]}))
        .spec
        .unwrap();
        assert!(opted_out.volumes.is_none());
        assert!(opted_out.containers[0].volume_mounts.is_none());
    }

    /// The pod's volumes take the room they need: a `Vec` grown by `push` doubles, and each
    /// spare `Volume` is kilobytes that the stored pod (a DaemonSet's, one per node) keeps for life.
    #[test]
    fn the_token_volume_adds_room_for_one_volume() {
        let mut spec = PodSpec {
            containers: vec![Container {
                name: "a".into(),
                ..Default::default()
            }],
            volumes: Some(
                (0..3)
                    .map(|i| Volume {
                        name: format!("v{i}"),
                        ..Default::default()
                    })
                    .collect(),
            ),
            ..Default::default()
        };
        Cluster::new_empty(1).mount_service_account_token(&mut spec);
        let volumes = spec.volumes.unwrap();
        assert_eq!((volumes.len(), volumes.capacity()), (4, 4));
    }

    /// A controller's copy of its template is the template, with room for the token volume
    /// only when admission will add one: the volumes are not copied a second time to grow.
    #[test]
    fn a_template_copied_for_a_new_pod_has_room_for_the_token_volume() {
        let volume = |name: &str| Volume {
            name: name.into(),
            ..Default::default()
        };
        let template = PodSpec {
            containers: vec![Container {
                name: "a".into(),
                image: Some("x".into()),
                ..Default::default()
            }],
            node_selector: Some([("disk".to_string(), "ssd".to_string())].into()),
            volumes: Some(vec![volume("v0"), volume("v1"), volume("v2")]),
            ..Default::default()
        };
        let copy = pod_spec_for_new_pod(&template);
        assert_eq!(copy, template);
        assert_eq!(copy.volumes.as_ref().map(Vec::capacity), Some(4));
        let mut admitted = copy;
        Cluster::new_empty(1).mount_service_account_token(&mut admitted);
        assert_eq!(
            admitted.volumes.as_ref().map(|v| (v.len(), v.capacity())),
            Some((4, 4))
        );

        let opted_out = PodSpec {
            automount_service_account_token: Some(false),
            ..template.clone()
        };
        let mut mounted_already = template.clone();
        mounted_already.volumes.as_mut().unwrap()[2] = volume("kube-api-access-abcde");
        for no_token in [opted_out, mounted_already] {
            let copy = pod_spec_for_new_pod(&no_token);
            assert_eq!(copy, no_token);
            assert_eq!(copy.volumes.as_ref().map(Vec::capacity), Some(3));
        }
    }
}
