//! What the API server's Service registry adds on writes: a ClusterIP from the service CIDR and
//! NodePorts from the node-port range (both random, from the cluster's service RNG stream), the
//! "already allocated" / "not in the valid range" refusals, and on update the allocated values a
//! request leaves out carried over from the stored Service.
//!
//! Upstream: pkg/registry/core/service/ipallocator (bitmap allocator), portallocator, and
//! pkg/registry/core/service/storage/storage.go patchAllocatedValues.

use crate::cluster::Cluster;
use crate::error::{ApiError, ApiResult};
use dsplay_api::service::{in_service_cidr, parse_ipv4, NODE_PORT_RANGE, SERVICE_CIDR};
use dsplay_api::types::*;
use dsplay_api::validation::{go_quote, FieldError};
use dsplay_api::Kind;
use rand_core::RngCore;
use std::collections::BTreeSet;

/// The size of the lower band of a range kept for static (user-chosen) values: dynamic allocation
/// prefers the rest (`calculateRangeOffset`: size/16 clamped to [min, max]).
fn static_band(size: u32, min: u32, max: u32) -> u32 {
    (size / 16).clamp(min, max)
}

/// The cluster IPs in use (every stored Service's `clusterIPs`).
fn used_ips(cluster: &Cluster) -> BTreeSet<u32> {
    cluster
        .store
        .services()
        .filter_map(|s| s.spec.as_ref())
        .flat_map(|s| s.cluster_ips.iter().flatten())
        .filter_map(|ip| parse_ipv4(ip))
        .map(u32::from_be_bytes)
        .collect()
}

/// The node ports in use by every Service but `except` (namespace, name).
pub(crate) fn used_node_ports(cluster: &Cluster, except: Option<(&str, &str)>) -> BTreeSet<i32> {
    cluster
        .store
        .services()
        .filter(|s| {
            except.is_none_or(|(ns, name)| {
                s.metadata.namespace.as_deref() != Some(ns)
                    || s.metadata.name.as_deref() != Some(name)
            })
        })
        .filter_map(|s| s.spec.as_ref())
        .flat_map(|s| s.ports.iter().flatten())
        .filter_map(|p| p.node_port)
        .collect()
}

/// Picks a free value in `[low, high]`, first at random in the dynamic band `[band_start, high]`,
/// then scanning the whole range from a random offset.
fn pick_free(
    rng: &mut impl RngCore,
    low: u32,
    high: u32,
    band_start: u32,
    used: &BTreeSet<u32>,
) -> Option<u32> {
    for (from, to) in [(band_start, high), (low, high)] {
        let size = to - from + 1;
        let start = rng.next_u32() % size;
        if let Some(v) = (0..size)
            .map(|i| from + (start + i) % size)
            .find(|v| !used.contains(v))
        {
            return Some(v);
        }
    }
    None
}

fn invalid(name: &str, errors: Vec<FieldError>) -> ApiError {
    ApiError::Invalid {
        kind: Kind::Service,
        name: name.to_string(),
        errors,
    }
}

impl Cluster {
    /// Allocates a new Service's ClusterIP (unless headless or ExternalName) and NodePorts (for
    /// NodePort and LoadBalancer types), honouring values the user chose.
    ///
    /// Upstream: pkg/registry/core/service/storage/alloc.go allocateCreate.
    pub(crate) fn allocate_service(&mut self, svc: &mut Service) -> ApiResult<()> {
        let name = svc.metadata.name.clone().unwrap_or_default();
        let type_ = dsplay_api::service::service_type(svc).to_string();
        let used = used_ips(self);
        let spec = svc.spec.get_or_insert_with(Default::default);
        if type_ != "ExternalName" && spec.cluster_ip.as_deref() != Some("None") {
            let requested = spec.cluster_ip.clone().filter(|ip| !ip.is_empty());
            let ip = match requested {
                Some(text) => {
                    let refuse = |why: String| {
                        invalid(
                            &name,
                            vec![FieldError::invalid(
                                "spec.clusterIPs",
                                format!("[]string{{{}}}", go_quote(&text)),
                                &format!("failed to allocate IP {text}: {why}"),
                            )],
                        )
                    };
                    let ip = parse_ipv4(&text).ok_or_else(|| refuse("invalid IP".into()))?;
                    if !in_service_cidr(ip) {
                        let (net, bits) = SERVICE_CIDR;
                        return Err(refuse(format!(
                            "provided IP is not in the valid range. The range of valid IPs is {}.{}.{}.{}/{bits}",
                            net[0], net[1], net[2], net[3]
                        )));
                    }
                    if used.contains(&u32::from_be_bytes(ip)) {
                        return Err(refuse("provided IP is already allocated".into()));
                    }
                    ip
                }
                None => {
                    let (net, bits) = SERVICE_CIDR;
                    let base = u32::from_be_bytes(net);
                    let size = (1u32 << (32 - u32::from(bits))) - 2;
                    let band = static_band(size, 16, 256);
                    let offset = pick_free(
                        &mut self.service_rng,
                        1,
                        size,
                        band + 1,
                        &used.iter().map(|ip| ip.wrapping_sub(base)).collect(),
                    )
                    .ok_or_else(|| {
                        ApiError::BadRequest("failed to allocate a serviceIP: range is full".into())
                    })?;
                    (base + offset).to_be_bytes()
                }
            };
            let text = format!("{}.{}.{}.{}", ip[0], ip[1], ip[2], ip[3]);
            spec.cluster_ip = Some(text.clone());
            spec.cluster_ips = Some(vec![text]);
        } else if spec.cluster_ip.as_deref() == Some("None") {
            spec.cluster_ips = Some(vec!["None".into()]);
        }
        if type_ == "NodePort" || type_ == "LoadBalancer" {
            let used = used_node_ports(self, None);
            self.allocate_node_ports(&name, spec, used)?;
        }
        Ok(())
    }

