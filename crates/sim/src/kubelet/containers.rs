//! Starting and restarting a pod's containers, and crashes: the kubelet's per-start events and
//! restart counting.

use super::image_ref::{image_id, normalized};
use super::{enter, event_for, pod_ip, readiness_delay_ms, PodRuntime, Stage};
use crate::cluster::{k8s_time, Cluster};
use crate::images::{crash_backoff_ms, CRASH_AFTER_MS};
use crate::pod_status::{
    apply_ready, condition, container_names, not_ready_condition, replace_condition, set_condition,
    set_ready, update_pod, waiting,
};
use dsplay_api::types::*;
use dsplay_api::Kind;
use k8s_openapi::api::core::v1::{
    ContainerState, ContainerStateRunning, ContainerStateTerminated, VolumeMountStatus,
};
use std::sync::Arc;

/// Image size the simulated registry reports in `Pulled` events.
pub(super) const IMAGE_SIZE_BYTES: u64 = 2_156_003;

/// Creates and starts every container of the pod, with `Created` and `Started` events per
/// container. On a restart (`restart`), each container first goes through the image check again
/// (`Pulled … already present on machine`, or a new pull for `imagePullPolicy: Always`), and the new
/// container's restart count is the previous container's plus one: the count is stored on the
/// container when it is created, so it does not move while the pod waits in CrashLoopBackOff.
///
/// Upstream: `pkg/kubelet/kuberuntime/kuberuntime_container.go` `startContainer` (restartCount =
/// previous status' RestartCount + 1); `pkg/kubelet/images/image_manager.go` `EnsureImageExists`.
pub(super) fn start_containers(
    cluster: &mut Cluster,
    uid: &str,
    mut runtime: PodRuntime,
    pod: Arc<Pod>,
    restart: bool,
) {
    let (ns, name) = (runtime.namespace.clone(), runtime.name.clone());
    let now = k8s_time(cluster.now_ms);
    let containers: &[Container] = pod.spec.as_ref().map_or(&[], |s| &s.containers);
    for c in containers {
        if restart {
            ensure_image_exists_events(cluster, &pod, c, &runtime.node);
        }
        let created = ["Created container: ", &c.name].concat();
        event_for(cluster, &pod, &c.name, "Normal", "Created", &created);
        let started = ["Started container ", &c.name].concat();
        event_for(cluster, &pod, &c.name, "Normal", "Started", &started);
    }
    let behavior = cluster.image_behavior(
        containers
            .first()
            .and_then(|c| c.image.as_deref())
            .unwrap_or(""),
    );
    let pod_ip = pod_ip(cluster, &pod, &runtime.node);
    let readiness_delay = readiness_delay_ms(&pod);
    let ready_now = behavior.ready && !behavior.crash && readiness_delay.is_none();
    // The store's handle is then the only one: the write changes the pod in place.
    drop(pod);
    update_pod(cluster, &ns, &name, |pod, status| {
        let containers: &[Container] = pod.spec.as_ref().map_or(&[], |s| &s.containers);
        status.phase = Some("Running".into());
        if status.pod_ip.is_none() {
            status.pod_ip = Some(pod_ip.clone());
            status.pod_ips = Some(vec![k8s_openapi::api::core::v1::PodIP {
                ip: pod_ip.clone(),
            }]);
        }
        set_condition(status, "PodReadyToStartContainers", "True", &now);
        for cs in status.container_statuses.iter_mut().flatten() {
            if restart {
                if let Some(running) = cs.state.as_ref().and_then(|s| s.running.as_ref()) {
                    // Restarted at once (no back-off yet): the old container just ended.
                    cs.last_state = Some(terminated(cs, running.started_at.clone(), &now));
                }
                cs.restart_count += 1;
            }
            cs.state = Some(ContainerState {
                running: Some(ContainerStateRunning {
                    started_at: Some(now.clone()),
                }),
                ..Default::default()
            });
            cs.started = Some(true);
            if let Some(spec) = containers.iter().find(|c| c.name == cs.name) {
                let image = spec.image.as_deref().unwrap_or_default();
                cs.image = normalized(image);
                cs.image_id = image_id(image, IMAGE_DIGEST);
                cs.volume_mounts = volume_mount_statuses(spec);
            }
            cs.container_id = Some(container_id(&cs.name, cs.restart_count));
        }
        // Without a readiness probe the container is ready as soon as it runs: one status write.
        if ready_now {
            apply_ready(pod, status, true, &now);
        }
    });
    runtime.stage = Stage::Running;
    if behavior.crash {
        enter(cluster, uid.to_string(), runtime, CRASH_AFTER_MS);
    } else if let (Some(delay), true) = (readiness_delay, behavior.ready) {
        enter(cluster, uid.to_string(), runtime, delay);
    } else {
        runtime.epoch += 1;
        cluster.pods_runtime.insert(uid.to_string(), runtime);
    }
}

