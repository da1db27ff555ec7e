//! Ports of upstream's Endpoints controller tests (`endpoints_controller_test.go`) and of
//! `pkg/api/v1/endpoints/util_test.go` against the simulated cluster.

use super::*;
use dsplay_api::manifest::parse_manifests;
use std::time::Duration;

fn create(cluster: &mut Cluster, yaml: &str) {
    let object = parse_manifests(yaml).remove(0).expect("manifest").object;
    cluster.create(object).expect("create");
}

fn endpoints(cluster: &Cluster, name: &str) -> Option<Endpoints> {
    cluster
        .store
        .endpoints
        .get(&("default".to_string(), name.to_string()))
        .cloned()
}

fn ips(list: &Option<Vec<EndpointAddress>>) -> Vec<&str> {
    list.iter().flatten().map(|a| a.ip.as_str()).collect()
}

const WEB: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: c, image: nginx, ports: [{name: http, containerPort: 8080}]}]\n";

fn service(extra: &str) -> String {
    format!("apiVersion: v1\nkind: Service\nmetadata: {{name: web, labels: {{team: a}}}}\nspec:\n  selector: {{app: web}}\n  ports: [{{name: http, port: 80, targetPort: http}}]\n{extra}")
}

/// Upstream: endpoints_controller_test.go TestSyncEndpointsItemsPreexisting /
/// TestSyncEndpointsItemsWithLabels: one subset, the Service's labels, ready pods as addresses.
#[test]
fn sync_service_lists_ready_pods_with_the_services_labels() {
    let mut cluster = Cluster::new(3);
    create(&mut cluster, WEB);
    create(&mut cluster, &service(""));
    cluster.settle(Duration::from_secs(60));
    let ep = endpoints(&cluster, "web").expect("endpoints");
    assert_eq!(
        ep.metadata.labels.as_ref().and_then(|l| l.get("team")),
        Some(&"a".to_string())
    );
    let subsets = ep.subsets.expect("subsets");
    assert_eq!(subsets.len(), 1);
    assert_eq!(ips(&subsets[0].addresses).len(), 2);
    assert!(subsets[0].not_ready_addresses.is_none());
    let port = &subsets[0].ports.as_ref().expect("ports")[0];
    assert_eq!((port.name.as_deref(), port.port), (Some("http"), 8080));
    let target = subsets[0].addresses.as_ref().unwrap()[0].target_ref.clone();
    assert_eq!(target.and_then(|t| t.kind), Some("Pod".to_string()));
}

/// Upstream: TestSyncEndpointsItemsPreexistingLabelsChange and the not-ready cases of
/// TestSyncEndpointsItems: a pod not ready is under notReadyAddresses, unless
/// publishNotReadyAddresses (TestSyncEndpointsHeadlessService… / tolerate unready).
#[test]
fn not_ready_pods_and_publish_not_ready_addresses() {
    let mut cluster = Cluster::new(3);
    let mut never_ready = cluster.image_behavior("nginx");
    never_ready.ready = false;
    cluster.set_image_behavior("nginx", never_ready);
    create(&mut cluster, WEB);
    create(&mut cluster, &service(""));
    cluster.settle(Duration::from_secs(60));
    let subsets = endpoints(&cluster, "web").unwrap().subsets.unwrap();
    assert!(subsets[0].addresses.is_none());
    assert_eq!(ips(&subsets[0].not_ready_addresses).len(), 2);
    let mut published = cluster.store.service("default", "web").cloned().unwrap();
    published.spec.as_mut().unwrap().publish_not_ready_addresses = Some(true);
    cluster.update(Object::Service(published)).expect("update");
    let subsets = endpoints(&cluster, "web").unwrap().subsets.unwrap();
    assert_eq!(ips(&subsets[0].addresses).len(), 2);
    assert!(subsets[0].not_ready_addresses.is_none());
}

