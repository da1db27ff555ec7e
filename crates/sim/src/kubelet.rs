//! The kubelet model (`docs/timing-model.md`): one state machine per pod bound to a node — image pull,
//! container start, readiness, crash loops, pull back-off and graceful termination.

use crate::api_server::object_reference;
use crate::cluster::{k8s_time, Cluster, Timer};
use crate::images::{pull_backoff_ms, STOP_MS};
use crate::pod_status::{
    condition, container_names, not_ready_condition, set_ready, set_waiting, update_pod, waiting,
};
use dsplay_api::types::*;
use dsplay_api::Kind;
use std::collections::BTreeSet;
use std::sync::Arc;

mod containers;
mod image_ref;

/// Per-node kubelet state the API does not show.
#[derive(Clone, Debug, Default)]
pub struct NodeRuntime {
    /// Images already pulled on the node.
    pub images: BTreeSet<String>,
    /// `sim node fail`: the kubelet stopped posting status and runs nothing.
    pub failed: bool,
    /// Bumped on fail/recover to invalidate pending grace timers.
    pub epoch: u64,
    /// Next host part for pod IPs in the node's pod CIDR.
    pub next_ip: u32,
}

/// Where one pod is in its life on the node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Pulling the image; the timer ends the pull.
    Pulling,
    /// The last pull failed (ErrImagePull); the timer enters back-off.
    PullFailed,
    /// Waiting to retry the pull (ImagePullBackOff).
    PullBackOff,
    /// Creating and starting the container; the timer starts it.
    Starting,
    /// The container runs; the timer (if any) makes it ready or crashes it.
    Running,
    /// The container crashed and waits for its restart (CrashLoopBackOff).
    CrashBackOff,
    /// SIGTERM sent; the timer ends the containers and the pod disappears.
    Terminating,
}

/// The kubelet's record of one pod.
#[derive(Clone, Debug)]
pub struct PodRuntime {
    /// Pod namespace.
    pub namespace: String,
    /// Pod name.
    pub name: String,
    /// Node the pod runs on.
    pub node: String,
    /// Current stage.
    pub stage: Stage,
    /// Invalidates timers of earlier stages.
    pub epoch: u64,
    /// Consecutive failures (crashes or pulls) for back-off.
    pub failures: u32,
    /// When the current stage's timer was due (for resuming after node recovery).
    pub stage_ms: i64,
}

/// Starts the kubelet for newly bound pods and termination for newly deleted ones.
pub(crate) fn sync(cluster: &mut Cluster) {
    // A kubelet acts on pod writes (bound, or deleted) and resumes skipped pods when their node is
    // written (created, recovered): look at those only. Clone just the pods it has to act on (not
    // started yet, or deleted and not stopping).
    let store = &cluster.store;
    let keys = cluster
        .cursors
        .kubelet
        .read(store)
        .pods_and_pods_on_nodes(store);
    let pods: Vec<Arc<Pod>> = keys
        .iter()
        .filter_map(|(ns, name)| store.pod_handle(ns, name))
        .filter(|p| p.spec.as_ref().is_some_and(|s| s.node_name.is_some()))
        .filter(|p| {
            let uid = p.metadata.uid.as_deref().unwrap_or("");
            match cluster.pods_runtime.get(uid) {
                None => true,
                Some(r) => p.metadata.deletion_timestamp.is_some() && r.stage != Stage::Terminating,
            }
        })
        .cloned()
        .collect();
    for pod in pods {
        let Some(node) = pod.spec.as_ref().and_then(|s| s.node_name.clone()) else {
            continue;
        };
        if cluster.store.node(&node).is_none() || cluster.node_failed(&node) {
            continue;
        }
        let uid = pod.metadata.uid.clone().unwrap_or_default();
        let deleting = pod.metadata.deletion_timestamp.is_some();
        match cluster.pods_runtime.get(&uid).map(|r| r.stage.clone()) {
            None if deleting => {
                // Never started: nothing to stop.
                cluster.remove_object(
                    Kind::Pod,
                    pod.metadata.namespace.as_deref().unwrap_or(""),
                    pod.metadata.name.as_deref().unwrap_or(""),
                );
            }
            None => start_pod(cluster, pod, &node),
            Some(stage) if deleting && stage != Stage::Terminating => {
                begin_termination(cluster, &pod)
            }
            Some(_) => {}
        }
    }
}

fn first_image(pod: &Pod) -> String {
    pod.spec
        .as_ref()
        .and_then(|s| s.containers.first())
        .and_then(|c| c.image.clone())
        .unwrap_or_default()
}

