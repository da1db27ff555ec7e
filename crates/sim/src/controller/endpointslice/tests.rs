//! Ports of upstream's endpointslice controller tests (`endpointslice_controller_test.go`,
//! `utils_test.go`) against the simulated cluster.

use super::reconciler::{get_endpoint_ports, pod_to_endpoint, should_pod_be_in_endpoints};
use super::*;
use crate::api_server::DeleteOptions;
use dsplay_api::manifest::parse_manifests;
use dsplay_api::Object;
use std::time::Duration;

const AGENT: &str = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      tolerations: [{operator: Exists}]\n      containers: [{name: c, image: nginx, ports: [{name: http, containerPort: 8080, hostPort: 11559}]}]\n";

fn create(cluster: &mut Cluster, yaml: &str) -> Object {
    let object = parse_manifests(yaml).remove(0).expect("manifest").object;
    cluster.create(object).expect("create")
}

fn cluster_with_agent() -> Cluster {
    let mut cluster = Cluster::new(7);
    create(&mut cluster, AGENT);
    cluster.settle(Duration::from_secs(300));
    cluster
}

fn slices(cluster: &Cluster, service: &str) -> Vec<EndpointSlice> {
    managed_slices(cluster, "default", service)
        .cloned()
        .collect()
}

#[test]
fn sync_service_no_selector_makes_no_slices() {
    let mut cluster = cluster_with_agent();
    create(
        &mut cluster,
        "apiVersion: v1\nkind: Service\nmetadata: {name: plain}\nspec: {ports: [{port: 80}]}\n",
    );
    assert!(slices(&cluster, "plain").is_empty());
}

#[test]
fn sync_service_pending_pods_gets_a_placeholder_slice() {
    let mut cluster = Cluster::new(7);
    create(&mut cluster, "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {selector: {app: web}, ports: [{port: 80}]}\n");
    let all = slices(&cluster, "web");
    assert_eq!(all.len(), 1);
    assert!(all[0].endpoints.is_empty());
    assert_eq!(all[0].ports, None);
    assert_eq!(all[0].address_type, "IPv4");
    let name = all[0].metadata.name.clone().unwrap();
    assert!(name.starts_with("web-") && name.len() == 9, "{name}");
}

#[test]
fn sync_service_full_lists_every_ready_pod_with_resolved_ports() {
    let mut cluster = cluster_with_agent();
    create(&mut cluster, "apiVersion: v1\nkind: Service\nmetadata: {name: agent, labels: {team: a}}\nspec:\n  selector: {app: agent}\n  ports: [{name: web, port: 80, targetPort: http}]\n");
    let all = slices(&cluster, "agent");
    assert_eq!(all.len(), 1);
    let slice = &all[0];
    let labels = slice.metadata.labels.clone().unwrap();
    assert_eq!(
        labels.get(LABEL_SERVICE_NAME).map(String::as_str),
        Some("agent")
    );
    assert_eq!(
        labels.get(LABEL_MANAGED_BY).map(String::as_str),
        Some("endpointslice-controller.k8s.io")
    );
    assert_eq!(labels.get("team").map(String::as_str), Some("a"));
    let owner = &slice.metadata.owner_references.as_ref().unwrap()[0];
    assert_eq!(
        (owner.kind.as_str(), owner.name.as_str()),
        ("Service", "agent")
    );
    let ports = slice.ports.clone().unwrap();
    assert_eq!(ports[0].port, Some(8080));
    assert_eq!(ports[0].name.as_deref(), Some("web"));
    assert_eq!(slice.endpoints.len(), 3);
    let nodes: Vec<_> = slice
        .endpoints
        .iter()
        .map(|e| e.node_name.clone().unwrap())
        .collect();
    assert_eq!(nodes.len(), 3);
    for e in &slice.endpoints {
        let c = e.conditions.clone().unwrap();
        assert_eq!(
            (c.ready, c.serving, c.terminating),
            (Some(true), Some(true), Some(false))
        );
        assert!(e.zone.is_none());
        assert_eq!(e.target_ref.as_ref().unwrap().kind.as_deref(), Some("Pod"));
    }
}

#[test]
fn sync_service_pod_selection_follows_label_changes_and_deletion() {
    let mut cluster = cluster_with_agent();
    create(&mut cluster, "apiVersion: v1\nkind: Service\nmetadata: {name: agent}\nspec: {selector: {app: agent}, ports: [{port: 11559}]}\n");
    let pod = cluster
        .store
        .pods()
        .find(|p| p.metadata.namespace.as_deref() == Some("default"))
        .cloned()
        .unwrap();
    let name = pod.metadata.name.clone().unwrap();
    cluster
        .delete(Kind::Pod, "default", &name, DeleteOptions::default())
        .unwrap();
    let slice = &slices(&cluster, "agent")[0];
    let gone = slice
        .endpoints
        .iter()
        .find(|e| e.target_ref.as_ref().unwrap().name.as_deref() == Some(name.as_str()))
        .expect("a terminating pod stays listed");
    let c = gone.conditions.clone().unwrap();
    assert_eq!((c.ready, c.terminating), (Some(false), Some(true)));
    cluster.settle(Duration::from_secs(120));
    assert!(slices(&cluster, "agent")[0]
        .endpoints
        .iter()
        .all(|e| { e.target_ref.as_ref().unwrap().name.as_deref() != Some(name.as_str()) }));
    cluster
        .delete(Kind::Service, "default", "agent", DeleteOptions::default())
        .unwrap();
    assert!(slices(&cluster, "agent").is_empty());
}

