//! How much the simulated cluster holds. A real cluster stores as many nodes and pods as its etcd
//! takes (upstream's scalability thresholds, the largest clusters it tests, are 5 000 nodes and
//! 150 000 pods); the playground's cluster lives in one browser tab, where 5 000 nodes and their
//! 10 000 daemon pods already take ~316 MB of WebAssembly memory (of at most 4 GB). Past these
//! limits the API server refuses the create as an admission plugin would (403 Forbidden), so a
//! Deployment of a million replicas gets `FailedCreate` events instead of exhausting the tab.

use crate::error::{ApiError, ApiResult};
use crate::store::Store;
use dsplay_api::{Kind, Object};

/// The most nodes the simulated cluster holds: twice upstream's largest tested cluster, so a
/// `sim node add --count 5000` fits on top of the default cluster, with room to spare.
pub const MAX_NODES: usize = 10_000;

/// The most pods the simulated cluster holds: kind's two DaemonSets and one more on
/// [`MAX_NODES`] nodes.
pub const MAX_PODS: usize = 30_000;

/// Refuses the create of a node or pod the cluster has no room for.
pub(crate) fn admit(store: &Store, object: &Object) -> ApiResult<()> {
    let (held, limit) = match object.kind() {
        Kind::Node => (store.node_count(), MAX_NODES),
        Kind::Pod => (store.pod_count(), MAX_PODS),
        _ => return Ok(()),
    };
    if held < limit {
        return Ok(());
    }
    Err(ApiError::OverCapacity(format!(
        "{} \"{}\" is forbidden: {}",
        object.kind().qualified_plural(),
        crate::api_server::admission_name(object.metadata()),
        full(object.kind(), limit)
    )))
}

/// Refuses adding `more` nodes at once unless all of them fit (`sim node add --count`).
pub fn check_room_for_nodes(store: &Store, more: usize) -> ApiResult<()> {
    let held = store.node_count();
    if held + more <= MAX_NODES {
        return Ok(());
    }
    Err(ApiError::OverCapacity(format!(
        "{}: it has {held}, so at most {} more",
        full(Kind::Node, MAX_NODES),
        MAX_NODES.saturating_sub(held)
    )))
}

fn full(kind: Kind, limit: usize) -> String {
    format!(
        "the simulated cluster holds at most {limit} {}",
        kind.qualified_plural()
    )
}

#[cfg(test)]
mod tests {
    use super::{check_room_for_nodes, MAX_NODES, MAX_PODS};
    use crate::{ApiError, Cluster, NodeOptions};
    use dsplay_api::types::Pod;
    use dsplay_api::Object;

    /// The scheduler tests' pod, with an image so that validation lets it be created.
    fn pod(name: &str) -> Pod {
        let mut pod = crate::scheduler::testutil::pod(name);
        if let Some(spec) = pod.spec.as_mut() {
            spec.containers[0].image = Some("busybox".into());
        }
        pod
    }

    /// A cluster that holds [`MAX_PODS`] pods refuses one more, as admission would, naming it by
    /// its generateName; nothing changes (not even the resourceVersion).
    #[test]
    fn a_full_cluster_refuses_another_pod_and_stays_as_it_was() {
        let mut c = Cluster::new(1);
        let room = MAX_PODS - c.store.pod_count();
        for i in 0..room {
            c.store.put(Object::Pod(pod(&format!("filler-{i}"))), 0);
        }
        let version = c.store.resource_version();
        let mut extra = pod("");
        extra.metadata.name = None;
        extra.metadata.generate_name = Some("extra-".into());
        let err = c.create(Object::Pod(extra)).expect_err("no room");
        assert!(matches!(err, ApiError::OverCapacity(_)));
        assert_eq!(
            err.to_string(),
            format!(
                "pods \"extra-\" is forbidden: the simulated cluster holds at most {MAX_PODS} pods"
            )
        );
        assert_eq!(c.store.pod_count(), MAX_PODS);
        assert_eq!(c.store.resource_version(), version);
        // Room again once a pod is gone.
        c.remove_object(dsplay_api::Kind::Pod, "default", "filler-0");
        c.create(Object::Pod(pod("extra"))).expect("room for one");
    }

    /// Fills the cluster to [`MAX_PODS`] with pods of a namespace of their own that another
    /// scheduler would place (no loop of the simulated cluster looks at them).
    fn fill(c: &mut Cluster) {
        for i in 0..MAX_PODS - c.store.pod_count() {
            let mut filler = pod(&format!("filler-{i}"));
            filler.metadata.namespace = Some("filler".into());
            if let Some(spec) = filler.spec.as_mut() {
                spec.scheduler_name = Some("elsewhere".into());
            }
            c.store.put(Object::Pod(filler), 0);
        }
    }

    fn pods_on(c: &Cluster, node: &str) -> usize {
        c.store.pods_on_node(node).count()
    }

