//! The EndpointSlice controller, shaped like upstream's `pkg/controller/endpointslice`: for every
//! Service with a selector, the slices (`<service>-<5 random chars>`, labelled with the Service's
//! name and the controller's managed-by value) list the matching pods' addresses with their
//! ready/serving/terminating conditions, node and target reference, and the Service's ports
//! resolved against each pod (named targetPorts). A Service without matching pods keeps one empty
//! placeholder slice; a Service without selector gets none (its slices are someone else's).
//!
//! Like an informer, the controller reads the watch log from its own position and syncs only the
//! Services a change can concern: the Service itself, a pod its selector matches or that one of
//! its slices lists, one of its slices.

pub(crate) mod reconciler;

use crate::cluster::Cluster;
use crate::store::{key_of, Key, WatchEventType};
use dsplay_api::service::{LABEL_MANAGED_BY, LABEL_SERVICE_NAME};
use dsplay_api::types::*;
use dsplay_api::Kind;
use std::collections::{BTreeMap, BTreeSet};

/// The controller's private state: its read position in the watch log.
#[derive(Clone, Debug, Default)]
pub(crate) struct EndpointSliceController {
    cursor: usize,
}

/// Whether a pod's labels satisfy a Service's selector (an absent or empty selector matches none).
pub(crate) fn selector_matches(svc: &Service, pod: &Pod) -> bool {
    let Some(selector) = svc
        .spec
        .as_ref()
        .and_then(|s| s.selector.as_ref())
        .filter(|s| !s.is_empty())
    else {
        return false;
    };
    let labels = pod.metadata.labels.as_ref();
    selector
        .iter()
        .all(|(k, v)| labels.and_then(|l| l.get(k)) == Some(v))
}

/// The Service an EndpointSlice belongs to (its `kubernetes.io/service-name` label).
fn service_of(slice: &EndpointSlice) -> Option<&str> {
    slice
        .metadata
        .labels
        .as_ref()
        .and_then(|l| l.get(LABEL_SERVICE_NAME))
        .map(String::as_str)
}

/// Whether this controller manages a slice (`endpointslice.kubernetes.io/managed-by`).
fn managed_by_controller(slice: &EndpointSlice) -> bool {
    slice
        .metadata
        .labels
        .as_ref()
        .and_then(|l| l.get(LABEL_MANAGED_BY))
        .map(String::as_str)
        == Some(dsplay_api::service::CONTROLLER_NAME)
}

/// The slices this controller manages for one Service, in name order.
pub(crate) fn managed_slices<'a>(
    cluster: &'a Cluster,
    namespace: &'a str,
    service: &'a str,
) -> impl Iterator<Item = &'a EndpointSlice> + 'a {
    cluster.store.endpoint_slices().filter(move |s| {
        s.metadata.namespace.as_deref() == Some(namespace)
            && service_of(s) == Some(service)
            && managed_by_controller(s)
    })
}

/// The Services the changes since the last pass can concern.
fn dirty_services(cluster: &mut Cluster) -> BTreeSet<Key> {
    let log = cluster.store.watch_log();
    let start = cluster.endpoint_slices.cursor.min(log.len());
    let end = log.len();
    let services = services_concerned(cluster, &log[start..]);
    cluster.endpoint_slices.cursor = end;
    services
}

