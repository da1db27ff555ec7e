//! `kubectl describe node` (`describe.go` `NodeDescriber`).

use super::pod::resource_milli;
use super::pod_template::quantity_string;
use super::{annotations_multiline, labels_multiline, rfc1123z, taints_multiline, Describe};
use crate::printers::age::age_since;
use crate::printers::get::node_roles;
use chrono::{DateTime, Utc};
use dsplay_api::quantity::{format_bytes_milli, format_cpu_milli, milli};
use dsplay_api::types::*;
use std::collections::BTreeMap;

fn percent(part: i128, total: i128) -> i128 {
    if total == 0 {
        0
    } else {
        (part as f64 / total as f64 * 100.0) as i128
    }
}

fn pod_requests_limits(pod: &Pod) -> (BTreeMap<String, i128>, BTreeMap<String, i128>) {
    let spec = pod.spec.clone().unwrap_or_default();
    let mut req: BTreeMap<String, i128> = BTreeMap::new();
    let mut lim: BTreeMap<String, i128> = BTreeMap::new();
    for c in &spec.containers {
        let res = c.resources.clone().unwrap_or_default();
        for (k, q) in res.requests.iter().flatten() {
            let e = req.entry(k.clone()).or_default();
            *e = e.saturating_add(milli(q).unwrap_or(0));
        }
        for (k, q) in res.limits.iter().flatten() {
            let e = lim.entry(k.clone()).or_default();
            *e = e.saturating_add(milli(q).unwrap_or(0));
        }
    }
    // Init containers run one at a time: the effective value is the max of each and the sum.
    for c in spec.init_containers.iter().flatten() {
        let res = c.resources.clone().unwrap_or_default();
        for (k, q) in res.requests.iter().flatten() {
            let v = milli(q).unwrap_or(0);
            let e = req.entry(k.clone()).or_default();
            *e = (*e).max(v);
        }
        for (k, q) in res.limits.iter().flatten() {
            let v = milli(q).unwrap_or(0);
            let e = lim.entry(k.clone()).or_default();
            *e = (*e).max(v);
        }
    }
    (req, lim)
}

fn fmt_resource(name: &str, m: i128) -> String {
    if name == "cpu" {
        format_cpu_milli(m)
    } else {
        format_bytes_milli(m)
    }
}

