//! The EndpointSlice reconciler and its helpers: which pods are endpoints, what an endpoint and
//! its ports say, and how the desired slices are written over the existing ones.
//!
//! Upstream: staging/src/k8s.io/endpointslice/reconciler.go, utils.go;
//! pkg/api/v1/endpoints/util.go ShouldPodBeInEndpoints.

use crate::cluster::{k8s_time, Cluster};
use crate::names;
use dsplay_api::service::{find_port, CONTROLLER_NAME, LABEL_MANAGED_BY, LABEL_SERVICE_NAME};
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};
use std::collections::BTreeMap;

/// The annotation recording when the change a slice (or an Endpoints) reflects happened.
const LAST_CHANGE_TRIGGER_TIME: &str = "endpoints.kubernetes.io/last-change-trigger-time";
/// The label a headless Service's slices and Endpoints carry.
pub(crate) const LABEL_HEADLESS: &str = "service.kubernetes.io/headless";

/// Whether a pod belongs in a Service's endpoints: not terminal, has an IP; not-ready pods count
/// (their conditions say so), terminating ones when `include_terminating` (the EndpointSlice
/// controller always includes them, the Endpoints controller with `publishNotReadyAddresses`).
///
/// Upstream: staging/src/k8s.io/endpointslice/util/controller_utils.go ShouldPodBeInEndpoints.
pub(crate) fn should_pod_be_in_endpoints(pod: &Pod, include_terminating: bool) -> bool {
    if !include_terminating && pod.metadata.deletion_timestamp.is_some() {
        return false;
    }
    let status = pod.status.as_ref();
    if matches!(
        status.and_then(|s| s.phase.as_deref()),
        Some("Succeeded") | Some("Failed")
    ) {
        return false;
    }
    status
        .and_then(|s| s.pod_ip.as_deref())
        .is_some_and(|ip| !ip.is_empty())
}

/// The Service's ports resolved for one pod; a named targetPort the pod does not declare drops
/// that port.
///
/// Upstream: staging/src/k8s.io/endpointslice/utils.go getEndpointPorts.
pub(crate) fn get_endpoint_ports(service: &Service, pod: &Pod) -> Vec<EndpointPort> {
    service
        .spec
        .as_ref()
        .and_then(|s| s.ports.as_ref())
        .into_iter()
        .flatten()
        .filter_map(|sp| {
            let port = find_port(pod, sp)?;
            Some(EndpointPort {
                name: Some(sp.name.clone().unwrap_or_default()),
                port: Some(port),
                protocol: Some(sp.protocol.clone().unwrap_or_else(|| "TCP".into())),
                app_protocol: sp.app_protocol.clone(),
            })
        })
        .collect()
}

/// A pod as an endpoint: its IP, ready (or published not-ready) / serving / terminating, the node
/// it runs on and a reference to it. kind's nodes have no zone label, so no zone.
///
/// Upstream: staging/src/k8s.io/endpointslice/utils.go podToEndpoint.
pub(crate) fn pod_to_endpoint(pod: &Pod, service: &Service) -> Endpoint {
    let serving = dsplay_api::pod::is_pod_ready(pod);
    let terminating = pod.metadata.deletion_timestamp.is_some();
    let publish = service
        .spec
        .as_ref()
        .and_then(|s| s.publish_not_ready_addresses)
        .unwrap_or(false);
    let ready = publish || (serving && !terminating);
    let spec = pod.spec.as_ref();
    Endpoint {
        addresses: vec![pod
            .status
            .as_ref()
            .and_then(|s| s.pod_ip.clone())
            .unwrap_or_default()],
        conditions: Some(EndpointConditions {
            ready: Some(ready),
            serving: Some(serving),
            terminating: Some(terminating),
        }),
        node_name: spec.and_then(|s| s.node_name.clone()),
        hostname: should_set_hostname(pod, service)
            .then(|| spec.and_then(|s| s.hostname.clone()))
            .flatten(),
        target_ref: Some(pod_reference(pod)),
        ..Default::default()
    }
}

/// The reference an endpoint (or an Endpoints address) keeps to its pod: kind, namespace, name
/// and uid.
pub(crate) fn pod_reference(pod: &Pod) -> ObjectReference {
    ObjectReference {
        kind: Some("Pod".into()),
        namespace: pod.metadata.namespace.clone(),
        name: pod.metadata.name.clone(),
        uid: pod.metadata.uid.clone(),
        ..Default::default()
    }
}

/// `ShouldSetHostname`: a pod with a hostname whose subdomain is this Service (a StatefulSet's
/// pod behind its headless Service) is listed under that hostname.
///
/// Upstream: pkg/api/v1/endpoints (endpointutil) ShouldSetHostname.
#[doc(alias = "ShouldSetHostname")]
pub(crate) fn should_set_hostname(pod: &Pod, service: &Service) -> bool {
    let spec = pod.spec.as_ref();
    spec.and_then(|s| s.hostname.as_deref())
        .is_some_and(|h| !h.is_empty())
        && spec.and_then(|s| s.subdomain.as_deref()) == service.metadata.name.as_deref()
        && pod.metadata.namespace == service.metadata.namespace
}

/// The labels of a Service's slices: the Service's own, its name, the managed-by value, and the
/// headless marker for `clusterIP: None`.
///
/// Upstream: staging/src/k8s.io/endpointslice/utils.go setEndpointSliceLabels.
fn set_endpoint_slice_labels(service: &Service) -> BTreeMap<String, String> {
    let mut labels = service.metadata.labels.clone().unwrap_or_default();
    labels.remove(LABEL_HEADLESS);
    if dsplay_api::service::is_headless(service) {
        labels.insert(LABEL_HEADLESS.into(), String::new());
    }
    labels.insert(
        LABEL_SERVICE_NAME.into(),
        service.metadata.name.clone().unwrap_or_default(),
    );
    labels.insert(LABEL_MANAGED_BY.into(), CONTROLLER_NAME.into());
    labels
}

