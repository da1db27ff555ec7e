//! What the DaemonSet controller's cache remembers of one daemon pod: the few fields that `manage`,
//! `updateDaemonSetStatus` and `rollingUpdate` read, copied out of the pod when it is filed.
//!
//! The cache used to keep a shared handle to every pod; while it did, every write of a pod (the
//! kubelet's status updates, the scheduler's binding, a graceful delete) had to copy the whole pod
//! instead of changing the store's only copy in place.

use super::util::{
    is_available_since, labels_are_updated, phase, ready_since_ms, REVISION_HASH_LABEL,
    TEMPLATE_GENERATION_LABEL,
};
use chrono::{DateTime, Utc};
use dsplay_api::types::*;
use std::cmp::Ordering;

/// One daemon pod as the controller's cache files it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PodSummary {
    /// `metadata.name` (the namespace is the DaemonSet's).
    pub name: String,
    /// `metadata.creationTimestamp`.
    created: Option<DateTime<Utc>>,
    /// `metadata.deletionTimestamp` is set.
    pub terminating: bool,
    /// `status.phase` ("Pending" when unset).
    pub phase: String,
    /// `spec.nodeName` is set (even if empty).
    node_name_set: bool,
    /// `spec.nodeName` is set and not empty.
    scheduled: bool,
    /// The `controller-revision-hash` label.
    hash_label: Option<String>,
    /// The `pod-template-generation` label.
    generation_label: Option<String>,
    /// When the Ready condition last became True, if it is True.
    pub ready_since_ms: Option<i64>,
}

impl PodSummary {
    /// The summary of a pod.
    pub fn of(pod: &Pod) -> PodSummary {
        let label = |key: &str| {
            let labels = pod.metadata.labels.as_ref();
            labels.and_then(|l| l.get(key)).cloned()
        };
        let node_name = pod.spec.as_ref().and_then(|s| s.node_name.as_deref());
        PodSummary {
            name: pod.metadata.name.clone().unwrap_or_default(),
            created: pod.metadata.creation_timestamp.as_ref().map(|t| t.0),
            terminating: pod.metadata.deletion_timestamp.is_some(),
            phase: phase(pod).to_string(),
            node_name_set: node_name.is_some(),
            scheduled: node_name.is_some_and(|n| !n.is_empty()),
            hash_label: label(REVISION_HASH_LABEL),
            generation_label: label(TEMPLATE_GENERATION_LABEL),
            ready_since_ms: ready_since_ms(pod),
        }
    }

    /// `IsPodUpdated` (see [`super::util::is_pod_updated`]).
    pub fn is_updated(&self, hash: &str, template_generation: Option<&str>) -> bool {
        labels_are_updated(
            self.hash_label.as_deref(),
            self.generation_label.as_deref(),
            hash,
            template_generation,
        )
    }

    /// The pod's Ready condition is True (`IsPodReady`).
    pub fn is_ready(&self) -> bool {
        self.ready_since_ms.is_some()
    }

    /// `IsPodAvailable` (see [`super::util::is_pod_available`]).
    pub fn is_available(&self, min_ready_seconds: i32, now_ms: i64) -> bool {
        is_available_since(self.ready_since_ms, min_ready_seconds, now_ms)
    }

    /// The pod is bound to no node yet and is not being deleted (see
    /// [`super::util::is_unscheduled_and_live`]).
    pub fn is_unscheduled_and_live(&self) -> bool {
        !self.node_name_set && !self.terminating
    }
}

/// `podByCreationTimestampAndPhase` over summaries (see [`super::util::oldest_first`]).
pub(crate) fn oldest_first(a: &PodSummary, b: &PodSummary) -> Ordering {
    b.scheduled
        .cmp(&a.scheduled)
        .then_with(|| a.created.cmp(&b.created))
        .then_with(|| a.name.cmp(&b.name))
}

#[cfg(test)]
mod tests {
    use super::super::util::is_pod_available;
    use super::*;
    use crate::cluster::k8s_time;
    use std::collections::BTreeMap;

    fn pod(name: &str, node: Option<&str>, created_ms: i64, ready_at: Option<i64>) -> Pod {
        Pod {
            metadata: ObjectMeta {
                name: Some(name.into()),
                creation_timestamp: Some(k8s_time(created_ms)),
                labels: Some(BTreeMap::from([(
                    REVISION_HASH_LABEL.to_string(),
                    "abc".to_string(),
                )])),
                ..Default::default()
            },
            spec: Some(PodSpec {
                node_name: node.map(str::to_string),
                ..Default::default()
            }),
            status: ready_at.map(|at| PodStatus {
                conditions: Some(vec![PodCondition {
                    type_: "Ready".into(),
                    status: "True".into(),
                    last_transition_time: Some(k8s_time(at)),
                    ..Default::default()
                }]),
                ..Default::default()
            }),
        }
    }

    /// Every question the cache asks of a summary has the answer the pod's own helpers give.
    #[test]
    fn a_summary_answers_like_the_pod() {
        let pods = [
            pod("a", Some("n1"), 5_000, Some(9_000)),
            pod("b", None, 5_000, None),
            pod("c", Some(""), 4_000, Some(20_000)),
            pod("d", Some("n2"), 6_000, None),
        ];
        for p in &pods {
            let s = PodSummary::of(p);
            assert_eq!(s.is_ready(), dsplay_api::pod::is_pod_ready(p));
            for hash in ["abc", "def", ""] {
                assert_eq!(
                    s.is_updated(hash, None),
                    super::super::util::is_pod_updated(p, hash, None)
                );
            }
            assert_eq!(
                s.is_unscheduled_and_live(),
                super::super::util::is_unscheduled_and_live(p)
            );
            for (min_ready, now) in [(0, 0), (5, 14_001), (5, 13_999), (10, 100_000)] {
                assert_eq!(
                    s.is_available(min_ready, now),
                    is_pod_available(p, min_ready, now)
                );
            }
            for q in &pods {
                assert_eq!(
                    oldest_first(&s, &PodSummary::of(q)),
                    super::super::util::oldest_first(p, q)
                );
            }
        }
    }
}
