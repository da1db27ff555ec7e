//! `kubectl describe service` (`describe.go` `ServiceDescriber`, `describeService`,
//! `formatEndpointSlices`), `describe endpoints` and `describe endpointslice`.

use super::{annotations_multiline, labels_multiline, Describe};
use crate::printers::table::format_labels;
use chrono::{DateTime, Utc};
use dsplay_api::types::*;

/// `formatEndpointSlices` for one port name: `ip:port` of the ready endpoints (nil ready counts
/// as ready), the first three then ` + N more...`; `<none>` without slices.
#[doc(alias = "formatEndpointSlices")]
pub fn format_endpoint_slices(slices: &[&EndpointSlice], port_name: &str) -> String {
    if slices.is_empty() {
        return "<none>".into();
    }
    const MAX: usize = 3;
    let mut list = Vec::new();
    let mut count = 0;
    let ready = |e: &Endpoint| e.conditions.as_ref().and_then(|c| c.ready).unwrap_or(true);
    for slice in slices {
        let ports = slice.ports.as_deref().unwrap_or(&[]);
        if ports.is_empty() {
            for e in slice.endpoints.iter().filter(|e| ready(e)) {
                if list.len() < MAX {
                    list.push(e.addresses.first().cloned().unwrap_or_default());
                }
                count += 1;
            }
            continue;
        }
        for port in ports
            .iter()
            .filter(|p| p.name.as_deref().unwrap_or("") == port_name)
        {
            for e in slice.endpoints.iter().filter(|e| ready(e)) {
                if list.len() < MAX {
                    let addr = e.addresses.first().cloned().unwrap_or_default();
                    list.push(format!("{addr}:{}", port.port.unwrap_or(0)));
                }
                count += 1;
            }
        }
    }
    let shown = list.join(",");
    if count > MAX {
        format!("{shown} + {} more...", count - MAX)
    } else {
        shown
    }
}

/// `kubectl describe svc NAME`: `slices` are the EndpointSlices labelled with the Service's name.
pub fn describe_service(
    svc: &Service,
    slices: &[&EndpointSlice],
    events: &[&Event],
    now: DateTime<Utc>,
) -> String {
    let mut w = Describe::new();
    let meta = &svc.metadata;
    let spec = svc.spec.clone().unwrap_or_default();
    w.w(
        0,
        &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")),
    );
    w.w(
        0,
        &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")),
    );
    labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.w(
        0,
        &format!(
            "Selector:\t{}\n",
            format_labels(&spec.selector.clone().unwrap_or_default())
        ),
    );
    w.w(
        0,
        &format!("Type:\t{}\n", spec.type_.as_deref().unwrap_or("")),
    );
    if let Some(policy) = &spec.ip_family_policy {
        w.w(0, &format!("IP Family Policy:\t{policy}\n"));
    }
    let families = spec.ip_families.clone().unwrap_or_default();
    w.w(
        0,
        &format!(
            "IP Families:\t{}\n",
            if families.is_empty() {
                "<none>".to_string()
            } else {
                families.join(",")
            }
        ),
    );
    w.w(
        0,
        &format!("IP:\t{}\n", spec.cluster_ip.as_deref().unwrap_or("")),
    );
    let ips = spec.cluster_ips.clone().unwrap_or_default();
    w.w(
        0,
        &format!(
            "IPs:\t{}\n",
            if ips.is_empty() {
                "<none>".to_string()
            } else {
                ips.join(",")
            }
        ),
    );
    if let Some(external) = spec.external_ips.as_ref().filter(|e| !e.is_empty()) {
        w.w(0, &format!("External IPs:\t{}\n", external.join(",")));
    }
    if let Some(name) = spec.external_name.as_ref().filter(|n| !n.is_empty()) {
        w.w(0, &format!("External Name:\t{name}\n"));
    }
    for port in spec.ports.iter().flatten() {
        let name = port
            .name
            .clone()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "<unset>".into());
        let protocol = port.protocol.as_deref().unwrap_or("");
        w.w(0, &format!("Port:\t{name}\t{}/{protocol}\n", port.port));
        match &port.target_port {
            Some(IntOrString::String(s)) => w.w(0, &format!("TargetPort:\t{s}/{protocol}\n")),
            Some(IntOrString::Int(n)) => w.w(0, &format!("TargetPort:\t{n}/{protocol}\n")),
            None => w.w(0, &format!("TargetPort:\t0/{protocol}\n")),
        }
        if let Some(node_port) = port.node_port.filter(|n| *n != 0) {
            w.w(0, &format!("NodePort:\t{name}\t{node_port}/{protocol}\n"));
        }
        w.w(
            0,
            &format!(
                "Endpoints:\t{}\n",
                format_endpoint_slices(slices, port.name.as_deref().unwrap_or(""))
            ),
        );
    }
    w.w(
        0,
        &format!(
            "Session Affinity:\t{}\n",
            spec.session_affinity.as_deref().unwrap_or("")
        ),
    );
    if let Some(policy) = spec
        .external_traffic_policy
        .as_ref()
        .filter(|p| !p.is_empty())
    {
        w.w(0, &format!("External Traffic Policy:\t{policy}\n"));
    }
    if let Some(policy) = &spec.internal_traffic_policy {
        w.w(0, &format!("Internal Traffic Policy:\t{policy}\n"));
    }
    w.events(events, now);
    w.finish()
}

