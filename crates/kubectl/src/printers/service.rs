//! `kubectl get` tables of Services, Endpoints and EndpointSlices, as the API server's table
//! convertor builds them (`pkg/printers/internalversion/printers.go` `printService`,
//! `printEndpoints`, `printEndpointSlice`).

use super::age::age_since;
use super::table::{format_labels, Column, Row, Table};
use chrono::{DateTime, Utc};
use dsplay_api::types::*;

fn row(meta: &ObjectMeta, cells: Vec<String>) -> Row {
    Row {
        namespace: meta.namespace.clone().unwrap_or_default(),
        cells,
        labels: meta.labels.clone().unwrap_or_default(),
    }
}

/// `getServiceExternalIP`: the external IPs of a ClusterIP/NodePort Service (`<none>`), the
/// load balancer's ingress for a LoadBalancer (`<pending>` until there is one), the external name.
#[doc(alias = "getServiceExternalIP")]
pub fn service_external_ip(svc: &Service) -> String {
    let default_spec = ServiceSpec::default();
    let spec = svc.spec.as_ref().unwrap_or(&default_spec);
    let external = spec.external_ips.clone().unwrap_or_default();
    match spec.type_.as_deref().unwrap_or("ClusterIP") {
        "ClusterIP" | "NodePort" if !external.is_empty() => external.join(","),
        "ClusterIP" | "NodePort" => "<none>".into(),
        "LoadBalancer" => {
            let mut ips: Vec<String> = svc
                .status
                .as_ref()
                .and_then(|s| s.load_balancer.as_ref())
                .and_then(|lb| lb.ingress.clone())
                .unwrap_or_default()
                .into_iter()
                .map(|i| i.ip.or(i.hostname).unwrap_or_default())
                .filter(|s| !s.is_empty())
                .collect();
            ips.extend(external);
            if ips.is_empty() {
                "<pending>".into()
            } else {
                ips.join(",")
            }
        }
        "ExternalName" => spec.external_name.clone().unwrap_or_default(),
        _ => "<unknown>".into(),
    }
}

/// `makePortString`: `80/TCP`, `80:31234/TCP` with a NodePort, joined with `,`.
#[doc(alias = "makePortString")]
pub fn service_ports(ports: &[ServicePort]) -> String {
    let cells: Vec<String> = ports
        .iter()
        .map(|p| {
            let protocol = p.protocol.as_deref().unwrap_or("TCP");
            match p.node_port.filter(|n| *n > 0) {
                Some(node_port) => format!("{}:{node_port}/{protocol}", p.port),
                None => format!("{}/{protocol}", p.port),
            }
        })
        .collect();
    cells.join(",")
}

/// `kubectl get svc`: NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE (+ wide SELECTOR).
pub fn service_table(items: &[&Service], now: DateTime<Utc>) -> Table {
    let columns = vec![
        Column::new("Name"),
        Column::new("Type"),
        Column::new("Cluster-IP"),
        Column::new("External-IP"),
        Column::new("Port(s)"),
        Column::new("Age"),
        Column::wide("Selector"),
    ];
    let rows = items
        .iter()
        .map(|svc| {
            let default_spec = ServiceSpec::default();
            let spec = svc.spec.as_ref().unwrap_or(&default_spec);
            let cluster_ip = spec
                .cluster_ip
                .clone()
                .filter(|ip| !ip.is_empty())
                .unwrap_or_else(|| "<none>".into());
            let mut ports = service_ports(spec.ports.as_deref().unwrap_or(&[]));
            if ports.is_empty() {
                ports = "<none>".into();
            }
            row(
                &svc.metadata,
                vec![
                    svc.metadata.name.clone().unwrap_or_default(),
                    spec.type_.clone().unwrap_or_default(),
                    cluster_ip,
                    service_external_ip(svc),
                    ports,
                    age_since(svc.metadata.creation_timestamp.as_ref().map(|t| &t.0), now),
                    format_labels(&spec.selector.clone().unwrap_or_default()),
                ],
            )
        })
        .collect();
    Table { columns, rows }
}

/// `listWithMoreString`: the first three, then ` + N more...`; `<unset>` when empty.
#[doc(alias = "listWithMoreString")]
fn list_with_more(list: &[String], count: usize) -> String {
    const MAX: usize = 3;
    let shown = list.iter().take(MAX).cloned().collect::<Vec<_>>().join(",");
    if count > MAX {
        format!("{shown} + {} more...", count - MAX)
    } else if shown.is_empty() {
        "<unset>".into()
    } else {
        shown
    }
}

/// `formatDiscoveryPorts`: port numbers (`*` when unset, the name when only that is set).
#[doc(alias = "formatDiscoveryPorts")]
pub fn discovery_ports(ports: &[EndpointPort]) -> String {
    let list: Vec<String> = ports
        .iter()
        .map(|p| match (p.port, p.name.as_ref()) {
            (Some(n), _) => n.to_string(),
            (None, Some(name)) => name.clone(),
            (None, None) => "*".into(),
        })
        .collect();
    list_with_more(&list, list.len())
}

/// `formatDiscoveryEndpoints`: every address of every endpoint.
#[doc(alias = "formatDiscoveryEndpoints")]
pub fn discovery_endpoints(endpoints: &[Endpoint]) -> String {
    let list: Vec<String> = endpoints
        .iter()
        .flat_map(|e| e.addresses.iter().cloned())
        .collect();
    list_with_more(&list, list.len())
}

