//! Service rules that need no cluster: the API server's defaults (`SetDefaults_Service`), the
//! service CIDR and NodePort range of a kind cluster, headless detection, and the named-port
//! lookup the EndpointSlice controller and the proxy both use (`podutil.FindPort`).

use crate::types::*;

/// kind's `--service-cluster-ip-range` (10.96.0.0/16), as (network address, prefix length).
pub const SERVICE_CIDR: ([u8; 4], u8) = ([10, 96, 0, 0], 16);
/// The API server's `--service-node-port-range` default (30000-32767).
pub const NODE_PORT_RANGE: (i32, i32) = (30000, 32767);
/// The label that ties an EndpointSlice to its Service (`discovery.LabelServiceName`).
pub const LABEL_SERVICE_NAME: &str = "kubernetes.io/service-name";
/// The label naming the controller that manages a slice (`discovery.LabelManagedBy`).
pub const LABEL_MANAGED_BY: &str = "endpointslice.kubernetes.io/managed-by";
/// The value the EndpointSlice controller writes into [`LABEL_MANAGED_BY`].
pub const CONTROLLER_NAME: &str = "endpointslice-controller.k8s.io";

/// `SetDefaults_Service` plus what the registry fills on create (`ipFamilies`, `ipFamilyPolicy`,
/// `clusterIPs` from `clusterIP`): type ClusterIP, sessionAffinity None, protocol TCP, targetPort =
/// port, internalTrafficPolicy Cluster, externalTrafficPolicy Cluster for NodePort/LoadBalancer.
///
/// Upstream: pkg/apis/core/v1/defaults.go SetDefaults_Service.
pub fn default_service(svc: &mut Service) {
    let spec = svc.spec.get_or_insert_with(Default::default);
    if spec.session_affinity.as_deref().unwrap_or("").is_empty() {
        spec.session_affinity = Some("None".into());
    }
    if spec.type_.as_deref().unwrap_or("").is_empty() {
        spec.type_ = Some("ClusterIP".into());
    }
    let type_ = spec.type_.clone().unwrap_or_default();
    for port in spec.ports.iter_mut().flatten() {
        if port.protocol.as_deref().unwrap_or("").is_empty() {
            port.protocol = Some("TCP".into());
        }
        let unset = match &port.target_port {
            None => true,
            Some(IntOrString::Int(0)) => true,
            Some(IntOrString::String(s)) => s.is_empty(),
            Some(IntOrString::Int(_)) => false,
        };
        if unset {
            port.target_port = Some(IntOrString::Int(port.port));
        }
    }
    if (type_ == "NodePort" || type_ == "LoadBalancer")
        && spec
            .external_traffic_policy
            .as_deref()
            .unwrap_or("")
            .is_empty()
    {
        spec.external_traffic_policy = Some("Cluster".into());
    }
    if type_ == "LoadBalancer" && spec.allocate_load_balancer_node_ports.is_none() {
        spec.allocate_load_balancer_node_ports = Some(true);
    }
    if type_ == "ExternalName" {
        return;
    }
    if spec.internal_traffic_policy.is_none() {
        spec.internal_traffic_policy = Some("Cluster".into());
    }
    if let Some(ip) = spec.cluster_ip.clone().filter(|ip| !ip.is_empty()) {
        if spec.cluster_ips.as_ref().is_none_or(|ips| ips.is_empty()) {
            spec.cluster_ips = Some(vec![ip]);
        }
    }
    if spec.ip_families.as_ref().is_none_or(|f| f.is_empty()) {
        spec.ip_families = Some(vec!["IPv4".into()]);
    }
    if spec.ip_family_policy.is_none() {
        spec.ip_family_policy = Some("SingleStack".into());
    }
}

/// Whether a Service is headless (`clusterIP: None`).
pub fn is_headless(svc: &Service) -> bool {
    svc.spec.as_ref().and_then(|s| s.cluster_ip.as_deref()) == Some("None")
}

/// A Service's type, `ClusterIP` when unset.
pub fn service_type(svc: &Service) -> &str {
    svc.spec
        .as_ref()
        .and_then(|s| s.type_.as_deref())
        .filter(|t| !t.is_empty())
        .unwrap_or("ClusterIP")
}

/// Parses a dotted IPv4 address.
pub fn parse_ipv4(text: &str) -> Option<[u8; 4]> {
    let mut out = [0u8; 4];
    let mut parts = text.split('.');
    for slot in &mut out {
        let part = parts.next()?;
        if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *slot = part.parse().ok()?;
    }
    parts.next().is_none().then_some(out)
}