    /// The NodePorts of a NodePort or LoadBalancer Service: a chosen one must be in range and
    /// free (`used` holds the other Services' ports), a missing one is picked at random.
    ///
    /// Upstream: pkg/registry/core/service/storage/alloc.go allocNodePorts.
    pub(crate) fn allocate_node_ports(
        &mut self,
        name: &str,
        spec: &mut ServiceSpec,
        mut used: BTreeSet<i32>,
    ) -> ApiResult<()> {
        let (low, high) = NODE_PORT_RANGE;
        for (i, port) in spec.ports.iter_mut().flatten().enumerate() {
            match port.node_port.filter(|p| *p != 0) {
                Some(p) => {
                    let why = if !(low..=high).contains(&p) {
                        format!("provided port is not in the valid range. The range of valid ports is {low}-{high}")
                    } else if used.contains(&p) {
                        "provided port is already allocated".to_string()
                    } else {
                        used.insert(p);
                        continue;
                    };
                    return Err(invalid(
                        name,
                        vec![FieldError::invalid(
                            format!("spec.ports[{i}].nodePort"),
                            p.to_string(),
                            &why,
                        )],
                    ));
                }
                None => {
                    let size = (high - low + 1) as u32;
                    let band = static_band(size, 16, 128);
                    let taken = used.iter().map(|p| (p - low) as u32).collect();
                    let offset = pick_free(&mut self.service_rng, 0, size - 1, band, &taken)
                        .ok_or_else(|| {
                            ApiError::BadRequest(
                                "failed to allocate a nodePort: range is full".into(),
                            )
                        })?;
                    let p = low + offset as i32;
                    used.insert(p);
                    port.node_port = Some(p);
                }
            }
        }
        Ok(())
    }
}

/// Carries what was allocated into an update that leaves it out: the cluster IPs, and each port's
/// NodePort matched by port number and protocol.
///
/// Upstream: pkg/registry/core/service/storage/storage.go patchAllocatedValues.
pub(crate) fn patch_allocated_values(old: &Service, new: &mut Service) {
    let (Some(old_spec), Some(new_spec)) = (old.spec.as_ref(), new.spec.as_mut()) else {
        return;
    };
    if new_spec.cluster_ip.as_deref().unwrap_or("").is_empty() {
        new_spec.cluster_ip = old_spec.cluster_ip.clone();
        if new_spec
            .cluster_ips
            .as_ref()
            .is_none_or(|ips| ips.is_empty())
        {
            new_spec.cluster_ips = old_spec.cluster_ips.clone();
        }
    } else if new_spec.cluster_ip != old_spec.cluster_ip
        && new_spec.cluster_ips == old_spec.cluster_ips
    {
        // Only the singular field changed: it leads (normalizeClusterIPs), and validation then
        // refuses the change.
        new_spec.cluster_ips = new_spec.cluster_ip.clone().map(|ip| vec![ip]);
    }
    let needs_node_ports = matches!(
        new_spec.type_.as_deref(),
        Some("NodePort") | Some("LoadBalancer")
    );
    for port in new_spec.ports.iter_mut().flatten() {
        if !needs_node_ports || port.node_port.unwrap_or(0) != 0 {
            continue;
        }
        port.node_port = old_spec
            .ports
            .iter()
            .flatten()
            .find(|p| {
                let tcp = |x: &Option<String>| x.clone().unwrap_or_else(|| "TCP".into());
                p.port == port.port && tcp(&p.protocol) == tcp(&port.protocol)
            })
            .and_then(|p| p.node_port);
    }
}

#[cfg(test)]
mod tests {
    use crate::cluster::Cluster;
    use crate::error::ApiError;
    use dsplay_api::manifest::parse_manifests;
    use dsplay_api::Object;

    fn service(yaml: &str) -> Object {
        let text = format!("apiVersion: v1\nkind: Service\n{yaml}");
        parse_manifests(&text).remove(0).expect("manifest").object
    }

