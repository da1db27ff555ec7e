//! Property tests: steady-state placement, rolling-update budgets and completion, determinism.

mod common;

use common::*;
use dsplay_api::pod::is_pod_ready;
use dsplay_api::taints::{taint, NO_EXECUTE, NO_SCHEDULE, PREFER_NO_SCHEDULE};
use dsplay_api::types::*;
use dsplay_sim::controller::daemonset::util::node_should_run_daemon_pod;
use dsplay_sim::controller::node_lifecycle::{fail_node, recover_node};
use dsplay_sim::{Cluster, ImageBehavior, NodeOptions};
use proptest::prelude::*;
use serde_json::json;
use std::collections::BTreeSet;
use std::time::Duration;

#[derive(Clone, Debug)]
struct NodeSpecGen {
    zone: Option<&'static str>,
    taint: Option<(&'static str, &'static str)>,
}

fn node_gen() -> impl Strategy<Value = NodeSpecGen> {
    (
        prop::option::of(prop::sample::select(vec!["a", "b"])),
        prop::option::of(prop::sample::select(vec![
            ("k", NO_SCHEDULE),
            ("k", NO_EXECUTE),
            ("k", PREFER_NO_SCHEDULE),
            ("other", NO_EXECUTE),
            ("other", NO_SCHEDULE),
        ])),
    )
        .prop_map(|(zone, taint)| NodeSpecGen { zone, taint })
}

fn apply_node(c: &mut Cluster, name: &str, g: &NodeSpecGen) {
    let mut n = c.store().node(name).cloned().unwrap();
    let labels = n.metadata.labels.get_or_insert_with(Default::default);
    labels.remove("zone");
    if let Some(z) = g.zone {
        labels.insert("zone".into(), z.into());
    }
    n.spec.get_or_insert_with(Default::default).taints =
        g.taint.map(|(k, e)| vec![taint(k, Some("v"), e)]);
    c.update(dsplay_api::Object::Node(n)).unwrap();
}

fn check_steady_state(c: &Cluster) -> Result<(), TestCaseError> {
    let ds = get_ds(c, "foo");
    let by_node = pods_by_node(c, "foo");
    let mut desired = 0;
    for node in c.store().nodes() {
        let name = node.metadata.name.clone().unwrap();
        let p = node_should_run_daemon_pod(node, &ds);
        let count = by_node.get(&name).map_or(0, |v| v.len());
        if p.should_run {
            desired += 1;
            prop_assert_eq!(count, 1, "node {} should run exactly one pod", name);
        } else if !p.should_continue_running {
            prop_assert_eq!(count, 0, "node {} must not keep a pod", name);
        } else {
            prop_assert!(count <= 1, "node {} at most one pod", name);
        }
    }
    // No pod anywhere but on nodes.
    prop_assert!(live_ds_pods(c, "foo").iter().all(|p| pod_node(p).is_some()));
    prop_assert_eq!(ds_status(c, "foo").desired, desired);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    // Invariant of issue 4: at steady state exactly one pod per node with shouldRun and none on nodes
    // without shouldContinueRunning — over random labels, taints, selectors and tolerations, before
    // and after random node changes.
    #[test]
    fn steady_state_one_pod_per_should_run_node(
        initial in prop::collection::vec(node_gen(), 1..7),
        later in prop::collection::vec(node_gen(), 7),
        selector in prop::option::of(prop::sample::select(vec!["a", "b"])),
        tolerate_k in any::<bool>(),
        seed in 0u64..1000,
    ) {
        let mut c = cluster_with_nodes(seed, initial.len());
        for (i, g) in initial.iter().enumerate() {
            apply_node(&mut c, &node_name(i), g);
        }
        let mut ds = new_daemon_set("foo");
        if let Some(z) = selector {
            pod_spec(&mut ds).node_selector = Some([("zone".to_string(), z.to_string())].into());
        }
        if tolerate_k {
            pod_spec(&mut ds).tolerations = Some(vec![serde_json::from_value(json!({"key": "k", "operator": "Exists"})).unwrap()]);
        }
        create_ds(&mut c, ds);
        settle(&mut c);
        check_steady_state(&c)?;
        for (i, g) in later.iter().enumerate().take(initial.len()) {
            apply_node(&mut c, &node_name(i), g);
        }
        settle(&mut c);
        check_steady_state(&c)?;
    }
}

