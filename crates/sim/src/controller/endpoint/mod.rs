//! The v1 Endpoints controller, shaped like upstream's `pkg/controller/endpoint`: for every Service
//! with a selector, one Endpoints of the Service's name lists the matching pods, ready ones under
//! `addresses` and the others under `notReadyAddresses` (all as ready with
//! `publishNotReadyAddresses`), grouped by the ports they serve. A Service without selector (the
//! API server's `kubernetes`, or one whose Endpoints a user writes) is left alone; a deleted
//! Service's Endpoints goes.
//!
//! It runs with the EndpointSlice controller: the same changes concern the same Services, so
//! `endpointslice::sync_all` syncs both for each of them, in the same instant.

mod repack;
#[cfg(test)]
mod tests;

use super::endpointslice::reconciler::{
    pod_reference, set_last_change_trigger_time, should_pod_be_in_endpoints, should_set_hostname,
    LABEL_HEADLESS,
};
use crate::cluster::Cluster;
use dsplay_api::service::{find_port, is_headless, service_type};
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use std::collections::BTreeMap;

pub(crate) use repack::repack_subsets;

/// One Service: deleted → its Endpoints goes; ExternalName or no selector → nothing to do; else
/// the Endpoints is written when its subsets or labels differ from the pods' (and only then).
///
/// Upstream: pkg/controller/endpoint/endpoints_controller.go Controller.syncService.
pub(crate) fn sync_service(cluster: &mut Cluster, namespace: &str, name: &str) {
    let Some(service) = cluster.store.service(namespace, name).cloned() else {
        cluster.remove_object(Kind::Endpoints, namespace, name);
        return;
    };
    if service_type(&service) == "ExternalName" {
        return;
    }
    let Some(spec) = service.spec.as_ref().filter(|s| s.selector.is_some()) else {
        return;
    };
    let publish = spec.publish_not_ready_addresses.unwrap_or(false);
    let mut subsets = Vec::new();
    let pods: Vec<Pod> = cluster
        .store
        .pod_handles_in(namespace)
        .filter(|p| super::endpointslice::selector_matches(&service, p))
        .map(|p| Pod::clone(p))
        .collect();
    for pod in &pods {
        if !should_pod_be_in_endpoints(pod, publish) {
            continue;
        }
        let mut epa = pod_to_endpoint_address_for_service(pod);
        if should_set_hostname(pod, &service) {
            epa.hostname = pod.spec.as_ref().and_then(|s| s.hostname.clone());
        }
        let ports = spec.ports.as_deref().unwrap_or_default();
        if ports.is_empty() {
            // A headless Service may have no ports; a ClusterIP one without ports gets none.
            if is_headless(&service) {
                subsets.push(add_endpoint_subset(pod, epa, None, publish));
            }
            continue;
        }
        for service_port in ports {
            let Some(port) = find_port(pod, service_port) else {
                continue;
            };
            let epp = endpoint_port_from_service_port(service_port, port);
            subsets.push(add_endpoint_subset(pod, epa.clone(), Some(epp), publish));
        }
    }
    let subsets = repack_subsets(subsets);
    let current = cluster
        .store
        .endpoints
        .get(&(namespace.into(), name.into()));
    let mut compare_labels = current
        .and_then(|c| c.metadata.labels.clone())
        .unwrap_or_default();
    compare_labels.remove(LABEL_HEADLESS);
    let service_labels = service.metadata.labels.clone().unwrap_or_default();
    if let Some(current) = current {
        if current.subsets.clone().unwrap_or_default() == subsets
            && compare_labels == service_labels
        {
            return;
        }
    }
    let mut endpoints = current.cloned().unwrap_or_else(|| Endpoints {
        metadata: ObjectMeta {
            name: Some(name.to_string()),
            namespace: Some(namespace.to_string()),
            ..Default::default()
        },
        subsets: None,
    });
    let created = endpoints.metadata.uid.is_none();
    endpoints.subsets = (!subsets.is_empty()).then_some(subsets);
    let mut labels = service_labels;
    if is_headless(&service) {
        labels.insert(LABEL_HEADLESS.into(), String::new());
    } else {
        labels.remove(LABEL_HEADLESS);
    }
    endpoints.metadata.labels = (!labels.is_empty()).then_some(labels);
    set_last_change_trigger_time(cluster, &mut endpoints.metadata);
    if created {
        let _ = cluster.create_internal(Object::Endpoints(endpoints));
    } else {
        cluster.write(Object::Endpoints(endpoints));
    }
}

