//! The cluster a new user sees (`docs/command-language.md`, The default cluster): kind's three nodes, the system namespaces and
//! PriorityClasses, and kube-proxy + kindnet already rolled out.

use crate::cluster::Cluster;
use dsplay_api::types::*;
use dsplay_api::{manifest, Object};
use k8s_openapi::api::core::v1::{NodeAddress, NodeSystemInfo};
use std::collections::{BTreeMap, VecDeque};

/// The kubelet version nodes report.
pub const KUBELET_VERSION: &str = "v1.33.1";

/// What `sim node add` (or a Node manifest) asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeOptions {
    /// Node name.
    pub name: String,
    /// Extra labels.
    pub labels: BTreeMap<String, String>,
    /// Taints.
    pub taints: Vec<Taint>,
    /// Allocatable cpu (`4`).
    pub cpu: String,
    /// Allocatable memory (`8Gi`).
    pub memory: String,
    /// Allocatable pods (`110`).
    pub pods: String,
    /// Label and taint it as a control-plane node.
    pub control_plane: bool,
}

impl NodeOptions {
    /// A worker with kind's default capacity.
    pub fn new(name: &str) -> NodeOptions {
        NodeOptions {
            name: name.to_string(),
            labels: BTreeMap::new(),
            taints: Vec::new(),
            cpu: "4".into(),
            memory: "8Gi".into(),
            pods: "110".into(),
            control_plane: false,
        }
    }
}

/// Builds the Node object for `options` (status is completed on create).
pub fn build_node(options: &NodeOptions) -> Node {
    let mut labels = BTreeMap::new();
    labels.insert("kubernetes.io/arch".to_string(), "amd64".to_string());
    labels.insert("kubernetes.io/hostname".to_string(), options.name.clone());
    labels.insert("kubernetes.io/os".to_string(), "linux".to_string());
    let mut taints = Vec::new();
    if options.control_plane {
        labels.insert(
            dsplay_api::taints::keys::CONTROL_PLANE.to_string(),
            String::new(),
        );
        taints.push(dsplay_api::taints::taint(
            dsplay_api::taints::keys::CONTROL_PLANE,
            None,
            "NoSchedule",
        ));
    }
    labels.extend(options.labels.clone());
    taints.extend(options.taints.clone());
    let resources: BTreeMap<String, Quantity> = [
        ("cpu", options.cpu.as_str()),
        ("memory", options.memory.as_str()),
        ("pods", options.pods.as_str()),
    ]
    .into_iter()
    .chain(HOST_RESOURCES.iter().copied())
    .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
    .collect();
    Node {
        metadata: ObjectMeta {
            name: Some(options.name.clone()),
            labels: Some(labels),
            annotations: Some(BTreeMap::from([(
                "node.alpha.kubernetes.io/ttl".to_string(),
                "0".to_string(),
            )])),
            ..Default::default()
        },
        spec: Some(NodeSpec {
            taints: (!taints.is_empty()).then_some(taints),
            ..Default::default()
        }),
        status: Some(NodeStatus {
            capacity: Some(resources.clone()),
            allocatable: Some(resources),
            ..Default::default()
        }),
    }
}

/// What the kubelet reports of the host besides cpu, memory and pods: its disk, and the huge page
/// sizes an x86-64 kernel supports (none reserved), as every kind node lists them.
///
/// Upstream: pkg/kubelet/cm/container_manager_linux.go (hugepage capacity from cadvisor);
/// pkg/kubelet/nodestatus/setters.go MachineInfo.
const HOST_RESOURCES: &[(&str, &str)] = &[
    ("ephemeral-storage", "100Gi"),
    ("hugepages-1Gi", "0"),
    ("hugepages-2Mi", "0"),
];

