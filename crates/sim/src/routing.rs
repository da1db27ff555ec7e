//! Where a `sim curl` request lands: cluster DNS for Service names, kube-proxy's rules for
//! ClusterIPs and NodePorts (ready endpoints only; `internalTrafficPolicy: Local` keeps the
//! endpoints on the client's node, `externalTrafficPolicy: Local` those on the node hit), hostPort
//! and hostNetwork pods on node IPs, and pods on their own IPs at their container ports. A pure
//! function of the store and an RNG (which endpoint answers).
//!
//! Outside the cluster (the kind host) only node IPs are reachable and cluster DNS is unknown;
//! a node reaches ClusterIPs but does not use cluster DNS; a pod has both.

use crate::cluster::Cluster;
use crate::store::Store;
use dsplay_api::service::{in_service_cidr, parse_ipv4, LABEL_SERVICE_NAME};
use dsplay_api::types::*;
use rand_core::RngCore;

/// Where a request comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The kind host, outside the cluster.
    Outside,
    /// A node's own network (`--from node/NAME`).
    Node(String),
    /// A pod (`--from pod/NAME`), by namespace and name.
    Pod(String, String),
}

/// The pod that answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Pod name.
    pub pod: String,
    /// Namespace of the pod.
    pub namespace: String,
    /// The node it runs on.
    pub node: String,
}

/// Why a request failed, as curl reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CurlError {
    /// The URL does not parse (`curl: (3) URL rejected: Malformed input to a URL function`).
    Malformed,
    /// `curl: (6) Could not resolve host: HOST`.
    Resolve(String),
    /// `curl: (7) Failed to connect to HOST port PORT after 0 ms: Couldn't connect to server`.
    Connect(String, u16),
    /// The source is not usable (unknown node or pod, pod without IP): kubectl-style text.
    Source(String),
}

impl std::fmt::Display for CurlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CurlError::Malformed => {
                write!(f, "curl: (3) URL rejected: Malformed input to a URL function")
            }
            CurlError::Resolve(host) => write!(f, "curl: (6) Could not resolve host: {host}"),
            CurlError::Connect(host, port) => write!(
                f,
                "curl: (7) Failed to connect to {host} port {port} after 0 ms: Couldn't connect to server"
            ),
            CurlError::Source(text) => f.write_str(text),
        }
    }
}

/// `http://HOST[:PORT][/path]` → (host, port); the scheme is optional (curl assumes http).
pub fn parse_url(url: &str) -> Option<(String, u16)> {
    let (rest, default_port) = if let Some(r) = url.strip_prefix("http://") {
        (r, 80)
    } else if let Some(r) = url.strip_prefix("https://") {
        (r, 443)
    } else if url.contains("://") {
        return None;
    } else {
        (url, 80)
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) => (h, p.parse::<u16>().ok().filter(|p| *p != 0)?),
        None => (authority, default_port),
    };
    if host.is_empty() || host.contains('@') {
        return None;
    }
    Some((host.to_ascii_lowercase(), port))
}

fn pod_ip(pod: &Pod) -> Option<&str> {
    pod.status
        .as_ref()
        .and_then(|s| s.pod_ip.as_deref())
        .filter(|ip| !ip.is_empty())
}

fn pod_node(pod: &Pod) -> Option<&str> {
    pod.spec.as_ref().and_then(|s| s.node_name.as_deref())
}

fn running(pod: &Pod) -> bool {
    pod.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running")
}

fn host_network(pod: &Pod) -> bool {
    pod.spec.as_ref().and_then(|s| s.host_network) == Some(true)
}

fn container_ports(pod: &Pod) -> impl Iterator<Item = &ContainerPortRef> + '_ {
    pod.spec
        .iter()
        .flat_map(|s| s.containers.iter())
        .flat_map(|c| c.ports.iter().flatten())
}

type ContainerPortRef = k8s_openapi::api::core::v1::ContainerPort;