    fn spec_of(o: &Object) -> dsplay_api::types::ServiceSpec {
        match o {
            Object::Service(s) => s.spec.clone().unwrap(),
            _ => unreachable!(),
        }
    }

    fn message(e: ApiError) -> String {
        e.to_string()
    }

    #[test]
    fn allocate_create_cluster_ip_in_the_dynamic_band() {
        let mut c = Cluster::new(5);
        assert_eq!(
            c.store()
                .service("default", "kubernetes")
                .unwrap()
                .spec
                .as_ref()
                .unwrap()
                .cluster_ip
                .as_deref(),
            Some("10.96.0.1")
        );
        let created = c
            .create(service("metadata: {name: a}\nspec: {ports: [{port: 80}]}"))
            .unwrap();
        let ip = spec_of(&created).cluster_ip.unwrap();
        let octets = dsplay_api::service::parse_ipv4(&ip).unwrap();
        assert!(dsplay_api::service::in_service_cidr(octets));
        assert!(u16::from_be_bytes([octets[2], octets[3]]) > 256, "{ip}");
        assert_eq!(spec_of(&created).cluster_ips, Some(vec![ip]));
    }

    #[test]
    fn allocate_create_refuses_used_and_out_of_range_ips() {
        let mut c = Cluster::new(5);
        let used = c.create(service(
            "metadata: {name: a}\nspec: {clusterIP: 10.96.0.10, ports: [{port: 80}]}",
        ));
        assert_eq!(
            message(used.unwrap_err()),
            "The Service \"a\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.96.0.10\"}: failed to allocate IP 10.96.0.10: provided IP is already allocated"
        );
        let outside = c.create(service(
            "metadata: {name: a}\nspec: {clusterIP: 10.0.0.1, ports: [{port: 80}]}",
        ));
        assert_eq!(
            message(outside.unwrap_err()),
            "The Service \"a\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.0.0.1\"}: failed to allocate IP 10.0.0.1: provided IP is not in the valid range. The range of valid IPs is 10.96.0.0/16"
        );
        let headless = c
            .create(service("metadata: {name: h}\nspec: {clusterIP: None}"))
            .unwrap();
        assert_eq!(
            spec_of(&headless).cluster_ips,
            Some(vec!["None".to_string()])
        );
    }

    #[test]
    fn alloc_node_ports_random_in_range_and_refuses_duplicates() {
        let mut c = Cluster::new(5);
        let np = c
            .create(service("metadata: {name: a}\nspec: {type: NodePort, ports: [{port: 80}, {name: b, port: 81, nodePort: 30001}]}"))
            .err();
        // Two ports need names.
        assert!(np.is_some());
        let created = c
            .create(service("metadata: {name: a}\nspec: {type: NodePort, ports: [{name: a, port: 80}, {name: b, port: 81, nodePort: 30001}]}"))
            .unwrap();
        let ports = spec_of(&created).ports.unwrap();
        assert!((30128..=32767).contains(&ports[0].node_port.unwrap()));
        assert_eq!(ports[1].node_port, Some(30001));
        let dup = c.create(service(
            "metadata: {name: b}\nspec: {type: NodePort, ports: [{port: 80, nodePort: 30001}]}",
        ));
        assert_eq!(
            message(dup.unwrap_err()),
            "The Service \"b\" is invalid: spec.ports[0].nodePort: Invalid value: 30001: provided port is already allocated"
        );
        let low = c.create(service(
            "metadata: {name: b}\nspec: {type: NodePort, ports: [{port: 80, nodePort: 80}]}",
        ));
        assert_eq!(
            message(low.unwrap_err()),
            "The Service \"b\" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767"
        );
    }

    #[test]
    fn patch_allocated_values_keeps_the_ip_and_follows_type_changes() {
        let mut c = Cluster::new(5);
        let created = c
            .create(service("metadata: {name: a}\nspec: {ports: [{port: 80}]}"))
            .unwrap();
        let ip = spec_of(&created).cluster_ip;
        let to_node_port = c
            .update(service("metadata: {name: a, namespace: default}\nspec: {type: NodePort, ports: [{port: 80}]}"))
            .unwrap();
        assert_eq!(spec_of(&to_node_port).cluster_ip, ip);
        let node_port = spec_of(&to_node_port).ports.unwrap()[0].node_port;
        assert!(node_port.is_some());
        let kept = c
            .update(service("metadata: {name: a, namespace: default}\nspec: {type: NodePort, ports: [{port: 80}]}"))
            .unwrap();
        assert_eq!(spec_of(&kept).ports.unwrap()[0].node_port, node_port);
        let back = c
            .update(service(
                "metadata: {name: a, namespace: default}\nspec: {ports: [{port: 80}]}",
            ))
            .unwrap();
        assert_eq!(spec_of(&back).ports.unwrap()[0].node_port, None);
    }
}