/// A container of a `--crash` image exited with code 1: restart it at once the first time, else
/// wait in CrashLoopBackOff (10 s, doubling, at most 5 min) with a `BackOff` event.
///
/// Upstream: `pkg/kubelet/kuberuntime/kuberuntime_manager.go` `doBackOff`.
pub(super) fn crash(cluster: &mut Cluster, uid: &str, mut runtime: PodRuntime, pod: Arc<Pod>) {
    let (ns, name) = (runtime.namespace.clone(), runtime.name.clone());
    runtime.failures += 1;
    set_ready(cluster, &ns, &name, false);
    let backoff = crash_backoff_ms(runtime.failures);
    if backoff == 0 {
        start_containers(cluster, uid, runtime, pod, true);
        return;
    }
    let now = k8s_time(cluster.now_ms);
    let names: Vec<String> = container_names(&pod);
    update_pod(cluster, &ns, &name, |_, status| {
        for cs in status.container_statuses.iter_mut().flatten() {
            let started = cs
                .state
                .as_ref()
                .and_then(|s| s.running.as_ref())
                .and_then(|r| r.started_at.clone());
            cs.last_state = Some(terminated(cs, started, &now));
            cs.started = Some(false);
            cs.state = Some(waiting(
                "CrashLoopBackOff",
                Some(format!(
                    "back-off {}s restarting failed container={} pod={}_{}({})",
                    backoff / 1000,
                    cs.name,
                    name,
                    ns,
                    uid
                )),
            ));
        }
    });
    for c in &names {
        event_for(
            cluster,
            &pod,
            c,
            "Warning",
            "BackOff",
            &format!("Back-off restarting failed container {c} in pod {name}_{ns}({uid})"),
        );
    }
    runtime.stage = Stage::CrashBackOff;
    enter(cluster, uid.to_string(), runtime, backoff);
}

/// The image check before a container is created again: a new pull for `Always`, else the image is
/// already on the node.
///
/// Upstream: `pkg/kubelet/images/image_manager.go` `EnsureImageExists`, `shouldPullImage`.
fn ensure_image_exists_events(cluster: &mut Cluster, pod: &Pod, c: &Container, node: &str) {
    let image = c.image.clone().unwrap_or_default();
    let present = cluster
        .nodes_runtime
        .get(node)
        .is_some_and(|n| n.images.contains(&image));
    if c.image_pull_policy.as_deref() == Some("Always") || !present {
        let pulling = format!("Pulling image \"{image}\"");
        event_for(cluster, pod, &c.name, "Normal", "Pulling", &pulling);
        let pulled = format!("Successfully pulled image \"{image}\" in 0s (0s including waiting). Image size: {IMAGE_SIZE_BYTES} bytes.");
        event_for(cluster, pod, &c.name, "Normal", "Pulled", &pulled);
        cluster
            .nodes_runtime
            .get_or_default(node.to_string())
            .images
            .insert(image);
    } else {
        let message = format!("Container image \"{image}\" already present on machine");
        event_for(cluster, pod, &c.name, "Normal", "Pulled", &message);
    }
}

