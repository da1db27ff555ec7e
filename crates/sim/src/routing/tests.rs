//! One test per routing rule of `sim curl`.

use super::*;
use crate::images::ImageBehavior;
use dsplay_api::manifest::parse_manifests;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::time::Duration;

const AGENT: &str = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: node-agent}\nspec:\n  selector: {matchLabels: {app: node-agent}}\n  template:\n    metadata: {labels: {app: node-agent}}\n    spec:\n      tolerations: [{operator: Exists}]\n      containers: [{name: agent, image: agent:1, ports: [{containerPort: 11559, hostPort: 11559}]}]\n";
const CLIENT: &str = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: client}\nspec:\n  selector: {matchLabels: {app: client}}\n  template:\n    metadata: {labels: {app: client}}\n    spec:\n      containers: [{name: c, image: busybox, ports: [{containerPort: 8080}]}]\n";
const LOCAL_SVC: &str = "apiVersion: v1\nkind: Service\nmetadata: {name: node-agent}\nspec:\n  selector: {app: node-agent}\n  internalTrafficPolicy: Local\n  ports: [{port: 80, targetPort: 11559}]\n";

fn create(cluster: &mut Cluster, yaml: &str) {
    let object = parse_manifests(yaml).remove(0).expect("manifest").object;
    cluster.create(object).expect("create");
}

fn cluster() -> Cluster {
    let mut c = Cluster::new(3);
    create(&mut c, AGENT);
    create(&mut c, CLIENT);
    create(&mut c, LOCAL_SVC);
    c.settle(Duration::from_secs(300));
    c
}

fn pod_on(c: &Cluster, prefix: &str, node: &str) -> String {
    c.store()
        .pods()
        .find(|p| {
            p.metadata.name.as_deref().unwrap_or("").starts_with(prefix)
                && pod_node(p) == Some(node)
        })
        .and_then(|p| p.metadata.name.clone())
        .expect("pod on node")
}

fn from_pod(name: &str) -> Source {
    Source::Pod("default".into(), name.into())
}

fn node_ip_of(c: &Cluster, node: &str) -> String {
    node_ip(c.store().node(node).unwrap()).unwrap().to_string()
}

fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(1)
}

#[test]
fn parse_url_defaults_and_rejects() {
    assert_eq!(parse_url("http://a.b:8080/x"), Some(("a.b".into(), 8080)));
    assert_eq!(parse_url("http://web"), Some(("web".into(), 80)));
    assert_eq!(parse_url("web:81/"), Some(("web".into(), 81)));
    assert_eq!(parse_url("ftp://web"), None);
    assert_eq!(parse_url("http://web:x"), None);
    assert_eq!(parse_url("http://"), None);
}

#[test]
fn outside_reaches_host_ports_on_node_ips() {
    let c = cluster();
    let ip = node_ip_of(&c, "kind-worker");
    let got = curl(
        c.store(),
        &mut rng(),
        &Source::Outside,
        &format!("http://{ip}:11559"),
    )
    .unwrap();
    assert_eq!(got.node, "kind-worker");
    assert_eq!(got.pod, pod_on(&c, "node-agent-", "kind-worker"));
    assert_eq!(
        curl(
            c.store(),
            &mut rng(),
            &Source::Outside,
            &format!("http://{ip}:11560")
        ),
        Err(CurlError::Connect(ip, 11560))
    );
}

#[test]
fn outside_has_no_cluster_dns_nor_cluster_ips() {
    let c = cluster();
    assert_eq!(
        curl(c.store(), &mut rng(), &Source::Outside, "http://node-agent"),
        Err(CurlError::Resolve("node-agent".into()))
    );
    assert_eq!(
        curl(
            c.store(),
            &mut rng(),
            &Source::Outside,
            "http://10.96.0.1:443"
        ),
        Err(CurlError::Connect("10.96.0.1".into(), 443))
    );
}