/// Fills what the kubelet reports for a new node: conditions, addresses, node info, pod CIDR.
pub fn complete_node(index: u32, now: &Time, node: &mut Node) {
    let name = node.metadata.name.clone().unwrap_or_default();
    let spec = node.spec.get_or_insert_with(Default::default);
    if spec.pod_cidr.is_none() {
        let cidr = format!("10.244.{index}.0/24");
        spec.pod_cidr = Some(cidr.clone());
        spec.pod_cidrs = Some(vec![cidr]);
        spec.provider_id = Some(format!("kind://docker/kind/{name}"));
    }
    let status = node.status.get_or_insert_with(Default::default);
    let defaults: BTreeMap<String, Quantity> = [("cpu", "4"), ("memory", "8Gi"), ("pods", "110")]
        .into_iter()
        .chain(HOST_RESOURCES.iter().copied())
        .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
        .collect();
    let capacity = status.capacity.get_or_insert_with(|| defaults.clone());
    for (k, v) in &defaults {
        capacity.entry(k.clone()).or_insert_with(|| v.clone());
    }
    if status.allocatable.is_none() {
        status.allocatable = status.capacity.clone();
    }
    let conditions = status.conditions.get_or_insert_with(healthy_conditions);
    for c in conditions.iter_mut() {
        c.last_heartbeat_time.get_or_insert_with(|| now.clone());
        c.last_transition_time.get_or_insert_with(|| now.clone());
    }
    if status.addresses.is_none() {
        status.addresses = Some(vec![
            NodeAddress {
                type_: "InternalIP".into(),
                address: format!("172.18.0.{}", index + 2),
            },
            NodeAddress {
                type_: "Hostname".into(),
                address: name.clone(),
            },
        ]);
    }
    if status.node_info.is_none() {
        status.node_info = Some(NodeSystemInfo {
            architecture: "amd64".into(),
            boot_id: String::new(),
            container_runtime_version: "containerd://2.1.1".into(),
            kernel_version: "6.8.0-generic".into(),
            kube_proxy_version: String::new(),
            kubelet_version: KUBELET_VERSION.into(),
            machine_id: String::new(),
            operating_system: "linux".into(),
            os_image: "Debian GNU/Linux 12 (bookworm)".into(),
            system_uuid: String::new(),
            swap: None,
        });
    }
}

/// The four conditions of a healthy node, as the kubelet posts them.
pub fn healthy_conditions() -> Vec<NodeCondition> {
    [
        (
            "MemoryPressure",
            "False",
            "KubeletHasSufficientMemory",
            "kubelet has sufficient memory available",
        ),
        (
            "DiskPressure",
            "False",
            "KubeletHasNoDiskPressure",
            "kubelet has no disk pressure",
        ),
        (
            "PIDPressure",
            "False",
            "KubeletHasSufficientPID",
            "kubelet has sufficient PID available",
        ),
        (
            "Ready",
            "True",
            "KubeletReady",
            "kubelet is posting ready status",
        ),
    ]
    .into_iter()
    .map(|(type_, status, reason, message)| NodeCondition {
        type_: type_.into(),
        status: status.into(),
        reason: Some(reason.into()),
        message: Some(message.into()),
        last_heartbeat_time: None,
        last_transition_time: None,
    })
    .collect()
}

const BASE_OBJECTS: &str = r#"
apiVersion: v1
kind: Namespace
metadata: {name: default}
---
apiVersion: v1
kind: Namespace
metadata: {name: kube-node-lease}
---
apiVersion: v1
kind: Namespace
metadata: {name: kube-public}
---
apiVersion: v1
kind: Namespace
metadata: {name: kube-system}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: system-cluster-critical}
value: 2000000000
description: Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: system-node-critical}
value: 2000001000
description: Used for system critical pods that must not be moved from their current node.
"#;

const KIND_DAEMON_SETS: &str = r#"
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: kindnet
  namespace: kube-system
  labels: {app: kindnet, k8s-app: kindnet, tier: node}
