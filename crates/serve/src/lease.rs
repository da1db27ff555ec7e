//! The kubelet's node Lease (`kube-node-lease/NAME`) that `kubectl describe node` reads. The
//! simulator stores no Leases, so the server shows the one the kubelet would hold, renewed at the
//! last heartbeat of the node's Ready condition (what the in-process `describe node` prints).
//!
//! Upstream: `pkg/kubelet/nodelease/controller.go` `newLease`.

use crate::status::{self, Reply};
use dsplay_sim::Cluster;
use serde_json::json;

/// The path prefix of node leases.
pub const PREFIX: &str = "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/";

/// `GET …/leases/NAME`.
pub fn get(cluster: &Cluster, name: &str) -> Reply {
    let Some(node) = cluster.store().node(name) else {
        return status::failure(
            404,
            "NotFound",
            &format!("leases.coordination.k8s.io \"{name}\" not found"),
            json!({"name": name, "group": "coordination.k8s.io", "kind": "leases"}),
        );
    };
    let renew = node
        .status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .and_then(|cs| cs.iter().find(|c| c.type_ == "Ready"))
        .and_then(|c| c.last_heartbeat_time.as_ref())
        .map(|t| t.0.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string());
    Reply::json(&json!({
        "kind": "Lease",
        "apiVersion": "coordination.k8s.io/v1",
        "metadata": {"name": name, "namespace": "kube-node-lease"},
        "spec": {"holderIdentity": name, "leaseDurationSeconds": 40, "renewTime": renew},
    }))
}