/// Upstream: TestSyncEndpointsServiceNotFound, TestSyncServiceExternalNameType and
/// TestSyncEndpointsWithoutSelector… (a Service without selector keeps its Endpoints as written).
#[test]
fn deleted_selectorless_and_external_name_services() {
    let mut cluster = Cluster::new(3);
    create(&mut cluster, WEB);
    create(&mut cluster, &service(""));
    cluster.settle(Duration::from_secs(60));
    cluster
        .delete(Kind::Service, "default", "web", Default::default())
        .expect("delete");
    cluster.settle(Duration::from_secs(5));
    assert!(endpoints(&cluster, "web").is_none());
    create(
        &mut cluster,
        "apiVersion: v1\nkind: Service\nmetadata: {name: plain}\nspec: {ports: [{port: 80}]}\n",
    );
    create(&mut cluster, "apiVersion: v1\nkind: Service\nmetadata: {name: ext}\nspec: {type: ExternalName, externalName: example.com, selector: {app: web}}\n");
    assert!(endpoints(&cluster, "plain").is_none());
    assert!(endpoints(&cluster, "ext").is_none());
    // The API server's own Endpoints for `kubernetes` stays as it wrote it.
    let kubernetes = endpoints(&cluster, "kubernetes").expect("kubernetes");
    assert_eq!(
        ips(&kubernetes.subsets.unwrap()[0].addresses),
        ["172.18.0.2"]
    );
}

fn address(ip: &str, uid: &str) -> EndpointAddress {
    EndpointAddress {
        ip: ip.into(),
        target_ref: Some(ObjectReference {
            uid: Some(uid.into()),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn port(name: &str, number: i32) -> CoreEndpointPort {
    CoreEndpointPort {
        name: Some(name.into()),
        port: number,
        protocol: Some("TCP".into()),
        app_protocol: None,
    }
}

fn one(addr: EndpointAddress, ready: bool, ports: Vec<CoreEndpointPort>) -> EndpointSubset {
    EndpointSubset {
        addresses: ready.then(|| vec![addr.clone()]),
        not_ready_addresses: (!ready).then(|| vec![addr]),
        ports: Some(ports),
    }
}

/// Upstream: pkg/api/v1/endpoints/util_test.go TestPackSubsets: addresses sharing the same ports
/// merge (sorted by IP), ready wins over not ready for the same address, different port sets
/// stay apart, ports without addresses' differences merge into one subset.
#[test]
fn repack_subsets_cases_of_pack_subsets() {
    let packed = repack_subsets(vec![
        one(address("1.1.1.2", "b"), true, vec![port("http", 80)]),
        one(address("1.1.1.1", "a"), true, vec![port("http", 80)]),
        one(address("1.1.1.3", "c"), false, vec![port("http", 80)]),
        one(address("1.1.1.1", "a"), false, vec![port("http", 80)]),
    ]);
    assert_eq!(packed.len(), 1);
    assert_eq!(ips(&packed[0].addresses), ["1.1.1.1", "1.1.1.2"]);
    assert_eq!(ips(&packed[0].not_ready_addresses), ["1.1.1.3"]);
    let two_ports = repack_subsets(vec![
        one(address("1.1.1.1", "a"), true, vec![port("http", 80)]),
        one(address("1.1.1.1", "a"), true, vec![port("admin", 9000)]),
        one(address("1.1.1.2", "b"), true, vec![port("http", 80)]),
    ]);
    assert_eq!(two_ports.len(), 2);
    assert_eq!(ips(&two_ports[0].addresses), ["1.1.1.1", "1.1.1.2"]);
    assert_eq!(ips(&two_ports[1].addresses), ["1.1.1.1"]);
    let no_ports = repack_subsets(vec![one(address("1.1.1.1", "a"), true, vec![])]);
    assert_eq!(no_ports.len(), 1);
    assert!(no_ports[0].ports.is_none());
    assert!(repack_subsets(Vec::new()).is_empty());
}

/// Upstream: util_test.go TestPackSubsets orders ports by hash; a real kind cluster lists
/// kube-dns's ports as dns-tcp, dns, metrics and ingress-nginx's as https, http.
#[test]
fn repack_subsets_orders_ports_by_hash() {
    let tcp = |name: &str, number| port(name, number);
    let udp = CoreEndpointPort {
        protocol: Some("UDP".into()),
        ..port("dns", 53)
    };
    let packed = repack_subsets(vec![one(
        address("10.244.0.2", "a"),
        true,
        vec![udp, tcp("dns-tcp", 53), tcp("metrics", 9153)],
    )]);
    let names: Vec<_> = packed[0]
        .ports
        .iter()
        .flatten()
        .map(|p| p.name.clone().unwrap())
        .collect();
    assert_eq!(names, ["dns-tcp", "dns", "metrics"]);
    let packed = repack_subsets(vec![one(
        address("10.244.0.2", "a"),
        true,
        vec![tcp("http", 80), tcp("https", 443)],
    )]);
    assert_eq!(packed[0].ports.as_ref().unwrap()[0].port, 443);
}