/// The state of a container that exited with code 1.
fn terminated(cs: &ContainerStatus, started_at: Option<Time>, now: &Time) -> ContainerState {
    ContainerState {
        terminated: Some(ContainerStateTerminated {
            exit_code: 1,
            reason: Some("Error".into()),
            started_at,
            finished_at: Some(now.clone()),
            container_id: cs.container_id.clone(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// The mounts a started container reports: its spec's, read-only ones with recursive read-only
/// `Disabled` (the default `recursiveReadOnly` request).
///
/// Upstream: `pkg/kubelet/kubelet_pods.go` `convertContainerStatus` (VolumeMounts, the
/// RecursiveReadOnlyMounts feature, on by default since v1.31).
fn volume_mount_statuses(spec: &Container) -> Option<Vec<VolumeMountStatus>> {
    let mounts = spec.volume_mounts.as_ref().filter(|m| !m.is_empty())?;
    Some(
        mounts
            .iter()
            .map(|m| {
                let read_only = m.read_only == Some(true);
                VolumeMountStatus {
                    name: m.name.clone(),
                    mount_path: m.mount_path.clone(),
                    read_only: read_only.then_some(true),
                    recursive_read_only: read_only.then(|| "Disabled".to_string()),
                }
            })
            .collect(),
    )
}

/// A stable fake containerd id; each restart is a new container with a new id.
fn container_id(name: &str, restart_count: i32) -> String {
    let seed = name.len() as u64 * 7919 + 17 + u64::try_from(restart_count).unwrap_or(0) * 104_729;
    // The 64 hex digits of a u64 (as `{seed:064x}` prints them, without its padding loop): one
    // id per container start.
    const PREFIX: &str = "containerd://000000000000000000000000000000000000000000000000";
    let mut id = String::with_capacity(PREFIX.len() + 16);
    id.push_str(PREFIX);
    crate::names::push_hex16(&mut id, seed);
    id
}

/// The digest the simulated registry gives every image (`imageID` is `<repository>@` it).
const IMAGE_DIGEST: &str =
    "sha256:000000000000000000000000000000000000000000000000000000000000da7a";

/// The kubelet's last status of a deleted pod once its containers are gone: a running container
/// terminated (exit code 0 `Completed`, or 137 `Error` when it was killed at the end of the grace
/// period), one that never ran `ContainerStatusUnknown`; phase Succeeded when every container exited
/// with 0, else Failed (a terminal pod is not restarted, whatever its restartPolicy); not ready.
///
/// Upstream: `pkg/kubelet/kubelet_pods.go` `getPhase` (`podIsTerminal`); `pkg/kubelet/status/
/// status_manager.go` `TerminatePod`; `pkg/kubelet/status/generate.go`
/// `GenerateContainersReadyCondition` (`PodCompleted`).
pub(super) fn stop_containers(cluster: &mut Cluster, ns: &str, name: &str, killed: bool) {
    let now = k8s_time(cluster.now_ms);
    update_pod(cluster, ns, name, |pod, status| {
        let names = container_names(pod);
        let mut all_succeeded = true;
        for cs in status.container_statuses.iter_mut().flatten() {
            let state = cs.state.take().unwrap_or_default();
            let stopped = match (state.running, state.terminated) {
                (Some(running), _) => ContainerStateTerminated {
                    exit_code: if killed { 137 } else { 0 },
                    reason: Some(if killed { "Error" } else { "Completed" }.into()),
                    started_at: running.started_at,
                    finished_at: Some(now.clone()),
                    container_id: cs.container_id.clone(),
                    ..Default::default()
                },
                (None, Some(terminated)) => terminated,
                (None, None) => ContainerStateTerminated {
                    exit_code: 137,
                    reason: Some("ContainerStatusUnknown".into()),
                    message: Some(
                        "The container could not be located when the pod was terminated".into(),
                    ),
                    ..Default::default()
                },
            };
            all_succeeded &= stopped.exit_code == 0;
            cs.state = Some(ContainerState {
                terminated: Some(stopped),
                ..Default::default()
            });
            cs.ready = false;
            cs.started = Some(false);
        }
        status.phase = Some(if all_succeeded { "Succeeded" } else { "Failed" }.into());
        set_condition(status, "PodReadyToStartContainers", "False", &now);
        for type_ in ["ContainersReady", "Ready"] {
            let not_ready = if all_succeeded {
                condition(type_, "False", Some("PodCompleted"), None, &now)
            } else {
                not_ready_condition(type_, &names, &now)
            };
            replace_condition(status, not_ready);
        }
    });
}

/// The kubelet's final delete of a pod whose containers are gone, with grace period 0: the API
/// server first shortens the pending graceful deletion (`deletionTimestamp` now,
/// `deletionGracePeriodSeconds: 0`, one more write a watch sees), then removes the object.
///
/// Upstream: `pkg/kubelet/status/status_manager.go` `syncPod` (`canBeDeleted`, `Delete` with
/// `GracePeriodSeconds: 0`); `apiserver/pkg/registry/rest/delete.go` `BeforeDelete`;
/// `apiserver/pkg/registry/generic/registry/store.go` `updateForGracefulDeletionAndFinalizers`.
pub(super) fn delete_with_zero_grace(cluster: &mut Cluster, ns: &str, name: &str) {
    let now = k8s_time(cluster.now_ms);
    let shortened = |meta: &ObjectMeta| {
        meta.deletion_grace_period_seconds == Some(0)
            && meta.deletion_timestamp.as_ref() == Some(&now)
    };
    if cluster
        .store
        .pod(ns, name)
        .is_some_and(|pod| !shortened(&pod.metadata))
    {
        cluster.modify_pod(ns, name, |pod| {
            pod.metadata.deletion_grace_period_seconds = Some(0);
            pod.metadata.deletion_timestamp = Some(now);
        });
    }
    cluster.remove_object(Kind::Pod, ns, name);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Container ids and the image digest keep the 64 hex digits `{:064x}` prints.
    #[test]
    fn container_ids_and_the_image_digest_are_64_hex_digits() {
        for (name, restarts) in [("c", 0), ("nginx", 3), ("", i32::MAX)] {
            let seed = name.len() as u64 * 7919 + 17 + restarts as u64 * 104_729;
            assert_eq!(
                container_id(name, restarts),
                format!("containerd://{seed:064x}")
            );
        }
        assert_eq!(IMAGE_DIGEST, format!("sha256:{:064x}", 0xda7a_u64));
    }
}