/// Whether an IPv4 address lies inside [`SERVICE_CIDR`].
pub fn in_service_cidr(ip: [u8; 4]) -> bool {
    let (net, bits) = SERVICE_CIDR;
    let mask = u32::MAX << (32 - u32::from(bits));
    u32::from_be_bytes(ip) & mask == u32::from_be_bytes(net) & mask
}

/// The container port a Service port's targetPort names in a pod: a number as is, a name looked
/// up among the pod's container ports with the same protocol. None when the name is not found.
///
/// Upstream: pkg/api/v1/pod/util.go FindPort.
pub fn find_port(pod: &Pod, port: &ServicePort) -> Option<i32> {
    let protocol = port.protocol.as_deref().unwrap_or("TCP");
    match port.target_port.as_ref() {
        None => Some(port.port),
        Some(IntOrString::Int(n)) => Some(*n),
        Some(IntOrString::String(name)) => {
            let spec = pod.spec.as_ref()?;
            spec.containers
                .iter()
                .flat_map(|c| c.ports.iter().flatten())
                .find(|p| {
                    p.name.as_deref() == Some(name.as_str())
                        && p.protocol.as_deref().unwrap_or("TCP") == protocol
                })
                .map(|p| p.container_port)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svc(yaml: &str) -> Service {
        serde_yaml::from_str(yaml).expect("service yaml")
    }

    #[test]
    fn set_defaults_service_fills_type_affinity_protocol_target_port_and_policies() {
        let mut s = svc("metadata: {name: a}\nspec:\n  ports: [{port: 80}]\n");
        default_service(&mut s);
        let spec = s.spec.unwrap();
        assert_eq!(spec.type_.as_deref(), Some("ClusterIP"));
        assert_eq!(spec.session_affinity.as_deref(), Some("None"));
        assert_eq!(spec.internal_traffic_policy.as_deref(), Some("Cluster"));
        assert_eq!(spec.ip_family_policy.as_deref(), Some("SingleStack"));
        assert_eq!(spec.ip_families, Some(vec!["IPv4".to_string()]));
        assert_eq!(spec.external_traffic_policy, None);
        let port = &spec.ports.unwrap()[0];
        assert_eq!(port.protocol.as_deref(), Some("TCP"));
        assert_eq!(port.target_port, Some(IntOrString::Int(80)));
    }

    #[test]
    fn set_defaults_service_node_port_gets_external_traffic_policy() {
        let mut s = svc("metadata: {name: a}\nspec:\n  type: NodePort\n  ports: [{port: 80, targetPort: web}]\n");
        default_service(&mut s);
        let spec = s.spec.unwrap();
        assert_eq!(spec.external_traffic_policy.as_deref(), Some("Cluster"));
        assert_eq!(
            spec.ports.unwrap()[0].target_port,
            Some(IntOrString::String("web".into()))
        );
    }

    #[test]
    fn find_port_resolves_names_by_protocol() {
        let pod: Pod = serde_yaml::from_str(
            "spec:\n  containers:\n  - name: c\n    ports:\n    - {name: web, containerPort: 8080}\n    - {name: dns, containerPort: 53, protocol: UDP}\n",
        )
        .unwrap();
        let port = |target: IntOrString, protocol: &str| ServicePort {
            port: 80,
            target_port: Some(target),
            protocol: Some(protocol.into()),
            ..Default::default()
        };
        assert_eq!(
            find_port(&pod, &port(IntOrString::String("web".into()), "TCP")),
            Some(8080)
        );
        assert_eq!(
            find_port(&pod, &port(IntOrString::String("dns".into()), "TCP")),
            None
        );
        assert_eq!(
            find_port(&pod, &port(IntOrString::String("dns".into()), "UDP")),
            Some(53)
        );
        assert_eq!(find_port(&pod, &port(IntOrString::Int(9), "TCP")), Some(9));
    }

    #[test]
    fn cidr_membership() {
        assert!(in_service_cidr([10, 96, 200, 1]));
        assert!(!in_service_cidr([10, 97, 0, 1]));
        assert_eq!(parse_ipv4("10.96.0.1"), Some([10, 96, 0, 1]));
        assert_eq!(parse_ipv4("10.96.0"), None);
        assert_eq!(parse_ipv4("10.96.0.256"), None);
    }
}