/// A pod as an address: its IP, its node and a reference to it.
///
/// Upstream: pkg/controller/endpoint/endpoints_controller.go podToEndpointAddressForService.
fn pod_to_endpoint_address_for_service(pod: &Pod) -> EndpointAddress {
    EndpointAddress {
        ip: pod
            .status
            .as_ref()
            .and_then(|s| s.pod_ip.clone())
            .unwrap_or_default(),
        node_name: pod.spec.as_ref().and_then(|s| s.node_name.clone()),
        target_ref: Some(pod_reference(pod)),
        hostname: None,
    }
}

/// A Service port resolved against one pod.
///
/// Upstream: pkg/controller/endpoint/endpoints_controller.go endpointPortFromServicePort.
fn endpoint_port_from_service_port(service_port: &ServicePort, port: i32) -> CoreEndpointPort {
    CoreEndpointPort {
        name: service_port.name.clone().filter(|n| !n.is_empty()),
        port,
        protocol: Some(
            service_port
                .protocol
                .clone()
                .unwrap_or_else(|| "TCP".into()),
        ),
        app_protocol: service_port.app_protocol.clone(),
    }
}

/// One address with (at most) one port, under `addresses` when the pod is ready or the Service
/// tolerates not-ready endpoints, else under `notReadyAddresses`.
///
/// Upstream: pkg/controller/endpoint/endpoints_controller.go addEndpointSubset.
fn add_endpoint_subset(
    pod: &Pod,
    epa: EndpointAddress,
    epp: Option<CoreEndpointPort>,
    tolerate_unready_endpoints: bool,
) -> EndpointSubset {
    let ports = Some(epp.into_iter().collect());
    if tolerate_unready_endpoints || dsplay_api::pod::is_pod_ready(pod) {
        EndpointSubset {
            addresses: Some(vec![epa]),
            not_ready_addresses: None,
            ports,
        }
    } else {
        EndpointSubset {
            addresses: None,
            not_ready_addresses: Some(vec![epa]),
            ports,
        }
    }
}

/// The Endpoints the API server keeps for the `kubernetes` Service: the control plane's address on
/// the secure port, labelled so the EndpointSlice mirroring controller leaves it alone (the API
/// server writes the `kubernetes` EndpointSlice itself).
///
/// Upstream: pkg/controlplane/reconcilers/endpointsadapter.go EndpointsAdapter.Create
/// (skipMirrorLabel), lease.go / instancecount.go doReconcile (one address, port `https` 6443).
pub(crate) fn kubernetes_endpoints(control_plane_ip: &str) -> Endpoints {
    Endpoints {
        metadata: ObjectMeta {
            name: Some("kubernetes".into()),
            namespace: Some("default".into()),
            labels: Some(BTreeMap::from([(
                "endpointslice.kubernetes.io/skip-mirror".to_string(),
                "true".to_string(),
            )])),
            ..Default::default()
        },
        subsets: Some(vec![EndpointSubset {
            addresses: Some(vec![EndpointAddress {
                ip: control_plane_ip.to_string(),
                ..Default::default()
            }]),
            not_ready_addresses: None,
            ports: Some(vec![CoreEndpointPort {
                name: Some("https".into()),
                port: 6443,
                protocol: Some("TCP".into()),
                app_protocol: None,
            }]),
        }]),
    }
}
