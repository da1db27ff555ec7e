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

/// The node ports in use, with their protocol.
fn used_node_ports(cluster: &Cluster) -> BTreeSet<i32> {
    cluster
        .store
        .services()
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
            let mut used: BTreeSet<i32> = used_node_ports(self);
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
                            &name,
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
    for port in new_spec.ports.iter_mut().flatten() {
        if port.node_port.unwrap_or(0) != 0 {
            continue;
        }
        port.node_port = old_spec
            .ports
            .iter()
            .flatten()
            .find(|p| p.port == port.port && p.protocol == port.protocol)
            .and_then(|p| p.node_port);
    }
}