fn start_pod(cluster: &mut Cluster, pod: Arc<Pod>, node: &str) {
    let uid = pod.metadata.uid.clone().unwrap_or_default();
    let namespace = pod.metadata.namespace.clone().unwrap_or_default();
    let name = pod.metadata.name.clone().unwrap_or_default();
    let host_ip = node_internal_ip(cluster, node);
    let now = k8s_time(cluster.now_ms);
    // The image event below names the pod as it was before this write.
    let image = first_image(&pod);
    let pull_policy = pod
        .spec
        .as_ref()
        .and_then(|s| s.containers.first())
        .and_then(|c| c.image_pull_policy.clone())
        .unwrap_or_default();
    let (reference, host) = first_container_reference(&pod);
    // The store's handle is then the only one: the write changes the pod in place.
    drop(pod);
    update_pod(cluster, &namespace, &name, |pod, status| {
        let names = container_names(pod);
        let images: Vec<String> = pod
            .spec
            .as_ref()
            .map(|s| {
                s.containers
                    .iter()
                    .map(|c| c.image.clone().unwrap_or_default())
                    .collect()
            })
            .unwrap_or_default();
        status.phase = Some("Pending".into());
        status.host_ip = host_ip.clone();
        status.host_ips = host_ip
            .clone()
            .map(|ip| vec![k8s_openapi::api::core::v1::HostIP { ip }]);
        status.start_time = Some(now.clone());
        status.conditions = Some(vec![
            condition("PodReadyToStartContainers", "False", None, None, &now),
            condition("Initialized", "True", None, None, &now),
            not_ready_condition("Ready", &names, &now),
            not_ready_condition("ContainersReady", &names, &now),
            condition("PodScheduled", "True", None, None, &now),
        ]);
        status.container_statuses = Some(
            names
                .iter()
                .zip(images)
                .map(|(n, image)| ContainerStatus {
                    name: n.clone(),
                    image,
                    image_id: String::new(),
                    ready: false,
                    restart_count: 0,
                    started: Some(false),
                    state: Some(waiting("ContainerCreating", None)),
                    // The kubelet always reports a last state, empty until a container ends
                    // (`kubelet_pods.go` `convertToAPIContainerStatuses`).
                    last_state: Some(Default::default()),
                    ..Default::default()
                })
                .collect(),
        );
    });
    let mut runtime = PodRuntime {
        namespace,
        name,
        node: node.to_string(),
        stage: Stage::Pulling,
        epoch: 0,
        failures: 0,
        stage_ms: cluster.now_ms,
    };
    let cached = cluster
        .nodes_runtime
        .get(node)
        .is_some_and(|n| n.images.contains(&image));
    let behavior = cluster.image_behavior(&image);
    let host = host.as_deref();
    if cached && pull_policy != "Always" {
        let message = [
            "Container image \"",
            &image,
            "\" already present on machine",
        ]
        .concat();
        cluster.record_event_about(reference, "Normal", "Pulled", &message, "kubelet", host);
        runtime.stage = Stage::Starting;
        enter(cluster, uid, runtime, behavior.start_ms);
    } else {
        let message = ["Pulling image \"", &image, "\""].concat();
        cluster.record_event_about(reference, "Normal", "Pulling", &message, "kubelet", host);
        let pull_ms = if cached { 0 } else { behavior.pull_ms };
        enter(cluster, uid, runtime, pull_ms);
    }
}

/// Moves a runtime into its (already set) stage and arms the stage's timer.
fn enter(cluster: &mut Cluster, uid: String, mut runtime: PodRuntime, after_ms: i64) {
    runtime.epoch += 1;
    runtime.stage_ms = cluster.now_ms + after_ms;
    let epoch = runtime.epoch;
    cluster.pods_runtime.insert(uid.clone(), runtime);
    cluster.schedule(
        after_ms,
        Timer::Kubelet {
            pod_uid: uid,
            epoch,
        },
    );
}

