//! Builders for the scheduler tests (upstream `st.MakePod()` / `st.MakeNode()` in spirit).

use dsplay_api::types::*;
use k8s_openapi::api::core::v1::{
    Affinity, ContainerPort, PodAffinity, PodAffinityTerm, PodAntiAffinity, ResourceRequirements,
    TopologySpreadConstraint, WeightedPodAffinityTerm,
};
use std::collections::BTreeMap;

pub fn list(pairs: &[(&str, &str)]) -> BTreeMap<String, Quantity> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
        .collect()
}

fn container(name: &str, requests: &[(&str, &str)]) -> Container {
    Container {
        name: name.into(),
        resources: (!requests.is_empty()).then(|| ResourceRequirements {
            requests: Some(list(requests)),
            ..Default::default()
        }),
        ..Default::default()
    }
}

pub fn pod(name: &str) -> Pod {
    pod_req(name, &[&[]])
}

pub fn pod_req(name: &str, containers: &[&[(&str, &str)]]) -> Pod {
    Pod {
        metadata: ObjectMeta {
            name: Some(name.into()),
            namespace: Some("default".into()),
            uid: Some(format!("uid-{name}")),
            ..Default::default()
        },
        spec: Some(PodSpec {
            containers: containers
                .iter()
                .enumerate()
                .map(|(i, r)| container(&format!("c{i}"), r))
                .collect(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

pub fn with_init(mut p: Pod, inits: &[(&[(&str, &str)], bool)]) -> Pod {
    p.spec.as_mut().unwrap().init_containers = Some(
        inits
            .iter()
            .enumerate()
            .map(|(i, (r, sidecar))| {
                let mut c = container(&format!("i{i}"), r);
                c.restart_policy = sidecar.then(|| "Always".to_string());
                c
            })
            .collect(),
    );
    p
}

pub fn with_priority(mut p: Pod, priority: i32) -> Pod {
    p.spec.as_mut().unwrap().priority = Some(priority);
    p
}

pub fn with_start(mut p: Pod, secs: i64) -> Pod {
    let t = chrono::DateTime::from_timestamp(secs, 0).unwrap();
    p.status.get_or_insert_with(Default::default).start_time = Some(Time(t));
    p
}

pub fn with_tolerations(mut p: Pod, tolerations: Vec<Toleration>) -> Pod {
    p.spec.as_mut().unwrap().tolerations = Some(tolerations);
    p
}

pub fn with_node_selector(mut p: Pod, pairs: &[(&str, &str)]) -> Pod {
    p.spec.as_mut().unwrap().node_selector = Some(label_map(pairs));
    p
}

pub fn with_required(mut p: Pod, terms: Vec<NodeSelectorTerm>) -> Pod {
    let spec = p.spec.as_mut().unwrap();
    let na = spec
        .affinity
        .get_or_insert_with(Default::default)
        .node_affinity
        .get_or_insert_with(Default::default);
    na.required_during_scheduling_ignored_during_execution = Some(NodeSelector {
        node_selector_terms: terms,
    });
    p
}

/// A daemon-style pod pinned with `matchFields metadata.name In [node]`.
pub fn daemon_pod(name: &str, node: &str) -> Pod {
    with_required(
        pod(name),
        vec![NodeSelectorTerm {
            match_fields: Some(vec![NodeSelectorRequirement {
                key: "metadata.name".into(),
                operator: "In".into(),
                values: Some(vec![node.into()]),
            }]),
            match_expressions: None,
        }],
    )
}

pub fn with_host_ports(mut p: Pod, ports: &[(&str, &str, i32)]) -> Pod {
    p.spec.as_mut().unwrap().containers[0].ports = Some(
        ports
            .iter()
            .map(|(ip, proto, port)| ContainerPort {
                container_port: 80,
                host_ip: (!ip.is_empty()).then(|| ip.to_string()),
                host_port: Some(*port),
                protocol: Some(proto.to_string()),
                name: None,
            })
            .collect(),
    );
    p
}

pub fn node(name: &str) -> Node {
    Node {
        metadata: ObjectMeta {
            name: Some(name.into()),
            ..Default::default()
        },
        ..Default::default()
    }
}

pub fn node_alloc(name: &str, alloc: &[(&str, &str)]) -> Node {
    let mut n = node(name);
    n.status = Some(NodeStatus {
        allocatable: Some(list(alloc)),
        capacity: Some(list(alloc)),
        ..Default::default()
    });
    n
}

/// A node with 4 cpu, 8Gi memory, 110 pods.
pub fn std_node(name: &str) -> Node {
    node_alloc(name, &[("cpu", "4"), ("memory", "8Gi"), ("pods", "110")])
}

pub fn with_taints(mut n: Node, taints: Vec<Taint>) -> Node {
    n.spec.get_or_insert_with(Default::default).taints = Some(taints);
    n
}

pub fn with_labels(mut n: Node, pairs: &[(&str, &str)]) -> Node {
    n.metadata.labels = Some(label_map(pairs));
    n
}

pub fn label_map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// NodeInfos of `nodes` with the `pods` whose `spec.nodeName` names them.
pub fn infos<'a>(nodes: &'a [Node], pods: &'a [Pod]) -> Vec<crate::scheduler::NodeInfo<'a>> {
    nodes
        .iter()
        .map(|n| {
            let name = n.metadata.name.as_deref();
            let on = pods
                .iter()
                .filter(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == name)
                .collect();
            crate::scheduler::NodeInfo::new(n, on)
        })
        .collect()
}

pub fn bound_to(mut p: Pod, node: &str) -> Pod {
    p.spec.as_mut().unwrap().node_name = Some(node.into());
    p
}

pub fn with_pod_labels(mut p: Pod, pairs: &[(&str, &str)]) -> Pod {
    p.metadata.labels = Some(label_map(pairs));
    p
}

pub fn label_selector(pairs: &[(&str, &str)]) -> LabelSelector {
    LabelSelector {
        match_labels: Some(label_map(pairs)),
        match_expressions: None,
    }
}

/// A `PodAffinityTerm` selecting `pairs` in the owner's namespace.
pub fn affinity_term(pairs: &[(&str, &str)], topology_key: &str) -> PodAffinityTerm {
    PodAffinityTerm {
        label_selector: Some(label_selector(pairs)),
        topology_key: topology_key.into(),
        ..Default::default()
    }
}

fn affinity_mut(p: &mut Pod) -> &mut Affinity {
    p.spec
        .as_mut()
        .unwrap()
        .affinity
        .get_or_insert_with(Default::default)
}

/// Sets required pod affinity and anti-affinity terms.
pub fn with_pod_affinity(
    mut p: Pod,
    affinity: Vec<PodAffinityTerm>,
    anti: Vec<PodAffinityTerm>,
) -> Pod {
    let a = affinity_mut(&mut p);
    if !affinity.is_empty() {
        a.pod_affinity = Some(PodAffinity {
            required_during_scheduling_ignored_during_execution: Some(affinity),
            ..Default::default()
        });
    }
    if !anti.is_empty() {
        a.pod_anti_affinity = Some(PodAntiAffinity {
            required_during_scheduling_ignored_during_execution: Some(anti),
            ..Default::default()
        });
    }
    p
}

/// Sets preferred pod affinity (positive weight) or anti-affinity (negative weight) terms.
pub fn with_preferred(mut p: Pod, terms: Vec<(i32, PodAffinityTerm)>) -> Pod {
    let a = affinity_mut(&mut p);
    for (w, t) in terms {
        let weighted = WeightedPodAffinityTerm {
            weight: w.abs(),
            pod_affinity_term: t,
        };
        let list = if w > 0 {
            a.pod_affinity
                .get_or_insert_with(Default::default)
                .preferred_during_scheduling_ignored_during_execution
                .get_or_insert_with(Vec::new)
        } else {
            a.pod_anti_affinity
                .get_or_insert_with(Default::default)
                .preferred_during_scheduling_ignored_during_execution
                .get_or_insert_with(Vec::new)
        };
        list.push(weighted);
    }
    p
}

/// Adds a spread constraint selecting `pairs`.
pub fn with_spread(
    mut p: Pod,
    max_skew: i32,
    key: &str,
    when: &str,
    pairs: &[(&str, &str)],
) -> Pod {
    p.spec
        .as_mut()
        .unwrap()
        .topology_spread_constraints
        .get_or_insert_with(Vec::new)
        .push(TopologySpreadConstraint {
            max_skew,
            topology_key: key.into(),
            when_unsatisfiable: when.into(),
            label_selector: Some(label_selector(pairs)),
            ..Default::default()
        });
    p
}