/// A node's InternalIP.
fn node_ip(node: &Node) -> Option<&str> {
    node.status
        .as_ref()
        .and_then(|s| s.addresses.as_ref())
        .and_then(|a| a.iter().find(|a| a.type_ == "InternalIP"))
        .map(|a| a.address.as_str())
}

fn answer(pod: &Pod) -> Answer {
    Answer {
        pod: pod.metadata.name.clone().unwrap_or_default(),
        namespace: pod.metadata.namespace.clone().unwrap_or_default(),
        node: pod_node(pod).unwrap_or("").to_string(),
    }
}

/// The client's node and namespace, and whether it uses cluster DNS and reaches ClusterIPs.
struct Client {
    node: Option<String>,
    namespace: String,
    cluster_dns: bool,
    cluster_ips: bool,
    /// For a pod client (not on the host network): the pod whose ports `localhost` reaches.
    own_pod: Option<Pod>,
}

fn client(store: &Store, source: &Source) -> Result<Client, CurlError> {
    match source {
        Source::Outside => Ok(Client {
            node: None,
            namespace: "default".into(),
            cluster_dns: false,
            cluster_ips: false,
            own_pod: None,
        }),
        Source::Node(name) => {
            store.node(name).ok_or_else(|| {
                CurlError::Source(format!(
                    "Error from server (NotFound): nodes \"{name}\" not found"
                ))
            })?;
            Ok(Client {
                node: Some(name.clone()),
                namespace: "default".into(),
                cluster_dns: false,
                cluster_ips: true,
                own_pod: None,
            })
        }
        Source::Pod(namespace, name) => {
            let pod = store.pod(namespace, name).ok_or_else(|| {
                CurlError::Source(format!(
                    "Error from server (NotFound): pods \"{name}\" not found"
                ))
            })?;
            let (Some(_), true) = (pod_ip(pod), running(pod)) else {
                return Err(CurlError::Source(format!(
                    "error: unable to curl from pod/{name}: the pod is not running"
                )));
            };
            Ok(Client {
                node: pod_node(pod).map(str::to_string),
                namespace: namespace.clone(),
                cluster_dns: true,
                cluster_ips: true,
                own_pod: (!host_network(pod)).then(|| pod.clone()),
            })
        }
    }
}

/// Cluster DNS: `svc`, `svc.ns`, `svc.ns.svc`, `svc.ns.svc.cluster.local` (the pod's search path
/// `<ns>.svc.cluster.local svc.cluster.local cluster.local`). A headless Service resolves to one
/// of its ready endpoints' addresses.
fn resolve_service<'a>(store: &'a Store, namespace: &str, host: &str) -> Option<&'a Service> {
    let host = host.trim_end_matches('.');
    let host = host.strip_suffix(".cluster.local").unwrap_or(host);
    let parts: Vec<&str> = host.split('.').collect();
    match parts.as_slice() {
        [svc] => store.service(namespace, svc),
        [svc, ns] | [svc, ns, "svc"] => store.service(ns, svc),
        _ => None,
    }
}

/// Cluster DNS for a pod behind a headless Service: `<hostname>.<svc>` with the pod's search path,
/// or `<hostname>.<svc>.<ns>[.svc[.cluster.local]]` — the address of the ready endpoint listed under
/// that hostname (a StatefulSet's pod: `web-0.nginx`). The search path tries this form first.
fn resolve_pod_record(store: &Store, namespace: &str, host: &str) -> Option<String> {
    let host = host.trim_end_matches('.');
    let host = host.strip_suffix(".cluster.local").unwrap_or(host);
    let parts: Vec<&str> = host.split('.').collect();
    let (hostname, svc) = match parts.as_slice() {
        [hostname, svc] => (*hostname, store.service(namespace, svc)?),
        [hostname, svc, ns] | [hostname, svc, ns, "svc"] => (*hostname, store.service(ns, svc)?),
        _ => return None,
    };
    if !dsplay_api::service::is_headless(svc) {
        return None;
    }
    service_slices(store, svc)
        .flat_map(|s| s.endpoints.iter())
        .filter(|e| e.conditions.as_ref().and_then(|c| c.ready).unwrap_or(true))
        .find(|e| e.hostname.as_deref() == Some(hostname))
        .and_then(|e| e.addresses.first().cloned())
}