/// A kubelet timer fired.
pub(crate) fn on_timer(cluster: &mut Cluster, uid: &str, epoch: u64) {
    let current = |r: &PodRuntime| r.epoch == epoch && !cluster.node_failed(&r.node);
    if !cluster.pods_runtime.get(uid).is_some_and(current) {
        return;
    }
    // Taken out (not copied): most stages hand it on to their next timer; the two that do not
    // put it back first.
    let Some(mut runtime) = cluster.pods_runtime.remove(uid) else {
        return;
    };
    let Some(pod) = cluster
        .store
        .pod_handle(&runtime.namespace, &runtime.name)
        .cloned()
    else {
        return;
    };
    let image = first_image(&pod);
    let behavior = cluster.image_behavior(&image);
    let (ns, name) = (runtime.namespace.as_str(), runtime.name.as_str());
    match runtime.stage {
        Stage::Pulling if behavior.pull_ok => {
            // The node's image cache, also for nodes added after start (`sim node add`).
            cluster
                .nodes_runtime
                .get_or_default(runtime.node.clone())
                .images
                .insert(image.clone());
            let secs = behavior.pull_ms as f64 / 1000.0;
            event(cluster, &pod, "Normal", "Pulled", &format!("Successfully pulled image \"{image}\" in {secs}s ({secs}s including waiting). Image size: {} bytes.", containers::IMAGE_SIZE_BYTES));
            runtime.stage = Stage::Starting;
            enter(cluster, uid.to_string(), runtime, behavior.start_ms);
        }
        Stage::Pulling => {
            runtime.failures += 1;
            let message = format!("Failed to pull image \"{image}\": rpc error: code = NotFound desc = failed to pull and unpack image \"{image}\": not found");
            event(cluster, &pod, "Warning", "Failed", &message);
            event(cluster, &pod, "Warning", "Failed", "Error: ErrImagePull");
            set_waiting(cluster, ns, name, "ErrImagePull", Some(message));
            runtime.stage = Stage::PullFailed;
            enter(cluster, uid.to_string(), runtime, 1000);
        }
        Stage::PullFailed => {
            event(
                cluster,
                &pod,
                "Normal",
                "BackOff",
                &format!("Back-off pulling image \"{image}\""),
            );
            event(
                cluster,
                &pod,
                "Warning",
                "Failed",
                "Error: ImagePullBackOff",
            );
            set_waiting(
                cluster,
                ns,
                name,
                "ImagePullBackOff",
                Some(format!("Back-off pulling image \"{image}\"")),
            );
            runtime.stage = Stage::PullBackOff;
            let wait = (pull_backoff_ms(runtime.failures) - 1000).max(0);
            enter(cluster, uid.to_string(), runtime, wait);
        }
        Stage::PullBackOff => {
            event(
                cluster,
                &pod,
                "Normal",
                "Pulling",
                &format!("Pulling image \"{image}\""),
            );
            runtime.stage = Stage::Pulling;
            enter(cluster, uid.to_string(), runtime, behavior.pull_ms);
        }
        Stage::Starting => containers::start_containers(cluster, uid, runtime, pod, false),
        Stage::CrashBackOff => containers::start_containers(cluster, uid, runtime, pod, true),
        Stage::Running if behavior.crash => containers::crash(cluster, uid, runtime, pod),
        Stage::Running => {
            let (ns, name) = (ns.to_string(), name.to_string());
            cluster.pods_runtime.insert(uid.to_string(), runtime);
            // The store's handle is then the only one: the write changes the pod in place.
            drop(pod);
            set_ready(cluster, &ns, &name, true);
        }
        Stage::Terminating => {
            let (ns, name) = (ns.to_string(), name.to_string());
            cluster.pods_runtime.insert(uid.to_string(), runtime);
            let (_, killed) = stop_delay_ms(&pod, &behavior, true);
            drop(pod);
            containers::stop_containers(cluster, &ns, &name, killed);
            containers::delete_with_zero_grace(cluster, &ns, &name);
        }
    }
}

fn begin_termination(cluster: &mut Cluster, pod: &Pod) {
    let uid = pod.metadata.uid.clone().unwrap_or_default();
    // Taken out, and put back with its next stage.
    let Some(mut runtime) = cluster.pods_runtime.remove(&uid) else {
        return;
    };
    let behavior = cluster.image_behavior(&first_image(pod));
    let running = matches!(runtime.stage, Stage::Running);
    for c in container_names(pod) {
        event(
            cluster,
            pod,
            "Normal",
            "Killing",
            &["Stopping container ", &c].concat(),
        );
    }
    let (after, _) = stop_delay_ms(pod, &behavior, running);
    runtime.stage = Stage::Terminating;
    enter(cluster, uid, runtime, after);
}

/// How long after SIGTERM the pod's containers are gone, and whether they were killed at the end of
/// the grace period (SIGKILL, exit code 137) rather than exiting on their own (1 s, exit code 0).
fn stop_delay_ms(pod: &Pod, behavior: &crate::images::ImageBehavior, running: bool) -> (i64, bool) {
    let grace_ms = pod
        .metadata
        .deletion_grace_period_seconds
        .unwrap_or(30)
        .max(0)
        .saturating_mul(1000);
    if running && behavior.ignore_sigterm {
        (grace_ms, true)
    } else {
        (STOP_MS.min(grace_ms), running && grace_ms < STOP_MS)
    }
}

/// `sim node fail`: the kubelet stops; its timers are suspended until recovery.
pub(crate) fn freeze_node(cluster: &mut Cluster, node: &str) {
    for (_, runtime) in cluster.pods_runtime.sorted_mut() {
        if runtime.node == node {
            runtime.epoch += 1;
        }
    }
}

