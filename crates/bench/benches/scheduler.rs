//! Scheduler benchmark: 5 000 pending daemon pods, each pinned to its node by `matchFields
//! metadata.name In [node]`, scheduled in one batch on 5 000 nodes. The NodeAffinity PreFilter result
//! plus the snapshot's name index make each pod evaluate one node, so the batch is ~O(pods · log nodes).
//! A second case schedules one unpinned pod against all 5 000 nodes (full Filter + Score).

use criterion::{criterion_group, criterion_main, Criterion};
use dsplay_api::taints::{exists_toleration, keys, NO_EXECUTE, NO_SCHEDULE};
use dsplay_api::types::*;
// Linked for its global allocator: the one the shipped `dsplay` binary uses.
use dsplay_bench as _;
use dsplay_sim::scheduler::{schedule_batch, schedule_pod, NodeInfo, ScheduleResult};
use k8s_openapi::api::core::v1::ResourceRequirements;
use std::collections::BTreeMap;

const N: usize = 5_000;

fn quantities(pairs: &[(&str, &str)]) -> BTreeMap<String, Quantity> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
        .collect()
}

fn node(i: usize) -> Node {
    let alloc = quantities(&[("cpu", "4"), ("memory", "8Gi"), ("pods", "110")]);
    Node {
        metadata: ObjectMeta {
            name: Some(format!("node-{i:05}")),
            labels: Some([("kubernetes.io/hostname".to_string(), format!("node-{i:05}"))].into()),
            ..Default::default()
        },
        status: Some(NodeStatus {
            allocatable: Some(alloc.clone()),
            capacity: Some(alloc),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn pod(name: &str, cpu: &str, memory: &str) -> Pod {
    Pod {
        metadata: ObjectMeta {
            name: Some(name.into()),
            namespace: Some("kube-system".into()),
            ..Default::default()
        },
        spec: Some(PodSpec {
            containers: vec![Container {
                name: "c".into(),
                resources: Some(ResourceRequirements {
                    requests: Some(quantities(&[("cpu", cpu), ("memory", memory)])),
                    ..Default::default()
                }),
                ..Default::default()
            }],
            tolerations: Some(vec![
                exists_toleration(keys::NOT_READY, NO_EXECUTE),
                exists_toleration(keys::UNREACHABLE, NO_EXECUTE),
                exists_toleration(keys::DISK_PRESSURE, NO_SCHEDULE),
                exists_toleration(keys::MEMORY_PRESSURE, NO_SCHEDULE),
                exists_toleration(keys::PID_PRESSURE, NO_SCHEDULE),
                exists_toleration(keys::UNSCHEDULABLE, NO_SCHEDULE),
            ]),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn daemon_pod(i: usize) -> Pod {
    let mut p = pod(&format!("ds-{i:05}"), "100m", "50Mi");
    p.spec.as_mut().unwrap().affinity = Some(Affinity {
        node_affinity: Some(NodeAffinity {
            required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                node_selector_terms: vec![NodeSelectorTerm {
                    match_fields: Some(vec![NodeSelectorRequirement {
                        key: "metadata.name".into(),
                        operator: "In".into(),
                        values: Some(vec![format!("node-{i:05}")]),
                    }]),
                    match_expressions: None,
                }],
            }),
            ..Default::default()
        }),
        ..Default::default()
    });
    p
}

fn bench(c: &mut Criterion) {
    let nodes: Vec<Node> = (0..N).map(node).collect();
    // Two existing workload pods per node.
    let existing: Vec<Vec<Pod>> = (0..N)
        .map(|i| {
            (0..2)
                .map(|k| pod(&format!("app-{i}-{k}"), "500m", "512Mi"))
                .collect()
        })
        .collect();
    let infos = || -> Vec<NodeInfo> {
        nodes
            .iter()
            .zip(&existing)
            .map(|(n, ps)| NodeInfo::new(n, ps.iter().collect()))
            .collect()
    };
    let pending: Vec<Pod> = (0..N).map(daemon_pod).collect();
    let refs: Vec<&Pod> = pending.iter().collect();

    // Sanity: every daemon pod lands on its own node.
    let results = schedule_batch(&refs, infos(), &mut |_| 0);
    for (i, r) in results.iter().enumerate() {
        assert_eq!(
            r,
            &ScheduleResult::Bound {
                node: format!("node-{i:05}")
            }
        );
    }

    let mut group = c.benchmark_group("scheduler");
    group.sample_size(20);
    group.bench_function(
        "schedule_batch 5000 pinned daemon pods on 5000 nodes",
        |b| b.iter(|| schedule_batch(std::hint::black_box(&refs), infos(), &mut |_| 0)),
    );
    let free = pod("free", "100m", "50Mi");
    let snapshot = infos();
    group.bench_function("schedule_pod 1 unpinned pod on 5000 nodes", |b| {
        b.iter(|| schedule_pod(std::hint::black_box(&free), &snapshot, &mut |n| n / 2))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