    /// A DaemonSet refused a pod for want of room tries again after a back-off, as upstream's
    /// work queue requeues a failed sync: once a pod elsewhere is gone, the node gets its pods
    /// without any write the DaemonSet controller watches.
    #[test]
    fn a_daemon_set_refused_for_room_tries_again_and_succeeds_once_there_is_room() {
        let mut c = Cluster::new(1);
        fill(&mut c);
        c.add_node(&NodeOptions::new("late"))
            .expect("room for a node");
        assert_eq!(pods_on(&c, "late"), 0);
        c.advance(std::time::Duration::from_secs(1));
        assert_eq!(pods_on(&c, "late"), 0, "still no room");
        for i in 0..2 {
            c.remove_object(dsplay_api::Kind::Pod, "filler", &format!("filler-{i}"));
        }
        c.advance(std::time::Duration::from_secs(60));
        assert_eq!(pods_on(&c, "late"), 2, "kindnet and kube-proxy");
    }

    /// Workloads of one pod (the default replica count): kind, name, and their manifest.
    const WORKLOADS: [(dsplay_api::Kind, &str, &str); 3] = [
        (
            dsplay_api::Kind::ReplicaSet,
            "web",
            "kind: ReplicaSet\nmetadata: {name: web}\nspec:\n",
        ),
        (
            dsplay_api::Kind::StatefulSet,
            "db",
            "kind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n",
        ),
        (
            dsplay_api::Kind::DaemonSet,
            "agent",
            "kind: DaemonSet\nmetadata: {name: agent}\nspec:\n",
        ),
    ];

    /// A cluster filled to [`MAX_PODS`] in which the workload `head` (one of [`WORKLOADS`]) was
    /// just created.
    fn full_cluster_with(head: &str) -> Cluster {
        let mut c = Cluster::new(1);
        fill(&mut c);
        let manifest = format!(
            "apiVersion: apps/v1\n{head}  selector: {{matchLabels: {{app: a}}}}\n  template:\n    metadata: {{labels: {{app: a}}}}\n    spec: {{containers: [{{name: c, image: nginx}}]}}\n"
        );
        let object = dsplay_api::manifest::parse_manifests(&manifest)
            .remove(0)
            .expect("manifest")
            .object;
        c.create(object).expect("created");
        c
    }

    /// A ReplicaSet and a StatefulSet refused their pod for want of room create it once a pod
    /// elsewhere is gone and a minute passes.
    #[test]
    fn replica_and_stateful_sets_refused_for_room_try_again_and_succeed_once_there_is_room() {
        let count = |c: &Cluster| {
            c.store
                .pods()
                .filter(|p| p.metadata.namespace.as_deref() == Some("default"))
                .count()
        };
        for (_, name, head) in &WORKLOADS[..2] {
            let mut c = full_cluster_with(head);
            let before = count(&c);
            c.remove_object(dsplay_api::Kind::Pod, "filler", "filler-0");
            c.advance(std::time::Duration::from_secs(60));
            assert_eq!((before, count(&c)), (0, 1), "{name}");
        }
    }

    /// A workload deleted while its creates were refused leaves no back-off behind: the next
    /// pass of its controller forgets it.
    #[test]
    fn a_workload_deleted_while_refused_leaves_no_back_off_behind() {
        let backing_off = |c: &Cluster| {
            !(c.apps.requeue.is_empty()
                && c.stateful_sets.requeue.is_empty()
                && c.daemon_sets.requeue.is_empty())
        };
        for (kind, name, head) in WORKLOADS {
            let mut c = full_cluster_with(head);
            assert!(backing_off(&c), "{name} was refused");
            c.delete(kind, "default", name, Default::default())
                .expect("deleted");
            c.advance(std::time::Duration::from_secs(1));
            assert!(!backing_off(&c), "{name}'s back-off is forgotten");
        }
    }

    /// `sim node add --count` checks that every node fits before adding any; one node more than
    /// the room is refused with how many fit.
    #[test]
    fn nodes_are_added_only_when_all_of_them_fit() {
        let mut c = Cluster::new(1);
        let held = c.store.node_count();
        assert!(check_room_for_nodes(&c.store, MAX_NODES - held).is_ok());
        let err = check_room_for_nodes(&c.store, MAX_NODES - held + 1).expect_err("full");
        assert_eq!(
            err.to_string(),
            format!(
                "the simulated cluster holds at most {MAX_NODES} nodes: it has {held}, so at most {} more",
                MAX_NODES - held
            )
        );
        for i in held..MAX_NODES {
            c.create_node(&NodeOptions::new(&format!("n-{i}")))
                .expect("room");
        }
        let err = c
            .create_node(&NodeOptions::new("one-too-many"))
            .expect_err("full");
        assert_eq!(
            err.to_string(),
            format!("nodes \"one-too-many\" is forbidden: the simulated cluster holds at most {MAX_NODES} nodes")
        );
        assert!(c.store.node("one-too-many").is_none());
    }
}