#[test]
fn internal_traffic_policy_local_answers_on_the_clients_node() {
    let c = cluster();
    for node in ["kind-worker", "kind-worker2"] {
        let client = pod_on(&c, "client-", node);
        for host in [
            "node-agent",
            "node-agent.default",
            "node-agent.default.svc",
            "node-agent.default.svc.cluster.local",
        ] {
            let got = curl(
                c.store(),
                &mut rng(),
                &from_pod(&client),
                &format!("http://{host}"),
            )
            .unwrap();
            assert_eq!(got.node, node, "{host}");
            assert_eq!(got.pod, pod_on(&c, "node-agent-", node));
        }
    }
}

#[test]
fn internal_traffic_policy_local_without_a_local_endpoint_fails() {
    let mut c = cluster();
    create(&mut c, "apiVersion: v1\nkind: Service\nmetadata: {name: agent-cp}\nspec:\n  selector: {app: node-agent}\n  internalTrafficPolicy: Local\n  ports: [{port: 80, targetPort: 11559}]\n");
    // Only the control-plane's agent stays in the slice.
    let keep = pod_on(&c, "node-agent-", "kind-control-plane");
    let slice = c
        .store()
        .endpoint_slices()
        .find(|s| {
            s.metadata
                .name
                .as_deref()
                .unwrap_or("")
                .starts_with("agent-cp-")
        })
        .cloned()
        .unwrap();
    let mut trimmed = slice.clone();
    trimmed
        .endpoints
        .retain(|e| e.target_ref.as_ref().unwrap().name.as_deref() == Some(keep.as_str()));
    let mut store = c.store().clone();
    store.put(dsplay_api::Object::EndpointSlice(trimmed), 0);
    let client = pod_on(&c, "client-", "kind-worker");
    assert_eq!(
        curl(&store, &mut rng(), &from_pod(&client), "http://agent-cp"),
        Err(CurlError::Connect("agent-cp".into(), 80))
    );
}

#[test]
fn cluster_policy_spreads_over_ready_endpoints_only() {
    let mut c = cluster();
    c.set_image_behavior(
        "never:1",
        ImageBehavior {
            ready: false,
            ..ImageBehavior::default()
        },
    );
    create(&mut c, "apiVersion: v1\nkind: Pod\nmetadata: {name: unready, labels: {app: node-agent}}\nspec:\n  nodeName: kind-worker\n  containers: [{name: c, image: 'never:1', readinessProbe: {exec: {command: [x]}}}]\n");
    c.settle(Duration::from_secs(60));
    create(&mut c, "apiVersion: v1\nkind: Service\nmetadata: {name: spread}\nspec: {selector: {app: node-agent}, ports: [{port: 80, targetPort: 11559}]}\n");
    let client = pod_on(&c, "client-", "kind-worker");
    let mut nodes = std::collections::BTreeSet::new();
    let mut r = rng();
    for _ in 0..40 {
        let got = curl(c.store(), &mut r, &from_pod(&client), "http://spread").unwrap();
        assert_ne!(got.pod, "unready");
        nodes.insert(got.node);
    }
    assert_eq!(nodes.len(), 3);
}

#[test]
fn nodes_reach_cluster_ips_but_not_cluster_dns() {
    let c = cluster();
    let svc_ip = c
        .store()
        .service("default", "node-agent")
        .and_then(|s| s.spec.as_ref()?.cluster_ip.clone())
        .unwrap();
    let from = Source::Node("kind-worker2".into());
    let got = curl(c.store(), &mut rng(), &from, &format!("http://{svc_ip}")).unwrap();
    assert_eq!(got.node, "kind-worker2");
    assert_eq!(
        curl(c.store(), &mut rng(), &from, "http://node-agent"),
        Err(CurlError::Resolve("node-agent".into()))
    );
}

#[test]
fn pod_ips_answer_on_container_ports() {
    let c = cluster();
    let target = pod_on(&c, "client-", "kind-worker2");
    let ip = pod_ip(c.store().pod("default", &target).unwrap())
        .unwrap()
        .to_string();
    let from = from_pod(&pod_on(&c, "client-", "kind-worker"));
    assert_eq!(
        curl(c.store(), &mut rng(), &from, &format!("http://{ip}:8080"))
            .unwrap()
            .pod,
        target
    );
    assert_eq!(
        curl(c.store(), &mut rng(), &from, &format!("http://{ip}:9090")),
        Err(CurlError::Connect(ip.clone(), 9090))
    );
    assert!(curl(
        c.store(),
        &mut rng(),
        &Source::Outside,
        &format!("http://{ip}:8080")
    )
    .is_err());
}