/// The EndpointSlices of a Service (its namespace, its `kubernetes.io/service-name` label).
fn service_slices<'a>(
    store: &'a Store,
    svc: &'a Service,
) -> impl Iterator<Item = &'a EndpointSlice> {
    let namespace = svc.metadata.namespace.as_deref();
    let name = svc.metadata.name.as_deref();
    store.endpoint_slices().filter(move |s| {
        s.metadata.namespace.as_deref() == namespace
            && s.metadata
                .labels
                .as_ref()
                .and_then(|l| l.get(LABEL_SERVICE_NAME))
                .map(String::as_str)
                == name
    })
}

/// The ready endpoints of a Service's slices for one service port: (address, port, pod, node).
fn ready_endpoints(
    store: &Store,
    svc: &Service,
    port: &ServicePort,
) -> Vec<(String, String, Option<String>)> {
    let port_name = port.name.as_deref().unwrap_or("");
    let mut out = Vec::new();
    for slice in service_slices(store, svc) {
        let has_port = slice
            .ports
            .iter()
            .flatten()
            .any(|p| p.name.as_deref().unwrap_or("") == port_name);
        if !has_port {
            continue;
        }
        for e in &slice.endpoints {
            let ready = e.conditions.as_ref().and_then(|c| c.ready).unwrap_or(true);
            let Some(pod) = e.target_ref.as_ref().and_then(|r| r.name.clone()) else {
                continue;
            };
            if ready {
                out.push((
                    pod,
                    e.addresses.first().cloned().unwrap_or_default(),
                    e.node_name.clone(),
                ));
            }
        }
    }
    out
}

/// kube-proxy: a Service port's ready endpoints, narrowed to `local_node` when a Local traffic
/// policy applies; one chosen at random.
fn via_service(
    store: &Store,
    rng: &mut impl RngCore,
    svc: &Service,
    port: &ServicePort,
    local_node: Option<&str>,
) -> Option<Answer> {
    let namespace = svc.metadata.namespace.as_deref().unwrap_or("");
    let mut candidates = ready_endpoints(store, svc, port);
    if let Some(node) = local_node {
        candidates.retain(|(_, _, n)| n.as_deref() == Some(node));
    }
    if candidates.is_empty() {
        return None;
    }
    let (pod, _, _) = &candidates[rng.next_u32() as usize % candidates.len()];
    store.pod(namespace, pod).map(answer)
}