fn pod(yaml: &str) -> Pod {
    match parse_manifests(&format!("apiVersion: v1\nkind: Pod\n{yaml}"))
        .remove(0)
        .expect("pod")
        .object
    {
        Object::Pod(p) => p,
        _ => unreachable!(),
    }
}

fn service(yaml: &str) -> Service {
    let Object::Service(mut svc) =
        parse_manifests(&format!("apiVersion: v1\nkind: Service\n{yaml}"))
            .remove(0)
            .expect("service")
            .object
    else {
        unreachable!()
    };
    dsplay_api::service::default_service(&mut svc);
    svc
}

#[test]
fn should_pod_be_in_endpoints_needs_an_ip_and_a_live_phase() {
    // Upstream: controller_utils_test.go TestShouldPodBeInEndpoints.
    let terminating = pod("metadata: {deletionTimestamp: '2026-01-01T00:00:00Z'}\nstatus: {phase: Running, podIP: 10.244.1.2}");
    assert!(should_pod_be_in_endpoints(&terminating, true));
    assert!(!should_pod_be_in_endpoints(&terminating, false));
    assert!(!should_pod_be_in_endpoints(
        &pod("status: {phase: Running}"),
        true
    ));
    assert!(should_pod_be_in_endpoints(
        &pod("status: {phase: Running, podIP: 10.244.1.2}"),
        true
    ));
    assert!(!should_pod_be_in_endpoints(
        &pod("status: {phase: Succeeded, podIP: 10.244.1.2}"),
        true
    ));
    assert!(!should_pod_be_in_endpoints(
        &pod("status: {phase: Failed, podIP: 10.244.1.2}"),
        true
    ));
}

#[test]
fn pod_to_endpoint_not_ready_and_publish_not_ready_addresses() {
    let not_ready = pod("metadata: {name: p, namespace: default}\nspec: {nodeName: n1, containers: []}\nstatus: {podIP: 10.244.1.2, conditions: [{type: Ready, status: 'False'}]}");
    let svc = service("spec: {ports: [{port: 80}]}");
    let e = pod_to_endpoint(&not_ready, &svc);
    assert_eq!(e.addresses, ["10.244.1.2"]);
    assert_eq!(e.node_name.as_deref(), Some("n1"));
    let c = e.conditions.unwrap();
    assert_eq!(
        (c.ready, c.serving, c.terminating),
        (Some(false), Some(false), Some(false))
    );
    let publish = service("spec: {publishNotReadyAddresses: true, ports: [{port: 80}]}");
    let c = pod_to_endpoint(&not_ready, &publish).conditions.unwrap();
    assert_eq!((c.ready, c.serving), (Some(true), Some(false)));
}

#[test]
fn get_endpoint_ports_drops_unresolved_names() {
    let p = pod("spec:\n  containers: [{name: c, ports: [{name: http, containerPort: 8080}]}]");
    let svc = service("spec:\n  ports: [{name: a, port: 80, targetPort: http}, {name: b, port: 81, targetPort: grpc}, {name: c, port: 82}]");
    let ports = get_endpoint_ports(&svc, &p);
    let got: Vec<_> = ports
        .iter()
        .map(|p| (p.name.clone().unwrap(), p.port.unwrap()))
        .collect();
    assert_eq!(got, [("a".to_string(), 8080), ("c".to_string(), 82)]);
}

#[test]
fn foreground_deletion_removes_the_slices_then_the_service() {
    let mut cluster = cluster_with_agent();
    create(&mut cluster, "apiVersion: v1\nkind: Service\nmetadata: {name: agent}\nspec: {selector: {app: agent}, ports: [{port: 11559}]}\n");
    let options = DeleteOptions {
        propagation: crate::api_server::Propagation::Foreground,
        grace_period_seconds: None,
    };
    cluster
        .delete(Kind::Service, "default", "agent", options)
        .unwrap();
    assert!(slices(&cluster, "agent").is_empty());
    assert!(cluster.store.service("default", "agent").is_none());
}

/// TestShouldSetHostname (`endpointutil.ShouldSetHostname`, used by `podToEndpoint`): a pod's
/// hostname is listed only behind the Service its subdomain names, in its namespace.
#[test]
fn pod_to_endpoint_sets_hostname_for_its_subdomain_service() {
    let Object::Service(service) = parse_manifests(
        "apiVersion: v1\nkind: Service\nmetadata: {name: nginx, namespace: default}\nspec: {clusterIP: None, selector: {app: web}}\n",
    )
    .remove(0)
    .expect("manifest")
    .object
    else {
        unreachable!()
    };
    let Object::Pod(mut pod) = parse_manifests(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: web-0, namespace: default}\nspec: {hostname: web-0, subdomain: nginx, containers: [{name: c, image: nginx}]}\n",
    )
    .remove(0)
    .expect("manifest")
    .object
    else {
        unreachable!()
    };
    assert_eq!(
        pod_to_endpoint(&pod, &service).hostname.as_deref(),
        Some("web-0")
    );
    pod.spec.as_mut().unwrap().subdomain = Some("other".into());
    assert_eq!(pod_to_endpoint(&pod, &service).hostname, None);
    pod.spec.as_mut().unwrap().subdomain = Some("nginx".into());
    pod.metadata.namespace = Some("elsewhere".into());
    assert_eq!(pod_to_endpoint(&pod, &service).hostname, None);
}
