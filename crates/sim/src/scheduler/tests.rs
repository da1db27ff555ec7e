//! End-to-end scheduling decisions: the FitError texts of
//! pkg/scheduler/framework/types.go FitError.Error byte for byte, preemption,
//! scoring and batches.

use super::testutil::*;
use super::*;
use dsplay_api::taints::{exists_toleration, keys, taint, NO_SCHEDULE, PREFER_NO_SCHEDULE};
use dsplay_api::types::{PodCondition, Time};

fn no_rng(_: usize) -> usize {
    panic!("unexpected tie")
}

fn unschedulable(msg: &str) -> ScheduleResult {
    ScheduleResult::Unschedulable {
        message: msg.into(),
        nominated_node: None,
        victims: vec![],
    }
}

#[test]
fn real_example_insufficient_cpu_everywhere() {
    // FitError, a real cluster's message (mirrors upstream TestSchedulerSchedulePod "insufficient
    // resources" + TestPostFilter "no victims").
    let nodes: Vec<Node> = ["n1", "n2", "n3"].iter().map(|n| std_node(n)).collect();
    let pods: Vec<Pod> = ["n1", "n2", "n3"]
        .iter()
        .map(|n| bound_to(pod_req(&format!("busy-{n}"), &[&[("cpu", "3")]]), n))
        .collect();
    let p = pod_req("p", &[&[("cpu", "2")]]);
    assert_eq!(
        schedule_pod(&p, &infos(&nodes, &pods), &mut no_rng),
        unschedulable(
            "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
        )
    );
}

#[test]
fn real_example_untolerated_taints() {
    // FitError, a real cluster's message (mirrors upstream TestFitError / TestPostFilter
    // "preemption should not be helpful").
    let nodes = vec![
        with_taints(
            std_node("control-plane"),
            vec![taint(keys::CONTROL_PLANE, None, NO_SCHEDULE)],
        ),
        with_taints(
            std_node("worker"),
            vec![taint(keys::UNREACHABLE, None, NO_SCHEDULE)],
        ),
    ];
    let p = pod_req("p", &[&[("cpu", "100m")]]);
    assert_eq!(
        schedule_pod(&p, &infos(&nodes, &[]), &mut no_rng),
        unschedulable(
            "0/2 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
        )
    );
}

#[test]
fn real_example_daemon_pod_pinned_to_a_full_node() {
    // FitError, a real cluster's message: a daemon pod that does not fit its node in a 4-node cluster.
    // Mirrors upstream TestSchedulerSchedulePod "test prefilter plugin returning Unschedulable"-style
    // PreFilterResult rows and TestDryRunPreemption "no victims" (equal priority is never preempted).
    let nodes: Vec<Node> = ["a", "b", "c", "d"].iter().map(|n| std_node(n)).collect();
    let pods = vec![bound_to(pod_req("app", &[&[("cpu", "3500m")]]), "b")];
    let mut p = daemon_pod("ds-x", "b");
    p.spec.as_mut().unwrap().containers[0] = pod_req("tmp", &[&[("cpu", "1")]])
        .spec
        .unwrap()
        .containers
        .remove(0);
    let got = schedule_pod(&p, &infos(&nodes, &pods), &mut no_rng);
    assert_eq!(
        got,
        unschedulable(
            "0/4 nodes are available: 1 Insufficient cpu, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling."
        )
    );
    // fits_reasons / explain for `sim explain`.
    let snap = Snapshot::new(infos(&nodes, &pods));
    let snapshot = snap.nodes();
    assert_eq!(
        fits_reasons(&p, &snap, &snapshot[1]),
        vec!["Insufficient cpu"]
    );
    assert_eq!(
        fits_reasons(&p, &snap, &snapshot[0]),
        vec!["node(s) didn't satisfy plugin(s) [NodeAffinity]"]
    );
    let explained = explain_node(&p, &snap, &snapshot[0]);
    assert_eq!(
        explained.len(),
        2,
        "prefilter verdict + required affinity mismatch: {explained:?}"
    );
}

fn critical_daemon(node: &str, cpu: &str) -> Pod {
    let mut p = with_priority(daemon_pod("kube-proxy-x", node), 2_000_001_000);
    p.spec.as_mut().unwrap().containers[0] = pod_req("tmp", &[&[("cpu", cpu)]])
        .spec
        .unwrap()
        .containers
        .remove(0);
    p
}