spec:
  selector:
    matchLabels: {app: kindnet}
  template:
    metadata:
      labels: {app: kindnet, k8s-app: kindnet, tier: node}
    spec:
      hostNetwork: true
      serviceAccountName: kindnet
      tolerations:
      - operator: Exists
      containers:
      - name: kindnet-cni
        image: docker.io/kindest/kindnetd:v20250512-df8de77b
        env:
        - name: HOST_IP
          valueFrom:
            fieldRef: {fieldPath: status.hostIP}
        - name: POD_IP
          valueFrom:
            fieldRef: {fieldPath: status.podIP}
        - name: POD_SUBNET
          value: 10.244.0.0/16
        - name: CONTROL_PLANE_ENDPOINT
          value: kind-control-plane:6443
        resources:
          requests: {cpu: 100m, memory: 50Mi}
          limits: {cpu: 100m, memory: 50Mi}
        securityContext:
          privileged: false
          capabilities:
            add: [NET_RAW, NET_ADMIN]
        volumeMounts:
        - {name: cni-cfg, mountPath: /etc/cni/net.d}
        - {name: xtables-lock, mountPath: /run/xtables.lock, readOnly: false}
        - {name: lib-modules, mountPath: /lib/modules, readOnly: true}
      volumes:
      - name: cni-cfg
        hostPath: {path: /etc/cni/net.d, type: ""}
      - name: xtables-lock
        hostPath: {path: /run/xtables.lock, type: FileOrCreate}
      - name: lib-modules
        hostPath: {path: /lib/modules, type: ""}
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: kube-proxy
  namespace: kube-system
  labels: {k8s-app: kube-proxy}
spec:
  selector:
    matchLabels: {k8s-app: kube-proxy}
  template:
    metadata:
      labels: {k8s-app: kube-proxy}
    spec:
      hostNetwork: true
      priorityClassName: system-node-critical
      serviceAccountName: kube-proxy
      nodeSelector:
        kubernetes.io/os: linux
      tolerations:
      - operator: Exists
      containers:
      - name: kube-proxy
        image: registry.k8s.io/kube-proxy:v1.33.1
        command: [/usr/local/bin/kube-proxy, --config=/var/lib/kube-proxy/config.conf, --hostname-override=$(NODE_NAME)]
        env:
        - name: NODE_NAME
          valueFrom:
            fieldRef: {apiVersion: v1, fieldPath: spec.nodeName}
        securityContext: {privileged: true}
        volumeMounts:
        - {name: kube-proxy, mountPath: /var/lib/kube-proxy}
        - {name: xtables-lock, mountPath: /run/xtables.lock}
        - {name: lib-modules, mountPath: /lib/modules, readOnly: true}
      volumes:
      - name: kube-proxy
        configMap: {name: kube-proxy}
      - name: xtables-lock
        hostPath: {path: /run/xtables.lock, type: FileOrCreate}
      - name: lib-modules
        hostPath: {path: /lib/modules, type: ""}
"#;

/// The Services kind has from the start: `kubernetes` (the API server's own, no selector) and
/// CoreDNS's `kube-dns`, at the addresses kubeadm gives them.
const KIND_SERVICES: &str = r#"
apiVersion: v1
kind: Service
metadata:
  name: kubernetes
  namespace: default
  labels: {component: apiserver, provider: kubernetes}
spec:
  clusterIP: 10.96.0.1
  ports:
  - {name: https, port: 443, protocol: TCP, targetPort: 6443}
---
apiVersion: v1
kind: Service
metadata:
  name: kube-dns
  namespace: kube-system
  labels: {k8s-app: kube-dns, kubernetes.io/cluster-service: "true", kubernetes.io/name: CoreDNS}
  annotations: {prometheus.io/port: "9153", prometheus.io/scrape: "true"}
spec:
  clusterIP: 10.96.0.10
  selector: {k8s-app: kube-dns}
  ports:
  - {name: dns, port: 53, protocol: UDP, targetPort: 53}
  - {name: dns-tcp, port: 53, protocol: TCP, targetPort: 53}
  - {name: metrics, port: 9153, protocol: TCP, targetPort: 9153}
"#;

/// The EndpointSlice the API server itself keeps for `kubernetes` (no managed-by label): the
/// control-plane node's address, ready, port https 6443.
fn kubernetes_endpoint_slice(control_plane_ip: &str) -> String {
    format!(
        "apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: kubernetes\n  namespace: default\n  labels: {{kubernetes.io/service-name: kubernetes}}\naddressType: IPv4\nendpoints:\n- addresses: [{control_plane_ip}]\n  conditions: {{ready: true}}\nports:\n- {{name: https, port: 6443, protocol: TCP}}\n"
    )
}