/// `kubectl describe endpointslice NAME` (`describe.go` `describeEndpointSliceV1`): ports as a
/// small table, then each endpoint's addresses, ready condition, hostname, target, node and zone.
#[doc(alias = "describeEndpointSliceV1")]
pub fn describe_endpoint_slice(
    slice: &EndpointSlice,
    events: &[&Event],
    now: DateTime<Utc>,
) -> String {
    let mut w = Describe::new();
    let meta = &slice.metadata;
    w.w(
        0,
        &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")),
    );
    w.w(
        0,
        &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")),
    );
    labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.w(0, &format!("AddressType:\t{}\n", slice.address_type));
    let ports = slice.ports.as_deref().unwrap_or(&[]);
    if ports.is_empty() {
        w.w(0, "Ports: <unset>\n");
    } else {
        w.w(0, "Ports:\n");
        let rows = ports.iter().map(|port| {
            let number = port.port.map(|p| p.to_string());
            (port.name.as_deref(), number, port.protocol.as_deref())
        });
        ports_table(&mut w, 1, rows);
    }
    if slice.endpoints.is_empty() {
        w.w(0, "Endpoints: <none>\n");
    } else {
        w.w(0, "Endpoints:\n");
        let unset = |v: Option<String>| v.unwrap_or_else(|| "<unset>".into());
        for e in &slice.endpoints {
            let addresses = if e.addresses.is_empty() {
                "<none>".to_string()
            } else {
                e.addresses.join(", ")
            };
            w.w(1, &format!("- Addresses:\t{addresses}\n"));
            w.w(2, "Conditions:\n");
            let ready = e
                .conditions
                .as_ref()
                .and_then(|c| c.ready)
                .map(|r| r.to_string());
            w.w(3, &format!("Ready:\t{}\n", unset(ready)));
            w.w(2, &format!("Hostname:\t{}\n", unset(e.hostname.clone())));
            if let Some(target) = &e.target_ref {
                w.w(
                    2,
                    &format!(
                        "TargetRef:\t{}/{}\n",
                        target.kind.as_deref().unwrap_or(""),
                        target.name.as_deref().unwrap_or("")
                    ),
                );
            }
            w.w(2, &format!("NodeName:\t{}\n", unset(e.node_name.clone())));
            w.w(2, &format!("Zone:\t{}\n", unset(e.zone.clone())));
        }
    }
    w.events(events, now);
    w.finish()
}

/// The `Name Port Protocol` table of a slice's or a subset's ports (`<unset>` for a missing name
/// or number).
fn ports_table<'a>(
    w: &mut Describe,
    level: usize,
    rows: impl Iterator<Item = (Option<&'a str>, Option<String>, Option<&'a str>)>,
) {
    w.w(level, "Name\tPort\tProtocol\n");
    w.w(level, "----\t----\t--------\n");
    for (name, number, protocol) in rows {
        let name = name.filter(|n| !n.is_empty()).unwrap_or("<unset>");
        let number = number.unwrap_or_else(|| "<unset>".into());
        let protocol = protocol.unwrap_or("");
        w.w(level, &format!("{name}\t{number}\t{protocol}\n"));
    }
}

/// `kubectl describe endpoints NAME`: per subset its ready and not-ready addresses (`<none>` when
/// there are none) and its ports as a small table.
///
/// Upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go describeEndpoints.
pub fn describe_endpoints(ep: &Endpoints, events: &[&Event], now: DateTime<Utc>) -> String {
    let mut w = Describe::new();
    let meta = &ep.metadata;
    w.name_and_namespace(meta);
    labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.w(0, "Subsets:\n");
    let ips = |list: Option<&Vec<EndpointAddress>>| {
        let joined = list
            .into_iter()
            .flatten()
            .map(|a| a.ip.as_str())
            .collect::<Vec<_>>()
            .join(",");
        if joined.is_empty() {
            "<none>".to_string()
        } else {
            joined
        }
    };
    for subset in ep.subsets.iter().flatten() {
        w.w(
            1,
            &format!("Addresses:\t{}\n", ips(subset.addresses.as_ref())),
        );
        w.w(
            1,
            &format!(
                "NotReadyAddresses:\t{}\n",
                ips(subset.not_ready_addresses.as_ref())
            ),
        );
        let ports = subset.ports.as_deref().unwrap_or_default();
        if !ports.is_empty() {
            w.w(1, "Ports:\n");
            let rows = ports.iter().map(|port| {
                let number = Some(port.port.to_string());
                (port.name.as_deref(), number, port.protocol.as_deref())
            });
            ports_table(&mut w, 2, rows);
        }
        w.w(0, "\n");
    }
    w.events(events, now);
    w.finish()
}
