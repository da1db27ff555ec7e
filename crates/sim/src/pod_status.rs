//! Pod status writes of the kubelet model: the Ready/ContainersReady conditions, waiting container
//! states, and the read-modify-write of a pod's status at the current instant.

use crate::cluster::{k8s_time, Cluster};
use dsplay_api::types::*;
use k8s_openapi::api::core::v1::{ContainerState, ContainerStateWaiting};

/// Sets the containers' readiness and the pod's ContainersReady and Ready conditions; Ready also
/// needs every readiness gate's condition to be True.
///
/// Upstream: `pkg/kubelet/status/generate.go` `GenerateContainersReadyCondition`,
/// `GeneratePodReadyCondition`.
pub(crate) fn set_ready(cluster: &mut Cluster, ns: &str, name: &str, ready: bool) {
    let now = k8s_time(cluster.now_ms);
    update_pod(cluster, ns, name, |pod, status| {
        apply_ready(pod, status, ready, &now)
    });
}

/// Sets the containers' `ready` and the ContainersReady and Ready conditions in the pod's `status`
/// (the kubelet writes them with whatever else changed in the same sync).
pub(crate) fn apply_ready(pod: &Pod, status: &mut PodStatus, ready: bool, now: &Time) {
    let names = container_names(pod);
    let gates: Vec<String> = pod
        .spec
        .as_ref()
        .and_then(|s| s.readiness_gates.as_ref())
        .map(|g| g.iter().map(|g| g.condition_type.clone()).collect())
        .unwrap_or_default();
    for cs in status.container_statuses.iter_mut().flatten() {
        cs.ready = ready;
    }
    if !ready {
        for type_ in ["Ready", "ContainersReady"] {
            replace_condition(status, not_ready_condition(type_, &names, now));
        }
        return;
    }
    set_condition(status, "ContainersReady", "True", now);
    let conditions = status.conditions.as_deref().unwrap_or(&[]);
    let pod_ready = generate_pod_ready_condition(&gates, conditions, now);
    replace_condition(status, pod_ready);
}

/// The Ready condition of a pod whose containers are all ready: True unless a readiness gate's
/// condition is missing or not True (reason `ReadinessGatesNotReady`, one message per gate).
///
/// Upstream: `pkg/kubelet/status/generate.go` `GeneratePodReadyCondition`.
fn generate_pod_ready_condition(
    gates: &[String],
    conditions: &[PodCondition],
    now: &Time,
) -> PodCondition {
    let unready: Vec<String> = gates
        .iter()
        .filter_map(|gate| match conditions.iter().find(|c| &c.type_ == gate) {
            None => Some(format!(
                "corresponding condition of pod readiness gate \"{gate}\" does not exist."
            )),
            Some(c) if c.status != "True" => Some(format!(
                "the status of pod readiness gate \"{gate}\" is not \"True\", but {}",
                c.status
            )),
            Some(_) => None,
        })
        .collect();
    if unready.is_empty() {
        condition("Ready", "True", None, None, now)
    } else {
        condition(
            "Ready",
            "False",
            Some("ReadinessGatesNotReady"),
            Some(unready.join(", ")),
            now,
        )
    }
}

/// Marks a pod not Ready (node lifecycle controller on an unreachable node); true when its Ready
/// condition was True and is now False.
///
/// Upstream: `pkg/controller/util/node/controller_utils.go` `MarkPodsNotReady`.
pub(crate) fn mark_not_ready(cluster: &mut Cluster, ns: &str, name: &str) -> bool {
    let now = k8s_time(cluster.now_ms);
    let mut flipped = false;
    update_pod(cluster, ns, name, |_, status| {
        for cs in status.container_statuses.iter_mut().flatten() {
            cs.ready = false;
        }
        if dsplay_api::pod::is_pod_ready_condition_true(status) {
            set_condition(status, "Ready", "False", &now);
            flipped = true;
        }
    });
    flipped
}

pub(crate) fn set_waiting(
    cluster: &mut Cluster,
    ns: &str,
    name: &str,
    reason: &str,
    message: Option<String>,
) {
    update_pod(cluster, ns, name, |_, status| {
        for cs in status.container_statuses.iter_mut().flatten() {
            cs.state = Some(waiting(reason, message.clone()));
        }
    });
}

pub(crate) fn waiting(reason: &str, message: Option<String>) -> ContainerState {
    ContainerState {
        waiting: Some(ContainerStateWaiting {
            reason: Some(reason.into()),
            message,
        }),
        ..Default::default()
    }
}

pub(crate) fn condition(
    type_: &str,
    status: &str,
    reason: Option<&str>,
    message: Option<String>,
    now: &Time,
) -> PodCondition {
    PodCondition {
        type_: type_.into(),
        status: status.into(),
        reason: reason.map(str::to_string),
        message,
        last_transition_time: Some(now.clone()),
        last_probe_time: None,
        observed_generation: None,
    }
}

pub(crate) fn not_ready_condition(type_: &str, names: &[String], now: &Time) -> PodCondition {
    condition(
        type_,
        "False",
        Some("ContainersNotReady"),
        Some(format!(
            "containers with unready status: [{}]",
            names.join(" ")
        )),
        now,
    )
}

pub(crate) fn set_condition(status: &mut PodStatus, type_: &str, value: &str, now: &Time) {
    replace_condition(status, condition(type_, value, None, None, now));
}

pub(crate) fn replace_condition(status: &mut PodStatus, new: PodCondition) {
    let conditions = status.conditions.get_or_insert_with(Vec::new);
    match conditions.iter_mut().find(|c| c.type_ == new.type_) {
        // Same status: the transition time stays, reason and message follow.
        Some(existing) if existing.status == new.status => {
            existing.reason = new.reason;
            existing.message = new.message;
        }
        Some(existing) => *existing = new,
        None => conditions.push(new),
    }
}

/// Applies `f` to a stored pod's status (the default status when it has none) and writes the pod
/// if the status changed. `f` reads the rest of the pod; only the status is copied, and the write
/// changes the stored pod in place.
pub(crate) fn update_pod(
    cluster: &mut Cluster,
    ns: &str,
    name: &str,
    f: impl FnOnce(&Pod, &mut PodStatus),
) {
    let Some(pod) = cluster.store.pod(ns, name) else {
        return;
    };
    let mut status = pod.status.clone().unwrap_or_default();
    f(pod, &mut status);
    if pod.status.as_ref() != Some(&status) {
        cluster.modify_pod(ns, name, |pod| pod.status = Some(status));
    }
}

/// The names of the pod's (app) containers, in spec order.
pub(crate) fn container_names(pod: &Pod) -> Vec<String> {
    pod.spec
        .as_ref()
        .map(|s| s.containers.iter().map(|c| c.name.clone()).collect())
        .unwrap_or_default()
}