/// Creates a built-in manifest's objects, in order.
fn create_all(cluster: &mut Cluster, text: &str) {
    for object in manifest_objects(text) {
        let _ = cluster.create(object);
    }
}

/// The objects of a built-in manifest.
fn manifest_objects(text: &str) -> impl Iterator<Item = Object> {
    manifest::parse_manifests(text)
        .into_iter()
        .flatten()
        .map(|document| document.object)
}

/// Namespaces and the two system PriorityClasses (`sim reset --empty`).
pub fn install_base_objects(cluster: &mut Cluster) {
    create_all(cluster, BASE_OBJECTS);
}

/// Images a kind node has before it runs anything: the node image ships them.
const KIND_NODE_IMAGES: [&str; 2] = [
    "docker.io/kindest/kindnetd:v20250512-df8de77b",
    "registry.k8s.io/kube-proxy:v1.33.1",
];

/// Puts the images a kind node image ships into the node's image cache.
pub(crate) fn preload_node_images(cluster: &mut Cluster, node: &str) {
    let runtime = cluster.nodes_runtime.get_or_default(node.to_string());
    runtime.images.extend(
        KIND_NODE_IMAGES
            .iter()
            .chain(&crate::kind_addons::ADDON_IMAGES)
            .map(|i| i.to_string()),
    );
}

/// kind's three nodes, its two DaemonSets and its two Deployments (CoreDNS, the local-path
/// provisioner) and its two Services, rolled out with images already on the nodes. The
/// Deployments' pods are placed while the control plane is the only node, as on kind, where the
/// workers join later.
pub fn install_kind_cluster(cluster: &mut Cluster) {
    for part in KIND_CLUSTER_PARTS {
        part.install(cluster);
    }
    cluster.settle(crate::cluster::DEFAULT_SETTLE_MAX);
}

