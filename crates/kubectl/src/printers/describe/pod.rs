//! `kubectl describe pod` (`describe.go` `PodDescriber`) and the pod's QoS class.

use super::pod_template::{describe_containers, describe_volumes};
use super::{annotations_multiline, labels_multiline, rfc1123z, tolerations_multiline, Describe};
use crate::printers::age::age_since;
use chrono::{DateTime, Utc};
use dsplay_api::quantity::milli;
use dsplay_api::types::*;
use std::collections::BTreeMap;

pub(super) fn resource_milli(list: Option<&BTreeMap<String, Quantity>>, name: &str) -> i128 {
    list.and_then(|l| l.get(name)).and_then(milli).unwrap_or(0)
}

/// `qos.GetPodQOS`: status.qosClass when set, else computed ([`dsplay_api::qos::compute_pod_qos`]).
pub fn pod_qos(pod: &Pod) -> String {
    if let Some(q) = pod
        .status
        .as_ref()
        .and_then(|s| s.qos_class.clone())
        .filter(|q| !q.is_empty())
    {
        return q;
    }
    let spec = pod.spec.clone().unwrap_or_default();
    dsplay_api::qos::compute_pod_qos(&spec).to_string()
}

/// `kubectl describe pod NAME`.
pub fn describe_pod(pod: &Pod, events: &[&Event], now: DateTime<Utc>) -> String {
    let mut w = Describe::new();
    let meta = &pod.metadata;
    let spec = pod.spec.clone().unwrap_or_default();
    let status = pod.status.clone().unwrap_or_default();
    w.w(
        0,
        &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")),
    );
    w.w(
        0,
        &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")),
    );
    if let Some(p) = spec.priority {
        w.w(0, &format!("Priority:\t{p}\n"));
    }
    if let Some(pc) = spec
        .priority_class_name
        .as_deref()
        .filter(|s| !s.is_empty())
    {
        w.w(0, &format!("Priority Class Name:\t{pc}\n"));
    }
    if let Some(sa) = spec
        .service_account_name
        .as_deref()
        .filter(|s| !s.is_empty())
    {
        w.w(0, &format!("Service Account:\t{sa}\n"));
    }
    match spec.node_name.as_deref().filter(|s| !s.is_empty()) {
        None => w.w(0, "Node:\t<none>\n"),
        Some(n) => w.w(
            0,
            &format!("Node:\t{n}/{}\n", status.host_ip.as_deref().unwrap_or("")),
        ),
    }
    if let Some(t) = &status.start_time {
        w.w(0, &format!("Start Time:\t{}\n", rfc1123z(&t.0)));
    }
    labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    let phase = status.phase.clone().unwrap_or_default();
    if let (Some(del), false) = (
        &meta.deletion_timestamp,
        phase == "Failed" || phase == "Succeeded",
    ) {
        w.w(
            0,
            &format!(
                "Status:\tTerminating (lasts {})\n",
                age_since(Some(&del.0), now)
            ),
        );
        w.w(
            0,
            &format!(
                "Termination Grace Period:\t{}s\n",
                meta.deletion_grace_period_seconds.unwrap_or(0)
            ),
        );
    } else {
        w.w(0, &format!("Status:\t{phase}\n"));
    }
    if let Some(r) = status.reason.as_deref().filter(|s| !s.is_empty()) {
        w.w(0, &format!("Reason:\t{r}\n"));
    }
    if let Some(m) = status.message.as_deref().filter(|s| !s.is_empty()) {
        w.w(0, &format!("Message:\t{m}\n"));
    }
    w.w(
        0,
        &format!("IP:\t{}\n", status.pod_ip.as_deref().unwrap_or("")),
    );
    let ips = status.pod_ips.clone().unwrap_or_default();
    if ips.is_empty() {
        w.w(0, "IPs:\t<none>\n");
    } else {
        w.w(0, "IPs:\n");
        for ip in &ips {
            w.w(1, &format!("IP:\t{}\n", ip.ip));
        }
    }
    if let Some(o) = meta
        .owner_references
        .iter()
        .flatten()
        .find(|o| o.controller == Some(true))
    {
        w.w(0, &format!("Controlled By:\t{}/{}\n", o.kind, o.name));
    }
    if let Some(n) = status
        .nominated_node_name
        .as_deref()
        .filter(|s| !s.is_empty())
    {
        w.w(0, &format!("NominatedNodeName:\t{n}\n"));
    }
    if let Some(init) = spec.init_containers.as_ref().filter(|v| !v.is_empty()) {
        describe_containers(
            &mut w,
            "Init Containers",
            init,
            status.init_container_statuses.as_ref(),
            "",
        );
    }
    describe_containers(
        &mut w,
        "Containers",
        &spec.containers,
        status.container_statuses.as_ref(),
        "",
    );
    let conditions = status.conditions.clone().unwrap_or_default();
    if let Some(gates) = spec.readiness_gates.as_ref().filter(|g| !g.is_empty()) {
        w.w(0, "Readiness Gates:\n  Type\tStatus\n");
        for g in gates {
            let st = conditions
                .iter()
                .find(|c| c.type_ == g.condition_type)
                .map(|c| c.status.clone())
                .unwrap_or_else(|| "<none>".into());
            w.w(1, &format!("{} \t{} \n", g.condition_type, st));
        }
    }
    if !conditions.is_empty() {
        w.w(0, "Conditions:\n  Type\tStatus\n");
        for c in &conditions {
            w.w(1, &format!("{} \t{} \n", c.type_, c.status));
        }
    }
    describe_volumes(&mut w, spec.volumes.as_ref(), "");
    w.w(0, &format!("QoS Class:\t{}\n", pod_qos(pod)));
    labels_multiline(&mut w, "Node-Selectors", spec.node_selector.as_ref());
    tolerations_multiline(&mut w, "Tolerations", spec.tolerations.as_ref());
    w.events(events, now);
    w.finish()
}