#[test]
fn system_node_critical_daemon_preempts_lowest_priority_pods() {
    // Mirrors upstream TestSelectVictimsOnNode / TestPreempt: remove all lower-priority pods, reprieve from
    // the highest priority down; what can't be re-added is the victim set. Only the pinned node counts.
    let nodes: Vec<Node> = ["a", "b", "c", "d"].iter().map(|n| std_node(n)).collect();
    let pods = vec![
        bound_to(with_priority(pod_req("low", &[&[("cpu", "2")]]), 0), "b"),
        bound_to(with_priority(pod_req("mid", &[&[("cpu", "1")]]), 100), "b"),
        bound_to(
            with_priority(pod_req("high", &[&[("cpu", "1")]]), 1000),
            "b",
        ),
        bound_to(
            with_priority(pod_req("elsewhere", &[&[("cpu", "4")]]), 0),
            "a",
        ),
    ];
    let p = critical_daemon("b", "1500m");
    assert_eq!(
        schedule_pod(&p, &infos(&nodes, &pods), &mut no_rng),
        ScheduleResult::Unschedulable {
            message: "0/4 nodes are available: 1 Insufficient cpu, 3 node(s) didn't satisfy plugin(s) [NodeAffinity].".into(),
            nominated_node: Some("b".into()),
            victims: vec![("default".into(), "low".into())],
        }
    );
}

#[test]
fn preemption_policy_never() {
    // Mirrors upstream TestPodEligibleToPreemptOthers "Pod with PreemptNever preemption policy".
    let nodes = vec![std_node("n1")];
    let pods = vec![bound_to(pod_req("low", &[&[("cpu", "4")]]), "n1")];
    let mut p = with_priority(pod_req("p", &[&[("cpu", "1")]]), 1000);
    p.spec.as_mut().unwrap().preemption_policy = Some("Never".into());
    assert_eq!(
        schedule_pod(&p, &infos(&nodes, &pods), &mut no_rng),
        unschedulable("0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.")
    );
}

#[test]
fn retried_preemptor_waits_for_terminating_victims() {
    // Mirrors upstream TestPodEligibleToPreemptOthers "Pod with nominated node, but without nominated node
    // status, and a terminating pod with lower priority on the nominated node".
    let nodes: Vec<Node> = ["a", "b"].iter().map(|n| std_node(n)).collect();
    let mut victim = bound_to(pod_req("low", &[&[("cpu", "4")]]), "b");
    victim.metadata.deletion_timestamp =
        Some(Time(chrono::DateTime::from_timestamp(10, 0).unwrap()));
    let mut p = critical_daemon("b", "1");
    victim
        .status
        .get_or_insert_with(Default::default)
        .conditions = Some(vec![PodCondition {
        last_transition_time: None,
        ..preemption::disruption_target_condition(&p)
    }]);
    p.status
        .get_or_insert_with(Default::default)
        .nominated_node_name = Some("b".into());
    let pods = vec![victim];
    assert_eq!(
        schedule_pod(&p, &infos(&nodes, &pods), &mut no_rng),
        unschedulable(
            "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: not eligible due to a terminating pod on the nominated node."
        )
    );
    // Once the victim is gone the preemptor binds to its nominated node.
    assert_eq!(
        schedule_pod(&p, &infos(&nodes, &[]), &mut no_rng),
        ScheduleResult::Bound { node: "b".into() }
    );
}

#[test]
fn unresolvable_request_is_not_helped_by_preemption() {
    // A request above the node's total allocatable is UnschedulableAndUnresolvable (fit.go Unresolvable).
    let nodes = vec![std_node("n1")];
    let pods = vec![bound_to(pod_req("low", &[&[("cpu", "1")]]), "n1")];
    let p = with_priority(pod_req("p", &[&[("cpu", "8")]]), 1000);
    assert_eq!(
        schedule_pod(&p, &infos(&nodes, &pods), &mut no_rng),
        unschedulable("0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.")
    );
}

#[test]
fn victims_that_do_not_help_report_the_filter_reason() {
    // SelectVictimsOnNode: if the pod still doesn't fit with every lower-priority pod removed, the node's
    // status is the filter failure itself.
    let nodes = vec![std_node("n1")];
    let pods = vec![
        bound_to(with_priority(pod_req("low", &[&[("cpu", "1")]]), 0), "n1"),
        bound_to(
            with_priority(pod_req("peer", &[&[("cpu", "3")]]), 1000),
            "n1",
        ),
    ];
    let p = with_priority(pod_req("p", &[&[("cpu", "2")]]), 1000);
    assert_eq!(
        schedule_pod(&p, &infos(&nodes, &pods), &mut no_rng),
        unschedulable("0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Insufficient cpu.")
    );
}