/// A write of [`install_kind_cluster`].
#[derive(Clone, Copy, Debug)]
enum KindClusterPart {
    /// A kind node joins ([`add_kind_node`]).
    Node(&'static str),
    /// The objects of a manifest are created, in order.
    Manifests(&'static str),
    /// [`install_kind_services`].
    Services,
}

impl KindClusterPart {
    fn install(self, cluster: &mut Cluster) {
        match self {
            KindClusterPart::Node(name) => add_kind_node(cluster, name),
            KindClusterPart::Manifests(text) => create_all(cluster, text),
            KindClusterPart::Services => install_kind_services(cluster),
        }
    }
}

/// [`install_kind_cluster`]'s writes, in order; its rollout follows.
const KIND_CLUSTER_PARTS: [KindClusterPart; 7] = [
    KindClusterPart::Node("kind-control-plane"),
    KindClusterPart::Manifests(crate::kind_addons::KIND_ADDONS),
    KindClusterPart::Manifests(crate::kind_addons::KIND_STORAGE_CLASS),
    KindClusterPart::Node("kind-worker"),
    KindClusterPart::Node("kind-worker2"),
    KindClusterPart::Services,
    KindClusterPart::Manifests(KIND_DAEMON_SETS),
];

/// Timers one part of [`KindClusterBuild`]'s rollout fires, unless told otherwise.
const TIMERS_PER_BUILD_PART: usize = 50;

/// [`install_kind_cluster`] a part at a time (a write, a manifest's parse, or a part of an
/// instant of the rollout), so a page can yield to the browser between parts: a page's first
/// cluster runs cold code, and in a browser most of each part is compiling it. The parts end
/// exactly where one call does.
#[derive(Clone, Debug)]
pub struct KindClusterBuild {
    /// Timers a part of the rollout fires.
    timers_per_part: usize,
    /// The build is complete.
    complete: bool,
    /// How many of [`KIND_CLUSTER_PARTS`] have begun.
    parts_begun: usize,
    /// A manifest's objects not created yet.
    pending: VecDeque<Object>,
    /// Where the rollout stops, as `settle` computes it, once it has begun.
    settle_limit_ms: Option<i64>,
}

impl Default for KindClusterBuild {
    fn default() -> Self {
        KindClusterBuild {
            timers_per_part: TIMERS_PER_BUILD_PART,
            complete: false,
            parts_begun: 0,
            pending: VecDeque::new(),
            settle_limit_ms: None,
        }
    }
}

impl KindClusterBuild {
    /// The same build with parts of the rollout that fire at most `timers` timers (at least one).
    pub fn with_timers_per_part(self, timers: usize) -> Self {
        KindClusterBuild {
            timers_per_part: timers.max(1),
            ..self
        }
    }

    /// Runs the next part on `cluster` (a cluster from [`Cluster::new_empty`], given to every
    /// call); returns whether the build is complete (from then on it does nothing).
    pub fn step(&mut self, cluster: &mut Cluster) -> bool {
        if self.complete {
            return true;
        }
        if let Some(object) = self.pending.pop_front() {
            let _ = cluster.create(object);
            return false;
        }
        if let Some(&part) = KIND_CLUSTER_PARTS.get(self.parts_begun) {
            self.parts_begun += 1;
            match part {
                KindClusterPart::Manifests(text) => self.pending.extend(manifest_objects(text)),
                part => part.install(cluster),
            }
            return false;
        }
        // `Cluster::settle`: every instant up to its limit, each stepped in parts.
        let limit_ms = *self
            .settle_limit_ms
            .get_or_insert_with(|| cluster.settle_limit_ms(crate::cluster::DEFAULT_SETTLE_MAX));
        if !cluster.step_due_by(limit_ms) {
            self.complete = true;
            return true;
        }
        cluster.step_part(self.timers_per_part);
        false
    }
}

/// A kind node joins with the images its node image ships.
fn add_kind_node(cluster: &mut Cluster, name: &str) {
    let mut options = NodeOptions::new(name);
    options.control_plane = name == "kind-control-plane";
    let _ = cluster.create(Object::Node(build_node(&options)));
    preload_node_images(cluster, name);
}

/// The `default` and `kube-system` Services, and the API server's own endpoints for `kubernetes`.
fn install_kind_services(cluster: &mut Cluster) {
    create_all(cluster, KIND_SERVICES);
    let control_plane_ip = cluster
        .store
        .node("kind-control-plane")
        .and_then(|n| n.status.as_ref())
        .and_then(|s| s.addresses.as_ref())
        .and_then(|a| a.iter().find(|a| a.type_ == "InternalIP"))
        .map(|a| a.address.clone())
        .unwrap_or_default();
    create_all(cluster, &kubernetes_endpoint_slice(&control_plane_ip));
    let _ = cluster.create(Object::Endpoints(
        crate::controller::endpoint::kubernetes_endpoints(&control_plane_ip),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kind_cluster_built_in_parts_is_the_one_built_at_once() {
        let at_once = format!("{:?}", Cluster::new(7));
        // As the page builds it, and with every instant of the rollout cut into one-timer parts.
        for build in [
            KindClusterBuild::default(),
            KindClusterBuild::default().with_timers_per_part(1),
        ] {
            let mut build = build;
            let mut in_parts = Cluster::new_empty(7);
            let mut parts = 1;
            while !build.step(&mut in_parts) {
                parts += 1;
            }
            assert!(
                parts > KIND_CLUSTER_PARTS.len() + 10,
                "each object and the rollout's instants took parts"
            );
            assert_eq!(format!("{in_parts:?}"), at_once);
            // Complete: what later writes make due (a new node's daemon pods starting) is not the
            // build's to run.
            let _ = in_parts.create(Object::Node(build_node(&NodeOptions::new("extra"))));
            assert!(in_parts.next_timer().is_some());
            let after = format!("{in_parts:?}");
            assert!(build.step(&mut in_parts), "a complete build stays complete");
            assert_eq!(format!("{in_parts:?}"), after);
        }
    }
}