/// Stamps `endpoints.kubernetes.io/last-change-trigger-time` with the current instant: every sync
/// here is triggered by a pod or Service change of this instant (the time a tracker would find).
///
/// Upstream: pkg/controller/util/endpoint/trigger_time_tracker.go
/// ComputeEndpointLastChangeTriggerTime (the RFC 3339 stamp both controllers write).
pub(crate) fn set_last_change_trigger_time(cluster: &Cluster, meta: &mut ObjectMeta) {
    let stamp = k8s_time(cluster.now_ms)
        .0
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    meta.annotations
        .get_or_insert_with(BTreeMap::new)
        .insert(LAST_CHANGE_TRIGGER_TIME.into(), stamp);
}

/// `<service>-`, the service name cut so the generated name stays within 63 characters.
///
/// Upstream: staging/src/k8s.io/endpointslice/utils.go getEndpointSlicePrefix.
fn get_endpoint_slice_prefix(service: &str) -> String {
    let prefix = format!("{service}-");
    if prefix.len() > 58 {
        prefix[..58].to_string()
    } else {
        prefix
    }
}

/// A slice skeleton owned by the Service.
///
/// Upstream: staging/src/k8s.io/endpointslice/utils.go newEndpointSlice.
fn new_endpoint_slice(cluster: &mut Cluster, service: &Service) -> EndpointSlice {
    let name = service.metadata.name.clone().unwrap_or_default();
    EndpointSlice {
        metadata: ObjectMeta {
            name: Some(names::generate_name(
                &mut cluster.service_rng,
                &get_endpoint_slice_prefix(&name),
            )),
            generate_name: Some(get_endpoint_slice_prefix(&name)),
            namespace: service.metadata.namespace.clone(),
            owner_references: Some(vec![OwnerReference {
                api_version: "v1".into(),
                kind: "Service".into(),
                name,
                uid: service.metadata.uid.clone().unwrap_or_default(),
                controller: Some(true),
                block_owner_deletion: Some(true),
            }]),
            ..Default::default()
        },
        address_type: "IPv4".into(),
        endpoints: Vec::new(),
        ports: None,
    }
}

/// A resolved port list as a sortable key: (name, port, protocol) per port.
type PortKey = Vec<(String, i32, String)>;

/// Writes the desired slices for a Service: pods grouped by their resolved ports (one slice per
/// group, endpoints in pod-name order), an empty placeholder when there are none; existing slices
/// are reused in name order, extra ones deleted, unchanged ones left alone.
///
/// Upstream: staging/src/k8s.io/endpointslice/reconciler.go Reconciler.reconcile,
/// reconcileByAddressType, finalize (placeholderSliceCompare).
pub(crate) fn reconcile(cluster: &mut Cluster, service: &Service, pods: &[Pod]) {
    let namespace = service.metadata.namespace.clone().unwrap_or_default();
    let name = service.metadata.name.clone().unwrap_or_default();
    let mut groups: BTreeMap<PortKey, (Vec<EndpointPort>, Vec<Endpoint>)> = BTreeMap::new();
    let mut sorted: Vec<&Pod> = pods
        .iter()
        .filter(|p| should_pod_be_in_endpoints(p, true))
        .collect();
    sorted.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
    for pod in sorted {
        let ports = get_endpoint_ports(service, pod);
        let key = ports
            .iter()
            .map(|p| {
                (
                    p.name.clone().unwrap_or_default(),
                    p.port.unwrap_or(0),
                    p.protocol.clone().unwrap_or_default(),
                )
            })
            .collect();
        let entry = groups
            .entry(key)
            .or_insert_with(|| (ports.clone(), Vec::new()));
        entry.1.push(pod_to_endpoint(pod, service));
    }
    let mut desired: Vec<(Option<Vec<EndpointPort>>, Vec<Endpoint>)> = groups
        .into_values()
        .map(|(ports, endpoints)| (Some(ports), endpoints))
        .collect();
    if desired.is_empty() {
        desired.push((None, Vec::new()));
    }
    let mut existing: Vec<EndpointSlice> = super::managed_slices(cluster, &namespace, &name)
        .cloned()
        .collect();
    existing.reverse();
    let labels = set_endpoint_slice_labels(service);
    for (ports, endpoints) in desired {
        let mut slice = match existing.pop() {
            Some(slice) => slice,
            None => new_endpoint_slice(cluster, service),
        };
        let unchanged = slice.ports == ports
            && slice.endpoints == endpoints
            && slice.metadata.labels.as_ref() == Some(&labels);
        if unchanged && slice.metadata.uid.is_some() {
            continue;
        }
        slice.ports = ports;
        slice.endpoints = endpoints;
        slice.metadata.labels = Some(labels.clone());
        set_last_change_trigger_time(cluster, &mut slice.metadata);
        if slice.metadata.uid.is_some() {
            slice.metadata.generation = Some(slice.metadata.generation.unwrap_or(1) + 1);
            cluster.write(Object::EndpointSlice(slice));
        } else {
            slice.metadata.generation = Some(1);
            let _ = cluster.create_internal(Object::EndpointSlice(slice));
        }
    }
    for stale in existing {
        let stale_name = stale.metadata.name.unwrap_or_default();
        cluster.remove_object(Kind::EndpointSlice, &namespace, &stale_name);
    }
}
