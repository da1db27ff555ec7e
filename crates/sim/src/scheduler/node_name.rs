//! NodeName filter: a pod with `spec.nodeName` fits only that node.
//!
//! Upstream: `pkg/scheduler/framework/plugins/nodename/node_name.go`.

use super::{Code, Status};
use dsplay_api::types::{Node, Pod};

/// Plugin name.
pub const NAME: &str = "NodeName";
/// `ErrReason`.
pub const ERR_REASON: &str = "node(s) didn't match the requested node name";

/// Fails (UnschedulableAndUnresolvable) when `spec.nodeName` is set and differs from the node's name.
/// Upstream: `nodename.Fits`.
pub fn filter(pod: &Pod, node: &Node) -> Result<(), Status> {
    let wanted = pod
        .spec
        .as_ref()
        .and_then(|s| s.node_name.as_deref())
        .unwrap_or("");
    if wanted.is_empty() || Some(wanted) == node.metadata.name.as_deref() {
        Ok(())
    } else {
        Err(Status::new(
            Code::UnschedulableAndUnresolvable,
            NAME,
            ERR_REASON,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scheduler::testutil::*;

    #[test]
    fn test_node_name() {
        // Mirrors upstream TestNodeName (nodename/node_name_test.go).
        let cases = [
            ("no host specified", "", "foo", true),
            ("host matches", "foo", "foo", true),
            ("host doesn't match", "bar", "foo", false),
        ];
        for (name, pod_node, node_name, fits) in cases {
            let mut p = pod("p");
            p.spec.as_mut().unwrap().node_name =
                (!pod_node.is_empty()).then(|| pod_node.to_string());
            let got = filter(&p, &node(node_name));
            assert_eq!(got.is_ok(), fits, "{name}");
            if let Err(s) = got {
                assert_eq!(s.reasons, vec![ERR_REASON.to_string()], "{name}");
                assert_eq!(s.code, Code::UnschedulableAndUnresolvable, "{name}");
            }
        }
    }
}
