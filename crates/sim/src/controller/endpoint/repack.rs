//! Packing one-address subsets into the fewest subsets: one per distinct set of addresses, with
//! every port those addresses serve.
//!
//! Upstream: pkg/api/v1/endpoints/util.go RepackSubsets, SortSubsets. A subset's ports are
//! ordered as upstream orders them, by the MD5 of Go's `spew` dump of each port; the subsets
//! themselves (one unless pods serve different port sets) keep the order their first port was
//! seen in, where upstream hashes whole subsets.

use dsplay_api::types::*;
use md5::{Digest, Md5};
use std::collections::BTreeMap;

/// An address's identity: its IP and its target's uid.
type AddressKey = (String, String);

/// The port a subset without ports is filed under (upstream's sentinel `Port: -1`).
const NO_PORT: i32 = -1;

/// Regroups subsets of one address and one port each into subsets of all the addresses that
/// serve the same ports; an address ready under one entry is ready for that port.
///
/// Upstream: pkg/api/v1/endpoints/util.go RepackSubsets.
pub(crate) fn repack_subsets(subsets: Vec<EndpointSubset>) -> Vec<EndpointSubset> {
    let mut all_addrs: BTreeMap<AddressKey, EndpointAddress> = BTreeMap::new();
    // Ports in first-seen order, each with its addresses and whether each is ready.
    let mut port_to_addr_ready: Vec<(CoreEndpointPort, BTreeMap<AddressKey, bool>)> = Vec::new();
    for subset in subsets {
        let ports = subset.ports.clone().unwrap_or_default();
        let ports = if ports.is_empty() {
            vec![CoreEndpointPort {
                port: NO_PORT,
                ..Default::default()
            }]
        } else {
            ports
        };
        let addresses = subset.addresses.into_iter().flatten().map(|a| (a, true));
        let not_ready = subset
            .not_ready_addresses
            .into_iter()
            .flatten()
            .map(|a| (a, false));
        for (address, ready) in addresses.chain(not_ready) {
            let key = (
                address.ip.clone(),
                address
                    .target_ref
                    .as_ref()
                    .and_then(|r| r.uid.clone())
                    .unwrap_or_default(),
            );
            all_addrs.entry(key.clone()).or_insert(address);
            for port in &ports {
                let index = match port_to_addr_ready.iter().position(|(p, _)| p == port) {
                    Some(i) => i,
                    None => {
                        port_to_addr_ready.push((port.clone(), BTreeMap::new()));
                        port_to_addr_ready.len() - 1
                    }
                };
                let was_ready = port_to_addr_ready[index].1.entry(key.clone()).or_default();
                *was_ready |= ready;
            }
        }
    }
    // The same address set (with the same readiness) → one subset with all its ports.
    let mut groups: Vec<(BTreeMap<AddressKey, bool>, Vec<CoreEndpointPort>)> = Vec::new();
    for (port, addrs) in port_to_addr_ready {
        let index = match groups.iter().position(|(a, _)| *a == addrs) {
            Some(i) => i,
            None => {
                groups.push((addrs, Vec::new()));
                groups.len() - 1
            }
        };
        if port.port > 0 {
            groups[index].1.push(port);
        }
    }
    groups
        .into_iter()
        .map(|(addrs, mut ports)| {
            ports.sort_by_cached_key(|p| Md5::digest(spew_endpoint_port(p).as_bytes()));
            let pick = |want: bool| {
                let list: Vec<EndpointAddress> = addrs
                    .iter()
                    .filter(|(_, ready)| **ready == want)
                    .filter_map(|(key, _)| all_addrs.get(key).cloned())
                    .collect();
                (!list.is_empty()).then_some(list)
            };
            EndpointSubset {
                addresses: pick(true),
                not_ready_addresses: pick(false),
                ports: (!ports.is_empty()).then_some(ports),
            }
        })
        .collect()
}

/// A port as go-spew's `%#v` prints a `v1.EndpointPort` (types in parentheses, strings bare, a nil
/// pointer `<nil>`), the text upstream hashes to order ports.
///
/// Upstream: pkg/util/hash/hash.go DeepHashObject; pkg/api/v1/endpoints/util.go portsByHash.
fn spew_endpoint_port(port: &CoreEndpointPort) -> String {
    format!(
        "(v1.EndpointPort){{Name:(string){} Port:(int32){} Protocol:(v1.Protocol){} AppProtocol:(*string){}}}",
        port.name.as_deref().unwrap_or(""),
        port.port,
        port.protocol.as_deref().unwrap_or(""),
        port.app_protocol.as_deref().unwrap_or("<nil>")
    )
}