#[test]
fn host_network_pods_answer_on_their_node_ip() {
    let mut c = cluster();
    create(&mut c, "apiVersion: v1\nkind: Pod\nmetadata: {name: hostnet}\nspec:\n  nodeName: kind-worker2\n  hostNetwork: true\n  containers: [{name: c, image: nginx, ports: [{containerPort: 9100}]}]\n");
    c.settle(Duration::from_secs(60));
    let ip = node_ip_of(&c, "kind-worker2");
    let got = curl(
        c.store(),
        &mut rng(),
        &Source::Outside,
        &format!("http://{ip}:9100"),
    )
    .unwrap();
    assert_eq!(
        (got.pod.as_str(), got.node.as_str()),
        ("hostnet", "kind-worker2")
    );
    let from = Source::Node("kind-worker2".into());
    assert_eq!(
        curl(c.store(), &mut rng(), &from, "http://localhost:9100")
            .unwrap()
            .pod,
        "hostnet"
    );
}

#[test]
fn localhost_in_a_pod_is_the_pod_and_unknown_names_do_not_resolve() {
    let c = cluster();
    let client = pod_on(&c, "client-", "kind-worker");
    assert_eq!(
        curl(
            c.store(),
            &mut rng(),
            &from_pod(&client),
            "http://localhost:8080"
        )
        .unwrap()
        .pod,
        client
    );
    assert_eq!(
        curl(
            c.store(),
            &mut rng(),
            &Source::Outside,
            "http://localhost:8080"
        ),
        Err(CurlError::Connect("localhost".into(), 8080))
    );
    assert_eq!(
        curl(
            c.store(),
            &mut rng(),
            &from_pod(&client),
            "http://nothing.default"
        ),
        Err(CurlError::Resolve("nothing.default".into()))
    );
    assert_eq!(
        curl(
            c.store(),
            &mut rng(),
            &from_pod(&client),
            "http://kubernetes.default"
        )
        .unwrap_err(),
        CurlError::Connect("kubernetes.default".into(), 80)
    );
}

#[test]
fn node_ports_answer_on_every_node() {
    let mut c = cluster();
    create(&mut c, "apiVersion: v1\nkind: Service\nmetadata: {name: np}\nspec: {type: NodePort, selector: {app: node-agent}, ports: [{port: 80, targetPort: 11559, nodePort: 30080}]}\n");
    let ip = node_ip_of(&c, "kind-control-plane");
    assert!(curl(
        c.store(),
        &mut rng(),
        &Source::Outside,
        &format!("http://{ip}:30080")
    )
    .is_ok());
}

/// CoreDNS's records for pods behind a headless Service: `<hostname>.<svc>` resolves to the
/// address of the ready endpoint with that hostname; other names fall through to Services.
#[test]
fn headless_service_pod_records_resolve_to_the_pod() {
    let mut cluster = Cluster::new(3);
    create(&mut cluster, "apiVersion: v1\nkind: Service\nmetadata: {name: nginx}\nspec: {clusterIP: None, selector: {app: web}, ports: [{port: 80}]}\n");
    create(&mut cluster, "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web}\nspec:\n  serviceName: nginx\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx, ports: [{containerPort: 80}]}]}\n");
    cluster.settle(Duration::from_secs(120));
    let from = Source::Pod("default".into(), "web-1".into());
    let answer = cluster.curl(&from, "http://web-0.nginx/").expect("answer");
    assert_eq!(answer.pod, "web-0");
    let answer = cluster
        .curl(&from, "http://web-1.nginx.default.svc.cluster.local/")
        .expect("answer");
    assert_eq!(answer.pod, "web-1");
    assert!(cluster.curl(&from, "http://web-7.nginx/").is_err());
}
