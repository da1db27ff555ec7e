//! Pod readiness as `podutil` answers it (`pkg/api/v1/pod/util.go`): one owner for the controller,
//! the kubelet model, `explain` and kubectl's printers.

use crate::types::{Pod, PodCondition, PodStatus};

/// The pod's `Ready` condition, if it has one.
///
/// Upstream: pkg/api/v1/pod/util.go GetPodReadyCondition.
#[doc(alias = "GetPodReadyCondition")]
pub fn pod_ready_condition(status: &PodStatus) -> Option<&PodCondition> {
    status
        .conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_ == "Ready")
}

/// The `Ready` condition of this status is `True`.
///
/// Upstream: pkg/api/v1/pod/util.go IsPodReadyConditionTrue.
#[doc(alias = "IsPodReadyConditionTrue")]
pub fn is_pod_ready_condition_true(status: &PodStatus) -> bool {
    pod_ready_condition(status).is_some_and(|c| c.status == "True")
}

/// The pod is Ready: its `Ready` condition is `True`.
///
/// Upstream: pkg/api/v1/pod/util.go IsPodReady.
#[doc(alias = "IsPodReady")]
pub fn is_pod_ready(pod: &Pod) -> bool {
    pod.status.as_ref().is_some_and(is_pod_ready_condition_true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_conditions(conditions: &[(&str, &str)]) -> Pod {
        Pod {
            status: Some(PodStatus {
                conditions: Some(
                    conditions
                        .iter()
                        .map(|(t, s)| PodCondition {
                            type_: t.to_string(),
                            status: s.to_string(),
                            ..Default::default()
                        })
                        .collect(),
                ),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn ready_only_when_the_ready_condition_is_true() {
        assert!(!is_pod_ready(&Pod::default()));
        assert!(!is_pod_ready(&with_conditions(&[(
            "ContainersReady",
            "True"
        )])));
        assert!(!is_pod_ready(&with_conditions(&[("Ready", "False")])));
        assert!(is_pod_ready(&with_conditions(&[
            ("Initialized", "True"),
            ("Ready", "True")
        ])));
    }
}