/// What answers at `ip:port` for this client.
fn connect(
    store: &Store,
    rng: &mut impl RngCore,
    client: &Client,
    ip: &str,
    port: u16,
) -> Option<Answer> {
    let port = i32::from(port);
    let parsed = parse_ipv4(ip)?;
    if in_service_cidr(parsed) {
        if !client.cluster_ips {
            return None;
        }
        let svc = store
            .services()
            .find(|s| s.spec.as_ref().and_then(|s| s.cluster_ip.as_deref()) == Some(ip))?;
        let spec = svc.spec.as_ref()?;
        let sp = spec
            .ports
            .iter()
            .flatten()
            .find(|p| p.port == port && p.protocol.as_deref().unwrap_or("TCP") == "TCP")?;
        let local = spec.internal_traffic_policy.as_deref() == Some("Local");
        let node = if local {
            Some(client.node.as_deref().unwrap_or(""))
        } else {
            None
        };
        return via_service(store, rng, svc, sp, node);
    }
    if let Some(node) = store.nodes().find(|n| node_ip(n) == Some(ip)) {
        let node_name = node.metadata.name.as_deref().unwrap_or("");
        let on_node = store
            .pods_on_node(node_name)
            .filter(|p| running(p))
            .find(|p| {
                container_ports(p).any(|c| {
                    c.protocol.as_deref().unwrap_or("TCP") == "TCP"
                        && (c.host_port == Some(port)
                            || (host_network(p) && c.container_port == port))
                })
            });
        if let Some(pod) = on_node {
            return Some(answer(pod));
        }
        // A NodePort Service answers on every node.
        let (svc, sp) = store.services().find_map(|s| {
            let sp = s
                .spec
                .as_ref()?
                .ports
                .iter()
                .flatten()
                .find(|p| p.node_port == Some(port))?;
            Some((s, sp))
        })?;
        let local = svc
            .spec
            .as_ref()
            .and_then(|s| s.external_traffic_policy.as_deref())
            == Some("Local");
        return via_service(store, rng, svc, sp, local.then_some(node_name));
    }
    // A pod IP: the kind host has no route to the pod network.
    client.cluster_ips.then_some(())?;
    let pod = store
        .pods()
        .find(|p| !host_network(p) && pod_ip(p) == Some(ip) && running(p))?;
    container_ports(pod)
        .any(|c| c.container_port == port && c.protocol.as_deref().unwrap_or("TCP") == "TCP")
        .then(|| answer(pod))
}

/// One request: resolve the host, then connect.
pub fn curl(
    store: &Store,
    rng: &mut impl RngCore,
    source: &Source,
    url: &str,
) -> Result<Answer, CurlError> {
    let (host, port) = parse_url(url).ok_or(CurlError::Malformed)?;
    let client = client(store, source)?;
    let refused = || CurlError::Connect(host.clone(), port);
    if host == "localhost" || host == "127.0.0.1" {
        if let Some(pod) = &client.own_pod {
            return container_ports(pod)
                .any(|c| c.container_port == i32::from(port))
                .then(|| answer(pod))
                .ok_or_else(refused);
        }
        // On a node's own network (a host-network pod's too) only host-network pods listen.
        let node = client.node.clone().ok_or_else(refused)?;
        return store
            .pods_on_node(&node)
            .filter(|p| running(p) && host_network(p))
            .find(|p| container_ports(p).any(|c| c.container_port == i32::from(port)))
            .map(answer)
            .ok_or_else(refused);
    }
    let ip = if parse_ipv4(&host).is_some() {
        host.clone()
    } else {
        if !client.cluster_dns {
            return Err(CurlError::Resolve(host));
        }
        if let Some(ip) = resolve_pod_record(store, &client.namespace, &host) {
            return connect(store, rng, &client, &ip, port).ok_or_else(refused);
        }
        let svc = resolve_service(store, &client.namespace, &host)
            .ok_or_else(|| CurlError::Resolve(host.clone()))?;
        match svc.spec.as_ref().and_then(|s| s.cluster_ip.as_deref()) {
            Some("None") => {
                let addresses: Vec<String> = svc
                    .spec
                    .as_ref()
                    .and_then(|s| s.ports.as_ref())
                    .into_iter()
                    .flatten()
                    .flat_map(|p| ready_endpoints(store, svc, p))
                    .map(|(_, address, _)| address)
                    .collect();
                if addresses.is_empty() {
                    return Err(CurlError::Resolve(host));
                }
                addresses[rng.next_u32() as usize % addresses.len()].clone()
            }
            Some(ip) if !ip.is_empty() => ip.to_string(),
            _ => return Err(CurlError::Resolve(host)),
        }
    };
    connect(store, rng, &client, &ip, port).ok_or_else(refused)
}

impl Cluster {
    /// `sim curl`: which pod answers a request, the endpoint chosen with the Services' RNG stream.
    pub fn curl(&mut self, source: &Source, url: &str) -> Result<Answer, CurlError> {
        curl(&self.store, &mut self.service_rng, source, url)
    }
}

#[cfg(test)]
mod tests;
