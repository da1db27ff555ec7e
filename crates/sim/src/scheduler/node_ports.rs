//! NodePorts filter: host ports (port, protocol, hostIP) may not collide with ports already used on the
//! node.
//!
//! Upstream: `pkg/scheduler/framework/plugins/nodeports/node_ports.go`, `framework.HostPortInfo`.

use super::{Code, Status};
use dsplay_api::types::Pod;

/// Plugin name.
pub const NAME: &str = "NodePorts";
/// `ErrReason`.
pub const ERR_REASON: &str = "node(s) didn't have free ports for the requested pod ports";

const DEFAULT_BIND_ALL: &str = "0.0.0.0";

/// One host port, normalised: empty hostIP → `0.0.0.0`, empty protocol → `TCP`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct HostPort {
    /// hostIP.
    pub ip: String,
    /// TCP / UDP / SCTP.
    pub protocol: String,
    /// hostPort (> 0).
    pub port: i32,
}

impl HostPort {
    /// Whether two entries conflict: same port and protocol, and either side binds all or the IPs match.
    /// Upstream: `HostPortInfo.CheckConflict`.
    pub fn conflicts(&self, other: &HostPort) -> bool {
        self.port == other.port
            && self.protocol == other.protocol
            && (self.ip == DEFAULT_BIND_ALL || other.ip == DEFAULT_BIND_ALL || self.ip == other.ip)
    }
}

/// Host ports of the pod's (regular) containers, hostPort > 0 only. Upstream: `schedutil.GetHostPorts`.
pub fn pod_host_ports(pod: &Pod) -> Vec<HostPort> {
    let Some(spec) = pod.spec.as_ref() else {
        return Vec::new();
    };
    spec.containers
        .iter()
        .flat_map(|c| c.ports.iter().flatten())
        .filter_map(|p| {
            let port = p.host_port.filter(|&hp| hp > 0)?;
            Some(HostPort {
                ip: p
                    .host_ip
                    .clone()
                    .filter(|ip| !ip.is_empty())
                    .unwrap_or_else(|| DEFAULT_BIND_ALL.to_string()),
                protocol: p
                    .protocol
                    .clone()
                    .filter(|pr| !pr.is_empty())
                    .unwrap_or_else(|| "TCP".to_string()),
                port,
            })
        })
        .collect()
}

/// Fails (Unschedulable: preempting the pod holding the port helps) when a wanted port conflicts with
/// one used by `pods`. Upstream: `NodePorts.Filter` / `fitsPorts`.
pub fn filter(wanted: &[HostPort], pods: &[&Pod]) -> Result<(), Status> {
    if wanted.is_empty() {
        return Ok(());
    }
    for existing in pods {
        for used in pod_host_ports(existing) {
            if wanted.iter().any(|w| w.conflicts(&used)) {
                return Err(Status::new(Code::Unschedulable, NAME, ERR_REASON));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::type_complexity)] // test tables of tuples
mod tests {
    use super::*;
    use crate::scheduler::testutil::*;

    #[test]
    fn test_node_ports() {
        // Mirrors upstream TestNodePorts (nodeports/node_ports_test.go).
        let cases: Vec<(&str, Vec<(&str, &str, i32)>, Vec<(&str, &str, i32)>, bool)> = vec![
            ("nothing running", vec![("", "UDP", 8080)], vec![], true),
            (
                "other port",
                vec![("", "UDP", 8080)],
                vec![("", "UDP", 9090)],
                true,
            ),
            (
                "same udp port",
                vec![("", "UDP", 8080)],
                vec![("", "UDP", 8080)],
                false,
            ),
            (
                "same tcp port",
                vec![("", "TCP", 8080)],
                vec![("", "TCP", 8080)],
                false,
            ),
            (
                "different host ip",
                vec![("127.0.0.1", "TCP", 8080)],
                vec![("127.0.0.2", "TCP", 8080)],
                true,
            ),
            (
                "different protocol",
                vec![("", "UDP", 8080)],
                vec![("", "TCP", 8080)],
                true,
            ),
            (
                "second udp port conflict",
                vec![("", "UDP", 8000), ("", "UDP", 8080)],
                vec![("", "UDP", 8080)],
                false,
            ),
            (
                "first tcp port conflict due to 0.0.0.0 hostIP",
                vec![("0.0.0.0", "TCP", 8001)],
                vec![("127.0.0.1", "TCP", 8001)],
                false,
            ),
            (
                "TCP hostPort conflict due to 0.0.0.0 hostIP",
                vec![("127.0.0.1", "TCP", 8001)],
                vec![("0.0.0.0", "TCP", 8001)],
                false,
            ),
            (
                "second tcp port conflict to 0.0.0.0 hostIP",
                vec![("127.0.0.1", "TCP", 8001), ("127.0.0.1", "UDP", 8002)],
                vec![("", "TCP", 8001)],
                false,
            ),
            (
                "UDP hostPort conflict due to 0.0.0.0 hostIP",
                vec![("127.0.0.1", "UDP", 8001)],
                vec![("0.0.0.0", "UDP", 8001)],
                false,
            ),
            (
                "no conflict on SCTP vs TCP",
                vec![("", "SCTP", 8001)],
                vec![("", "TCP", 8001)],
                true,
            ),
            (
                "hostPort 0 never conflicts",
                vec![("", "TCP", 0)],
                vec![("", "TCP", 0)],
                true,
            ),
        ];
        for (name, want, used, fits) in cases {
            let p = with_host_ports(pod("p"), &want);
            let existing = with_host_ports(pod("e"), &used);
            let got = filter(&pod_host_ports(&p), &[&existing]);
            assert_eq!(got.is_ok(), fits, "{name}");
            if let Err(s) = got {
                assert_eq!(s.reasons, vec![ERR_REASON.to_string()], "{name}");
                assert_eq!(s.code, Code::Unschedulable, "{name}");
            }
        }
    }
}