#[test]
fn pick_one_node_for_preemption_rules() {
    // Mirrors upstream TestPickOneNodeForPreemption (rules 2–5 and first-candidate fallback).
    let p = |name: &str, prio: i32, start: i64| with_start(with_priority(pod(name), prio), start);
    let (a10, b5, c5, d1, e5late) = (
        p("a", 10, 0),
        p("b", 5, 0),
        p("c", 5, 0),
        p("d", 1, 0),
        p("e", 5, 100),
    );
    let cases: Vec<(&str, Vec<(usize, Vec<&Pod>)>, usize)> = vec![
        (
            "a node without victims wins",
            vec![(0, vec![&a10]), (1, vec![])],
            1,
        ),
        (
            "lowest highest priority",
            vec![(0, vec![&a10]), (1, vec![&b5, &d1])],
            1,
        ),
        (
            "smallest priority sum",
            vec![(0, vec![&b5, &d1]), (1, vec![&c5, &b5])],
            0,
        ),
        (
            "fewest victims",
            vec![
                (0, vec![&b5, &d1, &d1]),
                (1, vec![&c5, &d1, &d1]),
                (2, vec![&b5, &d1]),
            ],
            2,
        ),
        (
            "latest start of the highest-priority victims",
            vec![(0, vec![&b5]), (1, vec![&e5late])],
            1,
        ),
        (
            "first candidate on a full tie",
            vec![(3, vec![&b5]), (1, vec![&c5])],
            3,
        ),
    ];
    for (name, candidates, want) in cases {
        assert_eq!(
            preemption::pick_one_node_for_preemption(&candidates),
            Some(want),
            "{name}"
        );
    }
}

#[test]
fn preemption_picks_node_and_minimal_victims_across_nodes() {
    // Mirrors upstream TestPreempt "preemption for topology spread"-free rows: candidates on every resolvable
    // node, node chosen by pickOneNodeForPreemption.
    let nodes: Vec<Node> = ["n1", "n2", "n3"].iter().map(|n| std_node(n)).collect();
    let pods = vec![
        bound_to(with_priority(pod_req("x1", &[&[("cpu", "4")]]), 10), "n1"),
        bound_to(
            with_start(with_priority(pod_req("y1", &[&[("cpu", "2")]]), 5), 0),
            "n2",
        ),
        bound_to(
            with_start(with_priority(pod_req("y2", &[&[("cpu", "2")]]), 5), 100),
            "n2",
        ),
        bound_to(
            with_start(with_priority(pod_req("z1", &[&[("cpu", "3")]]), 5), 200),
            "n3",
        ),
        bound_to(with_priority(pod_req("z2", &[&[("cpu", "1")]]), 1), "n3"),
    ];
    let p = with_priority(pod_req("p", &[&[("cpu", "2")]]), 100);
    assert_eq!(
        schedule_pod(&p, &infos(&nodes, &pods), &mut no_rng),
        ScheduleResult::Unschedulable {
            message: "0/3 nodes are available: 3 Insufficient cpu.".into(),
            nominated_node: Some("n3".into()),
            victims: vec![("default".into(), "z1".into())],
        }
    );
}

#[test]
fn scoring_prefers_less_allocated_and_untainted_nodes() {
    // Mirrors upstream TestSchedulerSchedulePod scoring rows (LeastAllocated, TaintToleration score).
    let nodes = vec![std_node("busy"), std_node("idle")];
    let pods = vec![bound_to(
        pod_req("load", &[&[("cpu", "3"), ("memory", "4Gi")]]),
        "busy",
    )];
    let p = pod_req("p", &[&[("cpu", "100m"), ("memory", "100Mi")]]);
    assert_eq!(
        schedule_pod(&p, &infos(&nodes, &pods), &mut no_rng),
        ScheduleResult::Bound {
            node: "idle".into()
        }
    );

    let nodes = vec![
        with_taints(std_node("soft"), vec![taint("x", None, PREFER_NO_SCHEDULE)]),
        std_node("plain"),
    ];
    assert_eq!(
        schedule_pod(&p, &infos(&nodes, &[]), &mut no_rng),
        ScheduleResult::Bound {
            node: "plain".into()
        }
    );
    let tolerant = with_tolerations(p.clone(), vec![exists_toleration("x", PREFER_NO_SCHEDULE)]);
    let mut picks = vec![];
    let got = schedule_pod(&tolerant, &infos(&nodes, &[]), &mut |n| {
        picks.push(n);
        0
    });
    assert_eq!(
        (got, picks),
        (
            ScheduleResult::Bound {
                node: "soft".into()
            },
            vec![2]
        ),
        "tolerated → tie → rng"
    );
}