#[derive(Clone, Debug)]
enum Budget {
    Unavailable(IntOrString),
    Surge(IntOrString),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum NewImage {
    Healthy,
    NeverReady,
    Crash,
    PullFail,
}

fn budget_gen() -> impl Strategy<Value = Budget> {
    prop_oneof![
        (1..4i32).prop_map(|i| Budget::Unavailable(IntOrString::Int(i))),
        (1..=10i32).prop_map(|p| Budget::Unavailable(IntOrString::String(format!("{}%", p * 10)))),
        (1..4i32).prop_map(|i| Budget::Surge(IntOrString::Int(i))),
        (1..=10i32).prop_map(|p| Budget::Surge(IntOrString::String(format!("{}%", p * 10)))),
    ]
}

fn scaled(v: &IntOrString, total: i32) -> i32 {
    match v {
        IntOrString::Int(i) => *i,
        IntOrString::String(s) => {
            let p: i32 = s.trim_end_matches('%').parse().unwrap();
            (p * total + 99) / 100
        }
    }
}

/// Desired nodes whose live pods include none that is available (Ready, minReadySeconds = 0).
fn unavailable_nodes(c: &Cluster) -> BTreeSet<String> {
    let available: BTreeSet<String> = live_ds_pods(c, "foo")
        .iter()
        .filter(|p| is_pod_ready(p))
        .filter_map(pod_node)
        .collect();
    c.store()
        .nodes()
        .filter_map(|n| n.metadata.name.clone())
        .filter(|n| !available.contains(n))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    // Invariant of issue 5: sampling every timer step of a rollout, desired nodes without an available
    // pod never exceed maxUnavailable (0 with surge) apart from nodes already unavailable before the
    // update; every rollout of a healthy image completes.
    #[test]
    fn rollout_respects_budget_and_completes(
        nodes in 1usize..=12,
        budget in budget_gen(),
        ready_delay in prop::option::of(0i32..20),
        min_ready in prop_oneof![3 => Just(0i32), 1 => 1i32..8],
        new_image in prop_oneof![4 => Just(NewImage::Healthy), 1 => Just(NewImage::NeverReady), 1 => Just(NewImage::Crash), 1 => Just(NewImage::PullFail)],
        seed in 0u64..1000,
    ) {
        let mut c = cluster_with_nodes(seed, nodes);
        let mut ds = new_daemon_set("foo");
        match &budget {
            Budget::Unavailable(v) => set_rolling(&mut ds, v.clone(), IntOrString::Int(0)),
            Budget::Surge(v) => set_rolling(&mut ds, IntOrString::Int(0), v.clone()),
        }
        if let Some(d) = ready_delay {
            pod_spec(&mut ds).containers[0].readiness_probe = Some(serde_json::from_value(json!({"exec": {"command": ["true"]}, "initialDelaySeconds": d, "periodSeconds": 1})).unwrap());
        }
        if min_ready > 0 {
            ds.spec.as_mut().unwrap().min_ready_seconds = Some(min_ready);
        }
        create_ds(&mut c, ds);
        settle(&mut c);
        prop_assert_eq!(ds_status(&c, "foo"), Status { desired: nodes as i32, current: nodes as i32, ready: nodes as i32, updated: nodes as i32, available: nodes as i32, ..Status::default() });
        let behavior = match new_image {
            NewImage::Healthy => ImageBehavior::default(),
            NewImage::NeverReady => ImageBehavior { ready: false, ..Default::default() },
            NewImage::Crash => ImageBehavior { crash: true, ..Default::default() },
            NewImage::PullFail => ImageBehavior { pull_ok: false, ..Default::default() },
        };
        c.set_image_behavior(IMAGE_V2, behavior);
        let already = unavailable_nodes(&c);
        let limit = match &budget {
            Budget::Unavailable(v) => scaled(v, nodes as i32) as usize,
            Budget::Surge(_) => 0,
        };
        update_ds(&mut c, "foo", |d| set_image(d, IMAGE_V2));
        let deadline = c.now_ms() + 900_000;
        loop {
            let bad: Vec<String> = unavailable_nodes(&c).into_iter().filter(|n| !already.contains(n)).collect();
            prop_assert!(bad.len() <= limit, "{} unavailable nodes > {} at t={} ({:?})", bad.len(), limit, c.now_ms(), bad);
            if c.next_timer().is_none_or(|t| t.timestamp_millis() > deadline) || !c.step() {
                break;
            }
        }
        let pods = live_ds_pods(&c, "foo");
        if new_image == NewImage::Healthy {
            prop_assert_eq!(ds_status(&c, "foo"), Status { desired: nodes as i32, current: nodes as i32, ready: nodes as i32, updated: nodes as i32, available: nodes as i32, ..Status::default() });
            prop_assert!(pods.iter().all(|p| pod_image(p) == IMAGE_V2));
            prop_assert_eq!(pods.len(), nodes);
        } else {
            // Stalled: old healthy pods kept on all but at most `limit` nodes.
            let old = pods.iter().filter(|p| pod_image(p) == IMAGE && is_pod_ready(p)).count();
            prop_assert!(old >= nodes - limit.min(nodes), "old healthy pods {} < {} - {}", old, nodes, limit);
        }
    }
}

#[derive(Clone, Debug)]
enum Op {
    AddNode,
    CreateDs(u8),
    UpdateImage(u8, u8),
    Taint(u8, bool),
    Fail(u8),
    Recover(u8),
    DeletePod(u8),
    Advance(u16),
}

fn op_gen() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => Just(Op::AddNode),
        2 => (0u8..3).prop_map(Op::CreateDs),
        2 => (0u8..3, 0u8..3).prop_map(|(d, i)| Op::UpdateImage(d, i)),
        1 => (0u8..6, any::<bool>()).prop_map(|(n, e)| Op::Taint(n, e)),
        1 => (0u8..6).prop_map(Op::Fail),
        1 => (0u8..6).prop_map(Op::Recover),
        1 => (0u8..20).prop_map(Op::DeletePod),
        3 => (0u16..120).prop_map(Op::Advance),
    ]
}

