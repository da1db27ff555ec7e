//! A pod's QoS class (`pkg/apis/core/helper/qos/qos.go` `ComputePodQOS`): one owner for the API
//! server, which writes `status.qosClass`, and for `kubectl describe pod`.

use crate::quantity::milli;
use crate::types::{PodSpec, Quantity};
use std::collections::BTreeMap;

/// The resources that decide the class (`isSupportedQoSComputeResource`).
const QOS_COMPUTE_RESOURCES: [&str; 2] = ["cpu", "memory"];

/// `ComputePodQOS` of a pod as the API server sees it after defaulting, where a container's missing
/// request defaults to its limit (`SetDefaults_Pod`). Only cpu and memory count, zero quantities are
/// ignored, and requests and limits are summed over app and init containers: `BestEffort` with none,
/// `Guaranteed` when every container limits both and the sums of requests equal the sums of limits,
/// else `Burstable`.
///
/// Upstream: pkg/apis/core/helper/qos/qos.go ComputePodQOS.
#[doc(alias = "ComputePodQOS")]
#[doc(alias = "GetPodQOS")]
pub fn compute_pod_qos(spec: &PodSpec) -> &'static str {
    let mut requests: BTreeMap<&str, i128> = BTreeMap::new();
    let mut limits: BTreeMap<&str, i128> = BTreeMap::new();
    let mut guaranteed = true;
    let containers = spec
        .containers
        .iter()
        .chain(spec.init_containers.iter().flatten());
    for c in containers {
        let resources = c.resources.as_ref();
        let limit_list = resources.and_then(|r| r.limits.as_ref());
        let request_list = resources.and_then(|r| r.requests.as_ref());
        let mut limits_found = 0;
        for name in QOS_COMPUTE_RESOURCES {
            let limit = limit_list.and_then(|l| l.get(name));
            let request = request_list.and_then(|r| r.get(name)).or(limit);
            if let Some(v) = positive(request) {
                *requests.entry(name).or_default() += v;
            }
            if let Some(v) = positive(limit) {
                limits_found += 1;
                *limits.entry(name).or_default() += v;
            }
        }
        if limits_found < QOS_COMPUTE_RESOURCES.len() {
            guaranteed = false;
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort";
    }
    if guaranteed && requests == limits {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

fn positive(q: Option<&Quantity>) -> Option<i128> {
    q.and_then(milli).filter(|v| *v > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Container;
    use k8s_openapi::api::core::v1::ResourceRequirements;

    fn list(pairs: &[(&str, &str)]) -> Option<BTreeMap<String, Quantity>> {
        (!pairs.is_empty()).then(|| {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
                .collect()
        })
    }

    fn container(requests: &[(&str, &str)], limits: &[(&str, &str)]) -> Container {
        Container {
            name: "c".into(),
            resources: Some(ResourceRequirements {
                requests: list(requests),
                limits: list(limits),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn qos(containers: Vec<Container>, init: Vec<Container>) -> &'static str {
        compute_pod_qos(&PodSpec {
            containers,
            init_containers: (!init.is_empty()).then_some(init),
            ..Default::default()
        })
    }

    /// Cases after upstream qos_test.go TestComputePodQOS.
    #[test]
    fn compute_pod_qos_cases() {
        let full = [("cpu", "100m"), ("memory", "100Mi")];
        assert_eq!(qos(vec![container(&[], &[])], vec![]), "BestEffort");
        assert_eq!(
            qos(
                vec![container(&[("cpu", "0"), ("memory", "0")], &[])],
                vec![]
            ),
            "BestEffort",
            "zero quantities are ignored"
        );
        assert_eq!(
            qos(
                vec![container(&[("ephemeral-storage", "1Gi")], &[])],
                vec![]
            ),
            "BestEffort",
            "only cpu and memory count"
        );
        assert_eq!(qos(vec![container(&full, &full)], vec![]), "Guaranteed");
        assert_eq!(
            qos(vec![container(&[], &full)], vec![]),
            "Guaranteed",
            "requests default to limits"
        );
        assert_eq!(
            qos(
                vec![container(&[("cpu", "100m")], &[("cpu", "100m")])],
                vec![]
            ),
            "Burstable",
            "a memory limit is missing"
        );
        assert_eq!(
            qos(
                vec![container(&[("cpu", "50m"), ("memory", "100Mi")], &full)],
                vec![]
            ),
            "Burstable"
        );
        assert_eq!(
            qos(
                vec![container(&full, &full)],
                vec![container(&[("cpu", "10m")], &[])]
            ),
            "Burstable",
            "init containers count"
        );
        assert_eq!(
            qos(vec![container(&full, &full), container(&[], &full)], vec![]),
            "Guaranteed",
            "sums over containers"
        );
    }
}