#[test]
fn ties_use_rng_and_cordoned_nodes_need_the_toleration() {
    let mut cordoned = std_node("c");
    cordoned
        .spec
        .get_or_insert_with(Default::default)
        .unschedulable = Some(true);
    let nodes = vec![std_node("a"), cordoned, std_node("b")];
    let p = pod("p");
    let got = schedule_pod(&p, &infos(&nodes, &[]), &mut |n| {
        assert_eq!(n, 2);
        1
    });
    assert_eq!(got, ScheduleResult::Bound { node: "b".into() });
    let daemon = with_tolerations(
        daemon_pod("ds", "c"),
        vec![exists_toleration(keys::UNSCHEDULABLE, NO_SCHEDULE)],
    );
    assert_eq!(
        schedule_pod(&daemon, &infos(&nodes, &[]), &mut no_rng),
        ScheduleResult::Bound { node: "c".into() }
    );
}

#[test]
fn batch_assumes_bound_pods_and_respects_nominations() {
    // Two pods for one 4-cpu node: the second sees the first (assumed) and fails.
    let nodes = vec![std_node("n1")];
    let a = pod_req("a", &[&[("cpu", "3")]]);
    let b = pod_req("b", &[&[("cpu", "3")]]);
    let results = schedule_batch(&[&a, &b], infos(&nodes, &[]), &mut no_rng);
    assert_eq!(results[0], ScheduleResult::Bound { node: "n1".into() });
    assert_eq!(
        results[1],
        unschedulable("0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.")
    );

    // A nominated high-priority pod reserves its node against lower-priority pods.
    let mut preemptor = with_priority(pod_req("pre", &[&[("cpu", "3")]]), 1000);
    preemptor
        .status
        .get_or_insert_with(Default::default)
        .nominated_node_name = Some("n1".into());
    let small = pod_req("small", &[&[("cpu", "2")]]);
    let results = schedule_batch(&[&small], infos(&nodes, &[]), &mut no_rng);
    assert_eq!(
        results[0],
        ScheduleResult::Bound { node: "n1".into() },
        "no nomination known"
    );
    let mut snapshot = Snapshot::new(infos(&nodes, &[]));
    snapshot.add_nominated(&preemptor, "n1");
    assert!(matches!(
        snapshot.schedule(&small, &mut no_rng),
        ScheduleResult::Unschedulable { .. }
    ));
    assert_eq!(
        snapshot.schedule(&preemptor, &mut no_rng),
        ScheduleResult::Bound { node: "n1".into() }
    );
}

#[test]
fn no_nodes_and_conflicting_name_pins() {
    assert_eq!(
        schedule_pod(&pod("p"), &[], &mut no_rng),
        unschedulable(NO_NODES_AVAILABLE)
    );
    let nodes = vec![std_node("n1"), std_node("n2")];
    let p = with_required(
        pod("p"),
        vec![dsplay_api::types::NodeSelectorTerm {
            match_fields: Some(vec![
                dsplay_api::types::NodeSelectorRequirement {
                    key: "metadata.name".into(),
                    operator: "In".into(),
                    values: Some(vec!["n1".into()]),
                },
                dsplay_api::types::NodeSelectorRequirement {
                    key: "metadata.name".into(),
                    operator: "In".into(),
                    values: Some(vec!["n2".into()]),
                },
            ]),
            match_expressions: None,
        }],
    );
    assert_eq!(
        schedule_pod(&p, &infos(&nodes, &[]), &mut no_rng),
        unschedulable("0/2 nodes are available: pod affinity terms conflict. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.")
    );
    // A daemon pod pinned to a node that no longer exists.
    assert_eq!(
        schedule_pod(&daemon_pod("ds", "gone"), &infos(&nodes, &[]), &mut no_rng),
        unschedulable("0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.")
    );
}

#[test]
fn host_port_conflict_is_resolvable_by_preemption() {
    let nodes = vec![std_node("n1")];
    let pods = vec![bound_to(
        with_host_ports(pod("holder"), &[("", "TCP", 9100)]),
        "n1",
    )];
    let p = with_priority(
        with_host_ports(pod("exporter"), &[("", "TCP", 9100)]),
        2_000_001_000,
    );
    assert_eq!(
        schedule_pod(&p, &infos(&nodes, &pods), &mut no_rng),
        ScheduleResult::Unschedulable {
            message: "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports.".into(),
            nominated_node: Some("n1".into()),
            victims: vec![("default".into(), "holder".into())],
        }
    );
}