/// `kubectl describe node NAME`. `pods_on_node` are the pods bound to the node (terminal ones are
/// skipped); `events` are the node's events (by uid and by name).
pub fn describe_node(
    node: &Node,
    pods_on_node: &[&Pod],
    events: &[&Event],
    now: DateTime<Utc>,
) -> String {
    let mut w = Describe::new();
    let meta = &node.metadata;
    let spec = node.spec.clone().unwrap_or_default();
    let status = node.status.clone().unwrap_or_default();
    let name = meta.name.clone().unwrap_or_default();
    w.w(0, &format!("Name:\t{name}\n"));
    let roles = node_roles(node);
    w.w(
        0,
        &format!(
            "Roles:\t{}\n",
            if roles.is_empty() {
                "<none>".to_string()
            } else {
                roles.join(",")
            }
        ),
    );
    labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    let created = meta
        .creation_timestamp
        .as_ref()
        .map(|t| rfc1123z(&t.0))
        .unwrap_or_else(|| "Mon, 01 Jan 0001 00:00:00 +0000".into());
    w.w(0, &format!("CreationTimestamp:\t{created}\n"));
    taints_multiline(&mut w, "Taints", spec.taints.as_ref());
    w.w(
        0,
        &format!("Unschedulable:\t{}\n", spec.unschedulable.unwrap_or(false)),
    );
    // The simulator has no Lease objects: show the one the kubelet would hold, renewed at the last
    // heartbeat of the Ready condition.
    w.w(0, "Lease:\n");
    w.w(1, &format!("HolderIdentity:\t{name}\n"));
    w.w(1, "AcquireTime:\t<unset>\n");
    let conditions = status.conditions.clone().unwrap_or_default();
    let renew = conditions
        .iter()
        .find(|c| c.type_ == "Ready")
        .and_then(|c| c.last_heartbeat_time.as_ref())
        .map(|t| rfc1123z(&t.0))
        .unwrap_or_else(|| "<unset>".into());
    w.w(1, &format!("RenewTime:\t{renew}\n"));
    if !conditions.is_empty() {
        w.w(
            0,
            "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n",
        );
        w.w(
            1,
            "----\t------\t-----------------\t------------------\t------\t-------\n",
        );
        let zero = "Mon, 01 Jan 0001 00:00:00 +0000".to_string();
        for c in &conditions {
            w.w(
                1,
                &format!(
                    "{} \t{} \t{} \t{} \t{} \t{}\n",
                    c.type_,
                    c.status,
                    c.last_heartbeat_time
                        .as_ref()
                        .map(|t| rfc1123z(&t.0))
                        .unwrap_or_else(|| zero.clone()),
                    c.last_transition_time
                        .as_ref()
                        .map(|t| rfc1123z(&t.0))
                        .unwrap_or_else(|| zero.clone()),
                    c.reason.as_deref().unwrap_or(""),
                    c.message.as_deref().unwrap_or("")
                ),
            );
        }
    }
    w.w(0, "Addresses:\n");
    for a in status.addresses.iter().flatten() {
        w.w(1, &format!("{}:\t{}\n", a.type_, a.address));
    }
    for (title, list) in [
        ("Capacity", &status.capacity),
        ("Allocatable", &status.allocatable),
    ] {
        if let Some(list) = list.as_ref().filter(|l| !l.is_empty()) {
            w.w(0, &format!("{title}:\n"));
            for (k, q) in list {
                w.w(0, &format!("  {k}:\t{}\n", quantity_string(q)));
            }
        }
    }
    let info = status.node_info.clone().unwrap_or_default();
    w.w(0, "System Info:\n");
    for (label, value) in [
        ("Machine ID", &info.machine_id),
        ("System UUID", &info.system_uuid),
        ("Boot ID", &info.boot_id),
        ("Kernel Version", &info.kernel_version),
        ("OS Image", &info.os_image),
        ("Operating System", &info.operating_system),
        ("Architecture", &info.architecture),
        ("Container Runtime Version", &info.container_runtime_version),
        ("Kubelet Version", &info.kubelet_version),
        // kubectl v1.32 still prints it; v1.33 kubelets leave it empty (pkg/features
        // kube_features.go DisableNodeKubeProxyVersion is on by default from v1.33).
        ("Kube-Proxy Version", &info.kube_proxy_version),
    ] {
        w.w(0, &format!("  {label}:\t{value}\n"));
    }
    if let Some(cidr) = spec.pod_cidr.as_deref().filter(|s| !s.is_empty()) {
        w.w(0, &format!("PodCIDR:\t{cidr}\n"));
    }
    if let Some(cidrs) = spec.pod_cidrs.as_ref().filter(|v| !v.is_empty()) {
        w.w(0, &format!("PodCIDRs:\t{}\n", cidrs.join(",")));
    }
    if let Some(p) = spec.provider_id.as_deref().filter(|s| !s.is_empty()) {
        w.w(0, &format!("ProviderID:\t{p}\n"));
    }
    // Non-terminated pods and allocated resources.
    let mut pods: Vec<&Pod> = pods_on_node
        .iter()
        .copied()
        .filter(|p| {
            !matches!(
                p.status.as_ref().and_then(|s| s.phase.as_deref()),
                Some("Succeeded") | Some("Failed")
            )
        })
        .collect();
    pods.sort_by(|a, b| {
        (a.metadata.namespace.as_deref(), a.metadata.name.as_deref())
            .cmp(&(b.metadata.namespace.as_deref(), b.metadata.name.as_deref()))
    });
    let alloc = status
        .allocatable
        .clone()
        .filter(|a| !a.is_empty())
        .or_else(|| status.capacity.clone())
        .unwrap_or_default();
    let alloc_cpu = resource_milli(Some(&alloc), "cpu");
    let alloc_mem = resource_milli(Some(&alloc), "memory");
    w.w(
        0,
        &format!("Non-terminated Pods:\t({} in total)\n", pods.len()),
    );
    w.w(
        1,
        "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n",
    );
    w.w(
        1,
        "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n",
    );
    let mut total_req: BTreeMap<String, i128> = BTreeMap::new();
    let mut total_lim: BTreeMap<String, i128> = BTreeMap::new();
    for pod in &pods {
        let (req, lim) = pod_requests_limits(pod);
        let g = |m: &BTreeMap<String, i128>, k: &str| m.get(k).copied().unwrap_or(0);
        w.w(
            1,
            &format!(
                "{}\t{}\t\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{}\n",
                pod.metadata.namespace.as_deref().unwrap_or(""),
                pod.metadata.name.as_deref().unwrap_or(""),
                format_cpu_milli(g(&req, "cpu")),
                percent(g(&req, "cpu"), alloc_cpu),
                format_cpu_milli(g(&lim, "cpu")),
                percent(g(&lim, "cpu"), alloc_cpu),
                format_bytes_milli(g(&req, "memory")),
                percent(g(&req, "memory"), alloc_mem),
                format_bytes_milli(g(&lim, "memory")),
                percent(g(&lim, "memory"), alloc_mem),
                age_since(pod.metadata.creation_timestamp.as_ref().map(|t| &t.0), now)
            ),
        );
        for (k, v) in req {
            let e = total_req.entry(k).or_default();
            *e = e.saturating_add(v);
        }
        for (k, v) in lim {
            let e = total_lim.entry(k).or_default();
            *e = e.saturating_add(v);
        }
    }
    w.w(
        0,
        "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n",
    );
    w.w(1, "Resource\tRequests\tLimits\n");
    w.w(1, "--------\t--------\t------\n");
    let g = |m: &BTreeMap<String, i128>, k: &str| m.get(k).copied().unwrap_or(0);
    for r in ["cpu", "memory", "ephemeral-storage"] {
        let a = resource_milli(Some(&alloc), r);
        w.w(
            1,
            &format!(
                "{r}\t{} ({}%)\t{} ({}%)\n",
                fmt_resource(r, g(&total_req, r)),
                percent(g(&total_req, r), a),
                fmt_resource(r, g(&total_lim, r)),
                percent(g(&total_lim, r), a)
            ),
        );
    }
    for (k, _) in alloc.iter().filter(|(k, _)| k.starts_with("hugepages-")) {
        let a = resource_milli(Some(&alloc), k);
        w.w(
            1,
            &format!(
                "{k}\t{} ({}%)\t{} ({}%)\n",
                fmt_resource(k, g(&total_req, k)),
                percent(g(&total_req, k), a),
                fmt_resource(k, g(&total_lim, k)),
                percent(g(&total_lim, k), a)
            ),
        );
    }
    let standard = ["cpu", "memory", "ephemeral-storage", "pods", "storage"];
    for (k, _) in alloc.iter().filter(|(k, _)| {
        !k.starts_with("hugepages-")
            && !standard.contains(&k.as_str())
            && !k.starts_with("requests.")
            && !k.starts_with("limits.")
    }) {
        w.w(
            1,
            &format!(
                "{k}\t{}\t{}\n",
                g(&total_req, k) / 1000,
                g(&total_lim, k) / 1000
            ),
        );
    }
    w.events(events, now);
    w.finish()
}