fn run_script(seed: u64, ops: &[Op]) -> Cluster {
    let mut c = Cluster::new(seed);
    let mut nodes = 0usize;
    for op in ops {
        match op {
            Op::AddNode => {
                let _ = c.add_node(&NodeOptions::new(&node_name(nodes)));
                nodes += 1;
            }
            Op::CreateDs(d) => {
                let _ = c.create(dsplay_api::Object::DaemonSet(new_daemon_set(&format!(
                    "ds{d}"
                ))));
            }
            Op::UpdateImage(d, i) => {
                if let Some(mut ds) = c.store().daemon_set("default", &format!("ds{d}")).cloned() {
                    set_image(&mut ds, &format!("registry.k8s.io/pause:v{i}"));
                    let _ = c.update(dsplay_api::Object::DaemonSet(ds));
                }
            }
            Op::Taint(n, exec) => {
                if let Some(mut node) = c.store().node(&node_name(*n as usize)).cloned() {
                    node.spec.get_or_insert_with(Default::default).taints = Some(vec![taint(
                        "k",
                        Some("v"),
                        if *exec { NO_EXECUTE } else { NO_SCHEDULE },
                    )]);
                    let _ = c.update(dsplay_api::Object::Node(node));
                }
            }
            Op::Fail(n) => {
                if c.store().node(&node_name(*n as usize)).is_some() {
                    fail_node(&mut c, &node_name(*n as usize));
                }
            }
            Op::Recover(n) => {
                if c.store().node(&node_name(*n as usize)).is_some() {
                    recover_node(&mut c, &node_name(*n as usize));
                }
            }
            Op::DeletePod(i) => {
                let pods: Vec<Pod> = c
                    .store()
                    .pods()
                    .filter(|p| {
                        p.metadata.namespace.as_deref() == Some("default")
                            && p.metadata.deletion_timestamp.is_none()
                    })
                    .cloned()
                    .collect();
                if !pods.is_empty() {
                    delete_pod(&mut c, &pods[*i as usize % pods.len()]);
                }
            }
            Op::Advance(s) => c.advance(Duration::from_secs(u64::from(*s))),
        }
    }
    c.settle(Duration::from_secs(600));
    c
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    // Invariant of issue 4: same seed + same inputs → identical watch log and identical pod names.
    #[test]
    fn deterministic_replay(seed in 0u64..1_000_000, ops in prop::collection::vec(op_gen(), 1..25)) {
        let a = run_script(seed, &ops);
        let b = run_script(seed, &ops);
        prop_assert_eq!(a.store().watch_log(), b.store().watch_log());
        let names = |c: &Cluster| c.store().pods().map(|p| (p.metadata.name.clone(), p.metadata.uid.clone(), p.spec.as_ref().and_then(|s| s.node_name.clone()))).collect::<Vec<_>>();
        prop_assert_eq!(names(&a), names(&b));
        let events = |c: &Cluster| c.store().events().map(|e| (e.metadata.name.clone(), e.message.clone(), e.count)).collect::<Vec<_>>();
        prop_assert_eq!(events(&a), events(&b));
        prop_assert_eq!(a.now_ms(), b.now_ms());
    }
}
