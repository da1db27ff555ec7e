//! What `kubectl describe pod` and `kubectl logs` print for one pod, as plain text for a viewer (the
//! web app's pod panel) that shows them without running a command: the same printers, so the
//! panel and the terminal never disagree.

use crate::commands::{api_error_text, describe_object};
use dsplay_api::Object;
use dsplay_sim::pod_log::{pod_log, LogOptions};
use dsplay_sim::Cluster;

/// `kubectl describe pod NAME -n NAMESPACE`, or None when the pod is gone.
pub fn describe_pod(cluster: &Cluster, namespace: &str, name: &str) -> Option<String> {
    let pod = cluster.store().pod(namespace, name)?;
    Some(describe_object(cluster, &Object::Pod(pod.clone())))
}

/// `kubectl logs NAME -n NAMESPACE` of the pod's first container: its output (the lines its image
/// writes, often none), or the API server's refusal as kubectl prints it
/// (a container still waiting to start, say).
pub fn pod_logs(cluster: &Cluster, namespace: &str, name: &str) -> Result<String, String> {
    let container = cluster
        .store()
        .pod(namespace, name)
        .and_then(|p| p.spec.as_ref())
        .and_then(|s| s.containers.first())
        .map(|c| c.name.clone());
    let options = LogOptions {
        container: container.as_deref(),
        ..LogOptions::default()
    };
    pod_log(cluster, namespace, name, &options).map_err(|e| api_error_text(&e, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Session, SessionOptions};

    fn printed(session: &mut Session, line: &str) -> String {
        session.execute(line).iter().map(|o| o.text()).collect()
    }

    #[test]
    fn the_panel_texts_are_what_the_commands_print() {
        let mut session = Session::new(SessionOptions::default());
        let pod = session
            .cluster()
            .store()
            .pods()
            .find(|p| p.metadata.namespace.as_deref() == Some("kube-system"))
            .and_then(|p| p.metadata.name.clone())
            .expect("a kube-system pod");
        let described = describe_pod(session.cluster(), "kube-system", &pod).unwrap();
        assert_eq!(
            printed(
                &mut session,
                &format!("kubectl describe pod {pod} -n kube-system")
            ),
            described
        );
        let first = described.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("Name:") && first.ends_with(&format!(" {pod}")),
            "{first}"
        );
        assert_eq!(
            pod_logs(session.cluster(), "kube-system", &pod),
            Ok(String::new())
        );
        assert_eq!(describe_pod(session.cluster(), "kube-system", "gone"), None);
    }

    #[test]
    fn a_waiting_container_gives_kubectls_refusal() {
        let mut session = Session::new(SessionOptions::default());
        session.execute("kubectl run web --image=nginx");
        session.execute("sim advance 500ms");
        let refusal = pod_logs(session.cluster(), "default", "web").unwrap_err();
        let printed = printed(&mut session, "kubectl logs web");
        assert_eq!(printed.trim_end(), refusal);
        assert!(refusal.contains("is waiting to start"), "{refusal}");
    }
}