/// `kubectl get endpointslices`: NAME ADDRESSTYPE PORTS ENDPOINTS AGE.
pub fn endpoint_slice_table(items: &[&EndpointSlice], now: DateTime<Utc>) -> Table {
    let columns = vec![
        Column::new("Name"),
        Column::new("AddressType"),
        Column::new("Ports"),
        Column::new("Endpoints"),
        Column::new("Age"),
    ];
    let rows = items
        .iter()
        .map(|slice| {
            row(
                &slice.metadata,
                vec![
                    slice.metadata.name.clone().unwrap_or_default(),
                    slice.address_type.clone(),
                    discovery_ports(slice.ports.as_deref().unwrap_or(&[])),
                    discovery_endpoints(&slice.endpoints),
                    age_since(
                        slice.metadata.creation_timestamp.as_ref().map(|t| &t.0),
                        now,
                    ),
                ],
            )
        })
        .collect();
    Table { columns, rows }
}

/// The ENDPOINTS cell: `ip:port` per port and ready address (just `ip` for a subset without
/// ports), the first three then ` + N more...`; `<none>` without subsets, empty when only
/// not-ready addresses are listed.
///
/// Upstream: pkg/printers/internalversion/printers.go formatEndpoints (ports nil).
pub fn format_endpoints(endpoints: &Endpoints) -> String {
    const MAX: usize = 3;
    let subsets = endpoints.subsets.as_deref().unwrap_or_default();
    if subsets.is_empty() {
        return "<none>".into();
    }
    let mut list = Vec::new();
    let mut count = 0;
    for subset in subsets {
        let addresses = subset.addresses.as_deref().unwrap_or_default();
        let ports = subset.ports.as_deref().unwrap_or_default();
        if ports.is_empty() {
            count += addresses.len();
            list.extend(addresses.iter().map(|a| a.ip.clone()));
            continue;
        }
        for port in ports {
            count += addresses.len();
            list.extend(addresses.iter().map(|a| format!("{}:{}", a.ip, port.port)));
        }
    }
    list.truncate(MAX);
    let shown = list.join(",");
    if count > MAX {
        format!("{shown} + {} more...", count - MAX)
    } else {
        shown
    }
}

/// `kubectl get endpoints`: NAME ENDPOINTS AGE (no wide columns).
///
/// Upstream: pkg/printers/internalversion/printers.go printEndpoints.
pub fn endpoints_table(items: &[&Endpoints], now: DateTime<Utc>) -> Table {
    let columns = vec![
        Column::new("Name"),
        Column::new("Endpoints"),
        Column::new("Age"),
    ];
    let rows = items
        .iter()
        .map(|ep| {
            row(
                &ep.metadata,
                vec![
                    ep.metadata.name.clone().unwrap_or_default(),
                    format_endpoints(ep),
                    age_since(ep.metadata.creation_timestamp.as_ref().map(|t| &t.0), now),
                ],
            )
        })
        .collect();
    Table { columns, rows }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn make_port_string_with_and_without_node_ports() {
        let port = |port, node_port, protocol: &str| ServicePort {
            port,
            node_port,
            protocol: Some(protocol.into()),
            ..Default::default()
        };
        assert_eq!(service_ports(&[port(80, None, "TCP")]), "80/TCP");
        assert_eq!(
            service_ports(&[port(80, Some(31234), "TCP"), port(53, None, "UDP")]),
            "80:31234/TCP,53/UDP"
        );
    }

    /// Upstream: printers_test.go TestPrintEndpoint.
    #[test]
    fn format_endpoints_cases_of_print_endpoint() {
        let addr = |ip: &str| EndpointAddress {
            ip: ip.into(),
            ..Default::default()
        };
        let port = |port| CoreEndpointPort {
            port,
            ..Default::default()
        };
        let ep = |subsets: Vec<EndpointSubset>| Endpoints {
            subsets: Some(subsets),
            ..Default::default()
        };
        assert_eq!(format_endpoints(&Endpoints::default()), "<none>");
        let one = EndpointSubset {
            addresses: Some(vec![addr("1.2.3.4"), addr("5.6.7.8")]),
            ports: Some(vec![port(8001)]),
            ..Default::default()
        };
        assert_eq!(
            format_endpoints(&ep(vec![one])),
            "1.2.3.4:8001,5.6.7.8:8001"
        );
        let many = EndpointSubset {
            addresses: Some(vec![addr("1.2.3.4"), addr("5.6.7.8")]),
            ports: Some(vec![port(8001), port(8002), port(8003)]),
            ..Default::default()
        };
        let headless = EndpointSubset {
            addresses: Some(vec![addr("3.4.5.6")]),
            ..Default::default()
        };
        assert_eq!(
            format_endpoints(&ep(vec![many, headless])),
            "1.2.3.4:8001,5.6.7.8:8001,1.2.3.4:8002 + 4 more..."
        );
        let not_ready = EndpointSubset {
            not_ready_addresses: Some(vec![addr("1.2.3.4")]),
            ports: Some(vec![port(80)]),
            ..Default::default()
        };
        assert_eq!(format_endpoints(&ep(vec![not_ready])), "");
    }

    #[test]
    fn format_discovery_endpoints_lists_three_then_more() {
        let ep = |ip: &str| Endpoint {
            addresses: vec![ip.into()],
            ..Default::default()
        };
        assert_eq!(discovery_endpoints(&[]), "<unset>");
        assert_eq!(
            discovery_endpoints(&[ep("1"), ep("2"), ep("3"), ep("4"), ep("5")]),
            "1,2,3 + 2 more..."
        );
        assert_eq!(discovery_endpoints(&[ep("1"), ep("2")]), "1,2");
    }
}