/// `sim node recover`: resume every pod's current stage from now.
pub(crate) fn resume_node(cluster: &mut Cluster, node: &str) {
    // In uid order: the timers set below take sequence numbers in this order.
    let resumes: Vec<(String, PodRuntime)> = cluster
        .pods_runtime
        .sorted()
        .into_iter()
        .filter(|(_, r)| r.node == node)
        .map(|(u, r)| (u.clone(), r.clone()))
        .collect();
    for (uid, runtime) in resumes {
        let remaining = (runtime.stage_ms - cluster.now_ms).max(0);
        if runtime.stage == Stage::Running && remaining == 0 {
            // Running and settled: make readiness match the image again.
            let Some(pod) = cluster
                .store
                .pod(&runtime.namespace, &runtime.name)
                .cloned()
            else {
                continue;
            };
            let behavior = cluster.image_behavior(&first_image(&pod));
            set_ready(
                cluster,
                &runtime.namespace,
                &runtime.name,
                behavior.ready && !behavior.crash,
            );
            continue;
        }
        enter(cluster, uid, runtime, remaining);
    }
}

/// Whether the running pod `uid` still has a kubelet transition due: Ready after its readiness
/// probe's first successes (`initialDelaySeconds` + `periodSeconds` × `successThreshold`), or the
/// crash of a crashing image. A pod that is Running and not Ready with none due has stalled.
pub(crate) fn running_not_settled(cluster: &Cluster, uid: &str) -> bool {
    cluster.pods_runtime.get(uid).is_some_and(|runtime| {
        runtime.stage == Stage::Running
            && runtime.stage_ms > cluster.now_ms
            && !cluster.node_failed(&runtime.node)
    })
}

fn readiness_delay_ms(pod: &Pod) -> Option<i64> {
    let probe = pod
        .spec
        .as_ref()?
        .containers
        .iter()
        .find_map(|c| c.readiness_probe.clone())?;
    let initial = i64::from(probe.initial_delay_seconds.unwrap_or(0));
    let period = i64::from(probe.period_seconds.unwrap_or(10));
    let success = i64::from(probe.success_threshold.unwrap_or(1));
    Some(
        initial
            .saturating_add(period.saturating_mul(success))
            .saturating_mul(1000),
    )
}

fn event(cluster: &mut Cluster, pod: &Pod, type_: &str, reason: &str, message: &str) {
    let (reference, host) = first_container_reference(pod);
    cluster.record_event_about(
        reference,
        type_,
        reason,
        message,
        "kubelet",
        host.as_deref(),
    );
}

/// What a kubelet event about the pod's first container names: the container (with the pod's
/// resourceVersion now) and the pod's node, the event's source host.
fn first_container_reference(pod: &Pod) -> (ObjectReference, Option<String>) {
    let first = pod
        .spec
        .as_ref()
        .and_then(|s| s.containers.first())
        .map_or("", |c| c.name.as_str());
    let host = pod.spec.as_ref().and_then(|s| s.node_name.clone());
    (container_reference(pod, first), host)
}

/// The reference to one container of the pod (`spec.containers{NAME}`; the pod when `container`
/// is empty).
fn container_reference(pod: &Pod, container: &str) -> ObjectReference {
    let mut reference = object_reference(Kind::Pod, &pod.metadata);
    if !container.is_empty() {
        reference.field_path = Some(["spec.containers{", container, "}"].concat());
    }
    reference
}

/// Records a kubelet event about one container of the pod (`spec.containers{NAME}`).
fn event_for(
    cluster: &mut Cluster,
    pod: &Pod,
    container: &str,
    type_: &str,
    reason: &str,
    message: &str,
) {
    let reference = container_reference(pod, container);
    let host = pod.spec.as_ref().and_then(|s| s.node_name.as_deref());
    cluster.record_event_about(reference, type_, reason, message, "kubelet", host);
}

fn node_internal_ip(cluster: &Cluster, node: &str) -> Option<String> {
    cluster
        .store
        .node(node)?
        .status
        .as_ref()?
        .addresses
        .as_ref()?
        .iter()
        .find(|a| a.type_ == "InternalIP")
        .map(|a| a.address.clone())
}

fn pod_ip(cluster: &mut Cluster, pod: &Pod, node: &str) -> String {
    if pod
        .spec
        .as_ref()
        .and_then(|s| s.host_network)
        .unwrap_or(false)
    {
        return node_internal_ip(cluster, node).unwrap_or_default();
    }
    let cidr = cluster
        .store
        .node(node)
        .and_then(|n| n.spec.as_ref())
        .and_then(|s| s.pod_cidr.clone())
        .unwrap_or_else(|| "10.244.0.0/24".into());
    let base = cidr
        .split('/')
        .next()
        .unwrap_or("10.244.0.0")
        .rsplit_once('.')
        .map(|(b, _)| b.to_string())
        .unwrap_or_default();
    let runtime = cluster.nodes_runtime.get_or_default(node.to_string());
    runtime.next_ip = runtime.next_ip % 253 + 1;
    format!("{base}.{}", runtime.next_ip + 1)
}
