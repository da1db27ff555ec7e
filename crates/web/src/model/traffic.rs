//! Requests made with `sim curl`, as the cluster view animates them: from where (a node, or
//! outside the cluster) to the pod that answered; and the Services a node card can call.

use super::workload_tables::is_kinds_own;
use dsplay_kubectl::Request;
use dsplay_sim::routing::Source;
use dsplay_sim::Store;

/// One request to draw: a dot from `from_node` (or from outside) to the answering pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flight {
    /// Distinct for every request, so a repeated one animates again.
    pub id: u64,
    /// The node the request left from (`None`: the kind host, outside the cluster).
    pub from_node: Option<String>,
    /// The answering pod's namespace and name.
    pub to_namespace: String,
    pub to_pod: String,
}

/// The flights of `requests`, numbered from `first_id`. A pod source leaves from its node.
pub fn flights(requests: Vec<Request>, store: &Store, first_id: u64) -> Vec<Flight> {
    requests
        .into_iter()
        .zip(first_id..)
        .map(|(request, id)| {
            let from_node = match request.from {
                Source::Outside => None,
                Source::Node(node) => Some(node),
                Source::Pod(namespace, name) => store
                    .pod(&namespace, &name)
                    .and_then(|p| p.spec.as_ref()?.node_name.clone()),
            };
            Flight {
                id,
                from_node,
                to_namespace: request.answer.namespace,
                to_pod: request.answer.pod,
            }
        })
        .collect()
}

/// What a node card's request button calls: the learner's first Service with a cluster IP and a
/// port, as (its name, `http://CLUSTER-IP:PORT`). By IP, because a node resolves names with the
/// host's DNS, not the cluster's, while kube-proxy serves cluster IPs on every node.
pub fn service_target(store: &Store) -> Option<(String, String)> {
    store.services().find_map(|service| {
        let meta = &service.metadata;
        if is_kinds_own(meta.namespace.as_deref(), meta.name.as_deref()) {
            return None;
        }
        let spec = service.spec.as_ref()?;
        let ip = spec
            .cluster_ip
            .as_deref()
            .filter(|ip| *ip != "None" && !ip.is_empty())?;
        let port = spec.ports.as_ref()?.first()?.port;
        Some((meta.name.clone()?, format!("http://{ip}:{port}")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsplay_kubectl::{Session, SessionOptions};

    #[test]
    fn a_curl_from_a_pod_flies_from_its_node_to_the_pod_that_answered() {
        let mut session = Session::new(SessionOptions::default());
        session.enable_request_log();
        let script = "kubectl create deployment web --image=nginx --replicas=2\n\
                      kubectl expose deployment web --port=80\n\
                      kubectl run client --image=busybox --overrides='{\"spec\":{\"nodeName\":\"kind-worker2\"}}'\n\
                      sim settle\n\
                      sim curl --from pod/client http://web";
        let outputs = session.execute(script);
        assert!(outputs.iter().all(|o| o.success), "{outputs:?}");
        let requests = session.take_requests();
        assert_eq!(requests.len(), 1);
        let answered = requests[0].answer.pod.clone();
        let flights = flights(requests, session.cluster().store(), 7);
        assert_eq!(flights[0].id, 7);
        assert_eq!(flights[0].from_node.as_deref(), Some("kind-worker2"));
        assert_eq!(flights[0].to_pod, answered);
        assert!(session.take_requests().is_empty(), "taken once");

        let (name, url) = service_target(session.cluster().store()).expect("a Service to call");
        assert_eq!(name, "web");
        assert!(
            url.starts_with("http://10.96.") && url.ends_with(":80"),
            "{url}"
        );
        // That URL answers from a node (a name would not resolve there).
        let from_node = session.execute(&format!("sim curl --from node/kind-worker {url}"));
        assert!(from_node[0].success, "{from_node:?}");
        let flights = super::flights(session.take_requests(), session.cluster().store(), 8);
        assert_eq!(flights[0].from_node.as_deref(), Some("kind-worker"));
    }
}
