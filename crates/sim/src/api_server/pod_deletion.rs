//! Deleting a pod: at once (unbound, finished, or no grace period) or gracefully (a deletion
//! timestamp the kubelet stops the containers by), as the API server's graceful deletion does.

use crate::cluster::{k8s_time, Cluster};
use crate::store::key_of;
use dsplay_api::types::*;
use dsplay_api::{Kind, Object};

impl Cluster {
    /// Gracefully deletes a pod (internal callers: controllers, eviction, preemption, drain).
    pub(crate) fn delete_pod(&mut self, pod: &Pod, grace_override: Option<i64>) {
        let key = key_of(&pod.metadata);
        match pod_deletion(pod, grace_override) {
            PodDeletion::Remove => self.remove_object(Kind::Pod, &key.0, &key.1),
            PodDeletion::Keep => {}
            PodDeletion::Graceful(grace) => {
                let mut pod = pod.clone();
                self.mark_deleted(&mut pod.metadata, grace);
                self.write(Object::Pod(pod));
            }
        }
    }

    /// [`Cluster::delete_pod`] of the stored pod `namespace/name`, which a graceful deletion changes
    /// in place.
    pub(crate) fn delete_stored_pod(
        &mut self,
        namespace: &str,
        name: &str,
        grace_override: Option<i64>,
    ) {
        let Some(pod) = self.store.pod(namespace, name) else {
            return;
        };
        match pod_deletion(pod, grace_override) {
            PodDeletion::Remove => self.remove_object(Kind::Pod, namespace, name),
            PodDeletion::Keep => {}
            PodDeletion::Graceful(grace) => {
                let mut meta = ObjectMeta::default();
                self.mark_deleted(&mut meta, grace);
                self.modify_pod(namespace, name, |pod| {
                    pod.metadata.deletion_timestamp = meta.deletion_timestamp;
                    pod.metadata.deletion_grace_period_seconds = meta.deletion_grace_period_seconds;
                });
            }
        }
    }

    /// Sets the deletion timestamp and grace period of a graceful deletion starting now.
    fn mark_deleted(&self, meta: &mut ObjectMeta, grace: i64) {
        let deadline = self.now_ms.saturating_add(grace.saturating_mul(1000));
        meta.deletion_timestamp = Some(k8s_time(deadline));
        meta.deletion_grace_period_seconds = Some(grace);
    }
}

/// What deleting a pod does: remove it at once, leave a shorter graceful deletion running, or start
/// (or shorten) a graceful one.
enum PodDeletion {
    Remove,
    Keep,
    Graceful(i64),
}

/// The deletion [`Cluster::delete_pod`] makes of `pod`: unbound and terminal pods, or a grace period
/// of 0, go at once; a graceful deletion with a grace period no longer than the new one stays.
///
/// Upstream: pkg/registry/core/pod/strategy.go CheckGracefulDelete;
/// staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go BeforeDelete.
fn pod_deletion(pod: &Pod, grace_override: Option<i64>) -> PodDeletion {
    let bound = pod
        .spec
        .as_ref()
        .and_then(|s| s.node_name.as_ref())
        .is_some();
    let phase = pod
        .status
        .as_ref()
        .and_then(|s| s.phase.as_deref())
        .unwrap_or("Pending");
    let terminal = phase == "Succeeded" || phase == "Failed";
    let grace = grace_override
        .or_else(|| {
            pod.spec
                .as_ref()
                .and_then(|s| s.termination_grace_period_seconds)
        })
        .unwrap_or(30)
        .max(0);
    if !bound || terminal || grace == 0 {
        return PodDeletion::Remove;
    }
    match pod.metadata.deletion_grace_period_seconds {
        Some(existing) if existing <= grace => PodDeletion::Keep,
        _ => PodDeletion::Graceful(grace),
    }
}
