//! The Rollout panel's view of StatefulSets being updated: kubectl's `rollout status` line, the
//! partition, and the pods by ordinal with their revision — a canary (`partition` above 0) stays
//! listed while the pods below the partition keep the current revision.

use dsplay_api::pod::is_pod_ready;
use dsplay_api::types::StatefulSet;
use dsplay_kubectl::printers::rollout_status::stateful_set_status_message;
use dsplay_sim::Store;

/// A StatefulSet in the middle of an update (or a partitioned one), as the panel shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatefulRolloutView {
    /// `namespace/name`.
    pub name: String,
    /// What `kubectl rollout status sts/NAME` prints now.
    pub status: String,
    /// `spec.updateStrategy.rollingUpdate.partition`: ordinals from here up take the new template.
    pub partition: i32,
    /// Its pods, by ordinal.
    pub pods: Vec<OrdinalPod>,
}

/// One pod of a StatefulSet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrdinalPod {
    pub name: String,
    pub ordinal: i32,
    /// Runs the update revision.
    pub new: bool,
    pub ready: bool,
    pub terminating: bool,
}

/// Every StatefulSet whose current and update revisions differ, or whose pods are not all Ready.
pub fn stateful_rollout_views(store: &Store) -> Vec<StatefulRolloutView> {
    store
        .list(dsplay_api::Kind::StatefulSet)
        .into_iter()
        .filter_map(|object| match object {
            dsplay_api::Object::StatefulSet(sts) => view(store, &sts),
            _ => None,
        })
        .collect()
}

fn view(store: &Store, sts: &StatefulSet) -> Option<StatefulRolloutView> {
    let status = sts.status.clone().unwrap_or_default();
    let replicas = sts.spec.as_ref().and_then(|s| s.replicas).unwrap_or(1);
    let update = status.update_revision.clone().unwrap_or_default();
    let settled = status.current_revision.as_deref() == Some(update.as_str())
        && status.ready_replicas.unwrap_or(0) >= replicas;
    if settled {
        return None;
    }
    let namespace = sts.metadata.namespace.clone().unwrap_or_default();
    let name = sts.metadata.name.clone().unwrap_or_default();
    let mut pods: Vec<OrdinalPod> = store
        .pods_owned_by(&sts.metadata)
        .map(|pod| {
            let pod_name = pod.metadata.name.clone().unwrap_or_default();
            let revision = pod
                .metadata
                .labels
                .as_ref()
                .and_then(|l| l.get("controller-revision-hash"));
            OrdinalPod {
                ordinal: pod_name
                    .rsplit('-')
                    .next()
                    .and_then(|o| o.parse().ok())
                    .unwrap_or(-1),
                new: revision == Some(&update),
                ready: is_pod_ready(pod),
                terminating: pod.metadata.deletion_timestamp.is_some(),
                name: pod_name,
            }
        })
        .collect();
    pods.sort_by_key(|p| p.ordinal);
    let status_line = match stateful_set_status_message(sts) {
        Ok((text, _)) => text,
        Err(message) => message,
    };
    Some(StatefulRolloutView {
        name: format!("{namespace}/{name}"),
        status: status_line.trim_end().to_string(),
        partition: sts
            .spec
            .as_ref()
            .and_then(|s| {
                s.update_strategy
                    .as_ref()?
                    .rolling_update
                    .as_ref()?
                    .partition
            })
            .unwrap_or(0),
        pods,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsplay_kubectl::{Session, SessionOptions};

    #[test]
    fn a_partitioned_update_lists_new_pods_from_the_partition_up() {
        let mut session = Session::new(SessionOptions::default());
        let outputs = session.execute(
            "kubectl apply -f - <<EOF\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\n\
             spec:\n  serviceName: db\n  replicas: 3\n  updateStrategy:\n    rollingUpdate:\n      \
             partition: 2\n  selector:\n    matchLabels: {app: db}\n  template:\n    metadata:\n      \
             labels: {app: db}\n    spec:\n      containers:\n      - name: db\n        image: nginx:1.26\nEOF\n\
             sim settle",
        );
        assert!(outputs.iter().all(|o| o.success), "{outputs:?}");
        assert!(
            stateful_rollout_views(session.cluster().store()).is_empty(),
            "settled"
        );
        session.execute("kubectl set image sts/db db=nginx:1.27\nsim settle");
        let views = stateful_rollout_views(session.cluster().store());
        let [view] = views.as_slice() else {
            panic!("{views:?}")
        };
        assert_eq!(view.partition, 2);
        assert_eq!(
            view.status,
            "partitioned roll out complete: 1 new pods have been updated..."
        );
        let new: Vec<(i32, bool)> = view.pods.iter().map(|p| (p.ordinal, p.new)).collect();
        assert_eq!(new, [(0, false), (1, false), (2, true)]);
        // Lowering the partition to 0 finishes the update: nothing left to show.
        session.execute(
            "kubectl patch sts db -p '{\"spec\":{\"updateStrategy\":{\"rollingUpdate\":{\"partition\":0}}}}'\nsim settle",
        );
        assert!(stateful_rollout_views(session.cluster().store()).is_empty());
    }
}