/// The Services `changes` can concern. A large node add writes tens of thousands of pods and
/// events between two passes: keys are borrowed from the log, and copied only for the Services
/// returned.
fn services_concerned(cluster: &Cluster, changes: &[crate::WatchEvent]) -> BTreeSet<Key> {
    // No Service and no Service or slice written: pod churn concerns nobody (a cluster without
    // Services pays nothing for this controller).
    if cluster.store.services.is_empty()
        && !changes
            .iter()
            .any(|e| matches!(e.kind, Kind::Service | Kind::EndpointSlice))
    {
        return BTreeSet::new();
    }
    let mut services = BTreeSet::new();
    let mut pods = BTreeSet::new();
    let mut deleted_pods = BTreeSet::new();
    for event in changes {
        let key = (event.namespace.as_str(), event.name.as_str());
        match event.kind {
            Kind::Service => {
                services.insert(key);
            }
            Kind::Pod if event.event_type == WatchEventType::Deleted => {
                deleted_pods.insert(key);
            }
            Kind::Pod => {
                pods.insert(key);
            }
            // An Endpoints changed or deleted by someone else: its Service's controller looks again.
            Kind::Endpoints => {
                services.insert(key);
            }
            Kind::EndpointSlice => {
                if let Some(slice) = cluster
                    .store
                    .endpoint_slices
                    .get(&(key.0.to_string(), key.1.to_string()))
                    .and_then(|s| service_of(s))
                {
                    services.insert((key.0, slice));
                }
            }
            _ => {}
        }
    }
    let mut services: BTreeSet<Key> = services
        .into_iter()
        .map(|(namespace, name)| (namespace.to_string(), name.to_string()))
        .collect();
    if pods.is_empty() && deleted_pods.is_empty() {
        return services;
    }
    let listed: BTreeMap<(&str, &str), Vec<(&str, &str)>> = cluster
        .store
        .endpoint_slices()
        .filter(|s| managed_by_controller(s))
        .filter_map(|s| {
            let ns = s.metadata.namespace.as_deref().unwrap_or_default();
            let service = service_of(s)?;
            let pods = s
                .endpoints
                .iter()
                .filter_map(|e| e.target_ref.as_ref())
                .map(|r| (ns, r.name.as_deref().unwrap_or_default()))
                .collect();
            Some(((ns, service), pods))
        })
        .collect();
    for svc in cluster.store.services() {
        let namespace = svc.metadata.namespace.as_deref().unwrap_or_default();
        let name = svc.metadata.name.as_deref().unwrap_or_default();
        let lists = |pod: &(&str, &str)| {
            listed
                .get(&(namespace, name))
                .is_some_and(|l| l.contains(pod))
        };
        let concerned = pods.iter().any(|p| {
            p.0 == namespace
                && (lists(p)
                    || cluster
                        .store
                        .pod(p.0, p.1)
                        .is_some_and(|pod| selector_matches(svc, pod)))
        }) || deleted_pods.iter().any(|p| p.0 == namespace && lists(p));
        if concerned {
            services.insert(key_of(&svc.metadata));
        }
    }
    services
}

/// Syncs every Service a change since the last pass concerns: its EndpointSlices, then its v1
/// Endpoints (the Endpoints controller reacts to the same changes, in the same instant).
pub(crate) fn sync_all(cluster: &mut Cluster) {
    for (namespace, name) in dirty_services(cluster) {
        sync_service(cluster, &namespace, &name);
        crate::controller::endpoint::sync_service(cluster, &namespace, &name);
    }
}

/// One Service: deleted or selector-less → its managed slices go; else the slices are reconciled
/// with the pods its selector matches.
///
/// Upstream: pkg/controller/endpointslice/endpointslice_controller.go Controller.syncService.
pub(crate) fn sync_service(cluster: &mut Cluster, namespace: &str, name: &str) {
    let service = cluster.store.service(namespace, name).cloned();
    let has_selector = service.as_ref().is_some_and(|svc| {
        svc.spec
            .as_ref()
            .and_then(|s| s.selector.as_ref())
            .is_some_and(|s| !s.is_empty())
    });
    let (Some(service), true) = (service, has_selector) else {
        let stale: Vec<String> = managed_slices(cluster, namespace, name)
            .filter_map(|s| s.metadata.name.clone())
            .collect();
        for slice in stale {
            cluster.remove_object(Kind::EndpointSlice, namespace, &slice);
        }
        return;
    };
    if service.metadata.deletion_timestamp.is_some() {
        // Foreground deletion: the garbage collector removes the dependent slices, then the
        // Service (our GC only knows DaemonSet owners, so this controller stands in for it).
        let slices: Vec<String> = managed_slices(cluster, namespace, name)
            .filter_map(|s| s.metadata.name.clone())
            .collect();
        for slice in slices {
            cluster.remove_object(Kind::EndpointSlice, namespace, &slice);
        }
        cluster.remove_object(Kind::Service, namespace, name);
        return;
    }
    let pods: Vec<Pod> = cluster
        .store
        .pod_handles_in(namespace)
        .filter(|p| selector_matches(&service, p))
        .map(|p| Pod::clone(p))
        .collect();
    reconciler::reconcile(cluster, &service, &pods);
}

#[cfg(test)]
mod tests;
