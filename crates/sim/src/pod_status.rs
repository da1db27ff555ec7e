//! Pod status writes of the kubelet model: the Ready/ContainersReady conditions, waiting container
//! states, and the read-modify-write of a pod's status at the current instant.

use crate::cluster::{k8s_time, Cluster};
use dsplay_api::types::*;
use dsplay_api::Object;
use k8s_openapi::api::core::v1::{ContainerState, ContainerStateWaiting};

pub(crate) fn set_ready(cluster: &mut Cluster, ns: &str, name: &str, ready: bool) {
    let now = k8s_time(cluster.now_ms);
    update_pod(cluster, ns, name, |pod| {
        let names = container_names(pod);
        let status = pod.status.get_or_insert_with(Default::default);
        for cs in status.container_statuses.iter_mut().flatten() {
            cs.ready = ready;
        }
        for type_ in ["Ready", "ContainersReady"] {
            if ready {
                set_condition(status, type_, "True", &now);
            } else {
                let cond = not_ready_condition(type_, &names, &now);
                replace_condition(status, cond);
            }
        }
    });
}

/// Marks a pod not Ready (node lifecycle controller on an unreachable node).
pub(crate) fn mark_not_ready(cluster: &mut Cluster, ns: &str, name: &str) {
    let now = k8s_time(cluster.now_ms);
    update_pod(cluster, ns, name, |pod| {
        let status = pod.status.get_or_insert_with(Default::default);
        for cs in status.container_statuses.iter_mut().flatten() {
            cs.ready = false;
        }
        if dsplay_api::pod::is_pod_ready_condition_true(status) {
            set_condition(status, "Ready", "False", &now);
        }
    });
}

pub(crate) fn set_waiting(
    cluster: &mut Cluster,
    ns: &str,
    name: &str,
    reason: &str,
    message: Option<String>,
) {
    update_pod(cluster, ns, name, |pod| {
        let status = pod.status.get_or_insert_with(Default::default);
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
        Some(existing) if existing.status == new.status && existing.reason == new.reason => {}
        Some(existing) => *existing = new,
        None => conditions.push(new),
    }
}

/// Applies `f` to a stored pod and writes it back if it changed.
pub(crate) fn update_pod(cluster: &mut Cluster, ns: &str, name: &str, f: impl FnOnce(&mut Pod)) {
    let Some(old) = cluster.store.pod(ns, name).cloned() else {
        return;
    };
    let mut pod = old.clone();
    f(&mut pod);
    if pod != old {
        cluster.write(Object::Pod(pod));
    }
}

/// The names of the pod's (app) containers, in spec order.
pub(crate) fn container_names(pod: &Pod) -> Vec<String> {
    pod.spec
        .as_ref()
        .map(|s| s.containers.iter().map(|c| c.name.clone()).collect())
        .unwrap_or_default()
}
