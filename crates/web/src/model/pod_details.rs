//! The pod panel's view: what `kubectl describe pod` and `kubectl logs` print for the pod a learner
//! clicked, from kubectl's own printers (`dsplay_kubectl::inspect`).

use dsplay_sim::Cluster;

/// One pod's details, as the pod panel shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodDetails {
    /// The pod's namespace.
    pub namespace: String,
    /// The pod's name.
    pub name: String,
    /// `kubectl describe pod` (its events included); None once the pod is gone.
    pub describe: Option<String>,
    /// `kubectl logs`: the output, or kubectl's error (a container still waiting, say).
    pub logs: Result<String, String>,
}

impl PodDetails {
    /// The details of pod `namespace/name` in `cluster` now.
    pub fn read(cluster: &Cluster, namespace: &str, name: &str) -> PodDetails {
        PodDetails {
            namespace: namespace.to_string(),
            name: name.to_string(),
            describe: dsplay_kubectl::inspect::describe_pod(cluster, namespace, name),
            logs: dsplay_kubectl::inspect::pod_logs(cluster, namespace, name),
        }
    }

    /// The command a learner would type for the same text (shown above it).
    pub fn command(&self, verb: &str) -> String {
        let namespace = if self.namespace == "default" {
            String::new()
        } else {
            format!(" -n {}", self.namespace)
        };
        format!("kubectl {verb} {}{namespace}", self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsplay_kubectl::{Session, SessionOptions};

    #[test]
    fn details_follow_the_pod_and_name_their_commands() {
        let mut session = Session::new(SessionOptions::default());
        session.execute("kubectl run web --image=nginx");
        let waiting = PodDetails::read(session.cluster(), "default", "web");
        assert!(waiting
            .describe
            .as_deref()
            .unwrap()
            .contains("ContainerCreating"));
        assert!(waiting.logs.is_err());
        assert_eq!(waiting.command("describe pod"), "kubectl describe pod web");
        session.execute("sim advance 30s");
        let running = PodDetails::read(session.cluster(), "default", "web");
        assert!(running
            .describe
            .as_deref()
            .unwrap()
            .contains("Status:           Running"));
        assert_eq!(running.logs, Ok(String::new()));
        session.execute("kubectl delete pod web --grace-period=0 --force");
        assert_eq!(
            PodDetails::read(session.cluster(), "default", "web").describe,
            None
        );
        let system = PodDetails {
            namespace: "kube-system".into(),
            ..running
        };
        assert_eq!(system.command("logs"), "kubectl logs web -n kube-system");
    }
}
